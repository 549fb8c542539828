"""Winners and standings with the tie-break step that decided (RULES.md §8).

Lowest total wins; then most zero rounds; then the lowest single non-zero round; then a shared
win (or, optionally and unsourced, the 2nd-lowest non-zero round, then the 3rd, ...).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import EngineError, ErrorCode
from .reasons import DecidedAt
from .rules import RuleSet, TiebreakExhausted

DECIDED_LABELS: dict[str, str] = {
    DecidedAt.LOWEST_TOTAL: "lowest total",
    DecidedAt.MOST_ZERO_ROUNDS: "most zero rounds",
    DecidedAt.LOWEST_SINGLE_NONZERO_ROUND: "lowest single non-zero round",
    DecidedAt.EXTENSION_NEXT_LOWEST_NONZERO: "next-lowest non-zero round",
    DecidedAt.UNRESOLVED_SHARED: "no tie-break separates them",
}


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One player's figures for the tie-break (points).

    Attributes:
        player: the name used in the input.
        total: sum of round scores.
        zero_rounds: rounds scored 0.
        nonzero: the non-zero round scores, lowest first.
    """

    player: str
    total: int
    zero_rounds: int
    nonzero: tuple[int, ...]

    @property
    def best_nonzero(self) -> int | None:
        """The lowest single non-zero round score, or None if every round was 0."""
        return self.nonzero[0] if self.nonzero else None


def records(round_scores: Mapping[str, Sequence[int]]) -> list[PlayerRecord]:
    """Tie-break figures per player, in input order.

    Raises EngineError(``BAD_SCORE``) for a score that is not a whole number of points >= 0.

    >>> from companion.engine import records
    >>> records({"Ann": [5, 0, 12]})
    [PlayerRecord(player='Ann', total=17, zero_rounds=1, nonzero=(5, 12))]
    """
    out = []
    for player, scores in round_scores.items():
        if not isinstance(scores, list | tuple):
            raise EngineError(
                ErrorCode.BAD_SCORE,
                "%(player)s's round scores must be a list of points.",
                f"input.round_scores.{player}",
                params={"player": player},
            )
        for i, s in enumerate(scores):
            if not isinstance(s, int) or isinstance(s, bool) or s < 0:
                raise EngineError(
                    ErrorCode.BAD_SCORE,
                    "%(s)s is not a round score (whole points, 0 or more).",
                    f"input.round_scores.{player}[{i}]",
                    params={"s": repr(s)},
                )
        nonzero = tuple(sorted(s for s in scores if s))
        out.append(
            PlayerRecord(
                player=player,
                total=sum(scores),
                zero_rounds=len(scores) - len(nonzero),
                nonzero=nonzero,
            )
        )
    return out


def _step_key(step: str, rec: PlayerRecord) -> float:
    """Smaller is better for every step."""
    if step == DecidedAt.LOWEST_TOTAL:
        return rec.total
    if step == DecidedAt.MOST_ZERO_ROUNDS:
        return -rec.zero_rounds
    best = rec.best_nonzero
    return float("inf") if best is None else best


def _extension_key(rec: PlayerRecord) -> tuple[int, ...]:
    return rec.nonzero[1:]


@dataclass(frozen=True, slots=True)
class Decision:
    """Who wins among ``candidates`` and the step that decided.

    Attributes:
        winners: the winning players (more than one is a shared win), in input order.
        decided_at: ``lowest_total``, ``most_zero_rounds``, ``lowest_single_nonzero_round``,
            ``extension_next_lowest_nonzero`` or ``unresolved_shared``.
        rule: the RULES.md section (8).
    """

    winners: tuple[str, ...]
    decided_at: str
    rule: str = "8"


