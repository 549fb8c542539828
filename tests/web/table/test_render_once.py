"""The board many phones poll is rendered once per change (issue 21, item 6): the read-only
board (``/s/<share>`` and its poll) and the board inside every joined phone's live part are
rendered once per game version and language and served from that render to every phone; a
repeat view of an unchanged board or page is ``304 Not Modified``; a shared rendering never
carries one phone's secrets to another."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.test import TestResponse

from companion.config import TestConfig
from companion.extensions import db
from companion.games import play
from companion.models import Game
from companion.services import scoreboard
from companion.table import views as table_views
from tests.conftest import contextless_app
from tests.web.playkit import make_game, round_post, seat_ids

PHONES = 12
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@dataclass
class Table:
    """A 3-player double-6 game on an app served as in production (no app context held
    across requests: each request its own ``g``, so no language or CSRF token carries over),
    its score kept on ``keeper``."""

    app: Flask
    keeper: FlaskClient
    share: str
    edit: str
    seats: dict[str, int]

    def version(self) -> int:
        """The game's version now."""
        with self.app.app_context():
            return db.session.scalars(
                select(Game.version).where(Game.share_token == self.share)
            ).one()

    def save_round(self) -> None:
        """The scorekeeper saves the next round (the game's version changes)."""
        with self.app.app_context():
            game = db.session.scalars(select(Game).where(Game.share_token == self.share)).one()
            data = round_post(game, 6 - len(game.rounds), totals={"Bob": 4, "Cy": 2}, out="Ann")
        assert self.keeper.post(f"/g/{self.edit}/round", data=data).status_code == 303

    def poll(self, **headers: str) -> TestResponse:
        """A new phone's poll of the read-only board (a version it has not seen)."""
        return self.app.test_client().get(f"/s/{self.share}/board?v=none", headers=headers)

    def joined(self, name: str) -> FlaskClient:
        """A new phone joined to ``name``'s seat."""
        phone = self.app.test_client()
        form = {"seat": self.seats[name]}
        with self.app.app_context():
            join = db.session.scalars(
                select(Game.join_token).where(Game.share_token == self.share)
            ).one()
        found = CSRF.search(phone.get(f"/j/{join}").text)
        if found:
            form["csrf_token"] = found.group(1)
        assert phone.post(f"/j/{join}", data=form).status_code == 303
        return phone


def _table(config: type) -> Iterator[Table]:
    for app in contextless_app(config):
        with app.app_context():
            game = make_game(("Ann", "Bob", "Cy"))
            share, edit, seats = game.share_token, game.edit_token, seat_ids(game)
        keeper = app.test_client()
        assert keeper.get(f"/g/{edit}").status_code == 200  # this phone keeps score
        yield Table(app, keeper, share, edit, seats)


@pytest.fixture()
def table() -> Iterator[Table]:
    yield from _table(TestConfig)


@pytest.fixture()
def csrf_table() -> Iterator[Table]:
    """As :func:`table`, with CSRF protection on (each phone's pages carry its own token)."""
    yield from _table(type("CsrfConfig", (TestConfig,), {"WTF_CSRF_ENABLED": True}))


@pytest.fixture()
def renders(monkeypatch) -> list[int]:
    """The versions of the boards built for pages, one per rendering of a board: the views'
    ``build_board``, counted wherever a view calls it (so it counts today's code too)."""
    built: list[int] = []

    def counting(game: Game) -> Any:
        built.append(game.version)
        return scoreboard.build_board(game)

    monkeypatch.setattr(play, "build_board", counting)
    monkeypatch.setattr(table_views, "build_board", counting)
    return built


def test_phones_polling_an_unchanged_board_share_one_render(table, renders):
    answers = [table.poll() for _ in range(PHONES)]
    pages = [table.app.test_client().get(f"/s/{table.share}") for _ in range(PHONES)]
    assert {a.status_code for a in answers + pages} == {200}
    assert len({a.text for a in answers}) == 1  # the same board for every phone
    assert all(answers[0].text in p.text for p in pages)  # the page holds that same board
    assert len(renders) == 1, f"{len(renders)} renders of one unchanged board"


def test_a_save_renders_the_board_once_more(table, renders):
    before = table.version()
    for _ in range(PHONES):
        table.poll()
    table.save_round()
    after = table.version()
    assert after != before
    answers = [table.poll() for _ in range(PHONES)]
    assert {a.status_code for a in answers} == {200}
    assert all(f'data-version="{after}"' in a.text for a in answers)
    assert renders == [before, after]
    # a phone that already shows the new version is told so (204), with nothing rendered
    same = table.app.test_client().get(f"/s/{table.share}/board?v={after}")
    assert same.status_code == 204 and len(renders) == 2


