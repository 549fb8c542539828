"""Mutations of valid questions, as in the differential test of issue 8: wrong types, unknown
ids, tiles outside the set, duplicated tiles, cycles in a layout, 10,000-tile layouts, huge and
negative numbers, deep nesting, lone surrogates and long text, applied anywhere in a question.
The valid questions are the worked cases of tests/data. Shared by the engine's property test
and the API's hostile-input test."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from companion.engine.limits import HugeNumber

DATA = Path(__file__).resolve().parent.parent / "data"
QUESTIONS = [
    {k: c[k] for k in ("id", "category", "ruleset", "input") if k in c}
    for f in sorted(DATA.glob("cases*.json"))
    for c in json.loads(f.read_text())["cases"]
]


def nested(depth: int) -> Any:
    value: Any = "1-2"
    for _ in range(depth):
        value = [value]
    return value


def big_layout(n: int) -> dict[str, Any]:
    return {"center": "9-9", "tiles": [{"id": f"S{i}", "on": "C", "tile": "9-5"} for i in range(n)]}


REPLACEMENTS = st.one_of(
    st.sampled_from(
        [
            None,
            True,
            0,
            -1,
            1.5,
            "",
            "x",
            [],
            {},
            "Z9",
            "C",
            "19-19",
            "7-7",
            "0-0",
            "9-9",
            "S1",
            "9-5",
            "\udc80",
            "P\ud800",
            "1-\udfff",
            "N" * 500,
            " " * 5000 + "x",
            10**30,
            -(10**30),
            HugeNumber(5000),
            float("nan"),
            float("inf"),
            ["1-2", "1-2"],
            ["2-1", "1-2"],
            {"A": ["1-2"], "B": ["1-2"]},
            {"player": ["nested"], "tile": "1-2"},
            [2] * 260_000,
            ["1-2"] * 10_000,
            [[["P"]]],
            {"center": "9-9", "tiles": "S1"},
        ]
    ),  # fmt: skip
    st.integers(min_value=-(10**6), max_value=10**6),
    st.text(max_size=20),
    st.builds(nested, st.integers(min_value=5, max_value=200)),
    st.builds(big_layout, st.sampled_from([5, 60, 10_000])),
)


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place inside ``value`` (a path of keys / indexes), the value itself first."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(paths(v, (*prefix, i)))
    return out


def replace_at(question: dict, path: tuple, new: Any) -> dict:
    out = copy.deepcopy(question)
    if not path:
        return new
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return out


def duplicate_at(question: dict, path: tuple) -> dict:
    """Repeat a list's first item (a duplicated tile, play or name)."""
    out = copy.deepcopy(question)
    target: Any = out
    for key in path:
        target = target[key]
    if isinstance(target, list) and target:
        target.append(copy.deepcopy(target[0]))
    return out


def cycle_layout(question: dict, index: int) -> dict:
    """Point a layout tile at itself or at a later tile (a cycle)."""
    out = copy.deepcopy(question)
    tiles = out.get("input", {}).get("layout", {}).get("tiles")
    if isinstance(tiles, list) and tiles:
        i = index % len(tiles)
        tiles[i]["on"] = tiles[(i + 1) % len(tiles)]["id"] if index % 2 else tiles[i]["id"]
    return out


@st.composite
def mutated(draw: st.DrawFn) -> dict:
    question = draw(st.sampled_from(QUESTIONS))
    places = paths(question)
    kind = draw(st.sampled_from(["replace", "replace", "duplicate", "cycle", "add"]))
    if kind == "cycle":
        return cycle_layout(question, draw(st.integers(0, 100)))
    if kind == "duplicate":
        return duplicate_at(question, draw(st.sampled_from(places)))
    if kind == "add":  # a new key anywhere in the input
        key = draw(st.sampled_from(["hand", "layout", "players", "round_scores", "turn", "event",
                                    "tile_drawn", "hands", "players_list", "search_order",
                                    "holders", "set", "yard_count", "junk"]))  # fmt: skip
        return replace_at(question, ("input", key), draw(REPLACEMENTS))
    return replace_at(question, draw(st.sampled_from(places)), draw(REPLACEMENTS))
