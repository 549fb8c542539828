"""Turn advice (RULES.md §5.1, §5.5): play, draw, play the drawn tile, or pass."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from companion.engine import RuleSet, TurnAdvice, advise_turn, preset
from tests.engine.util import CROSS, lay, t, tiles

ONE_SPOKE = lay("9-9", ("S1", "C", "9-5"))
CROSS_LAYOUT = lay("9-9", *CROSS)
FOOT = lay("9-9", *CROSS, ("D1", "S1", "5-5"))
STUCK_TEXT = ("5-1", "3-3", "2-4")
STUCK = tiles(*STUCK_TEXT)  # nothing fits the centre 9-9 while it needs spokes


def rules(**overrides: object) -> RuleSet:
    return RuleSet().with_overrides(overrides)


def test_a_player_who_can_play_plays() -> None:
    advice = advise_turn(ONE_SPOKE, tiles("9-6", "1-1"), 20, RuleSet())
    assert advice.result == "PLAY" and advice.has_legal_play
    assert advice.legal_plays == ((t("9-6"), "C"),)
    assert (advice.must_draw, advice.may_draw, advice.draw_count) == (False, False, 0)
    loose = advise_turn(ONE_SPOKE, tiles("9-6"), 20, rules(must_play_if_able=False))
    assert loose.may_draw and not loose.must_draw


@pytest.mark.parametrize(
    ("when_stuck", "must", "may"), [("one", True, True), ("until_playable", True, True),
                                    ("optional", False, True)],
)  # fmt: skip
def test_stuck_players_draw_one(when_stuck: str, must: bool, may: bool) -> None:
    advice = advise_turn(ONE_SPOKE, STUCK, 20, rules(draw_when_stuck=when_stuck))
    assert (advice.must_draw, advice.may_draw, advice.draw_count) == (must, may, 1)
    assert advice.result is None and advice.drawable == 20


def test_no_toe_means_draw_even_with_tiles_for_other_ends() -> None:  # DRW-05
    advice = advise_turn(FOOT, tiles("3-8", "7-1"), 10, RuleSet())
    assert not advice.has_legal_play and advice.must_draw


@pytest.mark.parametrize(
    ("policy", "must_play", "may_play", "result"),
    [("must", True, True, "PLAY"), ("may", False, True, "PLAY"), ("no", False, False, "PASS")],
)
def test_a_playable_drawn_tile(policy: str, must_play: bool, may_play: bool, result: str) -> None:
    advice = advise_turn(
        ONE_SPOKE, STUCK, 20, rules(drawn_tile_play=policy), tile_drawn=t("9-6")
    )  # DRW-01 / DRW-02
    assert advice.drawn_playable is True
    assert (advice.must_play_drawn, advice.may_play_drawn, advice.result) == (
        must_play, may_play, result
    )  # fmt: skip


@pytest.mark.parametrize(
    ("when_stuck", "yard", "result"),
    [("one", 20, "PASS"), ("until_playable", 20, "DRAW_AGAIN"), ("until_playable", 1, "PASS")],
)
def test_an_unplayable_drawn_tile(when_stuck: str, yard: int, result: str) -> None:
    # DRW-03: with draw one, an unplayable drawn tile is a pass, not a second draw.
    advice = advise_turn(
        ONE_SPOKE, STUCK, yard, rules(draw_when_stuck=when_stuck), tile_drawn=t("4-6")
    )
    assert advice.drawn_playable is False and advice.must_play_drawn is False
    assert advice.result == result


@pytest.mark.parametrize(
    ("name", "players", "yard", "drawable", "result"),
    [
        ("standard", 2, 0, 0, "PASS"),
        ("standard", 2, 2, 2, None),  # DRW-11
        ("gamerules_seed001", 2, 2, 0, "PASS"),  # DRW-08: the last two stay undrawn
        ("gamerules_seed001", 2, 3, 1, None),
        ("gamerules_seed001", 3, 1, 0, "PASS"),  # 3+ players: the last one stays
        ("gamerules_seed001", 3, 2, 1, None),
        ("nathanlong_no_draw", 4, 0, 0, "PASS"),
    ],
)
def test_the_yard_and_the_reserve(
    name: str, players: int, yard: int, drawable: int, result: str | None
) -> None:
    layout = lay("9-9", *CROSS, k=4)
    advice = advise_turn(layout, tiles("4-4", "6-6"), yard, preset(name), players=players)
    assert (advice.drawable, advice.result) == (drawable, result)
    assert advice.must_draw is (drawable > 0)
    assert advice.rule == "5.5" and advice.message


def test_advice_lists_every_legal_play() -> None:
    advice = advise_turn(CROSS_LAYOUT, tiles("5-3", "7-7"), 5, RuleSet())
    assert advice.legal_plays == ((t("5-3"), "S1"), (t("5-3"), "S2"), (t("7-7"), "S3"))


@pytest.mark.parametrize(
    ("hand", "yard", "drawn", "house"),
    [
        (("9-6", "1-1"), 20, None, RuleSet()),  # PLAY
        (("9-6",), 20, None, rules(must_play_if_able=False)),  # PLAY, may draw instead
        (STUCK_TEXT, 0, None, RuleSet()),  # PASS: nothing to draw
        (STUCK_TEXT, 20, None, RuleSet()),  # must draw
        (STUCK_TEXT, 20, "9-4", rules(drawn_tile_play="may")),  # the drawn tile may be played
        (STUCK_TEXT, 20, "2-4", rules(draw_when_stuck="until_playable")),  # draw again
    ],
)
def test_advice_is_the_value_its_own_constructor_builds(
    hand: tuple[str, ...], yard: int, drawn: str | None, house: RuleSet
) -> None:
    """advise_turn fills TurnAdvice's slots directly (speed): the value must be the one the
    dataclass's own __init__ builds from the same fields, every field set."""
    tile = tiles(drawn)[0] if drawn else None
    advice = advise_turn(ONE_SPOKE, tiles(*hand), yard, house, players=4, tile_drawn=tile)
    rebuilt = TurnAdvice(**{f.name: getattr(advice, f.name) for f in fields(TurnAdvice)})
    assert advice == rebuilt
    assert replace(advice) == advice
    # each value in its own slot (a slot filled out of order would show here)
    assert advice.rule in ("5.1", "5.5") and advice.message.endswith(".")
    assert advice.result in ("PLAY", "PASS", "DRAW_AGAIN", None)
    assert advice.draw_count in (0, 1) and advice.drawable == (yard if yard else 0)
    assert all(isinstance(play, tuple) for play in advice.legal_plays)
