"""Thin views for the history pages."""

from __future__ import annotations

from flask import render_template

from . import bp


@bp.get("/")
def index() -> str:
    """Past game nights, newest first."""
    return render_template("history/index.html")
