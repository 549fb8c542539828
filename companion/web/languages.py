"""Which language a page is in, and the language picker (issue 13).

The locale of a request is, in order:

1. the phone's own choice, made with the picker on every page and kept in the session;
2. the browser's ``Accept-Language``, when it names a language the app offers;
3. the language a share or join link carried (``?lang=xx``, the sharer's language), kept in
   the session as a preference: it is only a preference, so it never overrides the phone's
   own choice nor the language its browser asks for (a Russian phone opening a German
   scorekeeper's join link stays Russian);
4. English.

Only codes of ``LANGUAGES`` (:mod:`companion.config`) are ever used. A response whose language
was chosen this way says ``Vary: Accept-Language, Cookie`` (the session is a cookie), added to
the other ``Vary`` headers (``HX-Request``, ``Accept-Encoding``), so a browser or proxy cache never
serves a page in the language of another phone. Below the blueprints:
the picker's route lives in its own small blueprint, registered by the app factory.
"""

from __future__ import annotations

import json
import re
from datetime import date
from urllib.parse import parse_qsl, urlencode, urlsplit

from babel import Locale
from babel.dates import format_date, match_skeleton
from flask import (
    Blueprint,
    Response,
    current_app,
    g,
    has_request_context,
    redirect,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import format_decimal as flask_format_decimal
from flask_babel import get_locale, get_translations
from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms import StringField

from ..access import Role, requires
from ..config import LANGUAGES
from ..words import plural_forms
from . import query
from .redirects import same_site_path

#: session key of the phone's own choice (the picker)
CHOICE_KEY = "lang"
#: session key of the language a share/join link carried (a preference, not a choice)
LINK_KEY = "lang_link"
#: the query parameter a share/join link carries the sharer's language in
LINK_PARAM = "lang"
#: the request headers a negotiated language depends on (the session travels in a cookie)
NEGOTIATED_FROM = ("Accept-Language", "Cookie")

_NEGOTIATED = "_language_negotiated"  # flask.g flag: this request's locale was chosen

bp = Blueprint("languages", __name__)


def available() -> list[str]:
    """The locale codes this app offers (config ``LANGUAGES``), English first."""
    return list(current_app.config.get("LANGUAGES", ["en"]))


def language_name(code: str) -> str:
    """A language's name in that language ("Русский"), for the picker."""
    return LANGUAGES.get(code, code)


def _offered(code: object) -> str | None:
    return code if isinstance(code, str) and code in available() else None


def select_locale() -> str:
    """The request's locale (see the module's docstring); English outside a request (the
    command line, background work)."""
    default = str(current_app.config.get("BABEL_DEFAULT_LOCALE", "en"))
    if not has_request_context():
        return default
    setattr(g, _NEGOTIATED, True)
    return (
        _offered(session.get(CHOICE_KEY))
        or request.accept_languages.best_match(available())
        or _offered(query.optional_text(LINK_PARAM))
        or _offered(session.get(LINK_KEY))
        or default
    )


def vary_by_language(response: Response) -> Response:
    """Add ``Vary: Accept-Language, Cookie`` to a response whose language was negotiated
    (``after_request``); ``Vary`` is a set, so the headers already there stay."""
    if g.get(_NEGOTIATED):
        response.vary.update(NEGOTIATED_FROM)
    return response


def remember_link_language() -> None:
    """Keep a link's ``?lang=xx`` as this phone's preference for its next pages, unless the
    phone has chosen a language of its own (``before_request``)."""
    code = _offered(query.optional_text(LINK_PARAM))
    if code and not _offered(session.get(CHOICE_KEY)) and session.get(LINK_KEY) != code:
        session[LINK_KEY] = code


def link_language() -> str:
    """The language a share or join link carries: the sharer's current one."""
    return str(get_locale() or "en")


def _kept_query(pairs: list[tuple[str, str]]) -> str:
    """A query string of ``pairs`` without ``lang`` (the choice replaces it) and without names
    starting with ``_`` (never the app's; they are not echoed back into a page)."""
    kept = [(k, v) for k, v in pairs if k != LINK_PARAM and not k.startswith("_")]
    return f"?{urlencode(kept)}" if kept else ""


def _referring_page() -> str | None:
    """The page of this site the request's form was sent from (its path and query), if any."""
    ref = urlsplit(request.referrer or "")
    if ref.netloc != request.host or not ref.path:
        return None
    return same_site_path(ref.path + _kept_query(parse_qsl(ref.query, keep_blank_values=True)))


def _this_page() -> str:
    """The page the picker is on, to come back to: its path and query (see ``_kept_query``).
    A page answering a form (a checker question or a refused save sent without JavaScript)
    has an address that only takes posts: the picker goes back to the page the form was
    sent from instead (coming back to the post's address answered "page not found")."""
    if not has_request_context():
        return "/"
    if request.method not in ("GET", "HEAD"):
        return _referring_page() or "/"
    return request.path + _kept_query(list(query.arguments().items(multi=True)))


def picker_context() -> dict[str, object]:
    """What base.html's language picker needs: the current code, (code, name) choices and
    the page to come back to."""
    return {
        "language_next": _this_page(),
        "language_current": str(get_locale() or "en"),
        "language_choices": [(code, language_name(code)) for code in available()],
        "language_name": language_name,
    }


class LanguageForm(FlaskForm):
    """The picker (base.html): the chosen language's code and the page to go back to; each is
    checked by the view (an unknown code changes nothing, a path elsewhere is not followed)."""

    lang = StringField()
    next = StringField()


@bp.post("/language")
@requires(Role.ANYONE)
def choose() -> ResponseReturnValue:
    """The picker's form: remember the chosen language in the session and go back to the page
    it was sent from (a path on this site only). An unknown code changes nothing."""
    form = LanguageForm()
    code = _offered(form.lang.data)
    if code:
        session[CHOICE_KEY] = code
        session.pop(LINK_KEY, None)
        session.permanent = True
    back = same_site_path(form.next.data) or url_for("games.index")
    return redirect(back, 303)


def init_languages(app: object) -> None:
    """Register the picker's route, the link preference hook and the picker's context."""
    from flask import Flask

    assert isinstance(app, Flask)
    app.register_blueprint(bp)
    app.before_request(remember_link_language)
    app.after_request(vary_by_language)
    from .form_words import install_form_translations

    install_form_translations(app)  # after the link's language is remembered
    app.context_processor(picker_context)
    app.jinja_env.filters["weekday_date"] = weekday_date
    app.jinja_env.filters["signed_change"] = signed_change
    app.jinja_env.filters["figure"] = figure
    app.jinja_env.filters["tiles_unbroken"] = tiles_unbroken
    # a global, not a context value: htmx fragments (templates/games/_tile_picker.html) use it
    app.jinja_env.globals["plural_words"] = plural_words
    from .. import words

    words.install(app)


#: CLDR skeleton of a date shown as weekday, day and month (no year)
WEEKDAY_DAY_MONTH = "MMMMEd"

#: the one minus sign of every figure that can be negative (a rating, a rating change): U+2212.
#: CLDR gives our languages a hyphen-minus ("-3,4"), so a season's table showed "-3,4" before
#: the season next to "−3,4" changed.
MINUS = "\u2212"

#: a rating change with its sign, one decimal and the locale's separators (see :func:`figure`)
SIGNED_CHANGE = "+#,##0.0"


#: a tile's name in running text ("6-6", "15-15"): two pip counts joined by a hyphen, not part
#: of a date or a longer run of numbers
TILE_NAME = re.compile(r"(?<![\d-])(\d{1,2})-(\d{1,2})(?![\d-])")


def tiles_unbroken(text: str) -> Markup:
    """``text`` (escaped, as the page shows it) with each tile's name in a span the browser
    keeps on one line (``.tile-name``, static/css/app.css): at 360 px the checker's end chip
    showed "Mittelpasch 9-" over "9", the night's story "(the 6- / 6)" and the cs rule book
    "15- / 15". Its characters stay as they are, so a screen reader, a search and a test
    read "9-9" (a non-breaking hyphen, U+2011, the story's and rule book's way before, did
    not: the one way kept is this one)."""
    return Markup(TILE_NAME.sub(r'<span class="tile-name">\1-\2</span>', str(escape(text))))


def figure(value: float, pattern: str = "#,##0.###") -> str:
    """``value`` in the page's language as the CLDR ``pattern`` writes it ("#,##0.0": one
    decimal), a negative one with the true minus sign :data:`MINUS` ("−3,4", never "-3,4"):
    every figure that can be negative (ratings, their changes, a rating chart's axis) goes
    through here, so one table never mixes two signs."""
    return flask_format_decimal(value, f"{pattern};{MINUS}{pattern.lstrip('+')}")


def signed_change(value: float) -> str:
    """A change in rating points with its sign in the page's language ("+11,1", "−0,9" in
    ru, lt, de; "+11.1" in en): printf's "%+.1f" kept the English decimal point everywhere."""
    return figure(value, SIGNED_CHANGE)


def weekday_date(day: date) -> str:
    """``day`` as its weekday, day and month in the page's language ("Dienstag, 1. Dezember",
    "gruodžio 1 d., antradienis"), from the locale's own pattern for that skeleton with the
    weekday written out. A fixed pattern ("EEEE d MMMM") gave "Dienstag 1 Dezember"."""
    locale = get_locale() or Locale("en")
    skeletons = locale.datetime_skeletons
    found = match_skeleton(WEEKDAY_DAY_MONTH, skeletons)
    if found is None:
        return format_date(day, "long", locale=locale)
    # the weekday written out in full: E/EE/EEE (or standalone c...) -> four letters
    pattern = re.sub(r"(?<![Ec])([Ec])\1{0,2}(?![Ec])", r"\1\1\1\1", str(skeletons[found]))
    return format_date(day, pattern, locale=locale)


def with_language(url: str) -> str:
    """``url`` carrying the sharer's language as a preference (``?lang=xx``), for share and
    join links and their QR codes: a phone opening it without a choice of its own uses it."""
    joiner = "&" if "?" in url else "?"
    return f"{url}{joiner}{LINK_PARAM}={link_language()}"


def plural_words(singular: str, plural: str) -> str:
    """A count's words for JavaScript, as JSON: CLDR plural category ("one", "few", "many",
    "other", ...) of the page's language -> the translated words with ``{n}`` for the count.
    The script picks the category with ``Intl.PluralRules`` (static/js/score.js), so a count
    it computes in the browser gets the language's plural form, as ``ngettext`` would give.
    ``singular``/``plural`` are ngettext msgids with ``%(num)s`` for the count."""
    # ngettext would fill %(num)s with n; the script fills {n} instead
    words = plural_forms(
        lambda n: get_translations().ungettext(singular, plural, n) % {"num": "{n}"}
    )
    return json.dumps(words, ensure_ascii=False)
