"""Thin views of the table blueprint: players join a seat on their phone and post their own
hand; the scorekeeper sees the posts fill the round form, frees seats, hands scorekeeping over.

* ``/j/<share>``: the join page (the seats; tap your name). ``/p/<share>``: a joined phone's
  page (live scoreboard, this seat's hand for the coming round). ``/p/<share>/live?v=``: its
  poll (204 while nothing changed).
* ``/g/<edit>/posts?v=``: the scorekeeper's poll (204, or the posted hands as JSON).
* ``/g/<edit>/ask``, ``/g/<edit>/handover``: asking for and handing over scorekeeping.

The work is done by :mod:`companion.services.hand_posts` (posts, the auto-save),
:mod:`companion.services.game_lookup` (the scorekeeper's game) and :mod:`companion.access`
(devices, seats, scorekeepers). The round form these posts fill is the games blueprint's: it is
reached by URL (``games.play``), never imported.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

from flask import (
    Response,
    abort,
    flash,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString
from markupsafe import Markup
from werkzeug.datastructures import MultiDict

from .. import access, render_cache
from ..access import Role, requires
from ..extensions import csrf, db
from ..ids import parse_id
from ..mapping import scored_rounds
from ..models import Game, HandPost, RetiredJoinLink, Round, Seat
from ..services import hand_photo
from ..services import hand_posts as posts
from ..services.deleted_games import shared_game
from ..services.game_lookup import finished_share_tokens, game_for_join, game_for_view
from ..services.handovers import record_handover
from ..services.rematches import followed_rematch
from ..services.round_plan import double_name, load_game, picker_tiles, plan_round
from ..services.scoreboard import board_window, build_board
from ..vocab import GameStatus, JoinLinkChange, PostStatus
from ..web import hand_photo as photo_page
from ..web import query
from ..web.form_fields import ConfirmedTilesForm
from ..web.game_lookup import game_for_edit, scorekeeper_game
from ..web.htmx import navigate, reload_page
from ..web.qr import join_box
from ..web.stale_forms import stale_form
from . import bp
from .forms import (
    AskForm,
    HandoverForm,
    HandPostForm,
    SeatForm,
    SwitchForm,
    round_double,
    unknown_round,
)


def _seat_of(game: Game, text: Any) -> Seat | None:
    """The seat of ``game`` named by a posted seat id, or None for anything else (forged)."""
    seat_id = parse_id(str(text or "").strip())  # the one bound of every id (companion.ids)
    if seat_id is None:
        return None
    return next((s for s in game.seats if s.id == seat_id), None)


def _game_over(game: Game) -> Any:
    """A finished game's join link, its current one or an old one (410): the game is over
    ("Game over", as its hand page and scoreboard say, not "Page gone"), its final scoreboard
    a tap away, and a hand this phone kept for a seat of it is listed as not counted
    (templates/table/over.html)."""
    words = _(
        "This game is over: there is no hand left to post. The final scoreboard is on the "
        "scoreboard link."
    )
    page = render_template(
        "table/over.html", code=410, title=_("Game over"), description=words, game=game
    )
    return page, 410


def _old_join_link(retired: RetiredJoinLink) -> Any:
    """An old join link the scorekeeper replaced (410): of a game over since, the game-over
    page (no seat to join any more, no new QR code to ask for; its kept hands not counted);
    else what happened to it and how to join with the new one."""
    game = db.session.get(Game, retired.game_id)
    if game is not None and game.status == GameStatus.FINISHED:  # (its seats are not needed)
        return _game_over(game)
    abort(410, description=replaced_join_link_words(retired))


# --- joining -----------------------------------------------------------------------------------


@bp.route("/j/<join_token>", methods=["GET", "POST"])
@requires(Role.VIEWER)
def join(join_token: str) -> Any:
    """The seats of the game; tapping a name (a POST with that seat's id) joins it. Only the
    join secret shown on the scorekeeper's screen opens the seats: the share token (public in
    exports and night pages) shows how to join instead, and a POST with it is refused."""
    found = game_for_join(join_token)
    retired = access.replaced_join_link(join_token) if found is None else None
    if retired is not None:  # (nothing of the game: it opens nothing)
        return _old_join_link(retired)
    if found is None:
        return _join_elsewhere(join_token)
    rematch = followed_rematch(found)
    if rematch is not None:  # an old QR code rescanned after the rematch: its seats
        return redirect(url_for("table.join", join_token=rematch.join_token), 303)
    game = load_game(found)
    if game.status == GameStatus.FINISHED:
        return _game_over(game)
    if request.method == "POST":
        return _take_seat(game, join_token)
    device = access.current_device(create=False)  # a look at the seats makes no device
    return render_template(
        "table/join.html",
        game=game,
        join_token=join_token,
        phones=access.seat_phones(game),
        mine=access.joined_seat(game, device),
        seats_locked_words=SEATS_LOCKED,
        free_seat_words=how_to_free_a_seat(),
    )


def _take_seat(game: Game, join_token: str) -> Any:
    back = redirect(url_for("table.join", join_token=join_token), 303)
    seat = _seat_of(game, SeatForm().seat.data)
    if seat is None:
        flash(_("That seat is not at this game. Tap your name in the list."), "error")
        return back
    try:
        access.join_seat(game, seat)
    except access.SeatsLocked:
        flash(str(SEATS_LOCKED), "error")
        return back
    except access.SeatTaken:
        taken = _("%(who)s's seat is already taken by another phone.", who=seat.player.name)
        flash(f"{taken} {how_to_free_a_seat()}", "error")
        return back
    return redirect(url_for("table.hand", share_token=game.share_token), 303)


def how_to_free_a_seat() -> str:
    """What a player whose name is taken by another phone is told to do (an old session holds
    the seat: the phone they used before a rematch, or this one before it lost its saved
    data), naming the scorekeeper's own button (templates/games/_seat_phones.html). Freeing
    the seat gives the game a new join link (:func:`companion.access.free_seat`), so the name
    is tapped again from the new QR code, not from this page."""
    return _(
        "Is your name taken, but this is your phone? An old session (the phone you used "
        "before, or this one before it lost its saved data) still holds your seat. Ask the "
        "scorekeeper to tap “%(button)s” beside your name, below the scoreboard on the "
        "scorekeeper's phone. That gives the game a new join link: scan the new QR code, then "
        "tap your name again.",
        button=remove_phone_label(),
    )


@bp.app_template_global("remove_phone_label")
def remove_phone_label() -> str:
    """The scorekeeper's button that frees a seat (templates/games/_seat_phones.html): one
    home, so what players are told to ask for is that button's very label."""
    return _("Remove this phone from the seat")


