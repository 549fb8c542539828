"""How a question reaches its answer (issue 9, finding 7): an "edge" question names its kind
(or the kind follows from a declared table of keys), and only a question the engine refuses is
blamed on the question: an engine bug is an ``ENGINE_FAULT`` that is logged, never a
"malformed question"."""

from __future__ import annotations

import logging

import pytest

from companion.engine import answer, questions
from companion.engine.questions.edge import IMPLIED_KINDS, EdgeKind


def _edge(**input_: object) -> dict:
    return answer({"category": "edge", "ruleset": {"set_size": 9}, "input": input_})


def test_a_named_kind_decides_whatever_else_the_input_gives() -> None:
    # With a player count the keys alone would ask for the deal; the kind asks for the centre.
    got = _edge(kind="centre_capacity", requested_center_spokes=12, players=4)
    assert got["feasible"] is False and got["rule"] == "5.2"
    assert "hand_size" not in got
    implied = _edge(requested_center_spokes=12, players=4)
    assert "hand_size" in implied  # the keys' reading, unchanged for old questions


def test_an_unknown_kind_is_refused_where_it_is() -> None:
    got = _edge(kind="guess", tiles_left=1)
    assert got["error"]["code"] == "BAD_VALUE" and got["error"]["where"] == "input.kind"


@pytest.mark.parametrize(
    ("kind", "input_", "fact"),
    [
        (
            "announcement",
            {"tiles_left": 1, "announced": False, "next_player_has_played": True},
            "penalty_applies",
        ),
        ("scoring", {"round_end": "BLOCKED", "hand": ["0-0"]}, "is_zero_round"),
        ("set_facts", {}, "round_start_doubles"),
    ],
)
def test_each_kind_gives_its_facts(kind: str, input_: dict, fact: str) -> None:
    assert fact in _edge(kind=kind, **input_)


def test_every_implied_kind_is_a_kind_with_an_answer() -> None:
    assert {row.kind for row in IMPLIED_KINDS} <= set(EdgeKind)
    assert set(questions.edge.EDGE_ANSWERS) == set(EdgeKind)


def test_an_engine_bug_is_a_logged_engine_fault_not_a_malformed_question(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(q: object) -> dict:
        raise TypeError("a bug in the engine")

    monkeypatch.setitem(questions.HANDLERS, "scoring", broken)
    with caplog.at_level(logging.ERROR, logger="companion.engine"):
        got = answer({"category": "scoring", "input": {"hand": []}})
    assert got["error"]["code"] == "ENGINE_FAULT"
    assert "a bug in the engine" in caplog.text
