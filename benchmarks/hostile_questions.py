"""The most expensive questions the rules API still ACCEPTS, one per category that can be large,
all within companion/engine/limits.py (double-18, 12 players, 19 rounds, every tile of the set
used at most once). Shared by benchmarks/api_bench.py; prints nothing itself.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from companion.engine import DominoSet, Layout, preset
from companion.engine.limits import MAX_PLAYERS, MAX_ROUNDS, MAX_TEXT
from companion.engine.simulate import Event, simulate_round

SET = 18
STANDARD = {"preset": "standard", "overrides": {}}


def _names() -> list[str]:
    """Twelve player names of the longest length a question accepts."""
    return [f"{i:02d}".rjust(MAX_TEXT, "P") for i in range(MAX_PLAYERS)]


def large_layout(seed: int = 1) -> Layout:
    """The largest layout seen in a few simulated double-18 rounds with 8 players."""
    rules = replace(preset("standard"), set_size=SET)
    best = [Layout.start(DominoSet(SET).double(SET))]

    def keep(event: Event) -> None:
        if len(event.layout) > len(best[0]):
            best[0] = event.layout

    rng = random.Random(seed)
    for _ in range(8):
        simulate_round(rules, 8, rng, on_event=keep)
    return best[0]


def _question(category: str, ruleset: dict[str, Any] | None = None, **inp: Any) -> dict[str, Any]:
    return {"id": category, "category": category, "ruleset": ruleset or STANDARD, "input": inp}


def _spare(layout: Layout) -> list[str]:
    return [str(t) for t in DominoSet(SET) if t not in layout.used]


def _turn(layout: Layout) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The spokes as the layout, then every other tile of ``layout`` as one long ``turn`` of
    alternating players (ids renamed T1.., D1.. as QUESTIONS.md numbers them)."""
    spokes = [p for p in layout.placements if p.on == "C"]
    base = Layout.start(layout.center, layout.spokes_required, layout.toes_required)
    ids: dict[str, str] = {"C": "C"}
    for p in spokes:
        base = base.attach(p.tile, "C", p.id)
        ids[p.id] = p.id
    start_json = base.to_json()
    plays = []
    for i, p in enumerate(x for x in layout.placements if x.on != "C"):
        new_id = base.next_id(p.tile)
        plays.append({"player": _names()[i % 2], "tile": p.text(), "on": ids[p.on]})
        base = base.attach(p.tile, ids[p.on], new_id)
        ids[p.id] = new_id
    return start_json, plays


def worst_questions() -> dict[str, dict[str, Any]]:
    """label -> the question; each is accepted (answered, not refused)."""
    layout = large_layout()
    layout_json = layout.to_json()
    spare = _spare(layout)
    names = _names()
    hands = {names[i]: spare[i::MAX_PLAYERS] for i in range(MAX_PLAYERS)}
    scores = {n: [(7 * i + 3 * r) % 60 for r in range(MAX_ROUNDS)] for i, n in enumerate(names)}
    start_layout, plays = _turn(layout)
    players = 8  # the simulated table
    laid = len(layout)
    return {
        f"placement: {laid} tiles laid as one turn": _question(
            "placement", set=SET, players=players, layout=start_layout, turn=plays
        ),
        f"draw: {laid}-tile layout, the {len(spare)} other tiles in hand": _question(
            "draw", set=SET, players=players, layout=layout_json, hand=spare, yard_count=0
        ),
        f"round_end: {laid}-tile layout, 12 hands": _question(
            "round_end", set=SET, layout=layout_json, hands=hands, yard_count=0
        ),
        "scoring: 12 players x 19 rounds": _question("scoring", set=SET, round_scores=scores),
        "tiebreak: 12 x 19, house extension": _question(
            "tiebreak",
            {"preset": "standard", "overrides": {"tiebreak_exhausted": "next_lowest_nonzero"}},
            set=SET,
            round_scores=scores,
        ),
        "setup: every player count": _question("setup", set=SET, players_list=list(range(2, 13))),
    }


def trivial_question() -> dict[str, Any]:
    """The reference: one small hand to score."""
    return _question("scoring", hand=["1-2"])
