"""A save's htmx answer leaves out each hand's buttons that are the same in every round ("Use
…'s post", "Tap the tiles", the photo) when the page that saved says it holds them: the answer
names them (hx-preserve, by id) and htmx keeps the page's own. A page that says nothing (no
JavaScript, a page of an older version, a page drawn before a rename or in another language),
a refused save, and a hand whose picker is open get them in full (companion/games/play.py
kept_field, kept_buttons)."""

from __future__ import annotations

import re

from flask_babel import refresh

from companion.extensions import db
from companion.games.kept_buttons import KEPT_BUTTONS
from tests.web.playkit import make_game, round_post, seat_ids

HTMX = {"HX-Request": "true"}
KEPT = re.compile(r'<input type="hidden" name="(' + KEPT_BUTTONS + r'[0-9a-f]{6})">')


def kept_name(client, game, **headers: str) -> str:
    """The name of the field the game page's round form sends to say it holds the buttons."""
    page = client.get(f"/g/{game.edit_token}", headers=headers).get_data(as_text=True)
    return KEPT.search(page)[1]


def hands(body: str) -> dict[str, str]:
    """Player name -> that hand's markup in the round form."""
    found = re.findall(
        r'<fieldset class="hand[^"]*"><legend title="([^"]+)">.*?</fieldset>', body, re.S
    )
    parts = re.findall(r'<fieldset class="hand[^"]*">.*?</fieldset>', body, re.S)
    return dict(zip(found, parts, strict=True))


def first_round(game, kept: str) -> dict:
    """The first round of a 3-player double-6 game (Ann out, Bob 12, Cy 30) posted from a page
    whose round form says ``kept`` of the hands' buttons (nothing: "")."""
    data = round_post(game, 6, totals={"Bob": "12", "Cy": "30"}, out="Ann")
    return {**data, kept: ""} if kept else data


def test_the_round_form_says_which_buttons_the_page_holds(client):
    game = make_game()
    page = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    form = page[page.index('id="round-form"') :].split("</form>")[0]
    assert KEPT.search(form)
    for seat_id, hand in zip(seat_ids(game).values(), hands(page).values(), strict=True):
        assert f'class="secondary use-post" data-seat="{seat_id}" id="u{seat_id}" hidden>' in hand
        assert (
            f'<button class="picker-open" name="open_picker" value="{seat_id}" id="o{seat_id}">'
            in hand
        )
        assert (
            f'class="secondary photo-button" name="photo_seat" value="{seat_id}" id="f{seat_id}"'
            in hand
        )
        assert "hx-preserve" not in hand


def test_a_save_from_a_page_that_keeps_them_names_them_only(client):
    game = make_game()
    ids = seat_ids(game)
    data = first_round(game, kept_name(client, game))
    answer = client.post(f"/g/{game.edit_token}/round", data=data, headers=HTMX)
    body = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "Round saved." in body
    found = hands(body)
    assert list(found) == ["Ann", "Bob", "Cy"]
    for name, hand in found.items():
        seat_id = ids[name]
        assert (
            f'<i hx-preserve id="u{seat_id}"></i>' in hand
            and f'<i hx-preserve id="o{seat_id}"></i>' in hand
            and f'<i hx-preserve id="f{seat_id}"></i>' in hand
        )
        assert "<button" not in hand and "post" not in hand.split("</p>", 1)[1]
        # what changes from round to round is sent: the name, the mark, the box, "went out"
        assert f'<legend title="{name}">{name}</legend>' in hand
        assert 'class="post-mark missing"' in hand
        assert f'aria-label="Points for {name}"' in hand and f'name="total_{seat_id}"' in hand
        assert f'aria-label="Went out" autocomplete="off" name="out_{seat_id}"' in hand


def test_a_page_that_says_nothing_of_them_gets_them_all(client):
    for kept in ("", "kept0", "kept1"):  # older pages', or with another version of the buttons
        game = make_game()
        url = f"/g/{game.edit_token}/round"
        body = client.post(url, data=first_round(game, kept), headers=HTMX).get_data(as_text=True)
        assert "Round saved." in body and "hx-preserve" not in body
        assert body.count("Tap the tiles") == 3 and "Use Bob's post" in body
        assert body.count('class="secondary photo-button"') == 3


