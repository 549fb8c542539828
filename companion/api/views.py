"""JSON endpoints of the rules engine (QUESTIONS.md contract).

* ``POST /rules/answer``: one question -> the engine's answer (200), or the engine's error
  object with 422 when it refuses the question.
* ``POST /rules/answer-batch``: ``{"cases": [...]}`` -> ``{"answers": {id: answer}}`` (200),
  the same as ``python -m companion.engine answer FILE``.
* ``GET /ratings``: every player's skill rating (read-only, from the stored ratings).
* ``GET /openapi.json``: the OpenAPI 3.1 document.

A body that cannot be read as JSON, or not as an object, gets 400; over 1 MiB (app-wide
MAX_CONTENT_LENGTH), more than :data:`MAX_CASES` cases or :data:`MAX_BATCH_VALUES` values in
all (a bound on the batch's CPU time) gets 413, and so does a single question
over a size bound of the game (companion/engine/limits.py: players, rounds, tiles of the set,
text length), refused before any work. Errors always have the shape
``{"error": {"code", "message", "where"}}``. Nothing here writes to the database.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import Response, jsonify, request

from ..access import Role, requires
from ..engine import answer, answer_document
from ..engine.errors import TOO_LARGE
from ..engine.limits import HugeNumber, NotANumber, count_values, read_json
from ..errors import Problem, Refused
from ..extensions import db
from ..services import ratings
from . import bp
from .openapi import MAX_BATCH_VALUES, MAX_CASES, MAX_QUESTION_BYTES, openapi_document


def refusal(status: int, code: str, message: str, where: str = "") -> Refused:
    """A request the API refuses: answered as ``{"error": {"code", "message", "where"}}`` with
    ``status`` by the app's handler of :class:`companion.errors.Refused`."""
    return Refused(Problem(message, where, code), status=status)


def read_json_object(max_bytes: int | None = None) -> Mapping[str, Any]:
    """The request body as a JSON object. Raises a refusal (400) for a wrong content type,
    undecodable or malformed JSON, or a body that is not an object (NaN and Infinity are read
    as markers the engine refuses where they stand, as on the command line);
    a refusal (413) for a body over ``max_bytes`` (checked before it is parsed); werkzeug raises
    413 for a body over MAX_CONTENT_LENGTH."""
    if not request.is_json:
        raise refusal(
            400,
            "BAD_CONTENT_TYPE",
            f"Send the question as application/json, not {request.mimetype or 'no type'}.",
            "Content-Type",
        )
    declared = request.content_length
    if max_bytes is not None and declared is not None and declared > max_bytes:
        raise _body_too_large(max_bytes)
    raw = request.get_data(cache=False)
    if max_bytes is not None and len(raw) > max_bytes:
        raise _body_too_large(max_bytes)
    try:
        body = read_json(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise refusal(400, "BAD_JSON", "The body is not UTF-8 text.") from None
    except json.JSONDecodeError as exc:
        raise refusal(
            400,
            "BAD_JSON",
            f"The body is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.",
        ) from None
    except (ValueError, RecursionError) as exc:
        raise refusal(400, "BAD_JSON", f"The body is not valid JSON: {exc}.") from None
    if not isinstance(body, Mapping):
        raise refusal(
            400,
            "BAD_QUESTION",
            f"The body must be a JSON object, not {_json_kind(body)}.",
        )
    return body


def _json_kind(value: object) -> str:
    """What a decoded JSON value is, in JSON's words (``null``, not Python's ``NoneType``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float | HugeNumber | NotANumber):
        return "a number"
    return "a string" if isinstance(value, str) else "an array"


def _body_too_large(max_bytes: int) -> Refused:
    return refusal(
        413,
        TOO_LARGE,
        f"One question is at most {max_bytes // 1024} KiB of JSON; this body is larger.",
    )


@bp.post("/rules/answer")
@requires(Role.ANYONE)
def rules_answer() -> tuple[Response, int]:
    """Answer one QUESTIONS.md question; the engine's error with 413 when the question is over
    a size bound of the game (``TOO_LARGE``), 422 when it is refused for any other reason."""
    result = answer(read_json_object(MAX_QUESTION_BYTES))
    if "error" not in result:
        return jsonify(result), 200
    return jsonify(result), 413 if result["error"]["code"] == TOO_LARGE else 422


@bp.post("/rules/answer-batch")
@requires(Role.ANYONE)
def rules_answer_batch() -> tuple[Response, int]:
    """Answer every case of ``{"cases": [...]}``, as the command line does."""
    body = read_json_object()
    cases = body.get("cases")
    if not isinstance(cases, list):
        raise refusal(400, "BAD_DOCUMENT", "The body needs a list of cases.", "cases")
    if len(cases) > MAX_CASES:
        raise refusal(
            413,
            "TOO_MANY_CASES",
            f"A batch holds at most {MAX_CASES} cases, not {len(cases)}; split it.",
            "cases",
        )
    values = 0
    for case in cases:
        values += count_values(case, MAX_BATCH_VALUES - values)
        if values > MAX_BATCH_VALUES:
            raise refusal(
                413,
                "BATCH_TOO_LARGE",
                f"A batch holds at most {MAX_BATCH_VALUES:,} values in all its questions "
                "(a full double-18 layout is about 700); split it, or use the command line.",
                "cases",
            )
    return jsonify({"answers": answer_document(body)}), 200


@bp.get("/openapi.json")
@requires(Role.ANYONE)
def openapi() -> Response:
    """The OpenAPI 3.1 document describing the endpoints above."""
    return jsonify(openapi_document())


@bp.get("/ratings")
@requires(Role.ANYONE)
def ratings_list() -> Response:
    """Every rated player's skill rating, best first (services.ratings.api_document)."""
    return jsonify(ratings.api_document(db.session()))


@bp.get("/health")
@requires(Role.ANYONE)
def health() -> Response:
    """Liveness probe."""
    return jsonify({"status": "ok"})
