"""The order of rounds and the missing start double (RULES.md §3.5, §4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from companion.engine import (
    NextRound,
    RoundState,
    RuleSet,
    next_round,
    round_double,
    round_doubles,
)
from companion.engine.errors import RuleError


def upcoming(
    rules: RuleSet,
    set_size: int,
    played: Sequence[int] = (),
    holders: Mapping[int, str | None] | None = None,
) -> NextRound:
    """next_round of the state these make (the tests' cases as before)."""
    state = RoundState(rules=rules, set_size=set_size, played=played, holders=holders or {})
    return next_round(state)


def missing(rule: str, **more: object) -> RuleSet:
    return RuleSet().with_overrides({"missing_start_double": rule, **more})


@pytest.mark.parametrize("n", [6, 9, 12, 15, 18])
def test_one_round_per_double_highest_first(n: int) -> None:
    assert round_doubles(n) == tuple(range(n, -1, -1))
    assert len(round_doubles(n)) == n + 1
    assert round_double(n, 1) == n and round_double(n, n + 1) == 0
    first = upcoming(RuleSet(), n)
    assert (first.start_double, first.rounds_left, first.following) == (n, n + 1, n - 1)


@pytest.mark.parametrize(("n", "r"), [(9, 0), (9, 11), (6, 8)])
def test_round_numbers_outside_the_game(n: int, r: int) -> None:
    with pytest.raises(RuleError) as err:
        round_double(n, r)
    assert err.value.code == "BAD_ROUND"


def test_the_game_ends_after_the_double_blank_round() -> None:  # SEQ-21
    last = upcoming(RuleSet(), 9, list(range(9, 0, -1)))
    assert (last.start_double, last.following, last.rounds_left, last.game_over) == (
        0,
        None,
        1,
        False,
    )
    over = upcoming(RuleSet(), 9, list(range(9, -1, -1)))
    assert over.game_over and over.start_double is None and over.rounds_left == 0


@pytest.mark.parametrize(
    ("rule", "start", "burned", "passed", "drawn_for", "redeal", "rounds_left"),
    [
        ("draw_until_found", 8, (), (), True, False, 9),
        ("skip_to_next_lower", 7, (8,), (), False, False, 8),
        ("skip_to_next_lower_except_blank", 7, (8,), (), False, False, 8),
        ("retry_next_round", 7, (), (8,), False, False, 9),
        ("reshuffle_redeal", 8, (), (), False, True, 9),
    ],
)
def test_nobody_holds_8_8_in_round_2(
    rule: str,
    start: int,
    burned: tuple[int, ...],
    passed: tuple[int, ...],
    drawn_for: bool,
    redeal: bool,
    rounds_left: int,
) -> None:
    nxt = upcoming(missing(rule), 9, [9], {8: None, 7: "P2"})
    assert nxt.start_double == start
    assert (nxt.burned, nxt.passed_over, nxt.drawn_for, nxt.redeal) == (
        burned, passed, drawn_for, redeal
    )  # fmt: skip
    assert nxt.rounds_left == rounds_left
    assert "8-8" in nxt.procedure


def test_skipping_burns_for_good_and_looks_below_the_double_used() -> None:
    rules = missing("skip_to_next_lower")
    nxt = upcoming(rules, 9, [9, 7])
    assert nxt.start_double == 6 and nxt.burned == (8,)  # 8-8 never comes back
    several = upcoming(rules, 9, [9], {8: None, 7: None, 6: "P1"})
    assert several.start_double == 6 and several.burned == (8, 7)


def test_skipping_the_double_blank() -> None:
    plain = upcoming(missing("skip_to_next_lower"), 9, list(range(9, 0, -1)), {0: None})
    assert plain.game_over and plain.burned == (0,)
    kept = upcoming(missing("skip_to_next_lower_except_blank"), 9, list(range(9, 0, -1)), {0: None})
    assert kept.start_double == 0 and kept.drawn_for  # 0-0 is always drawn for


def test_retry_brings_the_passed_double_back_and_every_double_gets_its_round() -> None:
    rules = missing("retry_next_round")
    assert upcoming(rules, 9, [9, 7], {8: "P1"}).start_double == 8
    assert upcoming(rules, 9, [9, 7]).rounds_left == 8  # 8, 6..0
    last_two = upcoming(rules, 9, list(range(9, 1, -1)), {1: None, 0: None})
    assert last_two.start_double == 1 and last_two.drawn_for  # the last ones left are drawn for
    assert last_two.passed_over == ()


def test_a_double_pulled_before_the_deal_is_never_missing() -> None:
    rules = missing("skip_to_next_lower", start_double_source="pulled_before_deal")
    nxt = upcoming(rules, 9, [9], {8: None})
    assert (nxt.start_double, nxt.burned, nxt.drawn_for) == (8, (), False)


@pytest.mark.parametrize(
    ("played", "code"),
    [
        ([9, 10], "BAD_DOUBLE"),
        ([9, 9], "DUPLICATE_ROUND"),
        ([-1], "BAD_DOUBLE"),
        ([True], "BAD_DOUBLE"),
    ],
)
def test_rounds_played_must_be_distinct_doubles_of_the_set(played: list, code: str) -> None:
    with pytest.raises(RuleError) as err:
        upcoming(RuleSet(), 9, played)
    assert err.value.code == code
