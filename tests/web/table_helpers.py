"""Helpers for the table tests: what a test client's phone holds, joining and posting."""

from __future__ import annotations

from sqlalchemy import select

from companion.access import DEVICE_KEY, Grant
from companion.extensions import db
from companion.models import Device, Game, GameAccess


def device_token(client) -> str | None:
    """The device id in a test client's session cookie (None before its first visit)."""
    with client.session_transaction() as session:
        return session.get(DEVICE_KEY)


def kept_tokens(client) -> list[str]:
    """The edit tokens of the games the client's phone keeps score for, newest first."""
    token = device_token(client)
    return list(
        db.session.scalars(
            select(Game.edit_token)
            .join(GameAccess, GameAccess.game_id == Game.id)
            .join(Device, Device.id == GameAccess.device_id)
            .where(Device.token == token, GameAccess.role == str(Grant.SCOREKEEPER))
            .order_by(GameAccess.id.desc())
        )
    )
