"""Choosing a language (issue 13): Accept-Language by default, the picker on every page kept in
the session, share/join links carrying the sharer's language as a preference that never
overrides a phone's own choice, ``<html lang>``, English as the fallback.

The catalogs themselves are the translators' work: these tests compile tiny ones of their own
into a temporary folder, so they hold whatever the shipped catalogs contain.
"""

from __future__ import annotations

import json
import re

import pytest
import segno
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from companion import config, create_app
from companion.config import LANGUAGES
from companion.extensions import db
from companion.web import public_url
from tests.conftest import contextless_app
from tests.web.setup_helpers import start_game, start_night

#: a few messages per language, enough to tell the page's language from its text
WORDS = {
    "ru": {
        "Start a game night": "Начать игровой вечер",
        "Games": "Игры",
        "Not a valid date value.": "Это не дата.",
        "%(tiles)s: %(points)s.": "%(tiles)s: %(points)s.",
        "Only %(n)s tiles besides the centre double carry its number in a double-%(n)s set, "
        "so it can take at most %(n)s spokes, not %(k)s.": "Только %(n)s костей, не %(k)s.",
        "The drawn %(tile)s cannot be played, so you pass (no second draw).": (
            "Добранную %(tile)s сыграть нельзя: пас."
        ),
        "No penalty: these house rules do not require announcing the last tile.": (
            "Без штрафа: по этим домашним правилам объявлять последнюю кость не нужно."
        ),
    },
    "de": {"Start a game night": "Spieleabend beginnen", "Games": "Spiele"},
    "lt": {
        "Start a game night": "Pradėti žaidimų vakarą",
        "Games": "Žaidimai",
        "Not a valid date value.": "Tai ne data.",
    },
}
PLURALS = {
    # ngettext entries: (singular, plural) -> the language's forms
    "ru": {
        ("%(num)s tile", "%(num)s tiles"): ("%(num)s кость", "%(num)s кости", "%(num)s костей"),
        ("%(num)s tile left in hand", "%(num)s tiles left in hand"): (
            "на руке %(num)s кость",
            "на руке %(num)s кости",
            "на руке %(num)s костей",
        ),
        ("%(num)s point", "%(num)s points"): ("%(num)s очко", "%(num)s очка", "%(num)s очков"),
    },
}


pytestmark = pytest.mark.usefixtures("fresh_translations")


def _compile(folder, code: str) -> None:
    catalog = Catalog(locale=code)
    for msgid, msgstr in WORDS.get(code, {}).items():
        catalog.add(msgid, msgstr)
    for ids, forms in PLURALS.get(code, {}).items():
        catalog.add(ids, forms)
    target = folder / code / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "messages.mo").open("wb") as handle:
        write_mo(handle, catalog)


@pytest.fixture()
def app(tmp_path):
    """The app with small ru/de/lt catalogs of this test's own (the shipped ones may be absent
    on a branch): every other message stays English."""
    for code in WORDS:
        _compile(tmp_path, code)

    class Small(config.TestConfig):
        BABEL_TRANSLATION_DIRECTORIES = str(tmp_path)

    yield from contextless_app(Small)


@pytest.fixture()
def client(app):
    return app.test_client()


