"""The bots page: each level described, and the ladder's figures from the simulator's data file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from webapp.adapters import setups
from webapp.game.strength import LADDER, main, measure_step, published

TITLES = {"id": "Bot-bot dan seberapa kuat mereka", "en": "The bots and how strong they are"}
TITLES["nl"] = "De bots en hoe sterk ze zijn"


def percent(share: float | None) -> str:
    return "–" if share is None else f"{100 * share:.0f}%"


@pytest.mark.parametrize("lang", ["id", "en", "nl"])
def test_the_page_shows_every_published_step_in_each_language(
    client: FlaskClient, lang: str
) -> None:
    figures = published()["games"]
    assert set(figures) == {"koa", "kowah", "koikoi"}, "run python -m webapp.game.strength"
    html = client.get(f"/{lang}/bots").get_data(as_text=True)
    assert f'lang="{lang}"' in html and f"<h1>{TITLES[lang]}</h1>" in html
    sections = {part.split("</h2>")[0]: part for part in html.split("<h2>")[1:]}
    for name, figure in figures.items():
        section = sections[setups()[name].title]
        for step in figure["steps"]:
            assert f"<td>{percent(step['share'])}" in section, (name, step["stronger"])
            assert f"<td>{step['decided']}</td>" in section


@pytest.mark.parametrize("lang", ["id", "en", "nl"])
def test_the_practice_setup_links_to_the_bots_page(client: FlaskClient, lang: str) -> None:
    for game in ("koa", "kowah", "koikoi"):
        html = client.get(f"/{lang}/play/{game}").get_data(as_text=True)
        assert f'href="/{lang}/bots"' in html


def test_one_command_measures_a_games_ladder_and_keeps_the_others(tmp_path: Path) -> None:
    out = tmp_path / "strength.json"
    out.write_text(json.dumps({"games": {"koa": {"kept": True}}}), encoding="utf-8")
    assert main(["--game", "kowah", "--scale", "0.0001", "--out", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["games"]["koa"] == {"kept": True}
    kowah = data["games"]["kowah"]
    assert kowah["options"]["players"] == 2  # one against one
    steps = kowah["steps"]
    assert [(s["stronger"], s["weaker"]) for s in steps] == list(
        zip(LADDER, LADDER[1:], strict=False)
    )
    for step in steps:
        assert step["deals"] == 1 and step["games"] == 2  # both seatings of one deal
        assert step["wins"] <= step["decided"] <= step["games"]
        assert step["command"].startswith("python -m webapp.game.simulate kowah --games 1")
    assert steps[0]["bots"] == [f"expert@{kowah['expert_deals']}", "hard"]


def test_the_cpu_time_of_a_step_counts_its_pool_of_processes() -> None:
    """With ``--processes`` the games run in child processes: their time is the step's."""
    step = measure_step("kowah", "expert", "hard", 0.0001, 2)
    assert step["games"] == 2 and step["cpu_seconds"] > 0
