"""A game's audit trail read a page at a time (issue 11): a long game's trail is never loaded
whole, so the game page and the audit pages cost the same at 10 entries or 1,000."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from ..extensions import db
from ..models import AuditEntry, Game

#: entries per audit page (and on a game's history page: the latest ones)
AUDIT_PAGE = 20


@dataclass(frozen=True)
class AuditPage:
    """Entries ``first``..``first + len(entries) - 1`` counted from the newest (1-based).

    Attributes:
        entries: newest first.
        number: this page (1 = the newest entries).
        total: entries in the whole trail.
    """

    entries: list[AuditEntry]
    number: int
    total: int

    @property
    def first(self) -> int:
        """The position of the first entry from the oldest (the list is numbered downwards)."""
        return self.total - (self.number - 1) * AUDIT_PAGE

    @property
    def older(self) -> int | None:
        """The page number of older entries, if any."""
        return self.number + 1 if self.number * AUDIT_PAGE < self.total else None

    @property
    def newer(self) -> int | None:
        """The page number of newer entries, if any."""
        return self.number - 1 if self.number > 1 else None


def audit_page(game: Game, number: int = 1) -> AuditPage:
    """Page ``number`` of ``game``'s trail, newest first (two queries; an out-of-range page
    number gives the last page)."""
    total = db.session.scalar(
        select(func.count(AuditEntry.id)).where(AuditEntry.game_id == game.id)
    )
    last = max(1, -(-int(total or 0) // AUDIT_PAGE))
    number = min(max(1, number), last)
    entries = db.session.scalars(
        select(AuditEntry)
        .where(AuditEntry.game_id == game.id)
        .order_by(AuditEntry.id.desc())
        .offset((number - 1) * AUDIT_PAGE)
        .limit(AUDIT_PAGE)
    ).all()
    return AuditPage(list(entries), number, int(total or 0))


def latest_entry(game: Game, actions: tuple[str, ...]) -> AuditEntry | None:
    """The newest entry with one of ``actions`` not undone yet (one query)."""
    return db.session.scalar(
        select(AuditEntry)
        .where(
            AuditEntry.game_id == game.id,
            AuditEntry.action.in_(actions),
            AuditEntry.undone.is_(False),
        )
        .order_by(AuditEntry.id.desc())
        .limit(1)
    )
