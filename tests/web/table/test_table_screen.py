"""The scorekeeper's screen and the table around it (issue 22), without a browser: the join
panel, handing over with a second scorekeeper, a player's home page, game numbers on the night
page, a rematch carrying the joined phones."""

from __future__ import annotations

import re

import pytest

from companion.extensions import db
from tests.web.playkit import make_game, seat_ids


def join(app, game, name):
    phone = app.test_client()
    r = phone.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)[name]})
    assert r.status_code == 303, r.text
    return phone


def request_id(client, game) -> str:
    page = client.get(f"/g/{game.edit_token}").text
    return re.search(r'name="request" value="(\d+)"', page).group(1)


def test_the_join_panel_stands_first_until_closed(app, client):
    game = make_game(("Ann", "Bob", "Cy"))
    page = client.get(f"/g/{game.edit_token}").text
    assert page.index('id="join-panel"') < page.index('id="round-area"')
    assert "Not joined yet: Ann, Bob, Cy" in page
    join(app, game, "Bob")
    page = client.get(f"/g/{game.edit_token}").text
    assert "Joined: Bob" in page and "Not joined yet: Ann, Cy" in page
    assert client.post(f"/g/{game.edit_token}/join-panel").status_code == 303
    page = client.get(f"/g/{game.edit_token}").text
    assert 'id="join-panel"' not in page
    assert f"/j/{game.join_token}" in page  # the link stays, below the scoreboard


def test_the_join_panel_leaves_once_every_seat_joined(app, client):
    game = make_game(("Ann", "Bob"))
    client.get(f"/g/{game.edit_token}")
    join(app, game, "Ann")
    join(app, game, "Bob")
    assert 'id="join-panel"' not in client.get(f"/g/{game.edit_token}").text


def test_a_request_to_keep_score_is_a_banner_at_the_top(app, client):
    game = make_game(("Ann", "Bob"))
    client.get(f"/g/{game.edit_token}")
    app.test_client().post(f"/g/{game.edit_token}/ask")
    page = client.get(f"/g/{game.edit_token}").text
    assert page.index("requests-banner") < page.index('id="join-panel"')


def test_handing_over_keeps_a_second_scorekeeper(app, client):
    game = make_game(("Ann", "Bob"))
    client.get(f"/g/{game.edit_token}")
    second = app.test_client()
    second.post(f"/g/{game.edit_token}/ask")
    rid = request_id(client, game)
    client.post(f"/g/{game.edit_token}/handover", data={"request": rid, "choice": "add"})
    third = app.test_client()
    third.post(f"/g/{game.edit_token}/ask")
    rid = request_id(client, game)
    client.post(f"/g/{game.edit_token}/handover", data={"request": rid, "choice": "move"})
    # the phone that handed over stops; the second scorekeeper was not handed anything
    assert client.get(f"/g/{game.edit_token}").status_code == 403
    r = second.get(f"/g/{game.edit_token}")
    assert r.status_code == 200, r.text
    assert "handed over" not in r.text
    assert third.get(f"/g/{game.edit_token}").status_code == 200


def test_a_players_home_page_lists_the_game_that_phone_joined(app, client):
    game = make_game(("Ann", "Bob"))
    client.get(f"/g/{game.edit_token}")
    bob = join(app, game, "Bob")
    page = bob.get("/").text
    assert "Games you joined" in page
    assert f'href="/p/{game.share_token}"' in page
    assert "Games you joined" not in app.test_client().get("/").text


def test_the_night_page_numbers_its_games(app, client):
    first = make_game(("Ann", "Bob", "Cy", "Dee"))
    second = make_game(("Ann", "Bob", "Cy", "Dee"))
    second.night_id = first.night_id
    db.session.commit()
    page = client.get(f"/nights/{first.night_id}").text
    assert page.index("Game 1 · Ann, Bob, Cy, Dee") < page.index("Game 2 · Ann, Bob, Cy, Dee")


def test_served_on_loopback_the_join_link_stays_on_it(app, client):
    from companion.serve import listen_addresses

    game = make_game(("Ann", "Bob"))
    app.config["LISTEN_HOST"] = "127.0.0.1"
    page = client.get(f"/g/{game.edit_token}").text
    assert f'href="http://localhost/j/{game.join_token}' in page  # where the server answers
    assert listen_addresses("127.0.0.1") == []  # the banner offers no Wi-Fi address either
    assert listen_addresses("192.168.1.5") == ["192.168.1.5"]


def test_serve_tells_the_app_its_bind_host_before_building_it(monkeypatch):
    """``python -m companion.serve --host 127.0.0.1``: the app (first built by the database
    upgrade, then reused by gunicorn) knows it listens on loopback only, so the join link and
    QR code use the request's host, not a LAN address where nothing listens."""
    from companion import serve
    from companion.config import Config

    built = {}

    def build_app():
        built["listen"] = Config().LISTEN_HOST
        raise SystemExit(0)

    monkeypatch.setenv("COMPANION_LISTEN_HOST", "")  # restored to unset afterwards
    monkeypatch.setattr(serve, "upgrade_database", build_app)
    monkeypatch.setattr("sys.argv", ["serve", "--host", "127.0.0.1", "--port", "8731"])
    with pytest.raises(SystemExit):
        serve.main()
    assert built["listen"] == "127.0.0.1"


def hidden(page: str, name: str) -> str:
    found = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
    assert found, name
    value = re.search(r'value="([^"]*)"', found.group(0))
    return value.group(1) if value else ""


@pytest.mark.parametrize(("typed", "shown"), [(None, "31"), ("14", "14")])
def test_a_hand_changed_on_the_phone_as_the_scorekeeper_saves_shows_the_phones_number(
    app, client, typed, shown
):
    """Issue 22's stale box: a box still holding the post it was filled with shows the newer
    post after the 409; a box the scorekeeper typed over keeps what was typed."""
    from tests.web.playkit import round_post

    game = make_game(("Ann", "Bob", "Cy"))
    bob = join(app, game, "Bob")
    first = {"double": "6", "total": "11"}
    assert bob.post(f"/p/{game.share_token}", data=first).status_code == 303
    page = client.get(f"/g/{game.edit_token}").text
    seat = seat_ids(game)["Bob"]
    assert hidden(page, f"total_{seat}") == "11"
    seen, filled = hidden(page, f"seen_{seat}"), hidden(page, f"filled_{seat}")
    change = {"double": "6", "total": "31", "seen": seen}
    assert bob.post(f"/p/{game.share_token}", data=change).status_code == 303
    form = {
        **round_post(game, 6, totals={"Bob": typed or "11", "Cy": 3}, out="Ann"),
        f"seen_{seat}": seen,
        f"filled_{seat}": filled,
    }
    answer = client.post(f"/g/{game.edit_token}/round", data=form)
    assert answer.status_code == 409
    assert hidden(answer.text, f"total_{seat}") == shown
    assert "31 points" in answer.text  # the phone's new value is named either way
