"""The round form costs what the round needs: a hand's tile picker is built only when it is
opened (htmx fragment, or without JavaScript the same page with that picker open and every
entry kept), and an htmx save answers only what changed (out-of-band swaps)."""

from __future__ import annotations

import re

from companion.extensions import db
from companion.models import Round
from tests.web.playkit import make_game, round_post, seat_ids, text


def test_the_game_page_builds_no_tile_picker_until_one_is_opened(client):
    game = make_game(names=tuple(f"P{i}" for i in range(12)), set_size=18)
    body = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    assert 'type="checkbox" aria-label=' not in body  # no picker tile at all
    assert '<symbol id="t' not in body  # nor the tile symbols (the icons' are the page's)
    openers = re.findall(r'<button class="picker-open"[^>]*>', body)
    assert len(openers) == 12
    first = seat_ids(game)["P0"]
    assert f'value="{first}"' in openers[0] and 'name="open_picker"' in openers[0]
    # one address for the fragments, on the form (score.js adds the seat)
    assert f'data-picker-url="/g/{game.edit_token}/tiles?double=18"' in body


def test_a_hands_picker_fragment_has_every_tile_but_the_centre_double(client):
    game = make_game(set_size=9)
    bob = seat_ids(game)["Bob"]
    r = client.get(f"/g/{game.edit_token}/tiles?double=9&seat={bob}")
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and "<html" not in body
    assert body.count('type="checkbox"') == 54  # 55 tiles of double-9 but 9-9
    assert f'name="tiles_{bob}" value="9-8" data-points="17"' in body
    assert 'value="9-9"' not in body
    assert '<details class="picker-box" open>' in body
    assert body.count("<symbol") == 54
    without = client.get(f"/g/{game.edit_token}/tiles?double=9&seat={bob}&defs=0")
    assert "<symbol" not in without.get_data(as_text=True)


def test_a_picker_of_another_game_or_a_bad_double_is_not_found(client):
    game, other = make_game(), make_game()
    seat = seat_ids(other)["Ann"]
    assert client.get(f"/g/{game.edit_token}/tiles?double=6&seat={seat}").status_code == 404
    own = seat_ids(game)["Ann"]
    assert client.get(f"/g/{game.edit_token}/tiles?double=99&seat={own}").status_code == 404
    assert client.get(f"/g/{game.edit_token}/tiles?seat={own}").status_code == 404


def test_without_javascript_opening_a_picker_keeps_every_entry_and_saves_nothing(client):
    game = make_game()
    ids = seat_ids(game)
    data = round_post(game, 6, totals={"Ann": 12}, tiles={"Cy": ["2-1"]}, out="Bob")
    data["open_picker"] = str(ids["Bob"])
    r = client.post(f"/g/{game.edit_token}/round", data=data)
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert re.search(rf'name="total_{ids["Ann"]}"[^>]*value="12"', body)
    assert re.search(rf'<input[^>]* checked[^>]* name="out_{ids["Bob"]}"', body)
    # Bob's picker (asked for) and Cy's (holds a tile) are open; Ann's is still a button.
    assert body.count(f'name="tiles_{ids["Bob"]}"') == 27
    assert f'name="tiles_{ids["Cy"]}" value="2-1" data-points="3" checked' in body
    assert f'name="tiles_{ids["Ann"]}"' not in body
    assert body.count('<symbol id="t') == 27
    db.session.expire_all()
    assert db.session.scalars(db.select(Round).where(Round.game_id == game.id)).all() == []
    # The form still saves the round, with what was typed and tapped.
    assert 'action="/g/' + game.edit_token + '/round"' in body


def test_opening_a_picker_while_correcting_a_round_keeps_the_correction(client):
    game = make_game()
    client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 4, "Cy": 2}, out="Ann"),
    )
    db.session.refresh(game)
    ids = seat_ids(game)
    data = round_post(game, 6, totals={"Bob": 9, "Cy": 2}, out="Ann", open_picker=str(ids["Cy"]))
    r = client.post(f"/g/{game.edit_token}/round/1", data=data)
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and "Correct the round with 6-6" in text(r)
    assert re.search(rf'name="total_{ids["Bob"]}"[^>]*value="9"', body)
    assert body.count(f'name="tiles_{ids["Cy"]}"') == 27
    assert client.post(f"/g/{game.edit_token}/round/9", data=data).status_code == 404


def test_a_stale_pick_goes_back_to_the_game_page(client):
    game = make_game()
    data = round_post(game, 5, totals={"Bob": 4}, open_picker="1")  # round 1 is 6-6
    r = client.post(f"/g/{game.edit_token}/round", data=data)
    assert r.status_code == 303 and r.headers["Location"] == f"/g/{game.edit_token}"


