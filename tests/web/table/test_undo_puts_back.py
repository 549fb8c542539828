""" "Undo the last change" of a saved round puts the round back in the round form as it was
saved: the hands the scorekeeper typed come back with the hands the phones posted, so nothing
is typed again; a post made after the undo wins for its seat; undoing a correction or a burned
double is as before (docs/TABLE.md)."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select
from werkzeug.datastructures import MultiDict

from companion.extensions import db
from companion.models import Game, HandPost, Round
from tests.web.playkit import make_game, round_form_fields, round_post, seat_ids, text

#: what the notice of an undone saved round says after its line
BACK = "Its hands are back in the round form as they were saved"
#: ... and says that a hand this phone kept typed otherwise comes back as typed (static/js/
#: table.js puts its kept typing of the round back: tester-114 saw "as they were saved" over
#: a form holding this tab's own typing)
OWN_TYPING = "or as this phone typed them if it typed them otherwise"
#: the mark of a hand the scorekeeper typed, put back, that no phone posted
RESTORED = "typed by you, not saved yet"


@pytest.fixture()
def table(app, client):
    """A 4-player double-6 game kept on ``client``; ``phone(name)`` gives a test client
    joined to that player's seat."""
    game = make_game(("Ann", "Bob", "Cy", "Dee"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200  # this phone keeps score
    phones = {}

    def phone(name: str):
        if name not in phones:
            c = app.test_client()
            assert c.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)[name]}).status_code
            phones[name] = c
        return phones[name]

    return game, phone


def fresh(game: Game) -> Game:
    db.session.expire_all()
    return db.session.get(Game, game.id)


def posted(phone, game: Game, double: int, **fields) -> None:
    r = phone.post(f"/p/{game.share_token}", data={"double": str(double), **fields})
    assert r.status_code == 303, r.text


def revision(game: Game, name: str, double: int = 6) -> str:
    db.session.expire_all()
    row = db.session.scalar(
        select(HandPost).where(
            HandPost.game_id == game.id,
            HandPost.double == double,
            HandPost.seat_id == seat_ids(game)[name],
        )
    )
    return str(row.revision)


def undo(client, game: Game):
    r = client.post(
        f"/g/{game.edit_token}/undo",
        data={"version": str(fresh(game).version)},
        follow_redirects=True,
    )
    assert r.status_code == 200
    return r


def _pairs(form: dict[str, list[str]]):
    return ((name, value) for name, values in form.items() for value in values)


def mark(html: str, seat_id: int) -> str:
    """The words of a hand's mark on the round form (templates/games/_post_mark.html)."""
    found = re.search(rf'<p class="post-mark \w+" data-seat="{seat_id}"[^>]*>(.*?)</p>', html, re.S)
    assert found is not None, seat_id
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def saved_hands(game: Game, double: int) -> dict[str, tuple[int, bool, list[str] | None, str]]:
    """Player name -> (points, went out, tiles, entered by) of the saved round with ``double``."""
    game = fresh(game)
    names = {s.id: s.player.name for s in game.seats}
    rnd = db.session.scalars(
        select(Round).where(Round.game_id == game.id, Round.start_double == double)
    ).one()
    return {names[h.seat_id]: (h.points, h.went_out, h.tiles, h.entered_by) for h in rnd.hands}


def save_first_round(client, phone, game: Game) -> None:
    """Bob's phone posts 12 and Cy's 3; the scorekeeper saves the round with 6-6: Ann went out
    (typed), Bob 15 (typed over his post), Cy 3 (his post), Dee's tiles 5-4 3-1 (tapped), Bob
    started."""
    posted(phone("Bob"), game, 6, total="12")
    posted(phone("Cy"), game, 6, total="3")
    ids = seat_ids(game)
    data = round_post(
        fresh(game),
        6,
        totals={"Bob": 15, "Cy": 3},
        tiles={"Dee": ["5-4", "3-1"]},
        out="Ann",
        starter=str(ids["Bob"]),
        **{f"seen_{ids['Bob']}": revision(game, "Bob"), f"seen_{ids['Cy']}": revision(game, "Cy")},
    )
    r = client.post(f"/g/{game.edit_token}/round", data=data)
    assert r.status_code == 303, text(r)


