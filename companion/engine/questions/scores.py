"""Questions about points (QUESTIONS.md "scoring", "tiebreak"): a hand's score, running totals
and leaders, and who wins a tie (RULES.md §4, §7, §8)."""

from __future__ import annotations

from typing import Any

from ..errors import EngineError, ErrorCode
from ..reasons import Reason
from ..scoring import double_blank_penalty_possible, running_totals, score_hand
from ..tiebreak import decide, leaders_by_round, records
from ..tiles import Tile
from .reading import Answer, Question


def scoring(q: Question) -> Answer:
    answer: Answer = {}
    centre = (
        q.tile(q.input["round_start_double"], "input.round_start_double")
        if q.has("round_start_double")
        else None
    )
    if centre is not None and not centre.is_double:
        raise EngineError(
            ErrorCode.BAD_VALUE,
            "%(centre)s is not a double.",
            "input.round_start_double",
            params={"centre": centre},
        )
    if q.has("hand"):
        hand, _ = q.hand()
        round_end = q.input.get("round_end")
        if round_end not in (None, Reason.OUT, Reason.BLOCKED):
            raise EngineError(
                ErrorCode.BAD_VALUE, 'round_end is "OUT" or "BLOCKED".', "input.round_end"
            )
        went_out = q.flag("went_out") or (not hand and round_end != Reason.BLOCKED)
        score = score_hand(
            hand,
            q.rules,
            went_out=went_out,
            last_tile_was_double=q.flag("last_tile_was_double"),
            round_double=centre,
        )
        answer.update(
            score=score.points,
            is_zero_round=score.is_zero_round,
            message=score.explanation,
            rule=score.rule,
        )
    if q.has("round_scores"):
        answer.update(_totals(q))
    if centre is not None:
        possible = double_blank_penalty_possible(q.rules, centre)
        answer["double_blank_penalty_possible"] = possible
        if "message" not in answer:
            answer["message"] = (
                f"In the {centre} round the double-blank is the centre tile, so nobody can be "
                "caught with it."
                if centre == Tile(0, 0)
                else f"Whoever is caught with 0-0 this round scores {q.rules.double_blank_value}."
                if possible
                else "The double-blank costs nothing extra under these house rules."
            )
            answer["rule"] = "4"
    if not answer:
        raise EngineError(
            ErrorCode.MISSING_INPUT,
            "A scoring question needs a hand, round_scores or a round_start_double.",
            "input",
        )
    return answer


def _totals(q: Question) -> Answer:
    scores = q.round_scores()
    totals = running_totals(scores)
    rounds = max(len(v) for v in scores.values())
    leaders: list[Any] = [
        w[0] if len(w) == 1 else list(w) for w in leaders_by_round(scores, q.rules)
    ]
    answer: Answer = {"totals_after_each_round": totals, "leader_after_each_round": leaders}
    for r, leader in enumerate(leaders, start=1):
        answer[f"leader_after_round_{r}"] = leader
    if "message" not in answer:
        last = leaders[-1] if leaders else None
        answer["message"] = (
            f"After round {rounds} the leader is "
            f"{last if isinstance(last, str) else ' and '.join(last or [])}."
        )
        answer["rule"] = "7"
    return answer


def tiebreak(q: Question) -> Answer:
    recs = records(q.round_scores(ErrorCode.MISSING_INPUT))
    decision = decide(recs, q.rules)
    winners = list(decision.winners)
    return {
        "winners": winners,
        "decided_at": decision.decided_at,
        "totals": {r.player: r.total for r in recs},
        "zero_rounds": {r.player: r.zero_rounds for r in recs},
        "best_nonzero_round": {r.player: r.best_nonzero for r in recs},
        "message": _tiebreak_message(winners, decision.decided_at, recs),
        "rule": decision.rule,
    }


def _tiebreak_message(winners: list[str], decided_at: str, recs: list[Any]) -> str:
    names = " and ".join(winners)
    by = {r.player: r for r in recs}
    w = by[winners[0]]
    return {
        "lowest_total": f"{names} wins with the lowest total, {w.total} points.",
        "most_zero_rounds": f"{names} wins the tie on {w.total} points with the most zero rounds "
        f"({w.zero_rounds}).",
        "lowest_single_nonzero_round": f"{names} wins the tie: same total and zero rounds, but "
        f"the lowest single non-zero round ({w.best_nonzero}).",
        "extension_next_lowest_nonzero": f"{names} wins on the next-lowest non-zero round "
        "(a house extension).",
        "unresolved_shared": f"{names} share the win: total, zero rounds and best non-zero round "
        "are all equal.",
    }[decided_at]