#: what a phone is told when the seats are locked (the join page and a refused tap)
SEATS_LOCKED = _l(
    "The scorekeeper locked the seats: everyone is in. If you should be playing, ask the "
    "scorekeeper to unlock them."
)


#: what an old join link says once the scorekeeper replaced it, by why
#: (:class:`~companion.vocab.JoinLinkChange`; None: replaced before the reason was kept)
JOIN_LINK_REPLACED: dict[JoinLinkChange | None, LazyString] = {
    # removing a phone makes a new link only so that the removed phone cannot take the seat
    # back first: the scorekeeper did not change the link itself
    JoinLinkChange.SEAT_FREED: _l(
        "This join link no longer opens the seats: the scorekeeper removed a phone from a "
        "seat, and that gives the game a new join link. To join, ask the scorekeeper to show "
        "the new QR code, scan it and tap your name."
    ),
    JoinLinkChange.SEATS_UNLOCKED: _l(
        "This join link no longer opens the seats: the scorekeeper unlocked the seats with a "
        "new join link. To join, ask the scorekeeper to show the new QR code, scan it and tap "
        "your name."
    ),
    None: _l(
        "This join link no longer opens the seats: the scorekeeper removed a phone from a "
        "seat or unlocked the seats, and either gives the game a new join link. To join, ask "
        "the scorekeeper to show the new QR code, scan it and tap your name."
    ),
}

#: what the old link says to the very phone the scorekeeper removed from its seat
REMOVED_THIS_PHONE = _l(
    "The scorekeeper removed this phone from its seat, and that gives the game a new join "
    "link: this one no longer opens the seats. To play again, ask the scorekeeper to show the "
    "new QR code, scan it and tap your name."
)


def replaced_join_link_words(retired: RetiredJoinLink) -> str:
    """What an old join link says: what happened to it (to the phone removed from its seat:
    that it was) and how to join with the new one."""
    game = db.session.get(Game, retired.game_id)
    if retired.reason == JoinLinkChange.SEAT_FREED and game and access.removed_from_seat(game):
        return str(REMOVED_THIS_PHONE)
    reason = retired.reason
    return str(JOIN_LINK_REPLACED[JoinLinkChange(reason) if reason else None])


#: what a phone without a seat of the game is told when it opens a hand there (one that lost
#: its saved data, or never joined): it is sent to the scoreboard link's join page, which says
#: how to join and has no names to tap ("tap your name" pointed at nothing there)
NO_SEAT_HERE = _l("This phone holds no seat of this game, so it has no hand to open here.")


def _no_seat_here(share_token: str) -> Any:
    """The answer to a hand page (or its photo page) opened by a phone without a seat of the
    game: the game's join page by its share token, saying why."""
    flash(str(NO_SEAT_HERE), "info")
    return redirect(url_for("table.join", join_token=share_token), 303)


def _join_elsewhere(share_token: str) -> Any:
    """A join address holding the share token (or an old join secret's game's share token):
    the scoreboard link never gives a seat, so the page says where the join code is; a POST
    (taking a seat with it) is refused with the same words."""
    return _how_to_join(load_game(game_for_view(share_token)))


def _how_to_join(game: Game, typed: dict[str, Any] | None = None, *, photo: bool = False) -> Any:
    """The join page without the join secret: how to join, no names to tap (403 to a POST).
    ``typed``: a hand posted by a phone holding no seat of ``game`` (one that never joined:
    a form or an outbox entry older than its session), shown back as not saved, and what to
    do (``photo``: the photo's Confirm), never a redirect, which the phone's outbox takes for
    a save. Such a hand naming its seat (``?seat=``) is kept on the phone for that seat
    (:data:`OTHER_SEAT_HEADER`), sent once the phone joins it."""
    page = render_template(
        "table/join.html",
        game=game,
        join_token=None,
        phones={},
        mine=access.joined_seat(game),
        typed=typed,
        photo=photo,
    )
    if request.method == "GET":
        return page
    other_seat = typed is not None and _typed_for(game) is not None
    return page, 403, {OTHER_SEAT_HEADER: "1"} if other_seat else {}


# --- a player's own hand -----------------------------------------------------------------------


