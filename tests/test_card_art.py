"""The card sprites: complete decks, self-contained symbols, small files, reproducible output.

The id lists are copied from docs/rules.md on purpose rather than imported from the generator, so a
generator that drops or renames a card fails here.
"""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "webapp" / "static" / "cards"
SVG = "{http://www.w3.org/2000/svg}"

MONEY_IDS = [
    *(f"coins-{r}" for r in range(1, 10)),
    *(f"strings-{r}" for r in range(1, 10)),
    *(f"myriads-{r}" for r in range(1, 10)),
    "old-thousand",
    "red-flower",
    "white-flower",
]

HANAFUDA_IDS = """
jan-crane jan-poetry jan-plain-1 jan-plain-2
feb-warbler feb-poetry feb-plain-1 feb-plain-2
mar-curtain mar-poetry mar-plain-1 mar-plain-2
apr-cuckoo apr-ribbon apr-plain-1 apr-plain-2
may-bridge may-ribbon may-plain-1 may-plain-2
jun-butterflies jun-blue jun-plain-1 jun-plain-2
jul-boar jul-ribbon jul-plain-1 jul-plain-2
aug-moon aug-geese aug-plain-1 aug-plain-2
sep-sake-cup sep-blue sep-plain-1 sep-plain-2
oct-deer oct-blue oct-plain-1 oct-plain-2
nov-rain-man nov-swallow nov-ribbon nov-lightning
dec-phoenix dec-plain-1 dec-plain-2 dec-plain-3
""".split()

DECKS = {
    "money.svg": (MONEY_IDS, "0 0 40 104"),
    "hanafuda.svg": (HANAFUDA_IDS, "0 0 40 60"),
}
MAX_GZIP = 40 * 1024


def test_the_id_lists_are_the_decks_of_rules_md() -> None:
    assert len(set(MONEY_IDS)) == 30
    assert len(set(HANAFUDA_IDS)) == 48


@pytest.fixture(scope="module", params=sorted(DECKS))
def sprite(request: pytest.FixtureRequest) -> tuple[str, bytes, ET.Element]:
    data = (CARDS / request.param).read_bytes()
    return request.param, data, ET.fromstring(data)


def test_sprite_is_a_hidden_svg_root(sprite: tuple[str, bytes, ET.Element]) -> None:
    _, _, root = sprite
    assert root.tag == f"{SVG}svg"
    assert "display:none" in root.get("style", "")


def test_every_card_and_the_back_has_a_symbol_with_the_card_view_box(
    sprite: tuple[str, bytes, ET.Element],
) -> None:
    name, _, root = sprite
    ids, view_box = DECKS[name]
    symbols = {s.get("id"): s for s in root.iter(f"{SVG}symbol")}
    for card_id in [*ids, "back"]:
        assert card_id in symbols, card_id
        assert symbols[card_id].get("viewBox") == view_box, card_id
    assert set(symbols) == {*ids, "back"}


def test_internal_references_resolve_and_motifs_are_prefixed(
    sprite: tuple[str, bytes, ET.Element],
) -> None:
    name, data, root = sprite
    ids = {i for el in root.iter() if (i := el.get("id"))}
    cards = set(DECKS[name][0]) | {"back"}
    assert all(i in cards or i.startswith("m-") for i in ids), ids - cards
    text = data.decode()
    refs = set(re.findall(r'href="#([^"]+)"', text)) | set(re.findall(r"url\(#([^)]+)\)", text))
    assert refs, "expected shared motifs"
    assert refs <= ids, refs - ids
    # Only internal references: a card must not pull anything from another file.
    assert not re.search(r'href="(?!#)', text)


def test_every_card_pins_the_inherited_paint_properties(
    sprite: tuple[str, bytes, ET.Element],
) -> None:
    # Pages use the cards through an external <use>; inherited properties flow in from it, so
    # each card's root group must set them instead of relying on the page's CSS.
    _, _, root = sprite
    for sym in root.iter(f"{SVG}symbol"):
        group = sym[0]
        assert group.tag == f"{SVG}g", sym.get("id")
        for prop in ("fill", "stroke", "stroke-width", "stroke-dasharray", "fill-opacity"):
            assert group.get(prop) is not None, (sym.get("id"), prop)


def test_sprite_is_small_once_gzipped(sprite: tuple[str, bytes, ET.Element]) -> None:
    _, data, _ = sprite
    assert len(gzip.compress(data, 9)) <= MAX_GZIP


def test_the_two_sprites_share_no_motif_ids() -> None:
    # A page may inline both sprites; then only the card ids (both decks have `back`) may meet.
    ids = [
        {el.get("id") for el in ET.fromstring((CARDS / name).read_bytes()).iter() if el.get("id")}
        for name in DECKS
    ]
    assert ids[0] & ids[1] == {"back"}


def test_generator_reproduces_the_committed_sprites(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "scripts.card_art", "--out", str(tmp_path)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    for name in DECKS:
        assert (tmp_path / name).read_bytes() == (CARDS / name).read_bytes(), (
            f"{name} differs from the generator's output: run python -m scripts.card_art"
        )
