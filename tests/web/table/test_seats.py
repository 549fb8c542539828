"""Seats are given, not taken (issue 21, item 1): only the join secret shown on the
scorekeeper's screen gives a seat; nothing public does (the share token in exports, night pages
and the read-only board). The scorekeeper removes a phone from a seat and locks the seats."""

from __future__ import annotations

import hashlib

import pytest
from sqlalchemy import func, select

from companion import config
from companion.extensions import db
from companion.models import Game, GameAccess, HandPost, RetiredJoinLink
from tests.conftest import fresh_app
from tests.web.playkit import make_game, seat_ids, text


class Passcode(config.TestConfig):
    COMPANION_PASSCODE = "open sesame"


@pytest.fixture()
def locked():
    yield from fresh_app(Passcode)


def seated() -> int:
    db.session.expire_all()
    return (
        db.session.scalar(select(func.count(GameAccess.id)).where(GameAccess.seat_id.is_not(None)))
        or 0
    )


def fresh(game: Game) -> Game:
    db.session.expire_all()
    found = db.session.get(Game, game.id)
    assert found is not None
    return found


def test_nothing_public_gives_a_seat_on_a_passcode_instance(locked):
    game = make_game(("Ann", "Bob", "Cy"))
    keeper = locked.test_client()
    assert keeper.get(f"/g/{game.edit_token}").status_code == 200
    stranger = locked.test_client()
    # what anyone can read: the export, the night page, the read-only board
    export = stranger.get("/history/export.json").get_data(as_text=True)
    night = stranger.get(f"/nights/{game.night_id}").get_data(as_text=True)
    board = stranger.get(f"/s/{game.share_token}").get_data(as_text=True)
    assert game.share_token in export
    for public in (export, night, board):
        assert game.join_token not in public and game.edit_token not in public
    # the share token at the join address: no seat to tap, and a posted seat is refused
    page = stranger.get(f"/j/{game.share_token}")
    assert page.status_code == 200 and 'name="seat"' not in page.text
    assert "This is the scoreboard link: it does not give a seat." in text(page)
    for name in ("Ann", "Bob", "Cy"):
        r = stranger.post(f"/j/{game.share_token}", data={"seat": seat_ids(game)[name]})
        assert r.status_code == 403
    assert seated() == 0
    r = stranger.post(f"/p/{game.share_token}", data={"double": "6", "total": "3"})
    assert r.status_code == 403 and 'name="seat"' not in r.text  # refused, said in words
    assert db.session.scalar(select(HandPost.id)) is None
    # the real player, with the join link from the scorekeeper's screen, gets the seat
    assert f"/j/{game.join_token}" in keeper.get(f"/g/{game.edit_token}").text
    bob = locked.test_client()
    r = bob.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Bob"]})
    assert r.status_code == 303 and r.location.endswith(f"/p/{game.share_token}")
    assert seated() == 1


