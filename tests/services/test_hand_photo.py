"""The plain part of a hand's photo (companion/services/hand_photo.py): the confirmed picks,
their pips, a kept draft with one hand's tiles replaced, and the words on the tiles found."""

from __future__ import annotations

import pytest
from flask import Flask
from flask_babel import force_locale

from companion.services.hand_photo import (
    NOT_A_TILE,
    TileMark,
    confirmed_tiles,
    draft_with_tiles,
    sure_words,
)


def test_confirmed_tiles_drop_false_finds_and_name_the_outlines_still_unread() -> None:
    tiles, missing = confirmed_tiles(["6-5", NOT_A_TILE, "?", "7-7", "0-0"], set_size=6)
    assert tiles == ["6-5", "0-0"]
    assert missing == [2, 3]  # "?" unread; 7-7 is not a tile of a double-6 set


def test_a_draft_gets_the_confirmed_tiles_in_place_of_that_hand_only() -> None:
    kept = [
        ("round_no", "3"),
        ("total_1", "12"),
        ("tiles_1", "2-2"),
        ("total_2", "7"),
    ]
    assert draft_with_tiles(kept, "tiles_1", "total_1", ["6-5", "3-1"]) == [
        ("round_no", "3"),
        ("total_2", "7"),
        ("tiles_1", "6-5"),
        ("tiles_1", "3-1"),
    ]


def test_a_draft_with_no_tiles_confirmed_loses_that_hands_entries() -> None:
    assert draft_with_tiles([("total_1", "4")], "tiles_1", "total_1", []) == []


def marks(sure: int, unsure: int = 0) -> list[TileMark]:
    """``sure`` tiles read surely, then ``unsure`` read but not surely (where on the photo does
    not matter to the words)."""
    return [
        TileMark(i, "", 0, 0, 0, 0, "6-5", True, i < sure, 12, ()) for i in range(sure + unsure)
    ]


@pytest.mark.parametrize(
    ("lang", "sure", "unsure", "words"),
    [
        ("en", 1, 0, "1 tile found, read sure"),
        ("en", 4, 0, "4 tiles found, each read sure"),
        ("en", 0, 1, "1 tile found: 0 read sure, 1 to check"),
        ("en", 2, 1, "3 tiles found: 2 read sure, 1 to check"),
        ("ru", 1, 0, "Найдена 1 кость, прочитана уверенно"),
        ("ru", 3, 0, "Найдены 3 кости, каждая прочитана уверенно"),
        ("ru", 5, 0, "Найдено 5 костей, каждая прочитана уверенно"),
        ("ru", 20, 1, "Найдена 21 кость: уверенно 20, проверить 1"),
        ("ru", 2, 1, "Найдены 3 кости: уверенно 2, проверить 1"),
        ("ru", 3, 2, "Найдено 5 костей: уверенно 3, проверить 2"),
        ("cs", 1, 0, "Nalezena 1 kostka, přečtena jistě"),
        ("cs", 4, 0, "Nalezeny 4 kostky, každá přečtena jistě"),
        ("cs", 5, 0, "Nalezeno 5 kostek, každá přečtena jistě"),
        ("cs", 2, 1, "Nalezeny 3 kostky: jistě 2, zkontrolovat 1"),
        ("cs", 3, 2, "Nalezeno 5 kostek: jistě 3, zkontrolovat 2"),
    ],
)
def test_the_sure_words_speak_of_the_tiles_found_not_of_the_hand(
    app: Flask, lang: str, sure: int, unsure: int, words: str
) -> None:
    """The reader can miss a tile without a word: "All 4 tiles sure" told a player holding 5
    there was nothing to check. The words count the tiles found, in each language's plural
    forms, and say how many of those were read surely."""
    with app.test_request_context(), force_locale(lang):
        said = sure_words(marks(sure, unsure))
    assert said == words
