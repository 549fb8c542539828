"""Finding a game by its link: the edit link ``/g/<edit_token>`` and the read-only link
``/s/<share_token>``, in words when there is no such game or it was deleted
(:class:`GameDeleted`), and the game a phone may open by its id (:func:`game_at_table`). Used
by the score keeper's pages, the table's and the rules checker, so it lives below the
blueprints. Nothing here reads the request: the answers of the request at hand (a deleted
game's edit link sent to its "undo delete" page, the refusal of a phone that does not keep the
score) are :mod:`companion.web.game_lookup`'s. Who may use a link is :mod:`companion.access`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NoReturn

from flask import abort
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import InstrumentedAttribute
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import NotFound

from ..access import Grant, holds
from ..extensions import db
from ..ids import parse_id
from ..models import Device, Game, GameAccess
from ..vocab import GameStatus
from .deleted_games import recently_deleted

#: longest token accepted in a URL (tokens are 22 characters; anything longer is junk)
MAX_TOKEN_LENGTH = 40


class GameDeleted(NotFound):
    """A deleted game's link: a 404 that says the game was deleted. ``undo``: the link is the
    edit link of a game that can still be restored (the scorekeeper is sent to its "undo
    delete" page instead, by :mod:`companion.web.game_lookup`)."""

    def __init__(self, game: Game, *, undo: bool) -> None:
        super().__init__(description=_("This game was deleted."))
        self.game = game
        self.undo = undo


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
    """A deleted game's link: :class:`GameDeleted`, with ``undo`` for the edit link of a game
    that can still be restored."""
    raise GameDeleted(game, undo=edit and bool(recently_deleted([game.edit_token])))


def game_for_edit(token: str) -> Game:
    """The live game whose edit token is ``token``.

    Raises:
        werkzeug.exceptions.NotFound: (404, in words) for an unknown token;
            :class:`GameDeleted` for a deleted game (``undo`` while it can be restored).
    """
    return _live_game(Game.edit_token, token, edit=True)


def game_for_view(share_token: str) -> Game:
    """The live game whose read-only share token is ``share_token``.

    Raises:
        werkzeug.exceptions.NotFound: (404) for an unknown token; :class:`GameDeleted` for a
            deleted game.
    """
    return _live_game(Game.share_token, share_token)


def game_for_join(token: str) -> Game | None:
    """The live game whose join secret is ``token``, or None when ``token`` is not a join
    secret (it may be a share token: that one shows the scoreboard, never gives a seat).

    Raises:
        GameDeleted: (404) for a deleted game.
    """
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    game = db.session.scalar(select(Game).where(Game.join_token == token))
    if game is not None and game.deleted_at is not None:
        _gone(game, edit=False)
    return game


def finished_share_tokens(share_tokens: Collection[str]) -> set[str]:
    """The share tokens among ``share_tokens`` of live (not deleted) games that are over.
    Anyone may know it: a share token opens the game's scoreboard, which says so too."""
    wanted = [t for t in share_tokens if t and len(t) <= MAX_TOKEN_LENGTH]
    if not wanted:
        return set()
    found = select(Game.share_token).where(
        Game.share_token.in_(wanted),
        Game.status == str(GameStatus.FINISHED),
        Game.deleted_at.is_(None),
    )
    return set(db.session.scalars(found))


def game_at_table(text: str, device: Device | None, *, host: bool) -> Game:
    """The live game named in a query (``?game=<id>``: never a token in a query string) when
    ``device`` is at its table (it keeps its score or joined a seat) or the phone is the
    ``host`` (entered the passcode; without a passcode everybody is, as for every page of the
    history). An old link's edit token (``?game=<edit token>``) is still understood.

    Raises:
        werkzeug.exceptions.NotFound: (404, in words) for anything else, the same for a game
            that exists and one that does not; :class:`GameDeleted` as :func:`game_for_edit`
            for an old link's edit token, without ``undo`` for an id.
    """
    game_id = parse_id(text)
    if game_id is None:
        return game_for_edit(text)  # (an old link: the edit token is its own permission)
    game = db.session.get(Game, game_id)
    if game is None:
        no_such_game()
    at_table = holds(device, game, Grant.SCOREKEEPER) or holds(device, game, Grant.PLAYER)
    if not (at_table or host):
        no_such_game()
    if game.deleted_at is not None:
        _gone(game, edit=False)
    return game


def typed_values(game: Game, form: MultiDict[str, str]) -> list[tuple[str, str]]:
    """What a refused round form (its posted fields, ``form``) carried, per player, so the old
    scorekeeper's phone loses nothing it typed: "Bob (points)", "12"."""
    kinds = {"total": _("points"), "tiles": _("tiles"), "out": _("went out")}
    names = {str(s.id): s.player.name for s in game.seats}
    typed = []
    for key in form:
        kind, _sep, seat = key.partition("_")
        values = [v[:20] for v in form.getlist(key) if v][:60]
        if kind in kinds and seat in names and values:
            typed.append((f"{names[seat]} ({kinds[kind]})", ", ".join(values)))
    return typed


def live_rematch(game: Game) -> Game | None:
    """The live (not deleted) game started as a rematch of ``game``, or None
    (``Game.rematch_of_id``; the database keeps at most one live rematch per game)."""
    return db.session.scalar(
        select(Game).where(Game.rematch_of_id == game.id, Game.deleted_at.is_(None))
    )


def carry_table(old: Game, new: Game) -> None:
    """A rematch carries the table: every phone that joined a seat of ``old`` joins the seat
    at the same place in ``new`` (no rescan, no new join); the caller commits."""
    places = {seat.position: seat.id for seat in new.seats}
    position = {seat.id: seat.position for seat in old.seats}
    rows = db.session.scalars(
        select(GameAccess).where(GameAccess.game_id == old.id, GameAccess.role == str(Grant.PLAYER))
    )
    for row in list(rows):
        seat_id = places.get(position.get(row.seat_id or 0, -1))
        if seat_id is not None:
            db.session.add(
                GameAccess(game_id=new.id, device_id=row.device_id, role=row.role, seat_id=seat_id)
            )
