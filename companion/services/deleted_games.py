"""Deleted games: which can still be brought back, and links to deleted games.

A game is soft-deleted (``Game.deleted_at``) and can be restored for
:data:`.deletion.RESTORE_WINDOW`;
the score keeper's pages and the checker find games through these lookups, so they live below
the blueprints (the deleting and restoring are in :mod:`companion.games.undo`).
"""

from __future__ import annotations

from flask import abort
from flask_babel import gettext as _
from sqlalchemy import select

from ..extensions import db
from ..models import TOKEN_MAX, Game
from .deletion import deleted_recently


def deleted_game(token: str) -> Game:
    """The game with edit token ``token`` deleted less than :data:`.deletion.RESTORE_WINDOW` ago.

    Raises werkzeug NotFound (404) otherwise."""
    if not token or len(token) > TOKEN_MAX:
        abort(404)
    game = db.session.scalar(
        select(Game).where(
            Game.edit_token == token,
            deleted_recently(Game.deleted_at),
        )
    )
    if game is None:
        abort(404, description=_("There is no deleted game at this link to bring back."))
    return game


def shared_game(share_token: str) -> Game:
    """The game with read-only token ``share_token``, deleted or not (so that a live
    scoreboard can say the game was deleted). Raises werkzeug NotFound (404) otherwise."""
    if not share_token or len(share_token) > TOKEN_MAX:
        abort(404)
    game = db.session.scalar(select(Game).where(Game.share_token == share_token))
    if game is None:
        abort(404)
    return game


def recently_deleted(tokens: list[str]) -> list[Game]:
    """Games among ``tokens`` (e.g. the browser's remembered edit tokens) deleted less than
    :data:`.deletion.RESTORE_WINDOW` ago, newest deletion first — for a "restore" list on the
    home page."""
    if not tokens:
        return []
    return list(
        db.session.scalars(
            select(Game)
            .where(
                Game.edit_token.in_(tokens[:100]),
                deleted_recently(Game.deleted_at),
            )
            .order_by(Game.deleted_at.desc())
        )
    )
