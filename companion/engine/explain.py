"""The engine's reasoning behind an answer, as codes and parameters (RULES.md §5, §6).

:func:`companion.engine.answer` gives the QUESTIONS.md answer (unchanged for the API and the
command line); the functions here give the same decision as typed values whose codes and
parameters a web layer can word in any language. They never raise: a question they cannot read
gives None (its error is the answer's business).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import EngineError
from .layout import Layout
from .moves import Verdict, check_move
from .questions import Question
from .questions.play import judge_round
from .round_end import RoundEnd


def placement_verdict(question: Mapping[str, Any]) -> tuple[Layout, Verdict] | None:
    """The position and the verdict with its parameters for a one-move placement question
    (``input.move`` without ``turn``); None for anything else or an unreadable question."""
    try:
        q = Question(question)
        move = q.input.get("move")
        if not isinstance(move, Mapping) or q.input.get("turn"):
            return None
        layout = q.layout()
        tile = q.tile(move.get("tile"), "input.move.tile")
        return layout, check_move(layout, tile, str(move.get("on")))
    except (EngineError, TypeError, ValueError, KeyError, AttributeError):
        return None


def round_end_status(question: Mapping[str, Any]) -> tuple[Layout, RoundEnd] | None:
    """The position and the round status (who went out, who can play) for a round-end
    question without an ``event``; None for anything else or an unreadable question."""
    try:
        q = Question(question)
        return None if q.has("event") else judge_round(q)
    except (EngineError, TypeError, ValueError, KeyError, AttributeError):
        return None


def position_of(question: Mapping[str, Any]) -> Layout | None:
    """The replayed layout of a question (None when it has none or it cannot be read)."""
    try:
        q = Question(question)
        return q.layout() if q.has("layout") else None
    except (EngineError, TypeError, ValueError, KeyError, AttributeError):
        return None
