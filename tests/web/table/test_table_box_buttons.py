"""The table box's auto-save switch and seat lock on the game page submit the round form as
typed (``form="round-form"``): without JavaScript the page comes back with every box as typed,
nothing saved as a round, the setting changed (docs/TABLE.md)."""

from __future__ import annotations

import re

from sqlalchemy import select

from companion.extensions import db
from companion.models import Game, Round
from tests.web.playkit import make_game, round_post, seat_ids, text


def fresh(game: Game) -> Game:
    db.session.expire_all()
    return db.session.get(Game, game.id)


def saved_rounds(game: Game) -> list[Round]:
    db.session.expire_all()
    return list(db.session.scalars(select(Round).where(Round.game_id == game.id)))


def typed_boxes(body: str, game: Game) -> dict[str, str]:
    """Each player's points box as the page holds it ("" when empty), and Cy's tick."""
    found = {}
    for name, seat_id in seat_ids(game).items():
        box = re.search(rf'<input[^>]*name="total_{seat_id}"[^>]*>', body)
        assert box, name
        value = re.search(r'value="([^"]*)"', box.group(0))
        found[name] = value.group(1) if value else ""
    out = re.search(rf'<input[^>]*name="out_{seat_ids(game)["Cy"]}"[^>]*>', body)
    found["Cy out"] = "checked" if out and "checked" in out.group(0) else ""
    return found


def shown_version(response) -> str:
    found = re.search(r'name="version"[^>]* value="(\d+)"', response.get_data(as_text=True))
    assert found
    return found.group(1)


def test_the_game_pages_switch_and_lock_submit_the_round_form(client):
    game = make_game(("Ann", "Bob", "Cy"))
    page = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    assert 'id="round-form"' in page
    assert re.search(r'<button[^>]*name="auto_save" value="1"[^>]*form="round-form"', page)
    assert re.search(r'<button[^>]*name="locked" value="1"[^>]*form="round-form"', page)


