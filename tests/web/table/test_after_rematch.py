"""After a rematch the old game's links lead to it (issue 22 leftovers): the old join link or
QR code (a player who rescans it), and the old game's photo page of a carried phone."""

from __future__ import annotations

from sqlalchemy import select

from companion.extensions import db
from companion.models import Game
from tests.web.playkit import add_scored_rounds, make_game, seat_ids, text


def _rematch(client, game: Game) -> Game:
    assert client.get(f"/g/{game.edit_token}").status_code == 200  # this phone keeps score
    r = client.post(f"/g/{game.edit_token}/rematch", data={"version": str(game.version)})
    assert r.status_code == 303
    token = r.headers["Location"].rsplit("/", 1)[1]
    new = db.session.scalar(select(Game).where(Game.edit_token == token))
    assert new is not None
    return new


def _finish(game: Game) -> Game:
    return add_scored_rounds(game, [{"Ann": 0, "Bob": 5}] * 7)


def _finished() -> Game:
    return _finish(make_game(("Ann", "Bob"), set_size=6))


def test_the_old_join_link_leads_to_the_rematchs_seats(app, client):
    game = _finished()
    old_join = game.join_token
    new = _rematch(client, game)
    phone = app.test_client()  # a player who scans the old QR code again
    r = phone.get(f"/j/{old_join}")
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/j/{new.join_token}")
    page = phone.get(r.headers["Location"])
    assert "Tap your name" in text(page)
    # a tap on a name posted to the old join link (a page opened before the rematch) also
    # goes to the rematch's seats instead of "there is no game" or "this game is over"
    r = phone.post(f"/j/{old_join}", data={"seat": seat_ids(game)["Bob"]})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/j/{new.join_token}")


def test_the_old_join_link_of_a_rematch_with_locked_seats_says_so(app, client):
    game = _finished()
    old_join = game.join_token
    new = _rematch(client, game)
    client.post(f"/g/{new.edit_token}/seats/lock", data={"locked": "1"})
    r = app.test_client().get(f"/j/{old_join}", follow_redirects=True)
    assert "The scorekeeper locked the seats" in text(r)


def test_the_old_photo_page_of_a_carried_phone_leads_to_the_rematch(app, client):
    game = make_game(("Ann", "Bob"), set_size=6)
    bob = app.test_client()
    assert (
        bob.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Bob"]}).status_code == 303
    )
    _finish(game)
    new = _rematch(client, game)
    r = bob.get(f"/p/{game.share_token}/photo")
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/p/{new.share_token}/photo")
    page = bob.get(r.headers["Location"])
    assert page.status_code == 200
    assert "No round is being played now" not in text(page)


def test_the_scorekeepers_old_photo_page_leads_to_the_same_hand_in_the_rematch(client):
    game = _finished()
    new = _rematch(client, game)
    old_bob, new_bob = seat_ids(game)["Bob"], seat_ids(new)["Bob"]
    r = client.get(f"/g/{game.edit_token}/photo/{old_bob}")
    assert r.status_code == 303
    assert r.headers["Location"].endswith(f"/g/{new.edit_token}/photo/{new_bob}")
    page = client.get(r.headers["Location"])
    assert page.status_code == 200 and "Bob's pips from a photo" in text(page)
    # a photo confirmed on the old page (opened before the rematch) goes there too, unused
    r = client.post(f"/g/{game.edit_token}/photo/{old_bob}/confirm", data={})
    assert r.status_code == 303 and f"/g/{new.edit_token}/photo/{new_bob}" in r.headers["Location"]
