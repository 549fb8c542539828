"""Winners, standings and the deciding tie-break step (RULES.md §8)."""

from __future__ import annotations

import pytest

from companion.engine import EngineError, RuleSet, decide, records, standings

EXTENDED = RuleSet().with_overrides({"tiebreak_exhausted": "next_lowest_nonzero"})


@pytest.mark.parametrize(
    ("scores", "rules", "winners", "decided_at"),
    [
        # TIE-01: 40 against 42.
        ({"A": [0, 10, 0, 12, 8, 6, 4], "B": [5, 0, 9, 7, 6, 8, 7]}, RuleSet(), ["A"],
         "lowest_total"),
        # Same total, A has two zero rounds.
        ({"A": [0, 0, 20], "B": [0, 10, 10]}, RuleSet(), ["A"], "most_zero_rounds"),
        # Same total and zero rounds: A's best non-zero round is 5 against 8.
        ({"A": [0, 5, 15], "B": [0, 8, 12]}, RuleSet(), ["A"], "lowest_single_nonzero_round"),
        # TIE-05: three tied on 40; B has two zero rounds like A, and a best round of 2.
        ({"A": [0, 0, 12, 10, 8, 6, 4], "B": [9, 11, 0, 0, 2, 10, 8],
          "C": [7, 6, 5, 8, 0, 9, 5], "D": [13, 5, 6, 7, 8, 0, 10]}, RuleSet(), ["B"],
         "lowest_single_nonzero_round"),
        # Everything equal: shared by default.
        ({"A": [0, 5, 15], "B": [0, 15, 5]}, RuleSet(), ["A", "B"], "unresolved_shared"),
        ({"A": [0, 5, 10, 15], "B": [0, 5, 12, 13]}, RuleSet(), ["A", "B"], "unresolved_shared"),
        # TIE-04 (unsourced extension): the 2nd-lowest non-zero round, 10 against 12.
        ({"A": [0, 5, 10, 15], "B": [0, 5, 12, 13]}, EXTENDED, ["A"],
         "extension_next_lowest_nonzero"),
        # The extension finds nothing either: still shared.
        ({"A": [5, 10, 15], "B": [15, 10, 5]}, EXTENDED, ["A", "B"], "unresolved_shared"),
        # TIE-07: a 50 for going out on a double is not a zero round.
        ({"A": [50, 0, 10], "B": [0, 0, 60]}, RuleSet(), ["B"], "most_zero_rounds"),
        # A three-way tie where the first step only drops one player.
        ({"A": [0, 7, 3], "B": [0, 3, 7], "C": [1, 1, 8]}, RuleSet(), ["A", "B"],
         "unresolved_shared"),
    ],
)  # fmt: skip
def test_decide(scores: dict, rules: RuleSet, winners: list[str], decided_at: str) -> None:
    decision = decide(records(scores), rules)
    assert list(decision.winners) == winners
    assert decision.decided_at == decided_at


def test_records_figures() -> None:
    a, b = records({"A": [0, 14, 55], "B": [23, 0, 0]})
    assert (a.total, a.zero_rounds, a.nonzero, a.best_nonzero) == (69, 1, (14, 55), 14)
    assert (b.total, b.zero_rounds, b.best_nonzero) == (23, 2, 23)
    (c,) = records({"C": [0, 0]})
    assert c.best_nonzero is None


@pytest.mark.parametrize("bad", [[-1, 3], [1.5], [True], "10,20", [None]])
def test_bad_scores(bad: object) -> None:
    with pytest.raises(EngineError) as err:
        records({"A": bad})  # type: ignore[dict-item]
    assert err.value.code == "BAD_SCORE"


def test_no_players() -> None:
    with pytest.raises(EngineError) as err:
        decide([], RuleSet())
    assert err.value.code == "NO_PLAYERS"


def test_standings_rank_everyone_with_the_step_that_separates_them() -> None:
    table = standings(
        {"A": [0, 5, 15], "B": [0, 8, 12], "C": [0, 15, 5], "D": [30, 0, 0], "E": [40, 1, 1]},
        RuleSet(),
    )
    assert [(s.rank, s.record.player, s.decided_by) for s in table] == [
        (1, "A", ""),  # 20 points, one zero round, best round 5
        (1, "C", "unresolved_shared"),  # the same figures: a shared first place
        (3, "B", "lowest_single_nonzero_round"),  # 20 points too, but best round 8
        (4, "D", "lowest_total"),
        (5, "E", "lowest_total"),
    ]
