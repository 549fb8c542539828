"""The checker's words for engine answers: the headline about a tile just drawn follows the
engine's drawn_tile_playable / must_play_drawn / may_play_drawn / turn_result (RULES.md §5.5)."""

from __future__ import annotations

import pytest

from companion import create_app
from companion.checker.explaining import explain
from companion.config import TestConfig as _TestConfig
from companion.engine import answer, ruleset_from_spec

OPEN_FOOT = {
    "center": "9-9",
    "tiles": [
        {"id": "S1", "on": "C", "tile": "9-5"},
        {"id": "S2", "on": "C", "tile": "9-4"},
        {"id": "S3", "on": "C", "tile": "9-3"},
        {"id": "S4", "on": "C", "tile": "9-2"},
        {"id": "D1", "on": "S1", "tile": "5-5"},
    ],
}


@pytest.mark.parametrize(
    ("overrides", "drawn", "headline"),
    [
        ({}, "5-0", "Play the drawn tile."),
        ({"drawn_tile_play": "may"}, "5-0", "You may play the drawn tile, or keep it and pass."),
        ({"drawn_tile_play": "no"}, "5-0", "Keep the drawn tile and pass."),
        ({"draw_when_stuck": "until_playable"}, "6-0", "cannot be played: draw again."),
        ({}, "6-0", "The drawn tile cannot be played: pass."),
    ],
)
def test_the_drawn_tile_headline(overrides, drawn, headline):
    question = {
        "category": "draw",
        "ruleset": {"preset": "standard", "overrides": overrides},
        "input": {"layout": OPEN_FOOT, "hand": ["4-3", "6-2"], "yard_count": 9},
    }
    question["input"]["tile_drawn"] = drawn
    ans = answer(question)
    assert "error" not in ans, ans
    rules = ruleset_from_spec(question["ruleset"])
    with create_app(_TestConfig).test_request_context():
        explained = explain("draw", ans, rules, question)
    assert explained.headline.endswith(headline)
    assert ("Tile just drawn", drawn) in explained.facts
