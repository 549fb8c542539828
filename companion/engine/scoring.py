"""Scoring hands and rounds (RULES.md §6, §7). Scores are points; lower is better."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .errors import EngineError, ErrorCode
from .rules import GoingOutOnDouble, RuleSet
from .tiles import Tile

GOING_OUT_ON_DOUBLE_PENALTY = 50


def tile_points(tile: Tile, rules: RuleSet) -> int:
    """Points a tile left in hand costs (RULES.md §7).

    The double-blank scores ``double_blank_value`` (50 by default). Under ``blank_half_value``
    25 (RUSSELLR, FUNDEX: "each blank counts 25") every blank half of another tile counts 25
    and the other half its pips, so 0-5 = 30; the sources leave per-half vs per-tile open (§7)
    and this engine reads "each blank" as each blank half.

    >>> from companion.engine import RuleSet, parse_tile, tile_points
    >>> tile_points(parse_tile("0-0"), RuleSet())  # the double-blank
    50
    """
    if tile == Tile(0, 0):
        return rules.double_blank_value
    blanks = (tile.high == 0) + (tile.low == 0)
    return tile.pips + blanks * rules.blank_half_value


def hand_points(hand: Iterable[Tile], rules: RuleSet) -> int:
    """Points for the tiles left in a hand: the sum of :func:`tile_points` (§7).

    >>> from companion.engine import RuleSet, hand_points, parse_tile
    >>> hand_points([parse_tile("6-4"), parse_tile("0-0")], RuleSet())
    60
    """
    return sum(tile_points(t, rules) for t in hand)


def max_hand_points(
    tile_count: int, set_size: int, rules: RuleSet, excluded: Iterable[Tile] = ()
) -> int:
    """The most points ``tile_count`` tiles of a double-``set_size`` set could score.

    Used to refuse a typed score that no hand of that size could reach.

    >>> from companion.engine import RuleSet, max_hand_points
    >>> max_hand_points(55, 9, RuleSet())  # a whole double-9 set
    545
    """
    from .tiles import DominoSet

    skip = set(excluded)
    values = sorted(
        (tile_points(t, rules) for t in DominoSet(n=set_size) if t not in skip), reverse=True
    )
    return sum(values[:tile_count])


@dataclass(frozen=True, slots=True)
class HandResult:
    """One player's score for one round, as the engine works it out (named apart from the
    stored row, :class:`companion.models.HandScore`, so a name says its layer).

    Attributes:
        points: the round score in points.
        went_out: the player laid their last tile.
        penalty: points added because they went out on a double (§6), else 0.
        is_zero_round: the round counts as a zero round for the tie-break (§8).
        explanation: one sentence.
        rule: the RULES.md section applied (6 going out, 7 scoring).
    """

    points: int
    went_out: bool
    penalty: int
    explanation: str
    rule: str = "7"

    @property
    def is_zero_round(self) -> bool:
        """A zero round is any round scored 0 (§8); a 50 for going out on a double is not."""
        return self.points == 0


def score_hand(
    hand: Sequence[Tile],
    rules: RuleSet,
    *,
    went_out: bool = False,
    last_tile_was_double: bool = False,
    round_double: Tile | None = None,
) -> HandResult:
    """Score one player's round (RULES.md §6, §7).

    Args:
        hand: tiles left in hand (empty when the player went out).
        went_out: the player laid their last tile (implied by an empty hand).
        last_tile_was_double: that last tile was a double (``going_out_on_double``).
        round_double: the round's centre double, which can never be in a hand (§4, §11.4).
    Raises EngineError(``CENTRE_DOUBLE_IN_HAND``) if the hand holds the centre double, and
    EngineError(``WENT_OUT_WITH_TILES``) if a player who went out still holds tiles.

    >>> from companion.engine import RuleSet, parse_tile, score_hand
    >>> score_hand([parse_tile("6-4")], RuleSet()).explanation
    '1 tile left in hand: 10 points.'
    """
    if round_double is not None and round_double in hand:
        raise EngineError(
            ErrorCode.CENTRE_DOUBLE_IN_HAND,
            "%(round_double)s is the centre double of this round, so it cannot be in a hand.",
            "input.hand",
            params={"round_double": round_double},
        )
    if went_out and hand:
        raise EngineError(
            ErrorCode.WENT_OUT_WITH_TILES, "A player who went out has no tiles left.", "input.hand"
        )
    if went_out or not hand:
        if last_tile_was_double and rules.going_out_on_double == GoingOutOnDouble.PENALTY_50:
            return HandResult(
                points=GOING_OUT_ON_DOUBLE_PENALTY,
                went_out=True,
                penalty=GOING_OUT_ON_DOUBLE_PENALTY,
                explanation="Went out on a double: under this house rule that costs 50 points "
                "and is not a zero round.",
                rule="6",
            )
        return HandResult(
            points=0, went_out=True, penalty=0, explanation="Went out: 0 points.", rule="6"
        )
    points = hand_points(hand, rules)
    parts = []
    if Tile(0, 0) in hand:
        parts.append(f"the double-blank counts {rules.double_blank_value}")
    if rules.blank_half_value and any(t.low == 0 and not t.is_double for t in hand):
        parts.append(f"each blank half counts {rules.blank_half_value}")
    extra = f" ({'; '.join(parts)})" if parts else ""
    tiles = f"{len(hand)} tile{'s' if len(hand) != 1 else ''}"
    return HandResult(
        points=points,
        went_out=False,
        penalty=0,
        explanation=f"{tiles} left in hand: {points} points{extra}.",
    )


def running_totals(round_scores: Mapping[str, Sequence[int]]) -> dict[str, list[int]]:
    """Player -> running total after each round (points), in round order (§7).

    >>> from companion.engine import running_totals
    >>> running_totals({"Ann": [5, 0, 12], "Bob": [3, 7, 0]})
    {'Ann': [5, 5, 17], 'Bob': [3, 10, 10]}
    """
    out: dict[str, list[int]] = {}
    for player, scores in round_scores.items():
        total, totals = 0, []
        for s in scores:
            total += s
            totals.append(total)
        out[player] = totals
    return out


def double_blank_penalty_possible(rules: RuleSet, round_double: Tile | None) -> bool:
    """Can a hand be caught with the double-blank this round? Never in the 0-0 round (§4, SCO-13),
    and never when the house rules value it at 0 points."""
    if round_double == Tile(0, 0):
        return False
    return rules.double_blank_value > 0
