"""Setup (RULES.md §3.2-3.3, §5.5): hand sizes, the yard, the reserve and feasibility."""

from __future__ import annotations

import pytest

from companion.engine import RuleSet, check_table, deal, hand_size, preset
from companion.engine.deal import HAND_SIZE_TABLES, HandSizeUndefined
from companion.engine.errors import RuleError
from companion.engine.rules import HandSizeRule


def rule(name: str) -> RuleSet:
    return RuleSet().with_overrides({"hand_size_rule": name})


# Every hand-size table of RULES.md §3.2 that the switches model: (rule, set, players, each).
TABLES = [
    *(("seven_each", n, p, 7) for n in (6, 9, 12) for p in (2, 3, 4)),
    *(
        ("gamerules_table", 9, p, h)
        for p, h in {2: 21, 3: 14, 4: 11, 5: 8, 6: 7, 7: 6, 8: 5}.items()
    ),
    # DOCSLIB: 42 / players, rounded to nearest, on double-9 (9 players: 5).
    *(
        ("docslib_42_over_p", 9, p, h)
        for p, h in {2: 21, 3: 14, 4: 11, 5: 8, 6: 7, 7: 6, 8: 5, 9: 5}.items()
    ),
    # PUREMCO-COPY / RUSSELLR anchors: 20 each for 2 players, 6 each for 8, on double-9.
    ("puremco_20_to_6", 9, 2, 20),
    ("puremco_20_to_6", 9, 8, 6),
    *(("fundex_table", 9, p, h) for p, h in {2: 11, 3: 11, 4: 9, 5: 7, 6: 7}.items()),
    *(("nathanlong_table", 9, p, h) for p, h in {2: 14, 3: 10, 4: 7, 5: 6, 6: 5}.items()),
    *(("nathanlong_table", 12, p, h) for p, h in {4: 12, 5: 10, 6: 8, 7: 7, 8: 6, 9: 5}.items()),
    *(
        ("nathanlong_table", 15, p, h)
        for p, h in {6: 12, 7: 10, 8: 9, 9: 8, 10: 7, 11: 7, 12: 6}.items()
    ),
    ("hastings_10", 9, 4, 10),
    ("hastings_10", 12, 6, 10),
]


@pytest.mark.parametrize(("name", "n", "players", "each"), TABLES)
def test_hand_size_tables(name: str, n: int, players: int, each: int) -> None:
    assert hand_size(rule(name), n, players) == each


@pytest.mark.parametrize(
    ("name", "n", "players"),
    [
        ("gamerules_table", 12, 4),  # S001's table is for double-9 only
        ("gamerules_table", 9, 9),
        ("fundex_table", 9, 7),
        ("nathanlong_table", 9, 7),
        ("nathanlong_table", 12, 3),
        ("nathanlong_table", 18, 6),
        ("custom", 9, 4),  # custom with no number chosen yet
    ],
)
def test_tables_do_not_cover_everything(name: str, n: int, players: int) -> None:
    with pytest.raises(HandSizeUndefined) as err:
        hand_size(rule(name), n, players)
    assert err.value.code == "HAND_SIZE_UNDEFINED"


def test_custom_and_chosen_hand_sizes() -> None:
    # S000: "4 players with double-12 draw 15".
    custom = RuleSet().with_overrides({"hand_size_rule": "custom", "hand_size_custom": 15})
    assert hand_size(custom, 12, 4) == 15
    d = deal(custom, 12, 4)
    assert (d.needed, d.available, d.yard_after_deal, d.feasible) == (60, 91, 31, True)
    assert hand_size(RuleSet(), 12, 4, chosen=15) == 15
    with pytest.raises(RuleError):
        hand_size(RuleSet(), 12, 4, chosen=0)


@pytest.mark.parametrize("players", [1, 13, 0, -2, True, "4"])
def test_player_counts_are_2_to_12(players: object) -> None:
    with pytest.raises(RuleError) as err:
        hand_size(RuleSet(), 9, players)  # type: ignore[arg-type]
    assert err.value.code == "BAD_PLAYERS"


@pytest.mark.parametrize(
    ("name", "n", "players", "each", "needed", "available", "yard", "feasible"),
    [
        ("standard", 9, 4, 7, 28, 55, 27, True),  # SET-01
        ("standard", 6, 4, 7, 28, 28, 0, True),  # every tile dealt
        ("standard", 6, 5, 7, 35, 28, -7, False),  # SET-07: 35 > 28
        ("standard", 9, 8, 7, 56, 55, -1, False),  # SET-08: 56 > 55
        ("standard", 9, 7, 7, 49, 55, 6, True),
        ("standard", 18, 12, 7, 84, 190, 106, True),
        ("gamerules_seed001", 9, 8, 5, 40, 54, 14, True),  # SET-04: 9-9 set aside first
        ("gamerules_seed001", 9, 2, 21, 42, 54, 12, True),
        ("wikipedia", 9, 4, 7, 28, 54, 26, True),  # pulled before the deal
    ],
)
def test_deal_and_feasibility(
    name: str, n: int, players: int, each: int, needed: int, available: int, yard: int,
    feasible: bool,
) -> None:  # fmt: skip
    d = deal(preset(name), n, players)
    assert (d.hand_size, d.needed, d.available, d.yard_after_deal) == (
        each, needed, available, yard
    )  # fmt: skip
    assert d.feasible is feasible
    assert d.set_aside == (1 if preset(name).start_double_source == "pulled_before_deal" else 0)


@pytest.mark.parametrize(
    ("players", "yard", "reserve", "drawable"),
    [(2, 12, 2, 10), (3, 12, 1, 11), (8, 14, 1, 13)],
)
def test_reserve_stays_undrawable(players: int, yard: int, reserve: int, drawable: int) -> None:
    d = deal(preset("gamerules_seed001"), 9, players)
    assert (d.yard_after_deal, d.reserve, d.drawable) == (yard, reserve, drawable)
    assert deal(RuleSet(), 9, 2).reserve == 0


def test_check_table_collects_every_problem() -> None:
    rules = RuleSet().with_overrides({"center_spokes_required": 8, "foot_toes_required": 6})
    check = check_table(rules, 6, 5)
    assert not check.ok
    assert len(check.problems) == 2  # the deal (35 > 28) and 8 spokes on double-6
    assert check.deal is not None and not check.deal.feasible
    assert check.spokes is None
    good = check_table(RuleSet(), 9, 4)
    assert (
        good.ok and good.spokes == 4 and good.deal is not None and good.deal.yard_after_deal == 27
    )


def test_check_table_reports_an_undefined_hand_size() -> None:
    check = check_table(preset("fundex_chicken_coop"), 9, 8)
    assert not check.ok and check.deal is None
    assert any("custom" in p.message for p in check.problems)


@pytest.mark.parametrize("size_rule", list(HandSizeRule))
def test_every_hand_size_rule_is_dispatched(size_rule: HandSizeRule) -> None:
    """Each rule is a number, a formula (match) or a table (HAND_SIZE_TABLES), never unknown."""
    rules = RuleSet().with_overrides({"hand_size_rule": size_rule, "hand_size_custom": 9})
    size = hand_size(rules, 9, 4)
    assert 1 <= size <= 20
    assert (size_rule in HAND_SIZE_TABLES) == size_rule.endswith("_table")
