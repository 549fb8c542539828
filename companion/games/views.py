"""Thin views for the score keeper."""

from __future__ import annotations

from flask import render_template

from . import bp


@bp.get("/")
def index() -> str:
    """The home page: start a game night or continue one."""
    return render_template("games/index.html")
