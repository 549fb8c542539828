"""Who may do what: one access model for every blueprint.

Roles (:class:`Role`), from the weakest:

* ``anyone`` on the network: the home page, the rules checker's questions, history pages;
* ``viewer``: holds a game's link: the share link (``/s/<share>``) shows its live scoreboard;
  the join link (``/j/<join secret>``, shown only on the scorekeeper's screen:
  :func:`join_link`) its seats. The share token is public (exports, night pages) and never
  gives a seat;
* ``player``: a phone that joined a seat of one game (``/p/<share>``): posts that seat's hand;
* ``scorekeeper`` of one game: the phone that keeps its score (``/g/<edit>``). The edit link
  alone is not enough once a phone keeps score: another phone opening it may only *ask* to
  become the scorekeeper (the scorekeeper confirms, or the host's passcode decides);
* ``host``: holds the instance passcode (``COMPANION_PASSCODE``) when one is set. Creating,
  deleting, merging, renaming, importing, editing notes and saving rulings need it.

Every view declares the role it needs with :func:`requires` (a test fails for a route without
a declaration). Phones are known by a random id in their session cookie (:class:`Device`); the
games a phone keeps score for and the seat it joined live in the database
(:class:`GameAccess`), never in the cookie.

Passcode tries are counted in the database before they are judged (:class:`RateCounter`, one
``UPDATE ... RETURNING``), so the limit holds across worker processes and app servers and under
concurrency: per phone, and for phones that are not the table's (:func:`is_table_phone`) per
address and for all of them together. New device ids are limited per address. A phone of the
table that an attacker's tries lock out is let in by a scorekeeper's or the host's phone
(:func:`admit_phone`).
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from functools import wraps
from typing import Any, NoReturn

from flask import (
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import case, delete, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from werkzeug.wrappers import Response as WerkzeugResponse

from .extensions import db
from .models import (
    AuditEntry,
    Device,
    Game,
    GameAccess,
    RateCounter,
    RetiredJoinLink,
    Seat,
    new_token,
    utcnow,
)
from .vocab import AuditCode, JoinLinkChange
from .web.htmx import is_htmx, navigate
from .web.redact import carries_secret


class Role(StrEnum):
    """The roles a request can hold, from the weakest (see the module docstring)."""

    ANYONE = "anyone"
    VIEWER = "viewer"
    PLAYER = "player"
    SCOREKEEPER = "scorekeeper"
    HOST = "host"


class Grant(StrEnum):
    """What a phone holds in one game (:attr:`GameAccess.role`)."""

    SCOREKEEPER = "scorekeeper"
    ASKING = "asking"  # asks to become the scorekeeper; the scorekeeper confirms
    PLAYER = "player"
    # the scorekeeper removed this phone from its seat: kept (without the seat) so that its
    # page says so instead of silently showing the join page; gone when it joins again
    REMOVED = "removed"


#: session key holding this browser's device id (a random token; everything else is server-side)
DEVICE_KEY = "device"
#: The session key of the page to return to after the passcode when its path carries a secret
#: (an edit link): kept out of the passcode page's URL and form, where logs and Referers see it.
PASSCODE_NEXT_KEY = "passcode_next"
#: the session key older versions kept edit tokens under (moved into the database when seen)
LEGACY_KEY = "edit_tokens"
#: how many games the home page lists for a phone; an import remembers at most this many
MAX_REMEMBERED = 40
#: where the request keeps the device once looked up
_CACHE = "companion.device"
#: longest device token accepted from a cookie
MAX_DEVICE_TOKEN = 64


# --- declarations ------------------------------------------------------------------------------


def requires(
    *roles: Role, post: Role | None = None
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare (and, for :attr:`Role.HOST`, enforce) the roles a view needs; ``post`` is the
    role a POST to the same route needs when it differs (a page anyone reads, only the host
    changes).

    The game roles (viewer, player, scorekeeper) are checked where the view looks its game up
    (:func:`scorekeeper_game`, :func:`joined_seat`, ``game_for_view``), because they depend on
    the link in the URL. ``HOST`` sends a browser that has not entered the configured passcode
    to the passcode page (then back here); without a passcode everybody is host.
    """
    wanted = tuple(roles) or (Role.ANYONE,)
    open_to_all = set(wanted) <= {Role.ANYONE, Role.VIEWER}
    posting = ((post,) if open_to_all else (*wanted, post)) if post else wanted

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            needed = posting if request.method == "POST" else wanted
            if Role.HOST in needed and passcode_needed():
                return _to_passcode_page()
            return view(*args, **kwargs)

        wrapper.required_roles = wanted  # type: ignore[attr-defined]
        wrapper.required_roles_post = posting  # type: ignore[attr-defined]
        return wrapper

    return decorate