def html_lang(page: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', page)
    assert found, page[:200]
    return found.group(1)


def test_languages_have_one_home_with_their_own_names():
    assert LANGUAGES == {
        "en": "English",
        "ru": "Русский",
        "lt": "Lietuvių",
        "cs": "Čeština",
        "es": "Español",
        "de": "Deutsch",
    }
    assert list(LANGUAGES) == config.Config.LANGUAGES


def test_accept_language_chooses_and_english_is_the_fallback(client):
    page = client.get("/", headers={"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"}).text
    assert html_lang(page) == "de" and "Spieleabend beginnen" in page
    page = client.get("/", headers={"Accept-Language": "ru"}).text
    assert html_lang(page) == "ru" and "Начать игровой вечер" in page
    page = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9,ja;q=0.5"}).text
    assert html_lang(page) == "en" and "Start a game night" in page
    assert html_lang(client.get("/").text) == "en"


def test_the_picker_is_on_every_page_named_in_each_language(client):
    night = start_night(client)
    for path in ("/", "/checker/", "/history/", f"/nights/{night}"):
        page = client.get(path).text
        assert 'action="/language"' in page, path
        for code, name in LANGUAGES.items():
            assert f'name="lang" value="{code}" lang="{code}"' in page, (path, code)
            assert f">{name}</button>" in page, (path, name)
        assert 'name="csrf_token"' in page


def test_a_choice_is_kept_in_the_session_and_beats_the_browser(client):
    r = client.post("/language", data={"lang": "ru", "next": "/history/?page=1"})
    assert r.status_code == 303 and r.location.endswith("/history/?page=1")
    page = client.get("/", headers={"Accept-Language": "de"}).text
    assert html_lang(page) == "ru" and "Игры" in page
    client.post("/language", data={"lang": "en", "next": "/"})
    assert html_lang(client.get("/", headers={"Accept-Language": "de"}).text) == "en"


def test_a_bad_choice_changes_nothing_and_never_leaves_the_site(client):
    r = client.post("/language", data={"lang": "xx", "next": "//evil.example/"})
    assert r.status_code == 303 and r.location.endswith("/") and "evil" not in r.location
    assert html_lang(client.get("/", headers={"Accept-Language": "de"}).text) == "de"


def test_the_picker_comes_back_to_the_same_page(client):
    page = client.get("/checker/?players=5&_scheme=javascript&lang=ru").text
    back = re.search(r'name="next" value="([^"]*)"', page).group(1)
    assert back == "/checker/?players=5"  # own query kept; lang and _names dropped


def test_the_picker_on_a_page_answering_a_form_goes_back_to_a_page_that_opens(client):
    """A checker question asked without JavaScript is answered at /checker/ask, an address
    that only takes posts: the picker came back to it and the phone got "page not found"."""
    sent_from = "http://localhost/checker/?q=move&players=4&lang=de&_x=1"
    page = client.post("/checker/ask", data={"q": "move"}, headers={"Referer": sent_from})
    back = re.search(r'name="next" value="([^"]*)"', page.text).group(1)
    assert back == "/checker/?q=move&amp;players=4"
    assert client.get(back.replace("&amp;", "&")).status_code == 200
    # a form sent from another site (or with no Referer) comes back to the home page
    elsewhere = client.post("/checker/ask", data={}, headers={"Referer": "http://evil.example/x"})
    assert re.search(r'name="next" value="([^"]*)"', elsewhere.text).group(1) == "/"


def test_the_picker_needs_the_csrf_token_when_csrf_is_on(tmp_path):
    class WithCsrf(config.TestConfig):
        WTF_CSRF_ENABLED = True

    application = create_app(WithCsrf)
    with application.app_context():
        db.create_all()
    # no app context held across requests: Flask-Babel caches the locale in ``g``
    client = application.test_client()
    assert client.post("/language", data={"lang": "de", "next": "/"}).status_code == 400
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").text).group(1)
    r = client.post("/language", data={"lang": "de", "next": "/", "csrf_token": token})
    assert r.status_code == 303
    assert html_lang(client.get("/").text) == "de"
    with application.app_context():
        db.session.remove()
        db.drop_all()


def test_a_link_language_is_a_preference_for_a_phone_without_a_choice(client):
    fr = {"Accept-Language": "fr-FR,fr;q=0.9"}  # a browser asking for none of our languages
    page = client.get("/?lang=lt", headers=fr).text
    assert html_lang(page) == "lt" and "Pradėti žaidimų vakarą" in page
    assert html_lang(client.get("/", headers=fr).text) == "lt"  # kept for the next pages
    assert html_lang(client.get("/?lang=zz", headers=fr).text) == "lt"  # unknown: ignored


def test_a_link_language_never_overrides_the_language_the_phones_browser_asks_for(client):
    """At a table of phones in different languages, the scorekeeper's join link (``?lang=de``)
    turned every joining phone German, whatever its browser asked for: the sharer's language
    was forced on the other phones instead of being a preference."""
    for header, said in (("ru-RU,ru;q=0.9", "ru"), ("lt", "lt"), ("cs-CZ,cs;q=0.9", "cs")):
        guest = client.application.test_client()
        assert html_lang(guest.get("/?lang=de", headers={"Accept-Language": header}).text) == said
        assert html_lang(guest.get("/", headers={"Accept-Language": header}).text) == said


def test_a_link_language_never_overrides_a_phones_own_choice(client):
    client.post("/language", data={"lang": "ru", "next": "/"})
    assert html_lang(client.get("/?lang=de").text) == "ru"
    assert html_lang(client.get("/").text) == "ru"


def test_share_and_join_links_and_qr_codes_carry_the_sharers_language(client, app, monkeypatch):
    monkeypatch.setattr(public_url, "machine_addresses", lambda: ())  # links on localhost
    client.post("/language", data={"lang": "de", "next": "/"})
    token = start_game(client, start_night(client))
    share = client.get(f"/g/{token}/share").text
    links = re.findall(r'<a href="(https?://[^"]+)">', share)
    assert len(links) == 2 and all(link.endswith("?lang=de") for link in links), links
    qr_texts = [segno.make(link, error="m").svg_inline() for link in links]
    paths = [re.search(r' d="([^"]+)"', svg).group(1) for svg in qr_texts]
    assert all(f'd="{path}"' in share for path in paths)  # the QR codes encode them too
    game_page = client.get(f"/g/{token}").text
    join = re.search(r'href="(http://localhost/j/[^"]+)"', game_page).group(1)
    assert join.endswith("?lang=de")
    # a phone whose browser asks for none of the app's languages opens the join link in the
    # sharer's language; a Russian phone stays Russian (a preference, never forced)
    guest = app.test_client()
    page = guest.get(join.removeprefix("http://localhost"), headers={"Accept-Language": "pl"})
    assert html_lang(page.text) == "de"
    russian = app.test_client()
    page = russian.get(join.removeprefix("http://localhost"), headers={"Accept-Language": "ru"})
    assert html_lang(page.text) == "ru"


def test_the_tile_pickers_sum_gets_every_plural_form_of_the_language(app):
    from companion.web.languages import plural_words

    with app.test_request_context("/", headers={"Accept-Language": "ru"}):
        words = json.loads(plural_words("%(num)s tile", "%(num)s tiles"))
    assert words == {"one": "{n} кость", "few": "{n} кости", "many": "{n} костей"}  # whole numbers
    with app.test_request_context("/"):
        words = json.loads(plural_words("%(num)s tile", "%(num)s tiles"))
    assert words == {"one": "{n} tile", "other": "{n} tiles"}


def test_outside_a_request_the_locale_is_english(app):
    from companion.web.languages import select_locale

    with app.app_context():
        assert select_locale() == "en"


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("ru", "Это не дата."),  # the app's own catalog first
        ("lt", "Tai ne data."),  # WTForms ships no Lithuanian
        ("es", None),  # no entry of ours: WTForms' own Spanish
        ("cs", None),  # WTForms files Czech under cs_CZ
    ],
)
def test_wtforms_own_messages_are_in_the_players_language(client, code, said):
    client.post("/language", data={"lang": code, "next": "/"})
    page = client.post("/nights/new", data={"played_on": "2026-13-45"}).text
    assert "Not a valid date value." not in page
    if said:
        assert said in page


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("en", "Tuesday, December 1"),
        ("de", "Dienstag, 1. Dezember"),
        ("ru", "вторник, 1 декабря"),
        ("lt", "gruodžio 1 d., antradienis"),
        ("cs", "úterý 1. prosince"),
        ("es", "martes, 1 de diciembre"),
    ],
)
def test_the_game_titles_date_is_in_the_locales_own_order(app, code, said):
    """The game page's title wrote every language's date in one fixed English pattern
    ("EEEE d MMMM": "Dienstag 1 Dezember", "martes 1 diciembre")."""
    from datetime import date

    from flask import render_template_string

    with app.test_request_context(headers={"Accept-Language": code}):
        assert render_template_string("{{ day | weekday_date }}", day=date(2026, 12, 1)) == said


