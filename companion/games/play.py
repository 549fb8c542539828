"""Thin views for playing a game: rounds, scoreboard, corrections, undo, finish, rematch."""

from __future__ import annotations

from . import bp  # noqa: F401