def _hand_context(
    game: Game, seat: Seat, *, live_key: str | None = None, live: bool = False, **extra: Any
) -> dict[str, Any]:
    """What a joined phone's page shows; ``live``: only its polled part (no tile picker),
    ``live_key`` when the caller has it already."""
    plan = plan_round(game)
    double = plan.double if plan else None
    post = posts.phone_post(game, double, seat.id) if double is not None else None
    last_taken = _last_taken(game, seat)
    return {
        "game": game,
        "seat": seat,
        "plan": plan,
        "double": double,
        "post": post,
        "value": posts.HandValue.of(post) if post else None,
        # every hand posted and nobody out: auto-save waits for the scorekeeper's "blocked"
        "blocked_unmarked": post is not None and posts.blocked_unmarked(game, plan),
        "picker": picker_tiles(game, double) if double is not None and not live else [],
        "board_html": _hand_board(game),
        "live_key": live_key or posts.seat_live_key(game, seat.id),
        "poll_seconds": 2,
        "last_taken": last_taken,
        "double_name": double_name,
        "outbox_wait": _waits_for_its_seat(seat),
        # the words a typed 0 without "I went out" is refused in, this round (None: it stands)
        "zero_refusal": (
            posts.zero_refusal(game, seat, double) if double is not None and not live else None
        ),
        # and a total typed beside tapped tiles of other points ({points}, {typed}: the script's)
        "beside_refusal": None if live else posts.beside_refusal(),
        # and a total above the most a hand may hold ({typed}: the script's)
        "over_refusal": (
            posts.over_refusal(game, seat, double) if double is not None and not live else None
        ),
        # and "I went out" beside a total other than 0 or tapped tiles ({typed}: the script's)
        "out_refusal": None if live else posts.out_refusal(seat),
        "outbox_also": None if live else _rematched_hand_page(game),
        # the top bar's Rules link opens the checker under this game's house rules
        "rules_game": game,
        **extra,
    }


def _rematched_hand_page(game: Game) -> str | None:
    """The hand page of the game ``game`` is the rematch of, or None. A phone carried to the
    rematch is led on from there, so what its outbox kept from that page (a hand answered
    after its round was saved, the game's last) is shown on this one, or on none."""
    if game.rematch_of_id is None:
        return None
    old = db.session.get(Game, game.rematch_of_id)
    return url_for("table.hand", share_token=old.share_token) if old is not None else None


def _hand_board(game: Game) -> Markup:
    """The scoreboard of a joined phone's page, after a finished game's result as the
    scorekeeper's phone shows it (its standings, who won and the tie-break step that decided:
    templates/table/_hand_board.html): one rendering per game version and language, shared by
    every phone of the game (it holds nothing of any one phone's own)."""
    upto, who = query.number("upto"), query.number("who")
    key = render_cache.board_key(game, render_cache.BoardVariant.HAND, upto, who)

    def render() -> str:
        board = build_board(game)
        window = board_window(board, upto, who)
        return render_template("table/_hand_board.html", game=game, board=board, window=window)

    return render_cache.cached_board(key, render)


def _last_taken(game: Game, seat: Seat) -> tuple[int, Any, HandPost | None] | None:
    """This seat's hand in the round saved last (in play order): the round's double, the saved
    hand and this seat's phone post taken into it (None when the scorekeeper entered the hand
    with no post), or None before any round was saved. The round just saved, whoever entered
    the hand: a line naming an older round the phone posted in was out of date."""
    from sqlalchemy import select

    rounds = scored_rounds(game)
    saved = rounds[-1] if rounds else None
    hand = posts.seat_hand(saved, seat.id) if saved else None
    if saved is None or hand is None:
        return None
    row = db.session.scalars(
        select(HandPost).where(
            HandPost.game_id == game.id,
            HandPost.seat_id == seat.id,
            HandPost.double == saved.start_double,
            HandPost.status == PostStatus.TAKEN,
            HandPost.device_id.is_not(None),
        )
    ).first()
    return saved.start_double, hand, row


def _joined(share_token: str) -> tuple[Game, Seat] | Any:
    game = load_game(game_for_view(share_token))
    seat = access.joined_seat(game)
    return game, seat


@bp.route("/p/<share_token>", methods=["GET", "POST"])
@requires(Role.PLAYER)
def hand(share_token: str) -> Any:
    """A joined phone: the live scoreboard and, for the coming round, only its own hand."""
    game, seat = _joined(share_token)
    carried = _carried_to(game)
    if carried is not None and request.method == "GET":
        return redirect(url_for("table.hand", share_token=carried.share_token), 303)
    if seat is None and access.removed_from_seat(game):
        return _removed_page(game, HandPostForm().typed() if request.method == "POST" else None)
    # a hand from a phone that never joined; one whose token is stale (a lost session: a new
    # phone) is refused as stale instead (stale_forms: 400), and sent again from its page
    if seat is None and request.method == "POST" and not stale_form():
        return _how_to_join(game, HandPostForm().typed())
    if seat is None:
        return _no_seat_here(share_token)
    if request.method == "GET" and query.has("picker"):
        return _hand_picker(game, seat)
    if request.method == "GET":
        return render_template("table/hand.html", **_hand_context(game, seat, typed=_kept(seat)))
    return _post(game, seat, share_token)


#: most hand pages one ask of :func:`hands_over` names (a phone keeps a hand or two; more: junk)
MAX_PAGES_ASKED = 20


@bp.route("/hands/over")
@requires(Role.ANYONE)
def hands_over() -> Any:
    """Which of the hand pages named (``?page=``, repeated: the pages of hands a phone kept
    and has not sent, static/js/waiting.js) are of a game that is over, as JSON: page -> what
    a hand kept for it says (templates/_not_counted.html). Such a hand can never be posted,
    whatever the phone's session: a phone that lost it is known by none of its games, so the
    page cannot be told; it asks. Anything else named (not a hand page, a live game) is left
    out."""
    pages = {}
    for page in query.texts("page")[:MAX_PAGES_ASKED]:
        token = page.rpartition("/")[2]
        if token and page == url_for("table.hand", share_token=token):
            pages[token] = page
    over = finished_share_tokens(pages)
    words = Markup(render_template("_not_counted.html")).striptags() if over else ""
    return jsonify({pages[token]: words for token in over})


def _draft_key(seat: Seat) -> str:
    """Where a hand's typing is kept in the session while its photo page is open."""
    return f"hand-{seat.id}"


def _kept(seat: Seat) -> dict[str, Any] | None:
    """What the player typed before opening the photo page (used once), or None."""
    fields = photo_page.take_draft(_draft_key(seat))
    return HandPostForm(formdata=MultiDict(fields)).typed() if fields is not None else None


