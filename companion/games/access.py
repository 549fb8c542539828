"""Access to games by their links.

A game's scoring pages are reached only through its edit link ``/g/<edit_token>``; the
read-only scoreboard through ``/s/<share_token>``. Both tokens are unguessable
(:func:`companion.models.new_token`). The scorekeeper's browser remembers the edit tokens of
the games it keeps score for in the Flask session (a list, newest first), so the home page can
list them.

An optional instance passcode (``COMPANION_PASSCODE``) guards creating nights and games: it is
asked once per browser session, compared in constant time, and wrong attempts are rate-limited.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from functools import wraps
from typing import Any, NoReturn

from flask import Response, abort, current_app, redirect, request, session, url_for
from flask_babel import gettext as _
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from sqlalchemy import select
from sqlalchemy.orm import InstrumentedAttribute

from ..extensions import db
from ..models import Game
from ..redirects import same_site_path
from .undo import recently_deleted

#: session key holding the edit tokens this browser keeps score for (newest first)
SESSION_KEY = "edit_tokens"
#: how many games a browser remembers (the cookie must stay small: ~22 bytes per token)
MAX_REMEMBERED = 40
#: longest token accepted in a URL (tokens are 22 characters; anything longer is junk)
MAX_TOKEN_LENGTH = 40


def no_such_game() -> NoReturn:
    """Abort with a 404 that says, in words, that there is no game at this link."""
    abort(
        404,
        description=_(
            "There is no game at this link. Check the link, or open the game from the home page."
        ),
    )


def _live_game(column: InstrumentedAttribute[str], token: str, *, edit: bool = False) -> Game:
    if not token or len(token) > MAX_TOKEN_LENGTH:
        no_such_game()
    game = db.session.scalar(select(Game).where(column == token))
    if game is None:
        no_such_game()
    if game.deleted_at is not None:
        _gone(game, edit=edit)
    return game


def _gone(game: Game, *, edit: bool) -> NoReturn:
    """A deleted game's link: the scorekeeper (edit link) is sent to the "undo delete" page while
    the game can still be restored; otherwise a 404 that says the game was deleted."""
    if edit and recently_deleted([game.edit_token]):
        target = url_for("games.deleted", token=game.edit_token)
        if request.headers.get("HX-Request"):
            # htmx would swap the page into a fragment; ask it to navigate instead.
            abort(Response(status=204, headers={"HX-Redirect": target}))
        abort(redirect(target, 303))
    abort(404, description=_("This game was deleted."))


def game_for_edit(token: str) -> Game:
    """The live game whose edit token is ``token``.

    Raises:
        werkzeug.exceptions.NotFound: (404, in words) for an unknown token or a game deleted
            longer ago than the restore window; a game deleted more recently aborts with a
            redirect to its "undo delete" page instead.
    """
    return _live_game(Game.edit_token, token, edit=True)


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
    # A long-lived cookie: the scorekeeper's phone must still know the game after the browser
    # is closed, or nobody could score the rest of it (PERMANENT_SESSION_LIFETIME).
    session.permanent = True


def forget(game: Game) -> None:
    """Drop ``game``'s edit token from this browser's session (no error when absent)."""
    session[SESSION_KEY] = [t for t in remembered_tokens() if t != game.edit_token]


# --- the optional instance passcode --------------------------------------------------------

#: session key holding a digest of the passcode this browser entered (not the passcode itself)
PASSCODE_KEY = "passcode_digest"

#: rate limits for passcode attempts; bound to the app by the games blueprint
limiter = Limiter(key_func=get_remote_address, storage_uri="memory://")


def _passcode() -> str:
    return current_app.config.get("COMPANION_PASSCODE") or ""


def _digest(passcode: str) -> str:
    # Tied to the secret key and the passcode: changing either asks every browser again.
    key = str(current_app.config.get("SECRET_KEY", "")).encode()
    return hmac.new(key, passcode.encode(), hashlib.sha256).hexdigest()


def passcode_needed() -> bool:
    """True when a passcode is configured and this browser session has not entered it."""
    passcode = _passcode()
    if not passcode:
        return False
    given = session.get(PASSCODE_KEY)
    return not (isinstance(given, str) and hmac.compare_digest(given, _digest(passcode)))


def accept_passcode(given: str) -> bool:
    """Compare ``given`` with the configured passcode in constant time; on a match remember it
    for this browser session. Returns False when no passcode is configured or it differs."""
    passcode = _passcode()
    if not passcode or not hmac.compare_digest(given.encode(), passcode.encode()):
        return False
    session[PASSCODE_KEY] = _digest(passcode)
    return True


def safe_next(target: str | None) -> str:
    """``target`` when it is a path on this site (judged as a browser would read it, see
    :func:`companion.redirects.same_site_path`), else the home page: no open redirects."""
    return same_site_path(target) or url_for("games.index")


def passcode_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a view that creates or changes nights/games: when a passcode is configured and
    not yet entered, send the browser to the passcode page (then back here)."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not passcode_needed():
            return view(*args, **kwargs)
        target = url_for("games.passcode", next=request.path)
        if request.headers.get("HX-Request"):
            # htmx would swap the passcode page into a fragment; ask it to navigate instead.
            return Response(status=204, headers={"HX-Redirect": target})
        return redirect(target)

    return wrapper
