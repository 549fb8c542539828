"""Error pages: every error gets a clear page (or JSON under /api), never a bare 500; and
:class:`Problem`, the one shape of "what is wrong with what was sent", from a service's check
to the form field or page that shows it.

Below the blueprints: any layer may import it.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask, Response, jsonify, render_template, request
from flask.globals import request_ctx
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException, InternalServerError


@dataclass(frozen=True)
class Problem:
    """One thing wrong with what a player (or a program) sent, in their words: the one shape
    of a refusal from a service's check to the form field, page or JSON that shows it.

    ``message`` is a lazy gettext string (``_l(template, **params)``: the template is the
    msgid, the parameters are kept beside it), so it is worded in the language of whoever
    reads it, when it is shown (or a string already worded: the API's English, an engine
    error worded by :func:`companion.words.error_words`); ``field`` names what it is about (a
    form field's name, a part of one such as ``"total"``, or the API's ``where``), None for
    the whole form or request; ``code`` is the API's error code (``"BAD_JSON"``).
    """

    message: object
    field: str | None = None
    code: str = ""

    def __str__(self) -> str:
        return str(self.message)

    def to_json(self) -> dict[str, str]:
        """The API's error object: ``{"code", "message", "where"}``."""
        return {"code": self.code, "message": str(self), "where": self.field or ""}


class Refused(ValueError):
    """A request refused for what was sent: its problems, in order, and the HTTP status to
    answer with (422 unless said). A view that can show the form again catches it and puts
    the problems on the form; one that does not is answered by :func:`init_error_pages` (the
    problems on an error page, or the API's JSON error), never a 500.

    A problem may be given as a string already worded (it is about the whole request). A
    ``ValueError``, as the services' refusals (``SetupError``) always were.
    """

    def __init__(self, *problems: Problem | str, status: int = 422) -> None:
        self.problems = tuple(p if isinstance(p, Problem) else Problem(p) for p in problems)
        self.status = status
        super().__init__(" ".join(self.messages))

    @property
    def messages(self) -> list[str]:
        """Every problem's words, in order."""
        return [str(p) for p in self.problems]


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _kept_headers(exc: HTTPException) -> list[tuple[str, str]]:
    """The exception's own headers but its Content-Type (the page or JSON sets its own): e.g.
    ``Allow`` on a 405 and ``Retry-After`` on a 429 tell the client what to do next."""
    return [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]


def _player_words(exc: HTTPException) -> tuple[str, str]:
    """The page's title and words: the view's own description when it gave one, else words a
    player reads at the table instead of Werkzeug's stock text ("The requested URL was not
    found on the server...")."""
    stock = {
        400: (_("That did not work"), _("The phone sent something this page cannot read.")),
        403: (_("Not allowed"), _("This phone may not open this page.")),
        404: (_("Page not found"), _("There is nothing at this address. Check the link.")),
        405: (_("Page not found"), _("There is nothing to open at this address.")),
        410: (_("Page gone"), _("This page is no longer here.")),
        413: (_("Too much at once"), _("That was too much to send at once; send less.")),
        429: (_("Too many tries"), _("Wait a minute and try again.")),
    }
    if exc.description and exc.description != type(exc).description:
        return exc.name if exc.code not in stock else stock[exc.code][0], exc.description
    if exc.code in stock:
        return stock[exc.code]
    return _("Something went wrong"), _fault_words()


def _fault_words() -> str:
    """What a server fault means for the player: a form sent was not saved (the transaction is
    rolled back); a page only opened saved nothing, so "nothing was saved" would be beside the
    point there."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return _(
            "This page could not be shown because of a fault on the server; nothing was changed. "
            "Reloading the page tries again."
        )
    return _("Nothing was saved. Please try again.")


def init_error_pages(app: Flask) -> None:
    """Register one handler for every HTTP error and a last-resort handler for the rest; a
    stale form (CSRF) is shown again as typed (:mod:`companion.web.stale_forms`)."""
    from .web.stale_forms import init_stale_forms

    init_stale_forms(app)

    @app.errorhandler(Refused)
    def _refused(exc: Refused):  # noqa: ANN202 - Flask view return
        if _wants_json():
            first = (
                exc.problems[0]
                if exc.problems
                else Problem(_("That did not work; nothing was changed."))
            )
            return jsonify({"error": first.to_json()}), exc.status
        page = render_template(
            "error.html",
            code=exc.status,
            title=_("That did not work"),
            description=" ".join(exc.messages),
        )
        return page, exc.status

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):  # noqa: ANN202 - Flask view return
        if request_ctx.url_adapter is None:
            # Refused before routing (a Host outside TRUSTED_HOSTS): no page can be built,
            # as every page links to others; plain words instead.
            words = _("This server does not answer at that address.")
            return Response(words, exc.code, _kept_headers(exc), mimetype="text/plain")
        if _wants_json():
            body = {
                "error": {
                    "code": exc.name.upper().replace(" ", "_"),
                    "message": exc.description or exc.name,
                    "where": "",
                }
            }
            return jsonify(body), exc.code, _kept_headers(exc)
        title, description = _player_words(exc)
        page = render_template("error.html", code=exc.code, title=title, description=description)
        return page, exc.code, _kept_headers(exc)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):  # noqa: ANN202
        from .extensions import db

        db.session.rollback()
        app.logger.exception("unexpected error")
        err = InternalServerError()
        if _wants_json():
            return jsonify(
                {
                    "error": {
                        "code": "INTERNAL",
                        "message": _("Something went wrong; nothing was saved."),
                        "where": "",
                    }
                }
            ), 500
        return render_template(
            "error.html",
            code=500,
            title=_("Something went wrong"),
            description=_fault_words(),
        ), err.code