def _removed_page(game: Game, typed: dict[str, Any] | None = None, *, photo: bool = False) -> Any:
    """The hand page of a phone the scorekeeper removed from its seat: it says so and how to
    join again; a hand it posts meanwhile (``typed``, or a photo's confirmed tiles: ``photo``,
    said as the photo's) is shown back, not saved (403). Such a hand naming its seat
    (``?seat=``) was refused only because this phone holds no seat now:
    :data:`OTHER_SEAT_HEADER` says so."""
    page = render_template(
        "table/removed.html", game=game, typed=typed, photo=photo, seats_locked_words=SEATS_LOCKED
    )
    if typed is None:
        return page
    return page, 403, {OTHER_SEAT_HEADER: "1"} if _typed_for(game) is not None else {}


def _carried_to(game: Game) -> Game | None:
    """The rematch of a finished ``game`` when this phone was carried to a seat of it (a
    rematch carries the table: :func:`~companion.services.game_lookup.carry_table`)."""
    new = followed_rematch(game)
    return new if new is not None and access.joined_seat(new) is not None else None


def _hand_picker(game: Game, seat: Seat) -> Any:
    """This phone's tile picker for the round with ``?picker=<double>`` (an htmx fragment that
    static/js/score.js asks for when "Tap the tiles" is tapped): every tile of the set but that
    centre double; ``?defs=0`` leaves out the tile symbols. Reads only; 404 for another round."""
    plan = plan_round(game)
    if plan is None or round_double(query.optional_text("picker")) != plan.double:
        abort(404)
    return render_template(
        "games/_picker.html",
        field_name="tiles",
        who=seat.player.name,
        picker=picker_tiles(game, plan.double),
        with_defs=query.optional_text("defs") != "0",
    )


#: the response header of an answer that refused a hand only because this phone does not hold
#: the seat it was typed for (``?seat=``) now: it holds another seat, or none. Not a refusal of
#: the hand: static/js/offline.js keeps such an entry for its seat, sent once the phone holds it
#: again (never as another seat's), and says so on every other page
OTHER_SEAT_HEADER = "X-Other-Seat"


def _typed_for(game: Game) -> Seat | None:
    """The seat of ``game`` a posted hand's address names (``?seat=``), or None when it names
    none (a post of a page older than that address); 404 for a seat of no such game."""
    typed_for = query.optional_text("seat")
    if typed_for is None:
        return None
    found = next((s for s in game.seats if str(s.id) == typed_for), None)
    if found is None:
        abort(404)
    return found


def _waits_for_its_seat(seat: Seat) -> str:
    """What the phone's outbox says of a hand typed (or counted from a photo) for ``seat`` on
    every page of a phone that does not hold that seat now (static/js/offline.js): whose it is
    and how to send it, as the join page says it (a page of another seat, or of none, does not
    know whether the seat still counts as this phone's old session: both are said). Freeing
    it is the scorekeeper's button, named by its very label (:func:`remove_phone_label`), and
    gives the game a new join link: the new QR code is scanned then, as the join page says."""
    return _(
        "Not sent: kept for %(who)s's seat, which this phone does not hold now. It is never "
        "posted as anyone else's hand. To send it, join %(who)s's seat again: scan the QR code "
        "on the scorekeeper's phone and tap %(who)s. If that seat still counts as another "
        "phone's, ask the scorekeeper to tap “%(button)s” beside %(who)s, then scan the new QR "
        "code and tap %(who)s. It is sent by itself then.",
        who=seat.player.name,
        button=remove_phone_label(),
    )


def _typed_for_another_seat(game: Game, seat: Seat, *, photo: bool = False) -> Any | None:
    """The refusal (422, :data:`OTHER_SEAT_HEADER`) of a hand typed on this phone (``photo``:
    counted from a photo) for another seat than ``seat``, the one it holds now, or None. The
    hand form and the photo's Confirm name their page's seat in their address (``?seat=``): a
    hand kept in a phone's outbox while it lost its seat (its session gone, the scorekeeper
    moving it) and joined another is sent from there later, and must never be posted as that
    other player's. The hand page is shown without it, saying for whom it was."""
    typed_for = _typed_for(game)
    if typed_for is None or typed_for.id == seat.id:
        return None
    who, name = typed_for.player.name, seat.player.name
    if photo:
        problem = _(
            "Not posted: this hand was counted from a photo on this phone for %(who)s's seat, "
            "before the phone joined %(name)s's seat. If it is %(name)s's hand, count it "
            "again here.",
            who=who,
            name=name,
        )
    else:
        problem = _(
            "Not posted: this hand was typed on this phone for %(who)s's seat, before the "
            "phone joined %(name)s's seat. If it is %(name)s's hand, type it again here.",
            who=who,
            name=name,
        )
    page = render_template("table/hand.html", **_hand_context(game, seat, problem=problem))
    return page, 422, {OTHER_SEAT_HEADER: "1"}


