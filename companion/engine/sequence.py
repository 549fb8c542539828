"""The order of rounds: one per double, and what happens when nobody holds it (RULES.md §3.5, §4).

Doubles are named by their number: ``9`` is 9-9. Round r (1-based) normally starts with double
N - r + 1; the house rule ``missing_start_double`` decides what a missing double does to that.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from .errors import ErrorCode, RuleError
from .rules import MissingStartDouble, RuleSet, StartDoubleSource
from .state import RoundState
from .tiles import DominoSet

SKIP_RULES = (
    MissingStartDouble.SKIP_TO_NEXT_LOWER,
    MissingStartDouble.SKIP_TO_NEXT_LOWER_EXCEPT_BLANK,
)

PROCEDURES = {
    MissingStartDouble.DRAW_UNTIL_FOUND: (
        "Nobody holds {d}-{d}: starting left of the dealer, players take turns "
        "drawing from the chicken yard until it appears; drawn tiles stay in hand, and whoever "
        "draws it starts."
    ),
    MissingStartDouble.SKIP_TO_NEXT_LOWER: (
        "Nobody holds {d}-{d}: it is burned for this game and the round starts "
        "with the next lower double that someone holds."
    ),
    MissingStartDouble.SKIP_TO_NEXT_LOWER_EXCEPT_BLANK: (
        "Nobody holds {d}-{d}: it is burned and the round starts "
        "with the next lower double someone holds (the double-blank is always drawn for)."
    ),
    MissingStartDouble.RETRY_NEXT_ROUND: (
        "Nobody holds {d}-{d}: it is passed over this round and tried again next "
        "round; this round starts with the highest unused double someone holds."
    ),
    MissingStartDouble.RESHUFFLE_REDEAL: (
        "Nobody holds {d}-{d}: all tiles are reshuffled and the hands dealt again."
    ),
}


def round_doubles(set_size: int) -> tuple[int, ...]:
    """The start doubles in order: N, N-1, ..., 0 (RULES.md §4).

    >>> from companion.engine import round_doubles
    >>> round_doubles(6)
    (6, 5, 4, 3, 2, 1, 0)
    """
    return tuple(range(DominoSet(n=set_size).n, -1, -1))


def round_double(set_size: int, round_number: int) -> int:
    """The double that normally starts round ``round_number`` (1-based): N - r + 1 (§4).

    Raises RuleError when the round number is outside 1..N+1.

    >>> from companion.engine import round_double
    >>> round_double(9, 3)  # double-9, round 3
    7
    """
    if not 1 <= round_number <= set_size + 1:
        raise RuleError(
            ErrorCode.BAD_ROUND,
            "A double-%(set_size)s game has rounds 1 to %(last)s, not %(round_number)s.",
            "input.round",
            params={"set_size": set_size, "last": set_size + 1, "round_number": round_number},
        )
    return set_size - round_number + 1


@dataclass(frozen=True, slots=True)
class NextRound:
    """What the coming round starts with.

    Attributes:
        start_double: the coming round's double, or None when the game is over.
        following: the double expected for the round after it (None if none is left).
        burned: doubles skipped for good, highest first (never those merely passed over).
        passed_over: doubles passed over for this round only (``retry_next_round``).
        drawn_for: True when nobody holds the start double and players draw for it.
        redeal: True when the tiles are reshuffled and dealt again first.
        rounds_left: rounds still to play, the coming one included.
        procedure: what the table does, in one or two sentences.
        rule: the RULES.md section applied (3.5 when a double was missing, else 4).
    """

    start_double: int | None
    following: int | None
    burned: tuple[int, ...]
    passed_over: tuple[int, ...]
    drawn_for: bool
    redeal: bool
    rounds_left: int
    procedure: str
    rule: str = "4"

    @property
    def game_over(self) -> bool:
        """True when no double is left to start a round (§4: the game ends after 0-0)."""
        return self.start_double is None


def check_played(set_size: int, played: Sequence[int]) -> tuple[int, ...]:
    """Validate the start doubles used so far. Raises RuleError for outsiders or repeats."""
    seen: set[int] = set()
    for i, d in enumerate(played):
        if not isinstance(d, int) or isinstance(d, bool) or not 0 <= d <= set_size:
            raise RuleError(
                ErrorCode.BAD_DOUBLE,
                "%(d)s is not a double of a double-%(set_size)s set.",
                f"input.rounds_played[{i}]",
                params={"d": repr(d), "set_size": set_size},
            )
        if d in seen:
            raise RuleError(
                ErrorCode.DUPLICATE_ROUND,
                "%(d)s-%(d)s started two rounds; each double starts one round at most.",
                f"input.rounds_played[{i}]",
                params={"d": d},
            )
        seen.add(d)
    return tuple(played)


def _candidates(
    rules: RuleSet, set_size: int, played: Sequence[int]
) -> tuple[list[int], list[int]]:
    """Doubles that may still start a round (highest first), and those already burned."""
    unused = [d for d in range(set_size, -1, -1) if d not in played]
    if rules.missing_start_double in SKIP_RULES and played:
        floor = min(played)
        return [d for d in unused if d < floor], [d for d in unused if d > floor]
    return unused, []


class _Step(Enum):
    """What ``missing_start_double`` does with one double that nobody holds (§3.5)."""

    DRAW = "draw"  # players draw for it and it starts the round
    REDEAL = "redeal"  # reshuffle and deal again, then look for it again
    BURN = "burn"  # skip it for good and look at the next lower double
    PASS_OVER = "pass_over"  # skip it this round only and look at the next lower double


def _step(rule: MissingStartDouble, double: int, only_missing_left: bool) -> _Step:
    """The house rule's answer for ``double`` when nobody holds it; ``only_missing_left``: every
    candidate from it down is missing too."""
    match rule:
        case MissingStartDouble.DRAW_UNTIL_FOUND:
            return _Step.DRAW
        case MissingStartDouble.RESHUFFLE_REDEAL:
            return _Step.REDEAL
        case MissingStartDouble.SKIP_TO_NEXT_LOWER:
            return _Step.BURN
        case MissingStartDouble.SKIP_TO_NEXT_LOWER_EXCEPT_BLANK:
            return _Step.DRAW if double == 0 else _Step.BURN  # the double-blank is drawn for
        case MissingStartDouble.RETRY_NEXT_ROUND:
            # the last doubles left are drawn for: no later round is left to retry them in
            return _Step.DRAW if only_missing_left else _Step.PASS_OVER


def missing_doubles(state: RoundState) -> frozenset[int]:
    """Doubles known to be held by nobody after the deal (none when the double is pulled before
    the deal: it is then always found first, §3.4)."""
    if state.rules.start_double_source != StartDoubleSource.HELD_IN_HAND:
        return frozenset()
    return frozenset(d for d, who in state.holders.items() if who is None)


def next_round(state: RoundState) -> NextRound:
    """The coming round's double under ``rules.missing_start_double`` (RULES.md §3.5, §4).

    Args:
        state: the game before the coming round (:class:`~companion.engine.state.RoundState`):
            ``rules``, ``set_size`` (N), ``played`` (start doubles used so far, in order) and
            ``holders`` (double -> holding player, or None when known that nobody holds it;
            doubles not listed are assumed to be found normally; ignored when the double is
            pulled before the deal, §3.4).
    Raises RuleError for an invalid ``played`` list.

    >>> from companion.engine import RoundState, RuleSet, next_round
    >>> next_round(RoundState(rules=RuleSet(), played=[9])).procedure
    'Whoever holds 8-8 places it in the centre.'
    """
    rules, n = state.rules, state.n
    played = check_played(n, state.played)
    candidates, burned = _candidates(rules, n, played)
    missing = missing_doubles(state)
    passed: list[int] = []
    step: _Step | None = None
    start: int | None = None
    for i, d in enumerate(candidates):
        if d not in missing:
            start = d
            break
        only_missing_left = missing.issuperset(candidates[i:])
        step = _step(rules.missing_start_double, d, only_missing_left)
        if step is _Step.BURN:
            burned.append(d)
        elif step is _Step.PASS_OVER:
            passed.append(d)
        else:
            start = d
            break
    # the first double met that nobody holds names the procedure (one was met if step is set)
    first_missing = next((d for d in candidates if d in missing), None)
    remaining = _remaining(rules, candidates, start)
    # a missing double that starts the round was reached by its own step (draw or redeal)
    drawn_for = start in missing and step is _Step.DRAW
    redeal = start in missing and step is _Step.REDEAL
    return NextRound(
        start_double=start,
        following=remaining[0] if remaining else None,
        burned=tuple(sorted(burned, reverse=True)),
        passed_over=tuple(passed),
        drawn_for=drawn_for,
        redeal=redeal,
        rounds_left=(len(remaining) + 1) if start is not None else 0,
        procedure=_procedure(rules, first_missing if step is not None else None, start),
        rule="3.5" if (burned or passed or drawn_for or redeal) else "4",
    )


def _remaining(rules: RuleSet, candidates: Sequence[int], start: int | None) -> list[int]:
    """The doubles still to start rounds after the coming one (§3.5, §4)."""
    if start is None:
        return []
    if rules.missing_start_double in SKIP_RULES:
        return [d for d in candidates if d < start]
    return [d for d in candidates if d != start]


def _procedure(rules: RuleSet, first_missing: int | None, start: int | None) -> str:
    """What the table does, in one or two sentences: the house rule for the first missing
    double met, else the ordinary start (or the end of the game)."""
    if first_missing is not None:
        return PROCEDURES[rules.missing_start_double].format(d=first_missing)
    if start is None:
        return "The game is over: every double has started its round."
    return f"Whoever holds {start}-{start} places it in the centre."