def test_the_auto_save_switch_keeps_the_typed_round_without_javascript(client):
    """Ann 7 and Bob 12 typed, Cy ticked as out; the switch (a plain POST of the round form,
    no JavaScript): the same page comes back with every box as typed, no round saved, and
    auto-save on; switched off again, the typing is still there, and Save then saves it."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")  # this phone keeps score
    typed = round_post(game, 6, totals={"Ann": 7, "Bob": 12}, out="Cy")
    as_typed = {"Ann": "7", "Bob": "12", "Cy": "", "Cy out": "checked"}
    r = client.post(f"/g/{game.edit_token}/round", data={**typed, "auto_save": "1"})
    assert r.status_code == 200
    assert typed_boxes(r.get_data(as_text=True), game) == as_typed
    assert saved_rounds(game) == [] and fresh(game).auto_save
    assert "Auto-save is on." in text(r) and "Auto-save: on · Turn off" in text(r)
    # marked as the phone's own typing, not "not posted"
    mark = re.search(rf'data-seat="{seat_ids(game)["Ann"]}"[^>]*>([^<]*)<', r.text)
    assert mark and mark.group(1) == "typed by you, not saved yet"
    typed["version"] = shown_version(r)  # the re-drawn form's, as a phone would send it
    r = client.post(f"/g/{game.edit_token}/round", data={**typed, "auto_save": "0"})
    assert typed_boxes(r.get_data(as_text=True), game) == as_typed
    assert saved_rounds(game) == [] and not fresh(game).auto_save
    assert "Auto-save: off · Turn on" in text(r)
    typed["version"] = shown_version(r)
    r = client.post(f"/g/{game.edit_token}/round", data=typed)
    assert r.status_code == 303 and len(saved_rounds(game)) == 1


def test_the_seat_lock_keeps_the_typed_round_without_javascript(client):
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    typed = round_post(game, 6, totals={"Ann": 7, "Bob": 12}, out="Cy")
    r = client.post(f"/g/{game.edit_token}/round", data={**typed, "locked": "1"})
    assert r.status_code == 200
    assert typed_boxes(r.get_data(as_text=True), game)["Bob"] == "12"
    assert saved_rounds(game) == [] and fresh(game).seats_locked
    assert "Seats locked: no other phone can join this game." in text(r)
    assert "Unlock the seats" in text(r)
    r = client.post(f"/g/{game.edit_token}/round", data={**typed, "locked": "0"})
    assert typed_boxes(r.get_data(as_text=True), game)["Ann"] == "7"
    assert saved_rounds(game) == [] and not fresh(game).seats_locked


def test_with_htmx_the_switch_answers_with_the_whole_game_area_as_typed(client):
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    typed = round_post(game, 6, totals={"Bob": 12})
    r = client.post(
        f"/g/{game.edit_token}/round",
        data={**typed, "auto_save": "1"},
        headers={"HX-Request": "true"},
    )
    assert r.headers["HX-Retarget"] == "#game" and r.headers["HX-Reswap"] == "outerHTML"
    body = r.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="game"')
    assert typed_boxes(body, game)["Bob"] == "12"
    assert "Auto-save: on · Turn off" in text(r) and saved_rounds(game) == []


def test_a_switch_that_saves_the_round_shows_the_typing_that_differs_beside_it(app, client):
    """Every hand posted (Ann out, Bob 12, Cy 7) while the scorekeeper typed Bob 15 over his
    post: turning auto-save on saves the round from the posts; the page shows the next round
    and the saved one with this phone's 15 beside it (nothing typed disappears unsaid)."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    ids = seat_ids(game)
    for name, fields in (
        ("Ann", {"went_out": "y"}),
        ("Bob", {"total": "12"}),
        ("Cy", {"total": "7"}),
    ):
        phone = app.test_client()
        assert phone.post(f"/j/{game.join_token}", data={"seat": ids[name]}).status_code == 303
        assert (
            phone.post(f"/p/{game.share_token}", data={"double": "6", **fields}).status_code < 400
        )
    typed = round_post(game, 6, totals={"Bob": 15, "Cy": 7}, out="Ann")
    r = client.post(f"/g/{game.edit_token}/round", data={**typed, "auto_save": "1"})
    assert r.status_code == 200 and len(saved_rounds(game)) == 1
    words = text(r)
    assert "The next round saved itself from the posted hands." in words
    assert "Different from what was saved: Bob." in words
    assert "Put mine back in the form" in words


def test_a_switch_under_a_round_saved_on_another_phone_says_so_with_the_typing_beside(client):
    """The form's round was saved on another phone meanwhile: the switch still switches, and
    the page says the round was already saved, with this phone's values beside it."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    typed = round_post(game, 6, totals={"Bob": 15, "Cy": 7}, out="Ann")
    saved_first = round_post(game, 6, totals={"Bob": 12, "Cy": 7}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=saved_first).status_code == 303
    r = client.post(f"/g/{game.edit_token}/round", data={**typed, "auto_save": "1"})
    assert r.status_code == 409 and fresh(game).auto_save and len(saved_rounds(game)) == 1
    words = text(r)
    assert "Auto-save is on." in words
    assert "This round was already saved on another phone" in words
    assert "Different from what was saved: Bob." in words


def test_the_seat_lock_on_the_correction_page_keeps_the_typed_correction(client):
    """The lock under a correction submits the correction as typed (it was a form of its own,
    which left the correction page for the game page: the correction lost)."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    first = round_post(game, 6, totals={"Bob": 12, "Cy": 3}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=first).status_code == 303
    page = client.get(f"/g/{game.edit_token}/round/1").get_data(as_text=True)
    assert re.search(r'<button[^>]*name="locked" value="1"[^>]*form="round-form"', page)
    typed = round_post(fresh(game), 6, totals={"Bob": 25, "Cy": 3}, out="Ann")
    r = client.post(f"/g/{game.edit_token}/round/1", data={**typed, "locked": "1"})
    assert r.status_code == 200 and fresh(game).seats_locked
    assert typed_boxes(r.get_data(as_text=True), game)["Bob"] == "25"
    assert "Correct the round with 6-6" in text(r)
    (saved,) = saved_rounds(game)
    assert sorted(h.points for h in saved.hands) == [0, 3, 12]  # nothing saved
