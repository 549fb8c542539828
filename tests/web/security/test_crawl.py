"""Every page reachable by links from the home page, in every language, answers without a server
error, and so does every form sent empty or with nonsense (issue 26).

The database holds finished games (the hand-checked history of tests/history and a little demo
data), a game in play kept by this phone, a seat this phone joined and a ruling, so the
leaderboard, the records, the charts, the scoreboards and the player's hand page all have
something to show. A message whose translation does not format (es "Rate" -> "%") is a 500 on
the pages that show it, in that language only: only a crawl in every language finds it.

URLs are deduplicated by pattern (ids and tokens stand for any) and a few of each pattern are
opened, so a crawl of six languages takes seconds, not minutes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urljoin, urlsplit

import pytest
from flask import Flask
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

from companion import create_app
from companion.config import LANGUAGES, TestConfig
from companion.extensions import db
from companion.history.demo import generate
from tests.history.fixture import build
from tests.web.setup_helpers import start_game, start_night

#: pages of one URL pattern opened per language: enough to meet a finished and a live one
PER_PATTERN = 3
#: what a nonsense field is sent as: a format escape, markup and a number out of range
NONSENSE = "%(x)s % <b>-99999999999999999999"
#: links the crawl does not follow: the service worker and static files are no pages
SKIPPED = re.compile(r"^/(static/|sw\.js|manifest)")
#: a path segment that is an id or a token: any value of it is the same page
VARIABLE = re.compile(r"^(\d+|[A-Za-z0-9_-]{12,}|\d{4}-\d{2}-\d{2})$")


@dataclass
class Form:
    """A form found on a page: where it goes, how, and the names of its fields."""

    method: str
    action: str
    fields: list[str] = field(default_factory=list)


class _Page(HTMLParser):
    """The links and forms of one page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.forms: list[Form] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif tag == "form":
            self.forms.append(Form(a.get("method", "get").lower(), a.get("action", "")))
        elif tag in ("input", "select", "textarea", "button") and self.forms and a.get("name"):
            self.forms[-1].fields.append(a["name"])


def pattern(url: str) -> str:
    """``url`` with its ids and tokens replaced and its query reduced to its names: every URL of
    one pattern shows the same page for another row."""
    parts = urlsplit(url)
    path = "/".join("{}" if VARIABLE.match(s) else s for s in parts.path.split("/"))
    names = sorted({k for k, _v in parse_qsl(parts.query, keep_blank_values=True)})
    return f"{path}?{'&'.join(names)}" if names else path


def _local(app: Flask, base: str, href: str) -> str | None:
    """``href`` as a path and query on this site, or None (another site, an anchor, mailto).
    The share page's links name this machine's LAN address: a link to another host whose path
    is one of the app's pages counts as this site's."""
    url = urlsplit(urljoin(f"http://localhost{base}", href))
    if url.scheme not in ("http", "https"):
        return None
    if url.netloc != "localhost" and not _routed(app, url.path):
        return None
    if SKIPPED.match(url.path):
        return None
    return url.path + (f"?{url.query}" if url.query else "")


def _routed(app: Flask, path: str) -> bool:
    try:
        app.url_map.bind("localhost").match(path)
    except HTTPException as exc:
        return isinstance(exc, RequestRedirect)
    return True


