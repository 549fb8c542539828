"""Thin views: a hand's pips counted from a photo, for the scorekeeper's round form.

The round form's "Count from a photo" button posts the whole form here (nothing typed is
lost: it is kept as a draft in the session), the player takes or chooses a photo, sees it
with every pip marked and each tile outlined with its reading, fixes any tile in the picker
and confirms; only then are the tiles put into that hand of the draft (while the photo's
round, named in the page's address, is still the one to be entered; else the game page says
so, with the tiles), and the game page shows the round form filled in from it, to check and
save as usual. The photo itself is
never stored. The shared parts live in :mod:`companion.services.hand_photo`,
:mod:`companion.web.hand_photo` and ``templates/pips/``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from flask import abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _

from ..access import Role, requires
from ..extensions import csrf
from ..models import Game, Seat
from ..services import hand_photo
from ..services.rematches import followed_rematch, same_place
from ..services.round_check import tile_in_two_hands
from ..services.round_plan import load_game
from ..web import hand_photo as photo_page
from ..web import query
from ..web.form_fields import ConfirmedTilesForm
from ..web.game_lookup import scorekeeper_game
from ..web.htmx import is_htmx, navigate
from . import bp
from .forms import PhotoStartForm
from .play import form_after_photo

#: Round-form fields not kept in the draft (the CSRF token is renewed; the button is spent).
NOT_KEPT = frozenset({"csrf_token", "photo_seat"})


def _seat(game: Game, seat_id: int) -> Seat:
    for seat in game.seats:
        if seat.id == seat_id:
            return seat
    abort(404, _("This player is not at this game."))


def _game(token: str) -> Game:
    return load_game(scorekeeper_game(token))


def _rematch_photo(game: Game, seat_id: int) -> Any:
    """The old game's photo page once a rematch started: the same hand's photo page in the
    rematch (the old game has no round left to count), else None."""
    new = followed_rematch(game)
    seat = same_place(game, seat_id, new) if new is not None else None
    if new is None or seat is None:
        return None
    return redirect(url_for("games.photo", token=new.edit_token, seat_id=seat.id), 303)


def _elsewhere(game: Game, seat: Seat, double: int | None) -> dict[str, Any]:
    """What the photo page flags beside a picker before Confirm
    (:func:`companion.web.hand_photo.elsewhere_context`): the round's centre double, and each
    tile in another hand of the round form the scorekeeper goes back to (typed there, or
    posted from a phone), in the words of the round's Save refusing it."""
    who = seat.player.name
    held: dict[str, str] = {}
    if double is not None:
        for hand in form_after_photo(game, double).hand_forms():
            if hand.seat.id != seat.id:
                for tile in hand.tiles.data or []:
                    held.setdefault(str(tile), hand.seat.player.name)
    return photo_page.elsewhere_context(
        who, double, held, lambda tile, other: str(tile_in_two_hands(tile, other, who))
    )


def _page(game: Game, seat: Seat, status: int = 200, **extra: Any) -> tuple[str, int]:
    double = photo_page.photo_double(game)  # its forms carry the round on (see photo_start)
    context = {
        "game": game,
        "seat": seat,
        "upload_url": url_for(
            "games.photo_read", token=game.edit_token, seat_id=seat.id, double=double
        ),
        "confirm_url": url_for(
            "games.photo_confirm", token=game.edit_token, seat_id=seat.id, double=double
        ),
        "back_url": url_for("games.play", token=game.edit_token),
        # Confirm with the network down waits in the outbox (static/js/offline.js) and the
        # phone goes back to the game page, which lists it; sent once when the network is
        # back, it fills the round form's hand as an online Confirm does. photo.js puts the
        # points in place of {n} as tiles are picked.
        "outbox_label": _(
            "%(who)s's hand from a photo, points: %(points)s", who=seat.player.name, points="{n}"
        ),
        "outbox_page": url_for("games.play", token=game.edit_token),
        "outbox_keeper": True,
        **photo_page.page_context(game),
        **_elsewhere(game, seat, double),
        **extra,
    }
    return render_template("pips/photo.html", **context), status