def test_undoing_a_saved_round_puts_its_typed_hands_back_and_one_save_stores_it_again(
    client, table
):
    game, phone = table
    save_first_round(client, phone, game)
    first = saved_hands(game, 6)
    assert first["Bob"][3] == "overruled" and first["Cy"][3] == "phone"
    assert first["Ann"][3] == first["Dee"][3] == "scorekeeper"

    r = undo(client, game)
    words = text(r)
    assert "Undone: Round 1 (6-6) saved" in words and BACK in words and OWN_TYPING in words
    assert fresh(game).rounds == []
    html = r.get_data(as_text=True)
    ids = seat_ids(game)
    form = round_form_fields(html)
    # the typed hands, as saved
    assert form[f"out_{ids['Ann']}"] == ["y"] and form[f"total_{ids['Ann']}"] == [""]
    assert form[f"total_{ids['Bob']}"] == ["15"]
    assert sorted(form[f"tiles_{ids['Dee']}"]) == ["3-1", "5-4"]
    assert form["starter"] == [str(ids["Bob"])]
    # the post put back, as today
    assert form[f"total_{ids['Cy']}"] == ["3"]
    assert form[f"seen_{ids['Cy']}"] == [revision(game, "Cy")]
    # each marked as the form marks typing: put back (no post), typed over the post, posted
    assert mark(html, ids["Ann"]).startswith(RESTORED)
    assert mark(html, ids["Dee"]).startswith(RESTORED)
    assert mark(html, ids["Bob"]).startswith("typed over their post")
    assert "12 points" in mark(html, ids["Bob"])
    assert mark(html, ids["Cy"]).startswith("posted")
    # a reload shows the same
    assert round_form_fields(client.get(f"/g/{game.edit_token}").get_data(as_text=True)) == form

    # one tap: Save sends the form as it stands, and the round is stored as it was
    r = client.post(f"/g/{game.edit_token}/round", data=MultiDict(list(_pairs(form))))
    assert r.status_code == 303, text(r)
    assert saved_hands(game, 6) == first
    # the next round's form is empty: nothing of the undone round is put back any more
    form = round_form_fields(client.get(f"/g/{game.edit_token}").get_data(as_text=True))
    assert form[f"total_{ids['Bob']}"] == [""] and f"out_{ids['Ann']}" not in form


def test_a_post_made_after_the_undo_wins_for_its_seat(client, table):
    game, phone = table
    save_first_round(client, phone, game)
    undo(client, game)
    # after the undo Bob's phone posts 9 (over the 15 typed over his 12) and Dee's phone
    # posts 20 (over her typed tiles)
    posted(phone("Bob"), game, 6, total="9", seen=revision(game, "Bob"))
    posted(phone("Dee"), game, 6, total="20")
    html = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    ids = seat_ids(game)
    form = round_form_fields(html)
    assert form[f"total_{ids['Bob']}"] == ["9"] and form[f"seen_{ids['Bob']}"] == [
        revision(game, "Bob")
    ]
    assert form[f"total_{ids['Dee']}"] == ["20"] and f"tiles_{ids['Dee']}" not in form
    assert mark(html, ids["Bob"]).startswith("posted")
    assert mark(html, ids["Dee"]).startswith("posted")
    # the others stand as saved
    assert form[f"out_{ids['Ann']}"] == ["y"] and form[f"total_{ids['Cy']}"] == ["3"]


def test_the_hands_come_back_on_the_phone_that_undid_not_only_the_one_that_typed(
    app, client, table
):
    """The round was typed on ``client``; a second scorekeeper's phone undoes it: the saved
    round holds the values, so its form shows them."""
    game, phone = table
    save_first_round(client, phone, game)
    other = app.test_client()
    other.post(f"/g/{game.edit_token}/ask")
    page = client.get(f"/g/{game.edit_token}").text
    request_id = re.search(r'name="request" value="(\d+)"', page).group(1)
    assert (
        client.post(
            f"/g/{game.edit_token}/handover", data={"request": request_id, "choice": "add"}
        ).status_code
        == 303
    )
    r = undo(other, game)
    assert BACK in text(r)
    ids = seat_ids(game)
    form = round_form_fields(r.get_data(as_text=True))
    assert form[f"total_{ids['Bob']}"] == ["15"] and form[f"out_{ids['Ann']}"] == ["y"]
    assert sorted(form[f"tiles_{ids['Dee']}"]) == ["3-1", "5-4"]


