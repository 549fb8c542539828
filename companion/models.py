"""SQLAlchemy models, all in one place (players, nights, games, seats, rounds, hands, audit,
rulings). Filled in by the score-keeper issue."""

from __future__ import annotations

from .extensions import db  # noqa: F401
