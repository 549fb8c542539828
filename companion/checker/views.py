"""Thin views for the rules checker."""

from __future__ import annotations

from flask import render_template

from . import bp


@bp.get("/")
def index() -> str:
    """The rules checker's start page."""
    return render_template("checker/index.html")
