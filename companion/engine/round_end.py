"""Is the round over, and why (RULES.md §6, §11.7), with each player's score (§7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import EngineError
from .moves import has_legal_play
from .rules import RuleSet
from .scoring import HandResult, score_hand
from .state import RoundState
from .tiles import Tile
from .turns import drawable_tiles


@dataclass(frozen=True, slots=True)
class RoundStatus:
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
    reason: str
    went_out: str | None
    scores: Mapping[str, HandResult]
    can_play: tuple[str, ...]
    message: str
    rule: str


def round_status(state: RoundState) -> RoundStatus:
    """Decide whether the round is over (RULES.md §6; §11.7).

    Over when a hand is empty (``OUT``, even with a foot unfinished), when nobody can play and
    nothing can be drawn (``BLOCKED``; the S001 reserve counts as nothing), or under
    ``empty_yard_ends_round`` when the player to move cannot play and nothing can be drawn
    (``NO_DRAW``). Otherwise ``SOMEONE_CAN_PLAY`` or ``YARD_NOT_EXHAUSTED``.

    Args:
        state: the round at this moment (:class:`~companion.engine.state.RoundState`: the
            layout, the hands, the yard's count, the rules and what is known of the turn).
    Raises EngineError(``SEVERAL_WENT_OUT``) when more than one player has an empty hand (§11.6)
    and EngineError(``CENTRE_DOUBLE_IN_HAND``) from scoring.
    """
    layout, hands, yard_count, rules = state.layout, state.hands, state.yard_count, state.rules
    players, to_move, went_out = state.players, state.to_move, state.went_out
    last_tile_was_double = state.last_tile_was_double
    count = players if players is not None else (len(hands) or None)
    round_double = layout.center
    out = went_out or next((p for p, h in hands.items() if not h), None)
    emptied = sorted({p for p, h in hands.items() if not h} | ({out} if out else set()))
    if len(emptied) > 1:
        # The round ends the moment the first hand empties (§6), so only one player goes out.
        raise EngineError(
            "SEVERAL_WENT_OUT",
            "Only one player can go out, but %(players)s and %(last)s all have "
            "empty hands: the round ends as soon as one player lays their last "
            "tile.",
            "input.hands",
            params={"players": ", ".join(emptied[:-1]), "last": emptied[-1]},
        )
    if out is not None:
        scores = _scores(hands, rules, round_double, out, last_tile_was_double)
        penalty = scores[out].penalty if out in scores else 0
        extra = (
            " They went out on a double, which costs 50 under this house rule." if penalty else ""
        )
        return RoundStatus(
            over=True,
            reason="OUT",
            went_out=out,
            scores=scores,
            can_play=(),
            message=f"{out} laid their last tile, so the "
            f"round is over, even if a chicken foot is unfinished.{extra}",
            rule="6",
        )
    can_play = tuple(p for p, h in hands.items() if has_legal_play(layout, h))
    drawable = drawable_tiles(rules, yard_count, count)
    if (
        rules.empty_yard_ends_round
        and drawable == 0
        and (
            (to_move is not None and to_move in hands and to_move not in can_play)
            or (to_move is None and not can_play)
        )
    ):
        who = to_move or "The player to move"
        return RoundStatus(
            over=True,
            reason="NO_DRAW",
            went_out=None,
            scores=_scores(hands, rules, round_double),
            can_play=can_play,
            message=f"{who} cannot play and there is nothing to draw: under 'No Draw' "
            "the round ends at once.",
            rule="5.5",
        )
    if can_play:
        names = ", ".join(can_play)
        return RoundStatus(
            over=False,
            reason="SOMEONE_CAN_PLAY",
            went_out=None,
            scores={},
            can_play=can_play,
            message=f"Not over: {names} can still play.",
            rule="6",
        )
    if drawable > 0:
        return RoundStatus(
            over=False,
            reason="YARD_NOT_EXHAUSTED",
            went_out=None,
            scores={},
            can_play=(),
            message=f"Not over: nobody can play, but {drawable} tile"
            f"{'s' if drawable != 1 else ''} can still be drawn from the chicken "
            "yard.",
            rule="6",
        )
    left = (
        "only the reserve is left in the chicken yard"
        if yard_count
        else "the chicken yard is empty"
    )
    return RoundStatus(
        over=True,
        reason="BLOCKED",
        went_out=None,
        scores=_scores(hands, rules, round_double),
        can_play=(),
        message=f"Blocked: nobody can play and {left}, so everyone counts their hand.",
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
