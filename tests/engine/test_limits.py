"""Every input of a question is bounded by what the game allows (companion/engine/limits.py):
a question over a bound is refused with TOO_LARGE naming where, before any work."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from companion.engine import answer, parse_tile
from companion.engine.errors import TileError
from companion.engine.limits import (
    INPUT_FIELDS,
    MAX_DEPTH,
    MAX_FREE_TEXT,
    MAX_NUMBER,
    MAX_ROUNDS,
    MAX_TEXT,
    MAX_VALUES,
    HugeNumber,
    count_values,
    read_json,
)
from tests.engine.util import CROSS, layout_json

CROSS_JSON = layout_json("9-9", *CROSS)


def ask(category: str, **inp: object) -> dict:
    return answer(
        {"id": "Q", "category": category, "ruleset": {"preset": "standard"}, "input": inp}
    )


def refused(got: dict, code: str, where: str) -> dict:
    assert set(got) == {"error"}, got
    assert (got["error"]["code"], got["error"]["where"]) == (code, where), got
    assert got["error"]["message"]
    return got["error"]


# --- what the game allows, field by field ------------------------------------------------------
@pytest.mark.parametrize(
    ("category", "inp", "code", "where"),
    [
        # 13 players' round scores; 11 rounds of a double-9 game (it has 10)
        ("scoring", {"round_scores": {f"P{i}": [0] for i in range(13)}}, "TOO_LARGE",
         "input.round_scores"),
        ("scoring", {"set": 9, "round_scores": {"A": [1] * 11, "B": [1]}}, "TOO_LARGE",
         "input.round_scores.A"),
        ("tiebreak", {"set": 6, "round_scores": {"A": [1] * 8, "B": [1]}}, "TOO_LARGE",
         "input.round_scores.A"),
        # a score no hand of the set could reach
        ("tiebreak", {"set": 6, "round_scores": {"A": [500], "B": [1]}}, "BAD_SCORE",
         "input.round_scores.A[0]"),
        # a hand / a layout / a turn longer than the set
        ("scoring", {"set": 6, "hand": ["1-2"] * 29}, "TOO_LARGE", "input.hand"),
        ("placement", {"set": 6, "layout": {"center": "6-6", "tiles": [{}] * 28},
                       "move": {"tile": "6-5", "on": "C"}}, "TOO_LARGE", "input.layout.tiles"),
        ("placement", {"set": 6, "layout": {"center": "6-6"}, "turn": [{}] * 29},
         "TOO_LARGE", "input.turn"),
        ("round_end", {"set": 9, "layout": CROSS_JSON, "hands": {f"P{i}": [] for i in range(13)}},
         "TOO_LARGE", "input.hands"),
        # player counts, rounds, holders, seats
        ("setup", {"set": 9, "players_list": [2] * 12}, "TOO_LARGE", "input.players_list"),
        ("round_sequence", {"set": 6, "rounds_played": [6] * 8}, "TOO_LARGE",
         "input.rounds_played"),
        ("start_player", {"set": 9, "round": 11}, "BAD_VALUE", "input.round"),
        ("start_player", {"set": 9, "seats_clockwise": [f"P{i}" for i in range(13)]},
         "TOO_LARGE", "input.seats_clockwise"),
        ("draw", {"set": 9, "layout": CROSS_JSON, "hand": ["1-2"], "yard_count": 56},
         "BAD_VALUE", "input.yard_count"),
    ],
)  # fmt: skip
def test_inputs_beyond_the_game_are_refused(category: str, inp: dict, code: str, where: str):
    refused(ask(category, **inp), code, where)


def test_the_largest_game_still_answers() -> None:
    # 12 players x 19 rounds of a double-18 game, every score a possible one
    scores = {f"P{i}": [(i * 7 + r) % 40 for r in range(19)] for i in range(12)}
    got = ask("scoring", set=18, round_scores=scores)
    assert len(got["leader_after_each_round"]) == 19
    assert ask("setup", set=9, players_list=list(range(2, 13)))["hand_size"]["12"]


# --- the shape of any question ------------------------------------------------------------------
def test_a_260000_item_list_is_refused_before_any_work() -> None:
    got = ask("setup", set=9, players_list=[2] * 260_000)
    err = refused(got, "TOO_LARGE", "input.players_list")
    assert "260000" in err["message"]


def test_text_longer_than_a_name_is_refused() -> None:
    name = "N" * (MAX_TEXT + 1)
    refused(ask("tiebreak", round_scores={name: [0], "B": [1]}), "TOO_LARGE", "input.round_scores")
    refused(ask("start_player", set=9, found_by=name), "TOO_LARGE", "input.found_by")
    long_id = answer({"id": "x" * 1000, "category": "scoring", "input": {"hand": []}})
    refused(long_id, "TOO_LARGE", "id")


def test_nesting_deeper_than_a_question_is_refused() -> None:
    deep: object = "1-2"
    for _ in range(MAX_DEPTH + 2):
        deep = [deep]
    refused(ask("scoring", hand=deep), "TOO_LARGE", "input.hand[0][0][0][0][0][0]")


def test_numbers_beyond_the_game_are_refused() -> None:
    refused(ask("draw", yard_count=MAX_NUMBER + 1), "TOO_LARGE", "input.yard_count")
    refused(ask("draw", yard_count=HugeNumber(5000)), "TOO_LARGE", "input.yard_count")


def test_too_many_values_are_refused() -> None:
    junk = [[0] * 100 for _ in range(MAX_VALUES // 100 + 1)]
    got = ask("scoring", hand=[], notes=junk)
    assert got["error"]["code"] == "TOO_LARGE"


def test_a_lone_surrogate_is_refused_where_it_is() -> None:
    bad = "P\udc80"
    refused(ask("tiebreak", round_scores={bad: [0], "B": [1]}), "BAD_TEXT", "input.round_scores")
    refused(ask("scoring", hand=["1-2", "3\ud800-4"]), "BAD_TEXT", "input.hand[1]")
    err = refused(ask("start_player", set=9, found_by=bad), "BAD_TEXT", "input.found_by")
    json.dumps(err, ensure_ascii=False).encode("utf-8")  # the error itself prints


def test_fields_the_engine_does_not_read_are_not_bounded() -> None:
    got = answer({"category": "scoring", "input": {"hand": ["1-2"]}, "notes": "x" * 10_000})
    assert got["score"] == 3


# --- reading JSON -----------------------------------------------------------------------------
def test_read_json_keeps_a_5000_digit_integer_as_a_marker() -> None:
    doc = read_json('{"a": ' + "9" * 5000 + ', "b": -12, "c": 1.5}')
    assert doc == {"a": HugeNumber(5000), "b": -12, "c": 1.5}


def test_count_values_stops_past_the_bound() -> None:
    q = {"category": "setup", "input": {"players_list": list(range(10_000))}, "expected": [1] * 99}
    assert count_values(q, 100) == 101
    assert count_values({"category": "x", "input": {"a": [1, 2]}}, 100) == 5
    assert count_values("not a question", 100) == 1


# --- the tile parser ----------------------------------------------------------------------------
def test_a_long_tile_text_is_refused_before_the_pattern_runs(monkeypatch) -> None:
    # The old pattern "\\s*\\[?\\s*" tried every split of a run of spaces (quadratic): 3,000
    # spaces took about 80 ms, 20,000 about 3.5 s. Text longer than a tile is refused unread.
    from companion.engine import tiles

    matched: list[str] = []
    pattern = tiles._TILE_TEXT

    class Spy:
        def match(self, text: str):  # noqa: ANN201
            matched.append(text)
            return pattern.match(text)

    monkeypatch.setattr(tiles, "_TILE_TEXT", Spy())
    with pytest.raises(TileError):
        parse_tile(" " * 3000 + "x")
    assert matched == []
    assert parse_tile(" [ 9 - 5 ] ") == parse_tile("5-9")
    assert matched == [" [ 9 - 5 ] ", "5-9"]


# --- issue 23: unread fields, rounds in words, the escape written once, NaN -------------------
def test_an_input_field_the_engine_does_not_read_is_not_held_to_a_names_length() -> None:
    """A 69-character note beside the input fields is carried, not refused; only a remark
    beyond MAX_FREE_TEXT is, while a field the engine reads keeps the 60-character bound."""
    note = "The table argued about this one for ten minutes; Bob says it is fine."
    assert len(note) == 69
    got = ask("placement", layout={"center": "9-9"}, move={"tile": "9-5", "on": "C"}, note=note)
    assert got["legal"] is True
    refused(ask("scoring", hand=["1-2"], note="x" * (MAX_FREE_TEXT + 1)), "TOO_LARGE", "input.note")
    refused(ask("start_player", set=9, found_by="N" * 69), "TOO_LARGE", "input.found_by")


def test_every_field_the_engine_reads_is_listed_as_read() -> None:
    """INPUT_FIELDS is what the engine reads: answering every worked case through an input
    that records its reads reads nothing else."""

    class Recording(dict):
        read: set[str] = set()

        def __getitem__(self, key):
            Recording.read.add(key)
            return super().__getitem__(key)

        def get(self, key, default=None):
            Recording.read.add(key)
            return super().get(key, default)

        def __contains__(self, key):
            Recording.read.add(key)
            return super().__contains__(key)

    root = Path(__file__).resolve().parents[2] / "tests" / "data"
    for name in ("cases.json", "cases_extra.json"):
        for case in json.loads((root / name).read_text("utf-8"))["cases"]:
            if isinstance(case.get("input"), dict):
                answer({**case, "input": Recording(case["input"])})
    assert Recording.read - INPUT_FIELDS == set()
    assert len(Recording.read) > 20


def test_every_field_an_accessor_names_is_listed_as_read() -> None:
    """The same from the code: every input key the question modules read by name."""
    accessors = {"has", "integer", "items", "names", "flag", "text", "hand", "player_tiles", "get"}
    named = set()
    folder = Path(__file__).resolve().parents[2] / "companion" / "engine" / "questions"
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Subscript) and ast.unparse(node.value) in ("q.input", "inp"):
                key = node.slice
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in accessors
                and ast.unparse(node.func.value) in ("q", "self", "q.input", "self.input", "inp")
                and node.args
            ):
                key = node.args[0]
            else:
                continue
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                named.add(key.value)
    assert named == INPUT_FIELDS


def test_200_rounds_are_refused_in_rounds_not_tiles() -> None:
    err = refused(
        ask("tiebreak", round_scores={"A": [1] * 200, "B": [1]}),
        "TOO_LARGE",
        "input.round_scores.A",
    )
    assert "200 rounds" in err["message"] and f"has {MAX_ROUNDS}" in err["message"]
    assert "tiles" not in err["message"]


def test_a_lone_surrogate_is_quoted_with_one_backslash() -> None:
    err = refused(ask("start_player", set=9, found_by="P\udc80"), "BAD_TEXT", "input.found_by")
    assert err["message"].startswith("'P\\udc80' is not valid text")


def test_nan_and_infinity_are_refused_where_they_stand() -> None:
    """read_json keeps them as markers (as the command line and the API both read), and the
    question holding one is refused naming its place, whether the engine reads it or not."""
    question = read_json('{"category": "draw", "input": {"yard_count": NaN, "note": Infinity}}')
    err = refused(answer(question), "BAD_VALUE", "input.yard_count")
    assert "NaN" in err["message"]
    refused(answer(read_json('{"category": "scoring", "input": {"hand": [], "x": -Infinity}}')),
            "BAD_VALUE", "input.x")  # fmt: skip
