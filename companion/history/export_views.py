"""Download routes (CSV, JSON) and the import page of the history blueprint.

* ``GET /history/export.csv`` and ``/history/export.json``: everything, or ``?game=ID`` /
  ``?night=ID``; an attachment named ``chickenfoot-<scope>-<date>.<ext>``. The CSV is streamed.
* ``GET /history/schema/v1.json``: the declared format of the JSON export (JSON Schema,
  :mod:`companion.services.exchange.shape`), published next to its description.
* ``GET|POST /history/import``: upload a JSON export (CSRF, passcode when configured, at most
  ``HISTORY_IMPORT_MAX_BYTES``, see :class:`companion.config.Config`) and see the report; a
  refused file imports nothing and lists its first :data:`PROBLEMS_LISTED` problems.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from itertools import chain

from flask import Response, abort, current_app, render_template, request, stream_with_context
from flask_babel import format_decimal, get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from sqlalchemy import select
from werkzeug.exceptions import RequestEntityTooLarge
from wtforms import SubmitField

from ..access import (
    MAX_REMEMBERED,
    Role,
    entered_passcode,
    is_host,
    keeps_score,
    remember,
    requires,
)
from ..extensions import csrf, db
from ..ids import parse_id
from ..models import Game, GameNight
from ..services.exchange import export as exchange
from ..services.exchange import shape as exchange_schema
from ..services.exchange.importing import import_document
from ..vocab import GameStatus
from ..web import query
from ..web.idempotency import claim_upload, compares_upload
from . import bp

#: problems of a refused file listed on the page (the rest are counted): a junk file can have
#: hundreds of thousands, and the first ones tell what is wrong
PROBLEMS_LISTED = 50


def _scope() -> tuple[int | None, int | None]:
    """(game id, night id) from the query string; 404 for a value that is not an id."""
    ids: list[int | None] = []
    for name in ("game", "night"):
        raw = query.optional_text(name)
        if raw is None or raw == "":
            ids.append(None)
        elif (wanted := parse_id(raw)) is not None:
            ids.append(wanted)
        else:
            abort(404)
    if ids[0] is not None and ids[1] is not None:
        abort(404)
    return ids[0], ids[1]


def _filename(ext: str, game_id: int | None, night_id: int | None) -> str:
    """``chickenfoot-<scope>-<date>.<ext>``: a night's or a game's file is named after the
    night it was played on (named after today, two nights' files could not be told apart);
    everything, or an unknown id, after today (UTC)."""
    played_on: date | None = None
    if night_id is not None:
        night = db.session.get(GameNight, night_id)
        played_on = night.played_on if night else None
    elif game_id is not None:
        game = db.session.get(Game, game_id)
        played_on = game.night.played_on if game else None
    day = (played_on or datetime.now(UTC).date()).isoformat()
    return f"chickenfoot-{exchange.scope_name(game_id, night_id)}-{day}.{ext}"


def _attachment(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"}


@bp.get("/export.csv")
@requires(Role.ANYONE)
def export_csv() -> Response:
    """One row per player per round (see :func:`exchange.iter_csv`); 404 for unknown ids.
    UTF-8 with a byte order mark, the columns split by the separator of the page's locale
    (";" where the decimal mark is a comma), as a spreadsheet there opens it with a tap."""
    game_id, night_id = _scope()
    try:
        headings = [str(exchange.CSV_HEADINGS[c]) for c in exchange.CSV_COLUMNS]
        chunks = exchange.iter_csv(
            db.session(),
            game_id=game_id,
            night_id=night_id,
            headings=headings,
            set_name=lambda n: _("double-%(n)s", n=n),  # as the pages word a set
            separator=exchange.csv_separator(str(get_locale() or "en")),
        )
    except exchange.NotFound:
        abort(404)
    return Response(
        stream_with_context(chain([exchange.CSV_BOM], chunks)),
        mimetype="text/csv",
        headers=_attachment(_filename("csv", game_id, night_id)),
    )


@bp.get("/export.json")
@requires(Role.ANYONE)
def export_json() -> Response:
    """The JSON export document (see :mod:`companion.services.exchange.export`); 404 for
    unknown ids."""
    game_id, night_id = _scope()
    try:
        doc = exchange.export_document(db.session(), game_id=game_id, night_id=night_id)
    except exchange.NotFound:
        abort(404)
    return Response(
        exchange.dumps(doc),
        mimetype="application/json",
        headers=_attachment(_filename("json", game_id, night_id)),
    )


def _may_restore(row: GameNight | Game) -> bool:
    """Whether this import may bring back a night or game deleted here. A night: whoever may
    delete one (the host). A game: the host who entered the passcode, or the game's own
    scorekeeper (who deleted it), nobody else: an export is public, and importing it must not
    undo a scorekeeper's deletion (even where, without a passcode, everybody is host)."""
    if isinstance(row, GameNight):
        return is_host()
    return entered_passcode() or keeps_score(row)


def _remember_unfinished(keys: list[str]) -> None:
    """Edit links are not exported, so an imported game gets a new one that nobody knows: the
    browser that imported unfinished games keeps score for them (up to the remembered limit)."""
    if not keys:
        return
    games = db.session.scalars(
        select(Game)
        .where(Game.share_token.in_(keys[:1000]), Game.status != GameStatus.FINISHED)
        .order_by(Game.id)
        .limit(MAX_REMEMBERED)
    )
    for game in games:
        remember(game)


@bp.get("/schema/v1.json")
@requires(Role.ANYONE)
def export_schema() -> Response:
    """The JSON Schema of the ``chickenfoot-companion/v1`` document, as the import checks it."""
    return Response(
        json.dumps(exchange_schema.schema(), indent=2, ensure_ascii=False),
        mimetype="application/schema+json",
    )


class ImportForm(FlaskForm):
    """Upload of a JSON export (the CSRF token is checked by the form itself, see the view)."""

    file = FileField(_l("Export file (JSON)"), validators=[FileRequired(_l("Choose a file."))])
    submit = SubmitField(_l("Import"))


@bp.route("/import", methods=["GET", "POST"])
@csrf.exempt  # checked by ImportForm after raising the size limit for this one route
@requires(Role.HOST)
@compares_upload
def import_page() -> str | tuple[str, int]:
    """Upload form; on POST validates the whole file, imports it or shows what is wrong."""
    limit = current_app.config["HISTORY_IMPORT_MAX_BYTES"]
    request.max_content_length = limit  # refused on its Content-Length, before reading it
    megabytes = format_decimal(limit / (1024 * 1024), "#,##0.##")
    try:
        form = ImportForm()
        submitted = form.validate_on_submit()
    except RequestEntityTooLarge:
        message = _(
            "The file is larger than %(mb)s MB, the most a backup may be; nothing was imported.",
            mb=megabytes,
        )
        page = render_template("history/import.html", form=None, too_large=message, mb=megabytes)
        return page, 413
    if not submitted:
        status = 400 if request.method == "POST" else 200
        page = render_template("history/import.html", form=form, report=None, mb=megabytes)
        return page, status
    claim_upload()  # a repeat of an outbox key is answered here, before anything is imported
    report = import_document(db.session(), form.file.data.read(), _may_restore)
    _remember_unfinished(report.new_games)
    status = 200 if report.ok else 422
    return render_template(
        "history/import.html",
        form=ImportForm(formdata=None),
        report=report,
        listed=PROBLEMS_LISTED,
        mb=megabytes,
    ), status
