"""Thin views for the history pages: nights, games, players, leaderboard.

Queries live in :mod:`.queries`, final results in :mod:`.results`, statistics in
:mod:`.stats`, chart geometry in :mod:`.charts`; these views only wire them to forms and
templates. Every page is read-only except notes, delete/restore of a night, and renaming and
merging players (POST forms with CSRF, redirect after post).
"""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select

from ..access import Role, requires
from ..engine import SUPPORTED_SETS
from ..extensions import db
from ..models import GameNight, Player, utcnow
from ..services.deletion import restore_hours
from ..services.game_setup import (
    NotesChanged,
    SetupError,
    night_text_seen,
    update_night_notes,
)
from ..services.scoreboard import build_board, step_words
from ..web import query
from . import bp, game_page, looking_back, players, queries
from .aggregates import head_to_head_rows, leaderboard_rows, player_record
from .finished_games import Filters, finished_results
from .forms import (
    ConfirmForm,
    LeaderboardForm,
    MergeForm,
    NightFilterForm,
    NotesForm,
    RenameForm,
    options,
)

PER_PAGE = 10  # nights per page of the list
FILTER_FIELDS = ("q", "player", "date_from", "date_to")
MAX_PAGE = 100_000


@bp.context_processor
def _helpers() -> dict[str, Any]:
    """Template helpers of the history pages: tie-break steps in words."""
    return {"step_words": step_words}


def _page() -> int:
    """The ``page`` query argument: a whole number from 1 (junk or under 1 means 1); a page
    past :data:`MAX_PAGE` is that page, empty like any page past the last, so it is never
    shown as page 1."""
    page = query.number("page") or 1
    return min(page, MAX_PAGE) if page >= 1 else 1


def _valid_dates(form: Any) -> tuple[Any, Any]:
    """The form's date range; ends that did not validate are ignored (their message shows)."""
    start = form.date_from.data if not form.date_from.errors else None
    end = form.date_to.data if not form.date_to.errors else None
    return start, end


# --- game nights ---------------------------------------------------------------------------


@bp.get("/")
@requires(Role.ANYONE)
def index() -> str:
    """Past game nights, newest first, with search, a date range and pages."""
    form = NightFilterForm(query.arguments())
    people = [(p.id, p.name) for p in players.listed_players()]
    form.player.choices = options(people, _("Anyone"))
    form.validate()
    start, end = _valid_dates(form)
    text = form.q.data.strip() if form.q.data and not form.q.errors else ""
    pagination = db.paginate(
        queries.nights_query(text=text, player_id=form.player.data, date_from=start, date_to=end),
        page=_page(),
        per_page=PER_PAGE,
        error_out=False,
    )
    nights = queries.night_summaries(pagination.items)
    # Only the form's own fields are carried over to the page links (never url_for's options).
    filters = {k: v for k in FILTER_FIELDS if (v := query.text(k).strip())}
    return render_template(
        "history/index.html",
        form=form,
        nights=nights,
        pagination=pagination,
        filters=filters,
        searching=bool(filters),
        deleted=queries.recently_deleted_nights(),
    )


def _night_page(the_night: Any, form: NotesForm, status: int = 200) -> tuple[str, int]:
    return render_template(
        "history/night.html",
        night=the_night,
        games=[(g, build_board(g)) for g in queries.live_games(the_night)],
        form=form,
        **looking_back.night_extras(the_night),
    ), status


@bp.get("/nights/<int:night_id>")
@requires(Role.ANYONE)
def night(night_id: int) -> Any:
    """One game night: each game's standings, its rulings, and the notes."""
    the_night = queries.live_night(night_id, full=True)
    return _night_page(the_night, NotesForm(notes=the_night.notes, seen=night_text_seen(the_night)))


@bp.post("/nights/<int:night_id>/notes")
@requires(Role.HOST)
def night_notes(night_id: int) -> Any:
    """Save a night's notes; refused notes are shown again as typed, with the reason. The
    same checks and cleaning as the game night page (services.game_setup.update_night_notes)."""
    the_night = queries.live_night(night_id, full=True)
    form = NotesForm()
    if form.validate():
        try:
            update_night_notes(
                db.session(), the_night, the_night.place, form.notes.data or "", form.seen.data
            )
        except NotesChanged as exc:
            flash(exc.messages[0], "error")
            form.seen.data = night_text_seen(the_night)  # saving again keeps the text
            return _night_page(the_night, form, 409)
        except SetupError as exc:
            for message in exc.messages:
                flash(message, "error")
        else:
            flash(_("Notes saved."), "success")
            return redirect(url_for("history.night", night_id=night_id), 303)
    flash(_("The notes were not saved."), "error")
    return _night_page(the_night, form, 400)


