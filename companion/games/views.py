"""Thin views for the score keeper up to the moment a game exists: the home page, game nights,
the new-game page (with its htmx deal preview), the passcode page and the share page.

The work is done by :mod:`companion.services.game_setup` (creation) and
:mod:`companion.access` (links, passcode); these views parse forms, call them and render.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from sqlalchemy import or_, select
from sqlalchemy.orm import selectinload

from ..access import (
    ADMISSION_WINDOW,
    Admitted,
    Role,
    accept_passcode,
    admit_phone,
    count_passcode_try,
    forget_passcode_return,
    joined_share_tokens,
    passcode_needed,
    passcode_return,
    remember,
    remembered_tokens,
    requires,
    too_many_passcodes,
)
from ..engine import SUPPORTED_SETS, preset
from ..extensions import db
from ..ids import is_id
from ..models import Game, GameNight, Player, Seat
from ..services import game_setup as setup
from ..services.scoreboard import board_window, build_board
from ..text import shortened
from ..vocab import GameStatus
from ..web import query
from ..web.game_lookup import scorekeeper_game
from ..web.htmx import is_htmx
from ..web.languages import with_language
from ..web.public_url import init_public_url, public_base, public_url
from ..web.qr import qr_svg
from ..web.redirects import safe_next
from . import bp
from .forms import (
    MORE_NAME_ROWS,
    AdmitForm,
    NewGameForm,
    NightForm,
    NotesForm,
    PasscodeForm,
)

#: a night counts as active on its day and the day after (games often run past midnight)
ACTIVE_DAYS = 1


@bp.record_once
def _init_app(state: Any) -> None:
    """Check ``PUBLIC_URL`` (the share page's links) and give templates ``get_locale()``
    (base.html uses it for ``<html lang>``)."""
    init_public_url(state.app)
    state.app.jinja_env.globals.setdefault("get_locale", get_locale)


# --- links between pages -------------------------------------------------------------------


def play_url(game: Game) -> str:
    """The edit (scorekeeping) link of ``game``: ``/g/<edit_token>``."""
    return url_for("games.play", token=game.edit_token)


def view_url(game: Game) -> str:
    """The read-only scoreboard link of ``game``: ``/s/<share_token>``."""
    return url_for("games.shared", share_token=game.share_token)


@bp.app_context_processor
def _link_helpers() -> dict[str, Any]:
    return {"play_url": play_url, "view_url": view_url, "board_window": board_window}


# --- home ----------------------------------------------------------------------------------


def _with_players(query: Any) -> Any:
    return query.options(
        selectinload(Game.seats).selectinload(Seat.player), selectinload(Game.night)
    )


@bp.get("/")
@requires(Role.ANYONE)
def index() -> ResponseReturnValue:
    """The home page: start a game night, the games this browser keeps score for, and the
    active nights."""
    tokens = remembered_tokens()
    mine: list[Game] = []
    if tokens:
        rows = db.session.scalars(
            _with_players(
                select(Game).where(Game.edit_token.in_(tokens), Game.deleted_at.is_(None))
            )
        ).all()
        order = {t: i for i, t in enumerate(tokens)}
        mine = sorted(rows, key=lambda g: order.get(g.edit_token, len(order)))
    live_games = select(Game.night_id).where(
        Game.status == GameStatus.ACTIVE, Game.deleted_at.is_(None)
    )
    nights = db.session.scalars(
        select(GameNight)
        .where(
            GameNight.deleted_at.is_(None),
            or_(
                GameNight.played_on >= date.today() - timedelta(days=ACTIVE_DAYS),
                GameNight.id.in_(live_games),
            ),
        )
        .order_by(GameNight.played_on.desc(), GameNight.id.desc())
        .limit(20)
    ).all()
    return render_template("games/index.html", mine=mine, joined=_joined_games(), nights=nights)


def _joined_games() -> list[Game]:
    """The games this phone joined a seat of, newest first (its own hand is a tap away)."""
    shares = joined_share_tokens()
    if not shares:
        return []
    rows = db.session.scalars(_with_players(select(Game).where(Game.share_token.in_(shares))))
    order = {t: i for i, t in enumerate(shares)}
    return sorted(rows, key=lambda g: order.get(g.share_token, len(order)))


# --- passcode ------------------------------------------------------------------------------


@bp.route("/passcode", methods=["GET", "POST"])
@requires(Role.ANYONE)
def passcode() -> ResponseReturnValue:
    """Ask for the instance passcode once per browser session (when one is configured).

    Every try is counted in the database first (:func:`companion.access.count_passcode_try`):
    past the limit the answer is 429 with ``Retry-After`` and the passcode is not compared.
    """
    form = PasscodeForm()
    # A page whose path carries a secret (an edit link) is kept in the session, never in the
    # URL or the form (:func:`companion.access.passcode_return`).
    given = query.text("next") or form.next.data
    target = safe_next(given or passcode_return())
    if not passcode_needed():
        forget_passcode_return()
        return redirect(target, code=303)
    if form.validate_on_submit():
        wait = count_passcode_try()
        if wait:
            too_many_passcodes(wait)
        if accept_passcode(form.passcode.data or ""):
            forget_passcode_return()
            return redirect(target, code=303)
        form.passcode.errors = [_("That is not the passcode.")]
    form.next.data = safe_next(given) if given else ""
    return render_template("games/passcode.html", form=form)


@bp.route("/passcode/admit", methods=["GET", "POST"])
@requires(Role.HOST)
def admit_host() -> ResponseReturnValue:
    """The host's phone lets in a phone of the table whose address is past the passcode
    limit (it types the code that phone shows)."""
    return admit_page(url_for("games.admit_host"), url_for("games.index"))


@bp.route("/g/<token>/admit", methods=["GET", "POST"])
@requires(Role.SCOREKEEPER)
def admit_keeper(token: str) -> ResponseReturnValue:
    """The scorekeeper's phone lets in a phone of the table whose address is past the
    passcode limit (it types the code that phone shows)."""
    scorekeeper_game(token)
    return admit_page(
        url_for("games.admit_keeper", token=token), url_for("games.play", token=token)
    )


def admitted_message(admitted: Admitted) -> str:
    """What the scorekeeper's or host's phone is told once it let a phone in."""
    if admitted is Admitted.NEW_PHONE:
        minutes = int(ADMISSION_WINDOW.total_seconds() // 60)
        return ngettext(
            "That phone may open the page again now (within %(num)d minute).",
            "That phone may open the page again now (within %(num)d minutes).",
            minutes,
        )
    return _("That phone may try the passcode now: only its own tries count.")


def admit_page(action: str, back: str) -> ResponseReturnValue:
    """The "Let a phone in" form and its answer (the host's page and the scorekeeper's)."""
    form = AdmitForm()
    if form.validate_on_submit():
        admitted = admit_phone(form.code.data or "")
        if admitted is Admitted.USED:
            form.code.errors = [
                _(
                    "That code was already used: the phone that showed it came in with it. If "
                    "a phone is still refused, it shows a new code on its page: type that one."
                )
            ]
        elif admitted is not Admitted.NOBODY:
            flash(admitted_message(admitted), "success")
            return redirect(back, code=303)
        else:
            form.code.errors = [
                _("No phone shows that code. Check it on the phone and type it again.")
            ]
    return render_template("games/admit.html", form=form, action=action, back=back)


# --- nights --------------------------------------------------------------------------------


def _night_or_404(night_id: int) -> GameNight:
    if not is_id(night_id):  # larger ids overflow the database's integers: unknown
        abort(404)
    night = db.session.get(GameNight, night_id)
    if night is None or night.deleted_at is not None:
        abort(404)
    return night


@bp.route("/nights/new", methods=["GET", "POST"])
@requires(Role.HOST)
def new_night() -> ResponseReturnValue:
    """Start a game night: the date (today by default), an optional place and notes."""
    form = NightForm()
    if form.validate_on_submit():
        try:
            night = setup.create_night(
                db.session(), form.played_on.data, form.place.data or "", form.notes.data or ""
            )
        except setup.SetupError as exc:
            for message in exc.messages:
                flash(message, "error")
        else:
            return redirect(url_for("games.night", night_id=night.id), code=303)
    return render_template("games/night_form.html", form=form)


@bp.route("/nights/<int:night_id>", methods=["GET", "POST"])
@requires(Role.ANYONE, post=Role.HOST)
def night(night_id: int) -> ResponseReturnValue:
    """A game night: its games with their links, and its place and notes (editable)."""
    the_night = _night_or_404(night_id)
    form = NotesForm(obj=the_night) if request.method == "GET" else NotesForm()
    status = 200
    if request.method == "GET":
        form.seen.data = setup.night_text_seen(the_night)
    if request.method == "POST" and form.validate_on_submit():
        try:
            setup.update_night_notes(
                db.session(),
                the_night,
                form.place.data or "",
                form.notes.data or "",
                form.seen.data,
            )
        except setup.NotesChanged as exc:
            flash(exc.messages[0], "error")
            form.seen.data = setup.night_text_seen(the_night)  # saving again keeps the text
            status = 409
        except setup.SetupError as exc:
            for message in exc.messages:
                flash(message, "error")
        else:
            flash(_("Notes saved."), "success")
            return redirect(url_for("games.night", night_id=night_id), code=303)
    games = db.session.scalars(
        _with_players(
            select(Game)
            .where(Game.night_id == night_id, Game.deleted_at.is_(None))
            .order_by(Game.id)
        )
    ).all()
    return render_template(
        "games/night.html",
        night=the_night,
        games=games,
        form=form,
        mine=set(remembered_tokens()),
        winners={g.id: build_board(g).winners for g in games if g.status == GameStatus.FINISHED},
    ), status


# --- new game ------------------------------------------------------------------------------


def _last_game(night: GameNight) -> Game | None:
    """The night's latest game that is not deleted, or None."""
    return db.session.scalars(
        select(Game)
        .where(Game.night_id == night.id, Game.deleted_at.is_(None))
        .order_by(Game.id.desc())
        .limit(1)
    ).first()


def _fresh_game_form(night: GameNight) -> NewGameForm:
    """The new-game form: people seen before, nobody ticked (typing four new names must give
    four players), the players of the night's last game listed first in their seat order;
    "Same players as last game" ticks them in one tap (:func:`_tick_last_players`)."""
    form = NewGameForm(formdata=None)
    last = _last_game(night)
    at_table = [seat.player_id for seat in last.seats] if last else []
    known = setup.known_players(db.session())
    known.sort(key=lambda p: at_table.index(p.id) if p.id in at_table else len(at_table))
    for player in known:
        form.known.append_entry({"player_id": player.id, "plays": False, "seat": None})
    form.set_rules(preset("standard").to_dict(), "standard")
    return form


def _tick_last_players(form: NewGameForm, night: GameNight) -> None:
    """Tick the players of the night's last game, at their seats, and untick everyone else
    (the "Same players as last game" button); typed new names are kept."""
    last = _last_game(night)
    seats = {seat.player_id: seat.position + 1 for seat in last.seats} if last else {}
    for row in form.known:
        seat = seats.get(row.player_id.data) if isinstance(row.player_id.data, int) else None
        row.plays.data = seat is not None
        row.seat.data = seat
        row.seat.raw_data = None  # show the new value, not the one posted


def _chosen_names(form: NewGameForm) -> list[str]:
    """Every player the form chooses, ticked and typed, in the order of the page."""
    names = _player_names(form)
    ticked = [
        names.get(row.player_id.data, "?")
        for row in form.known
        if row.plays.data and isinstance(row.player_id.data, int)
    ]
    typed = [row.form.name.data.strip() for row in form.new if (row.form.name.data or "").strip()]
    return ticked + typed


def _who_is_chosen(form: NewGameForm) -> str:
    """A sentence naming every chosen player, so an error about the players never hides the
    ticked ones (""  when nobody is chosen)."""
    names = _chosen_names(form)
    if not names:
        return ""
    return ngettext(
        "Chosen for this game (%(num)d): %(names)s.",
        "Chosen for this game (%(num)d): %(names)s.",
        len(names),
        names=", ".join(shortened(name) for name in names),
    )


def _choices(form: NewGameForm) -> list[setup.PlayerChoice]:
    choices = [
        setup.PlayerChoice(player_id=row.player_id.data, seat=row.seat.data)
        for row in form.known
        if row.plays.data and row.player_id.data is not None
    ]
    choices += [
        setup.PlayerChoice(name=row.form.name.data, seat=row.seat.data)
        for row in form.new
        if (row.form.name.data or "").strip()
    ]
    return choices


def _preview(form: NewGameForm) -> setup.Preview:
    set_size = form.set_size.data if form.set_size.data in SUPPORTED_SETS else 9
    choices = _choices(form)
    return setup.preview(
        form.preset.data or "",
        set_size,
        form.rule_overrides(),
        len(choices),
        form.chosen_spokes.data,
        setup.choice_problems(db.session(), choices),
    )


def _apply_preset_if_changed(form: NewGameForm) -> bool:
    """Reset the house-rule switches to the chosen preset when it differs from the one they
    show (the preset select was changed, or "apply preset" was pressed). True if reset."""
    chosen = form.preset.data
    try:
        rules = preset(chosen or "")
    except ValueError:
        return False
    if form.apply_preset.data or form.rules.form.applied_preset.data != chosen:
        form.set_rules(rules.to_dict(), chosen)
        return True
    return False


def _player_names(form: NewGameForm) -> dict[int, str]:
    ids = [row.player_id.data for row in form.known if is_id(row.player_id.data)]
    if not ids:
        return {}
    rows = db.session.execute(select(Player.id, Player.name).where(Player.id.in_(ids)))
    return dict(rows.all())


def _render_new_game(night: GameNight, form: NewGameForm, problems: list[str] | None = None):
    problems = list(problems or [])
    if problems and (chosen := _who_is_chosen(form)):
        problems.append(chosen)
    last = _last_game(night)
    return render_template(
        "games/new_game.html",
        night=night,
        form=form,
        names=_player_names(form),
        preview=_preview(form),
        problems=problems,
        last_players=[seat.player.name for seat in last.seats] if last else [],
    )


@bp.route("/nights/<int:night_id>/games/new", methods=["GET", "POST"])
@requires(Role.HOST)
def new_game(night_id: int) -> ResponseReturnValue:
    """Choose players and seats, the set and the house rules, and start a game.

    Buttons without JavaScript: "apply preset", "more name rows" and "update the deal" redisplay
    the page; "start the game" creates it and goes to its scorekeeping page.
    """
    the_night = _night_or_404(night_id)
    if request.method == "GET":
        return _render_new_game(the_night, _fresh_game_form(the_night))
    form = NewGameForm()
    if _apply_preset_if_changed(form):
        if form.create.data:
            flash(_("The house rules now show the chosen preset: check them, then start."), "info")
        return _render_new_game(the_night, form)
    if form.same_players.data:
        _tick_last_players(form, the_night)
        return _render_new_game(the_night, form)
    if form.more_names.data:
        for _i in range(MORE_NAME_ROWS):
            if len(form.new) < form.new.max_entries:
                form.new.append_entry()
        return _render_new_game(the_night, form)
    if not form.create.data:
        return _render_new_game(the_night, form)
    if not form.validate():
        # the reasons first (a too-long name, ...), then who is chosen
        reasons = dict.fromkeys(str(e) for row in form.new for e in row.form.name.errors)
        return _render_new_game(the_night, form, [_("Please correct the marked fields."), *reasons])
    choices = _choices(form)
    try:
        game = setup.create_game(
            db.session(),
            the_night,
            choices,
            form.set_size.data,
            form.preset.data,
            form.rule_overrides(),
            form.chosen_spokes.data,
        )
    except setup.SetupError as exc:
        return _render_new_game(the_night, form, exc.messages)
    # A typed name that sits as someone from History under another spelling is said, not
    # silently replaced (docs/ARCHITECTURE.md, "Players and their names").
    for typed, stored in setup.spelled_otherwise(choices, game):
        flash(
            _(
                "“%(typed)s” is %(name)s from History: the name stays as it is there, so "
                "their games stay together. To change the spelling, rename them in History.",
                typed=shortened(typed),
                name=stored,
            ),
            "info",
        )
    remember(game)
    return redirect(play_url(game), code=303)


@bp.post("/nights/<int:night_id>/games/preview")
@requires(Role.HOST)
def new_game_preview(night_id: int) -> ResponseReturnValue:
    """The deal preview for the new-game form as it stands (htmx: only the fragment, plus the
    house rules out of band when the preset changed; otherwise the whole page)."""
    the_night = _night_or_404(night_id)
    form = NewGameForm()
    reset = _apply_preset_if_changed(form)
    if not is_htmx():
        return _render_new_game(the_night, form)
    return render_template(
        "games/_deal_preview.html", form=form, preview=_preview(form), rules_reset=reset
    )


# --- sharing -------------------------------------------------------------------------------


@bp.get("/g/<token>/share")
@requires(Role.SCOREKEEPER)
def share(token: str) -> ResponseReturnValue:
    """Share a game: the read-only scoreboard link and the edit link, each with a QR code."""
    game = scorekeeper_game(token)
    base, untrusted_host = public_base()
    view_link = public_url(with_language(view_url(game)), base)
    edit_link = public_url(with_language(play_url(game)), base)
    return render_template(
        "games/share.html",
        game=game,
        untrusted_host=request.host if untrusted_host else None,
        view_link=view_link,
        edit_link=edit_link,
        view_qr=qr_svg(view_link, _("QR code of the read-only scoreboard link")),
        edit_qr=qr_svg(edit_link, _("QR code of the scorekeeping link")),
    )
