"""Access: edit and share tokens, remembered games, the optional passcode, CSRF."""

from __future__ import annotations

import re

import pytest
from flask import session
from sqlalchemy import func, select
from werkzeug.exceptions import HTTPException, NotFound

from companion import access, config, create_app
from companion.extensions import db
from companion.models import Game, GameNight, utcnow
from companion.services.game_lookup import game_for_view
from companion.web import game_lookup
from tests.web.setup_helpers import game_data, start_game, start_night


@pytest.fixture()
def game(client) -> Game:
    start_game(client, start_night(client))
    return db.session.scalars(select(Game)).one()


# --- tokens --------------------------------------------------------------------------------


def test_game_for_edit_and_view(app, game):
    with app.test_request_context():
        assert game_lookup.game_for_edit(game.edit_token) is game
        assert game_for_view(game.share_token) is game
        for bad in ("", "nope", game.share_token, "x" * 500):
            with pytest.raises(NotFound):
                game_lookup.game_for_edit(bad)
        with pytest.raises(NotFound):
            game_for_view(game.edit_token)  # the edit token is not a share token


def test_deleted_games_are_not_found(app, game):
    game.deleted_at = utcnow()
    db.session.commit()
    with app.test_request_context():
        # Within the restore window the edit link leads to the "undo delete" page.
        with pytest.raises(HTTPException) as gone:
            game_lookup.game_for_edit(game.edit_token)
        assert gone.value.response.status_code == 303
        assert gone.value.response.location.endswith(f"/g/{game.edit_token}/deleted")
        with pytest.raises(NotFound):
            game_for_view(game.share_token)


def test_tokens_are_unguessable_and_distinct(game):
    assert len(game.edit_token) >= 22 and len(game.share_token) >= 22
    assert game.edit_token != game.share_token


def test_remember_keeps_newest_first_server_side_and_capped(app):
    with app.test_request_context():
        night = GameNight(played_on=utcnow().date())
        games = [Game(night=night, rules={}) for _ in range(access.MAX_REMEMBERED + 5)]
        db.session.add_all(games)
        db.session.commit()
        for g in games:
            access.remember(g)
        access.remember(games[3])  # already kept: stays where it is
        tokens = access.remembered_tokens()
        assert tokens[0] == games[-1].edit_token
        assert len(tokens) == access.MAX_REMEMBERED == len(set(tokens))
        # the cookie holds one random device id, never an edit token
        assert set(session) <= {"device", "_permanent"}
        assert all(g.edit_token not in str(dict(session)) for g in games)
        access.forget(games[-1])
        assert games[-1].edit_token not in access.remembered_tokens()


def test_a_tampered_or_unknown_device_id_gets_a_new_device(app):
    with app.test_request_context():
        session["device"] = ["not a string"]
        first = access.current_device()
        assert first is not None and session["device"] == first.token
    with app.test_request_context():
        session["device"] = "forged-id"
        other = access.current_device()
        assert other is not None and other.id != first.id


def test_edit_tokens_of_an_old_cookie_move_into_the_database(app, client):
    night = GameNight(played_on=utcnow().date())
    game = Game(night=night, rules={})
    db.session.add(game)
    db.session.commit()
    with client.session_transaction() as sess:
        sess["edit_tokens"] = [game.edit_token, 5, None]
    assert game.edit_token in client.get("/").text
    with client.session_transaction() as sess:
        assert "edit_tokens" not in sess


def test_other_games_tokens_and_ids_get_404(client, game):
    assert client.get("/g/not-a-token/share").status_code == 404
    assert client.get(f"/g/{game.share_token}/share").status_code == 404
    assert client.get(f"/g/{game.night_id}/share").status_code == 404


# --- passcode ------------------------------------------------------------------------------


class PasscodeConfig(config.TestConfig):
    COMPANION_PASSCODE = "open sesame"


@pytest.fixture()
def locked():
    application = create_app(PasscodeConfig)
    with application.app_context():
        db.create_all()
        yield application
        db.session.remove()
        db.drop_all()


