"""The order of rounds: one per double, and what happens when nobody holds it (RULES.md §3.5, §4).

Doubles are named by their number: ``9`` is 9-9. Round r (1-based) normally starts with double
N - r + 1; the house rule ``missing_start_double`` decides what a missing double does to that.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import RuleError
from .rules import MissingStartDouble, RuleSet, StartDoubleSource
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
    """The start doubles in order: N, N-1, ..., 0 (RULES.md §4)."""
    return tuple(range(DominoSet(n=set_size).n, -1, -1))


def round_double(set_size: int, round_number: int) -> int:
    """The double that normally starts round ``round_number`` (1-based): N - r + 1 (§4).

    Raises RuleError when the round number is outside 1..N+1.
    """
    if not 1 <= round_number <= set_size + 1:
        raise RuleError(
            "BAD_ROUND",
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
                "BAD_DOUBLE",
                "%(d)s is not a double of a double-%(set_size)s set.",
                f"input.rounds_played[{i}]",
                params={"d": repr(d), "set_size": set_size},
            )
        if d in seen:
            raise RuleError(
                "DUPLICATE_ROUND",
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


def next_round(
    rules: RuleSet,
    set_size: int,
    played: Sequence[int] = (),
    holders: Mapping[int, str | None] | None = None,
) -> NextRound:
    """The coming round's double under ``rules.missing_start_double`` (RULES.md §3.5, §4).

    Args:
        played: start doubles used so far, in order.
        holders: double -> holding player, or None when known that nobody holds it. Doubles not
            in the mapping are assumed to be found normally. Ignored when the double is pulled
            before the deal (it is then always found first, §3.4).
    Raises RuleError for an invalid ``played`` list.
    """
    check_played(set_size, played)
    candidates, burned = _candidates(rules, set_size, played)
    holders = holders or {}
    rule = rules.missing_start_double

    def missing(d: int) -> bool:
        return (
            rules.start_double_source == StartDoubleSource.HELD_IN_HAND
            and d in holders
            and holders[d] is None
        )

    passed: list[int] = []
    drawn_for = redeal = False
    procedure = ""
    start: int | None = None
    for i, d in enumerate(candidates):
        if not missing(d):
            start = d
            break
        if not procedure:
            procedure = PROCEDURES[rule].format(d=d)
        if rule == MissingStartDouble.DRAW_UNTIL_FOUND or (
            rule == MissingStartDouble.SKIP_TO_NEXT_LOWER_EXCEPT_BLANK and d == 0
        ):
            start, drawn_for = d, True
            break
        if rule == MissingStartDouble.RESHUFFLE_REDEAL:
            start, redeal = d, True
            break
        if rule == MissingStartDouble.RETRY_NEXT_ROUND:
            if all(missing(x) for x in candidates[i:]):
                start, drawn_for = d, True  # the last doubles left are drawn for
                break
            passed.append(d)
            continue
        burned.append(d)
    if start is None:
        remaining: list[int] = []
    elif rule in SKIP_RULES:
        remaining = [d for d in candidates if d < start]
    else:
        remaining = [d for d in candidates if d != start]
    following = remaining[0] if remaining else None
    if not procedure:
        procedure = (
            "The game is over: every double has started its round."
            if start is None
            else f"Whoever holds {start}-{start} places it in the centre."
        )
    return NextRound(
        start_double=start,
        following=following,
        burned=tuple(sorted(burned, reverse=True)),
        passed_over=tuple(passed),
        drawn_for=drawn_for,
        redeal=redeal,
        rounds_left=(len(remaining) + 1) if start is not None else 0,
        procedure=procedure,
        rule="3.5" if (burned or passed or drawn_for or redeal) else "4",
    )