def test_a_hands_score_is_explained_in_the_players_language(client):
    """The checker's answer to "what does this hand score?" showed the engine's English
    sentence ("2 tiles left in hand: 11 points.") on every language's page."""
    ru = {"Accept-Language": "ru"}
    resp = client.post("/checker/ask", data={"q": "score", "hand": ["6-5", "1-0"]}, headers=ru)
    page = client.get(resp.headers["Location"], headers=ru).text
    assert "на руке 2 кости: 12 очков." in page
    assert "left in hand" not in page.split('id="verdict"')[1].split("</p>")[0]
    # the special case "a blocked round with only the double-blank" is a hand's score too
    resp = client.post("/checker/ask", data={"q": "edge", "edge": "blank"}, headers=ru)
    page = client.get(resp.headers["Location"], headers=ru).text
    assert "на руке 1 кость: " in page
    # and the last-tile announcement's answer
    resp = client.post("/checker/ask", data={"q": "edge", "edge": "announce"}, headers=ru)
    page = client.get(resp.headers["Location"], headers=ru).text
    assert "объявлять последнюю кость не нужно" in page
    # and the centre double's capacity
    resp = client.post(
        "/checker/ask", data={"q": "edge", "edge": "capacity", "spokes": "12"}, headers=ru
    )
    page = client.get(resp.headers["Location"], headers=ru).text
    assert "Только 9 костей, не 12." in page
    # and what to do with a drawn tile
    foot = "9-5 on C, 9-4 on C, 9-3 on C, 9-2 on C, 5-5 on S1"
    draw = {"q": "draw", "pos": foot, "hand_text": "4-3 6-2"}
    resp = client.post(
        "/checker/ask", data={**draw, "yard_count": "9", "tile_drawn": "6-0"}, headers=ru
    )
    page = client.get(resp.headers["Location"], headers=ru).text
    assert "Добранную 6-0 сыграть нельзя: пас." in page