def _post(game: Game, seat: Seat, share_token: str) -> Any:
    refused = _typed_for_another_seat(game, seat)
    if refused is not None:
        return refused
    form = HandPostForm()
    typed = form.typed()
    if form.opens_photo():  # "Count my pips from a photo": what was typed waits in the session
        fields = [(k, v) for k, v in query.posted().items(multi=True) if k in HAND_FIELDS]
        photo_page.keep_draft(_draft_key(seat), fields)
        return redirect(url_for("table.hand_photo_page", share_token=share_token), 303)
    if form.opens_picker():  # "Tap the tiles" without JavaScript: the page again, picker open
        context = _hand_context(game, seat, typed=typed, picker_open=True)
        return render_template("table/hand.html", **context)
    if not form.validate():
        # A stale token (the page was open too long) is said by the notice above the page:
        # the hand comes back as typed. Anything else is a hand that cannot be read whole.
        problem = None if stale_form() else form.first_error()
        status = 200 if stale_form() else 422
        return render_template(
            "table/hand.html", **_hand_context(game, seat, problem=problem, typed=typed)
        ), status
    if form.asks_saved():
        # Typing kept on the phone for a round saved before it was posted (the page moved to
        # the next round as the player typed or tapped Post): say what the saved round holds
        # beside it. Never posted: a round that is not saved (undone since) answers nothing.
        rnd = posts.saved_round(game, form.round())
        if rnd is None or _taken_from_here(game, seat, rnd, typed):
            return Response(status=204)
        return _round_closed(game, seat, share_token, rnd, typed)
    return _post_typed(
        game,
        seat,
        share_token,
        form.round(),
        typed,
        seen=posts.revision_number(str(form.seen.data or "0")),
        force=bool(form.force.data),
    )


def _post_typed(
    game: Game,
    seat: Seat,
    share_token: str,
    double: int,
    typed: dict[str, Any],
    *,
    seen: int,
    force: bool = False,
    photo: bool = False,
) -> Any:
    """Post ``typed`` as ``seat``'s hand (the hand form and the confirmed photo share this;
    ``photo``: its tiles are a photo's, said so beside a saved or changed hand)."""
    device = access.current_device()
    assert device is not None
    # The last post wins (a player correcting their own hand is normal), but never silently:
    # the answer names the earlier post it replaced (from this phone or another of theirs).
    earlier = posts.phone_post(game, double, seat.id)
    replaced = posts.HandValue.of(earlier) if earlier is not None else None
    try:
        posts.post_hand(
            game,
            seat,
            device,
            double,
            seen=seen,
            force=force,
            **typed,
        )
    except posts.PostRefused as exc:
        ctx = _hand_context(game, seat, problem=exc.message, typed=typed)
        return render_template("table/hand.html", **ctx), 422
    except posts.PostClash as exc:
        ctx = _hand_context(
            load_game(game), seat, clash=posts.HandValue.of(exc.theirs), typed=typed, photo=photo
        )
        return render_template("table/hand.html", **ctx), 409
    except posts.RoundClosed as exc:
        return _round_closed(game, seat, share_token, exc.round, typed, photo=photo)
    if _auto_save(load_game(game)):
        # this post completed the round: "you can change it" would no longer be true
        flash(
            _(
                "Hand posted: every hand was in, so the round with %(d)s saved itself.",
                d=double_name(double),
            ),
            "success",
        )
    else:
        flash(_("Hand posted. You can change it until the round is saved."), "success")
    if replaced is not None and replaced != _posted_value(game, seat, double):
        flash(_("This replaced your earlier post: %(hand)s.", hand=replaced.words()), "info")
    return redirect(url_for("table.hand", share_token=share_token), 303)


def _round_closed(
    game: Game,
    seat: Seat,
    share_token: str,
    rnd: Round | None,
    typed: dict[str, Any],
    *,
    photo: bool = False,
) -> Any:
    """The answer to ``typed``, a hand for the saved round ``rnd`` (None: saved, but not found
    again): "saved as you typed it", or the saved round's hand beside the typing (409), said
    as a photo's tiles when ``photo``."""
    if rnd is not None and posts.saved_as_typed(rnd, seat.id, typed):
        # the saved value is what this phone typed: no conflict to show
        flash(
            _(
                "The round with %(d)s was already saved, with your hand as you typed it.",
                d=double_name(rnd.start_double),
            ),
            "success",
        )
        return redirect(url_for("table.hand", share_token=share_token), 303)
    ctx = _hand_context(load_game(game), seat, closed=rnd, typed=typed, photo=photo)
    return render_template("table/hand.html", **ctx), 409


def _taken_from_here(game: Game, seat: Seat, rnd: Round, typed: dict[str, Any]) -> bool:
    """True when the saved round ``rnd`` took this phone's own post of ``seat``'s hand and it
    is what the phone still keeps typed: the phone was told when it posted ("Hand posted: every
    hand was in, so the round … saved itself"), so asking what became of the typing answers
    nothing (a second line, "was already saved", read as if the post had come late)."""
    post = posts.phone_post(game, rnd.start_double, seat.id)
    device = access.current_device()
    hand = posts.seat_hand(rnd, seat.id)
    return (
        post is not None
        and hand is not None
        and device is not None
        and post.device_id == device.id
        and posts.matches(post, hand)  # the round holds the post ...
        and posts.saved_as_typed(rnd, seat.id, typed)  # ... and the typing
    )


def _posted_value(game: Game, seat: Seat, double: int) -> posts.HandValue | None:
    """The value of ``seat``'s post for the round with ``double`` as stored now, None if none
    (a round that saved itself has moved its posts on)."""
    post = posts.phone_post(load_game(game), double, seat.id)
    return posts.HandValue.of(post) if post is not None else None


def _auto_save(game: Game) -> bool:
    """With the game's auto-save on: save the round once every seat has posted and nothing
    conflicts (the same checks as the scorekeeper's Save). True if it saved the round;
    otherwise nothing happens."""
    if not game.auto_save:
        return False
    return posts.save_posted_round(game)


#: The hand form's fields kept while the photo page is open (not the token, nor the button).
HAND_FIELDS = frozenset({"total", "tiles", "went_out"})


# --- a player's own hand from a photo ----------------------------------------------------------