def decide(recs: Sequence[PlayerRecord], rules: RuleSet) -> Decision:
    """Apply the tie-break steps of ``rules`` to ``recs`` (RULES.md §8).

    ``decided_at`` names the step that left a single winner; ``lowest_total`` also when there
    was no tie at all. Raises EngineError(``NO_PLAYERS``) for an empty list.

    >>> from companion.engine import RuleSet, decide, records
    >>> decision = decide(records({"Ann": [5, 0, 12], "Bob": [3, 7, 7]}), RuleSet())
    >>> decision.winners, decision.decided_at  # both on 17: Ann has the zero round
    (('Ann',), <DecidedAt.MOST_ZERO_ROUNDS: 'most_zero_rounds'>)
    """
    if not recs:
        raise EngineError(
            ErrorCode.NO_PLAYERS, "There are no players to compare.", "input.round_scores"
        )
    alive = list(recs)
    for step in rules.tiebreak:
        best = min(_step_key(step, r) for r in alive)
        alive = [r for r in alive if _step_key(step, r) == best]
        if len(alive) == 1:
            return Decision(winners=(alive[0].player,), decided_at=step)
    if rules.tiebreak_exhausted == TiebreakExhausted.NEXT_LOWEST_NONZERO:
        best_ext = min(_extension_key(r) for r in alive)
        narrowed = [r for r in alive if _extension_key(r) == best_ext]
        # A shorter list of non-zero rounds ranks first only if it is a strict prefix: one who
        # has fewer non-zero rounds was already separated by zero rounds, so equal ones share.
        if len(narrowed) == 1:
            return Decision(
                winners=(narrowed[0].player,), decided_at=DecidedAt.EXTENSION_NEXT_LOWEST_NONZERO
            )
        alive = narrowed
    return Decision(winners=tuple(r.player for r in alive), decided_at=DecidedAt.UNRESOLVED_SHARED)


def leaders_by_round(
    round_scores: Mapping[str, Sequence[int]], rules: RuleSet
) -> list[tuple[str, ...]]:
    """The winner(s) after each round: :func:`decide` on every prefix of the scores (RULES.md
    §7 running totals, §8 tie-break), in one pass.

    Each player's total, zero rounds and non-zero rounds are carried from one round to the next
    instead of being recounted from round 1, so the work grows with rounds x players, not with
    its square. A player with fewer rounds keeps their last figures. Raises EngineError
    (``BAD_SCORE``) as :func:`records` does.
    """
    records(round_scores)  # validates every score before any work
    players = list(round_scores)
    totals = dict.fromkeys(players, 0)
    zeros = dict.fromkeys(players, 0)
    nonzero: dict[str, list[int]] = {p: [] for p in players}
    # decide() reads only the lowest non-zero round unless the house extension compares the
    # whole sorted list: pass the whole list only then.
    whole = rules.tiebreak_exhausted == TiebreakExhausted.NEXT_LOWEST_NONZERO
    out = []
    for r in range(max((len(v) for v in round_scores.values()), default=0)):
        for player, scores in round_scores.items():
            if r < len(scores):
                score = scores[r]
                totals[player] += score
                if score:
                    insort(nonzero[player], score)
                else:
                    zeros[player] += 1
        current = [
            PlayerRecord(
                player=p,
                total=totals[p],
                zero_rounds=zeros[p],
                nonzero=tuple(nonzero[p]) if whole else tuple(nonzero[p][:1]),
            )
            for p in players
        ]
        out.append(decide(current, rules).winners)
    return out


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings.

    Attributes:
        rank: 1 for the winner(s); tied players share a rank.
        record: the player's figures.
        decided_by: the step that separated this player from the one ranked just above, or
            ``""`` for the first line. ``unresolved_shared`` means tied with the line above.
    """

    rank: int
    record: PlayerRecord
    decided_by: str


def standings(round_scores: Mapping[str, Sequence[int]], rules: RuleSet) -> list[Standing]:
    """The full ranking, best first, with the step that separates neighbours (RULES.md §8).

    Players are ordered by repeatedly taking the winner(s) of :func:`decide` among those left,
    so the same steps decide every place, not just the first.

    >>> from companion.engine import RuleSet, standings
    >>> board = standings({"Ann": [5, 0, 12], "Bob": [3, 7, 7]}, RuleSet())
    >>> [(s.rank, s.record.player, s.record.total) for s in board]
    [(1, 'Ann', 17), (2, 'Bob', 17)]
    """
    left = records(round_scores)
    out: list[Standing] = []
    rank = 1
    while left:
        decision = decide(left, rules)
        winners = [r for r in left if r.player in decision.winners]
        for i, rec in enumerate(winners):
            if not out:
                decided = ""
            elif i == 0:
                decided = _separating_step(out[-1].record, rec, rules)
            else:
                decided = DecidedAt.UNRESOLVED_SHARED
            out.append(Standing(rank=rank, record=rec, decided_by=decided))
        rank += len(winners)
        left = [r for r in left if r.player not in decision.winners]
    return out


def _separating_step(above: PlayerRecord, below: PlayerRecord, rules: RuleSet) -> str:
    for step in rules.tiebreak:
        if _step_key(step, above) != _step_key(step, below):
            return step
    return DecidedAt.EXTENSION_NEXT_LOWEST_NONZERO
