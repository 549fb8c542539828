"""Property tests: random legal games, played to the end by the simulator, obey the rule model.

Every preset and every set size is played (RULES.md §9); hypothesis adds random seeds, player
counts and house-rule overrides. Invariants are those of RULES.md §11 plus the scoring and
tie-break facts of §6-§8.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import (
    CATEGORIES,
    PRESETS,
    SWITCH_BY_NAME,
    DominoSet,
    Layout,
    RuleSet,
    Tile,
    answer,
    check_move,
    hand_points,
    legal_moves,
    preset,
    replay,
)
from companion.engine.errors import RuleError
from companion.engine.rules import reserve_size
from companion.engine.simulate import (
    Event,
    GameRecord,
    RoundRecord,
    feasible,
    simulate_game,
    simulate_round,
)

SETS = (6, 9, 12, 15, 18)


def budget(examples: int) -> settings:
    """Hypothesis settings sized to keep the whole suite well under a minute."""
    return settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


def rules_for(name: str, n: int) -> RuleSet:
    return replace(preset(name), set_size=n)


#: Every (preset, set, players) a table could play.
COMBOS = [
    (name, n, p)
    for name in PRESETS
    for n in SETS
    for p in range(2, 13)
    if feasible(rules_for(name, n), p)
]


def _middle_count(name: str, n: int) -> int:
    counts = [p for a, b, p in COMBOS if (a, b) == (name, n)]
    return counts[len(counts) // 2]


#: One player count per (preset, set) that can be played (the middle one), for the sweep.
SWEEP = sorted({(a, b): _middle_count(a, b) for a, b, _ in COMBOS}.items())


def open_feet(layout: Layout) -> int:
    return sum(1 for end in layout.open_ends() if end.kind == "foot")


# --- invariants of a finished game --------------------------------------------------------------
def check_round(game: GameRecord, rnd: RoundRecord) -> None:
    rules, n = game.rules, game.set_size
    everything = [*rnd.layout.used, *rnd.yard_left, *(t for h in rnd.hands_left for t in h)]
    # §11.5: layout + hands + yard (the set-aside double is the centre) = the whole set, once each.
    assert Counter(everything) == Counter(DominoSet(n).tiles)
    assert rnd.layout.center == Tile(rnd.start_double, rnd.start_double)
    assert open_feet(rnd.layout) <= 1  # §11.1
    assert rnd.reason in ("OUT", "BLOCKED", "NO_DRAW")
    if rnd.reason == "NO_DRAW":
        assert rules.empty_yard_ends_round
    if rnd.reason == "BLOCKED":  # §6: nobody can play and nothing can be drawn
        assert not any(legal_moves(rnd.layout, h) for h in rnd.hands_left)
        assert len(rnd.yard_left) <= reserve_size(rules, len(game.players))
        if rules.yard_reserve == "none":  # §11.2: without a reserve the spokes always complete
            assert rnd.layout.hub_complete
    empty = [p for p, h in zip(game.players, rnd.hands_left, strict=True) if not h]
    assert empty == ([rnd.went_out] if rnd.reason == "OUT" else [])
    out_zeros = 0
    for player, hand, score in zip(game.players, rnd.hands_left, rnd.scores, strict=True):
        if player == rnd.went_out:
            penalty = rnd.went_out_on_double and rules.going_out_on_double == "penalty_50"
            assert score == (50 if penalty else 0)  # §6
            out_zeros += score == 0
        else:
            assert score == hand_points(hand, rules)  # §7
    assert out_zeros <= 1  # §11.6
    # The final layout replays to itself (RULES.md §0).
    again = replay(
        rnd.layout.to_json(), DominoSet(n), rnd.spokes_required, rules.foot_toes_required
    )
    assert again.to_json() == rnd.layout.to_json()
    assert again.placements == rnd.layout.placements


def check_game(game: GameRecord) -> None:
    rules, n = game.rules, game.set_size
    doubles = [r.start_double for r in game.rounds]
    assert len(set(doubles)) == len(doubles) <= n + 1  # each double starts one round at most (§4)
    if rules.game_length == "all_rounds":
        if rules.missing_start_double in ("draw_until_found", "reshuffle_redeal") or (
            rules.start_double_source == "pulled_before_deal"
        ):
            assert doubles == list(range(n, -1, -1))
        elif rules.missing_start_double == "retry_next_round":
            assert sorted(doubles, reverse=True) == list(range(n, -1, -1))  # every double once
        else:  # burned doubles shorten the game, still highest first
            assert doubles == sorted(doubles, reverse=True)
    for rnd in game.rounds:
        check_round(game, rnd)
    for i, player in enumerate(game.players):
        assert game.totals[i] == sum(r.scores[i] for r in game.rounds)
        assert game.round_scores[player] == tuple(r.scores[i] for r in game.rounds)
    lowest = min(game.totals)
    index = {p: i for i, p in enumerate(game.players)}
    assert game.winners
    assert all(game.totals[index[w]] == lowest for w in game.winners)  # §8
    assert {s.record.player for s in game.standings if s.rank == 1} == set(game.winners)
    assert [s.record.total for s in game.standings] == sorted(game.totals)


# --- invariants of every move ---------------------------------------------------------------------
class MoveChecker:
    """An on_event observer that checks every play against check_move and legal_moves."""

    def __init__(self, rules: RuleSet, seed: int) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.tiles = DominoSet(rules.set_size).tiles
        self.plays = 0

    def __call__(self, event: Event) -> None:
        layout = event.layout
        assert open_feet(layout) <= 1
        if event.kind != "play":
            return
        self.plays += 1
        assert event.tile is not None
        verdict = check_move(
            layout,
            event.tile,
            event.on,
            played_this_turn=event.played_this_turn,
            tiles_per_turn=self.rules.tiles_per_turn,
        )
        assert verdict.legal, verdict.message
        assert event.tile in event.hand
        listed = legal_moves(layout, (event.tile,) if event.drawn else event.hand)
        assert (event.tile, event.on) in listed
        for tile, on in legal_moves(layout, event.hand):
            assert check_move(layout, tile, on).legal
        # A random probe: check_move and legal_moves agree on any tile and any target.
        ids = ["C", *(p.id for p in layout.placements)]
        free = [t for t in self.tiles if t not in layout.used]
        tile, on = self.rng.choice(free), self.rng.choice(ids)
        probe = check_move(layout, tile, on)
        assert probe.legal == ((tile, on) in legal_moves(layout, (tile,))), probe
        if self.rng.random() < 0.1:  # replay(to_json()) round-trips layouts met along the way
            again = replay(
                layout.to_json(), DominoSet(self.rules.set_size), layout.spokes_required,
                layout.toes_required,
            )  # fmt: skip
            assert again.placements == layout.placements


@pytest.mark.parametrize(("name", "n", "players"), [(a, b, p) for (a, b), p in SWEEP])
def test_every_preset_and_set_plays_to_the_end(name: str, n: int, players: int) -> None:
    rules = rules_for(name, n)
    checker = MoveChecker(rules, players)
    game = simulate_game(rules, players, seed=n * 100 + players, on_event=checker)
    check_game(game)
    assert checker.plays == sum(r.plays for r in game.rounds) > 0


def test_sweep_covers_every_preset_and_set() -> None:
    assert {name for (name, _), _ in SWEEP} == set(PRESETS)
    assert {n for (_, n), _ in SWEEP} == set(SETS)


@budget(25)
@given(combo=st.sampled_from(COMBOS), seed=st.integers(0, 2**32 - 1))
def test_random_games_under_presets(combo: tuple[str, int, int], seed: int) -> None:
    name, n, players = combo
    check_game(simulate_game(rules_for(name, n), players, seed))


# Switches whose every value the simulator can play (hand sizes and spokes are chosen so the
# table stays feasible, see rules_with_overrides).
PLAYABLE = [
    "missing_start_double",
    "start_double_source",
    "later_round_starter",
    "starter_plays_first_spoke",
    "tiles_per_turn",
    "must_play_if_able",
    "draw_when_stuck",
    "drawn_tile_play",
    "yard_reserve",
    "empty_yard_ends_round",
    "double_blank_value",
    "blank_half_value",
    "going_out_on_double",
    "tiebreak_exhausted",
    "first_round_starter",
]


@st.composite
def house_rules(draw: st.DrawFn) -> tuple[RuleSet, int]:
    n = draw(st.sampled_from((6, 9, 12)))
    overrides = {"set_size": n}
    for name in draw(st.lists(st.sampled_from(PLAYABLE), unique=True, max_size=6)):
        overrides[name] = draw(st.sampled_from([c.value for c in SWITCH_BY_NAME[name].choices]))
    try:
        rules = RuleSet().with_overrides(overrides)
    except RuleError:  # e.g. pre_deal_search without pulled_before_deal
        rules = RuleSet().with_overrides({**overrides, "start_double_source": "pulled_before_deal"})
    if draw(st.booleans()):  # the hub and foot sizes too, within what the set allows (§5.2)
        overrides["center_spokes_required"] = draw(st.integers(2, n))
        overrides["foot_toes_required"] = draw(st.integers(1, 6))
    players = draw(st.integers(2, 12))
    if not feasible(rules, players):
        players = 2
    return rules, players


@budget(25)
@given(table=house_rules(), seed=st.integers(0, 2**32 - 1))
def test_random_games_under_mixed_house_rules(table: tuple[RuleSet, int], seed: int) -> None:
    rules, players = table
    checker = MoveChecker(rules, seed)
    game = simulate_game(rules, players, seed, on_event=checker)
    check_game(game)


def test_same_seed_same_game() -> None:
    rules = rules_for("standard", 9)
    a, b = simulate_game(rules, 4, 7), simulate_game(rules, 4, 7)
    assert a.round_scores == b.round_scores
    assert [r.layout.to_json() for r in a.rounds] == [r.layout.to_json() for r in b.rounds]


def test_simulate_round_is_none_when_no_double_is_left() -> None:
    rules = rules_for("standard", 6)
    assert simulate_round(rules, 3, 1, round_number=8, played=list(range(6, -1, -1))) is None


def test_every_layout_reached_replays() -> None:
    """replay(layout.to_json()) round-trips every layout reached, not only the final ones."""
    rules = rules_for("standard", 12)
    seen: list[Layout] = []
    simulate_round(rules, 4, 3, on_event=lambda e: seen.append(e.layout))
    assert len(seen) > 20
    for layout in seen:
        again = replay(layout.to_json(), DominoSet(12), 4)
        assert again.to_json() == layout.to_json()
        assert again.open_ends() == layout.open_ends()


# --- the answer() contract on random positions ---------------------------------------------------
def _positions() -> list[dict]:
    """Layouts (RULES.md §0 JSON) and hands reached in a few simulated rounds."""
    out: list[dict] = []
    for n, players, seed in ((6, 3, 1), (9, 4, 2), (12, 5, 3)):
        rules = rules_for("standard", n)

        def keep(event: Event, n: int = n) -> None:
            if len(out) < 400 and event.kind == "play":
                out.append(
                    {
                        "set": n,
                        "layout": event.layout.to_json(),
                        "hand": [str(t) for t in event.hand],
                        "yard_count": event.yard_count,
                    }
                )

        simulate_round(rules, players, seed, on_event=keep)
    return out


POSITIONS = _positions()
tile_text = st.one_of(
    st.builds(lambda a, b: f"{a}-{b}", st.integers(-1, 20), st.integers(-1, 20)),
    st.sampled_from(["", "x", "9", "9-9-9", "[3|4]", " 5 - 2 "]),
    st.integers(),
    st.none(),
)
junk = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 30), st.text(max_size=6), tile_text),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
target = st.one_of(st.sampled_from(["C", "T1", "S1", "D1", "T9", "Z"]), junk)
player = st.sampled_from(["P1", "P2", "P3"])


@st.composite
def position_input(draw: st.DrawFn) -> dict:
    base = dict(draw(st.sampled_from(POSITIONS)))
    layout = json.loads(json.dumps(base["layout"]))
    if layout["tiles"] and draw(st.booleans()):  # damage the layout now and then
        item = draw(st.sampled_from(layout["tiles"]))
        item[draw(st.sampled_from(["id", "on", "tile"]))] = draw(st.one_of(junk, tile_text))
    base["layout"] = layout
    base["move"] = {"tile": draw(tile_text), "on": draw(target)}
    extra = {
        "tile_drawn": tile_text,
        "players": st.integers(0, 14),
        "to_move": player,
        "hands": st.dictionaries(player, st.lists(tile_text, max_size=4), max_size=3),
        "event": st.fixed_dictionaries(
            {"player": player, "tile": tile_text, "on": target, "hand_after": st.just([])}
        ),
        "round_scores": st.dictionaries(player, st.lists(st.integers(-2, 80), max_size=5)),
        "center_spokes_required": st.integers(0, 20),
        "round": st.integers(-1, 20),
        "seats_clockwise": st.lists(player, max_size=4),
        "holders": st.dictionaries(tile_text, st.one_of(st.none(), player), max_size=3),
        "rounds_played": st.lists(st.integers(-1, 19), max_size=4),
    }
    for key in draw(st.lists(st.sampled_from(sorted(extra)), unique=True, max_size=4)):
        base[key] = draw(extra[key])
    return base


question = st.fixed_dictionaries(
    {
        "id": st.text(max_size=5),
        "category": st.one_of(st.sampled_from(CATEGORIES), junk),
        "ruleset": st.one_of(
            st.none(),
            st.fixed_dictionaries(
                {"preset": st.sampled_from([*PRESETS, "nope"])},
                optional={"overrides": st.dictionaries(st.sampled_from(PLAYABLE), junk)},
            ),
            junk,
        ),
        "input": st.one_of(position_input(), junk),
    }
)


@budget(300)
@given(q=st.one_of(question, junk))
def test_answer_never_raises_and_always_returns_a_dict(q: object) -> None:
    got = answer(q)
    assert isinstance(got, dict)
    json.dumps(got)  # the CLI prints it
    if "error" in got:
        assert set(got["error"]) == {"code", "message", "where"}
        assert all(isinstance(v, str) for v in got["error"].values())
        assert got["error"]["code"] and got["error"]["message"]
    else:
        assert got.get("message") and got.get("rule"), got


@pytest.mark.parametrize(
    ("rule", "feature"),
    [
        ("draw_until_found", "drawn_for"),
        ("skip_to_next_lower", "burned"),
        ("skip_to_next_lower_except_blank", "burned"),
        ("retry_next_round", "passed_over"),
        ("reshuffle_redeal", "redeals"),
    ],
)
def test_every_missing_double_rule_is_exercised(rule: str, feature: str) -> None:
    """Two players with 7 tiles of a double-18 set leave most doubles in the yard (§3.5)."""
    rules = RuleSet().with_overrides({"set_size": 18, "missing_start_double": rule})
    game = simulate_game(rules, 2, 5)
    check_game(game)
    assert any(getattr(r, feature) for r in game.rounds)
    if feature == "drawn_for":
        # Drawing for the double keeps every round, double-18 down to double-blank (§4).
        assert [r.start_double for r in game.rounds] == list(range(18, -1, -1))
