"""The table box's auto-save switch and seat lock on the game page submit the round form as
typed (``form="round-form"``): without JavaScript the page comes back with every box as typed,
nothing saved as a round, the setting changed (docs/TABLE.md)."""

from __future__ import annotations

import re

from sqlalchemy import select
from werkzeug.datastructures import MultiDict

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
    # the round that saved is named: it is the form's own round, not the next one
    assert "Round 1 (6-6) saved itself from the posted hands." in words
    assert "The next round saved itself" not in words
    assert "On this phone: Bob: 15 points (saved: 12 points)" in words
    assert "Cy: 7 points" not in words  # the same as saved: not listed
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
    assert "On this phone: Bob: 15 points (saved: 12 points)" in words


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


def join_and_post(app, game: Game, hands: dict[str, dict[str, str]]) -> None:
    """Each named player joins on a phone of their own and posts ``hands[name]`` for 6-6."""
    ids = seat_ids(game)
    for name, fields in hands.items():
        phone = app.test_client()
        assert phone.post(f"/j/{game.join_token}", data={"seat": ids[name]}).status_code == 303
        r = phone.post(f"/p/{game.share_token}", data={"double": "6", **fields})
        assert r.status_code < 400


def hidden_fields(body: str, form_action: str) -> list[tuple[str, str]]:
    """The hidden inputs of the form posting to ``form_action``."""
    found = re.search(
        rf'<form method="post" action="{re.escape(form_action)}">(.*?)</form>', body, re.S
    )
    assert found, form_action
    return re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', found.group(1))


def test_a_switch_that_saves_the_round_compares_only_the_boxes_this_phone_typed_in(app, client):
    """Ann 20 typed, Bob and Cy left empty; the phones post Ann 7, Bob out, Cy 15; the switch
    saves the round from them: only Ann is beside the saved round (the empty boxes are no
    value of this phone's), and "Put mine back in the form" brings Ann 20 with Bob and Cy as
    saved, so that correction saves."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    typed = round_post(game, 6, totals={"Ann": 20})
    join_and_post(
        app, game, {"Ann": {"total": "7"}, "Bob": {"went_out": "y"}, "Cy": {"total": "15"}}
    )
    r = client.post(f"/g/{game.edit_token}/round", data={**typed, "auto_save": "1"})
    assert r.status_code == 200 and len(saved_rounds(game)) == 1
    words = text(r)
    assert "On this phone: Ann: 20 points (saved: 7 points)" in words
    assert "Bob: —" not in words and "Cy: —" not in words
    ids = seat_ids(game)
    put_back = f"/g/{game.edit_token}/round/1#round-area"  # it opens at the round
    fields = hidden_fields(r.get_data(as_text=True), put_back)
    assert (f"total_{ids['Ann']}", "20") in fields
    assert (f"out_{ids['Bob']}", "y") in fields and (f"total_{ids['Cy']}", "15") in fields
    # the correction opened with them saves (was: Bob and Cy empty, refused)
    correction = client.post(f"/g/{game.edit_token}/round/1", data=MultiDict(fields))
    assert correction.status_code == 200
    version = shown_version(correction)
    data = [(k, v) for k, v in fields if k not in ("csrf_token", "open_picker")]
    r = client.post(
        f"/g/{game.edit_token}/round/1",
        data=MultiDict([*data, ("version", version), ("double", "6")]),
    )
    assert r.status_code == 303
    (saved,) = saved_rounds(game)
    assert sorted(h.points for h in saved.hands) == [0, 15, 20]


def seen_field(body: str, seat_id: int) -> str:
    found = re.search(rf'name="seen_{seat_id}"[^>]* value="([^"]*)"', body)
    if found is None:
        found = re.search(rf'value="([^"]*)"[^>]* name="seen_{seat_id}"', body)
    return found.group(1) if found else ""


def test_after_the_switch_the_posts_the_form_shows_are_seen_and_one_save_goes_through(app, client):
    """Bob 5 typed; Bob's phone posts 12 meanwhile; the switch (nothing saved: Ann and Cy did
    not post) shows Bob's box 5 "typed over their post: 12 points". The next Save of that
    form keeps the 5 (was: refused with 409, "Bob posted 12 points ... after this form was
    filled", although the page showed the post)."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    typed = round_post(game, 6, totals={"Bob": 5, "Cy": 7}, out="Ann")
    join_and_post(app, game, {"Bob": {"total": "12"}})
    r = client.post(f"/g/{game.edit_token}/round", data={**typed, "auto_save": "1"})
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and saved_rounds(game) == []
    assert typed_boxes(body, game)["Bob"] == "5" and "typed over their post" in text(r)
    bob = seat_ids(game)["Bob"]
    seen = seen_field(body, bob)
    assert seen not in ("", "0")
    again = {**typed, "version": shown_version(r), f"seen_{bob}": seen}
    r = client.post(f"/g/{game.edit_token}/round", data=again)
    assert r.status_code == 303, text(r)
    (saved,) = saved_rounds(game)
    assert sorted(h.points for h in saved.hands) == [0, 5, 7]


def test_the_switch_never_puts_a_post_over_a_box_typed_with_no_number(app, client):
    """ "abc" typed in Bob's box, Bob's phone posts 12: the switch shows "abc" still (a box
    typed in is never replaced; its Save says what is wrong with it)."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    typed = round_post(game, 6, totals={"Bob": "abc", "Cy": 7}, out="Ann")
    join_and_post(app, game, {"Bob": {"total": "12"}})
    r = client.post(f"/g/{game.edit_token}/round", data={**typed, "auto_save": "1"})
    assert r.status_code == 200 and saved_rounds(game) == []
    assert typed_boxes(r.get_data(as_text=True), game)["Bob"] == "abc"
    bob = seat_ids(game)["Bob"]
    again = {**typed, "version": shown_version(r), f"seen_{bob}": seen_field(r.text, bob)}
    r = client.post(f"/g/{game.edit_token}/round", data=again)
    assert r.status_code == 422 and saved_rounds(game) == []
    assert typed_boxes(r.get_data(as_text=True), game)["Bob"] == "abc"
