"""A game's audit trail read a page at a time (issue 11): a long game's trail is never loaded
whole, so the game page and the audit pages cost the same at 10 entries or 1,000. Each entry
is told in words (:func:`changes`) for the score keeper's and the history's pages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, select

from ..extensions import db
from ..models import AuditEntry, Game
from ..stored import read_or
from ..vocab import RoundOutcome, RoundStatus

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


@dataclass(frozen=True)
class Change:
    """One line of a change in the audit trail: what, the old value and the new one."""

    what: str
    old: str
    new: str


def _hand_text(hand: dict[str, Any] | None) -> str:
    if hand is None:
        return "—"
    text = str(hand["points"])
    if hand.get("went_out"):
        text += " " + _("(went out)")
    if hand.get("tiles"):
        text += " [" + " ".join(hand["tiles"]) + "]"
    return text


@read_or(list)
def changes(entry: AuditEntry, names: dict[int, str]) -> list[Change]:
    """What an audit entry changed, per player: old and new values, in words (empty for
    entries without round data, e.g. deleting the game, and for snapshots of a shape this
    version cannot read)."""
    before = entry.before if isinstance(entry.before, dict) else {}
    after = entry.after if isinstance(entry.after, dict) else {}
    if not before and not after:
        return []
    old_hands = {h["seat_id"]: h for h in before.get("hands", [])}
    new_hands = {h["seat_id"]: h for h in after.get("hands", [])}
    out = []
    for seat_id in sorted(set(old_hands) | set(new_hands)):
        old, new = _hand_text(old_hands.get(seat_id)), _hand_text(new_hands.get(seat_id))
        if old != new:
            out.append(Change(names.get(seat_id, "?"), old, new))
    words: dict[str, str] = {
        RoundStatus.SCORED: _("played"),
        RoundStatus.BURNED: _("burned: nobody held it"),
        RoundOutcome.OUT: _("someone went out"),
        RoundOutcome.BLOCKED: _("blocked"),
    }
    for key, label in (("status", _("double")), ("outcome", _("round ended"))):
        was, now = before.get(key), after.get(key)
        if was != now:
            out.append(Change(label, words.get(was or "", "—"), words.get(now or "", "—")))
    old_starter, new_starter = before.get("starter_seat_id"), after.get("starter_seat_id")
    if old_starter != new_starter:
        out.append(
            Change(
                _("started the round"),
                names.get(old_starter, "—") if old_starter else "—",
                names.get(new_starter, "—") if new_starter else "—",
            )
        )
    return out
