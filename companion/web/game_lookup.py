"""The request-level half of finding a game by its link (the plain half is
:mod:`companion.services.game_lookup`): a deleted game's edit link sent to its "undo delete"
page, the game named in a query for this phone (:func:`game_of_this_phone`), the game of the
phone that keeps its score (:func:`scorekeeper_game`), with the page that refuses another
phone, and the way back to a game that this phone may take (:func:`way_back`). The share and
join links have no answer of their own: the blueprints use the service's lookups for them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

from flask import Response, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..access import (
    Grant,
    NotScorekeeper,
    claim_or_check_scorekeeper,
    current_device,
    holds,
    is_host,
)
from ..models import Game
from ..services import game_lookup
from ..services.game_lookup import GameDeleted
from . import query
from .htmx import is_htmx, navigate, reload_page


@contextmanager
def _undo_page() -> Iterator[None]:
    """Send a deleted game's edit link to its "undo delete" page while the game can still be
    restored (:class:`GameDeleted` with ``undo``); any other refusal passes through."""
    try:
        yield
    except GameDeleted as gone:
        if not gone.undo:
            raise
        target = url_for("games.deleted", token=gone.game.edit_token)
        if is_htmx():
            # htmx would swap the page into a fragment; ask it to navigate instead.
            abort(navigate(target))
        abort(redirect(target, 303))


def game_for_edit(token: str) -> Game:
    """The live game whose edit token is ``token``.

    Raises:
        werkzeug.exceptions.NotFound: (404, in words) for an unknown token or a game deleted
            longer ago than the restore window; a game deleted more recently aborts with a
            redirect to its "undo delete" page instead.
    """
    with _undo_page():
        return game_lookup.game_for_edit(token)


def game_of_this_phone(text: str) -> Game:
    """The live game named in a query (``?game=<id>``) when this phone is at its table or is
    the host (:func:`companion.services.game_lookup.game_at_table`); an old link's edit token
    is still understood, and answered as :func:`game_for_edit`.

    Raises:
        werkzeug.exceptions.NotFound: (404, in words) for anything else, the same for a game
            that exists and one that does not.
    """
    with _undo_page():
        return game_lookup.game_at_table(text, current_device(create=False), host=is_host())


def scorekeeper_game(token: str) -> Game:
    """The live game whose edit token is ``token``, when this phone keeps its score (or nobody
    does yet: then this phone becomes its scorekeeper).

    Raises:
        werkzeug.exceptions.HTTPException: as :func:`game_for_edit`; 403 with a page that says
            another phone keeps score (or that scorekeeping moved away from this phone) and
            offers to ask for it. For htmx the page is asked to reload instead.
    """
    game = game_for_edit(token)
    try:
        claim_or_check_scorekeeper(game)
    except NotScorekeeper as exc:
        if is_htmx() and request.method == "GET":
            abort(reload_page())
        device = current_device()
        body = render_template(
            "games/not_scorekeeper.html",
            game=game,
            was=exc.was,
            asked=holds(device, game, Grant.ASKING),
            # a seat button (lock, remove a phone...) tapped on the old scorekeeper's page
            refused=request.method == "POST",
            # what a refused round form carried: the old scorekeeper's phone loses nothing typed
            typed=game_lookup.typed_values(game, query.posted())
            if request.method == "POST"
            else [],
        )
        abort(Response(body, status=403))
    return game


class WayBack(NamedTuple):
    """A link back to a game from another page, and its words."""

    url: str
    words: str


def way_back(game: Game) -> WayBack:
    """The page of ``game`` that this phone may open, for the checker's way back: the score
    sheet (the edit link) only on the phone that keeps its score, the player's own page on a
    joined phone, else the read-only scoreboard. Every phone counts as host when no passcode
    is set, and the checker names any game by its id: an edit link on its pages let any phone
    on the network take over a game's scorekeeping (docs/SECURITY.md)."""
    device = current_device(create=False)
    if holds(device, game, Grant.SCOREKEEPER):
        return WayBack(url_for("games.play", token=game.edit_token), _("Back to the score sheet"))
    if holds(device, game, Grant.PLAYER):
        url = url_for("table.hand", share_token=game.share_token)
    else:
        url = url_for("games.shared", share_token=game.share_token)
    return WayBack(url, _("Back to the game"))