@dataclass
class Crawl:
    """What a crawl in one language opened and what answered with a server error."""

    pages: list[str] = field(default_factory=list)
    forms: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def crawl(client, lang: str) -> Crawl:
    """Open every page reachable from the home page (a few per pattern), then send every form
    found (one per action pattern) empty and with nonsense; collect the 5xx answers."""
    headers = {"Accept-Language": lang}
    seen_patterns: Counter[str] = Counter()
    queue, opened = ["/"], set()
    forms: dict[tuple[str, str], tuple[str, Form]] = {}
    result = Crawl()
    while queue:
        url = queue.pop(0)
        if url in opened or seen_patterns[pattern(url)] >= PER_PATTERN:
            continue
        opened.add(url)
        seen_patterns[pattern(url)] += 1
        response = client.get(url, headers=headers)
        result.pages.append(url)
        if response.status_code >= 500:
            result.errors.append(f"GET {url} -> {response.status_code}")
        if response.mimetype != "text/html":
            continue
        parser = _Page()
        parser.feed(response.get_data(as_text=True))
        for href in parser.links:
            target = _local(client.application, url, href)
            if target and target not in opened:
                queue.append(target)
        for form in parser.forms:
            action = _local(client.application, url, form.action or url)
            if action:
                forms.setdefault((form.method, pattern(action)), (action, form))
    for action, form in forms.values():
        for fill in ("", NONSENSE):
            data = {name: fill for name in form.fields if name != "csrf_token"}
            send = client.post if form.method == "post" else client.get
            kwargs = {"data": data} if form.method == "post" else {"query_string": data}
            response = send(action, headers=headers, **kwargs)
            result.forms.append(f"{form.method.upper()} {action}")
            if response.status_code >= 500:
                result.errors.append(
                    f"{form.method.upper()} {action} {sorted(data)} {fill!r} -> "
                    f"{response.status_code}"
                )
    return result


@pytest.fixture()
def crawl_app() -> Iterator[Flask]:
    """An app with history to show: the hand-checked history and a little demo data. No app
    context is held across the requests (Flask-Babel keeps the locale in ``g``, which lives in
    it: one held context would show every page in the first request's language)."""
    application = create_app(TestConfig)
    with application.app_context():
        db.create_all()
        build(merged=False)
        generate(db.session, games=12, players=10, seed=26)
        db.session.remove()
    yield application
    with application.app_context():
        db.session.remove()
        db.drop_all()


def _phone_with_a_game(app: Flask):
    """A phone that keeps score of a game in play (one round entered) and joined its seat."""
    client = app.test_client()
    night = start_night(client)
    token = start_game(client, night, names=("Ann", "Bob", "Cleo", "Dev"))
    page = client.get(f"/g/{token}").get_data(as_text=True)
    share = re.search(r"/j/([A-Za-z0-9_-]+)", page)
    assert share, "the game page links to its join page"
    join = client.get(f"/j/{share.group(1)}").get_data(as_text=True)
    seat = re.search(r'name="seat" value="(\d+)"', join)
    assert seat, "the join page offers the seats"
    client.post(f"/j/{share.group(1)}", data={"seat": seat.group(1)})
    return client


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_no_page_or_form_answers_with_a_server_error(crawl_app, lang):
    client = _phone_with_a_game(crawl_app)
    result = crawl(client, lang)
    assert result.errors == []
    # the crawl reached the pages that need finished games and the phone's own game
    reached = {pattern(url) for url in result.pages}
    for needed in ("/history/leaderboard", "/g/{}", "/p/{}", "/history/players/{}"):
        assert any(p.startswith(needed) for p in reached), (needed, sorted(reached))
    assert len(result.forms) >= 10


def test_the_crawl_sees_a_server_error(crawl_app):
    @crawl_app.get("/history/broken")
    def broken() -> str:
        raise RuntimeError("a page that fails")

    client = crawl_app.test_client()
    assert crawl(client, "en").errors == []  # nothing links to it
    found = crawl_app.view_functions["games.index"]

    def index_with_a_link():  # the home page links to the broken page
        return str(found()) + '<a href="/history/broken">x</a>'

    crawl_app.view_functions["games.index"] = index_with_a_link
    assert crawl(client, "en").errors == ["GET /history/broken -> 500"]


def test_urls_of_one_page_share_a_pattern():
    assert pattern("/history/players/12?page=3") == pattern("/history/players/7?page=1")
    assert pattern("/g/AbCdEfGhIjKlMn/audit") == "/g/{}/audit"
    assert pattern("/history/leaderboard") != pattern("/history/players/1")
