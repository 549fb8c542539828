"""Secrets stay out of caches, query strings and logs; HSTS over HTTPS; an import never undoes a
scorekeeper's deletion unless the importer is the host or that scorekeeper (issue 21, item 5)."""

from __future__ import annotations

import io
import logging
import re

import pytest
from sqlalchemy import select

from companion import config
from companion.extensions import db
from companion.models import Game
from companion.web.redact import MaskTokensFilter, mask_tokens
from tests.conftest import fresh_app
from tests.web.playkit import make_game, seat_ids, text


def secret_pages(game: Game) -> list[str]:
    return [
        f"/g/{game.edit_token}",
        f"/g/{game.edit_token}/admit",
        f"/p/{game.share_token}",
        f"/p/{game.share_token}/live",
        f"/j/{game.join_token}",
        f"/j/{game.share_token}",
        "/passcode",
    ]


def test_every_page_that_carries_a_secret_is_no_store(app, client):
    game = make_game(("Ann", "Bob"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    bob = app.test_client()
    assert (
        bob.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Bob"]}).status_code == 303
    )
    for url in secret_pages(game):
        phone = bob if url.startswith("/p/") else client
        response = phone.get(url)
        assert response.status_code < 500, url
        assert response.headers.get("Cache-Control") == "no-store", url


def test_no_page_puts_a_token_in_a_query_string(app, client):
    game = make_game(("Ann", "Bob"))
    bob = app.test_client()
    assert (
        bob.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Bob"]}).status_code == 303
    )
    tokens = (game.edit_token, game.share_token, game.join_token)
    pages = [
        client.get(f"/g/{game.edit_token}").text,
        client.get(f"/g/{game.edit_token}/share").text,
        client.get(f"/s/{game.share_token}").text,
        bob.get(f"/p/{game.share_token}").text,
        client.get(f"/checker/?game={game.id}").text,
        client.get(f"/checker/rulings?game={game.id}").text,
        client.get(f"/checker/house-rules?game={game.id}").text,
    ]
    for page in pages:
        for link in re.findall(r'(?:href|action|hx-get|hx-post)="([^"]*)"', page):
            query = link.partition("?")[2]
            assert not any(t in query for t in tokens), link
    assert f"/checker/?game={game.id}" in pages[0]


class Passcode(config.TestConfig):
    COMPANION_PASSCODE = "open sesame"


def test_a_game_named_by_id_in_the_checker_is_only_this_tables():
    for locked in fresh_app(Passcode):
        game = make_game(("Ann", "Bob"))
        keeper = locked.test_client()
        assert keeper.get(f"/g/{game.edit_token}").status_code == 200
        assert "Game with Ann, Bob" in text(keeper.get(f"/checker/?game={game.id}"))
        stranger = locked.test_client()
        assert stranger.get(f"/checker/?game={game.id}").status_code == 404
        assert stranger.get(f"/checker/rulings?game={game.id}").status_code == 404


def test_a_token_in_a_query_string_is_masked_in_logs():
    record = logging.LogRecord(
        "werkzeug",
        logging.INFO,
        __file__,
        1,
        '"GET /checker/?game=AbCdEfGhIjKlMnOpQrStUv&q=end HTTP/1.1" 200',
        None,
        None,
    )
    MaskTokensFilter().filter(record)
    assert record.getMessage() == '"GET /checker/?game=***&q=end HTTP/1.1" 200'
    kept = logging.LogRecord(
        "werkzeug", logging.INFO, __file__, 1, '"GET /checker/?game=12 HTTP/1.1"', None, None
    )
    MaskTokensFilter().filter(kept)
    assert kept.getMessage() == '"GET /checker/?game=12 HTTP/1.1"'


def test_hsts_only_when_the_app_knows_it_is_behind_https(app, client):
    assert "Strict-Transport-Security" not in client.get("/").headers
    over_https = client.get("/", base_url="https://localhost")
    assert over_https.headers["Strict-Transport-Security"] == "max-age=31536000"
    # a phone cannot claim HTTPS with a header unless a proxy is trusted
    claimed = client.get("/", headers={"X-Forwarded-Proto": "https"})
    assert "Strict-Transport-Security" not in claimed.headers

    class Proxied(config.TestConfig):
        TRUSTED_PROXIES = 1

    for proxied in fresh_app(Proxied):
        answer = proxied.test_client().get("/", headers={"X-Forwarded-Proto": "https"})
        assert answer.headers["Strict-Transport-Security"] == "max-age=31536000"


# --- import never undoes a scorekeeper's deletion ---------------------------------------------


def _upload(client, data: bytes):
    return client.post(
        "/history/import",
        data={"file": (io.BytesIO(data), "backup.json")},
        content_type="multipart/form-data",
    )


def _deleted(game: Game) -> bool:
    db.session.expire_all()
    return db.session.scalar(select(Game.deleted_at).where(Game.id == game.id)) is not None


@pytest.fixture()
def deleted_game(app, client):
    """A game its scorekeeper (``client``) deleted, and an export of its night downloaded
    before by anyone."""
    game = make_game(("Ann", "Bob"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    backup = app.test_client().get(f"/history/export.json?night={game.night_id}").get_data()
    r = client.post(f"/g/{game.edit_token}/delete", data={"version": str(game.version)})
    assert r.status_code == 303 and _deleted(game)
    return game, backup


def test_importing_a_public_export_does_not_bring_back_a_deleted_game(app, deleted_game):
    game, backup = deleted_game
    anyone = app.test_client()
    page = _upload(anyone, backup)
    assert page.status_code == 200
    assert _deleted(game)
    assert "Left deleted: 0 game nights, 1 game." in text(page)


def test_the_games_own_scorekeeper_brings_it_back_by_importing(client, deleted_game):
    game, backup = deleted_game
    page = _upload(client, backup)
    assert page.status_code == 200 and not _deleted(game)
    assert "Restored (they had been deleted): 0 game nights, 1 game." in text(page)


def test_the_host_with_the_passcode_brings_it_back_by_importing():
    for locked in fresh_app(Passcode):
        game = make_game(("Ann", "Bob"))
        keeper = locked.test_client()
        assert keeper.get(f"/g/{game.edit_token}").status_code == 200
        backup = keeper.get(f"/history/export.json?night={game.night_id}").get_data()
        keeper.post("/passcode", data={"passcode": "open sesame"})
        r = keeper.post(f"/g/{game.edit_token}/delete", data={"version": str(game.version)})
        assert r.status_code == 303 and _deleted(game)
        host = locked.test_client()
        host.post("/passcode", data={"passcode": "open sesame"})
        assert _upload(host, backup).status_code == 200 and not _deleted(game)


def test_a_scorekeeper_sent_to_the_passcode_keeps_the_edit_link_out_of_the_url():
    """POST /g/<edit>/delete without the passcode answered 303 to
    /passcode?next=/g/<edit>/delete: the edit token in a query string and the form's hidden
    next. The page to come back to is kept in the session; after the passcode the phone is
    sent back to it."""
    for locked in fresh_app(Passcode):
        game = make_game(("Ann", "Bob"))
        keeper = locked.test_client()
        assert keeper.get(f"/g/{game.edit_token}").status_code == 200
        for action in ("delete", "rematch", "restore"):
            sent = keeper.post(f"/g/{game.edit_token}/{action}", data={"version": "1"})
            assert sent.status_code == 303, action
            assert game.edit_token not in sent.headers["Location"], action
        page = keeper.get(sent.headers["Location"])
        assert game.edit_token not in page.get_data(as_text=True)
        back = keeper.post("/passcode", data={"passcode": "open sesame"})
        assert back.status_code == 303
        assert back.headers["Location"].endswith(f"/g/{game.edit_token}/restore")
        # used once: the next trip to the passcode page does not send the phone there again
        with keeper.session_transaction() as kept:
            assert "passcode_next" not in kept


@pytest.mark.parametrize(
    ("line", "masked"),
    [
        ("GET /%67/AbCdEfGh12/round HTTP/1.1", "GET /%67/***/round HTTP/1.1"),
        ("GET /checker/?GAME=AbCdEfGhIj&q=1 HTTP/1.1", "GET /checker/?GAME=***&q=1 HTTP/1.1"),
        ("GET /checker/?x=1;game=AbCdEfGhIj HTTP/1.1", "GET /checker/?x=1;game=*** HTTP/1.1"),
        (
            "GET /passcode?next=%252Fg%252FAbCdEfGh12%252Fdelete HTTP/1.1",
            "GET /passcode?next=%252Fg%252F***%252Fdelete HTTP/1.1",
        ),
        (
            "GET /passcode?next=%2Fchecker%2F%3Fgame%3DAbCdEfGhIj HTTP/1.1",
            "GET /passcode?next=%2Fchecker%2F%3Fgame%3D*** HTTP/1.1",
        ),
        ("GET /checker/?GAME=12 HTTP/1.1", "GET /checker/?GAME=12 HTTP/1.1"),
        # a later attack: the token's own letters encoded, a doubled slash, "./" or ";x"
        ("GET /g/%33%30WRKlEH2edHD HTTP/1.1", "GET /g/*** HTTP/1.1"),
        ("GET /j/%64%34dJx8ANsE7/seat HTTP/1.1", "GET /j/***/seat HTTP/1.1"),
        ("GET /g//30WRKlEH2edHD HTTP/1.1", "GET /g//*** HTTP/1.1"),
        ("GET /g/./30WRKlEH2edHD HTTP/1.1", "GET /g/./*** HTTP/1.1"),
        ("GET /g;x/30WRKlEH2edHD HTTP/1.1", "GET /g;x/*** HTTP/1.1"),
        ("GET /g%3Bx/30WRKlEH2edHD HTTP/1.1", "GET /g%3Bx/*** HTTP/1.1"),
        ("GET /p;a/30WRKlEH2edHD HTTP/1.1", "GET /p;a/*** HTTP/1.1"),
    ],
)
def test_tokens_are_masked_whatever_their_case_or_encoding(line, masked):
    """The attack's log lines that kept the edit token: an encoded letter, a parameter in
    capitals, a ';' separator, a next= encoded twice."""
    assert mask_tokens(line) == masked
