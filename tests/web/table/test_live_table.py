"""The scorekeeper's open game page keeps up through its poll (``/g/<edit>/posts?v=``): a phone
joining shows in the join panel and the table box, and the blocked-round hint comes and goes,
swapped out of band (the poll's ``oob``) without a reload (docs/TABLE.md)."""

from __future__ import annotations

import re

import pytest
from flask_babel import refresh

from companion.extensions import db
from companion.models import Game
from companion.services.hand_posts import LiveKey
from tests.web.playkit import make_game, round_post, seat_ids, text

HINT = "Every hand is posted, but nobody went out, so the round did not save itself."


@pytest.fixture()
def table(app, client):
    """A 3-player double-6 game kept on ``client``; ``phone(name)`` joins that seat."""
    game = make_game(("Ann", "Bob", "Cy"))
    phones = {}

    def phone(name: str):
        if name not in phones:
            c = app.test_client()
            assert (
                c.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)[name]}).status_code
                == 303
            )
            phones[name] = c
        return phones[name]

    return game, phone


def page_key(client, game) -> str:
    page = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    return re.search(r'data-key="([^"]+)"', page).group(1)


def poll(client, game, key: str):
    return client.get(f"/g/{game.edit_token}/posts?v={key}")


def post(phone, game, **fields):
    assert phone.post(f"/p/{game.share_token}", data={"double": "6", **fields}).status_code < 400


def test_a_phone_joining_shows_in_the_open_pages_join_panel_through_the_poll(client, table):
    game, phone = table
    key = page_key(client, game)
    assert poll(client, game, key).status_code == 204
    phone("Bob")
    r = poll(client, game, key)
    assert r.status_code == 200
    oob = r.json["oob"]
    # the join panel's line, and the table box's list with Bob's "Remove" button
    line = re.search(r'<p class="joined" hx-swap-oob="outerHTML:#join-panel p.joined">.*?</p>', oob)
    assert line and "Joined: Bob" in line.group(0) and "Not joined yet: Ann, Cy" in line.group(0)
    seats = re.search(
        r'<ul class="joined" hx-swap-oob="outerHTML:.table-box ul.joined">.*?</ul>', oob, re.S
    )
    assert seats and "Remove this phone from the seat" in seats.group(0)
    # the next poll with the answer's key: nothing changed, nothing sent
    assert poll(client, game, r.json["key"]).status_code == 204
    # a post changes the key but not who joined: the hands only, no panel
    post(phone("Bob"), game, total="12")
    r2 = poll(client, game, r.json["key"])
    assert r2.status_code == 200 and r2.json["oob"] == ""
    # everyone in: the page's panel says so (it stays until the page is drawn again)
    phone("Ann"), phone("Cy")
    line = poll(client, game, r2.json["key"]).json["oob"]
    assert "Joined: Ann, Bob, Cy" in line and "Not joined yet" not in line


def test_a_page_without_the_join_panel_gets_only_the_table_box(client, table):
    """The join panel closed (or every seat joined when the page was drawn): no element whose
    target the page does not have (htmx would log an error for it)."""
    game, phone = table
    client.post(f"/g/{game.edit_token}/join-panel")  # closed by the scorekeeper
    key = page_key(client, game)
    phone("Bob")
    oob = poll(client, game, key).json["oob"]
    assert "#join-panel" not in oob and "ul.joined" in oob


def test_the_blocked_round_hint_comes_and_goes_through_the_poll(client, table):
    game, phone = table
    client.post(f"/g/{game.edit_token}/auto-save", data={"on": "1"})
    post(phone("Ann"), game, total="4")
    post(phone("Bob"), game, total="12")
    key = page_key(client, game)
    assert HINT not in client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    post(phone("Cy"), game, total="7")  # every hand in, nobody out: the round waits
    r = poll(client, game, key)
    oob = r.json["oob"]
    assert HINT in oob
    assert '<div hx-swap-oob="afterend:#round-area .rounds-saved"><p id="blocked-hint"' in oob
    assert 'href="#blocked"' in oob
    assert LiveKey.parse(r.json["key"]).blocked  # the page shows it now
    # the page drawn now has it too, and its key says so
    assert LiveKey.parse(page_key(client, game)).blocked
    # Cy went out after all: the round saves itself (the page reloads); auto-save off instead
    client.post(f"/g/{game.edit_token}/auto-save", data={"on": "0"})
    r2 = poll(client, game, r.json["key"])
    assert '<p id="blocked-hint" hx-swap-oob="delete"></p>' in r2.json["oob"]
    assert not LiveKey.parse(r2.json["key"]).blocked