def test_joined_phones_share_the_board_of_their_live_part(table, renders):
    phones = [table.joined(name) for name in ("Ann", "Bob", "Cy")]
    lives = [c.get(f"/p/{table.share}/live?v=none") for c in phones]
    assert {r.status_code for r in lives} == {200}
    assert all('id="scoreboard"' in r.text for r in lives)
    assert len({r.text.split('id="scoreboard"', 1)[1] for r in lives}) == 1
    assert len(renders) == 1


def test_a_repeat_view_is_not_modified_and_sends_no_body(table):
    phone = table.app.test_client()
    board = f"/s/{table.share}/board?v=none"
    first = phone.get(board)
    etag = first.headers.get("ETag")
    assert first.status_code == 200 and etag and not etag.startswith("W/"), first.headers
    again = phone.get(board, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    # the whole read-only page too (from its second view: the first one made the CSRF secret)
    phone.get(f"/s/{table.share}")
    page = phone.get(f"/s/{table.share}")
    tag = page.headers.get("ETag")
    assert page.status_code == 200 and tag
    repeat = phone.get(f"/s/{table.share}", headers={"If-None-Match": tag})
    assert repeat.status_code == 304 and repeat.data == b""
    # a save changes the board: the old ETags no longer match
    table.save_round()
    changed = phone.get(board, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert phone.get(f"/s/{table.share}", headers={"If-None-Match": tag}).status_code == 200


def test_a_page_etag_is_the_phones_own(csrf_table):
    """Another phone's ETag never gets a 304 for a page that holds this phone's CSRF token."""
    a, b = csrf_table.app.test_client(), csrf_table.app.test_client()
    for phone in (a, b):
        phone.get(f"/s/{csrf_table.share}")
    tag = a.get(f"/s/{csrf_table.share}").headers.get("ETag")
    assert tag
    assert a.get(f"/s/{csrf_table.share}", headers={"If-None-Match": tag}).status_code == 304
    assert b.get(f"/s/{csrf_table.share}", headers={"If-None-Match": tag}).status_code == 200


def test_a_shared_board_never_carries_a_phones_secrets(csrf_table, renders):
    share = csrf_table.share
    phones = {name: csrf_table.joined(name) for name in ("Ann", "Bob")}
    tokens = {name: CSRF.search(c.get(f"/p/{share}").text).group(1) for name, c in phones.items()}
    viewer = csrf_table.app.test_client()
    viewer_page = viewer.get(f"/s/{share}").text
    tokens["viewer"] = CSRF.search(viewer_page).group(1)
    assert len(set(tokens.values())) == 3
    answers = {name: c.get(f"/p/{share}/live?v=none").text for name, c in phones.items()}
    answers["board"] = viewer.get(f"/s/{share}/board?v=none").text
    answers["viewer"] = viewer_page
    for name, own in tokens.items():
        for other, text in answers.items():
            if other != name:
                assert own not in text, f"{name}'s CSRF token in {other}'s answer"
    for name in ("Ann", "Bob", "board"):
        board = answers[name].split('id="scoreboard"', 1)[1]
        assert csrf_table.edit not in board and "csrf_token" not in board
    # and the boards were shared renderings, not one per phone: the read-only board once, the
    # joined phones' board once (for their pages and their live parts)
    assert len(renders) == 2, renders


def test_language_variants_are_not_mixed(table, renders):
    ru = table.poll(**{"Accept-Language": "ru"})
    en = table.poll(**{"Accept-Language": "en"})
    ru_again = table.poll(**{"Accept-Language": "ru"})
    en_again = table.poll(**{"Accept-Language": "en"})
    assert ">Scoreboard<" in en.text and ">Табло<" in ru.text
    assert ru_again.text == ru.text and en_again.text == en.text
    assert ru.headers.get("ETag") != en.headers.get("ETag")
    assert len(renders) == 2  # once per language


def test_another_players_post_leaves_a_phones_live_part_alone(table):
    """Each post changed every joined phone's ``?v=``, so twelve posts made every phone fetch
    and render its live part twelve times a round; it shows only its own hand and the board."""
    ann, bob = table.joined("Ann"), table.joined("Bob")
    page = ann.get(f"/p/{table.share}").text
    live = re.search(r'hx-get="(/p/[^"]+/live\?[^"]+)"', page).group(1).replace("&amp;", "&")
    assert ann.get(live).status_code == 204
    posted = bob.post(f"/p/{table.share}", data={"double": "6", "total": "12"})
    assert posted.status_code == 303
    assert ann.get(live).status_code == 204  # Bob's hand is not on Ann's phone
    assert ann.post(f"/p/{table.share}", data={"double": "6", "total": "7"}).status_code == 303
    mine = ann.get(live)
    assert mine.status_code == 200 and "Posted: 7 points" in mine.text
