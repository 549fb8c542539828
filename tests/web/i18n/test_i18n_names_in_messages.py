"""Catalog wording that the English original hides: the "No Draw" preset and the old "double
chicken foot" page are names to translate (ru and cs did, lt, es and de left them in English),
and a player's name in Russian and Czech stands where neither its gender nor its case is
needed ("как часто Аня оказывался впереди", "Объединить Аня с другим игроком")."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

CATALOGS = Path(__file__).resolve().parents[3] / "companion" / "translations"
LANGUAGES = ("ru", "lt", "cs", "es", "de")
NAMED = (
    "'No Draw' house rules",
    'Nathan Long\'s "No Draw" house rules',
    "The 'No Draw' tables for double-9, 12 and 15.",
    "Yes: the round ends at once ('No Draw').",
    'the old "double chicken foot" page (2002)',
)
#: the messages that put a player's name after a verb or preposition
NAME_MESSAGES = (
    "Merge %(name)s into another player",
    "Merge into %(name)s",
    "Back to %(name)s",
    "Head-to-head in the games both finished: how often %(name)s finished ahead of, behind or"
    " level with each opponent",
)


def translation(lang: str, msgid: str) -> str:
    with (CATALOGS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f)
    message = catalog.get(msgid)
    assert message is not None and message.string, (lang, msgid)
    return str(message.string)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("msgid", NAMED)
def test_preset_and_page_names_are_translated(lang: str, msgid: str) -> None:
    text = translation(lang, msgid)
    assert "No Draw" not in text and "chicken foot" not in text, (lang, text)


@pytest.mark.parametrize("msgid", NAME_MESSAGES)
def test_a_name_in_russian_needs_no_gender_or_case(msgid: str) -> None:
    text = translation("ru", msgid)
    assert "оказывал" not in text
    assert "игрок %(name)s" in text or "«%(name)s»" in text, text


@pytest.mark.parametrize("msgid", NAME_MESSAGES)
def test_a_name_in_czech_needs_no_gender_or_case(msgid: str) -> None:
    text = translation("cs", msgid)
    assert "byl(a)" not in text
    assert "hráč %(name)s" in text or "hráče %(name)s" in text or ": %(name)s" in text, text


#: a player's name as the owner of something: the word before it carries the case, the name
#: stays as typed ("Ona ranka raundui su 6-6" read as Ona's nominative: tester-135)
OWNER = {"ru": "игрока %(who)s", "cs": "hráče %(who)s", "lt": "žaidėjo %(who)s"}


@pytest.mark.parametrize("lang", sorted(OWNER))
def test_a_hands_owner_is_named_after_a_word_that_takes_the_case(lang: str) -> None:
    text = translation(lang, "%(who)s's hand for the round with %(d)s")
    assert OWNER[lang] in text.lower(), text
