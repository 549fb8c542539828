"""Capability tokens do not leak (issue 8, item 8): request paths are logged with the edit and
share tokens masked (gunicorn's access and error logs as ``make run`` serves, and the app's own
logs), and every page reached by an edit link is sent with ``Cache-Control: no-store``."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy import select

from companion.extensions import db
from companion.models import Game
from companion.web.redact import mask_tokens
from tests.web.setup_helpers import start_game, start_night

ROOT = Path(__file__).resolve().parents[3]
TOKEN = "Zq3xY7_wK-2mN8pLr5Tv1A"  # the shape of companion.models.new_token()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"GET /g/{TOKEN} HTTP/1.1", "GET /g/*** HTTP/1.1"),
        (f"GET /g/{TOKEN}/round/3?x=1 HTTP/1.1", "GET /g/***/round/3?x=1 HTTP/1.1"),
        (f"/s/{TOKEN}/board?v=4", "/s/***/board?v=4"),
        (f"http://192.168.1.20:8000/g/{TOKEN}#top", "http://192.168.1.20:8000/g/***#top"),
        (f"/passcode?next=%2Fg%2F{TOKEN}%2Fshare", "/passcode?next=%2Fg%2F***%2Fshare"),
        ("GET /static/css/app.css HTTP/1.1", "GET /static/css/app.css HTTP/1.1"),
        ("GET /history/nights/3 HTTP/1.1", "GET /history/nights/3 HTTP/1.1"),
    ],
)
def test_mask_tokens(text, expected):
    assert mask_tokens(text) == expected


def test_the_apps_own_logs_mask_tokens(app, caplog):
    caplog.set_level(logging.INFO)
    app.logger.warning("odd request to %s", f"/g/{TOKEN}/round")
    logging.getLogger("werkzeug").info('"%s" %s', f"GET /s/{TOKEN} HTTP/1.1", 200)
    assert TOKEN not in caplog.text
    assert "/g/***/round" in caplog.text and "GET /s/*** HTTP/1.1" in caplog.text


@pytest.fixture()
def game(client) -> Game:
    start_game(client, start_night(client))
    return db.session.scalars(select(Game)).one()


def test_pages_reached_by_an_edit_link_are_not_stored(client, game):
    edit = f"/g/{game.edit_token}"
    for path in (edit, f"{edit}/share", f"{edit}/audit", f"{edit}/board", f"{edit}/delete"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["Cache-Control"] == "no-store", path
    saved = client.post(f"{edit}/round", data={})
    assert saved.headers["Cache-Control"] == "no-store"
    assert client.get("/g/unknown-token").headers["Cache-Control"] == "no-store"
    # other pages may be cached as before
    assert "no-store" not in client.get("/").headers.get("Cache-Control", "")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_make_run_logs_no_tokens(tmp_path):
    """``python -m companion.serve`` (what ``make run`` starts) under gunicorn: requests to
    edit and share links, with a Referer carrying one, leave no token in its output."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'app.db'}",
        "SECRET_KEY": "leak-test",
    }
    port = _free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "companion.serve", "--host", "127.0.0.1"]
            + ["--port", str(port), "--workers", "1"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(f"{base}/api/v1/health", timeout=5)
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise
                    time.sleep(0.2)
            for path in (f"/g/{TOKEN}", f"/g/{TOKEN}/share", f"/s/{TOKEN}/board?v=1"):
                request = urllib.request.Request(
                    base + path, headers={"Referer": f"{base}/g/{TOKEN}"}
                )
                try:
                    urllib.request.urlopen(request, timeout=10)
                except urllib.error.HTTPError as exc:
                    assert exc.code == 404
        finally:
            server.terminate()
            server.wait(timeout=30)
    output = log.read_text()
    assert "/g/***" in output and "/s/***/board" in output  # the requests were logged
    assert TOKEN not in output


def test_database_errors_are_logged_without_the_values_bound(tmp_path):
    """A failed query logged by the 500 handler shows its SQL but not its parameters (an edit
    token looked up in ``games.edit_token``)."""
    from companion import create_app

    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'empty.db'}"})
    with app.app_context(), pytest.raises(Exception) as failure:  # no tables: it fails
        db.session.scalar(select(Game).where(Game.edit_token == TOKEN))
    assert "games" in str(failure.value) and TOKEN not in str(failure.value)


def test_join_and_hand_page_tokens_are_masked_too():
    """A player's join and hand pages carry the game's share token: logs never show it."""
    from companion.web.redact import mask_tokens

    line = '"GET /j/AbCdEfGhIjKlMnOpQrStUv HTTP/1.1" then "POST /p/AbCdEfGhIjKlMnOpQrStUv/live"'
    assert "AbCdEfGhIjKlMnOpQrStUv" not in mask_tokens(line)