@bp.post("/g/<token>/photo")
@requires(Role.SCOREKEEPER)
def photo_start(token: str) -> Any:
    """Keep the round form as a draft and open the photo page for the hand of ``photo_seat``."""
    game = _game(token)
    seat_id = PhotoStartForm().photo_seat.data
    seat = _seat(game, seat_id if seat_id is not None else -1)
    # the whole round form as typed, whichever seats it has: its own form reads it back later
    fields = [(k, v) for k, v in query.posted().items(multi=True) if k not in NOT_KEPT]
    photo_page.keep_draft(game.edit_token, fields)
    # the address names the round the photo is for: its Confirm, sent later (another tab saved
    # that round meanwhile, or offline), is checked against it, not against the next round
    double = photo_page.photo_double(game)
    target = url_for("games.photo", token=token, seat_id=seat.id, double=double)
    if is_htmx():
        return navigate(target)
    return redirect(target, 303)


@bp.get("/g/<token>/photo/<int:seat_id>")
@requires(Role.SCOREKEEPER)
def photo(token: str, seat_id: int) -> Any:
    """The photo page of one hand: take or choose a photo of the tiles face up."""
    game = _game(token)
    return _rematch_photo(game, seat_id) or _page(game, _seat(game, seat_id))


@bp.post("/g/<token>/photo/<int:seat_id>")
@requires(Role.SCOREKEEPER)
@csrf.exempt  # checked in uploaded_photo, once the body limit is raised for the photo
def photo_read(token: str, seat_id: int) -> Any:
    """Count the pips in the uploaded photo and show them marked, to be checked."""
    game = _game(token)
    moved = _rematch_photo(game, seat_id)
    if moved is not None:
        return moved
    seat = _seat(game, seat_id)
    return photo_page.read_or_refuse(game.set_size, partial(_page, game, seat))


@bp.get("/g/<token>/photo/<int:seat_id>/confirm")
@requires(Role.SCOREKEEPER)
def photo_confirm_again(token: str, seat_id: int) -> Any:
    """The address a refused Confirm leaves in the address bar (its answer, the reading again,
    is shown there by static/js/offline.js with the history entry replaced), asked again with
    GET (a reload, a tab restored): the game page, not "method not allowed"."""
    _game(token)  # an unknown or handed-away game is refused as on the photo page
    return redirect(url_for("games.play", token=token), 303)


@bp.post("/g/<token>/photo/<int:seat_id>/confirm")
@requires(Role.SCOREKEEPER)
def photo_confirm(token: str, seat_id: int) -> Any:
    """Put the confirmed tiles into the hand and go back to the round form to check and
    save it."""
    game = _game(token)
    moved = _rematch_photo(game, seat_id)
    if moved is not None:
        return moved
    seat = _seat(game, seat_id)
    picks = ConfirmedTilesForm().picks()
    if (
        photo_page.adding_up()
    ):  # "Add up my picks" (no JS): the page again, nothing kept in the draft
        return photo_page.added_up(picks, partial(_page, game, seat))
    double = photo_page.photo_double(game)
    problem = hand_photo.confirm_problem(picks, game.set_size) or hand_photo.centre_double_problem(
        picks, seat.player.name, double
    )
    if problem is not None:  # the reading again, every pick kept, the tiles to fix pointed at
        return photo_page.refused_confirm(problem, picks, partial(_page, game, seat))
    tiles, _missing = hand_photo.confirmed_tiles(picks, game.set_size)
    if not photo_page.put_tiles_in_draft(game, double, seat.id, tiles):
        # its round was saved meanwhile (another tab or phone): said, with the photo's tiles
        flash(hand_photo.not_filled_in(game, seat.player.name, double, tiles), "error")
    # else the game page says where the tiles went when it draws the round (draft_to_show),
    # not this Confirm: a round typed offline and saved after it (the outbox sends the two in
    # that order) leaves them unused
    return redirect(url_for("games.play", token=token), 303)
