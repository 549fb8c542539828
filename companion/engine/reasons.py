"""The engine's vocabularies of reasons, one home each (RULES.md §0, §5, §6, §8).

Every table that lists these codes derives from the enums here: the move checks
(:mod:`.moves`), the OpenAPI document (``companion/api/openapi.py``), the web layer's words
(``companion/words.py``) and the rule book. Each member is a ``str``, so answers stay plain
JSON strings.
"""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """Why a move is (not) allowed, in order of precedence (RULES.md §0), and why a round is
    (not) over (RULES.md §6)."""

    OK = "OK"
    SPOKES_INCOMPLETE = "SPOKES_INCOMPLETE"
    FOOT_INCOMPLETE = "FOOT_INCOMPLETE"
    CENTER_FULL = "CENTER_FULL"
    FOOT_FULL = "FOOT_FULL"
    END_COVERED = "END_COVERED"
    NO_MATCH = "NO_MATCH"
    ONE_TILE_PER_TURN = "ONE_TILE_PER_TURN"
    OUT = "OUT"
    BLOCKED = "BLOCKED"
    NO_DRAW = "NO_DRAW"
    YARD_NOT_EXHAUSTED = "YARD_NOT_EXHAUSTED"
    SOMEONE_CAN_PLAY = "SOMEONE_CAN_PLAY"


#: the reasons a placement answer can give (QUESTIONS.md "placement")
MOVE_REASONS: tuple[Reason, ...] = tuple(Reason)[:8]
#: the reasons a round-end answer can give (QUESTIONS.md "round_end")
ROUND_END_REASONS: tuple[Reason, ...] = tuple(Reason)[8:]


class TurnResult(StrEnum):
    """What a turn comes to once the drawn tile is known (RULES.md §5.5)."""

    PLAY = "PLAY"
    PASS = "PASS"
    DRAW_AGAIN = "DRAW_AGAIN"


class DecidedAt(StrEnum):
    """The tie-break step that decided a game (RULES.md §8)."""

    LOWEST_TOTAL = "lowest_total"
    MOST_ZERO_ROUNDS = "most_zero_rounds"
    LOWEST_SINGLE_NONZERO_ROUND = "lowest_single_nonzero_round"
    UNRESOLVED_SHARED = "unresolved_shared"
    EXTENSION_NEXT_LOWEST_NONZERO = "extension_next_lowest_nonzero"


#: the RULES.md section each reason rests on (a legal move's own section depends on the move)
SECTION: dict[str, str] = {
    Reason.OK: "5.3",
    Reason.SPOKES_INCOMPLETE: "5.2",
    Reason.FOOT_INCOMPLETE: "5.4",
    Reason.CENTER_FULL: "5.2",
    Reason.FOOT_FULL: "5.4",
    Reason.END_COVERED: "5.3",
    Reason.NO_MATCH: "5.1",
    Reason.ONE_TILE_PER_TURN: "5.1",
    Reason.OUT: "6",
    Reason.BLOCKED: "6",
    Reason.NO_DRAW: "5.5",
    Reason.YARD_NOT_EXHAUSTED: "6",
    Reason.SOMEONE_CAN_PLAY: "6",
    TurnResult.PLAY: "5.5",
    TurnResult.PASS: "5.5",
    TurnResult.DRAW_AGAIN: "5.5",
    DecidedAt.LOWEST_TOTAL: "8",
    DecidedAt.MOST_ZERO_ROUNDS: "8",
    DecidedAt.LOWEST_SINGLE_NONZERO_ROUND: "8",
    DecidedAt.UNRESOLVED_SHARED: "8",
    DecidedAt.EXTENSION_NEXT_LOWEST_NONZERO: "8",
}

#: every RULES.md section the engine's answers cite (the rule book has an entry for each)
CITED_SECTIONS: tuple[str, ...] = (
    "2",
    "3.2",
    "3.4",
    "3.5",
    "3.6",
    "4",
    "5.1",
    "5.2",
    "5.3",
    "5.4",
    "5.5",
    "6",
    "7",
    "8",
)