def declared_roles(view: Callable[..., Any], method: str = "GET") -> tuple[Role, ...] | None:
    """The roles a view declared with :func:`requires` for ``method``, or None when it
    declared none."""
    if method == "POST":
        return getattr(view, "required_roles_post", None)
    return getattr(view, "required_roles", None)


def _to_passcode_page() -> WerkzeugResponse:
    if carries_secret(request.path):
        session[PASSCODE_NEXT_KEY] = request.path
        target = url_for("games.passcode")
    else:
        target = url_for("games.passcode", next=request.path)
    if is_htmx():
        # htmx would swap the passcode page into a fragment; ask it to navigate instead.
        return navigate(target)
    return redirect(target, 303 if request.method == "POST" else 302)


# --- devices -----------------------------------------------------------------------------------


def current_device(*, create: bool = True) -> Device | None:
    """This browser's :class:`Device` (made, and its id put in the session, when ``create``).

    The id is random and says nothing by itself; a cookie naming an unknown id gets a new one.
    """
    cached = request.environ.get(_CACHE)
    if cached is not None:
        return cached
    token = session.get(DEVICE_KEY)
    device = None
    if isinstance(token, str) and 0 < len(token) <= MAX_DEVICE_TOKEN:
        device = db.session.scalar(select(Device).where(Device.token == token))
    if device is None and create:
        with _busy_is_429():
            admitted = _take_admission()
            if not admitted:
                _count_new_device()
            device = Device(token=new_token() + new_token(), admitted_at=admitted)
            db.session.add(device)
            db.session.commit()
        session[DEVICE_KEY] = device.token
        # A long-lived cookie: the scorekeeper's phone must still know its games after the
        # browser is closed (PERMANENT_SESSION_LIFETIME).
        session.permanent = True
    if device is not None:
        request.environ[_CACHE] = device
        _adopt_legacy_tokens(device)
    return device


#: Seconds a phone is asked to wait when the database was too busy to count its try.
BUSY_RETRY_AFTER = 2


@contextmanager
def _busy_is_429() -> Iterator[None]:
    """Answer 429 with ``Retry-After`` when the database is too busy to count a try or make a
    phone (SQLite's "database is locked" past its busy timeout, a PostgreSQL serialization
    failure): many new phones guessing at once gave a 500. Nothing was counted or made, so
    the phone's try is simply not taken yet."""
    try:
        yield
    except OperationalError:
        db.session.rollback()
        body = render_template(
            "error.html",
            code=429,
            title=_("Too many tries"),
            description=_(
                "Many phones are trying to get in at once. Wait a few seconds, then try again."
            ),
        )
        abort(Response(body, status=429, headers={"Retry-After": str(BUSY_RETRY_AFTER)}))


def _count_new_device() -> None:
    """Count a new phone against its address (``NEW_DEVICES_PER_ADDRESS`` per
    :data:`NEW_DEVICES_WINDOW`; unset: no limit) before it is made: a device id costs
    something, so cookies cannot be minted by the hundred. Past the limit: 429."""
    limit = current_app.config.get("NEW_DEVICES_PER_ADDRESS")
    if not limit:
        return
    hits, left = _count(f"device:new:{client_address()}", NEW_DEVICES_WINDOW)
    db.session.commit()
    if hits > int(limit):
        wait = max(math.ceil(left), 1)
        body = render_template(
            "games/passcode_limited.html",
            # (this phone has tried nothing: "Too many tries" told it it had)
            heading=_("Too many new phones"),
            reason=_(
                "Too many new phones from this network address in the last few minutes. "
                "Wait a few minutes, then open the page again."
            ),
            code=_grouped(new_phone_code()),
            after=ngettext(
                "Then open the page again. Or wait %(num)d minute: then this phone gets in "
                "without a code.",
                "Then open the page again. Or wait %(num)d minutes: then this phone gets in "
                "without a code.",
                math.ceil(wait / 60),
            ),
            # (a refused POST has no page to open again: its form is on the page before)
            again=request.path if request.method == "GET" else None,
            again_label=_("Open the page again"),
        )
        # (no-store: the page holds this phone's admit code, whatever path it answers)
        headers = {"Retry-After": str(wait), "Cache-Control": "no-store"}
        abort(Response(body, status=429, headers=headers))


