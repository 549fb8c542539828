"""The scorekeeper's "On this phone:" beside a round saved while the form held typing (auto-save
saved it from the posted hands, or another scorekeeper phone saved it first): one rule for the
Save refused with 409 and for the auto-save switch that saved the round, only what differs
from the saved round, how the round ended too, and text that is no number as typed
(docs/TABLE.md)."""

from __future__ import annotations

import re
from typing import Any

from werkzeug.datastructures import MultiDict

from companion.extensions import db
from companion.models import Game
from tests.web.playkit import make_game, round_form_fields, round_post, seat_ids, text

#: the phones' posts of the round with 6-6 in these tests: Ann went out, Bob 12, Cy 7
POSTS = {"Ann": {"went_out": "y"}, "Bob": {"total": "12"}, "Cy": {"total": "7"}}


def post_hands(app, game: Game, hands: dict[str, dict[str, str]]) -> None:
    """Each named player joins on a phone of their own and posts ``hands[name]`` for 6-6."""
    ids = seat_ids(game)
    for name, fields in hands.items():
        phone = app.test_client()
        assert phone.post(f"/j/{game.join_token}", data={"seat": ids[name]}).status_code == 303
        assert (
            phone.post(f"/p/{game.share_token}", data={"double": "6", **fields}).status_code < 400
        )


def filled_form(game: Game, version: int, **typed: Any) -> dict[str, Any]:
    """The scorekeeper's form as the page held it: every box filled from its phone's post
    (``filled_<seat>``: Ann out, Bob 12, Cy 7), then ``typed`` (player name -> text) typed
    over the posts."""
    ids = seat_ids(game)
    data = round_post(game, 6, totals={"Bob": 12, "Cy": 7}, out="Ann", version=version)
    data |= {f"filled_{ids['Ann']}": "out", f"filled_{ids['Bob']}": "12"}
    data[f"filled_{ids['Cy']}"] = "7"
    for name, value in typed.items():
        data[f"total_{ids[name]}"] = value
        data.pop(f"out_{ids[name]}", None)
    return data


