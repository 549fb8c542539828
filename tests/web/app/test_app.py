"""The app factory: configuration, security headers, compression, error pages, SQLite pragmas."""

from __future__ import annotations

import re

import brotli
import pytest
from sqlalchemy import text

from companion import create_app
from companion.config import TestConfig, database_url
from companion.extensions import db


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ("", "sqlite:///"),
        ("postgres://u@h/app", "postgresql+psycopg://u@h/app"),
        ("postgresql://u@h/app", "postgresql+psycopg://u@h/app"),
        ("postgresql+psycopg://u@h/app", "postgresql+psycopg://u@h/app"),
        ("sqlite:////tmp/x.db", "sqlite:////tmp/x.db"),
    ],
)
def test_database_url_from_environment(monkeypatch, env, expected):
    monkeypatch.setenv("DATABASE_URL", env)
    assert database_url().startswith(expected)


def test_mapping_config_overrides_defaults():
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "COMPANION_PASSCODE": "x"})
    assert app.config["COMPANION_PASSCODE"] == "x"
    assert app.config["WTF_CSRF_ENABLED"] is True
    assert app.config["SESSION_COOKIE_HTTPONLY"] is True
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"


def test_security_headers_allow_only_own_scripts_and_the_pinned_cdn(client, app):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    script_src = re.search(r"script-src ([^;]+)", csp).group(1).split()
    assert script_src[0] == "'self'"
    assert app.config["HTMX_CDN"] in script_src
    assert "2.0.11" in app.config["HTMX_CDN"]
    assert script_src == ["'self'", app.config["HTMX_CDN"]]  # no inline script, not by hash
    assert "'unsafe-inline'" not in csp
    assert "style-src 'self'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_page_loads_htmx_with_sri_deferred_and_a_static_fallback(client, app):
    html = client.get("/").get_data(as_text=True)
    cdn = re.search(r"<script [^>]*data-htmx-cdn[^>]*>", html).group(0)
    assert f'src="{app.config["HTMX_CDN"]}"' in cdn
    assert f'integrity="{app.config["HTMX_SRI"]}"' in cdn
    assert 'crossorigin="anonymous"' in cdn
    assert " defer" in cdn  # never blocks the first paint
    fallback = re.search(r'<script src="/static/js/htmx-fallback.js[^"]*"[^>]*>', html).group(0)
    assert 'data-local="/static/vendor/htmx.min.js' in fallback and " defer" in fallback
    # the fallback runs before the CDN copy (deferred scripts run in order)
    assert html.index(fallback) < html.index(cdn)
    assert "document.write" not in html
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)  # no inline script


def test_html_is_compressed_when_the_browser_asks(client):
    response = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers.get("Content-Encoding") == "gzip"


def test_a_page_is_sent_in_brotli_when_the_phone_takes_it_and_zstd(client):
    """Chrome offers br and zstd: Brotli (quality 5) makes pages about 12% smaller than zstd
    at its default level (issue 26: at most 30 KB a first visit)."""
    chrome = {"Accept-Encoding": "gzip, deflate, br, zstd"}
    response = client.get("/checker/rules", headers=chrome)
    assert response.headers.get("Content-Encoding") == "br"
    assert brotli.decompress(response.get_data()).decode().startswith("<!doctype html>")


def test_unknown_page_is_a_friendly_404(client):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert "<html" in response.get_data(as_text=True)


def test_unknown_api_path_is_json(client):
    response = client.get("/api/v1/nope")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "NOT_FOUND"


def test_sqlite_connections_enforce_foreign_keys(tmp_path):
    class FileConfig(TestConfig):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{tmp_path / 'x.db'}"

    app = create_app(FileConfig)
    with app.app_context():
        assert db.session.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert db.session.execute(text("PRAGMA journal_mode")).scalar() == "wal"