def test_a_phone_removed_on_another_scorekeeper_page_leaves_this_one_with_the_new_join_link(
    client, table
):
    """Two scorekeeper pages open, Bob joined: one page removes Bob's phone from the seat
    (which makes a new join secret). The other page's next poll shows Bob not joined and the
    new QR code and link (the old link would tell Bob it was replaced)."""
    game, phone = table
    phone("Bob")
    old_join = game.join_token
    key = page_key(client, game)  # the second page, drawn with Bob joined
    assert "Joined: Bob" in client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    bob = seat_ids(game)["Bob"]
    assert client.post(f"/g/{game.edit_token}/seats/{bob}/free").status_code == 303
    db.session.expire_all()
    new_join = db.session.get(Game, game.id).join_token
    assert new_join != old_join
    r = poll(client, game, key)
    assert r.status_code == 200
    oob = r.json["oob"]
    line = re.search(r'<p class="joined" hx-swap-oob="[^"]*">.*?</p>', oob)
    assert line and "Joined" not in line.group(0) and "Bob" in line.group(0)
    assert "Remove this phone from the seat" not in oob
    link = re.search(r"<p class=\"share-link\" hx-swap-oob=[^>]*>.*?</p>", oob)
    assert link and f"/j/{new_join}" in link.group(0)
    assert '<figure class="qr-box" hx-swap-oob="outerHTML:#game .qr-box"><svg' in oob
    assert old_join not in oob
    # the answer's key is the page's now: nothing more to send
    assert poll(client, game, r.json["key"]).status_code == 204


def test_a_locked_page_is_sent_no_join_link(client, table):
    """A page drawn with the seats locked shows no QR code: the poll sends none (htmx would log
    an error for an element without its target)."""
    game, phone = table
    phone("Bob")
    client.post(f"/g/{game.edit_token}/seats/lock", data={"locked": "1"})
    key = page_key(client, game)
    assert not LiveKey.parse(key).link
    client.post(f"/g/{game.edit_token}/seats/{seat_ids(game)['Bob']}/free")
    oob = poll(client, game, key).json["oob"]
    assert "ul.joined" in oob and "share-link" not in oob and "qr-box" not in oob


def test_every_posted_phone_says_a_blocked_round_waits_within_a_poll(client, table):
    """Auto-save on; Ann and Bob posted, then Cy: nobody went out, so the round waits for the
    scorekeeper. Ann's phone, which posted first, says so at its next poll (her seat's key
    changes), not only Cy's, the last to post."""
    game, phone = table
    client.post(f"/g/{game.edit_token}/auto-save", data={"on": "1"})
    post(phone("Ann"), game, total="4")
    post(phone("Bob"), game, total="12")
    page = phone("Ann").get(f"/p/{game.share_token}").get_data(as_text=True)
    live = re.search(r'hx-get="([^"]+/live[^"]*)"', page).group(1).replace("&amp;", "&")
    assert "Waiting for the round to be saved." in page
    assert phone("Ann").get(live).status_code == 204
    post(phone("Cy"), game, total="7")
    r = phone("Ann").get(live)
    assert r.status_code == 200
    assert "Nobody went out, so the round waits for the scorekeeper" in r.get_data(as_text=True)
    # the answer's own address is its key: nothing more until something changes again
    again = re.search(r'hx-get="([^"]+/live[^"]*)"', r.get_data(as_text=True)).group(1)
    assert phone("Ann").get(again.replace("&amp;", "&")).status_code == 204


def test_a_save_of_a_round_that_saved_itself_shows_it_beside_the_typing_even_half_typed(
    client, table
):
    """Auto-save took the posts while the scorekeeper had typed Bob = 5 (the rest not yet):
    the Save table.js sends then is answered with the saved round and this phone's values
    beside it, saying auto-save saved it (was 422: "Ann's hand is missing", the typing lost
    to the comparison; or "saved on another phone", which none was)."""
    game, phone = table
    shown = game.version
    client.post(f"/g/{game.edit_token}/auto-save", data={"on": "1"})
    post(phone("Bob"), game, total="12")
    post(phone("Ann"), game, total="7")
    post(phone("Cy"), game, went_out="y")
    r = client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 5}, version=shown),
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 409
    page = text(r)
    assert "Auto-save saved this round from the posted hands meanwhile" in page
    assert "another phone" not in page
    assert "On this phone:" in page and "Bob: 5 points (saved: 12 points)" in page
    assert "Put mine back in the form" in page


def test_the_poll_names_the_saved_rounds_and_says_a_change_in_the_pages_language(client, table):
    """The words a page with typing in it shows when the game changed (was English on every
    page: table.js's fallback), and the rounds saved, so that a page whose own round is among
    them asks for the comparison instead."""
    game, phone = table
    key = page_key(client, game)
    client.post(f"/g/{game.edit_token}/auto-save", data={"on": "1"})
    for name, fields in (("Bob", {"total": "12"}), ("Ann", {"total": "7"}), ("Cy", {})):
        post(phone(name), game, **(fields or {"went_out": "y"}))
    refresh()  # (the test's app context keeps the first request's language)
    r = client.get(f"/g/{game.edit_token}/posts?v={key}", headers={"Accept-Language": "de"})
    assert r.json["saved"] == [6]
    changed, asking = r.json["said"]  # in German, as the page is (table.js has no words)
    assert changed.startswith("Die Partie wurde auf einem anderen Handy geändert")
    assert asking.startswith("Ein Handy möchte Schreiber werden")
