"""Scorekeeping handed to another phone, written into the game's audit trail: the one home of
that record, used by the table blueprint's handover and take-over routes (and by tests that
hand over without a second phone)."""

from __future__ import annotations

from .. import access
from ..extensions import db
from ..models import Game
from ..vocab import AuditCode
from .round_store import commit_change


def record_handover(game: Game, done: access.Handover | None) -> None:
    """Record a handover done by :func:`companion.access.hand_over` (``done``; None: nothing
    happened) in ``game``'s audit trail and commit it with the handover."""
    if done is None:
        return
    game = db.session.get(Game, game.id) or game
    # a phone that joined a seat is named in the trail ("handed over to Dmitri's phone")
    name = access.seated_name(game, done.to_device)
    commit_change(
        game,
        "scorekeeper_moved" if done.from_devices else "scorekeeper_added",
        AuditCode.SCOREKEEPER_MOVED if done.from_devices else AuditCode.SCOREKEEPER_ADDED,
        {"to": name} if name and done.from_devices else None,
        {"devices": list(done.from_devices)} if done.from_devices else None,
        {"device": done.to_device},
    )
