"""Simultaneous requests against a real threaded server (issue 8, item 7): the database keeps
one rematch per game and one live player per name, and the losing requests get the existing
answer (the rematch already started, the player already added), never an error.

Runs on SQLite (a file, WAL, as deployed) and on PostgreSQL (tests/postgres.py)."""

from __future__ import annotations

import threading
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import func, select
from werkzeug.serving import make_server

from companion import create_app
from companion.config import TestConfig
from companion.extensions import db
from companion.models import Game, Player
from tests.web.setup_helpers import game_data


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


_opener = urllib.request.build_opener(_NoRedirect)


def _phone() -> urllib.request.OpenerDirector:
    """A phone: an opener that keeps its cookies (keeping score is the right of one phone)."""
    return urllib.request.build_opener(_NoRedirect, urllib.request.HTTPCookieProcessor())


def _post(
    url: str, data: dict[str, str], opener: urllib.request.OpenerDirector = _opener
) -> tuple[int, str]:
    body = urllib.parse.urlencode(data).encode()
    try:
        with opener.open(url, body, timeout=60) as response:
            return response.status, response.headers.get("Location", "")
    except urllib.error.HTTPError as exc:  # 3xx (not followed) and errors land here
        return exc.code, exc.headers.get("Location", "")


@pytest.fixture()
def server(backend_url):
    """(base URL, app) of the app served by a threaded werkzeug server on a real database."""
    settings = {"SQLALCHEMY_DATABASE_URI": backend_url}
    app = create_app(type("RaceConfig", (TestConfig,), settings))
    with app.app_context():
        db.create_all()
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}", app
    finally:
        httpd.shutdown()
        with app.app_context():
            db.session.remove()
            db.drop_all()
            db.engine.dispose()


def _all_at_once(count: int, job) -> list:
    """Run ``job(i)`` in ``count`` threads released together by a barrier."""
    barrier = threading.Barrier(count)

    def run(i: int):
        barrier.wait()
        return job(i)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


def _night(base: str) -> int:
    status, location = _post(f"{base}/nights/new", {"played_on": "2026-11-28"})
    assert status == 303, status
    return int(location.rsplit("/", 1)[1])


def test_thirty_new_games_naming_the_same_new_player_make_one_player(server):
    base, app = server
    night_id = _night(base)
    data = game_data(["Newcomer", "Second Newcomer"])
    answers = _all_at_once(30, lambda _i: _post(f"{base}/nights/{night_id}/games/new", data))
    assert [status for status, _loc in answers] == [303] * 30
    assert all(location.startswith("/g/") for _s, location in answers)
    with app.app_context():
        names = db.session.execute(
            select(Player.name, func.count()).group_by(Player.name).order_by(Player.name)
        ).all()
        assert [tuple(row) for row in names] == [("Newcomer", 1), ("Second Newcomer", 1)]
        assert db.session.scalar(select(func.count(Game.id))) == 30


def test_twenty_rematch_taps_make_one_rematch(server):
    base, app = server
    night_id = _night(base)
    scorekeeper = _phone()  # the phone that started the game keeps its score
    status, location = _post(
        f"{base}/nights/{night_id}/games/new", game_data(["Ann", "Bob"]), scorekeeper
    )
    assert status == 303
    token = location.split("/")[2]
    with app.app_context():
        version = db.session.scalar(select(Game.version).where(Game.edit_token == token))
    answers = _all_at_once(
        20, lambda _i: _post(f"{base}/g/{token}/rematch", {"version": str(version)}, scorekeeper)
    )
    assert {status for status, _loc in answers} == {303}
    targets = {location for _s, location in answers}
    assert len(targets) == 1, targets  # every tap lands on the same rematch
    with app.app_context():
        games = db.session.scalars(select(Game).order_by(Game.id)).all()
        assert len(games) == 2
        assert games[1].rematch_of_id == games[0].id
        assert targets == {f"/g/{games[1].edit_token}"}