def new_phone_code() -> str:
    """The admit code of a phone refused by the new-phone limit: kept in its signed session
    cookie only (it has no device, and nothing is stored for it), the same code on every
    refusal while it is valid. Its last characters are a MAC of the first and of the time
    (:func:`_code_check`), so a code typed on the scorekeeper's phone is known to be issued
    here and recent without a row per refused request."""
    kept = session.get(NEW_PHONE_CODE_KEY)
    if isinstance(kept, str) and _issued_to_a_new_phone(kept):
        return kept
    half = ADMIT_CODE_LENGTH // 2
    nonce = "".join(secrets.choice(ADMIT_ALPHABET) for _ in range(half))
    code = nonce + _code_check(nonce, _code_period())
    session[NEW_PHONE_CODE_KEY] = code
    return code


def _code_period(moment: datetime | None = None) -> int:
    """The number of the :data:`NEW_PHONE_CODE_PERIOD` a moment (now) falls in."""
    moment = moment or utcnow()
    return int(moment.timestamp() // NEW_PHONE_CODE_PERIOD.total_seconds())


def _code_check(nonce: str, period: int) -> str:
    """The check characters of a new phone's code: an HMAC (the secret key) of its random
    characters and the period it was issued in, written in :data:`ADMIT_ALPHABET`."""
    key = str(current_app.config.get("SECRET_KEY", "")).encode()
    mac = hmac.new(key, f"new-phone\n{nonce}\n{period}".encode(), hashlib.sha256).digest()
    return "".join(ADMIT_ALPHABET[b % len(ADMIT_ALPHABET)] for b in mac[: len(nonce)])


def _issued_to_a_new_phone(code: str) -> bool:
    """True when ``code`` was issued by :func:`new_phone_code` in this period or the one
    before (so a code is good for one to two periods)."""
    half = ADMIT_CODE_LENGTH // 2
    if len(code) != ADMIT_CODE_LENGTH or not set(code) <= set(ADMIT_ALPHABET):
        return False  # (compare_digest takes ASCII only: "ÄÖÜ" typed must not be a 500)
    now = _code_period()
    return any(
        hmac.compare_digest(code[half:], _code_check(code[:half], period))
        for period in (now, now - 1)
    )


def _admission_key(code: str) -> str:
    return f"admit:new:{code}"


def _used_key(code: str) -> str:
    # a new phone's code once that phone came in with it: typed again, it is told so (not
    # "may open the page again"); kept while the code could still be typed
    return f"admit:used:{code}"


def _take_admission() -> datetime | None:
    """When a scorekeeper's or the host's phone typed this phone's new-phone code in the last
    :data:`ADMISSION_WINDOW`: use the admission up (it lets one device in) and return when it
    was given; else None."""
    code = session.get(NEW_PHONE_CODE_KEY)
    if not isinstance(code, str) or len(code) != ADMIT_CODE_LENGTH:
        return None
    key = _admission_key(code)
    given = db.session.scalar(select(RateCounter.window_start).where(RateCounter.key == key))
    if given is None:
        return None
    taken = db.session.execute(
        delete(RateCounter)
        .where(RateCounter.key == key, RateCounter.window_start == given)
        .execution_options(synchronize_session=False)
    )
    session.pop(NEW_PHONE_CODE_KEY, None)
    if not getattr(taken, "rowcount", 0) or given <= utcnow() - ADMISSION_WINDOW:
        return None
    try:
        with db.session.begin_nested():
            db.session.add(RateCounter(key=_used_key(code), window_start=utcnow(), hits=1))
    except IntegrityError:
        pass  # (the same code used twice: once is remembered)
    return given


def _admit_new_phone(code: str) -> Admitted:
    """Keep an admission for the new phone showing ``code`` (issued here and recent): its
    next request makes its device past the new-phone limit (:attr:`Admitted.NEW_PHONE`); a
    code that phone already came in with is :attr:`Admitted.USED`. Admissions older than
    :data:`ADMISSION_WINDOW`, and used codes too old to be typed, are deleted here, so their
    rows stay few."""
    if not _issued_to_a_new_phone(code):
        return Admitted.NOBODY
    now = utcnow()
    for prefix, age in (
        (_admission_key(""), ADMISSION_WINDOW),
        (_used_key(""), 2 * NEW_PHONE_CODE_PERIOD),
    ):
        db.session.execute(
            delete(RateCounter).where(
                RateCounter.key.startswith(prefix, autoescape=True),
                RateCounter.window_start <= now - age,
            )
        )
    if db.session.get(RateCounter, _used_key(code)) is not None:
        return Admitted.USED
    key = _admission_key(code)
    db.session.execute(delete(RateCounter).where(RateCounter.key == key))
    try:
        with db.session.begin_nested():
            db.session.add(RateCounter(key=key, window_start=now, hits=0))
    except IntegrityError:
        pass  # typed on two phones at once: the other's admission is the same
    return Admitted.NEW_PHONE


def _adopt_legacy_tokens(device: Device) -> None:
    """Move edit tokens an older version kept in the cookie into the database (once)."""
    if LEGACY_KEY not in session:
        return  # (a pop of a missing key would still mark the cookie as changed)
    tokens = session.pop(LEGACY_KEY, None)
    if not isinstance(tokens, list):
        return
    clean = [t for t in tokens if isinstance(t, str) and len(t) <= 40][:MAX_REMEMBERED]
    for game in db.session.scalars(select(Game).where(Game.edit_token.in_(clean))):
        if not scorekeepers(game):
            _grant(device, game, Grant.SCOREKEEPER)
    db.session.commit()


def _grant(device: Device, game: Game, role: Grant, seat: Seat | None = None) -> GameAccess:
    row = GameAccess(game_id=game.id, device_id=device.id, role=str(role), seat=seat)
    db.session.add(row)
    return row


def _rows(game: Game, role: Grant) -> list[GameAccess]:
    return list(
        db.session.scalars(
            select(GameAccess)
            .where(GameAccess.game_id == game.id, GameAccess.role == str(role))
            .order_by(GameAccess.id)
        )
    )


def scorekeepers(game: Game) -> list[GameAccess]:
    """The phones that keep ``game``'s score (usually one; a second only when added)."""
    return _rows(game, Grant.SCOREKEEPER)


def keeps_score(game: Game) -> bool:
    """True when this phone is one of ``game``'s scorekeepers."""
    return holds(current_device(create=False), game, Grant.SCOREKEEPER)


def holds(device: Device | None, game: Game, role: Grant) -> bool:
    """True when ``device`` holds ``role`` in ``game``."""
    if device is None:
        return False
    return (
        db.session.scalar(
            select(GameAccess.id).where(
                GameAccess.game_id == game.id,
                GameAccess.device_id == device.id,
                GameAccess.role == str(role),
            )
        )
        is not None
    )


# --- scorekeeping ------------------------------------------------------------------------------


class NotScorekeeper(Exception):
    """This phone does not keep score for the game (another phone does)."""

    def __init__(self, game: Game, was: bool) -> None:
        super().__init__(game.id)
        self.game = game
        #: True when this phone kept score until it was handed over (it is told so)
        self.was = was


def claim_or_check_scorekeeper(game: Game) -> None:
    """Let this phone keep score for ``game``: it already does, or nobody does yet (then the
    edit link makes it the scorekeeper, as when the game was started on it).

    Raises :class:`NotScorekeeper` when another phone keeps score.
    """
    device = current_device()
    assert device is not None
    keepers = scorekeepers(game)
    if any(k.device_id == device.id for k in keepers):
        return
    if not keepers:
        try:
            _grant(device, game, Grant.SCOREKEEPER)
            db.session.commit()
            return
        except IntegrityError:
            db.session.rollback()
    # Only the handovers' entries: the whole trail grows with every round.
    handed_over = db.session.scalars(
        select(AuditEntry.before).where(
            AuditEntry.game_id == game.id, AuditEntry.action == AuditCode.SCOREKEEPER_MOVED
        )
    )
    was = any(device.id in (before or {}).get("devices", []) for before in handed_over)
    raise NotScorekeeper(game, was)


def _grant_to_this_phone(game: Game, grant: Grant) -> None:
    """Give this phone ``grant`` in ``game`` unless it holds it; a double tap racing itself
    meets the unique constraint and finds the grant already there."""
    device = current_device()
    assert device is not None
    if not holds(device, game, grant):
        try:
            _grant(device, game, grant)
            db.session.commit()
        except IntegrityError:
            db.session.rollback()


def remember(game: Game) -> None:
    """Make this phone a scorekeeper of ``game`` (the phone that started or imported it)."""
    _grant_to_this_phone(game, Grant.SCOREKEEPER)


def forget(game: Game) -> None:
    """This phone stops keeping score for ``game`` (no error when it did not)."""
    device = current_device(create=False)
    if device is None:
        return
    db.session.execute(
        delete(GameAccess).where(
            GameAccess.game_id == game.id,
            GameAccess.device_id == device.id,
            GameAccess.role == str(Grant.SCOREKEEPER),
        )
    )
    db.session.commit()


def joined_share_tokens() -> list[str]:
    """The share tokens of the games this phone joined a seat of, newest first (at most
    :data:`MAX_REMEMBERED`; deleted games left out): the player's home page lists them."""
    device = current_device(create=False)
    if device is None:
        return []
    rows = db.session.scalars(
        select(Game.share_token)
        .join(GameAccess, GameAccess.game_id == Game.id)
        .where(
            GameAccess.device_id == device.id,
            GameAccess.role == str(Grant.PLAYER),
            Game.deleted_at.is_(None),
        )
        .order_by(GameAccess.id.desc())
        .limit(MAX_REMEMBERED)
    )
    return list(rows)


def remembered_tokens() -> list[str]:
    """The edit tokens of the games this phone keeps score for, newest first (at most
    :data:`MAX_REMEMBERED`; deleted games included)."""
    device = current_device(create=LEGACY_KEY in session)
    if device is None:
        return []
    rows = db.session.scalars(
        select(Game.edit_token)
        .join(GameAccess, GameAccess.game_id == Game.id)
        .where(GameAccess.device_id == device.id, GameAccess.role == str(Grant.SCOREKEEPER))
        .order_by(GameAccess.id.desc())
        .limit(MAX_REMEMBERED)
    )
    return list(rows)


def ask_to_keep_score(game: Game) -> None:
    """This phone asks to become ``game``'s scorekeeper (the scorekeeper confirms)."""
    _grant_to_this_phone(game, Grant.ASKING)


def asking(game: Game) -> list[GameAccess]:
    """Phones asking to keep ``game``'s score, oldest first."""
    return _rows(game, Grant.ASKING)


def seated_name(game: Game, device_id: int) -> str | None:
    """The name of the player whose seat the phone ``device_id`` joined, if any: a request
    to keep score (and its handover) then names the player, not "another phone"."""
    names = {seat.id: seat.player.name for seat in game.seats}
    for row in _rows(game, Grant.PLAYER):
        if row.device_id == device_id and row.seat_id in names:
            return names[row.seat_id]
    return None


def asker_names(game: Game) -> dict[int, str]:
    """Request row id -> the player's name, for the phones asking to keep score that joined
    a seat (:func:`seated_name`)."""
    named = {row.id: seated_name(game, row.device_id) for row in asking(game)}
    return {row_id: name for row_id, name in named.items() if name}


@dataclass(frozen=True)
class Handover:
    """A finished handover: the phones that lost and gained the scorekeeper's right."""

    from_devices: tuple[int, ...]
    to_device: int


def hand_over(
    game: Game, asking_id: int, *, keep_old: bool = False, by: Device | None = None
) -> Handover | None:
    """Give scorekeeping to the phone of ``asking_id`` (a :class:`GameAccess` row asking).

    The old scorekeeper loses the right at once (its next request is refused and says so),
    unless ``keep_old`` (the scorekeeper adds a second one on purpose). ``by``: the phone that
    hands over; only it stops keeping score (a second scorekeeper added on purpose keeps its
    right). Without ``by`` (a take-over with the passcode) every old scorekeeper stops.
    Returns None when the request is no longer there. The caller records it in the audit
    trail and commits.
    """
    row = db.session.get(GameAccess, asking_id)
    if row is None or row.game_id != game.id or row.role != str(Grant.ASKING):
        return None
    old = tuple(k.device_id for k in scorekeepers(game) if by is None or k.device_id == by.id)
    if not keep_old:
        db.session.execute(
            delete(GameAccess).where(
                GameAccess.game_id == game.id,
                GameAccess.role == str(Grant.SCOREKEEPER),
                GameAccess.device_id.in_(old),
            )
        )
    db.session.execute(
        update(GameAccess)
        .where(GameAccess.id == row.id)
        .values(role=str(Grant.SCOREKEEPER), granted_at=utcnow())
    )
    return Handover(() if keep_old else old, row.device_id)


def refuse_asking(game: Game, asking_id: int) -> None:
    """Drop a phone's request to keep score (the caller commits)."""
    db.session.execute(
        delete(GameAccess).where(
            GameAccess.id == asking_id,
            GameAccess.game_id == game.id,
            GameAccess.role == str(Grant.ASKING),
        )
    )


# --- joined players ----------------------------------------------------------------------------


class SeatTaken(Exception):
    """Another phone joined that seat."""


class SeatsLocked(Exception):
    """The scorekeeper locked the seats: no phone may join one."""


def join_link(game: Game) -> str:
    """The path of ``game``'s join link (``/j/<join secret>``): the one place it is built. It
    is shown only on the scorekeeper's screen (link and QR code); the share token, which
    exports and night pages show, never gives a seat."""
    return url_for("table.join", join_token=game.join_token)


def joined_seat(game: Game, device: Device | None = None) -> Seat | None:
    """The seat of ``game`` this phone joined, or None."""
    device = device or current_device(create=False)
    if device is None:
        return None
    return db.session.scalar(
        select(Seat)
        .join(GameAccess, GameAccess.seat_id == Seat.id)
        .where(
            GameAccess.game_id == game.id,
            GameAccess.device_id == device.id,
            GameAccess.role == str(Grant.PLAYER),
        )
    )


def seat_phones(game: Game) -> dict[int, GameAccess]:
    """Seat id -> the phone that joined it."""
    return {r.seat_id: r for r in _rows(game, Grant.PLAYER) if r.seat_id is not None}


def join_seat(game: Game, seat: Seat) -> None:
    """This phone takes ``seat`` (leaving any other seat of the game it held).

    Raises :class:`SeatTaken` when another phone holds it (also when two phones tap the same
    seat at once: the database keeps one), :class:`SeatsLocked` when the seats are locked.
    """
    if game.seats_locked:
        raise SeatsLocked()
    device = current_device()
    assert device is not None
    holder = seat_phones(game).get(seat.id)
    if holder is not None:
        if holder.device_id == device.id:
            return
        raise SeatTaken()
    db.session.execute(
        delete(GameAccess).where(
            GameAccess.game_id == game.id,
            GameAccess.device_id == device.id,
            GameAccess.role == str(Grant.PLAYER),
        )
    )
    _forget_removal(game, device.id)
    try:
        _grant(device, game, Grant.PLAYER, seat)
        db.session.commit()
    except IntegrityError as exc:
        db.session.rollback()
        raise SeatTaken() from exc


def free_seat(game: Game, seat_id: int) -> bool:
    """The scorekeeper removes a phone from a seat (it is no longer joined). True if one was
    freed. The join secret changes too: the removed phone (or whoever copied the old link)
    cannot take the seat back first; the scorekeeper's screen shows the new link and QR code."""
    row = db.session.scalar(
        select(GameAccess).where(
            GameAccess.game_id == game.id,
            GameAccess.seat_id == seat_id,
            GameAccess.role == str(Grant.PLAYER),
        )
    )
    if row is None:
        return False
    _forget_removal(game, row.device_id)  # (removed twice: one row per phone and game)
    row.role, row.seat_id = str(Grant.REMOVED), None
    _new_join_secret(game, JoinLinkChange.SEAT_FREED)
    db.session.commit()
    return True


def _forget_removal(game: Game, device_id: int) -> None:
    db.session.execute(
        delete(GameAccess).where(
            GameAccess.game_id == game.id,
            GameAccess.device_id == device_id,
            GameAccess.role == str(Grant.REMOVED),
        )
    )


def removed_from_seat(game: Game) -> bool:
    """True when the scorekeeper removed this phone from its seat of ``game`` (and it has not
    joined again since)."""
    return holds(current_device(create=False), game, Grant.REMOVED)


def lock_seats(game: Game, locked: bool) -> None:
    """Lock (everyone is in: no phone may join) or unlock the seats; unlocking makes a new
    join secret, so a link seen before the lock does not open a seat afterwards."""
    if not locked and game.seats_locked:
        _new_join_secret(game, JoinLinkChange.SEATS_UNLOCKED)
    db.session.execute(update(Game).where(Game.id == game.id).values(seats_locked=locked))
    db.session.commit()
    db.session.refresh(game)


def seats_lock_words(locked: bool) -> str:
    """What the scorekeeper is told once the seats are locked (``locked``) or unlocked (with a
    new join link, :func:`lock_seats`): said by the seat lock's own form and by the round form
    that carries the lock button (the typing kept)."""
    if locked:
        return _("Seats locked: no other phone can join this game.")
    return _("Seats unlocked, with a new join link: phones can join again.")


def _new_join_secret(game: Game, reason: JoinLinkChange) -> None:
    """Replace ``game``'s join secret; the old one is kept only as a digest
    (:class:`RetiredJoinLink`) with the ``reason``, so its link can say what happened (the
    caller commits)."""
    old = db.session.scalar(select(Game.join_token).where(Game.id == game.id))
    # a plain UPDATE: the game's version (optimistic locking of its rounds) stays as it is
    db.session.execute(update(Game).where(Game.id == game.id).values(join_token=new_token()))
    if old:
        try:
            with db.session.begin_nested():
                db.session.add(
                    RetiredJoinLink(digest=_join_digest(old), game_id=game.id, reason=reason)
                )
        except IntegrityError:
            pass  # (two phones removed at once: both replaced the same secret, kept once)


def _join_digest(token: str) -> str:
    # a join secret is 128 random bits: its plain SHA-256 cannot be turned back into it
    return hashlib.sha256(token.encode()).hexdigest()


def replaced_join_link(token: str) -> RetiredJoinLink | None:
    """The record of ``token`` when it is a join secret the scorekeeper replaced (of a game not
    deleted), or None: its link opens nothing, but can say what happened and where the new one
    is."""
    return db.session.scalar(
        select(RetiredJoinLink)
        .join(Game, Game.id == RetiredJoinLink.game_id)
        .where(RetiredJoinLink.digest == _join_digest(token), Game.deleted_at.is_(None))
    )


# --- the optional instance passcode ------------------------------------------------------------

#: session key holding a digest of the passcode this browser entered (not the passcode itself)
PASSCODE_KEY = "passcode_digest"
#: passcode tries one phone may make per window
PHONE_LIMIT = 5
#: passcode tries all phones of one address that are not the table's may make per window
ADDRESS_LIMIT = 10
#: passcode tries all phones that are not the table's may make per window, every address
#: together (an attacker with many addresses still gets this many, not 10 per address)
STRANGERS_LIMIT = 30
#: the rate-limit window of passcode tries
WINDOW = timedelta(minutes=1)
#: the window of new phones (device ids) per address (config ``NEW_DEVICES_PER_ADDRESS``)
NEW_DEVICES_WINDOW = timedelta(minutes=10)
#: letters of the code a limited phone shows to be let in (no 0/O, 1/I/L to misread)
ADMIT_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
#: characters of that code
ADMIT_CODE_LENGTH = 8
#: the session key of the admit code of a phone refused by the new-phone limit (it has no
#: device to keep it on)
NEW_PHONE_CODE_KEY = "new_phone_code"
#: a new phone's admit code is good in the period it was issued in and the next one
NEW_PHONE_CODE_PERIOD = timedelta(minutes=15)
#: how long an admission typed for a new phone waits for that phone's next request
ADMISSION_WINDOW = timedelta(minutes=10)


def _passcode() -> str:
    return current_app.config.get("COMPANION_PASSCODE") or ""


def _digest(passcode: str) -> str:
    # Tied to the secret key and the passcode: changing either asks every browser again.
    key = str(current_app.config.get("SECRET_KEY", "")).encode()
    return hmac.new(key, passcode.encode(), hashlib.sha256).hexdigest()


def is_host() -> bool:
    """True when no passcode is configured, or this browser entered it."""
    return not passcode_needed()


def passcode_needed() -> bool:
    """True when a passcode is configured and this browser session has not entered it."""
    passcode = _passcode()
    if not passcode:
        return False
    given = session.get(PASSCODE_KEY)
    return not (isinstance(given, str) and hmac.compare_digest(given, _digest(passcode)))


def entered_passcode() -> bool:
    """True when a passcode is configured and this browser entered it: the host proper
    (without a passcode everybody is host, but nobody is this)."""
    return bool(_passcode()) and not passcode_needed()


def passcode_return() -> str | None:
    """The page kept in the session to return to after the passcode (a path with a secret,
    see :func:`_to_passcode_page`), or None."""
    kept = session.get(PASSCODE_NEXT_KEY)
    return kept if isinstance(kept, str) else None


def forget_passcode_return() -> None:
    """Drop the page kept to return to after the passcode (once it is used)."""
    session.pop(PASSCODE_NEXT_KEY, None)


def accept_passcode(given: str) -> bool:
    """Compare ``given`` with the configured passcode in constant time; on a match remember it
    for this browser session. Returns False when no passcode is configured or it differs."""
    passcode = _passcode()
    if not passcode or not hmac.compare_digest(given.encode(), passcode.encode()):
        return False
    session[PASSCODE_KEY] = _digest(passcode)
    return True


def passcode_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a view that only the host may use (same as ``requires(Role.HOST)``)."""
    return requires(Role.HOST)(view)


def client_address() -> str:
    """The phone's network address (the proxy's client address when ``TRUSTED_PROXIES`` is
    set: werkzeug's ProxyFix rewrote ``remote_addr``), bounded for a bucket's key."""
    return (request.remote_addr or "?")[:60]


def _count(key: str, window: timedelta) -> tuple[int, float]:
    """Count one hit in bucket ``key`` and return (hits in the window, seconds until the
    window ends): one UPDATE ... RETURNING (or the first INSERT), so concurrent requests on
    any number of workers each get their own count: no check-then-count race."""
    now = utcnow()
    for _attempt in range(3):
        stale = RateCounter.window_start <= now - window
        row = db.session.execute(
            update(RateCounter)
            .where(RateCounter.key == key)
            .values(
                hits=case((stale, 1), else_=RateCounter.hits + 1),
                window_start=case((stale, now), else_=RateCounter.window_start),
            )
            .returning(RateCounter.hits, RateCounter.window_start)
            .execution_options(synchronize_session=False)
        ).one_or_none()
        if row is not None:
            return row.hits, (row.window_start + window - now).total_seconds()
        try:
            with db.session.begin_nested():
                db.session.add(RateCounter(key=key, window_start=now, hits=1))
            return 1, window.total_seconds()
        except IntegrityError:
            continue
    return 1, window.total_seconds()  # (never: the row exists after a failed INSERT)


def is_table_phone(device: Device) -> bool:
    """True for a phone of the table: it keeps score of or joined a seat of a game not
    deleted (which takes an edit link or the join secret shown on the scorekeeper's screen),
    or a scorekeeper's or the host's phone let it in (:func:`admit_phone`)."""
    if device.admitted_at is not None:
        return True
    return (
        db.session.scalar(
            select(GameAccess.id)
            .join(Game, Game.id == GameAccess.game_id)
            .where(
                GameAccess.device_id == device.id,
                GameAccess.role.in_([str(Grant.SCOREKEEPER), str(Grant.PLAYER)]),
                Game.deleted_at.is_(None),
            )
            .limit(1)
        )
        is not None
    )


def _buckets(device: Device) -> list[tuple[str, int]]:
    """The buckets a passcode try from ``device`` counts in, with their limits: its own, and
    for a phone that is not the table's its address's and all strangers' together (however
    many cookies an attacker makes, or however old they are)."""
    buckets = [(f"passcode:phone:{device.id}", PHONE_LIMIT)]
    if not is_table_phone(device):
        buckets.append((f"passcode:address:{client_address()}", ADDRESS_LIMIT))
        buckets.append(("passcode:strangers", STRANGERS_LIMIT))
    return buckets


def count_passcode_try() -> int:
    """Count this try against every bucket of this phone *before* the passcode is compared,
    and return the seconds to wait when one is past its limit (0: judge the passcode).
    Counted first and atomically (:func:`_count`): 40 tries at once from one phone get 5
    judged, not whatever passed a check before any was counted."""
    device = current_device()
    assert device is not None
    wait = 0.0
    with _busy_is_429():
        for key, limit in _buckets(device):
            hits, left = _count(key, WINDOW)
            if hits > limit:
                wait = max(wait, left)
        db.session.commit()
    return math.ceil(wait) if wait else 0


def admit_code(device: Device) -> str:
    """The code ``device`` shows when it is limited (made once, kept): a scorekeeper's or the
    host's phone types it to let this phone in, shown grouped as ``ABCD-EFGH``."""
    if device.admit_code is None:
        for _attempt in range(5):
            code = "".join(secrets.choice(ADMIT_ALPHABET) for _ in range(ADMIT_CODE_LENGTH))
            try:
                with db.session.begin_nested():
                    device.admit_code = code
                break
            except IntegrityError:
                continue
        db.session.commit()
    return _grouped(device.admit_code or "")


def _grouped(code: str) -> str:
    """An admit code as shown: ``ABCD-EFGH``."""
    half = ADMIT_CODE_LENGTH // 2
    return f"{code[:half]}-{code[half:]}"


class Admitted(StrEnum):
    """What typing an admit code did (:func:`admit_phone`)."""

    NOBODY = "nobody"  # no phone shows that code (never issued, mistyped or too old)
    PHONE = "phone"  # a phone past the passcode limit: it may try the passcode
    NEW_PHONE = "new_phone"  # a phone past the new-phone limit: it may open the page again
    USED = "used"  # a new phone's code typed again after that phone came in with it


def admit_phone(typed: str) -> Admitted:
    """Let in the phone showing the code ``typed`` (dashes, spaces and case ignored): a phone
    refused passcode tries counts only its own tries from now on (it still has to know the
    passcode); a phone refused by the new-phone limit gets its device on its next request
    (within :data:`ADMISSION_WINDOW`), past that limit."""
    code = "".join(ch for ch in typed.upper() if ch.isalnum())[:ADMIT_CODE_LENGTH]
    if len(code) != ADMIT_CODE_LENGTH:
        return Admitted.NOBODY
    result = db.session.execute(
        update(Device)
        .where(Device.admit_code == code)
        .values(admitted_at=utcnow(), admit_code=None)
        .execution_options(synchronize_session=False)
    )
    admitted = Admitted.PHONE if getattr(result, "rowcount", 0) else Admitted.NOBODY
    if admitted is Admitted.NOBODY:
        admitted = _admit_new_phone(code)
    db.session.commit()
    return admitted


def too_many_passcodes(wait: int) -> NoReturn:
    """Abort with 429 and ``Retry-After`` in seconds; the page shows the code with which a
    scorekeeper's or the host's phone lets this phone in (when it is not the table's yet)."""
    device = current_device()
    assert device is not None
    body = render_template(
        "games/passcode_limited.html",
        reason=_("Too many wrong passcodes. Wait a minute and try again."),
        code=None if is_table_phone(device) else admit_code(device),
        after=_("Then enter the passcode again: only this phone's own tries count."),
        again=url_for("games.passcode"),
        again_label=_("Enter the passcode"),
    )
    abort(Response(body, status=429, headers={"Retry-After": str(max(wait, 1))}))