def _photo_seat(
    share_token: str, *, confirming: bool = False, uploading: bool = False
) -> tuple[Game, Seat, int | None] | Any:
    """The joined seat and the coming round's double, or the redirect that replaces the page.
    ``confirming`` (the photo's Confirm): with no round left to play (the last round saved
    while the photo page was open) the double is None instead of the redirect, so the Confirm
    can still say that its round was saved without it, and with which tiles. ``uploading``
    (a photo sent to be counted) from a phone holding no seat: the page that says so and how
    to join (403), as for the Confirm, not a redirect that drops the photo unsaid."""
    game, seat = _joined(share_token)
    if seat is None and uploading and _carried_to(game) is None:
        return _photo_not_counted(game)
    # A Confirm is never answered with a redirect that saves nothing: the phone's outbox,
    # which may send it long after it was tapped, reads a redirect as saved and lets the
    # tiles go unsaid. Its old game's Confirm is answered about its own round, as the hand
    # form's post is (the round saved, the tiles beside it).
    carried = _carried_to(game)
    if carried is not None and not confirming:  # the rematch's round is the one now
        return redirect(url_for("table.hand_photo_page", share_token=carried.share_token), 303)
    removed = seat is None and access.removed_from_seat(game)
    if seat is None and confirming and (removed or not stale_form()):  # as its hand page does
        refusal = _removed_page if removed else _how_to_join
        tiles = _photo_hand(game, ConfirmedTilesForm().picks())
        return make_response(refusal(game, tiles, photo=True))
    if removed:  # its hand page says so
        return redirect(url_for("table.hand", share_token=share_token), 303)
    if seat is None:
        return _no_seat_here(share_token)
    plan = plan_round(game)
    if plan is None or game.status == GameStatus.FINISHED:
        if confirming:
            return game, seat, None
        return _no_round_to_count(share_token)
    return game, seat, plan.double


#: what a photo sent to be counted by a phone holding no seat of the game is told (the photo
#: is not read: it is the phone's own, nothing of it is kept)
PHOTO_NOT_COUNTED = _l(
    "Your photo was not counted and nothing was saved: this phone holds no seat of this game "
    "now. Join first (see below), then take or choose the photo again."
)


def _photo_not_counted(game: Game) -> Any:
    """The answer (403) to a photo upload from a phone holding no seat of ``game``: the page of
    a phone removed from its seat, or the join page saying how to join, told that the photo
    was not counted. No redirect: the photo page's Back still has the photo chosen."""
    over = game.status == GameStatus.FINISHED  # no seat to join any more
    flash(str(NO_ROUND_TO_COUNT if over else PHOTO_NOT_COUNTED), "error")
    if access.removed_from_seat(game):
        return make_response(_removed_page(game), 403)
    return make_response(_how_to_join(game))  # (a POST: 403; a response, never a tuple)


NO_ROUND_TO_COUNT = _l("No round is being played now: there is no hand to count.")


def _no_round_to_count(share_token: str) -> Any:
    """The hand page, told that no round is being played (the game is over)."""
    flash(str(NO_ROUND_TO_COUNT), "info")
    return redirect(url_for("table.hand", share_token=share_token), 303)


def _photo_page(game: Game, seat: Seat, double: int, status: int = 200, **extra: Any) -> Any:
    post = posts.phone_post(game, double, seat.id)
    share = game.share_token
    context = {
        "game": game,
        "seat": seat,
        "upload_url": url_for("table.hand_photo_read", share_token=share),
        "confirm_url": url_for(
            "table.hand_photo_confirm",
            share_token=share,
            double=double,
            seen=post.revision if post else 0,
            seat=seat.id,
        ),
        "back_url": url_for("table.hand", share_token=share),
        "back_text": _("Back to my hand: type the points instead"),
        # Kept in the phone's outbox when the network is down, like the typed hand's form
        # (static/js/offline.js), sent once when the network is back; photo.js puts the
        # points in place of {n} as tiles are picked. A reload while it waits opens the hand
        # page, which lists it.
        # (whose: the home page and the join page say it too, templates/_waiting_hands.html)
        "outbox_label": _(
            "%(who)s's hand from a photo for the round with %(d)s, points: %(points)s",
            who=seat.player.name,
            d=double_name(double),
            points="{n}",
        ),
        "outbox_page": url_for("table.hand", share_token=share),
        "outbox_keeper": False,
        "outbox_wait": _waits_for_its_seat(seat),
        **photo_page.page_context(game),
        # flagged beside a picker before Confirm: the centre double, a tile another player
        # posted (in the words of the post refusing it)
        **photo_page.elsewhere_context(
            seat.player.name,
            double,
            posts.posted_tiles(game, double, seat.id),
            posts.already_posted,
        ),
        **extra,
    }
    return render_template("pips/photo.html", **context), status


@bp.get("/p/<share_token>/photo")
@requires(Role.PLAYER)
def hand_photo_page(share_token: str) -> Any:
    """ "Count my pips from a photo": take or choose a photo of the tiles left in my hand."""
    found = _photo_seat(share_token)
    if not isinstance(found, tuple):
        return found
    return _photo_page(*found)


@bp.post("/p/<share_token>/photo")
@requires(Role.PLAYER)
@csrf.exempt  # checked in uploaded_photo, once the body limit is raised for the photo
def hand_photo_read(share_token: str) -> Any:
    """Count the pips in my photo and show them marked, to be checked before posting."""
    found = _photo_seat(share_token, uploading=True)
    if not isinstance(found, tuple):
        return found
    game, seat, double = found
    return photo_page.read_or_refuse(game.set_size, partial(_photo_page, game, seat, double))


@bp.get("/p/<share_token>/photo/confirm")
@requires(Role.PLAYER)
def hand_photo_confirm_again(share_token: str) -> Any:
    """The address a refused Confirm leaves in the address bar (the hand page is its answer:
    a tile already in another posted hand, a round saved meanwhile), asked again with GET
    (a tab restored, the address opened again): the hand page, not "nothing to open here"."""
    found = _photo_seat(share_token)  # a phone not joined is refused as on the photo page
    if not isinstance(found, tuple):
        return found
    return redirect(url_for("table.hand", share_token=share_token), 303)


