"""What every page says about itself, in its own language (issue 26): a meta description, the
app's name in the <title> as the top bar names it, a language picker with words, a server
fault worded for what happened, and times the phone can put in its own time zone."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from babel.messages.pofile import read_po
from flask import Flask

from companion import create_app
from companion.config import LANGUAGES, ROOT, TestConfig
from companion.extensions import db
from tests.history.fixture import build

DESCRIPTION = "Score keeping, rules and history for Chicken Foot dominoes."
PAGES = ("/", "/checker/", "/checker/rules", "/history/", "/history/leaderboard", "/nights/new")


def translated(lang: str, msgid: str) -> str:
    """``msgid`` as the ``lang`` catalog words it."""
    if lang == "en":
        return msgid
    po = ROOT / "companion" / "translations" / lang / "LC_MESSAGES" / "messages.po"
    with po.open("rb") as handle:
        return str(read_po(handle)[msgid].string)


@pytest.fixture()
def pages_app() -> Iterator[Flask]:
    """Finished games to show; no app context held across requests (the locale lives in it)."""
    application = create_app(TestConfig)
    with application.app_context():
        db.create_all()
        build(merged=False)
        db.session.remove()
    yield application
    with application.app_context():
        db.drop_all()


def _text(page: str, pattern: str) -> str:
    found = re.search(pattern, page, re.S)
    assert found, pattern
    return html.unescape(found.group(1))


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_page_has_a_description_in_its_language(pages_app, lang):
    client = pages_app.test_client()
    for path in PAGES:
        page = client.get(path, headers={"Accept-Language": lang}).get_data(as_text=True)
        title = _text(page, r"<title>(.*?)</title>")
        description = _text(page, r'<meta name="description" content="([^"]*)">')
        assert description == f"{title} — {translated(lang, DESCRIPTION)}", path


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_title_names_the_app_as_the_top_bar_does(pages_app, lang):
    client = pages_app.test_client()
    page = client.get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
    brand = _text(page, r'<a class="brand"[^>]*>(.*?)</a>').replace("\u00ad", "")
    assert brand in _text(page, r"<title>(.*?)</title>")
    checker = client.get("/checker/", headers={"Accept-Language": lang}).get_data(as_text=True)
    assert brand in _text(checker, r"<title>(.*?)</title>")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_language_picker_names_the_language_in_words(pages_app, lang):
    page = (
        pages_app.test_client().get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
    )
    summary = _text(page, r'<details class="language-picker">\s*.*?<summary[^>]*>(.*?)</summary>')
    assert "🌐" not in summary  # a box on a phone without an emoji font
    name = f'<span class="language-name" lang="{lang}">{html.escape(LANGUAGES[lang])}</span>'
    assert name in summary  # shown from 481 px, the code on a phone (static/css/app.css)
    assert f'<span class="language-code" aria-hidden="true">{lang.upper()}</span>' in summary


@pytest.fixture()
def failing_app(pages_app: Flask) -> Flask:
    """The app with a page and a form that fail on the server."""

    @pages_app.route("/broken", methods=["GET", "POST"])
    def broken() -> str:
        raise RuntimeError("a fault")

    return pages_app


def test_a_page_that_fails_to_open_does_not_talk_of_saving(failing_app):
    response = failing_app.test_client().get("/broken")
    assert response.status_code == 500
    page = response.get_data(as_text=True)
    assert "Nothing was saved" not in page
    assert "could not be shown because of a fault on the server; nothing was changed." in page


def test_a_form_that_fails_says_nothing_was_saved(failing_app):
    response = failing_app.test_client().post("/broken", data={"x": "1"})
    assert response.status_code == 500
    assert "Nothing was saved. Please try again." in response.get_data(as_text=True)


def test_a_rulings_time_is_a_utc_moment_the_phone_can_convert(pages_app):
    client = pages_app.test_client()
    asked = client.post("/checker/ask", data={"q": "tie", "scores_0": "1, 0", "scores_1": "0, 2"})
    verdict = client.get(asked.headers["Location"]).get_data(as_text=True)
    page = client.get("/checker/rulings").get_data(as_text=True)
    stamps = re.findall(r'<time datetime="([^"]+)">([^<]*)</time>', verdict + page)
    assert len(stamps) == 2, "the verdict's stamp and the list's"
    for moment, shown in stamps:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?Z", moment)
        assert shown.endswith(" UTC")  # said so without JavaScript; static/js/app.js converts
