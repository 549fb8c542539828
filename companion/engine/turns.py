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


def _advice(
    *,
    legal_plays: tuple[tuple[Tile, str], ...] = (),
    must_draw: bool,
    may_draw: bool,
    draw_count: int,
    drawable: int,
    drawn_playable: bool | None = None,
    must_play_drawn: bool | None = None,
    may_play_drawn: bool | None = None,
    result: str | None,
    message: str,
    rule: str,
) -> TurnAdvice:
    """A TurnAdvice, its slots filled through their descriptors.

    A simulated game asks for advice on every turn (about 3,500 times in a double-18 game with
    8 players), and a frozen dataclass's generated ``__init__`` calls ``object.__setattr__``
    once per field: 2.5-3.3 us for these eleven, against about 1 us here (RULES.md §5.1, §5.5).
    """
    advice = object.__new__(TurnAdvice)
    _SET_PLAYS(advice, legal_plays)
    _SET_MUST_DRAW(advice, must_draw)
    _SET_MAY_DRAW(advice, may_draw)
    _SET_DRAW_COUNT(advice, draw_count)
    _SET_DRAWABLE(advice, drawable)
    _SET_DRAWN_PLAYABLE(advice, drawn_playable)
    _SET_MUST_PLAY_DRAWN(advice, must_play_drawn)
    _SET_MAY_PLAY_DRAWN(advice, may_play_drawn)
    _SET_RESULT(advice, result)
    _SET_MESSAGE(advice, message)
    _SET_RULE(advice, rule)
    return advice


(
    _SET_PLAYS,
    _SET_MUST_DRAW,
    _SET_MAY_DRAW,
    _SET_DRAW_COUNT,
    _SET_DRAWABLE,
    _SET_DRAWN_PLAYABLE,
    _SET_MUST_PLAY_DRAWN,
    _SET_MAY_PLAY_DRAWN,
    _SET_RESULT,
    _SET_MESSAGE,
    _SET_RULE,
) = (
    getattr(TurnAdvice, name).__set__
    for name in (
        "legal_plays",
        "must_draw",
        "may_draw",
        "draw_count",
        "drawable",
        "drawn_playable",
        "must_play_drawn",
        "may_play_drawn",
        "result",
        "message",
        "rule",
    )
)


def drawable_tiles(rules: RuleSet, yard_count: int, players: int | None) -> int:
    """Yard tiles that may still be drawn, after the S001 reserve (RULES.md §5.5)."""
    drawable = yard_count - reserve_size(rules, players)
    return drawable if drawable > 0 else 0


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

    >>> from companion.engine import Layout, RuleSet, Tile, advise_turn, parse_tile
    >>> advice = advise_turn(Layout.start(Tile(9, 9), 4, 3), [parse_tile("6-5")], 10, RuleSet())
    >>> advice.must_draw, advice.message
    (True, 'No legal play: you must draw one tile from the chicken yard.')
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
        return _advice(
            legal_plays=plays,
            must_draw=False,
            may_draw=may_draw,
            draw_count=0,
            drawable=drawable,
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
        return _advice(
            must_draw=False,
            may_draw=False,
            draw_count=0,
            drawable=0,
            result="PASS",
            message=f"No legal play and {reason}, so you pass.{ends}",
            rule="5.5",
        )
    must = rules.draw_when_stuck != DrawWhenStuck.OPTIONAL
    verb = "must" if must else "may"
    if tile_drawn is None:
        return _advice(
            must_draw=must,
            may_draw=True,
            draw_count=1,
            drawable=drawable,
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
        msg = _drawn_playable_message(policy, drawn)
    elif rules.draw_when_stuck == DrawWhenStuck.UNTIL_PLAYABLE and drawable > 1:
        result = "DRAW_AGAIN"
        msg = f"The drawn {drawn} cannot be played: keep drawing until you can play."
    else:
        result = "PASS"
        msg = f"The drawn {drawn} cannot be played, so you pass (no second draw)."
    return _advice(
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


def _drawn_playable_message(policy: DrawnTilePlay, drawn: Tile) -> str:
    """One sentence on a drawn tile that can be played, by ``drawn_tile_play`` (§5.5); only the
    sentence that applies is worded (this runs on every draw of a simulated game)."""
    match policy:
        case DrawnTilePlay.MUST:
            return f"The drawn {drawn} can be played, and under this house rule it must be."
        case DrawnTilePlay.MAY:
            return f"The drawn {drawn} can be played; you may play it now or keep it and pass."
        case DrawnTilePlay.NO:
            return (
                f"The drawn {drawn} could be played, but under this house rule you keep it "
                "and pass."
            )
