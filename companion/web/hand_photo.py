"""The request-level half of a hand's photo (the plain half is
:mod:`companion.services.hand_photo`): the uploaded photo read within its own size bound and
CSRF-checked (:func:`uploaded_photo`), a photo page's answer to an upload
(:func:`read_or_refuse`), the page's form (:func:`page_context`), and the round-form drafts kept
in the session while a photo is taken (one :class:`Draft` each: :func:`keep_draft`,
:func:`photo_double`, :func:`put_tiles_in_draft`, :func:`draft_fits`,
:func:`draft_to_show`, :func:`take_draft`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from flask import current_app, flash, request, session
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFError, validate_csrf
from itsdangerous import BadSignature, Signer
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import RequestEntityTooLarge
from wtforms import ValidationError

from ..models import Game
from ..pips import MAX_BYTES, PhotoError, PhotoProblem
from ..services import hand_photo
from ..services.photo_gate import PhotoBusy
from ..services.round_check import HandPart, hand_field
from ..services.round_plan import plan_round
from . import query
from .photo_gate import reading_slot
from .round_form import parse_double

#: Session key of the round-form drafts kept while a photo is taken: draft key -> its record
#: (:meth:`Draft.stored`).
DRAFTS = "drafts"
#: The session keys older versions kept a draft under, in three parts (its fields, whether it
#: was shown, its photo's seat). Dropped at the first look at the drafts, never read: a phone
#: carrying them over a deploy (mid game night) loses at most the one draft it had open for a
#: photo (that photo is taken again), while reading them would keep a second shape of the
#: draft in the code for good, and leaving them would send them with every request.
OLD_DRAFT_KEYS = ("round_drafts", "round_drafts_shown", "round_drafts_photo_seat")
#: Room for the multipart envelope around the photo, in bytes.
ENVELOPE = 64 * 1024
#: The confirm form's field carrying the reading back (signed: only what the server drew).
READING_FIELD = "reading"


def uploaded_photo(check_csrf: bool) -> bytes | None:
    """The bytes of the photo in this request's ``photo`` field, or None when there is none
    (no such field, or a form sent with no file chosen: a part without a file name).

    The app-wide body limit (1 MiB) is raised to :data:`MAX_BYTES` for this request first,
    so the view must be exempt from the global CSRF check (which reads the form before any
    view runs); ``check_csrf`` then checks the token here, raising ``CSRFError`` as the
    global check would. An upload over the limit raises :class:`PhotoError`.
    """
    request.max_content_length = MAX_BYTES + ENVELOPE
    try:
        if check_csrf and current_app.config.get("WTF_CSRF_ENABLED", True):
            try:
                validate_csrf(query.posted().get("csrf_token"))
            except ValidationError as error:
                raise CSRFError(error.args[0]) from None
        upload = query.upload(hand_photo.PHOTO_FIELD)
    except RequestEntityTooLarge:
        raise PhotoError(
            PhotoProblem.TOO_MANY_BYTES, size=request.content_length or 0, limit=MAX_BYTES
        ) from None
    if upload is None or not upload.filename:  # a form sent with no file chosen
        return None
    return upload.read(MAX_BYTES + 1)


def read_upload(max_pips: int) -> dict[str, Any]:
    """The photo uploaded with this request, read for a photo page: ``reading``, the
    ``marked`` photo and the ``message`` above it. Raises CSRFError or PhotoError as
    :func:`uploaded_photo` and :func:`companion.services.hand_photo.read_photo` do, and
    ``PhotoBusy`` past the bounds of :mod:`companion.services.photo_gate`."""
    data = uploaded_photo(check_csrf=True)
    if data is None:  # refused before any reading slot: nothing was sent to read
        raise PhotoError(PhotoProblem.NO_PHOTO)
    with reading_slot():
        reading, marked = hand_photo.read_photo(data, max_pips)
    return {
        "marked": marked,
        "message": hand_photo.reading_message(len(reading.unread)),
        **_kept(marked),
    }


def _signer() -> Signer:
    return Signer(current_app.secret_key or "", salt="photo-reading")


def _kept(marked: dict[str, Any]) -> dict[str, str]:
    """The signed reading the confirm form carries back (:data:`READING_FIELD`)."""
    return {"kept": _signer().sign(hand_photo.marked_to_text(marked)).decode()}


def _kept_marked() -> dict[str, Any] | None:
    """The reading the confirm form carried back (:data:`READING_FIELD`), or None when it is
    missing or was not signed by this server."""
    try:
        text = _signer().unsign(str(query.posted().get(READING_FIELD, ""))).decode()
    except BadSignature:
        return None
    return hand_photo.marked_from_text(text)


def _reading_again(
    marked: dict[str, Any], picks: list[str], render: Callable[..., Any], status: int, **extra: Any
) -> Any:
    """``render(status, ...)``: the reading ``marked`` again with every one of the ``picks``
    kept (the headline, the labels and the pickers show them)."""
    unread = sum(not m.read for m in marked["marks"])
    message = hand_photo.reading_message(unread)
    return render(status, marked=marked, message=message, picks=picks, **_kept(marked), **extra)


def refused_confirm(
    problem: tuple[str, list[int]], picks: list[str], render: Callable[..., Any]
) -> Any:
    """A photo page's answer to a confirm it cannot post: ``render(422, ...)`` with the
    ``problem`` (why, and the indexes of the tiles to fix:
    :func:`companion.services.hand_photo.confirm_problem`) and, when the form carried it back,
    the reading with every one of the ``picks`` kept."""
    why, flagged = problem
    marked = _kept_marked()
    if marked is None:
        return render(422, problem=why)
    return _reading_again(marked, picks, render, 422, refused=why, flagged=flagged)


#: The confirm form's button that only adds the picks up (the page without JavaScript).
ADD_UP_FIELD = "add_up"


def adding_up() -> bool:
    """Whether the confirm form was sent with "Add up my picks" (:data:`ADD_UP_FIELD`)
    rather than Confirm: nothing is to be posted."""
    return bool(query.posted().get(ADD_UP_FIELD))


def added_up(picks: list[str], render: Callable[..., Any]) -> Any:
    """A photo page's answer to "Add up my picks": ``render(200, ...)``, the reading again
    with the ``picks`` (the headline adds them up, the labels show them), nothing posted or
    refused; without the signed reading, the upload form says to take the photo again (422)."""
    marked = _kept_marked()
    if marked is None:
        return render(422, problem=hand_photo.reading_lost())
    return _reading_again(marked, picks, render, 200)


def read_or_refuse(max_pips: int, render: Callable[..., tuple[str, int]]) -> Any:
    """A photo page's answer to an upload: ``render(status, **context)`` with the reading
    (:func:`read_upload`), or with the refusal's ``problem`` (422, or 429 with Retry-After
    past the bounds of :mod:`companion.services.photo_gate`). CSRFError passes through."""
    try:
        read = read_upload(max_pips)
    except PhotoError as error:
        return render(422, problem=hand_photo.problem_message(error))
    except PhotoBusy as busy:
        html, status = render(429, problem=hand_photo.busy_message(busy))
        return html, status, hand_photo.busy_headers(busy)
    return render(200, **read)


def page_context(game: Game) -> dict[str, Any]:
    """What every photo page shows beside its own links: a form for its CSRF token only (it
    never reads the upload) and the tile picker
    (:func:`companion.services.hand_photo.picker_context`)."""
    return {"form": FlaskForm(formdata=None), **hand_photo.picker_context(game)}


def elsewhere_context(
    who: str, double: int | None, held: Mapping[str, str], clash: Callable[[str, str], str]
) -> dict[str, Any]:
    """What a photo page flags beside a picker before Confirm
    (:func:`companion.services.hand_photo.held_elsewhere`): ``elsewhere``, tile -> the words,
    and the ``centre`` double's tile ("6-6"; "" with no round), which photo.js holds Confirm
    back for, as the Confirm refuses it (a tile in another hand is only flagged: that hand
    may be the wrong one, and the Confirm or the round's Save decides)."""
    return {
        "elsewhere": hand_photo.held_elsewhere(who, double, held, clash),
        "centre": hand_photo.centre_tile(double),
    }


@dataclass(frozen=True)
class Draft:
    """A hand or round form kept in the session while a photo is taken: its ``fields`` (name,
    value pairs as posted), whether it was ``shown`` once already (a reload shows it again,
    not as fresh), and the id of the ``seat`` whose hand the photo filled (None until a photo
    is confirmed)."""

    fields: tuple[tuple[str, str], ...]
    shown: bool = False
    seat: int | None = None

    def stored(self) -> dict[str, Any]:
        """The record as kept in the session (a signed JSON cookie): JSON types only, lists
        for tuples (Flask would tag a tuple), and the defaults left out, for the cookie goes
        with every request."""
        record: dict[str, Any] = {"fields": [[name, value] for name, value in self.fields]}
        if self.shown:
            record["shown"] = True
        if self.seat is not None:
            record["seat"] = self.seat
        return record

    @classmethod
    def from_stored(cls, record: dict[str, Any]) -> Draft:
        """The draft that :meth:`stored` gave ``record``."""
        return cls(
            fields=tuple((str(name), str(value)) for name, value in record["fields"]),
            shown=bool(record.get("shown")),
            seat=record.get("seat"),
        )


def _records() -> dict[str, dict[str, Any]]:
    """The kept drafts' records by draft key (a copy), the older versions' keys dropped
    (:data:`OLD_DRAFT_KEYS`)."""
    for old in OLD_DRAFT_KEYS:
        session.pop(old, None)  # marks the cookie changed only when the key was there
    return dict(session.get(DRAFTS, {}))


def _draft(key: str) -> Draft | None:
    record = _records().get(key)
    return Draft.from_stored(record) if record is not None else None


def _store(key: str, draft: Draft | None) -> None:
    """Keep ``draft`` as the draft for ``key``, or with None drop it (the session key too
    once no draft is left: the cookie goes with every request)."""
    records = _records()
    records.pop(key, None)
    if draft is not None:
        records[key] = draft.stored()
    if records:
        session[DRAFTS] = records
    else:
        session.pop(DRAFTS, None)


def keep_draft(key: str, fields: list[tuple[str, str]]) -> None:
    """Keep a hand form's fields (name, value pairs) in the session while a photo is taken."""
    _store(key, Draft(tuple(fields)))


#: The round form's fields saying which round it is for: the game's version it was drawn at
#: and the round's centre double (a hidden field each).
VERSION_FIELD = "version"
DOUBLE_FIELD = "double"


def draft_fits(fields: Sequence[tuple[str, str]], game: Game, double: int | None) -> bool:
    """Whether a kept draft's ``fields`` are the round form of the round with ``double`` (the
    round to be entered now; None once the game is over) at the game's current version. A
    draft kept before a round was saved, undone or corrected no longer fits: its version is
    older (and its double, after a save, another round's)."""
    return (
        double is not None
        and _drafted_double(fields, game) == double
        and str(MultiDict(list(fields)).get(VERSION_FIELD)) == str(game.version)
    )


def _drafted_double(fields: Sequence[tuple[str, str]], game: Game) -> int | None:
    """The centre double of the round a kept round form's ``fields`` are for, or None."""
    return parse_double(MultiDict(list(fields)).get(DOUBLE_FIELD), game.set_size)


def _at_version(fields: Sequence[tuple[str, str]], game: Game) -> tuple[tuple[str, str], ...]:
    """A kept round form's ``fields`` with the game's version now (the round still to be
    entered after another round was corrected: its typing stands, and its save is not stale)."""
    return tuple(
        (name, str(game.version) if name == VERSION_FIELD else value) for name, value in fields
    )


def kept_fields(game: Game, double: int) -> list[tuple[str, str]] | None:
    """The fields of the round form kept for ``game`` while a photo is taken, when it is the
    round form of the round with ``double`` (at any version: another round corrected since
    leaves its typing standing, :func:`put_tiles_in_draft`); else None. Only read: the draft
    is neither marked shown nor dropped."""
    kept = _draft(game.edit_token)
    if kept is None or _drafted_double(kept.fields, game) != double:
        return None
    return list(kept.fields)


def photo_double(game: Game) -> int | None:
    """The centre double of the round a hand's photo is taken for: the one its photo page's
    address names (``?double=``, from the round form its button was pressed in, carried by the
    page's forms, an offline Confirm's too), else the kept draft's (a page drawn before the
    address named it), else the round to be entered now; None once the game is over."""
    named = parse_double(query.optional_text(DOUBLE_FIELD), game.set_size)
    if named is not None:
        return named
    kept = _draft(game.edit_token)
    drafted = _drafted_double(kept.fields, game) if kept is not None else None
    if drafted is not None:
        return drafted
    plan = plan_round(game)
    return plan.double if plan is not None else None


def put_tiles_in_draft(game: Game, double: int | None, seat_id: int, tiles: list[str]) -> bool:
    """Put a photo's confirmed ``tiles`` into ``seat_id``'s hand of the round form kept for
    ``game``, when the photo's round (``double``: :func:`photo_double`) is still the round to
    be entered: into the kept draft when it is that round's (at the game's version now: kept
    before another round was corrected, what was typed in it still stands), else (the draft
    was dropped, or is another round's) into a draft of that round as the game page draws it,
    the hands posted from phones meanwhile then taking their boxes there. True when put in;
    False when the photo's round is no longer the one to be entered (saved meanwhile, from
    another tab or phone): nothing is kept then, and a kept draft, perhaps of the next round,
    stays as it is.
    """
    plan = plan_round(game)
    if plan is None or double != plan.double:
        return False
    kept = _draft(game.edit_token)
    if kept is not None and _drafted_double(kept.fields, game) == plan.double:
        # that round's form, perhaps drawn before another round was corrected (or saved and
        # undone): the round is still the one to be entered, so what was typed in it stands,
        # at the game's version now (dropping it lost the other hands' typing, unsaid)
        fields = list(_at_version(kept.fields, game))
    else:
        fields = [(VERSION_FIELD, str(game.version)), (DOUBLE_FIELD, str(plan.double))]
    filled = hand_photo.draft_with_tiles(
        fields,
        hand_field(HandPart.TILES, seat_id),
        hand_field(HandPart.TOTAL, seat_id),
        tiles,
    )
    _store(game.edit_token, Draft(tuple(filled), seat=seat_id))
    return True


def draft_to_show(game: Game, double: int | None) -> tuple[list[tuple[str, str]], int | None]:
    """The round form kept for ``game`` as the game page shows it for the round with
    ``double`` (the round to be entered; None once the game is over): its fields (none when
    there is no draft to show) and, the first time it is shown after a photo's Confirm, the
    seat the photo filled (the phone's older kept typing for that hand gives way), else None.

    The draft stays kept, so a reload shows the photo's tiles again (not as fresh), until the
    game moves on; then it is dropped. A photo's message is flashed here, where it comes true
    or not: the first time the form is shown holding the tiles ("3 tiles from the photo");
    or, when a draft holding them was never shown and no longer fits (its round saved
    meanwhile: from another phone, or by the save the scorekeeper typed offline, which the
    outbox sends after the Confirm), that they were not used, with the tiles. A draft whose
    round is still the one to be entered (only another round corrected since) is kept at the
    game's version, its typing and the photo's tiles alike, as a Confirm sent then would keep
    it (:func:`put_tiles_in_draft`)."""
    key = game.edit_token
    kept = _draft(key)
    if kept is None:
        return [], None
    seat = kept.seat
    who = next((s.player.name for s in game.seats if s.id == seat), None)
    field = hand_field(HandPart.TILES, seat) if seat is not None else None
    tiles = [value for name, value in kept.fields if name == field]
    drafted = _drafted_double(kept.fields, game)
    if double is not None and drafted == double and not draft_fits(kept.fields, game, double):
        # still the round to be entered, another round corrected (or saved and undone) since:
        # what was typed in it and the photo's tiles stand, at the game's version now
        kept = replace(kept, fields=_at_version(kept.fields, game))
        _store(key, kept)
    if not draft_fits(kept.fields, game, double):
        _store(key, None)
        if seat is None or who is None or kept.shown:  # no photo's tiles, or they were seen
            return [], None
        flash(hand_photo.not_filled_in(game, who, drafted, tiles), "error")
        return [], None
    if kept.shown:
        return list(kept.fields), None
    _store(key, replace(kept, shown=True))
    if seat is not None and who is not None:
        flash(hand_photo.filled_in(game, who, tiles), "success")
    return list(kept.fields), seat


def take_draft(key: str) -> list[tuple[str, str]] | None:
    """The kept draft for ``key`` (removed from the session), or None."""
    kept = _draft(key)
    if kept is None:
        return None
    _store(key, None)
    return list(kept.fields)
