"""Property: any mutation of a valid question is answered or refused with the engine's error
object, never an exception, never output that cannot be printed, and never more work than a
bounded number of Python calls (work, not wall time: machine-independent).

The mutations are those of the differential test of issue 8: wrong types, unknown ids, tiles
outside the set, duplicated tiles, cycles in a layout, 10,000-tile layouts, huge and negative
numbers, deep nesting, lone surrogates and long text, applied anywhere in the question. The
valid questions are the worked cases of tests/data, which must still answer exactly as before
(tests/engine/test_cases.py)."""

from __future__ import annotations

import json
import sys
from typing import Any

from hypothesis import HealthCheck, given, settings

from companion.engine import answer
from tests.engine.mutations import QUESTIONS, mutated

#: Python calls one answer may make. The largest accepted questions (benchmarks/
#: hostile_questions.py: a double-18 layout replayed as one turn, 12 full hands) make about
#: 44,000; the worked cases of tests/data at most about 3,500.
WORK_BOUND = 100_000


def counted(question: Any) -> tuple[dict, int]:
    """The answer and the Python calls (functions and builtins) it took."""
    calls = 0

    def count(frame: Any, event: str, arg: Any) -> None:
        nonlocal calls
        calls += 1

    sys.setprofile(count)
    try:
        got = answer(question)
    finally:
        sys.setprofile(None)
    return got, calls


def assert_well_formed(got: Any) -> None:
    assert isinstance(got, dict)
    if "error" in got:
        assert set(got) == {"error"}
        err = got["error"]
        assert set(err) == {"code", "message", "where"}
        assert all(isinstance(v, str) for v in err.values())
        assert err["code"].isupper() and err["message"]
        # every refusal says what is wrong, and where; and no question finds an engine fault
        assert err["code"] not in ("MALFORMED", "ENGINE_FAULT"), err
    else:
        assert isinstance(got.get("message"), str) and isinstance(got.get("rule"), str)
    json.dumps(got, ensure_ascii=False, allow_nan=False).encode("utf-8")  # it can be printed


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated())
def test_a_mutated_question_is_answered_or_refused_within_bounded_work(question: Any) -> None:
    got, calls = counted(question)
    assert_well_formed(got)
    assert calls <= WORK_BOUND, calls


def test_the_worked_cases_stay_within_the_work_bound() -> None:
    worst = max(counted(q)[1] for q in QUESTIONS)
    assert worst <= WORK_BOUND // 10