def test_sqlite_connections_read_through_a_memory_map(tmp_path):
    """A fresh worker's connection reads pages from the shared file cache (mmap), not through
    a private 2 MB page cache it starts empty (the cold history pages at 50,000 games)."""

    class FileConfig(TestConfig):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{tmp_path / 'x.db'}"

    app = create_app(FileConfig)
    with app.app_context():
        assert db.session.execute(text("PRAGMA mmap_size")).scalar() >= 2**30


@pytest.mark.parametrize(
    "url",
    [
        "/history/players/99999999999999999999",
        "/history/games/99999999999999999999999",
        "/history/nights/9223372036854775808",
        "/nights/9223372036854775808",
    ],
)
def test_ids_beyond_64_bits_are_404_not_database_errors(client, url):
    assert client.get(url).status_code == 404


def test_remembering_a_game_keeps_the_cookie_after_the_browser_closes(app):
    from companion.access import remember
    from companion.models import Game

    with app.test_request_context("/"):
        from flask import session

        from companion.models import GameNight

        night = GameNight(played_on=__import__("datetime").date(2026, 12, 1))
        game = Game(night=night, rules={}, edit_token="tok")
        from companion.extensions import db

        db.session.add(game)
        db.session.commit()
        remember(game)
        assert session.permanent is True
    assert app.config["PERMANENT_SESSION_LIFETIME"].days >= 90


def test_look_alike_names_are_one_player():
    from companion.services.game_setup import name_key

    assert name_key("Ｆｏｏ") == name_key("foo") == name_key("FOO")


def test_static_scripts_styles_and_images_carry_no_document_policy(client):
    """A document's policy headers mean nothing on a script, a style sheet or a PNG (issue 26:
    their bytes counted in each first visit); nosniff stays; an SVG, which can be opened as a
    document, gets a policy of its own that allows nothing."""
    page = client.get("/nights/new").get_data(as_text=True)
    for url in re.findall(r'(?:href|src)="(/static/[^"]+\.(?:js|css|png)\?v=\w+)"', page):
        headers = client.get(url).headers
        assert "Content-Security-Policy" not in headers, url
        assert "X-Frame-Options" not in headers and "Permissions-Policy" not in headers, url
        assert headers["X-Content-Type-Options"] == "nosniff", url
    svg = client.get("/static/icons/favicon.svg").headers
    # an SVG opened as a document may load and run nothing, and be framed nowhere
    assert svg["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"
    assert svg["X-Frame-Options"] == "DENY" and "Permissions-Policy" not in svg
    assert "Content-Security-Policy" in client.get("/sw.js").headers


def test_the_scorekeepers_poll_answers_no_change_with_headers_only_it_needs(client):
    """The round form asks every few seconds: its 204 ("nothing changed") carried the page's
    policy headers and a renewed session cookie each time, about 650 bytes of nothing
    (issue 26); the page renews the cookie."""
    from tests.web.playkit import make_game

    game = make_game(("Ann", "Bob", "Cy"))
    page = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    key = re.search(r'data-key="([^"]+)"', page).group(1)
    answer = client.get(f"/g/{game.edit_token}/posts?v={key}")
    assert answer.status_code == 204
    assert "Set-Cookie" not in answer.headers and "Content-Security-Policy" not in answer.headers
    assert answer.headers["Cache-Control"] == "no-store"  # an edit link's answer: kept nowhere
    assert "Cookie" in answer.vary
    assert client.get(f"/g/{game.edit_token}/posts?v=old").status_code == 200  # still answers
    manifest = client.get("/manifest.webmanifest").headers
    assert "Content-Security-Policy" not in manifest and "Set-Cookie" not in manifest


def test_favicon_ico_leads_to_the_app_icon(client):
    r = client.get("/favicon.ico")
    assert r.status_code == 302 and "/static/icons/icon-144.png" in r.location
    icon = client.get(r.location)
    assert icon.status_code == 200 and icon.mimetype == "image/png"
