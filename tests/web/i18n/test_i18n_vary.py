"""Pages in a negotiated language say so (issue 13): ``Vary: Accept-Language, Cookie`` (the
picker's choice lives in the session cookie), merged with ``Vary: HX-Request`` and
``Accept-Encoding`` rather than replacing them, so no cache serves a page in another phone's
language."""

from __future__ import annotations

import pytest

from companion import config
from tests.conftest import contextless_app
from tests.web.playkit import make_game

HTMX = {"HX-Request": "true"}


@pytest.fixture()
def app():
    """An app without an app context pushed around its requests: each request gets its own
    ``g``, as in production (the flag that a language was negotiated lives there)."""
    yield from contextless_app(config.TestConfig)


def vary(response) -> set[str]:
    return {v.strip().lower() for v in response.headers.get("Vary", "").split(",") if v.strip()}


def test_pages_in_a_negotiated_language_vary_on_it(app):
    client = app.test_client()
    for path in ("/", "/checker/", "/checker/rules", "/history/"):
        r = client.get(path, headers={"Accept-Language": "de"})
        assert r.status_code == 200, path
        assert {"accept-language", "cookie"} <= vary(r), (path, r.headers.get("Vary"))


def test_the_language_vary_is_merged_with_hx_request(app):
    with app.app_context():
        token = make_game().edit_token
    client = app.test_client()
    for headers in ({}, HTMX):
        for path in ("/checker/?pos=9-5+on+C", f"/g/{token}"):
            r = client.get(path, headers={"Accept-Language": "ru", **headers})
            assert {"hx-request", "accept-language", "cookie"} <= vary(r), (path, headers)


def test_answers_in_no_language_do_not_vary_on_it(app):
    r = app.test_client().get("/static/css/app.css", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200
    assert "accept-language" not in vary(r) and "cookie" not in vary(r)
