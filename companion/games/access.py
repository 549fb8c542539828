"""Access to games by their links.

A game's scoring pages are reached only through its edit link ``/g/<edit_token>``; the
read-only scoreboard through ``/s/<share_token>``. Both tokens are unguessable
(:func:`companion.models.new_token`). The scorekeeper's browser remembers the edit tokens of
the games it keeps score for in the Flask session (a list, newest first), so the home page can
list them.
"""

from __future__ import annotations

from flask import abort, session
from sqlalchemy import select
from sqlalchemy.orm import InstrumentedAttribute

from ..extensions import db
from ..models import Game

#: session key holding the edit tokens this browser keeps score for (newest first)
SESSION_KEY = "edit_tokens"
#: how many games a browser remembers (the cookie must stay small: ~22 bytes per token)
MAX_REMEMBERED = 40
#: longest token accepted in a URL (tokens are 22 characters; anything longer is junk)
MAX_TOKEN_LENGTH = 40


def _live_game(column: InstrumentedAttribute[str], token: str) -> Game:
    if not token or len(token) > MAX_TOKEN_LENGTH:
        abort(404)
    game = db.session.scalar(select(Game).where(column == token, Game.deleted_at.is_(None)))
    if game is None:
        abort(404)
    return game


def game_for_edit(token: str) -> Game:
    """The live game whose edit token is ``token``.

    Raises:
        werkzeug.exceptions.NotFound: (404) for an unknown token or a deleted game.
    """
    return _live_game(Game.edit_token, token)


def game_for_view(share_token: str) -> Game:
    """The live game whose read-only share token is ``share_token``.

    Raises:
        werkzeug.exceptions.NotFound: (404) for an unknown token or a deleted game.
    """
    return _live_game(Game.share_token, share_token)


def remembered_tokens() -> list[str]:
    """The edit tokens remembered by this browser, newest first (may include deleted games)."""
    tokens = session.get(SESSION_KEY, [])
    return [t for t in tokens if isinstance(t, str)] if isinstance(tokens, list) else []


def remember(game: Game) -> None:
    """Remember ``game``'s edit token in this browser's session (moved to the front; the list
    is capped at :data:`MAX_REMEMBERED`)."""
    tokens = [t for t in remembered_tokens() if t != game.edit_token]
    session[SESSION_KEY] = [game.edit_token, *tokens][:MAX_REMEMBERED]


def forget(game: Game) -> None:
    """Drop ``game``'s edit token from this browser's session (no error when absent)."""
    session[SESSION_KEY] = [t for t in remembered_tokens() if t != game.edit_token]