def test_removing_a_phone_makes_a_new_join_link_so_it_cannot_take_the_seat_back(app, client):
    game = make_game(("Ann", "Bob"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    old_link = game.join_token
    squatter = app.test_client()
    assert squatter.post(f"/j/{old_link}", data={"seat": seat_ids(game)["Bob"]}).status_code == 303
    page = client.get(f"/g/{game.edit_token}").text
    assert "joined on a phone" in page and "Remove this phone from the seat" in page
    r = client.post(f"/g/{game.edit_token}/seats/{seat_ids(game)['Bob']}/free")
    assert r.status_code == 303 and seated() == 0
    new_link = fresh(game).join_token
    assert new_link != old_link
    # the removed phone tries again with the link it had: refused, the seat stays free
    r = squatter.post(f"/j/{old_link}", data={"seat": seat_ids(game)["Bob"]})
    assert r.status_code == 410 and seated() == 0
    # the scorekeeper's screen shows the new link, and the real Bob joins with it
    assert f"/j/{new_link}" in client.get(f"/g/{game.edit_token}").text
    bob = app.test_client()
    assert bob.post(f"/j/{new_link}", data={"seat": seat_ids(game)["Bob"]}).status_code == 303
    assert seated() == 1


def bob_freed(app, client):
    """A game of Ann and Bob kept on ``client``, whose scorekeeper removed Bob's phone from his
    seat: the game, the join link from before, Bob's phone."""
    game = make_game(("Ann", "Bob"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    old_link = game.join_token
    bob = app.test_client()
    bob.post(f"/j/{old_link}", data={"seat": seat_ids(game)["Bob"]})
    client.post(f"/g/{game.edit_token}/seats/{seat_ids(game)['Bob']}/free")
    return game, old_link, bob


def test_an_old_join_link_says_it_was_replaced_and_where_the_new_one_is(app, client):
    """A join link (or QR code) from before the scorekeeper removed a phone said "There is no
    game at this link": it says the link was replaced and to ask for the new QR code. Only a
    digest of the old secret is kept: the old link still opens nothing."""
    game, old_link, bob = bob_freed(app, client)
    late = app.test_client()
    for answer in (late.get(f"/j/{old_link}"), bob.get(f"/j/{old_link}")):
        words = text(answer)
        assert answer.status_code == 410
        assert "no longer opens the seats" in words
        assert "ask the scorekeeper to show the new QR code, scan it and tap your name" in words
        assert "There is no game at this link" not in words
        assert 'name="seat"' not in answer.text and game.share_token not in answer.text
    assert late.post(f"/j/{old_link}", data={"seat": seat_ids(game)["Ann"]}).status_code == 410
    assert seated() == 0
    kept = db.session.scalars(select(RetiredJoinLink.digest)).all()
    assert kept == [hashlib.sha256(old_link.encode()).hexdigest()]  # the digest, not the secret
    # a link that never was one still says there is no game
    assert "There is no game at this link" in text(late.get("/j/" + "x" * 22))


#: the scorekeeper's button that frees a seat (templates/games/_seat_phones.html)
REMOVE_BUTTON = "Remove this phone from the seat"


def test_an_old_join_link_says_what_the_scorekeeper_did(app, client):
    """The old link said "replaced by a new one: the scorekeeper changed it on purpose" also
    when the scorekeeper only removed a phone from a seat (the new link is a side effect). Each
    case now says what happened: a phone removed from a seat, this very phone removed, the
    seats unlocked; and each says what to do."""
    game, freed_link, bob = bob_freed(app, client)
    late = app.test_client()
    words = text(late.get(f"/j/{freed_link}"))
    assert "the scorekeeper removed a phone from a seat, and that gives the game a new " in words
    assert "changed it on purpose" not in words and "unlocked" not in words
    words = text(bob.get(f"/j/{freed_link}"))  # the phone removed is told it was
    assert "The scorekeeper removed this phone from its seat" in words
    assert "scan it and tap your name" in words
    unlocked_link = fresh(game).join_token
    client.post(f"/g/{game.edit_token}/seats/lock", data={"locked": "1"})
    client.post(f"/g/{game.edit_token}/seats/lock", data={"locked": "0"})
    for phone in (late, bob):
        answer = phone.get(f"/j/{unlocked_link}")
        words = text(answer)
        assert answer.status_code == 410
        assert "the scorekeeper unlocked the seats with a new join link" in words
        assert "removed" not in words and "scan it and tap your name" in words
    kept = select(RetiredJoinLink.reason).order_by(RetiredJoinLink.retired_at)
    assert list(db.session.scalars(kept)) == ["seat_freed", "seats_unlocked"]


def test_an_old_join_link_of_a_game_over_since_says_the_game_is_over(app, client):
    """tester-159: an old join link (a phone removed from a seat) of a game that ended since
    still sent the player to ask for a new QR code, which no longer exists, and neither
    linked the final scoreboard nor listed the phone's kept hands. It answers as the game's
    current join link does: game over, its final scoreboard, the kept hands not counted."""
    game, freed_link, bob = bob_freed(app, client)
    fresh(game).status = "finished"
    db.session.commit()
    for phone in (app.test_client(), bob):
        answer = phone.get(f"/j/{freed_link}")
        words = text(answer)
        assert answer.status_code == 410
        assert "Game over" in words and "This game is over" in words
        assert "new QR code" not in words and "Page gone" not in words
        assert f'href="/s/{game.share_token}"' in answer.text
        assert f'data-page="/p/{game.share_token}"' in answer.text  # its kept hands


def test_a_seat_held_by_an_old_session_says_how_to_get_it_back(app, client):
    """A player whose old session holds their seat (a rematch on another phone, a phone that
    lost its cookie) read only "taken by another phone" beside their name. The join page says
    what to do, naming the scorekeeper's own button, and those steps get the seat back."""
    game = make_game(("Ann", "Bob"))
    keeper_page = client.get(f"/g/{game.edit_token}").text
    old_session = app.test_client()
    old_session.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Bob"]})
    bob = app.test_client()  # the same player, the cookie gone
    words = text(bob.get(f"/j/{game.join_token}"))
    assert "taken by another phone" in words
    assert (
        "Is your name taken, but this is your phone? An old session (the phone you used "
        "before, or this one before it lost its saved data) still holds your seat. Ask the "
        f"scorekeeper to tap “{REMOVE_BUTTON}” beside your name, below the scoreboard on the "
        "scorekeeper's phone. That gives the game a new join link: scan the new QR code, then "
        "tap your name again."
    ) in words
    keeper_page = client.get(f"/g/{game.edit_token}").text
    assert f">{REMOVE_BUTTON}</button>" in keeper_page  # the very label named
    # a tap that lost the race to another phone is told the same
    r = bob.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Bob"]})
    assert f"Ask the scorekeeper to tap “{REMOVE_BUTTON}”" in text(bob.get(r.location))
    # the phone holding a seat, and a join page with every seat free, are not told it
    assert "Is your name taken" not in text(old_session.get(f"/j/{game.join_token}"))
    client.post(f"/g/{game.edit_token}/seats/{seat_ids(game)['Bob']}/free")
    new_link = fresh(game).join_token
    assert "Is your name taken" not in text(bob.get(f"/j/{new_link}"))
    r = bob.post(f"/j/{new_link}", data={"seat": seat_ids(game)["Bob"]})
    assert r.status_code == 303 and r.location.endswith(f"/p/{game.share_token}")


def test_locked_seats_refuse_new_joins_in_words_and_unlocking_makes_a_new_link(app, client):
    game = make_game(("Ann", "Bob", "Cy"))
    link = game.join_token
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    ann = app.test_client()
    assert (
        ann.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Ann"]}).status_code == 303
    )
    r = client.post(f"/g/{game.edit_token}/seats/lock", data={"locked": "1"})
    assert r.status_code == 303
    page = client.get(f"/g/{game.edit_token}").text
    assert "Seats locked: no other phone can join this game." in page
    assert f"/j/{game.join_token}" not in page  # no QR code while locked
    late = app.test_client()
    page = late.get(f"/j/{game.join_token}")
    assert 'name="seat"' not in page.text
    assert "The scorekeeper locked the seats: everyone is in." in text(page)
    r = late.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Bob"]})
    assert r.status_code == 303
    assert "The scorekeeper locked the seats: everyone is in." in text(late.get(r.location))
    assert seated() == 1
    # Ann, already in, still has her hand
    assert ann.get(f"/p/{game.share_token}").status_code == 200
    # unlocking: a new link; the one seen before the lock opens no seat
    client.post(f"/g/{game.edit_token}/seats/lock", data={"locked": "0"})
    now = fresh(game)
    assert not now.seats_locked and now.join_token != link
    assert late.post(f"/j/{link}", data={"seat": seat_ids(game)["Bob"]}).status_code == 410
    assert (
        late.post(f"/j/{now.join_token}", data={"seat": seat_ids(game)["Bob"]}).status_code == 303
    )
    assert seated() == 2


def test_only_the_scorekeeper_locks_the_seats(app, client):
    game = make_game(("Ann", "Bob"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    other = app.test_client()
    assert other.post(f"/g/{game.edit_token}/seats/lock", data={"locked": "1"}).status_code == 403
    assert not fresh(game).seats_locked


def test_looking_at_the_join_page_makes_no_phone(app):
    from companion.models import Device

    game = make_game(("Ann", "Bob"))
    for _ in range(5):
        app.test_client().get(f"/j/{game.join_token}")
        app.test_client().get(f"/j/{game.share_token}")
    assert db.session.scalar(select(func.count(Device.id))) == 0


def bobs_phone_removed(app, client):
    """A game of Ann and Bob whose scorekeeper (``client``) removed Bob's phone from his seat:
    the game and Bob's phone."""
    game = make_game(("Ann", "Bob"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    bob = app.test_client()
    assert (
        bob.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Bob"]}).status_code == 303
    )
    assert (
        client.post(f"/g/{game.edit_token}/seats/{seat_ids(game)['Bob']}/free").status_code == 303
    )
    return game, bob


def test_a_removed_phone_is_told_the_scorekeeper_removed_it_and_how_to_join_again(app, client):
    """Its hand page and its poll say so in words (not the join page's "this is the scoreboard
    link"); a hand it posts meanwhile is shown back, not saved; joining again forgets it."""
    game, bob = bobs_phone_removed(app, client)
    removed = "The scorekeeper removed this phone from the seat"
    page = bob.get(f"/p/{game.share_token}")
    assert page.status_code == 200 and removed in text(page)
    assert "To join again, scan the QR code on the scorekeeper" in text(page)
    live = bob.get(f"/p/{game.share_token}/live?v=x", headers={"HX-Request": "true"})
    assert live.headers["HX-Redirect"] == f"/p/{game.share_token}"
    photo = bob.get(f"/p/{game.share_token}/photo")  # its photo page: to the same words
    assert photo.status_code == 303 and photo.headers["Location"] == f"/p/{game.share_token}"
    r = bob.post(f"/p/{game.share_token}", data={"double": "9", "total": "17", "seen": "0"})
    assert r.status_code == 403 and removed in text(r) and "17" in text(r)
    assert db.session.scalar(select(func.count(HandPost.id))) == 0
    # locked seats: it is told to ask for them to be unlocked
    client.post(f"/g/{game.edit_token}/seats/lock", data={"locked": "1"})
    assert "The scorekeeper locked the seats" in text(bob.get(f"/p/{game.share_token}"))
    client.post(f"/g/{game.edit_token}/seats/lock", data={"locked": "0"})
    # it joins again with the new link: its hand page is back
    new_link = fresh(game).join_token
    assert bob.post(f"/j/{new_link}", data={"seat": seat_ids(game)["Bob"]}).status_code == 303
    assert removed not in text(bob.get(f"/p/{game.share_token}"))
    # removed a second time: still told (one remembered removal per phone and game)
    assert (
        client.post(f"/g/{game.edit_token}/seats/{seat_ids(game)['Bob']}/free").status_code == 303
    )
    assert removed in text(bob.get(f"/p/{game.share_token}"))


def test_a_phone_that_never_joined_is_still_sent_to_tap_its_name(app, client):
    game = make_game(("Ann", "Bob"))
    stranger = app.test_client()
    r = stranger.get(f"/p/{game.share_token}")
    assert r.status_code == 303 and "/j/" in r.headers["Location"]


def test_a_phone_removed_from_a_finished_game_is_not_told_to_join_again(app, client):
    """The game is over: no seat to join again, and a hand the removed phone sends now can
    never be posted. Its page said "To join again, scan the QR code"; it says the hand was
    not counted (the words of a hand kept for its game over), and its outbox gets them too
    (data-over, for an entry kept for the seat: static/js/offline.js over())."""
    game, bob = bobs_phone_removed(app, client)
    game.status = "finished"
    game.version += 1
    db.session.commit()
    not_counted = "Not counted: the game ended before this hand was sent"
    page = bob.get(f"/p/{game.share_token}")
    assert page.status_code == 200 and "removed this phone from the seat" in text(page)
    assert "To join again" not in text(page)
    assert f'data-also="/p/{game.share_token}" data-over="{not_counted}' in page.text
    r = bob.post(f"/p/{game.share_token}", data={"double": "9", "total": "17", "seen": "0"})
    assert r.status_code == 403 and "What you typed was not saved: 17" in text(r)
    assert not_counted in text(r) and "To join again" not in text(r)
    assert db.session.scalar(select(func.count(HandPost.id))) == 0