def test_undoing_a_correction_is_as_before_and_leaves_a_put_back_round_alone(client, table):
    game, phone = table
    save_first_round(client, phone, game)
    data = round_post(fresh(game), 5, totals={"Ann": 7, "Bob": 4, "Cy": 2}, out="Dee")
    assert client.post(f"/g/{game.edit_token}/round", data=data).status_code == 303
    r = undo(client, game)  # the round with 5-5 comes back in the form
    ids = seat_ids(game)
    assert round_form_fields(r.get_data(as_text=True))[f"total_{ids['Ann']}"] == ["7"]
    # a correction of the round with 6-6, then its undo: as before
    correction = round_post(
        fresh(game), 6, totals={"Bob": 40, "Cy": 3}, tiles={"Dee": ["5-4", "3-1"]}, out="Ann"
    )
    assert client.post(f"/g/{game.edit_token}/round/1", data=correction).status_code == 303
    assert saved_hands(game, 6)["Bob"][0] == 40
    r = undo(client, game)
    words = text(r)
    assert "Undone: Round with 6-6 corrected" in words and BACK not in words
    assert saved_hands(game, 6)["Bob"][0] == 15
    # the round with 5-5 is still the one to be entered, its hands still in the form
    form = round_form_fields(r.get_data(as_text=True))
    assert form["double"] == ["5"]
    assert form[f"total_{ids['Ann']}"] == ["7"] and form[f"out_{ids['Dee']}"] == ["y"]


def test_undoing_a_burned_double_is_as_before(client):
    game = make_game(missing_start_double="skip_to_next_lower")
    data = round_post(game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=data).status_code == 303
    r = undo(client, game)
    ids = seat_ids(game)
    assert round_form_fields(r.get_data(as_text=True))[f"total_{ids['Bob']}"] == ["12"]
    burn = {"version": str(fresh(game).version), "double": "6"}
    assert client.post(f"/g/{game.edit_token}/burn", data=burn).status_code == 303
    r = undo(client, game)
    words = text(r)
    assert "Undone: Nobody held 6-6" in words and BACK not in words
    assert "Centre double: 6-6" in words
    # the form of the round with 6-6 is empty, as after any undone burn
    form = round_form_fields(r.get_data(as_text=True))
    assert form[f"total_{ids['Bob']}"] == [""] and f"out_{ids['Ann']}" not in form


def test_a_player_posting_after_the_undo_is_not_told_they_replaced_the_scorekeepers_typing(
    client, table
):
    """Dee's tiles were tapped by the scorekeeper, not posted; after the undo Dee's phone
    posts her hand. Her phone said "This replaced your earlier post: 2 tiles: 3-1 5-4" and
    her hand page showed that hand as posted: she never posted it (the save's row for a typed
    hand is no post). A player's own post replaced after the undo is still named."""
    game, phone = table
    save_first_round(client, phone, game)
    undo(client, game)
    dee = phone("Dee")
    page = text(dee.get(f"/p/{game.share_token}"))
    assert "5-4" not in page, page
    r = dee.post(f"/p/{game.share_token}", data={"double": "6", "total": "9"})
    assert r.status_code == 303, text(r)
    page = text(dee.get(r.location))
    assert "Hand posted" in page
    assert "earlier post" not in page, page
    # Cy posted 3 himself: posting again after the undo names it
    r = phone("Cy").post(f"/p/{game.share_token}", data={"double": "6", "total": "4"})
    assert "This replaced your earlier post: 3 points." in text(phone("Cy").get(r.location))


def test_a_post_put_back_by_the_undo_waits_again_on_the_players_page(client, table):
    """Cy posted 3 from his phone and the round was saved with it; after the undo his page
    said only "Posted: 3 points." (the post is stored as taken, its round gone): the round is
    to be saved again, so it says it waits, as for any post not yet taken."""
    game, phone = table
    save_first_round(client, phone, game)
    undo(client, game)
    page = text(phone("Cy").get(f"/p/{game.share_token}"))
    assert "Posted: 3 points. Waiting for the round to be saved." in page, page


@pytest.mark.parametrize("button", [{"locked": "1"}, {"auto_save": "1"}])
def test_the_seat_lock_and_the_switch_keep_each_hands_mark(client, table, button):
    """After the undo the form holds typing put back (Ann, Dee: no post), a hand typed over its
    post (Bob) and a box holding its post untouched (Cy); the seat lock or the auto-save switch
    draws the page again with each mark as it was: Cy's box is the player's post, "posted", not
    "typed by you, not saved yet"; the put-back typing keeps that mark (the marks count a box
    holding no post's value as this phone's, which the comparison's rule, typed in or over,
    would not: docs/TABLE.md)."""
    game, phone = table
    save_first_round(client, phone, game)
    html = undo(client, game).get_data(as_text=True)
    ids = seat_ids(game)
    before = {name: mark(html, seat_id) for name, seat_id in ids.items()}
    data = MultiDict([*_pairs(round_form_fields(html)), *button.items()])
    r = client.post(f"/g/{game.edit_token}/round", data=data)
    assert r.status_code == 200, text(r)
    after = {name: mark(r.get_data(as_text=True), seat_id) for name, seat_id in ids.items()}
    assert after == before
    assert after["Cy"].startswith("posted") and after["Ann"].startswith(RESTORED)
    assert after["Dee"].startswith(RESTORED) and after["Bob"].startswith("typed over")