@bp.post("/p/<share_token>/photo/confirm")
@requires(Role.PLAYER)
def hand_photo_confirm(share_token: str) -> Any:
    """Post the confirmed tiles as my hand (the same post as the hand form's)."""
    found = _photo_seat(share_token, confirming=True)
    if not isinstance(found, tuple):
        return found
    game, seat, page_double = found
    refused = _typed_for_another_seat(game, seat, photo=True)
    if refused is not None:
        return refused
    picks = ConfirmedTilesForm().picks()
    if page_double is None:  # the game ended while the photo page was open
        return _confirm_after_the_game(game, seat, share_token, picks)
    render = partial(_photo_page, game, seat, page_double)
    if photo_page.adding_up():  # "Add up my picks" (no JS): the page again, nothing posted
        return photo_page.added_up(picks, render)
    # the centre double is refused here too, as on the scorekeeper's photo page: refused by the
    # post, the player landed on the hand form with the tile dropped and the photo gone
    problem = hand_photo.confirm_problem(picks, game.set_size) or hand_photo.centre_double_problem(
        picks, seat.player.name, page_double
    )
    if problem is not None:  # the reading again, every pick kept, the tiles to fix pointed at
        return photo_page.refused_confirm(problem, picks, render)
    tiles, _missing = hand_photo.confirmed_tiles(picks, game.set_size)
    photo_page.take_draft(_draft_key(seat))  # the photo's tiles replace what was typed
    typed = {"total": "", "tiles": tiles, "went_out": False}
    double = round_double(query.optional_text("double"))  # the round the photo page was for
    if double is None:  # a link taken apart: nothing to post it to, the tiles shown as typed
        context = _hand_context(game, seat, problem=unknown_round(), typed=typed)
        return render_template("table/hand.html", **context), 422
    return _post_typed(
        game,
        seat,
        share_token,
        double,
        typed,
        seen=posts.revision_number(query.text("seen", "0")),
        photo=True,
    )


def _confirm_after_the_game(game: Game, seat: Seat, share_token: str, picks: list[str]) -> Any:
    """A photo's Confirm that comes after the game's last round was saved: posted like any
    other, so the answer is "The round with … was already saved" with the saved score and the
    photo's tiles beside it (as for a round saved mid-game), not a bare "no round is being
    played" that drops the tiles unsaid. Picks that are not a hand, or a link without its
    round, get that bare answer: there is nothing to show."""
    double = round_double(query.optional_text("double"))
    # (a game ended early: its round never saved; never a post into a finished game)
    if (
        double is None
        or hand_photo.confirm_problem(picks, game.set_size) is not None
        or posts.saved_round(game, double) is None
    ):
        context = _hand_context(game, seat, problem=str(NO_ROUND_TO_COUNT))
        return render_template("table/hand.html", **context), 409
    seen = posts.revision_number(query.text("seen", "0"))
    return _post_typed(
        game, seat, share_token, double, _photo_hand(game, picks), seen=seen, photo=True
    )


def _photo_hand(game: Game, picks: list[str]) -> dict[str, Any]:
    """A photo's confirmed tiles (``picks``) as a typed hand (the hand form's ``typed``)."""
    tiles, _missing = hand_photo.confirmed_tiles(picks, game.set_size)
    return {"total": "", "tiles": tiles, "went_out": False}


@bp.get("/p/<share_token>/live")
@requires(Role.PLAYER)
def hand_live(share_token: str) -> Any:
    """The joined phone's poll: 204 while nothing it shows changed (``?v=``: the version and
    this seat's own posts, not another player's), else the live part of its
    page (scoreboard and the state of its posted hand; never the form being typed in)."""
    game = shared_game(share_token)
    if game.deleted_at is not None:
        return render_template("games/_scoreboard.html", game=game, gone=True), 286
    carried = _carried_to(game)
    if carried is not None:  # the rematch started: this phone's seat is in it
        return navigate(url_for("table.hand", share_token=carried.share_token))
    seat = access.joined_seat(game)
    if seat is None:  # the seat was freed: its hand page says so (or asks to join)
        if access.removed_from_seat(game):
            return navigate(url_for("table.hand", share_token=share_token))
        return navigate(url_for("table.join", join_token=share_token))
    key = posts.seat_live_key(game, seat.id)
    if query.text("v") == key:
        return Response(status=204)
    game = load_game(game)
    context = _hand_context(game, seat, live_key=key, live=True)
    shown = query.optional_text("d")
    current = "" if context["double"] is None else str(context["double"])
    if shown is not None and shown != current:
        # The round of the page's hand form was saved (or the game ended): reload the page
        # for the next round's form instead of leaving one whose post can only be refused.
        return reload_page()
    return render_template("table/_hand_live.html", **context)


# --- the scorekeeper's side ----------------------------------------------------------------------


@bp.get("/g/<token>/posts")
@requires(Role.SCOREKEEPER)
def posted(token: str) -> Any:
    """The scorekeeper's poll: 204 while nothing changed (``?v=``: the page's
    :class:`~companion.services.hand_posts.LiveKey`), else the posted hands of the coming
    round, the game's version and who asks to keep score, as JSON, with what changed on the
    page itself swapped out of band (``oob``: who joined, the blocked-round hint), the doubles
    of the rounds saved (``saved``) and the page's words for a change (``said``)."""
    game = scorekeeper_game(token)
    now = posts.live_key(game)
    shown = posts.LiveKey.parse(query.text("v"))
    if shown is not None and shown.same_game(now):
        return Response(status=204)
    game = load_game(game)
    plan = plan_round(game)
    blocked = posts.blocked_unmarked(game, plan)
    panel = shown is not None and shown.panel
    return jsonify(
        {
            "key": str(replace(now, panel=panel, blocked=blocked, link=bool(shown and shown.link))),
            "version": game.version,
            "double": plan.double if plan else None,
            "hands": posts.posts_json(game, plan.double if plan else None),
            "asking": len(access.asking(game)),
            "oob": _live_table(game, shown, now, blocked),
            # a page whose own round is among these asks for the comparison (a Save of a round
            # saved meanwhile) instead of saying only that the game changed
            "saved": [r.start_double for r in scored_rounds(game)],
            # what a page with typing in it says when the game changed, or a phone asks to keep
            # score (in the page's language: its script holds no words of its own)
            "said": [
                _("The game changed on another phone: reload to see it."),
                _("A phone asks to keep score: reload to answer it."),
            ],
        }
    )