def test_an_htmx_save_answers_only_what_changed(client):
    game = make_game()
    r = client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 4, "Cy": 2}, out="Ann"),
        headers={"HX-Request": "true"},
    )
    body = r.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="round-area">')
    assert re.search(r'<section id="scoreboard"[^>]* hx-swap-oob="true"', body)
    assert re.search(r'<section id="corrections"[^>]* hx-swap-oob="true"', body)
    assert '<div id="flashes" class="flashes" role="status" hx-swap-oob="true"></div>' in body
    assert 'id="game"' not in body and "rulings-heading" not in body  # unchanged parts stay
    assert "Round 2 of 7" in text(r)
    # a refused save changes nothing: only the round area with its messages comes back
    r = client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 5, totals={"Bob": "-1"}, out="Ann"),
        headers={"HX-Request": "true"},
    )
    body = r.get_data(as_text=True)
    assert "Bob: a score can't be negative." in text(r)
    assert 'id="scoreboard"' not in body and 'id="corrections"' not in body


def test_enter_in_a_points_box_saves_rather_than_opening_a_picker(client):
    game = make_game()
    body = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    form = body[body.index('<form method="post" action="/g/' + game.edit_token + '/round"') :]
    first_button = re.search(r"<button[^>]*>[^<]*</button>", form).group(0)
    assert "formaction" not in first_button and "Save round" in first_button


def test_the_address_a_plain_save_leaves_goes_back_to_the_game_page(client):
    # a refused plain save or an opened picker leaves /g/<token>/round in the address bar;
    # the scoreboard's relative links (?who=…) and a reload there lead to the game page
    game = make_game()
    r = client.get(f"/g/{game.edit_token}/round?who=2&upto=1")
    assert r.status_code == 303
    assert r.headers["Location"] == f"/g/{game.edit_token}?who=2&upto=1"


# --- the player's hand page (/p/): the same lazy picker (issue 26) ----------------------------


def _joined_phone(client, names=tuple(f"P{i}" for i in range(12)), set_size=18):
    game = make_game(names=names, set_size=set_size)
    client.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)[names[0]]})
    return game


def test_the_hand_page_builds_no_tile_picker_until_it_is_opened(client):
    game = _joined_phone(client)
    body = client.get(f"/p/{game.share_token}").get_data(as_text=True)
    assert 'type="checkbox" aria-label=' not in body and '<symbol id="t' not in body
    assert len(re.findall(r'<button class="picker-open" name="open_picker"', body)) == 1
    assert f'data-picker-url="/p/{game.share_token}?picker=18"' in body
    # a 12-player double-18 hand page stays small (it had 190 tiles and their symbols)
    assert body.count("<") < 700


def test_the_hand_pickers_fragment_has_every_tile_but_the_centre_double(client):
    game = _joined_phone(client)
    body = client.get(f"/p/{game.share_token}?picker=18").get_data(as_text=True)
    assert "<html" not in body
    assert body.count('type="checkbox"') == 189  # 190 tiles of double-18 but 18-18
    assert 'name="tiles" value="18-17"' in body and 'value="18-18"' not in body
    assert body.count("<symbol") == 189
    without = client.get(f"/p/{game.share_token}?picker=18&defs=0&seat=1")
    assert "<symbol" not in without.get_data(as_text=True)
    assert client.get(f"/p/{game.share_token}?picker=17").status_code == 404


def test_the_hand_picker_is_only_for_a_joined_phone(client, app):
    game = make_game(set_size=9)
    other = app.test_client()
    response = other.get(f"/p/{game.share_token}?picker=9")
    assert response.status_code in (303, 403, 404) or "Tap your name" in response.text
    assert 'type="checkbox"' not in response.get_data(as_text=True)


def test_without_javascript_opening_the_hand_picker_keeps_what_was_typed_and_posts_nothing(
    client,
):
    from companion.models import HandPost

    game = _joined_phone(client, names=("Ann", "Bob", "Cy"), set_size=9)
    data = {"double": "9", "seen": "0", "total": "12", "went_out": "y", "open_picker": "1"}
    r = client.post(f"/p/{game.share_token}", data=data)
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert re.search(r'id="total"[^>]*value="12"', body)
    assert re.search(r'name="went_out" value="y" checked', body)
    assert body.count('name="tiles"') == 54 and "picker-open" not in body
    assert db.session.scalars(db.select(HandPost)).all() == []


def test_a_hand_with_tiles_posted_shows_its_picker_open(client):
    game = _joined_phone(client, names=("Ann", "Bob", "Cy"), set_size=9)
    client.post(f"/p/{game.share_token}", data={"double": "9", "seen": "0", "tiles": ["5-4"]})
    body = client.get(f"/p/{game.share_token}").get_data(as_text=True)
    assert 'name="tiles" value="5-4" data-points="9" checked' in body
