"""JSON endpoints of the rules engine (QUESTIONS.md contract)."""

from __future__ import annotations

from flask import jsonify

from . import bp


@bp.get("/health")
def health():  # noqa: ANN201
    """Liveness probe."""
    return jsonify({"status": "ok"})