def _live_table(game: Game, shown: posts.LiveKey | None, now: posts.LiveKey, blocked: bool) -> str:
    """What changed on the scorekeeper's page since the poll's key ``shown`` and is swapped
    out of band (templates/games/_live_table.html): the seats joined when a phone joined or
    left, with the join QR code and link when the page shows them (removing a phone made a
    new join secret, which the key does not carry), the blocked-round hint when it comes or
    goes. "" for a key that is not a page's (nothing is known of what it shows)."""
    if shown is None:
        return ""
    hint = "" if blocked == shown.blocked else "show" if blocked else "hide"
    seats = shown.phones != now.phones
    if not seats and not hint:
        return ""
    return render_template(
        "games/_live_table.html",
        game=game,
        phones=access.seat_phones(game),
        seats=seats,
        panel=shown.panel,
        hint=hint,
        **(join_box(game) if seats and shown.link else {}),
    ).strip()


@bp.post("/g/<token>/seats/<int:seat_id>/free")
@requires(Role.SCOREKEEPER)
def free_seat(token: str, seat_id: int) -> Any:
    """The scorekeeper frees a seat, so another phone can join it."""
    game = scorekeeper_game(token)
    if access.free_seat(game, seat_id):
        flash(_("The seat is free: another phone can join it now."), "success")
    return redirect(url_for("games.play", token=token), 303)


@bp.post("/g/<token>/join-panel")
@requires(Role.SCOREKEEPER)
def join_panel(token: str) -> Any:
    """The scorekeeper closes the join panel at the top of the game page (everyone who plays
    has joined); the QR code and the link stay below the scoreboard."""
    game = scorekeeper_game(token)
    game.join_closed = True
    db.session.commit()
    return redirect(url_for("games.play", token=token), 303)


@bp.post("/g/<token>/seats/lock")
@requires(Role.SCOREKEEPER)
def lock_seats(token: str) -> Any:
    """The scorekeeper locks the seats once everyone is in (no phone may join), or unlocks
    them (with a new join link: one seen before does not open a seat)."""
    game = scorekeeper_game(token)
    locked = SwitchForm().locked.data == "1"
    access.lock_seats(game, locked)
    flash(access.seats_lock_words(locked), "success")
    return redirect(url_for("games.play", token=token), 303)


@bp.post("/g/<token>/auto-save")
@requires(Role.SCOREKEEPER)
def auto_save(token: str) -> Any:
    """Switch the game's "save the round by itself when every hand is posted" setting."""
    game = scorekeeper_game(token)
    posts.switch_auto_save(game, SwitchForm().on.data == "1")
    return redirect(url_for("games.play", token=token), 303)


@bp.post("/g/<token>/ask")
@requires(Role.VIEWER)
def ask(token: str) -> Any:
    """This phone asks to keep score ("Make this phone the scorekeeper"). The host ("Take
    over now": with the passcode, or anyone when none is set) takes over at once; otherwise
    the scorekeeper's phone confirms."""
    game = game_for_edit(token)
    access.ask_to_keep_score(game)
    device = access.current_device()
    now = bool(AskForm().now.data)
    if now and not access.is_host():
        # Take over with the passcode: enter it first, then tap "Take over now" again.
        flash(_("Enter the passcode, then tap “Take over now with the passcode” again."), "info")
        return redirect(url_for("games.passcode", next=url_for("games.play", token=token)), 303)
    if now:
        # Without a passcode everybody is host: a table whose scorekeeper's phone died (or
        # lost its cookies) would otherwise wait for a confirmation that can never come.
        row = next((r for r in access.asking(game) if device and r.device_id == device.id), None)
        if row is not None:
            record_handover(game, access.hand_over(game, row.id))
            flash(_("This phone keeps score now."), "success")
            return redirect(url_for("games.play", token=token), 303)
    flash(
        _("Asked. Confirm on the scorekeeper's phone; this page opens the game when it does."),
        "info",
    )
    return redirect(url_for("games.play", token=token), 303)


@bp.post("/g/<token>/handover")
@requires(Role.SCOREKEEPER)
def handover(token: str) -> Any:
    """The scorekeeper answers a phone's request: hand over (this phone stops keeping score),
    add it as a second scorekeeper, or refuse."""
    game = scorekeeper_game(token)
    form = HandoverForm()
    row_id = parse_id(str(form.request.data or "").strip())  # the one id bound
    choice = form.choice.data or ""
    if row_id is None:
        flash(_("That request is no longer there; nothing changed."), "error")
        return redirect(url_for("games.play", token=token), 303)
    if choice == "refuse":
        access.refuse_asking(game, row_id)
        db.session.commit()
        flash(_("Refused: that phone does not keep score."), "success")
        return redirect(url_for("games.play", token=token), 303)
    done = access.hand_over(
        game, row_id, keep_old=choice == "add", by=access.current_device(create=False)
    )
    if done is None:
        flash(_("That request is no longer there; nothing changed."), "error")
        return redirect(url_for("games.play", token=token), 303)
    record_handover(game, done)
    if choice == "add":
        flash(_("That phone keeps score too now."), "success")
        return redirect(url_for("games.play", token=token), 303)
    return redirect(url_for("games.play", token=token), 303)
