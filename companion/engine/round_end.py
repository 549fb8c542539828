"""Is the round over, and why (RULES.md §6, §11.7), with each player's score (§7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import EngineError, ErrorCode
from .moves import has_legal_play
from .reasons import Reason
from .rules import RuleSet
from .scoring import HandResult, score_hand
from .state import RoundInPlay
from .tiles import Tile
from .turns import drawable_tiles


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """Whether a round is over.

    Attributes:
        over: True when the round has ended.
        reason: ``OUT``, ``BLOCKED``, ``NO_DRAW`` (over) or ``YARD_NOT_EXHAUSTED``,
            ``SOMEONE_CAN_PLAY`` (not over).
        went_out: the player who laid their last tile, if any.
        scores: player -> HandResult when over (players whose hand is known).
        can_play: players who have a legal play now.
        message: one sentence; rule: the RULES.md section.
    """

    over: bool
    reason: Reason
    went_out: str | None
    scores: Mapping[str, HandResult]
    can_play: tuple[str, ...]
    message: str
    rule: str


def round_status(state: RoundInPlay) -> RoundEnd:
    """Decide whether the round is over (RULES.md §6; §11.7).

    Over when a hand is empty (``OUT``, even with a foot unfinished), when nobody can play and
    nothing can be drawn (``BLOCKED``; the S001 reserve counts as nothing), or under
    ``empty_yard_ends_round`` when the player to move cannot play and nothing can be drawn
    (``NO_DRAW``). Otherwise ``SOMEONE_CAN_PLAY`` or ``YARD_NOT_EXHAUSTED``.

    Args:
        state: the round at this moment (:class:`~companion.engine.state.RoundInPlay`: the
            layout, the hands, the yard's count, the rules and what is known of the turn).
    Raises EngineError(``SEVERAL_WENT_OUT``) when more than one player has an empty hand (§11.6)
    and EngineError(``CENTRE_DOUBLE_IN_HAND``) from scoring.

    >>> from companion.engine import Layout, RoundInPlay, RuleSet, Tile, parse_tile, round_status
    >>> hands = {"Ann": [], "Bob": [parse_tile("6-5")]}
    >>> table = Layout.start(Tile(9, 9), 4, 3)
    >>> state = RoundInPlay(rules=RuleSet(), layout=table, hands=hands, yard_count=10)
    >>> status = round_status(state)
    >>> status.reason, status.went_out, status.scores["Bob"].points
    (<Reason.OUT: 'OUT'>, 'Ann', 11)
    """
    out = _who_went_out(state)
    if out is not None:
        return _went_out(state, out)
    layout, hands, rules = state.layout, state.hands, state.rules
    can_play = tuple(p for p, h in hands.items() if has_legal_play(layout, h))
    drawable = drawable_tiles(rules, state.yard_count, state.player_count)
    if rules.empty_yard_ends_round and drawable == 0 and _to_move_is_stuck(state, can_play):
        return RoundEnd(
            over=True,
            reason=Reason.NO_DRAW,
            went_out=None,
            scores=_scores(hands, rules, layout.center),
            can_play=can_play,
            message=f"{state.to_move or 'The player to move'} cannot play and there is nothing "
            "to draw: under 'No Draw' the round ends at once.",
            rule="5.5",
        )
    if can_play or drawable > 0:
        return _not_over(can_play, drawable)
    left = (
        "only the reserve is left in the chicken yard"
        if state.yard_count
        else "the chicken yard is empty"
    )
    return RoundEnd(
        over=True,
        reason=Reason.BLOCKED,
        went_out=None,
        scores=_scores(hands, rules, layout.center),
        can_play=(),
        message=f"Blocked: nobody can play and {left}, so everyone counts their hand.",
        rule="6",
    )


def _who_went_out(state: RoundInPlay) -> str | None:
    """The player who went out (from the event, else the one empty hand), or None.

    Raises EngineError(``SEVERAL_WENT_OUT``) when more than one hand is empty (§11.6)."""
    hands = state.hands
    out = state.went_out or next((p for p, h in hands.items() if not h), None)
    emptied = sorted({p for p, h in hands.items() if not h} | ({out} if out else set()))
    if len(emptied) > 1:
        # The round ends the moment the first hand empties (§6), so only one player goes out.
        raise EngineError(
            ErrorCode.SEVERAL_WENT_OUT,
            "Only one player can go out, but %(players)s and %(last)s all have "
            "empty hands: the round ends as soon as one player lays their last "
            "tile.",
            "input.hands",
            params={"players": ", ".join(emptied[:-1]), "last": emptied[-1]},
        )
    return out


def _went_out(state: RoundInPlay, out: str) -> RoundEnd:
    """``OUT``: the round is over even with a chicken foot unfinished (§6)."""
    scores = _scores(state.hands, state.rules, state.layout.center, out, state.last_tile_was_double)
    penalty = scores[out].penalty if out in scores else 0
    extra = " They went out on a double, which costs 50 under this house rule." if penalty else ""
    return RoundEnd(
        over=True,
        reason=Reason.OUT,
        went_out=out,
        scores=scores,
        can_play=(),
        message=f"{out} laid their last tile, so the "
        f"round is over, even if a chicken foot is unfinished.{extra}",
        rule="6",
    )


def _to_move_is_stuck(state: RoundInPlay, can_play: tuple[str, ...]) -> bool:
    """The player to move cannot play (with nobody named to move: nobody can), §5.5."""
    if state.to_move is None:
        return not can_play
    return state.to_move in state.hands and state.to_move not in can_play


def _not_over(can_play: tuple[str, ...], drawable: int) -> RoundEnd:
    """Not over: someone can play, or nobody can but tiles can still be drawn (§6)."""
    if can_play:
        message = f"Not over: {', '.join(can_play)} can still play."
    else:
        message = (
            f"Not over: nobody can play, but {drawable} tile"
            f"{'s' if drawable != 1 else ''} can still be drawn from the chicken yard."
        )
    return RoundEnd(
        over=False,
        reason=Reason.SOMEONE_CAN_PLAY if can_play else Reason.YARD_NOT_EXHAUSTED,
        went_out=None,
        scores={},
        can_play=can_play,
        message=message,
        rule="6",
    )


def _scores(
    hands: Mapping[str, Sequence[Tile]],
    rules: RuleSet,
    round_double: Tile,
    out: str | None = None,
    last_double: bool = False,
) -> dict[str, HandResult]:
    scores = {}
    for player, hand in hands.items():
        if player == out:
            scores[player] = score_hand((), rules, went_out=True, last_tile_was_double=last_double)
        else:
            scores[player] = score_hand(hand, rules, round_double=round_double)
    if out is not None and out not in scores:
        scores[out] = score_hand((), rules, went_out=True, last_tile_was_double=last_double)
    return scores