def test_passcode_off_by_default(client):
    assert client.get("/nights/new").status_code == 200
    assert client.get("/passcode").status_code == 303  # nothing to ask


def test_passcode_guards_creating_nights_and_games(locked):
    client = locked.test_client()
    response = client.get("/nights/new")
    assert response.status_code == 302
    assert response.headers["Location"] == "/passcode?next=/nights/new"
    assert client.post("/nights/new", data={"played_on": "2026-11-28"}).status_code == 303
    assert db.session.scalar(select(func.count(GameNight.id))) == 0
    page = client.get("/passcode?next=/nights/new")
    assert page.status_code == 200 and 'type="password"' in page.text
    page = client.post("/passcode", data={"passcode": "open says me", "next": "/nights/new"})
    assert page.status_code == 200 and "That is not the passcode." in page.text
    response = client.post("/passcode", data={"passcode": "open sesame", "next": "/nights/new"})
    assert response.status_code == 303 and response.headers["Location"] == "/nights/new"
    # asked once per browser session
    night_id = start_night(client)
    assert client.get(f"/nights/{night_id}/games/new").status_code == 200
    start_game(client, night_id)
    # another browser is asked again; viewing a night needs no passcode
    other = locked.test_client()
    assert other.get(f"/nights/{night_id}/games/new").status_code == 302
    assert other.get(f"/nights/{night_id}").status_code == 200
    assert other.post(f"/nights/{night_id}", data={"notes": "x"}).status_code == 303
    assert "/passcode" in other.post(f"/nights/{night_id}", data={"notes": "x"}).location
    assert db.session.get(GameNight, night_id).notes == ""


def test_passcode_for_htmx_requests_redirects_the_page(locked):
    client = locked.test_client()
    night = GameNight(played_on=utcnow().date())
    db.session.add(night)
    db.session.commit()
    response = client.post(
        f"/nights/{night.id}/games/preview", data=game_data(), headers={"HX-Request": "true"}
    )
    assert response.status_code == 204
    assert response.headers["HX-Redirect"].startswith("/passcode?next=")


def test_passcode_needs_a_value(locked):
    page = locked.test_client().post("/passcode", data={"passcode": ""})
    assert "Enter the passcode." in page.text


def test_passcode_next_cannot_leave_the_site(locked):
    client = locked.test_client()
    for target in ("https://evil.example/", "//evil.example/", "/\\evil.example"):
        response = client.post("/passcode", data={"passcode": "open sesame", "next": target})
        assert response.headers["Location"] == "/"
        with client.session_transaction() as sess:
            sess.clear()


def test_a_changed_passcode_asks_again(locked):
    client = locked.test_client()
    client.post("/passcode", data={"passcode": "open sesame"})
    assert client.get("/nights/new").status_code == 200
    locked.config["COMPANION_PASSCODE"] = "new code"
    assert client.get("/nights/new").status_code == 302


def test_wrong_passcodes_are_rate_limited(locked):
    client = locked.test_client()
    for _ in range(5):
        assert client.post("/passcode", data={"passcode": "guess"}).status_code == 200
    page = client.post("/passcode", data={"passcode": "open sesame"})
    assert page.status_code == 429
    assert "Too many wrong passcodes. Wait a minute and try again." in page.text
    assert 0 < int(page.headers["Retry-After"]) <= 60


# --- CSRF ----------------------------------------------------------------------------------


def _token(page: str) -> str:
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)


def test_csrf_refuses_a_post_without_token_clearly_and_accepts_one_with_it(csrf_app):
    client = csrf_app.test_client()
    page = client.post("/nights/new", data={"played_on": "2026-11-28", "place": "Attic"})
    assert page.status_code == 400
    # the form again, as typed, with a fresh token (companion.web.stale_forms)
    assert "This page was open too long, so nothing was saved yet." in page.text
    assert 'value="Attic"' in page.text and 'name="csrf_token"' in page.text
    assert db.session.scalar(select(func.count(GameNight.id))) == 0
    token = _token(client.get("/nights/new").text)
    response = client.post("/nights/new", data={"played_on": "2026-11-28", "csrf_token": token})
    assert response.status_code == 303
    night_id = int(response.headers["Location"].rsplit("/", 1)[1])
    # the new-game form and its htmx preview carry the token too
    token = _token(client.get(f"/nights/{night_id}/games/new").text)
    data = game_data()
    assert client.post(f"/nights/{night_id}/games/new", data=data).status_code == 400
    preview = client.post(
        f"/nights/{night_id}/games/preview",
        data={**data, "csrf_token": token},
        headers={"HX-Request": "true"},
    )
    assert preview.status_code == 200 and "Tiles each" in preview.text
    response = client.post(f"/nights/{night_id}/games/new", data={**data, "csrf_token": token})
    assert response.status_code == 303 and response.headers["Location"].startswith("/g/")


