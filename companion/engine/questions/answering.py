"""The checker's contract (QUESTIONS.md): a question dict in, an answer dict out.

A question is ``{"id", "category", "ruleset", "input"}``; :func:`answer` returns a dict of facts
from the QUESTIONS.md vocabulary plus ``message`` (one sentence) and ``rule`` (the RULES.md
section), or ``{"error": {"code", "message", "where"}}`` for a question it refuses. It never
raises. :func:`answer_document` answers a whole cases file.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, TypeGuard

from ..errors import EngineError, ErrorCode
from ..limits import (
    check_shape,
    check_text,
)
from .edge import edge
from .game import sequence, setup, start_player
from .play import draw, placement, round_end
from .reading import Answer, Question
from .scores import scoring, tiebreak

_log = logging.getLogger(__name__)

CATEGORIES = (
    "placement",
    "draw",
    "round_end",
    "scoring",
    "tiebreak",
    "round_sequence",
    "setup",
    "start_player",
    "edge",
)


HANDLERS: dict[str, Callable[[Question], Answer]] = {
    "placement": placement,
    "draw": draw,
    "round_end": round_end,
    "scoring": scoring,
    "tiebreak": tiebreak,
    "round_sequence": sequence,
    "setup": setup,
    "start_player": start_player,
    "edge": edge,
}


def answer(question: Any, *, worded: Callable[[EngineError], str] | None = None) -> Answer:
    """Answer one question of QUESTIONS.md. Never raises: a question the engine refuses gets
    its error answer; a fault of the engine itself is logged and answered ``ENGINE_FAULT``.

    ``worded`` turns an error into the sentence its answer carries (a web page passes its
    translation, so the engine stays free of gettext); by default the English message.

    The question is read and checked before any rule runs (:func:`read_question`, then the
    handlers' typed accessors), so a bad question is always an :class:`EngineError` naming what
    and where; anything else is an engine bug and is reported as one, never blamed on the
    question.

    >>> from companion.engine import answer
    >>> move = {"layout": {"center": "9-9"}, "move": {"tile": "9-5", "on": "C"}}
    >>> answer({"category": "placement", "input": move})["legal"]
    True
    >>> answer({"category": "placement", "input": {}})["error"]["code"]
    'MISSING_INPUT'
    """
    try:
        handler, q = read_question(question)
        return handler(q)
    except EngineError as exc:
        error = exc.as_dict()
        if worded is not None:
            error["message"] = worded(exc)
        return {"error": error}
    except Exception:  # a fault of the engine, not of the question: logged, and still one
        # error answer, so that one question never costs a batch or a file its other answers
        _log.exception("engine fault answering a %r question", _category_of(question))
        return {
            "error": {
                "code": "ENGINE_FAULT",
                "message": "The engine could not answer this question (a fault of the engine; "
                "please report it with the question).",
                "where": "",
            }
        }


def read_question(question: Any) -> tuple[Callable[[Question], Answer], Question]:
    """The handler of ``question``'s category and the question read (rules, set, input).

    Raises:
        EngineError: ``BAD_QUESTION`` for a question that is not an object, ``TOO_LARGE`` over
            a size bound (checked first: refused questions cost no more work),
            ``UNKNOWN_CATEGORY``, or the error of its rules, set or input.
    """
    if not isinstance(question, Mapping):
        raise EngineError(
            ErrorCode.BAD_QUESTION, "A question is an object with category, ruleset and input.", ""
        )
    check_shape(question)
    category = question.get("category")
    if not isinstance(category, str) or category not in HANDLERS:
        raise EngineError(
            ErrorCode.UNKNOWN_CATEGORY,
            "%(category)s is not a question category; use one of %(categories)s.",
            "category",
            params={"category": repr(category), "categories": ", ".join(CATEGORIES)},
        )
    return HANDLERS[category], Question(question)


def _category_of(question: Any) -> str:
    category = question.get("category") if isinstance(question, Mapping) else None
    return category[:40] if isinstance(category, str) else "?"


def answer_document(doc: Any) -> dict[str, Answer]:
    """Answer every case of a cases.json-shaped document: ``{"cases": [...]}`` or a bare list.

    Returns case id -> answer; a case without a usable id (missing, not text, over
    :data:`~companion.engine.limits.MAX_TEXT` characters, or repeating an earlier case's id) is
    keyed ``#<index>``, so every case keeps its answer. ``expected`` and other extra fields are
    ignored.

    >>> from companion.engine import answer_document
    >>> case = {"id": "a", "category": "scoring", "input": {"hand": ["6-4"]}}
    >>> answers = answer_document({"cases": [case, {"id": "b", "category": "nonsense"}]})
    >>> answers["a"]["score"], answers["b"]["error"]["code"]  # a bad case costs no other
    (10, 'UNKNOWN_CATEGORY')
    """
    cases = doc.get("cases") if isinstance(doc, Mapping) else doc
    if not isinstance(cases, list):
        return {
            "#document": {
                "error": {
                    "code": "BAD_DOCUMENT",
                    "message": "The file has no list of cases.",
                    "where": "cases",
                }
            }
        }
    answers: dict[str, Answer] = {}
    for i, case in enumerate(cases):
        case_id = case.get("id") if isinstance(case, Mapping) else None
        key = case_id if _usable_id(case_id) and case_id not in answers else f"#{i}"
        answers[key] = answer(case)
    return answers


def _usable_id(case_id: Any) -> TypeGuard[str]:
    """A case id that can key its answer: non-empty text within the limits (a repeated id would
    hide an earlier answer, so callers key the repeat by its index instead)."""
    if not isinstance(case_id, str) or not case_id:
        return False
    try:
        check_text(case_id, "id")
    except EngineError:
        return False
    return True