def test_a_hand_showing_its_picker_gets_its_button_back(client):
    game = make_game()
    ids = seat_ids(game)
    # Bob's picker was open (its fragment says so), or the page lost his button to one
    picker = client.get(f"/g/{game.edit_token}/tiles?double=6&seat={ids['Bob']}")
    assert f'<input type="hidden" name="o{ids["Bob"]}" id="o{ids["Bob"]}">' in picker.text
    data = {**first_round(game, kept_name(client, game)), f"o{ids['Bob']}": ""}
    answer = client.post(f"/g/{game.edit_token}/round", data=data, headers=HTMX)
    found = hands(answer.get_data(as_text=True))
    assert f'<button class="picker-open" name="open_picker" value="{ids["Bob"]}"' in found["Bob"]
    assert f'<i hx-preserve id="o{ids["Bob"]}"></i>' not in found["Bob"]
    assert f'<i hx-preserve id="o{ids["Cy"]}"></i>' in found["Cy"]
    assert f'<i hx-preserve id="f{ids["Bob"]}"></i>' in found["Bob"]  # the photo: kept


def test_a_refused_save_and_a_plain_post_send_the_buttons(client):
    game = make_game()
    url = f"/g/{game.edit_token}/round"
    data = {**round_post(game, 6, totals={"Bob": "x"}), kept_name(client, game): ""}
    refused = client.post(url, data=data, headers=HTMX)
    assert refused.status_code == 422
    body = refused.get_data(as_text=True)
    assert "hx-preserve" not in body and body.count("Tap the tiles") == 3
    # without htmx the save redirects to the whole page, every button in it
    plain = client.post(url, data=first_round(game, kept_name(client, game)))
    assert plain.status_code == 303
    page = client.get(plain.headers["Location"]).get_data(as_text=True)
    assert "hx-preserve" not in page and page.count('class="secondary photo-button"') == 3


def full(body: str) -> bool:
    """True when a save's answer sends every hand's buttons (3 players), naming none kept."""
    return (
        "Round saved." in body
        and "hx-preserve" not in body
        and body.count("Tap the tiles") == 3
        and body.count('class="secondary photo-button"') == 3
    )


def test_a_page_drawn_before_a_rename_gets_them_anew(client):
    # "Use Bob's post" and "Count Bob's pips from a photo" say the name: a page that still
    # says Bob must not keep them beside the legend "Robert"
    game = make_game()
    kept = kept_name(client, game)
    next(s for s in game.seats if s.player.name == "Bob").player.name = "Robert"
    db.session.commit()
    url = f"/g/{game.edit_token}/round"
    data = round_post(game, 6, totals={"Robert": "12", "Cy": "30"}, out="Ann")
    body = client.post(url, data={**data, kept: ""}, headers=HTMX).get_data(as_text=True)
    assert full(body) and "Use Robert's post" in body
    assert kept_name(client, game) != kept


def test_a_page_in_another_language_gets_them_anew(client):
    # the language is the session's: chosen in another tab, the answer is in the new one
    game = make_game()
    english = kept_name(client, game)
    refresh()  # the test's requests share one app context (and Flask-Babel's cached locale)
    assert kept_name(client, game, **{"Accept-Language": "de"}) != english
    refresh()
    url = f"/g/{game.edit_token}/round"
    data = {**first_round(game, english)}
    answer = client.post(url, data=data, headers={**HTMX, "Accept-Language": "de"})
    body = answer.get_data(as_text=True)
    assert "hx-preserve" not in body and body.count('class="secondary photo-button"') == 3


def test_the_hands_buttons_wait_for_no_save(client):
    # a picker's fetch or a photo tapped while Save is on its way is dropped, and a Save
    # waits for one on its way (htmx hx-sync): no picker lands in place of a kept button
    game = make_game()
    page = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    assert '<div class="hands" hx-sync="closest form:drop">' in page
