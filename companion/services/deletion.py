"""Soft deletion of games and game nights: one restore window and one query condition for both.

A deleted game or night keeps its rows with ``deleted_at`` set; for :data:`RESTORE_WINDOW` it
can be brought back (games from the scorekeeper's phone, nights from the history pages).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, and_
from sqlalchemy.orm import InstrumentedAttribute

from ..models import utcnow

#: how long a deleted game or game night can be restored
RESTORE_WINDOW = timedelta(hours=24)


def restore_hours() -> int:
    """The restore window in whole hours, for messages."""
    return int(RESTORE_WINDOW.total_seconds() // 3600)


def deleted_recently(deleted_at: InstrumentedAttribute[datetime | None]) -> ColumnElement[bool]:
    """The SQL condition "deleted less than :data:`RESTORE_WINDOW` ago" on a model's
    ``deleted_at`` column (``Game.deleted_at`` or ``GameNight.deleted_at``)."""
    return and_(deleted_at.is_not(None), deleted_at > utcnow() - RESTORE_WINDOW)