def test_typing_an_undo_put_back_is_this_phones_when_the_round_is_saved_meanwhile(
    app, client, table
):
    """After the undo the form holds the scorekeeper's typing put back (Ann went out and Dee's
    tiles: no post; Bob 15 over his post of 12) beside Cy's post. Another scorekeeper's phone
    saves the round meanwhile from the posts (Bob 12, Dee 20 points). This phone's Save is
    refused with the saved round, and "On this phone:" lists the put-back typing that differs
    from it, as it lists typing: the put-back boxes were read as holding what they were
    filled with (untouched), so Bob's 15 and Dee's tiles were left out and lost unsaid. Cy's
    box, holding his post untouched, stays the player's."""
    game, phone = table
    save_first_round(client, phone, game)
    form = round_form_fields(undo(client, game).get_data(as_text=True))
    ids = seat_ids(game)
    other = app.test_client()
    other.post(f"/g/{game.edit_token}/ask")
    page = client.get(f"/g/{game.edit_token}").text
    request_id = re.search(r'name="request" value="(\d+)"', page).group(1)
    answer = {"request": request_id, "choice": "add"}
    assert client.post(f"/g/{game.edit_token}/handover", data=answer).status_code == 303
    theirs = round_post(
        fresh(game),
        6,
        totals={"Bob": 12, "Cy": 3, "Dee": 20},
        out="Ann",
        **{f"seen_{ids['Bob']}": revision(game, "Bob"), f"seen_{ids['Cy']}": revision(game, "Cy")},
    )
    assert other.post(f"/g/{game.edit_token}/round", data=theirs).status_code == 303
    form["version"] = [str(fresh(game).version)]  # past the handover; the round is saved

    r = client.post(f"/g/{game.edit_token}/round", data=MultiDict(list(_pairs(form))))
    assert r.status_code == 409, text(r)
    mine = re.search(r'<ul class="saved-hands mine">(.*?)</ul>', r.get_data(as_text=True), re.S)
    assert mine is not None, text(r)
    listed = " ".join(re.sub(r"<[^>]+>", " ", mine.group(1)).split())
    assert "Bob: 15 points (saved: 12 points)" in listed, listed
    assert "Dee: 2 tiles: 3-1 5-4 (saved: 20 points)" in listed, listed
    assert "Cy:" not in listed and "Ann:" not in listed, listed


def test_a_save_refused_over_a_post_made_since_keeps_the_typing_put_back(client, table):
    """The form drawn after the undo holds Dee's tapped tiles put back; her phone then posts
    20. A Save (without JavaScript: no live poll took the post into the box) is refused with
    her post named, and her box keeps the tiles, as it keeps typing: saving again stores them."""
    game, phone = table
    save_first_round(client, phone, game)
    form = round_form_fields(undo(client, game).get_data(as_text=True))
    posted(phone("Dee"), game, 6, total="20")
    r = client.post(f"/g/{game.edit_token}/round", data=MultiDict(list(_pairs(form))))
    assert r.status_code == 409, text(r)
    assert "after this form was filled, Dee changed their hand on their phone (now: 20" in text(r)
    ids = seat_ids(game)
    again = round_form_fields(r.get_data(as_text=True))
    assert sorted(again[f"tiles_{ids['Dee']}"]) == ["3-1", "5-4"]
    assert again[f"total_{ids['Dee']}"] == [""]


def test_a_post_put_back_by_an_undo_keeps_the_time_it_was_posted(client, table):
    """Cy's phone posted 3 at 09:00; the round was saved later and undone. The form put his post
    back marked "posted" with the time of the save (the save stamped the post when it took
    it), as if he had posted at that moment. Now the mark keeps the time he posted."""
    from datetime import datetime

    game, phone = table
    posted(phone("Cy"), game, 6, total="3")
    db.session.execute(
        HandPost.__table__.update()
        .where(HandPost.game_id == game.id)
        .values(updated_at=datetime(2026, 12, 7, 9, 0))
    )
    db.session.commit()
    ids = seat_ids(game)
    data = round_post(
        fresh(game),
        6,
        totals={"Bob": 15, "Cy": 3, "Dee": 4},
        out="Ann",
        starter=str(ids["Bob"]),
        **{f"seen_{ids['Cy']}": revision(game, "Cy")},
    )
    assert client.post(f"/g/{game.edit_token}/round", data=data).status_code == 303
    html = undo(client, game).get_data(as_text=True)
    assert mark(html, ids["Cy"]) == "posted 09:00"
    assert '<time datetime="2026-12-07T09:00' in html
