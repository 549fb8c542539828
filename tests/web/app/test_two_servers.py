"""Two app servers on one PostgreSQL (issue 11): nothing that must agree between requests
lives in one process's memory, so a round saved through one server is seen by the other at
once and both serve the same history (stored standings, no per-process memo).

Starts a throwaway PostgreSQL (tests/postgres.py) and two gunicorn processes on loopback
ports with the same DATABASE_URL and SECRET_KEY, as docs/DEPLOY.md says.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.playkit import add_scored_rounds, make_game, seat_ids

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    from tests.postgres import postgres_server, unavailable_reason

    reason = unavailable_reason()
    if reason:
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    with postgres_server() as url:
        yield url


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """One gunicorn process serving wsgi:app; a browser with its own cookies talks to it."""

    def __init__(self, env: dict[str, str]) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-w", "1", "-b", f"127.0.0.1:{self.port}",
             "wsgi:app"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(jar), NoRedirect()
        )

    def wait(self) -> None:
        deadline = time.monotonic() + 120  # a busy machine: workers compile templates first
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(self.proc.stderr.read().decode() if self.proc.stderr else "")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("gunicorn did not start in 120 s")

    def get(self, path: str) -> tuple[int, str]:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.status, response.read().decode()

    def post(self, path: str, data: dict[str, str]) -> int:
        body = urllib.parse.urlencode(data).encode()
        request = urllib.request.Request(self.base + path, data=body, method="POST")
        request.add_header("Referer", self.base + path)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status
        except urllib.error.HTTPError as exc:
            return exc.code

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN201
        return None  # keep the 303 to assert on it


@pytest.fixture(scope="module")
def servers(pg_url: str) -> Iterator[tuple[Server, Server]]:
    from flask_migrate import upgrade

    from companion import create_app
    from companion.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": pg_url, "SECRET_KEY": "x"})
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
        db.session.remove()
    env = {
        **os.environ,
        "DATABASE_URL": pg_url,
        "SECRET_KEY": "one-key-for-every-server",
        "COMPANION_PASSCODE": "",
    }
    env.pop("COMPANION_PASSCODE")
    pair = (Server(env), Server(env))
    try:
        for server in pair:
            server.wait()
        yield pair
    finally:
        for server in pair:
            server.stop()


@pytest.fixture()
def last_round_game(pg_url: str):
    """A 3-player double-6 game with rounds 6..1 scored, the 0-0 round still to play."""
    from companion import create_app
    from companion.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": pg_url, "SECRET_KEY": "x"})
    with app.app_context():
        game = make_game(("Ann", "Bob", "Cy"), set_size=6)
        add_scored_rounds(game, [{"Ann": 0, "Bob": 5, "Cy": 7}] * 6)
        info = (game.edit_token, game.share_token, seat_ids(game), game.version)
        db.session.remove()
    return info


def csrf_token(page: str) -> str:
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page) or re.search(
        r'value="([^"]+)"[^>]*name="csrf_token"', page
    )
    assert found, "the round form carries a CSRF token"
    return found.group(1)


def test_a_round_saved_on_one_server_is_seen_on_the_other(servers, last_round_game):
    one, two = servers
    edit, share, seats, version = last_round_game
    # Both servers have answered history pages before the save (any per-process memo is warm).
    assert one.get("/history/leaderboard")[0] == two.get("/history/leaderboard")[0] == 200
    status, page = one.get(f"/g/{edit}")
    assert status == 200
    data = {
        "csrf_token": csrf_token(page),
        "version": str(version),
        "double": "0",
        f"total_{seats['Ann']}": "0",
        f"out_{seats['Ann']}": "y",
        f"total_{seats['Bob']}": "3",
        f"total_{seats['Cy']}": "4",
    }
    assert one.post(f"/g/{edit}/round", data) == 303
    # The other server sees the new round and the finished game at once.
    status, board = two.get(f"/s/{share}")
    assert status == 200 and "33" in board and "46" in board  # Bob 5*6+3, Cy 7*6+4
    # Both serve the same history: the leaderboard table and the player's record.
    boards = [tables(server.get("/history/leaderboard")[1]) for server in servers]
    assert boards[0] == boards[1]
    assert any("Ann" in row for row in re.findall(r"<tr[^>]*>.*?</tr>", boards[0], flags=re.S))
    status, listing = two.get("/history/players")
    ann = re.search(r'href="(/history/players/\d+)"[^>]*>\s*Ann\b', listing)
    assert ann, "Ann is listed with her finished game"
    records = [tables(server.get(ann.group(1))[1]) for server in servers]
    assert records[0] == records[1] and "Wins" in records[0]


def tables(page: str) -> str:
    """The page's main part without what belongs to one browser (flashes, CSRF tokens)."""
    main = re.search(r"<main.*?</main>", page, flags=re.S)
    body = main.group(0) if main else page
    body = re.sub(r'<div[^>]*class="flashes"[^>]*>.*?</div>', "", body, flags=re.S)
    body = re.sub(r'name="csrf_token"[^>]*>', "", body)  # per browser too
    return " ".join(body.split())
