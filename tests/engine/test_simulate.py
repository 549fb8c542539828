"""The simulator itself: seating, starters, first plays and game length (RULES.md §3.6, §4)."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest

from companion.engine import RuleSet, next_clockwise, preset
from companion.engine.simulate import Event, SimulationError, feasible, simulate_game

NAMES = ("Ann", "Bo", "Cy", "Di")


def test_an_infeasible_table_is_refused() -> None:
    assert not feasible(RuleSet(), 8)  # SET-08: 8 x 7 = 56 > 55
    with pytest.raises(SimulationError):
        simulate_game(RuleSet(), 8, 1)


def test_names_are_seated_in_order_and_records_are_frozen() -> None:
    game = simulate_game(RuleSet(), list(NAMES), 3)
    assert game.players == NAMES and set(game.round_scores) == set(NAMES)
    assert len(game.rounds) == 10 and game.seed == 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.totals = ()  # type: ignore[misc]


@pytest.mark.parametrize("name", ["standard", "fundex_chicken_coop", "gamerules_seed001"])
def test_the_first_turn_of_each_round_is_the_first_spoke_players(name: str) -> None:
    rules = preset(name)
    first: dict[int, Event] = {}
    game = simulate_game(
        rules, list(NAMES), 4, on_event=lambda e: first.setdefault(e.round_number, e)
    )
    for rnd in game.rounds:
        event = first[rnd.number]
        assert event.player == rnd.first_to_play  # who acts first: lays a spoke or draws
        assert event.on == ("C" if event.kind == "play" else "")
        expected = (
            rnd.starter if rules.starter_plays_first_spoke else next_clockwise(NAMES, rnd.starter)
        )
        assert rnd.first_to_play == expected  # §3.6


def test_rotating_starters() -> None:
    game = simulate_game(preset("nathanlong_no_draw"), list(NAMES), 5)
    starters = [r.starter for r in game.rounds]
    assert all(b == next_clockwise(NAMES, a) for a, b in zip(starters, starters[1:], strict=False))


def test_a_set_aside_double_rotates_after_the_highest_draw() -> None:
    game = simulate_game(preset("wikipedia"), list(NAMES), 6)
    first = game.rounds[0].starter
    assert [r.starter for r in game.rounds[:4]] == [
        next_clockwise(NAMES, first, i) for i in range(4)
    ]


def test_playing_to_a_target_total_stops_when_someone_reaches_it() -> None:
    rules = RuleSet().with_overrides({"game_length": "target_total", "target_total": 60})
    game = simulate_game(rules, 4, 2)
    assert max(game.totals) >= 60
    before = [sum(r.scores[i] for r in game.rounds[:-1]) for i in range(4)]
    assert max(before) < 60 and len(game.rounds) <= 10


def test_a_double_6_game_has_seven_rounds_highest_first() -> None:
    game = simulate_game(replace(RuleSet(), set_size=6), 3, 8)
    assert [r.start_double for r in game.rounds] == [6, 5, 4, 3, 2, 1, 0]


@pytest.mark.parametrize(
    ("name", "totals", "winner", "plays", "draws"),
    [
        ("standard", (1161, 1453, 1163, 1235, 1131, 1391, 1247, 1267), "P5", 2265, 865),
        ("wikipedia", (1177, 954, 1386, 1111, 1142, 1073, 1012, 960), "P2", 1369, 767),
        ("spruce_seed002_003", (1215, 921, 1211, 950, 1247, 1141, 1054, 1291), "P2", 2043, 986),
        ("hcherndon_app", (1042, 1135, 1186, 814, 1107, 1074, 1119, 984), "P4", 1655, 851),
    ],
)
def test_a_seed_replays_the_same_double_18_game_as_before_the_speed_work(
    name: str, totals: tuple[int, ...], winner: str, plays: int, draws: int
) -> None:
    """Seed 7, 8 players, double-18: the figures the engine gave before the open-end list, the
    slot setters and the RoundState refactor (issue 11, issue 9 item 7), so a change that
    speeds the engine up cannot quietly change a game."""
    game = simulate_game(replace(preset(name), set_size=18), 8, 7)
    assert game.totals == totals and game.winners == (winner,)
    assert sum(r.plays for r in game.rounds) == plays
    assert sum(r.draws for r in game.rounds) == draws
