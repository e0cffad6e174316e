"""The translation catalogs are complete: no page shows an untranslated sentence."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po

from webapp.cli import CATALOGS, CONFIG


def catalog(lang: str) -> list[tuple[str, str, bool]]:
    with (CATALOGS / lang / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        entries = read_po(handle, locale=lang)
    rows = []
    for message in entries:
        if not message.id:
            continue
        ident = message.id if isinstance(message.id, str) else message.id[0]
        strings = (
            tuple(message.string)
            if isinstance(message.string, (tuple, list))
            else (message.string,)
        )
        rows.append((ident, "".join(s or "" for s in strings), message.fuzzy))
    return rows


@pytest.fixture(scope="module")
def source_messages(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """The messages in the code and templates now (extracted once: a second a run)."""
    target = tmp_path_factory.mktemp("catalogs") / "fresh.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", str(CONFIG)]
        + ["-k", "_l", "--no-location", "-o", str(target), str(CATALOGS.parent)],
        check=True,
        capture_output=True,
    )
    with target.open("rb") as handle:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(handle) if m.id}


@pytest.mark.parametrize("lang", ["id", "nl"])
def test_every_message_has_a_translation(lang: str, source_messages: set[str]) -> None:
    rows = catalog(lang)
    untranslated = [ident for ident, string, _ in rows if not string.strip()]
    fuzzy = [ident for ident, _, is_fuzzy in rows if is_fuzzy]
    missing = source_messages - {ident for ident, _, _ in rows}
    assert not missing, f"{lang}: run 'flask translate update': {sorted(missing)[:10]}"
    assert not untranslated, f"{lang}: untranslated: {untranslated[:10]}"
    assert not fuzzy, f"{lang}: fuzzy: {fuzzy[:10]}"


@pytest.mark.parametrize("lang", ["id", "nl"])
def test_translations_keep_their_placeholders(lang: str) -> None:
    placeholder = re.compile(r"%\(\w+\)s|\{\w*\}")
    for ident, string, _ in catalog(lang):
        assert sorted(placeholder.findall(ident)) == sorted(placeholder.findall(string)), ident


#: "You" followed by a verb in the third person ("You wins", "You is", "You begins"): a
#: sentence about the reader that was written for somebody else.  Words ending in "ss"
#: ("You guess") are not third-person forms.
YOU_AS_THIRD_PERSON = re.compile(r"\bYou (?:is|was|has|does|[a-z]*[^\Ws]s)\b")


def test_the_third_person_pattern_knows_a_you_sentence_from_a_wrong_one() -> None:
    wrong = ["You begins.", "Round 1: You scores 5", "Koa! You wins the round", "You is ceki!"]
    right = ["You begin.", "You win the round", "You are ceki!", "You guess", "You threw it."]
    assert all(YOU_AS_THIRD_PERSON.search(text) for text in wrong)
    assert not any(YOU_AS_THIRD_PERSON.search(text) for text in right)


def test_no_english_sentence_says_you_with_a_third_person_verb(source_messages: set[str]) -> None:
    english = source_messages | {string for _, string, _ in catalog("en")}
    assert not sorted(text for text in english if YOU_AS_THIRD_PERSON.search(text))