def listed(response) -> list[str]:
    """The lines under "On this phone:", as text."""
    found = re.search(
        r'<ul class="saved-hands mine">(.*?)</ul>', response.get_data(as_text=True), re.S
    )
    if found is None:
        return []
    lines = re.findall(r"<li[^>]*>(.*?)</li>", found.group(1), re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", line).split()) for line in lines]


def put_back_fields(response, game: Game) -> list[tuple[str, str]]:
    """The hidden fields "Put mine back in the form" sends into the correction of round 1."""
    found = re.search(
        rf'<form method="post" action="/g/{game.edit_token}/round/1#round-area">(.*?)</form>',
        response.get_data(as_text=True),
        re.S,
    )
    assert found, "no Put mine back"
    return re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', found.group(1))


def saved_by_auto_save_then_save(app, client, form: dict[str, Any]):
    """Auto-save on, every phone posts (the round saves itself), then the scorekeeper's
    page sends its Save (as table.js does when its poll sees the round saved): the 409."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")  # this phone keeps score
    shown = game.version
    client.post(f"/g/{game.edit_token}/auto-save", data={"on": "1"})
    post_hands(app, game, POSTS)
    return game, client.post(f"/g/{game.edit_token}/round", data=form(game, shown))


def saved_by_the_switch(app, client, form: dict[str, Any]):
    """Every phone posts, then the scorekeeper taps "Turn on" under the form: the switch saves
    the round from the posts and shows it beside the form."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    post_hands(app, game, POSTS)
    data = {**form(game, game.version), "auto_save": "1"}
    return game, client.post(f"/g/{game.edit_token}/round", data=data)


def test_the_save_and_the_switch_list_the_same_hands_only_those_that_differ(app, client):
    """Bob 5 typed over his post of 12, Ann's and Cy's boxes holding their posts: the Save's
    409 and the switch that saved the round list the same line, Bob's (was: the Save listed
    Ann and Cy too, the same as saved; the switch only the boxes typed in)."""
    form = lambda game, version: filled_form(game, version, Bob="5")  # noqa: E731
    _, by_save = saved_by_auto_save_then_save(app, client, form)
    assert by_save.status_code == 409
    assert "Auto-save saved this round from the posted hands meanwhile" in text(by_save)
    _, by_switch = saved_by_the_switch(app, client, form)
    assert by_switch.status_code == 200
    assert listed(by_save) == listed(by_switch) == ["Bob: 5 points (saved: 12 points)"]


def test_nothing_differs_no_comparison(app, client):
    """Bob's 12 typed by hand, as his phone posted it: the 409 says auto-save saved the round
    and shows it, with no "On this phone:" and no "Put mine back" (was: a list all the same
    as saved, "What was saved is what this phone had": an extra screen)."""
    form = lambda game, version: filled_form(game, version, Bob="12")  # noqa: E731
    game, r = saved_by_auto_save_then_save(app, client, form)
    assert r.status_code == 409
    words = text(r)
    assert "Auto-save saved this round from the posted hands meanwhile" in words
    assert "Saved: the round with 6-6" in words
    assert "On this phone" not in words and "Put mine back in the form" not in words


def test_nothing_differs_is_no_error(app, client):
    """Another scorekeeper phone saved the round with the very values this phone had: the 409
    says so as news (a status line), not as a red error about this phone's values; with a
    value that differs it stays an error (was: red with nothing of this phone's at odds)."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    same = round_post(game, 6, totals={"Bob": 12, "Cy": 7}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=same).status_code == 303
    r = client.post(f"/g/{game.edit_token}/round", data=same)  # the same version: refused
    assert r.status_code == 409
    page = r.get_data(as_text=True)
    said = "This round was already saved on another phone"
    assert re.search(rf'<p class="flash success" role="status">{said}', page)
    assert 'class="flash error"' not in page and 'role="alert"' not in page
    other = {**same, f"total_{seat_ids(game)['Bob']}": "5"}
    differs = client.post(f"/g/{game.edit_token}/round", data=other).get_data(as_text=True)
    assert re.search(rf'<div class="flash error" role="alert"><p>{said}', differs)


def test_who_started_and_blocked_are_listed_and_put_back(app, client):
    """Another scorekeeper phone saved Ann out, Bob 12, Cy 7, nobody named as starter; this
    phone had Ann 3, "blocked" ticked and Bob as starter: all three are listed in players'
    words, and "Put mine back in the form" carries them into the correction (was: the tick and
    the starter never listed)."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    ids = seat_ids(game)
    mine = round_post(game, 6, totals={"Ann": 3, "Bob": 12, "Cy": 7}, blocked=True)
    mine["starter"] = str(ids["Bob"])
    other = round_post(game, 6, totals={"Bob": 12, "Cy": 7}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=other).status_code == 303
    r = client.post(f"/g/{game.edit_token}/round", data=mine)
    assert r.status_code == 409
    assert listed(r) == [
        "Ann: 3 points (saved: went out)",
        "Blocked round: yes (saved: no)",
        "Who started: Bob (saved: not recorded)",
    ]
    fields = put_back_fields(r, game)
    assert ("blocked", "y") in fields and ("starter", str(ids["Bob"])) in fields
    assert (f"total_{ids['Ann']}", "3") in fields and (f"out_{ids['Ann']}", "y") not in fields
    correction = client.post(f"/g/{game.edit_token}/round/1", data=MultiDict(fields))
    page = correction.get_data(as_text=True)
    (tick,) = re.findall(r'<input[^>]*name="blocked"[^>]*>', page)
    assert " checked " in tick
    assert f'<option selected value="{ids["Bob"]}">' in page


def test_a_tick_this_phone_left_empty_is_put_back_as_saved(app, client):
    """The other phone saved the round blocked with Ann as starter; this phone had Ann 3
    typed, no tick, no starter: only Ann is listed, and "Put mine back" keeps the saved tick
    and starter (was: they were dropped, as if this phone had unticked them)."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    ids = seat_ids(game)
    other = round_post(game, 6, totals={"Ann": 5, "Bob": 12, "Cy": 7}, blocked=True)
    other["starter"] = str(ids["Ann"])
    assert client.post(f"/g/{game.edit_token}/round", data=other).status_code == 303
    mine = round_post(game, 6, totals={"Ann": 3, "Bob": 12, "Cy": 7})
    r = client.post(f"/g/{game.edit_token}/round", data=mine)
    assert listed(r) == ["Ann: 3 points (saved: 5 points)"]
    fields = put_back_fields(r, game)
    assert ("blocked", "y") in fields and ("starter", str(ids["Ann"])) in fields


def test_a_box_typed_with_no_number_is_shown_as_typed(app, client):
    """Bob's box holds "abc<i>" (no number) when another phone saves Bob 12: the line shows
    what was typed, escaped (was: "—"), and "Put mine back" puts it back as typed."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    ids = seat_ids(game)
    other = round_post(game, 6, totals={"Bob": 12, "Cy": 7}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=other).status_code == 303
    mine = round_post(game, 6, totals={"Bob": "abc<i>", "Cy": 7}, out="Ann")
    r = client.post(f"/g/{game.edit_token}/round", data=mine)
    assert r.status_code == 409
    assert "Bob: abc&lt;i&gt; (saved: 12 points)" in listed(r)
    assert "<strong>abc&lt;i&gt;</strong>" in r.get_data(as_text=True)
    assert (f"total_{ids['Bob']}", "abc&lt;i&gt;") in put_back_fields(r, game)


def test_a_box_still_holding_a_replaced_post_is_not_this_phone_s(app, client):
    """Bob's box still holds his first post (12) when he posts 15 and the round saves itself
    from the posts: the 12 is Bob's old post, not the scorekeeper's, so it is not listed and
    not put back (was: "Bob: 12 points (saved: 15 points)", and "Put mine back" saved the
    old post as "entered by the scorekeeper")."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    shown = game.version
    client.post(f"/g/{game.edit_token}/auto-save", data={"on": "1"})
    post_hands(app, game, {**POSTS, "Bob": {"total": "15"}})
    r = client.post(f"/g/{game.edit_token}/round", data=filled_form(game, shown, Ann="3"))
    assert r.status_code == 409
    assert listed(r) == ["Ann: 3 points (saved: went out)"]


def correction_form(response) -> MultiDict:
    """What the page's round form would post as it stands (as a phone without JavaScript
    sends it)."""
    return MultiDict(round_form_fields(response.get_data(as_text=True)))


def refused_with_bob_5(client: Any) -> tuple[Game, dict[str, int], Any]:
    """A table of three whose 6-6 round another phone saved (Bob 12, Cy 7) while this phone
    had Bob 5: the game, its seat ids by name and this phone's refused Save (the comparison)."""
    game, ids, _, compared = refused_with_what_was_sent(client)
    return game, ids, compared


