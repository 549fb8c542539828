"""The import's first step on plain bytes and text (companion.services.exchange.decode): no app,
no database, no request. Each file that cannot be read gets one problem at ``$`` in the
player's words; a readable one comes back as plain data, its free text cleaned on a copy."""

from __future__ import annotations

import json

import pytest

from companion.services.exchange.decode import MAX_DEPTH, MAX_DIGITS, clean_free_text, decode

from .plain_doc import document, player


def _only_problem(source: str | bytes) -> str:
    decoded = decode(source)
    assert decoded.doc is None and [p.path for p in decoded.problems] == ["$"]
    return decoded.problems[0].message


def test_a_backup_decodes_to_the_same_plain_data():
    doc = document()
    decoded = decode(json.dumps(doc).encode("utf-8"))
    assert decoded.problems == [] and decoded.cleaned == 0
    assert decoded.doc == doc


def test_a_byte_order_mark_is_no_character_of_the_file():
    assert decode(b"\xef\xbb\xbf" + json.dumps(document()).encode()).doc == document()


@pytest.mark.parametrize(
    ("source", "words"),
    [
        (b"night_date,night_place,game_id\n2026-11-20,Kitchen,1\n", "looks like a CSV export"),
        (b"\xff\xfe{", "not UTF-8"),
        ('{"format": "chickenfoot-companion/v1", "players": [', "ends in the middle"),
        ('{"format": 1} {"format": 2}', "something follows the end"),
        ('{"place": "a\x01b"}', "a character JSON does not allow"),
        ('{"points": NaN}', "never has"),
        ('{"points": Infinity}', "never has"),
        ('{"points": 1e999}', "never has"),
        ('{"points": ' + "9" * (MAX_DIGITS + 1) + "}", f"{MAX_DIGITS + 1} digits"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), f"deeper than {MAX_DEPTH} levels"),
    ],
)
def test_a_file_that_cannot_be_read_gets_one_problem_in_words(source, words):
    message = _only_problem(source)
    assert words in message, message


def test_the_parsers_english_is_never_shown():
    message = _only_problem('{"format": "x",, }')
    assert "Expecting" not in message and "line 1, column" in message


def test_nesting_at_the_limit_is_read():
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert decode(text).problems == []


def test_a_decoded_document_is_copied_before_it_is_cleaned():
    doc = document()
    doc["players"][0]["name"] = "An\x1bna"  # an escape character pasted with the name
    doc["nights"][0]["notes"] = "Pizza\x07"
    decoded = decode(doc)
    assert decoded.cleaned == 2
    assert decoded.doc["players"][0]["name"] == "Anna"
    assert decoded.doc["nights"][0]["notes"] == "Pizza"
    assert doc["players"][0]["name"] == "An\x1bna"  # the caller's document is untouched


def test_invisible_format_characters_leave_imported_names():
    doc = document()
    doc["players"][0]["name"] = "\ufeffAn\u200bna\u200e"  # a BOM, a zero-width space, a bidi mark
    doc["players"] += [player("p4", "Anna")]
    assert clean_free_text(doc) == 1
    names = [(p["name"], p["name_key"]) for p in doc["players"]]
    assert names[0] == ("Anna", "anna")
    assert names[3] == ("Anna (2)", "anna (2)")  # the same name as the first: one live player


def test_live_players_with_one_name_key_are_numbered():
    doc = document()
    doc["players"] += [player("p4", "ANNA"), player("p5", "anna", merged_into="p1")]
    clean_free_text(doc)
    names = [(p["name"], p["name_key"]) for p in doc["players"]]
    assert names[0] == ("Anna", "anna")
    assert names[3] == ("ANNA (2)", "anna (2)")
    assert names[4] == ("anna", "anna")  # merged: not a live player, keeps its name


def test_values_that_are_not_text_are_left_for_validation():
    doc = {"players": [{"name": 7}], "nights": "none"}
    assert clean_free_text(doc) == 0 and doc == {"players": [{"name": 7}], "nights": "none"}
