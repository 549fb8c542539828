"""What must I do on my turn? Play, draw, play the drawn tile or pass (RULES.md §5.1, §5.5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .layout import Layout
from .moves import has_legal_play, legal_moves
from .rules import DrawnTilePlay, DrawWhenStuck, RuleSet, reserve_size
from .tiles import Tile


@dataclass(frozen=True, slots=True)
class TurnAdvice:
    """The answer to "what must I do?".

    Attributes:
        legal_plays: every legal (tile, target id) with the hand as it is.
        must_draw / may_draw: whether drawing is required / allowed now.
        draw_count: tiles to draw now (0 or 1; ``until_playable`` draws one at a time).
        drawable: yard tiles that may still be drawn (after the S001 reserve).
        drawn_playable / must_play_drawn / may_play_drawn: about ``tile_drawn`` when given.
        result: ``PLAY``, ``PASS`` or ``DRAW_AGAIN``, or None while it depends on the draw.
        message: one sentence; rule: the RULES.md section.
    """

    legal_plays: tuple[tuple[Tile, str], ...]
    must_draw: bool
    may_draw: bool
    draw_count: int
    drawable: int
    drawn_playable: bool | None
    must_play_drawn: bool | None
    may_play_drawn: bool | None
    result: str | None
    message: str
    rule: str

    @property
    def has_legal_play(self) -> bool:
        """True when the hand can be played without drawing."""
        return bool(self.legal_plays)


def drawable_tiles(rules: RuleSet, yard_count: int, players: int | None) -> int:
    """Yard tiles that may still be drawn, after the S001 reserve (RULES.md §5.5)."""
    return max(0, yard_count - reserve_size(rules, players))


def advise_turn(
    layout: Layout,
    hand: Sequence[Tile],
    yard_count: int,
    rules: RuleSet,
    *,
    players: int | None = None,
    tile_drawn: Tile | None = None,
) -> TurnAdvice:
    """Advise a player on their turn (RULES.md §5.1 must play if able, §5.5 drawing).

    Args:
        hand: the tiles held before any draw.
        yard_count: tiles in the chicken yard, reserve included.
        players: player count (needed for the S001 reserve).
        tile_drawn: the tile just drawn, to answer whether it can / must be played.
    """
    plays = tuple(legal_moves(layout, hand))
    drawable = drawable_tiles(rules, yard_count, players)
    if plays:
        may_draw = not rules.must_play_if_able and drawable > 0
        n = len(plays)
        msg = f"You have {n} legal play{'s' if n != 1 else ''}, so you play" + (
            " (or may draw instead under this house rule)."
            if may_draw
            else "; drawing is only for a player who cannot play."
        )
        return TurnAdvice(
            legal_plays=plays,
            must_draw=False,
            may_draw=may_draw,
            draw_count=0,
            drawable=drawable,
            drawn_playable=None,
            must_play_drawn=None,
            may_play_drawn=None,
            result="PLAY",
            message=msg,
            rule="5.1",
        )
    if drawable == 0:
        reason = (
            "only the reserve is left in the chicken yard"
            if yard_count
            else "the chicken yard is empty"
        )
        ends = " Under 'No Draw' this ends the round." if rules.empty_yard_ends_round else ""
        return TurnAdvice(
            legal_plays=(),
            must_draw=False,
            may_draw=False,
            draw_count=0,
            drawable=0,
            drawn_playable=None,
            must_play_drawn=None,
            may_play_drawn=None,
            result="PASS",
            message=f"No legal play and {reason}, so you pass.{ends}",
            rule="5.5",
        )
    must = rules.draw_when_stuck != DrawWhenStuck.OPTIONAL
    verb = "must" if must else "may"
    if tile_drawn is None:
        return TurnAdvice(
            legal_plays=(),
            must_draw=must,
            may_draw=True,
            draw_count=1,
            drawable=drawable,
            drawn_playable=None,
            must_play_drawn=None,
            may_play_drawn=None,
            result=None,
            message=f"No legal play: you {verb} draw one tile from the chicken yard.",
            rule="5.5",
        )
    return _after_draw(layout, tile_drawn, drawable, rules, must)


def _after_draw(
    layout: Layout, drawn: Tile, drawable: int, rules: RuleSet, must: bool
) -> TurnAdvice:
    playable = has_legal_play(layout, [drawn])
    policy = rules.drawn_tile_play
    must_play = playable and policy == DrawnTilePlay.MUST
    may_play = playable and policy in (DrawnTilePlay.MUST, DrawnTilePlay.MAY)
    if playable:
        result = "PLAY" if may_play else "PASS"
        msg = {
            DrawnTilePlay.MUST: (
                f"The drawn {drawn} can be played, and under this house rule it must be."
            ),
            DrawnTilePlay.MAY: (
                f"The drawn {drawn} can be played; you may play it now or keep it and pass."
            ),
            DrawnTilePlay.NO: (
                f"The drawn {drawn} could be played, but under this house rule you keep it "
                "and pass."
            ),
        }[policy]
    elif rules.draw_when_stuck == DrawWhenStuck.UNTIL_PLAYABLE and drawable > 1:
        result = "DRAW_AGAIN"
        msg = f"The drawn {drawn} cannot be played: keep drawing until you can play."
    else:
        result = "PASS"
        msg = f"The drawn {drawn} cannot be played, so you pass (no second draw)."
    return TurnAdvice(
        legal_plays=(),
        must_draw=must,
        may_draw=True,
        draw_count=1,
        drawable=drawable,
        drawn_playable=playable,
        must_play_drawn=must_play,
        may_play_drawn=may_play,
        result=result,
        message=msg,
        rule="5.5",
    )