@bp.route("/nights/<int:night_id>/delete", methods=["GET", "POST"])
@requires(Role.ANYONE, post=Role.HOST)
def night_delete(night_id: int) -> Any:
    """Ask, then hide the night (soft delete); it can be restored for a while."""
    the_night = queries.live_night(night_id, full=True)
    form = ConfirmForm()
    if request.method == "POST" and form.validate():
        the_night.deleted_at = utcnow()
        db.session.commit()
        return redirect(url_for("history.night_deleted", night_id=night_id), 303)
    return render_template(
        "history/night_delete.html",
        night=the_night,
        games=queries.live_games(the_night),
        form=form,
        hours=restore_hours(),
    )


@bp.get("/nights/<int:night_id>/deleted")
@requires(Role.ANYONE)
def night_deleted(night_id: int) -> Any:
    """The night was deleted: offer to undo that (a night already back: go to it)."""
    if already := _already_restored(night_id):
        return already
    the_night = queries.deleted_night(night_id)
    return render_template(
        "history/night_delete.html",
        night=the_night,
        form=ConfirmForm(),
        deleted=True,
        hours=restore_hours(),
    )


@bp.post("/nights/<int:night_id>/restore")
@requires(Role.HOST)
def night_restore(night_id: int) -> Any:
    """Undo the deletion of a night (within the restore window). Pressing "Undo delete" twice
    (a double tap, a second tab) leads to the night with "Already restored", not a 404."""
    if already := _already_restored(night_id):
        return already
    the_night = queries.deleted_night(night_id)
    form = ConfirmForm()
    if not form.validate():
        flash(_("That did not work; nothing was changed."), "error")
        return redirect(url_for("history.night_deleted", night_id=night_id), 303)
    the_night.deleted_at = None
    db.session.commit()
    flash(_("The game night is back."), "success")
    return redirect(url_for("history.night", night_id=night_id), 303)


def _already_restored(night_id: int) -> Any:
    """A redirect to the night with the flash "Already restored" when it is not deleted (any
    more); None when it is deleted or unknown (the caller then 404s as usual)."""
    live = db.session.scalar(
        select(GameNight.id).where(GameNight.id == night_id, GameNight.deleted_at.is_(None))
    )
    if live is None:
        return None
    flash(_("Already restored: the game night is back."), "success")
    return redirect(url_for("history.night", night_id=night_id), 303)


# --- a game ----------------------------------------------------------------------------------


@bp.get("/games/<int:game_id>")
@requires(Role.ANYONE)
def game(game_id: int) -> str:
    """A game's history: standings, round grid, chart, audit trail, house rules, rulings."""
    the_game = queries.live_game(game_id)
    # the scoreboard's window is chosen here: its template's own fallback cannot parse numbers
    upto, who = query.number("upto"), query.number("who")
    return render_template("history/game.html", **game_page.context(the_game, upto, who))


@bp.get("/games/<int:game_id>/audit")
@requires(Role.ANYONE)
def game_audit(game_id: int) -> str:
    """A finished or running game's audit trail a page at a time (``?page=N``, 1 = newest)."""
    the_game = queries.live_game(game_id)
    page, entries = game_page.audit_trail(the_game, query.number("page", 1) or 1)
    return render_template("history/audit.html", game=the_game, page=page, entries=entries)


# --- players -------------------------------------------------------------------------------


@bp.get("/players")
@requires(Role.ANYONE)
def players_list() -> str:
    """Everyone who has played (merged entries left out), with their finished games."""
    return render_template("history/players.html", players=players.players_with_games())


def _known_player(player_id: int) -> Player:
    player = db.session.get(Player, player_id)
    if player is None:
        abort(404)
    return player


def _live_player(player_id: int) -> Player:
    """The player, merged or not; 404 when unknown or out of the history (every game of
    theirs deleted: :func:`companion.services.game_setup.in_live_game`)."""
    player = _known_player(player_id)
    players.must_be_listed(players.merge_target(player))
    return player


