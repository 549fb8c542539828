"""Questions that cut across categories (QUESTIONS.md "edge"): the last-tile announcement, the
centre double's capacity, and the other categories' questions asked as special cases."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from ..errors import EngineError, ErrorCode
from ..rules import LastTileAnnouncement
from .game import hub_capacity, sequence, setup, start_player
from .play import draw, placement, round_end
from .reading import Answer, Question
from .scores import scoring, tiebreak


def _announcement(q: Question) -> Answer:
    player = q.text("player") or "The player"
    applies = (
        q.rules.last_tile_announcement == LastTileAnnouncement.TAP_OR_DRAW_1
        and q.integer("tiles_left", 1) == 1
        and not q.flag("announced")
        and q.flag("next_player_has_played")
    )
    can_draw = q.integer("yard_count", 1) > 0
    if not applies:
        msg = (
            "No penalty: these house rules do not require announcing the last tile."
            if q.rules.last_tile_announcement == LastTileAnnouncement.OFF
            else "No penalty: the last tile was announced in time, or it is not the last tile."
        )
        return {"penalty": None, "penalty_applies": False, "message": msg, "rule": "5.5"}
    if not can_draw:
        return {
            "penalty": None,
            "penalty_applies": True,
            "rule": "5.5",
            "message": f"{player} should draw 1 tile, but the chicken yard is empty.",
        }
    return {
        "penalty": f"{player} draws 1 tile from the yard",
        "penalty_applies": True,
        "message": f"{player} did not announce their last tile before the next player "
        "played, so they draw 1 tile from the chicken yard.",
        "rule": "5.5",
    }


class EdgeKind(StrEnum):
    """Which question an "edge" question asks (``input.kind``, QUESTIONS.md "edge")."""

    ANNOUNCEMENT = "announcement"  # the last-tile announcement (§5.5)
    PLACEMENT = "placement"
    ROUND_END = "round_end"
    DRAW = "draw"
    SCORES_AND_TIE = "scores_and_tiebreak"  # running totals with the tie-break
    SCORING = "scoring"
    START_PLAYER = "start_player"
    SEQUENCE = "round_sequence"
    SETUP = "setup"
    CENTRE = "centre_capacity"  # how many spokes the centre double takes (§5.2)
    SET_FACTS = "set_facts"  # the set's rounds with the centre's capacity


@dataclass(frozen=True)
class ImpliedBy:
    """When a question names no kind (QUESTIONS.md's cases predate ``kind``): the kind of the
    first row whose keys the input gives (any of ``any_of`` and all of ``all_of``)."""

    kind: EdgeKind
    any_of: frozenset[str] = frozenset()
    all_of: frozenset[str] = frozenset()

    def matches(self, keys: set[str]) -> bool:
        """True when ``keys`` (the input's keys with a value) name this kind."""
        gives_one = not self.any_of or bool(keys & self.any_of)
        return gives_one and self.all_of <= keys


#: the kind of a question without ``kind``, first match wins (else :attr:`EdgeKind.SET_FACTS`)
IMPLIED_KINDS: tuple[ImpliedBy, ...] = (
    ImpliedBy(
        kind=EdgeKind.ANNOUNCEMENT,
        any_of=frozenset(("announced", "tiles_left", "next_player_has_played")),
    ),
    ImpliedBy(kind=EdgeKind.PLACEMENT, any_of=frozenset(("move", "turn"))),
    ImpliedBy(kind=EdgeKind.ROUND_END, any_of=frozenset(("event", "hands"))),
    ImpliedBy(kind=EdgeKind.DRAW, all_of=frozenset(("layout", "hand"))),
    ImpliedBy(kind=EdgeKind.SCORES_AND_TIE, any_of=frozenset(("round_scores",))),
    ImpliedBy(kind=EdgeKind.SCORING, any_of=frozenset(("hand", "round_end", "round_start_double"))),
    ImpliedBy(
        kind=EdgeKind.START_PLAYER,
        any_of=frozenset(("seats_clockwise", "round", "draws", "found_by", "round1_starter")),
    ),
    ImpliedBy(kind=EdgeKind.SEQUENCE, any_of=frozenset(("rounds_played", "holders"))),
    ImpliedBy(kind=EdgeKind.SETUP, any_of=frozenset(("players", "players_list"))),
    ImpliedBy(kind=EdgeKind.CENTRE, any_of=frozenset(("requested_center_spokes",))),
)


def edge_kind(q: Question) -> EdgeKind:
    """The kind the question names in ``input.kind``, or the one its keys imply.

    Raises:
        EngineError: ``BAD_VALUE`` for a kind that is not one of :class:`EdgeKind`.
    """
    named = q.input.get("kind")
    if named is not None:
        if named not in EDGE_ANSWERS:
            kinds = ", ".join(EdgeKind)
            raise EngineError(
                ErrorCode.BAD_VALUE,
                "kind is one of %(kinds)s.",
                "input.kind",
                params={"kinds": kinds},
            )
        return EdgeKind(named)
    keys = {k for k, v in q.input.items() if v is not None}
    return next((row.kind for row in IMPLIED_KINDS if row.matches(keys)), EdgeKind.SET_FACTS)


def _facts_of(*parts: Answer) -> Answer:
    """The first answer, with the facts (not the sentence) of the others."""
    answer = dict(parts[0])
    for part in parts[1:]:
        answer.update({k: v for k, v in part.items() if k not in ("message", "rule")})
    return answer


def edge(q: Question) -> Answer:
    """Answer an edge question by its kind (:func:`edge_kind`)."""
    return EDGE_ANSWERS[edge_kind(q)](q)


def _hub(q: Question) -> Answer:
    """The centre double's capacity: K, the N tiles of its suit, and whether K fits (§5.2)."""
    answer = hub_capacity(q)
    feasible = answer.pop("spokes_feasible", True)
    message = answer.pop("spokes_message", None)
    if message is None:
        n, k = q.set_size, answer["spokes_required"]
        message = (
            f"The centre double takes {k} spokes; a double-{n} set has {n} tiles carrying its "
            "number besides the double."
        )
    answer.update(feasible=feasible, message=message, rule="5.2")
    return answer


#: kind -> how it is answered
EDGE_ANSWERS: dict[str, Callable[[Question], Answer]] = {
    EdgeKind.ANNOUNCEMENT: _announcement,
    EdgeKind.PLACEMENT: placement,
    EdgeKind.ROUND_END: round_end,
    EdgeKind.DRAW: draw,
    EdgeKind.SCORES_AND_TIE: lambda q: _facts_of(scoring(q), tiebreak(q)),
    EdgeKind.SCORING: scoring,
    EdgeKind.START_PLAYER: start_player,
    EdgeKind.SEQUENCE: sequence,
    EdgeKind.SETUP: setup,
    EdgeKind.CENTRE: _hub,
    EdgeKind.SET_FACTS: lambda q: _facts_of(sequence(q), _hub(q)),
}