# --- the passcode limit is shared and keyed by phone ------------------------------------------


def test_the_passcode_limit_holds_across_app_servers(tmp_path):
    """Two app instances (two workers or servers) on one database count the same tries."""

    class Shared(PasscodeConfig):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{tmp_path / 'shared.db'}"

    first, second = create_app(Shared), create_app(Shared)
    with first.app_context():
        db.create_all()
    one, two = first.test_client(), second.test_client()
    assert one.post("/passcode", data={"passcode": "guess"}).status_code == 200
    two.set_cookie("session", one.get_cookie("session").value)  # one phone, two servers
    for server in (two, one, two, one):
        assert server.post("/passcode", data={"passcode": "guess"}).status_code == 200
        two.set_cookie("session", one.get_cookie("session").value)
    page = two.post("/passcode", data={"passcode": "guess"})
    assert page.status_code == 429 and int(page.headers["Retry-After"]) > 0
    with first.app_context():
        db.session.remove()
        db.engine.dispose()
    with second.app_context():
        db.session.remove()
        db.engine.dispose()


def test_an_attackers_failures_do_not_lock_out_a_phone_that_knows_the_passcode(locked):
    from tests.web.playkit import make_game

    game = make_game(("Ann", "Bob"))
    player = locked.test_client()
    # the table's phone: it keeps the game's score (an age alone no longer counts: issue 21)
    assert player.get(f"/g/{game.edit_token}").status_code == 200
    player.post("/passcode", data={"passcode": "typo"})
    attacker = locked.test_client()
    for _ in range(5):
        attacker.post("/passcode", data={"passcode": "guess"})
    assert attacker.post("/passcode", data={"passcode": "guess"}).status_code == 429
    # new cookies from the same address share one small budget
    for _ in range(10):
        fresh = locked.test_client()
        fresh.post("/passcode", data={"passcode": "guess"})
    assert locked.test_client().post("/passcode", data={"passcode": "x"}).status_code == 429
    # the table's phone still gets in
    response = player.post("/passcode", data={"passcode": "open sesame"})
    assert response.status_code == 303


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("post", "/history/nights/{night}/notes"),
        ("post", "/history/nights/{night}/delete"),
        ("post", "/history/players/{player}/rename"),
        ("post", "/history/players/{player}/merge"),
        ("post", "/history/import"),
        ("post", "/checker/ask"),
        ("post", "/nights/{night}"),
    ],
)
def test_with_a_passcode_nothing_changes_without_it(locked, method, url):
    from companion.models import Player

    night = GameNight(played_on=utcnow().date(), notes="kept")
    player = Player(name="Ann", name_key="ann")
    db.session.add_all([night, player])
    db.session.commit()
    client = locked.test_client()
    response = client.open(
        url.format(night=night.id, player=player.id),
        method=method.upper(),
        data={"notes": "changed", "name": "Zed", "into": "1", "q": "move"},
    )
    assert response.status_code == 303 and "/passcode" in response.location
    db.session.expire_all()
    assert night.notes == "kept" and night.deleted_at is None and player.name == "Ann"


def test_the_passcode_page_names_what_it_guards(locked):
    """Sent there from deleting a night or renaming a player, the page said the passcode is
    asked "before games are created": it names every kind of change it guards."""
    page = locked.test_client().get("/passcode?next=/history").text
    assert "before games are created." not in page
    assert "deleting, renaming, merging" in page