def refused_with_what_was_sent(client: Any) -> tuple[Game, dict[str, int], Any, Any]:
    """:func:`refused_with_bob_5`, with the refused Save's fields (Bob 5, Cy 7) too."""
    game = make_game(("Ann", "Bob", "Cy"))
    client.get(f"/g/{game.edit_token}")
    ids, shown = seat_ids(game), game.version
    other = round_post(game, 6, totals={"Bob": 12, "Cy": 7}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=other).status_code == 303
    mine = round_post(game, 6, totals={"Bob": 5, "Cy": 7}, out="Ann", version=shown)
    return game, ids, mine, client.post(f"/g/{game.edit_token}/round", data=mine)


def put_back(client: Any, game: Game, compared: Any) -> Any:
    """ "Put mine back in the form" tapped on the ``compared`` page (the correction it opens)."""
    return client.post(
        f"/g/{game.edit_token}/round/1", data=MultiDict(put_back_fields(compared, game))
    )


def test_put_mine_back_keeps_a_correction_made_on_another_phone_since(app, client):
    """Phone A's Save is refused (Bob 5 against the saved 12) and shows the comparison; phone
    B then corrects Cy 7 -> 9; A taps "Put mine back in the form": the correction form holds
    the round as saved now with A's Bob 5 in it, says at once that the round changed on
    another phone, and its Save keeps Cy's 9 (was: the form held Cy 7 from the time of the
    comparison with the game's new version, and its Save silently undid B's correction)."""
    game, ids, compared = refused_with_bob_5(client)
    assert listed(compared) == ["Bob: 5 points (saved: 12 points)"]
    # phone B corrects Cy's hand
    phone_b = round_post(game, 6, totals={"Bob": 12, "Cy": 9}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round/1", data=phone_b).status_code == 303
    opened = put_back(client, game, compared)
    assert opened.status_code == 200
    assert "This round was changed on another phone since" in text(opened)
    form = correction_form(opened)
    assert form[f"total_{ids['Bob']}"] == "5" and form[f"total_{ids['Cy']}"] == "9"
    assert client.post(f"/g/{game.edit_token}/round/1", data=form).status_code == 303
    db.session.expire_all()
    saved = {h.seat_id: h.points for h in db.session.get(Game, game.id).rounds[0].hands}
    assert saved[ids["Bob"]] == 5 and saved[ids["Cy"]] == 9


def test_put_mine_back_shows_a_hand_both_phones_changed(app, client):
    """Phone B corrected Bob 12 -> 8 after A's comparison (Bob 5 on A): "Put mine back" puts
    A's 5 in the form and shows the round saved now beside it, "Bob: 5 points (saved: 8
    points)", so that B's 8 is not overwritten unseen."""
    game, ids, compared = refused_with_bob_5(client)
    phone_b = round_post(game, 6, totals={"Bob": 8, "Cy": 7}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round/1", data=phone_b).status_code == 303
    opened = put_back(client, game, compared)
    assert "This round was changed on another phone since" in text(opened)
    assert listed(opened) == ["Bob: 5 points (saved: 8 points)"]
    assert correction_form(opened)[f"total_{ids['Bob']}"] == "5"
    assert "Put mine back in the form" not in text(opened)


def test_put_mine_back_with_the_round_unchanged_says_nothing_more(app, client):
    """Nothing changed the round since the comparison (another round saved meanwhile does
    not count): the correction form holds A's values, with no word of a change."""
    game, ids, compared = refused_with_bob_5(client)
    db.session.expire_all()
    now = db.session.get(Game, game.id).version
    next_round = round_post(game, 5, totals={"Bob": 4, "Cy": 6}, out="Ann", version=now)
    assert client.post(f"/g/{game.edit_token}/round", data=next_round).status_code == 303
    opened = put_back(client, game, compared)
    assert "changed on another phone" not in text(opened)
    form = correction_form(opened)
    assert form[f"total_{ids['Bob']}"] == "5" and form[f"total_{ids['Cy']}"] == "7"


def test_put_mine_back_carries_the_kept_typings_key_and_its_save_resolves_it(app, client):
    """The server's own Put mine back form names the phone's kept typing of the round (the
    round form's data-draft then: game id, rounds entered before it, its double), so the
    correction's Save answers with ``data-resolved`` whether or not static/js/kept.js added it
    (it runs only while kept typing waits; an outbox entry of the round needs it all the
    same: docs/OFFLINE.md)."""
    game, ids, compared = refused_with_bob_5(client)
    key = f"{game.id}:0:6"
    assert ("kept", key) in put_back_fields(compared, game)
    opened = put_back(client, game, compared)
    form = correction_form(opened)
    assert form["kept"] == key
    saved = client.post(f"/g/{game.edit_token}/round/1", data=form, headers={"HX-Request": "true"})
    assert saved.status_code == 200
    assert f'data-resolved="{key}"' in saved.get_data(as_text=True)


def test_asked_again_after_a_correction_elsewhere_only_this_phones_seats_are_compared(app, client):
    """Tester-107's HIGH: phone A's Save (Bob 5, Cy 7) was refused against the saved round
    (Bob 12, Cy 7): only Bob differs. Phone B then corrects Cy 7 -> 9, and A's page asks
    again for the round as saved now (static/js/offline.js, kept.js), naming the seats the
    first comparison named A's. Only Bob is A's: the new comparison lists Bob alone and Put
    mine back carries Bob alone, so B's Cy 9 is kept (was: Cy 7 listed as A's and put back,
    and the correction's Save undid B's correction without a word)."""
    game, ids, mine, compared = refused_with_what_was_sent(client)
    assert listed(compared) == ["Bob: 5 points (saved: 12 points)"]
    named = [v for k, v in put_back_fields(compared, game) if k == "put_back"]
    assert named == [str(ids["Bob"])]
    phone_b = round_post(game, 6, totals={"Bob": 12, "Cy": 9}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round/1", data=phone_b).status_code == 303
    again = MultiDict(mine)
    for value in named:
        again.add("put_back", value)
    asked = client.post(f"/g/{game.edit_token}/round", data=again)
    assert asked.status_code == 409
    assert listed(asked) == ["Bob: 5 points (saved: 12 points)"]
    opened = put_back(client, game, asked)
    form = correction_form(opened)
    assert form[f"total_{ids['Bob']}"] == "5" and form[f"total_{ids['Cy']}"] == "9"