def _player_page(person: Player, form: RenameForm, status: int = 200) -> tuple[str, int]:
    # Stored standings aggregated in SQL: the page costs the same for 10 games or 10,000.
    opponents = head_to_head_rows(person.id)
    recent = finished_results(player_id=person.id, limit=10)
    stats = player_record(person.id)
    if not stats.games:  # a finished live game puts them in the history: no need to ask
        players.must_be_listed(person)
    return render_template(
        "history/player.html",
        player=person,
        stats=stats,
        opponents=opponents,
        names=players.names([o.opponent_id for o in opponents]),
        recent=[(r, next(s for s in r.seats if s.player_id == person.id)) for r in recent],
        rename_form=form,
        **looking_back.player_rating(person.id, [o.opponent_id for o in opponents[:12]]),
    ), status


@bp.get("/players/<int:player_id>")
@requires(Role.ANYONE)
def player(player_id: int) -> Any:
    """A player's record: games, wins, averages, best and worst, opponents (404 for a player
    whose every game is deleted)."""
    person = _known_player(player_id)
    if person.merged_into_id is not None:  # their history now lives on the kept player
        kept = players.merge_target(person)
        return redirect(url_for("history.player", player_id=kept.id), 302)
    return _player_page(person, RenameForm(name=person.name))


@bp.post("/players/<int:player_id>/rename")
@requires(Role.HOST)
def player_rename(player_id: int) -> Any:
    """Rename a player; names are unique regardless of case. A refused name is shown again
    as typed, with the reason."""
    person = _live_player(player_id)
    if person.merged_into_id is not None:
        abort(404)
    form = RenameForm()
    if form.validate():
        try:
            old = players.rename(person, form.name.data or "")
        except SetupError as exc:
            form.name.errors = list(exc.messages)
        else:
            flash(_("%(old)s is now called %(new)s.", old=old, new=person.name), "success")
            return redirect(url_for("history.player", player_id=player_id), 303)
    # The flash sits at the top of the page, far from the field on a phone: it carries the
    # reason too, so nobody has to scroll to learn what went wrong.
    reasons = " ".join(str(e) for errors in form.errors.values() for e in errors)
    flash(_("The name was not changed: %(reason)s", reason=reasons), "error")
    return _player_page(person, form, 400)


@bp.route("/players/<int:player_id>/merge", methods=["GET", "POST"])
@requires(Role.ANYONE, post=Role.HOST)
def player_merge(player_id: int) -> Any:
    """Merge this player into another entry for the same person: choose, confirm, merge."""
    person = _live_player(player_id)
    if person.merged_into_id is not None:
        abort(404)
    data = query.posted() if request.method == "POST" else query.arguments()
    form = MergeForm(data)
    form.into.choices = options(
        [(p.id, p.name) for p in players.listed_players() if p.id != person.id]
    )
    kept = db.session.get(Player, form.into.data) if form.into.data is not None else None
    if kept is not None and (kept.merged_into_id is not None or kept.id == person.id):
        kept = None
    if kept is None and "into" in data:
        form.into.errors = [_("Choose one of the players in the list.")]
    clashes = players.shared_games(person, kept) if kept else []
    if request.method == "POST" and kept is not None and not clashes and form.validate():
        moved = players.merge(person, kept)
        flash(
            ngettext(
                "%(gone)s and %(kept)s are now one player: %(num)d game moved to %(kept)s.",
                "%(gone)s and %(kept)s are now one player: %(num)d games moved to %(kept)s.",
                moved,
                gone=person.name,
                kept=kept.name,
            ),
            "success",
        )
        return redirect(url_for("history.player", player_id=kept.id), 303)
    return render_template(
        "history/merge.html",
        player=person,
        kept=kept,
        form=form,
        clashes=clashes,
        moving=players.game_count(person) if kept else 0,
    )


# --- leaderboard -----------------------------------------------------------------------------


@bp.get("/leaderboard")
@requires(Role.ANYONE)
def leaderboard_page() -> str:
    """Players ranked over a chosen period and set (finished games only), or by skill rating
    (every finished game: a period is a season, see the seasons page)."""
    form = LeaderboardForm(query.arguments())
    form.validate()
    if form.by_rating:
        return render_template("history/leaderboard.html", form=form, **looking_back.rating_rows())
    start, end = _valid_dates(form)
    size = form.set_size.data if form.set_size.data in SUPPORTED_SETS else None
    # Stored all-time totals (monthly buckets for a date filter): nothing decided or kept here.
    rows = leaderboard_rows(Filters(date_from=start, date_to=end, set_size=size))
    return render_template(
        "history/leaderboard.html",
        form=form,
        rows=rows,
        names=players.names([r.player_id for r in rows]),
    )
