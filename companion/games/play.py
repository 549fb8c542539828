"""Thin views for playing a game: rounds, scoreboard, corrections, undo, finish, rematch.

Every action is a plain form post answered by a redirect (works without JavaScript); with htmx
(``HX-Request``) the same views answer with the ``#game`` fragment or the scoreboard fragment.
The logic lives below the blueprint: :mod:`companion.web.round_form` (the round form, whose
checks are :mod:`companion.services.round_check`),
:mod:`companion.services.round_store` (saving a round), :mod:`.undo` (corrections) and
:mod:`companion.services.scoreboard`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, TypedDict

from flask import (
    Response,
    abort,
    flash,
    get_flashed_messages,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.datastructures import MultiDict

from .. import render_cache
from ..access import (
    Role,
    asker_names,
    asking,
    keeps_score,
    lock_seats,
    remember,
    requires,
    scorekeepers,
    seat_phones,
    seats_lock_words,
)
from ..mapping import rules_of, scored_rounds
from ..models import Game, HandPost, Round, Seat
from ..services import hand_posts as posts
from ..services.audit import audit_page, changes, entry_words, saved_by_itself
from ..services.deleted_games import deleted_game, shared_game
from ..services.game_lookup import game_for_view, live_rematch
from ..services.round_check import HandPart, hand_field
from ..services.round_plan import (
    RoundPlan,
    clean_missing,
    double_name,
    load_game,
    picker_tiles,
    plan_round,
)
from ..services.round_store import (
    Conflict,
    burn_double,
    check_version,
    edit_round,
    play_key,
    save_round,
)
from ..services.rulings import rulings_for
from ..services.scoreboard import Board, board_window, build_board
from ..stored import read_or
from ..text import ascii_whole_number
from ..vocab import GameStatus
from ..web import hand_photo as photo_page
from ..web import query
from ..web.game_lookup import scorekeeper_game
from ..web.htmx import is_htmx, navigate, push_url, retarget, targets
from ..web.kept_keys import parse_round_key, round_key
from ..web.offline import COPY_HEADER
from ..web.qr import join_box
from ..web.round_form import (
    BurnForm,
    RoundForm,
    VersionForm,
    data_from_round,
    parse_double,
    round_end_data,
    round_form,
)
from . import bp
from .forms import OpenPickerForm, PhotoStartForm
from .kept_buttons import KeptButtons, kept_buttons, kept_field
from .undo import (
    NothingToUndo,
    delete_game,
    latest_change,
    rematch,
    restore_game,
    undo_last,
    undone_round,
)

#: the fields "Put mine back in the form" sends beside the round's (:func:`_beside_saved`): the
#: seats and round fields that are this phone's own, and the round as it was compared
PUT_BACK_FIELD, COMPARED_FIELD = "put_back", "compared"

#: seconds between two polls of the live pages (posted hands and saved rounds show within 2 s)
POLL_SECONDS = 2


def _edit(token: str) -> Game:
    """The game this phone keeps score for (403 with a page that says so otherwise)."""
    return load_game(scorekeeper_game(token))


def _open_pickers(game: Game, form: RoundForm | None, opened: int | None) -> set[int]:
    """The seats whose tile picker the page builds: the one asked for (``opened``) and every
    hand that already holds tapped tiles (a refused save, a round being corrected). The
    others are built only when opened (:func:`picker`), so a page costs what the round needs,
    not players x tiles."""
    seats = {s.id for s in game.seats}
    found = {opened} & seats if opened is not None else set()
    if form is not None:
        found |= {h.seat.id for h in form.hand_forms() if h.tiles.data}
    return found


def _game_context(
    game: Game,
    *,
    form: RoundForm | None = None,
    plan: RoundPlan | None = None,
    errors: Sequence[str] = (),
    conflict: Round | None = None,
    editing: Round | None = None,
    notice: str = "",
    opened: int | None = None,
    changed: bool | str = True,
    board_upto: int | None = None,
    board_who: int | None = None,
    mine: Sequence[posts.MineBeside] = (),
    mine_fields: Sequence[tuple[str, str]] = (),
    from_draft: int | None = None,
    shown_version: str = "",
    switched: bool = False,
    typed: Sequence[int] = (),
    keep: KeptButtons | None = None,
    resolved: str = "",
) -> dict[str, Any]:
    """Everything ``_game.html`` shows: the round to score (or being corrected), the
    scoreboard, and the one-button forms. ``opened`` is a seat whose tile picker is shown
    open; ``changed`` says whether the game changed (an htmx answer then also swaps the
    scoreboard and the corrections, out of band); ``from_draft``: the form is the one kept
    while a photo was taken, shown for the first time, and this is the seat the photo filled:
    what the phone kept of its typing for that hand is older and gives way. ``shown_version``:
    the version the form keeps instead of the game's (the form is shown again unchecked, and
    what it was typed over changed on another phone: its Save must still say so).
    ``switched``: the auto-save switch was tapped (an htmx answer swaps it out of band).
    ``typed``: seats whose box holds this phone's typing, shown again unsaved (a hand no phone
    posted is marked *typed by you, not saved yet*, as the phone's kept typing is).
    ``keep``: the buttons the page holds (a save's htmx answer leaves them out)."""
    double = editing.start_double if editing else (plan.double if plan else None)
    restored: set[int] = set(typed)
    if form is None and double is not None:
        data: dict[str, Any] = {"double": str(double)}
        if plan is not None and plan.starter_seat is not None:
            data["starter"] = str(plan.starter_seat.id)
        if not editing:
            open_posts = posts.open_posts(game, double)
            data.update(posts.form_data(open_posts))
            put_back, restored = _undone_round_data(game, double, open_posts)
            data.update(put_back)
        form = round_form(game, **(data_from_round(editing) if editing else data))
    if form is not None:
        form.version.data = shown_version or str(game.version)
    # formdata=None: after an htmx save (a POST) they must show the new version, not the posted
    # one, or the swapped-in undo/burn buttons would refuse as "changed on another phone".
    version_form = VersionForm(formdata=None, version=str(game.version))
    burn_form = BurnForm(
        formdata=None, version=str(game.version), double=str(plan.double) if plan else ""
    )
    board = build_board(game)
    return {
        "game": game,
        "rules": rules_of(game),
        "plan": plan,
        "form": form,
        "errors": list(errors),
        "notice": notice,
        "conflict": conflict,
        "mine": list(mine),
        "mine_fields": list(mine_fields),
        "from_draft": from_draft,
        "editing": editing,
        "double": double,
        "picker": picker_tiles(game, double) if double is not None else [],
        "open_pickers": _open_pickers(game, form, opened),
        "opened": opened,
        "changed": changed,
        "switched": switched,
        # the table box's auto-save switch and seat lock submit the round form as typed
        "in_round_form": form is not None and (editing is not None or plan is not None),
        "board": board,
        "window": board_window(board, board_upto, board_who),
        "board_boost": True,
        "version_form": version_form,
        "burn_form": burn_form,
        "last_change": latest_change(game),
        "rulings": rulings_for(game, limit=3),
        "seats": game.seats,
        "double_name": double_name,
        "game_number": game.number_in_night,
        # an htmx answer is only the #game fragment: messages flashed while making it (e.g.
        # companion.web.stale_forms) are shown in it, as base.html shows them on a whole page
        "flashes": get_flashed_messages(with_categories=True) if is_htmx() else [],
        "marks": _marks(game, form, double, restored) if form is not None and not editing else {},
        "phones": (phones := seat_phones(game)),
        "join_panel_open": (panel := join_panel_open(game, phones)),
        "asking": asking(game),
        "asker_names": asker_names(game),
        "keepers": len(scorekeepers(game)),
        # every hand posted, nobody out: auto-save waits for the scorekeeper's "blocked" tick
        "blocked_unmarked": (blocked := not editing and posts.blocked_unmarked(game, plan)),
        # the poll keeps the join panel, the join QR code and link (a locked game shows none)
        # and the blocked-round hint up to date (table.posted)
        "live_key": str(
            replace(posts.live_key(game), panel=panel, blocked=blocked, link=not game.seats_locked)
        ),
        "poll_seconds": POLL_SECONDS,
        "keep": keep if form is not None and not editing else None,
        "kept_buttons": kept_field(game),
        # the kept typing "Put mine back" took into this correction, carried to its Save
        "kept_key": _kept_key() if editing else "",
        # the kept typing this page's correction was saved with: the phone drops it
        "resolved": resolved,
        **join_box(game),
    }


def join_panel_open(game: Game, phones: dict[int, Any]) -> bool:
    """True while the join panel stands at the top of the game page: the game is being played,
    a seat has not joined yet and the scorekeeper has neither closed the panel nor locked the
    seats."""
    return (
        game.status != GameStatus.FINISHED
        and not game.join_closed
        and not game.seats_locked
        and any(seat.id not in phones for seat in game.seats)
    )


def _beside_saved(
    game: Game,
    form: RoundForm,
    saved: Round,
    own: tuple[Collection[int], Collection[str]] | None = None,
) -> tuple[list[posts.MineBeside], list[tuple[str, str]]]:
    """This phone's own values that differ from the ``saved`` round, as "On this phone:" lists
    them, and the fields "Put mine back in the form" sends into a correction of it; both empty
    when nothing differs (no comparison is shown then). The one rule of the Save refused with
    the round saved meanwhile (:func:`_conflict`) and of the auto-save switch that saved it
    (:func:`_table_button`): a hand is this phone's when typed in (:func:`_typed_by_phone`),
    a tick or the starter when set. A box still holding the post it was filled with is the
    player's, not this phone's: the player may have posted again since, and that older post
    put back would be saved as the scorekeeper's. ``own``: the seats and round fields that
    are this phone's as "Put mine back" named them (:func:`_put_back`), instead of that rule.

    The fields also name this phone's seats and round fields (``put_back``) and the round as
    compared (``compared``: :func:`play_key`), so that a correction made on another phone
    before "Put mine back" is tapped is kept and shown, not undone (:func:`_put_back`)."""
    theirs = data_from_round(saved)
    texts = {h.seat.id: str(h.total.data or "") for h in form.hand_forms()}
    seats, only = own if own is not None else (_typed_by_phone(form), None)
    hands = posts.mine_beside(saved, game.seats, _held(form), seats, texts)
    ends, end_fields = _round_end_beside(form, theirs, game.seats, only)
    rows = [*hands, *ends]
    if not rows:
        return [], []
    differ = {row.seat_id for row in hands if row.seat_id is not None}
    names = [*(str(seat_id) for seat_id in sorted(differ)), *sorted(end_fields)]
    return rows, [
        *_form_fields(form, theirs, differ, end_fields),
        *((PUT_BACK_FIELD, name) for name in names),
        (COMPARED_FIELD, play_key(saved)),
        # the correction it opens resolves this phone's kept typing of the round when saved
        # (and the outbox's entry of it): carried by the server's own form, not only by
        # static/js/kept.js, which runs only while kept typing waits
        (KEPT_FIELD, _kept_key_of(game, saved)),
    ]


def _round_end_beside(
    form: RoundForm,
    theirs: dict[str, Any],
    seats: Sequence[Seat],
    only: Collection[str] | None = None,
) -> tuple[list[posts.MineBeside], set[str]]:
    """How the round ended as this phone's form says it, where it differs from the saved
    round's form data (``theirs``): a tick it set ("Blocked round: yes (saved: no)") or the
    starter it picked ("Who started: Bob (saved: not recorded)"), and those fields' names. A
    tick left empty or no starter picked says nothing against the saved round (as an empty
    box it never touched); ``only``: the field names that are this phone's (None: all)."""
    rows: list[posts.MineBeside] = []
    fields: set[str] = set()
    for box, label in (
        (form.blocked, _("Blocked round")),
        (form.out_on_double, _("Went out on a double")),
    ):
        if box.data and not theirs.get(box.name) and (only is None or box.name in only):
            rows.append(posts.MineBeside(label, _("yes"), _("no")))
            fields.add(box.name)
    names = {str(s.id): str(s.player.name) for s in seats}
    starter = str(form.starter_seat_id() or "")
    saved_starter = str(theirs.get(form.starter.name) or "")
    mine = only is None or form.starter.name in only
    if starter and starter != saved_starter and mine:
        said = names.get(saved_starter) or _("not recorded")
        rows.append(posts.MineBeside(_("Who started"), names[starter], said))
        fields.add(form.starter.name)
    return rows, fields


def _form_fields(
    form: RoundForm, theirs: dict[str, Any], hands: Collection[int], ends: Collection[str]
) -> list[tuple[str, str]]:
    """The round as "Put mine back in the form" sends it into a correction of the saved round
    (``theirs``: its form data), as (field name, value) pairs: this phone's box, tiles and tick
    for the seats ``hands`` and its value of the round's fields ``ends`` (blocked, the last
    tile a double, who started: the names), the saved values for the rest."""
    fields: list[tuple[str, str]] = []
    for hand in form.hand_forms():
        if hand.seat.id in hands:
            total, tiles, out = hand.total.data, hand.tiles.data, hand.out.data
        else:
            total, tiles, out = (theirs.get(f.name) for f in (hand.total, hand.tiles, hand.out))
        if total:
            fields.append((hand.total.name, str(total)))
        fields += [(hand.tiles.name, str(t)) for t in tiles or []]
        if out:
            fields.append((hand.out.name, "y"))
    for box in (form.blocked, form.out_on_double):
        if box.data if box.name in ends else theirs.get(box.name):
            fields.append((box.name, "y"))
    starter = form.starter.data if form.starter.name in ends else theirs.get(form.starter.name)
    if starter:
        fields.append((form.starter.name, str(starter)))
    return fields


def _marks(
    game: Game, form: RoundForm, double: int | None, restored: set[int]
) -> dict[int, posts.PostMark]:
    """Seat id -> what the round form says about that hand: not posted / posted (when) /
    changed on their phone / typed over by the scorekeeper / typed and put back by an undo
    (``restored``: those seats)."""
    if double is None:
        return {}
    seen = {h.seat.id: posts.revision_number(str(h.seen.data or "")) for h in form.hand_forms()}
    return posts.marks(game, double, seen, _held(form), restored)


@read_or(lambda: ({}, set()))
def _undone_round_data(
    game: Game, double: int, open_posts: dict[int, HandPost]
) -> tuple[dict[str, Any], set[int]]:
    """The round form's data that brings back the saved round "Undo the last change" took away,
    while it is the round with ``double`` to be entered (:func:`.undo.undone_round`): how it
    ended and each hand the scorekeeper had entered (:func:`posts.put_back`; the posts fill
    their own boxes), and the seats so put back that no phone posted (marked as typed, not
    saved yet). Nothing for any other round, or a stored round of another shape."""
    snapshot = undone_round(game, double)
    if snapshot is None:
        return {}, set()
    seats = {s.id for s in game.seats}
    values = {
        seat_id: value
        for seat_id, value in posts.put_back(snapshot, open_posts).items()
        if seat_id in seats
    }
    data = {**round_end_data(snapshot), **posts.put_back_data(values)}
    return data, {seat_id for seat_id in values if seat_id not in open_posts}


def _render_game(status: int = 200, /, **kwargs: Any) -> tuple[str, int]:
    """The game page, or only its ``#game`` fragment for htmx, with the real status (a refused
    save's 409 or 422 is swapped too: see :mod:`companion.web.htmx`)."""
    ctx = _game_context(**kwargs)
    if is_htmx():
        return render_template("games/_saved.html", **ctx), status
    # One page for a game in play and a finished one: _game.html shows the result when over.
    return render_template("games/play.html", **ctx), status


@bp.get("/g/<token>")
@requires(Role.SCOREKEEPER)
def play(token: str) -> Any:
    """The game page for the scorekeeper: the coming round and its scoring form, the
    scoreboard; the summary once the game is finished. ``?missing=9`` says nobody holds 9-9."""
    if wants_board():
        return board(token)
    game = _edit(token)
    plan = plan_round(game, clean_missing(game, query.texts("missing")))
    form, fresh = _form_from_draft(game, plan)
    return _render_game(
        game=game,
        plan=plan,
        form=form,
        from_draft=fresh,
        resolved=_resolved_by_plain_post(),
        **_window_args(),
    )


def wants_board() -> bool:
    """True for an htmx request that swaps only the scoreboard (a boosted link inside it:
    earlier rounds, a player's rounds): the page then answers only that fragment."""
    return targets("scoreboard")


class _Window(TypedDict):
    board_upto: int | None
    board_who: int | None


def _window_args() -> _Window:
    """The scoreboard window asked for in the address (``?upto=``, ``?who=``)."""
    return {
        "board_upto": query.number("upto"),
        "board_who": query.number("who"),
    }


@bp.get("/g/<token>/round")
@requires(Role.SCOREKEEPER)
def round_page(token: str) -> Any:
    """The address a refused plain save (or an opened tile picker) leaves in the address bar:
    a link or a reload there goes to the game page, with the same query (``?who=``…)."""
    scorekeeper_game(token)  # only the scorekeeper's phone is sent on to the game page
    carried: dict[str, Any] = query.arguments().to_dict(flat=False)
    return redirect(url_for("games.play", token=token, **carried), 303)


def _form_from_draft(game: Game, plan: RoundPlan | None) -> tuple[RoundForm | None, int | None]:
    """The round form as it was when a hand's photo was taken, with that hand's confirmed
    tiles (see :mod:`.photo`), and, when it is shown for the first time, the seat of that
    hand (the phone's own kept typing for that hand is older then and gives way; its typing
    for the other hands, done on the page while the Confirm waited offline, is put back; on a
    reload all of it is newer and is put back); (None, None) when there is no draft to show
    (:func:`companion.web.hand_photo.draft_to_show`, which also says what became of a photo's
    tiles)."""
    double = plan.double if plan is not None else None
    draft, fresh = photo_page.draft_to_show(game, double)
    if not draft:
        return None, None
    form = round_form(game, MultiDict(draft))
    _take_posts_into_untouched_boxes(game, form, double)
    return form, fresh


def form_after_photo(game: Game, double: int) -> RoundForm:
    """The round form of the round with ``double`` as the game page will show it after a
    hand's photo is confirmed (the photographed hand aside): the form kept while the photo is
    taken, with the hands posted since in the boxes not typed over, else the form filled from
    the posted hands. Only read: nothing flashed, the kept form not marked shown."""
    fields = photo_page.kept_fields(game, double)
    if fields is None:
        return round_form(
            game, double=str(double), **posts.form_data(posts.open_posts(game, double))
        )
    form = round_form(game, MultiDict(fields))
    _take_posts_into_untouched_boxes(game, form, double)
    return form


def _take_posts_into_untouched_boxes(game: Game, form: RoundForm, double: int | None) -> None:
    """Put each hand posted since the draft was kept into its box when the scorekeeper had
    not typed over it (it still holds what it was filled with, often nothing), as the live
    page would have while the scorekeeper was on the photo page. Without this an empty box
    read as typed over a post that came meanwhile, and the post was left out of the form."""
    if double is None:
        return
    held = _held(form)
    for seat_id, post in posts.open_posts(game, double).items():
        if seat_id not in held:
            continue
        hand = form.hand(seat_id)
        if post.revision == posts.revision_number(str(hand.seen.data or "")):
            continue
        if _untouched(hand, held[seat_id]):
            _fill_from_post(hand, posts.HandValue.of(post))
        # the page shows the post beside a box typed over ("typed over their post: 12
        # points"): it is seen, so the next Save keeps the typing instead of refusing it
        hand.seen.data = str(post.revision)


@bp.post("/g/<token>/round")
@requires(Role.SCOREKEEPER)
def save(token: str) -> Any:
    """Save the coming round (all hands in one transaction). Redirects to the game page."""
    game = _edit(token)
    if OpenPickerForm().opens():
        return _pick_page(game, None)
    if PhotoStartForm().photo_seat.raw_data:
        # Without JavaScript a hand's photo button posts the form here (its address is not
        # written twice in every hand: htmx posts to games.photo_start itself): 307 sends the
        # same post on, nothing read or saved here.
        return redirect(url_for("games.photo_start", token=token), 307)
    form = round_form(game, query.posted())
    tapped = _table_button(game, form, None)
    if tapped is not None:
        return tapped
    double = parse_double(form.double.data, game.set_size)
    missing = clean_missing(game, query.texts("missing"))
    plan = plan_round(game, missing)
    if double is None:
        errors = [_("This form does not say which round it is for; reload the page.")]
        return _render_game(422, game=game, plan=plan, errors=errors, changed=False)
    if plan is None or posts.saved_round(game, double) is not None:
        # the round was saved meanwhile (another phone, auto-save): the saved round with this
        # phone's values beside it, however far the typing got (table.js asks so by itself)
        return _conflict(game, double, form)
    scored = form.validate_round(game, double)
    if scored is None:
        # refused as it stands: a hand posted again meanwhile is shown as after a 409
        _show_newer_posts(form, _newer_posts(game, double, form))
        errors = form.form_errors
        return _render_game(422, game=game, plan=plan, form=form, errors=errors, changed=False)
    seen = posts.seen_revisions(query.posted(), game.seats)
    try:
        check_version(game, form.version.data)  # a stale form says so before anything else
        posts.check_unchanged(game, double, scored, seen)
        save_round(
            game,
            scored,
            form.version.data,
            also=lambda rnd: posts.take_posts(game, rnd, scored, seen),
        )
    except posts.PostsChanged as exc:
        return _posts_changed(game, plan, form, exc)
    except Conflict:
        return _conflict(game, double, form)
    return _saved(token, _("Round saved."), ROUND_ADDED, kept_buttons(game))


def _posts_changed(
    game: Game, plan: RoundPlan | None, form: RoundForm, exc: posts.PostsChanged
) -> Any:
    """Hands were posted again after the form was filled: show each new post beside what the
    form holds (nothing typed is dropped); saving again keeps the form's values. The message
    names each hand with both values (the offline outbox shows it alone, without the form)."""
    held = _held(form)  # what this phone sent, before a newer post fills an untouched box
    changes = [
        _changed_hand(form.hand(seat_id).who, posts.HandValue.of(post), held[seat_id])
        for seat_id, post in sorted(exc.changed.items())
    ]
    _show_newer_posts(form, exc.changed)
    errors = [
        _(
            "The round is not saved yet: after this form was filled, %(changes)s. "
            "Check it, then save again: the round is saved as the form shows it.",
            changes="; ".join(changes),
        )
    ]
    return _render_game(409, game=game, plan=plan, form=form, errors=errors, changed=False)


def _changed_hand(who: str, posted: posts.HandValue, mine: posts.HandValue) -> str:
    """One hand a refused save names: the player's new post and what this phone had, each
    after a colon so any value reads right ("now: went out"); an empty box in words, not
    "—"."""
    if not mine.key():
        return _(
            "%(who)s changed their hand on their phone (now: %(posted)s; nothing was typed for "
            "them on this phone)",
            who=who,
            posted=posted.words(),
        )
    return _(
        "%(who)s changed their hand on their phone (now: %(posted)s; this phone: %(mine)s)",
        who=who,
        posted=posted.words(),
        mine=mine.words(),
    )


def _newer_posts(game: Game, double: int, form: RoundForm) -> dict[int, HandPost]:
    """Seat id -> its hand posted again after the form was filled (a newer revision than the
    form's ``seen_``) whose value the form does not hold."""
    seen = posts.seen_revisions(query.posted(), game.seats)
    held = _held(form)
    return {
        seat_id: post
        for seat_id, post in posts.open_posts(game, double).items()
        if seat_id in held
        and post.revision != seen.get(seat_id, 0)
        and posts.HandValue.of(post).key() != held[seat_id].key()
    }


def _show_newer_posts(form: RoundForm, changed: dict[int, HandPost]) -> None:
    """Show each newer post in the form the save was refused with: a box still holding the
    post it was filled with takes the newer post (and says so: the form no longer holds what
    was sent, e.g. a second hand marked out now); a box the scorekeeper typed over keeps the
    typing, its newer post named beside it (the typed value stands at the next save)."""
    held = _held(form)
    for seat_id, post in changed.items():
        hand = form.hand(seat_id)
        hand.seen.data = str(post.revision)
        value = posts.HandValue.of(post)
        # the post's value after a colon, as the refused save's message names it
        # (:func:`_changed_hand`): "posted went out from their phone" did not read
        if _untouched(hand, held[seat_id]):
            _fill_from_post(hand, value)  # the phone's hand
            hand.took_post = True
            said = _(
                "%(who)s changed their hand on their phone after this form was filled "
                "(now: %(posted)s); the form holds their new hand now. Check the form, then "
                "save again.",
                who=hand.who,
                posted=value.words(),
            )
        else:
            said = _(
                "%(who)s changed their hand on their phone after this form was filled "
                "(now: %(posted)s). Check the form, then save again: the value typed here "
                "will stand.",
                who=hand.who,
                posted=value.words(),
            )
        hand.total.errors.append(said)


def _untouched(hand: Any, held: posts.HandValue) -> bool:
    """Whether a hand's box still holds (``held``) what it was filled with from a post: the
    scorekeeper has not typed over it, so a newer post may take its place. Its text counts
    too: "abc" (no number, so no value held) or a total beside tapped tiles is typing; the
    same number however written ("08" or " 8" for 8: ``held`` is read from that text) is not."""
    number = held.total is not None and not held.tiles and not held.went_out
    text = str(hand.total.data or "").strip()
    return held.key() == str(hand.filled.data or "") and (number or not text)


def _typed_by_phone(form: RoundForm) -> set[int]:
    """The seats whose hand is this phone's own: the box the scorekeeper typed in or over (not
    holding a post untouched, nor empty and never touched), typing an undo put back included
    where it differs from the post, or the empty box, the form was filled with
    (:func:`posts.put_back_data` leaves ``filled_<seat>`` as that). One rule for what the
    comparison with a round saved meanwhile lists (:func:`_beside_saved`) and for the marks
    of the form drawn again after the seat lock or the auto-save switch (:func:`_marks`'
    ``restored``): a box holding typing an undo put back (no post gave it) stays *typed by
    you, not saved yet*, a box holding its player's post untouched stays *posted*."""
    held = _held(form)
    return {h.seat.id for h in form.hand_forms() if not _untouched(h, held[h.seat.id])}


def _fill_from_post(hand: Any, value: posts.HandValue) -> None:
    """Put a newer posted hand into a box the scorekeeper had not typed over (it still held the
    post it was filled with): the form then shows what the phone says now."""
    typed = value.total is not None and not value.tiles and not value.went_out
    hand.total.data = str(value.total) if typed else ""
    hand.tiles.data = list(value.tiles or [])
    hand.out.data = value.went_out
    hand.filled.data = value.key()


#: what an htmx save changed, so that its answer sends only that (_saved.html): a new round
#: (its "correct" chip is appended) or a corrected one (the chips stay); True = anything
ROUND_ADDED, ROUND_CORRECTED = "round added", "round corrected"


def _saved(token: str, notice: str, changed: str, keep: KeptButtons | None = None) -> Any:
    """After a save: redirect to the game page, or (htmx) answer with what changed (the round
    area, the scoreboard, the corrections out of band; without the hands' buttons the page
    holds, ``keep``) and point the address bar at the game page."""
    if not is_htmx():
        flash(notice, "success")
        if changed == ROUND_CORRECTED and _kept_key():
            session[RESOLVED_KEY] = _kept_key()
        return redirect(url_for("games.play", token=token), 303)
    game = load_game(scorekeeper_game(token))
    body, status = _render_game(
        game=game,
        plan=plan_round(game),
        notice=notice,
        changed=changed,
        keep=keep,
        resolved=_kept_key() if changed == ROUND_CORRECTED else "",
    )
    return body, status, push_url(url_for("games.play", token=token))


#: the field a correction opened by "Put mine back in the form" carries: the key of the kept
#: typing it took in (static/js/kept.js; its format: companion.web.kept_keys.round_key)
KEPT_FIELD = "kept"


def _kept_key_of(game: Game, saved: Round) -> str:
    """The key of a phone's kept typing of the ``saved`` round: the round form's
    ``data-draft`` when it was shown (:func:`companion.web.kept_keys.round_key`)."""
    before = next((i for i, r in enumerate(game.rounds) if r.id == saved.id), len(game.rounds))
    return round_key(game.id, before, saved.start_double)


def _kept_key() -> str:
    """The key of the kept typing this post's correction holds (:data:`KEPT_FIELD`), or "":
    its Save says so on the page it answers with (``data-resolved``), so that the phone drops
    the kept typing then, and only then (a Cancel of the correction keeps it)."""
    key = str(query.posted().get(KEPT_FIELD) or "")
    return key if parse_round_key(key) else ""


#: the session's note of the kept typing a correction saved by a plain post resolved (the
#: outbox sends a correction so, answered by a redirect): the game page drawn next names it
RESOLVED_KEY = "kept_resolved"


def _resolved_by_plain_post() -> str:
    """The key of the kept typing a correction saved by a plain post resolved (:func:`_saved`),
    taken by the game page drawn next (``data-resolved``, as an htmx Save's answer says it);
    "" for none, and for the service worker's own fetch of the page, which nobody sees."""
    if request.headers.get(COPY_HEADER) or RESOLVED_KEY not in session:
        return ""
    return str(session.pop(RESOLVED_KEY))


def _held(form: RoundForm) -> dict[int, posts.HandValue]:
    """Seat id -> the hand the round form holds (its box, tapped tiles, went out)."""
    return {
        h.seat.id: posts.form_value(
            str(h.total.data or ""), [str(t) for t in h.tiles.data or []], bool(h.out.data)
        )
        for h in form.hand_forms()
    }


def _conflict(game: Game, double: int | None, form: RoundForm | None = None) -> Any:
    """Someone saved first: say so and show what is stored now (HTTP 409), with this phone's
    own values beside it (``form``: what it sent) and a way to put them into a correction."""
    game = load_game(scorekeeper_game(game.edit_token))
    saved = next((r for r in game.rounds if r.start_double == double), None)
    if saved is not None:
        errors = [
            _("Auto-save saved this round from the posted hands meanwhile; here is what was saved.")
            if saved_by_itself(game, saved.start_double)
            else _("This round was already saved on another phone; here is what was saved.")
        ]
        if form is not None:
            # asked again after a correction elsewhere (static/js/offline.js, kept.js): only
            # what the first comparison named this phone's; a seat it agreed on then and
            # another phone corrected since is that phone's correction, not this phone's
            mine, fields = _beside_saved(game, form, saved, _named_own(game, form))
            # nothing of this phone's differs from the saved round: news (the round is saved
            # as this phone had it), not an error about its values
            said = {"errors": errors} if mine else {"notice": errors[0]}
            return _render_game(
                409,
                game=game,
                plan=plan_round(game),
                conflict=saved,
                mine=mine,
                mine_fields=fields,
                **said,
            )
    else:
        # Nothing was saved for this round: the game moved on (another round saved, a change
        # undone, a double burned) since the form was shown.
        errors = [
            _(
                "This form is out of date: the game changed on another phone. "
                "Here is what is saved now."
            )
        ]
        saved = game.rounds[-1] if game.rounds else None
    return _render_game(409, game=game, plan=plan_round(game), errors=errors, conflict=saved)


def _pick_page(game: Game, editing: Round | None) -> Any:
    """Without JavaScript, "Tap …'s tiles" submits the round form with ``open_picker`` = a
    seat id: the same page again, everything typed kept (nothing is checked or saved) and that
    hand's tile picker open (and focused, so the phone scrolls to it)."""
    form = round_form(game, query.posted())
    opened = _seat_id(OpenPickerForm().open_picker.data)
    if editing is not None:
        compared = query.posted().get(COMPARED_FIELD)
        if compared is not None:
            return _put_back(game, editing, form, compared)
        return _render_game(game=game, editing=editing, form=form, opened=opened)
    plan = plan_round(game, clean_missing(game, query.texts("missing")))
    if plan is None or parse_double(form.double.data, game.set_size) != plan.double:
        # The game moved on since the form was shown: show what is there now.
        return redirect(url_for("games.play", token=game.edit_token), 303)
    return _render_game(game=game, plan=plan, form=form, opened=opened)


def _put_back(game: Game, saved: Round, form: RoundForm, compared: str) -> Any:
    """ "Put mine back in the form" (``form``: the fields a comparison sent, :func:`_beside_saved`):
    the correction of the ``saved`` round, holding the round as saved NOW with this phone's
    own values (the seats and round fields its ``put_back`` names) put back in it. A table
    expects a correction made on another phone since the comparison to stay: the fields sent
    hold the other seats as they were saved then, and saving them over it would silently
    undo it. When the round changed since (``compared``, its :func:`play_key` then, is not
    its key now), the page says so at once, with the round as saved now and this phone's
    values that differ from it beside it, so that a hand both phones changed is seen before
    saving."""
    mine, fields = _beside_saved(game, form, saved, _named_own(game, form) or (set(), set()))
    # nothing differs from the round as saved now: the correction shows it as saved
    again = round_form(game, MultiDict(fields)) if fields else None
    if compared == play_key(saved):
        return _render_game(game=game, editing=saved, form=again)
    errors = [
        _(
            "This round was changed on another phone since you compared it. The form holds "
            "it as saved now, with your own values put back: check them, then save."
        )
    ]
    return _render_game(
        game=game, editing=saved, form=again, errors=errors, conflict=saved, mine=mine
    )


def _named_own(game: Game, form: RoundForm) -> tuple[set[int], set[str]] | None:
    """The seats (ids) and round fields a comparison named this phone's (its ``put_back``
    fields, :func:`_beside_saved`), as posted with ``form``; None when the post names none."""
    names = set(query.posted().getlist(PUT_BACK_FIELD))
    if not names:
        return None
    seats = {seat.id for seat in game.seats if str(seat.id) in names}
    return seats, names & {form.blocked.name, form.out_on_double.name, form.starter.name}


def _seat_id(text: str | None) -> int | None:
    """A seat id posted as text, or None for junk."""
    text = (text or "").strip()
    return int(text) if ascii_whole_number(text) and len(text) <= 10 else None


@bp.get("/g/<token>/tiles")
@requires(Role.SCOREKEEPER)
def picker(token: str) -> Any:
    """One hand's tile picker (an htmx fragment; static/js/score.js asks for it) for the seat
    ``?seat=`` and the round with ``?double=``: every tile of the set but that centre double.
    ``?defs=0`` leaves out the tile symbols (the page already has them). Reads only; the
    round form posts the tapped tiles."""
    game = scorekeeper_game(token)
    seat_id = _seat_id(query.optional_text("seat"))
    seat = next((s for s in game.seats if s.id == seat_id), None)
    double = parse_double(query.optional_text("double"), game.set_size)
    if seat is None or double is None:
        abort(404)
    return render_template(
        "games/_picker.html",
        field_name=hand_field(HandPart.TILES, seat.id),
        seat_id=seat.id,
        who=seat.player.name,
        picker=picker_tiles(game, double),
        with_defs=query.optional_text("defs") != "0",
    )


@bp.post("/g/<token>/burn")
@requires(Role.SCOREKEEPER)
def burn(token: str) -> Any:
    """Nobody holds the coming double and the house rule burns it (RULES.md §3.5)."""
    game = _edit(token)
    form = BurnForm()
    double = parse_double(form.double.data, game.set_size)
    if not form.validate() or double is None:
        flash(_("That did not work; nothing was changed."), "error")
    else:
        try:
            burn_double(game, double, form.version.data)
            flash(
                _(
                    "%(d)s burned: the round starts with the next lower double.",
                    d=double_name(double),
                ),
                "success",
            )
        except Conflict:
            flash(_("The game changed on another phone; nothing was burned."), "error")
    return redirect(url_for("games.play", token=token), 303)


@bp.route("/g/<token>/round/<int:number>", methods=["GET", "POST"])
@requires(Role.SCOREKEEPER)
def edit(token: str, number: int) -> Any:
    """Correct a saved round (same checks as a new one), kept in the audit trail."""
    game = _edit(token)
    rnd = next((r for r in scored_rounds(game) if r.number == number), None)
    if rnd is None:
        abort(404)
    if request.method == "GET":
        return _render_game(game=game, editing=rnd)
    if OpenPickerForm().opens():
        return _pick_page(game, rnd)
    form = round_form(game, query.posted())
    tapped = _table_button(game, form, rnd)
    if tapped is not None:
        return tapped
    scored = form.validate_round(game, rnd.start_double)
    if scored is None:
        errors = form.form_errors
        return _render_game(422, game=game, editing=rnd, form=form, errors=errors, changed=False)
    try:
        changed = edit_round(game, rnd, scored, form.version.data)
    except Conflict:
        game = load_game(scorekeeper_game(token))
        errors = [
            _("This round was changed on another phone; here is what is saved now."),
            _("Nothing was replaced: your values are still in the form. Save again to use them."),
        ]
        saved = next((r for r in game.rounds if r.number == number), None)
        # the typed form stays (nothing a phone typed is silently replaced); _game_context
        # gives it the new version, so saving again keeps this phone's values
        return _render_game(
            409,
            game=game,
            editing=saved,
            form=form if saved is not None else None,
            errors=errors,
            conflict=saved,
            plan=plan_round(game),
        )
    if not changed:
        notice = _("Nothing changed in the round with %(d)s.", d=double_name(rnd.start_double))
        return _saved(token, notice, ROUND_CORRECTED)
    return _saved(
        token,
        _("Round with %(d)s corrected.", d=double_name(rnd.start_double)),
        ROUND_CORRECTED,
    )


#: the round form's fields posted by the table box's buttons, which submit the round form (or
#: the correction) as typed, so that nothing typed is lost, without JavaScript too: the
#: auto-save switch ("1" on, "0" off) and the seat lock ("1" lock, "0" unlock)
AUTO_SAVE_FIELD, LOCK_FIELD = "auto_save", "locked"


def _table_button(game: Game, form: RoundForm, editing: Round | None) -> Any | None:
    """The auto-save switch or the seat lock tapped under the round form (or the correction,
    ``editing``): do that and show the same page again with the form as typed (nothing is
    checked or saved); None when the form was posted by anything else."""
    posted = query.posted()
    switch, lock = posted.get(AUTO_SAVE_FIELD), posted.get(LOCK_FIELD)
    if switch is None and lock is None:
        return None
    # a form typed over a round another phone changed since keeps the version it was shown
    # at, so its Save is refused with both values; the buttons themselves change no round
    stale = form.version.data != str(game.version)
    shown = str(form.version.data) if stale else ""
    saved_itself = False
    if switch is not None:
        on = switch == "1"
        said = _("Auto-save is on.") if on else _("Auto-save is off.")
        saved_itself = posts.switch_auto_save(game, on)
    else:
        lock_seats(game, lock == "1")
        said = seats_lock_words(lock == "1")
    game = load_game(scorekeeper_game(game.edit_token))
    if saved_itself:  # the coming round saved itself: the newest one, named as the audit does
        rnd = scored_rounds(game)[-1]
        itself = _(
            "Round %(k)s (%(d)s) saved itself from the posted hands.",
            k=rnd.number,
            d=double_name(rnd.start_double),
        )
        said = f"{said} {itself}"
    # with htmx, the correction page swaps the switch alone out of band; the lock changes the
    # join panel and the table box too, and the game page's switch may save the coming round:
    # the whole game area then
    whole = switch is None or editing is None
    again = partial(_render_again, whole=whole, notice=said, shown_version=shown)
    if editing is not None:
        editing = next((r for r in game.rounds if r.number == editing.number), editing)
        return again(game=game, editing=editing, form=form)
    plan = plan_round(game, clean_missing(game, query.texts("missing")))
    double = parse_double(form.double.data, game.set_size)
    if plan is not None and double == plan.double:
        _take_posts_into_untouched_boxes(game, form, double)
        return again(game=game, plan=plan, form=form, typed=sorted(_typed_by_phone(form)))
    saved = next((r for r in game.rounds if r.start_double == double), None)
    if saved is None or not saved_itself:
        # the game moved on on another phone: it says so, with what is saved now and this
        # phone's values beside it (as a save of this form would be told)
        flash(said, "success")
        return _conflict(game, double, form)
    # this switch saved the form's round from the posted hands: the next round, and this
    # phone's values beside the saved ones when they differ (nothing typed disappears
    # unsaid; "Put mine back in the form" takes them into a correction), as a Save of the
    # form would show them (_conflict: the same rule)
    mine, fields = _beside_saved(game, form, saved)
    return again(
        game=game,
        plan=plan,
        conflict=saved if mine else None,
        mine=mine,
        mine_fields=fields,
    )


def _render_again(*, whole: bool, **kwargs: Any) -> Any:
    """The game page drawn again after a table box button (:func:`_table_button`). With htmx:
    the round area and the auto-save switch out of band, or (``whole``) the whole game area
    (the join panel and the table box changed too, or a round may have been saved)."""
    if not is_htmx():
        return _render_game(**kwargs)
    if not whole:
        return _render_game(**kwargs, changed=False, switched=True)
    html = render_template("games/_game.html", **_game_context(**kwargs))
    return html, 200, retarget("#game")


@bp.post("/g/<token>/undo")
@requires(Role.SCOREKEEPER)
def undo(token: str) -> Any:
    """Undo the last change of the game (a saved round, a correction, a burned double)."""
    game = _edit(token)
    form = VersionForm()
    if not form.validate():
        flash(_("That did not work; nothing was changed."), "error")
    else:
        try:
            entry = undo_last(game, form.version.data)
            said = _("Undone: %(what)s", what=entry_words(entry))
            if entry.action == "round_saved":
                # its hands come back in the round form (_undone_round_data): nothing to type;
                # a hand this phone kept typed otherwise comes back as typed (static/js/table.js)
                back = _(
                    "Its hands are back in the round form as they were saved, or as this phone "
                    "typed them if it typed them otherwise: check them and save the round again."
                )
                said = Markup("{}. {}").format(said, back)
            # Markup survives the session (Flask's tagged JSON); the link is escaped-safe.
            flash(
                Markup('{} <a href="{}">{}</a>').format(
                    said, url_for("games.audit", token=token), _("See it in the audit trail")
                ),
                "success",
            )
        except NothingToUndo:
            flash(_("There is nothing to undo."), "error")
        except Conflict:
            flash(_("The game changed on another phone; nothing was undone."), "error")
    return redirect(url_for("games.play", token=token), 303)


@bp.get("/g/<token>/audit")
@requires(Role.SCOREKEEPER)
def audit(token: str) -> str:
    """The audit trail a page at a time (``?page=N``, 1 = newest): each change, its old and
    new values, and when."""
    game = _edit(token)
    names = {s.id: s.player.name for s in game.seats}
    page = audit_page(game, query.number("page", 1) or 1)
    entries = [(e, changes(e, names)) for e in page.entries]
    return render_template("games/audit.html", game=game, entries=entries, page=page)


@bp.route("/g/<token>/delete", methods=["GET", "POST"])
@requires(Role.SCOREKEEPER, post=Role.HOST)
def delete(token: str) -> Any:
    """Ask, then soft-delete the game; it can be restored for 24 hours."""
    game = _edit(token)
    # On POST the version must come from the form (a default would hide a missing one).
    form = VersionForm() if request.method == "POST" else VersionForm(version=str(game.version))
    if request.method == "POST" and form.validate():
        try:
            delete_game(game, form.version.data)
        except Conflict:
            flash(_("The game changed on another phone; it was not deleted."), "error")
            return redirect(url_for("games.play", token=token), 303)
        return redirect(url_for("games.deleted", token=token), 303)
    return render_template(
        "games/confirm_delete.html", game=game, form=form, board=build_board(game)
    )


@bp.get("/g/<token>/deleted")
@requires(Role.SCOREKEEPER)
def deleted(token: str) -> str:
    """The game was deleted: offer to undo that (for 24 hours), on the scorekeeper's phone."""
    game = deleted_game(token)
    if not keeps_score(game):
        abort(403, description=_("Only the scorekeeper's phone can bring a deleted game back."))
    return render_template("games/confirm_delete.html", game=game, form=VersionForm(), deleted=True)


@bp.post("/g/<token>/restore")
@requires(Role.SCOREKEEPER, Role.HOST)
def restore(token: str) -> Any:
    """Undo the deletion of a game."""
    game = deleted_game(token)
    if not keeps_score(game):
        abort(403, description=_("Only the scorekeeper's phone can bring a deleted game back."))
    form = VersionForm()
    if not form.validate():
        flash(_("That did not work; nothing was changed."), "error")
        return redirect(url_for("games.deleted", token=token), 303)
    restore_game(game)
    flash(_("The game is back."), "success")
    return redirect(url_for("games.play", token=token), 303)


@bp.post("/g/<token>/rematch")
@requires(Role.SCOREKEEPER, Role.HOST)
def rematch_view(token: str) -> Any:
    """Start a new game in the same night with the same players, seats, set and house rules."""
    game = _edit(token)
    form = VersionForm()
    if not form.validate():
        flash(_("That did not work; nothing was changed."), "error")
        return redirect(url_for("games.play", token=token), 303)
    # Idempotent: a second tap (or a tap on another phone) opens the rematch already started.
    new, started = rematch(game)
    if started:
        flash(_("Rematch: a new game with the same players and house rules."), "success")
    else:
        flash(_("The rematch has already started: here it is."), "success")
    remember(new)
    return redirect(url_for("games.play", token=new.edit_token), 303)


@bp.get("/g/<token>/board")
@requires(Role.SCOREKEEPER)
def board(token: str) -> str:
    """The scoreboard fragment for the scorekeeper's page."""
    game = _edit(token)
    board = build_board(game)
    args = _window_args()
    return render_template(
        "games/_scoreboard.html",
        game=game,
        board=board,
        window=board_window(board, args["board_upto"], args["board_who"]),
        board_boost=True,
    )


@bp.get("/s/<share_token>")
@requires(Role.VIEWER)
def shared(share_token: str) -> Any:
    """The read-only live scoreboard for the other phones at the table (``?upto=``,
    ``?who=``: the part of the board to show, as on the game page). The board is the one
    rendering every phone shares (:mod:`companion.render_cache`); a repeat view of an
    unchanged page is ``304 Not Modified``."""
    game = game_for_view(share_token)
    if wants_board():
        return _shared_board_response(game)
    key = _shared_board_key(game)
    etag = render_cache.page_etag(key)
    if etag is not None and render_cache.not_modified(etag):
        return render_cache.unchanged(etag)
    # (a finished game's final standings are part of the board: games/_shared_board.html)
    board_html = render_cache.cached_board(key, lambda: _render_shared_board(game))
    response = make_response(render_template("games/shared.html", game=game, board_html=board_html))
    return render_cache.with_etag(response, etag) if etag is not None else response


def _shared_board_key(game: Game) -> render_cache.BoardKey:
    """The cache key of the read-only board this request asks for (its window, language)."""
    args = _window_args()
    return render_cache.board_key(
        game, render_cache.BoardVariant.SHARED, args["board_upto"], args["board_who"]
    )


def _render_shared_board(game: Game) -> str:
    """The read-only board fragment (a finished game's result, then the scoreboard:
    games/_shared_board.html), rendered only on a cache miss."""
    game = load_game(game)
    board = build_board(game)
    return render_template("games/_shared_board.html", **_shared_board_context(game, board))


def _shared_board_response(game: Game, shown_over: bool | None = None) -> Any:
    """The read-only scoreboard fragment: 304 for a repeat view, else the shared rendering.
    ``shown_over`` (the poll's): whether the page polling shows the game over. When the game's
    end came or went since, the answer also says so in the page's notices (:func:`_game_news`);
    any other answer leaves them alone, so nothing is said again at the next swap."""
    key = _shared_board_key(game)
    over = game.status == GameStatus.FINISHED
    news = shown_over is not None and shown_over != over
    etag = render_cache.etag_for(key, *(["news"] if news else []))
    if render_cache.not_modified(etag):
        return render_cache.unchanged(etag)
    # (the words first: the response's render mark is the board's)
    said = _game_news(game, key) if news else Markup("")
    html = render_cache.cached_board(key, lambda: _render_shared_board(game))
    return render_cache.with_etag(make_response(html + said), etag)


def _game_news(game: Game, key: render_cache.BoardKey) -> Markup:
    """The read-only page's notices, swapped out of band when the game's end came or went
    (templates/games/_game_news.html): "Game over" and who won, rendered once per version and
    language (every phone polling asks at once), or nothing after an undo."""
    if game.status != GameStatus.FINISHED:
        return Markup(render_template("games/_game_news.html"))
    news = replace(key, variant=render_cache.BoardVariant.NEWS, upto=None, who=None)
    return render_cache.cached_board(
        news,
        lambda: render_template("games/_game_news.html", board=build_board(load_game(game))),
    )


def _shared_board_context(game: Game, board: Board) -> dict[str, Any]:
    """The read-only scoreboard ``board`` of ``game`` with the window asked for, polled at
    that window."""
    args = _window_args()
    window = board_window(board, args["board_upto"], args["board_who"])
    return {
        "game": game,
        "board": board,
        "window": window,
        "board_boost": True,
        "poll_url": url_for(
            "games.shared_board",
            share_token=game.share_token,
            v=game.version,
            upto=window.upto,
            who=window.who,
            # the page shows the game over: its poll says when that changes (_game_news)
            over=1 if game.status == GameStatus.FINISHED else None,
        ),
        "poll_seconds": POLL_SECONDS,
    }


@bp.get("/s/<share_token>/board")
@requires(Role.VIEWER)
def shared_board(share_token: str) -> Any:
    """The read-only scoreboard fragment, polled by htmx: 204 (nothing to swap) while the
    game's version is the one the page shows (``?v=``), else the fresh fragment (rendered
    once per version and shared by every phone that asks), a finished game's result with it."""
    game = shared_game(share_token)
    if game.deleted_at is not None:
        # 286 tells htmx to stop polling; the fragment says why the board is gone.
        return render_template("games/_scoreboard.html", game=game, gone=True), 286
    if game.status == GameStatus.FINISHED and (new := live_rematch(game)) is not None:
        # the rematch started: the read-only board follows the table to it
        return navigate(url_for("games.shared", share_token=new.share_token))
    if query.text("v") == str(game.version):
        return Response(status=204)
    return _shared_board_response(game, shown_over=query.text("over") == "1")
