"""The plain part of a hand's photo (companion/services/hand_photo.py): the confirmed picks,
their pips, and a kept draft with one hand's tiles replaced."""

from __future__ import annotations

from companion.services.hand_photo import NOT_A_TILE, confirmed_tiles, draft_with_tiles


def test_confirmed_tiles_drop_false_finds_and_name_the_outlines_still_unread() -> None:
    tiles, missing = confirmed_tiles(["6-5", NOT_A_TILE, "?", "7-7", "0-0"], set_size=6)
    assert tiles == ["6-5", "0-0"]
    assert missing == [2, 3]  # "?" unread; 7-7 is not a tile of a double-6 set


def test_a_draft_gets_the_confirmed_tiles_in_place_of_that_hand_only() -> None:
    kept = [
        ("round_no", "3"),
        ("total_1", "12"),
        ("tiles_1", "2-2"),
        ("total_2", "7"),
    ]
    assert draft_with_tiles(kept, "tiles_1", "total_1", ["6-5", "3-1"]) == [
        ("round_no", "3"),
        ("total_2", "7"),
        ("tiles_1", "6-5"),
        ("tiles_1", "3-1"),
    ]


def test_a_draft_with_no_tiles_confirmed_loses_that_hands_entries() -> None:
    assert draft_with_tiles([("total_1", "4")], "tiles_1", "total_1", []) == []
