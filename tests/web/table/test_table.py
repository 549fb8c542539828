"""The whole table plays along: phones join seats, post their own hands, the scorekeeper's form
fills itself, saving takes the posts, handover moves scorekeeping (issue 10)."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from babel import Locale
from flask_babel import refresh
from sqlalchemy import select

from companion.extensions import db
from companion.models import AuditEntry, Game, HandPost, HandScore, Round, utcnow
from companion.table.views import OTHER_SEAT_HEADER
from tests.web.playkit import add_scored_rounds, make_game, round_post, seat_ids, text


@pytest.fixture()
def table(app, client):
    """A 3-player double-6 game whose score is kept on ``client``; ``phone(name)`` gives a test
    client joined to that player's seat."""
    game = make_game(("Ann", "Bob", "Cy"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200  # this phone keeps score
    phones = {}

    def phone(name: str):
        if name not in phones:
            c = app.test_client()
            r = c.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)[name]})
            assert r.status_code == 303 and r.location.endswith(f"/p/{game.share_token}"), r.text
            phones[name] = c
        return phones[name]

    return game, phone


def post(c, game, double=6, seen=None, **fields):
    data = {"double": str(double), **{k: v for k, v in fields.items() if v is not None}}
    if seen is not None:
        data["seen"] = str(seen)
    return c.post(f"/p/{game.share_token}", data=data)


def hand_post(game, name) -> HandPost | None:
    db.session.expire_all()
    return db.session.scalar(
        select(HandPost).where(
            HandPost.game_id == game.id, HandPost.seat_id == seat_ids(game)[name]
        )
    )


def rounds(game) -> list[Round]:
    db.session.expire_all()
    return list(db.session.scalars(select(Round).where(Round.game_id == game.id)))


# --- joining -----------------------------------------------------------------------------------


def test_the_game_page_shows_a_join_qr_code_and_short_link(client, table):
    game, _phone = table
    page = client.get(f"/g/{game.edit_token}").text
    assert "Players: join on your phone" in page
    assert f"/j/{game.join_token}" in page
    assert 'class="qr"' in page


def test_join_lists_the_seats_and_a_tap_joins_one(app, table):
    game, phone = table
    c = app.test_client()
    page = c.get(f"/j/{game.join_token}")
    assert page.status_code == 200
    for name in ("Ann", "Bob", "Cy"):
        assert f">{name}</button>" in page.text
    bob = phone("Bob")
    assert "Bob (this phone): open my hand" in bob.get(f"/j/{game.join_token}").text
    # another phone sees Bob's seat taken, and cannot take it
    assert "taken by another phone" in c.get(f"/j/{game.join_token}").text
    r = c.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Bob"]})
    assert r.status_code == 303
    assert "Bob&#39;s seat is already taken by another phone" in c.get(r.location).text


def test_a_forged_seat_id_is_refused_in_words(app, table):
    game, _phone = table
    other = make_game(("Zed", "Yan"))
    c = app.test_client()
    for forged in (seat_ids(other)["Zed"], "abc", "", "9" * 40):
        r = c.post(f"/j/{game.join_token}", data={"seat": forged})
        assert r.status_code == 303
        assert "That seat is not at this game" in c.get(r.location).text
    assert c.get(f"/p/{game.share_token}").status_code == 303  # still not joined


def test_the_scorekeeper_sees_who_joined_and_can_free_a_seat(app, client, table):
    game, phone = table
    phone("Ann")
    page = text(client.get(f"/g/{game.edit_token}"))
    assert "Ann: joined on a phone" in page and "Bob: not joined" in page
    r = client.post(f"/g/{game.edit_token}/seats/{seat_ids(game)['Ann']}/free")
    assert r.status_code == 303
    assert "Ann: not joined" in text(client.get(f"/g/{game.edit_token}"))
    # a phone that is not the scorekeeper cannot free seats
    stranger = app.test_client()
    phone("Ann").post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Ann"]})
    assert (
        stranger.post(f"/g/{game.edit_token}/seats/{seat_ids(game)['Ann']}/free").status_code == 403
    )
    assert "Ann: joined on a phone" in text(client.get(f"/g/{game.edit_token}"))


def test_join_link_of_a_finished_or_deleted_game_says_so(app, table):
    game, _phone = table
    c = app.test_client()
    game.status = "finished"
    db.session.commit()
    r = c.get(f"/j/{game.join_token}")
    assert r.status_code == 410 and "This game is over" in r.text
    # a hand this phone kept for a seat of it is listed there (said "Page gone" and nothing
    # else): the phone's script reads it for this game's hand page, and asks what is over
    assert 'id="refused-hands"' in r.text and "js/waiting.js" in r.text
    assert f'data-page="/p/{game.share_token}"' in r.text
    # the words say the final scoreboard is on the scoreboard link: the page links to it
    assert f'href="/s/{game.share_token}"' in r.text and "See the final scoreboard" in r.text
    r = c.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Bob"]})
    assert r.status_code == 410 and "This game is over" in r.text
    game.deleted_at = utcnow()
    db.session.commit()
    r = c.get(f"/j/{game.join_token}")
    assert r.status_code == 404 and "This game was deleted." in r.text


# --- posting a hand ------------------------------------------------------------------------------


def test_a_joined_phone_shows_the_scoreboard_and_only_its_own_hand(table):
    game, phone = table
    page = phone("Bob").get(f"/p/{game.share_token}")
    assert page.status_code == 200
    assert "Bob's hand" in text(page)
    assert 'inputmode="numeric"' in page.text and 'name="total"' in page.text
    assert "I went out" in page.text
    assert 'id="scoreboard"' in page.text
    assert 'name="open_picker"' in page.text and f"total_{seat_ids(game)['Ann']}" not in page.text
    assert "Not posted yet for this round." in page.text


def test_posted_hands_fill_the_scorekeepers_form_and_saving_takes_them(client, table):
    game, phone = table
    assert post(phone("Ann"), game, went_out="y").status_code == 303
    assert post(phone("Bob"), game, total="12").status_code == 303
    assert post(phone("Cy"), game, tiles=["5-4", "2-1"]).status_code == 303
    page = client.get(f"/g/{game.edit_token}").text
    ids = seat_ids(game)
    assert re.search(rf'name="total_{ids["Bob"]}"[^>]*value="12"', page)
    assert re.search(rf'name="tiles_{ids["Cy"]}" value="5-4"[^>]*checked', page)
    assert re.search(
        rf'name="out_{ids["Ann"]}"[^>]*checked|checked[^>]*name="out_{ids["Ann"]}"', page
    )
    assert page.count('class="post-mark posted"') == 3
    # the scorekeeper saves the form as filled (the seen revisions travel with it)
    seen = {f"seen_{ids[n]}": str(hand_post(game, n).revision) for n in ("Ann", "Bob", "Cy")}
    data = round_post(game, 6, totals={"Bob": 12}, tiles={"Cy": ["5-4", "2-1"]}, out="Ann")
    r = client.post(f"/g/{game.edit_token}/round", data={**data, **seen})
    assert r.status_code == 303, text(r)
    (saved,) = rounds(game)
    hands = {h.seat_id: h for h in saved.hands}
    assert hands[ids["Bob"]].points == 12 and hands[ids["Cy"]].points == 12
    assert {h.entered_by for h in saved.hands} == {"phone"}
    assert hand_post(game, "Bob").status == "taken"
    entry = db.session.scalars(select(AuditEntry).where(AuditEntry.action == "round_saved")).one()
    assert "Bob 12 (posted from Bob's phone)" in entry.summary
    # one pair of brackets per hand (was "Ann 0 (went out) (posted from Ann's phone)")
    assert "Ann 0 (went out; posted from Ann's phone)" in entry.summary
    # the phone sees that its hand was taken into the round
    page = text(phone("Bob").get(f"/p/{game.share_token}"))
    assert "Taken into the round with 6-6" in page and "12 points (as you posted)" in page
    # in a player's words: no server clock time in UTC (the table's own clock may differ)
    assert "UTC" not in page


def handed_over(app, client, game):
    """A new phone asks to keep score and ``client`` (the scorekeeper) hands over to it (the
    real routes); the new phone's test client."""
    new = app.test_client()
    new.post(f"/g/{game.edit_token}/ask")
    page = client.get(f"/g/{game.edit_token}").text
    request_id = re.search(r'name="request" value="(\d+)"', page).group(1)
    r = client.post(
        f"/g/{game.edit_token}/handover", data={"request": request_id, "choice": "move"}
    )
    assert r.status_code == 303
    return new


def saved_with_bobs_post(client, phone, game, **totals):
    """Bob posts 12 from his phone; the scorekeeper saves the round with 6-6 with ``totals``
    typed (Ann went out)."""
    post(phone("Bob"), game, total="12")
    ids = seat_ids(game)
    seen = {f"seen_{ids['Bob']}": str(hand_post(game, "Bob").revision)}
    data = round_post(game, 6, totals=totals, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data={**data, **seen}).status_code == 303


def test_the_scorekeeper_overrules_a_hand_and_the_trail_says_who_entered_what(client, table):
    game, phone = table
    saved_with_bobs_post(client, phone, game, Bob=10, Cy=3)
    ids = seat_ids(game)
    hands = {h.seat_id: h for h in rounds(game)[0].hands}
    assert hands[ids["Bob"]].points == 10 and hands[ids["Bob"]].entered_by == "overruled"
    assert hands[ids["Cy"]].entered_by == "scorekeeper"
    summary = (
        db.session.scalars(select(AuditEntry).where(AuditEntry.action == "round_saved"))
        .one()
        .summary
    )
    assert "Bob 10 (entered by the scorekeeper, overruling Bob's phone)" in summary
    assert "Cy 3 (entered by the scorekeeper)" in summary
    page = text(phone("Bob").get(f"/p/{game.share_token}"))
    assert "the scorekeeper entered it" in page and "You posted: 12" in page


def test_a_round_typed_by_a_new_scorekeeper_says_who_entered_it(app, client, table):
    """After a handover the new scorekeeper typed a whole round: its trail line said
    "Ann 0 (went out), Bob 4" while the first scorekeeper's read "Cy 3 (entered by the
    scorekeeper)". A game played with phones says who entered every hand of every round."""
    game, phone = table
    saved_with_bobs_post(client, phone, game, Bob=12, Cy=3)
    new = handed_over(app, client, game)
    db.session.expire_all()
    data = round_post(db.session.get(Game, game.id), 5, totals={"Ann": 7, "Bob": 4}, out="Cy")
    assert new.post(f"/g/{game.edit_token}/round", data=data).status_code == 303
    lines = [
        e.summary
        for e in db.session.scalars(
            select(AuditEntry).where(AuditEntry.action == "round_saved").order_by(AuditEntry.id)
        )
    ]
    assert "Cy 3 (entered by the scorekeeper)" in lines[0]
    assert "Ann 7 (entered by the scorekeeper)" in lines[1], lines[1]
    assert "Cy 0 (went out; entered by the scorekeeper)" in lines[1]
    # the trail page says it too, in the reader's language
    assert "Bob 4 (entered by the scorekeeper)" in text(new.get(f"/g/{game.edit_token}/audit"))


def test_a_phone_can_change_its_post_until_the_round_is_saved(client, table):
    game, phone = table
    bob = phone("Bob")
    post(bob, game, total="12")
    first = hand_post(game, "Bob").revision
    assert post(bob, game, total="14", seen=first).status_code == 303
    assert hand_post(game, "Bob").total == 14
    assert "Posted: 14 points" in text(bob.get(f"/p/{game.share_token}"))
    data = round_post(game, 6, totals={"Bob": 14, "Cy": 3}, out="Ann")
    ids = seat_ids(game)
    seen = {f"seen_{ids['Bob']}": str(hand_post(game, "Bob").revision)}
    client.post(f"/g/{game.edit_token}/round", data={**data, **seen})
    # a post for the saved round: the saved round with the phone's own values beside it
    r = post(bob, game, total="20", seen=hand_post(game, "Bob").revision)
    assert r.status_code == 409
    words = text(r)
    assert "The round with 6-6 was already saved" in words
    assert "Saved: 14" in words and "What you typed: 20" in words
    assert hand_post(game, "Bob").total == 14


def test_a_post_for_a_saved_round_does_not_fill_the_next_rounds_form(client, table):
    """Bob's 20 (or his photo's tiles) for the round with 6-6 comes after it was saved: the
    answer shows it beside the saved score, but the form below is the next round's (5-5),
    and it starts empty: pre-filled with the old hand, one tap on "Post my hand" would post
    last round's hand as this round's."""
    game, phone = table
    bob = phone("Bob")
    client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 14, "Cy": 3}, out="Ann"),
    )
    # (tapped tiles are said to be tapped, not typed)
    typed, tapped = "What you typed: 20", "Tiles you tapped: 3-1"
    for fields, shown in (({"total": "20"}, typed), ({"tiles": ["3-1"]}, tapped)):
        r = post(bob, game, **fields)
        assert r.status_code == 409
        assert shown in text(r)
        assert "Round 2: centre 5-5" in text(r)
        form = r.text.split('id="hand-form"', 1)[1].split("</form>", 1)[0]
        assert re.search(r'id="total"[^>]*value=""', form)
        assert not re.search(r'value="3-1"[^>]*checked', form)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        # the round form's words (round_check.centre_double_in_hand: one home)
        ({"tiles": ["6-6"]}, "Bob: 6-6 is this round's centre double, so it can't be in a hand."),
        ({"tiles": ["9-9"]}, "Bob:"),
        ({"total": "-3"}, "a score can't be negative"),
        ({"total": "12abc"}, "digits only"),
        ({"total": "99999"}, "more than any hand could hold"),
        ({}, "Type the points left in your hand, or tap your tiles."),
        ({"total": "3", "tiles": ["5-4"]}, "Your tapped tiles add up to 9 points, but you typed 3"),
        # a 0 beside tiles is such a total (static/js/hand.js refuses it with these words)
        ({"total": "0", "tiles": ["5-4"]}, "Your tapped tiles add up to 9 points, but you typed 0"),
        # a typed total beside a ticked "I went out" is refused, never silently dropped
        ({"total": "12", "went_out": "y"}, "Bob went out, so Bob scores 0 points, not 12."),
        ({"tiles": ["5-4"], "went_out": "y"}, "Bob went out, so Bob has no tiles left"),
        # 0 without "I went out": the round check's rule and words (round_check.score_entry),
        # told now, not only when the scorekeeper's Save (or the auto-save) refuses the round
        # (quoting the phone's box, "I went out": a tester looked for a "went out" box)
        ({"total": "0"}, "Bob: 0 points means no tiles left; tick “I went out”, or type"),
    ],
)
def test_a_bad_post_is_refused_in_words_and_keeps_what_was_typed(table, fields, message):
    game, phone = table
    r = post(phone("Bob"), game, **fields)
    assert r.status_code == 422
    assert message in text(r)
    assert hand_post(game, "Bob") is None
    if fields.get("total"):
        assert f'value="{fields["total"]}"' in r.text


@pytest.mark.parametrize("lang", ["en", "de", "ru", "cs", "lt", "es"])
def test_a_post_of_0_without_the_tick_quotes_the_boxs_label_in_every_language(table, lang):
    """A post of 0 without "I went out" is refused in words that name the box to tick: they
    said “went out” while the phone's box reads "I went out" (a tester looked for it). The
    refusal quotes the label exactly as the form shows it, in each of the six languages."""
    game, phone = table
    bob = phone("Bob")
    assert bob.post("/language", data={"lang": lang, "next": "/"}).status_code == 303
    refresh()  # (the test's app context keeps the first request's language)
    r = post(bob, game, total="0")
    assert r.status_code == 422
    label = re.search(r'<label class="went-out check"><input[^>]*>\s*([^<]+)</label>', r.text)
    assert label
    problem = re.search(r'<p class="flash error" role="alert">([^<]+)</p>', r.text)
    assert problem
    box = label.group(1).strip()
    assert re.search(f"[“„«]{re.escape(box)}[”“»]", html.unescape(problem.group(1))), (box, problem)


@pytest.mark.parametrize("lang", ["en", "de", "ru", "cs", "lt", "es"])
def test_the_hand_form_carries_the_refusal_of_a_total_beside_tiles_in_every_language(table, lang):
    """The words static/js/hand.js refuses a total beside tapped tiles of other points in
    (data-beside) are the server's in the phone's language, with both numbers to fill in, one
    per plural form of the language: the script picks the form of the tiles' sum as
    Intl.PluralRules (CLDR, as Babel's Locale.plural_form) says, and gets what the server says
    for 1, 2, 9 and 21 points ("1 point", "2 очка", "21 очко", "9 taškai")."""
    game, phone = table
    bob = phone("Bob")
    assert bob.post("/language", data={"lang": lang, "next": "/"}).status_code == 303
    refresh()
    for tiles, points in ((["1-0"], 1), (["2-0"], 2), (["5-4"], 9), (["6-5", "6-4"], 21)):
        r = post(bob, game, total="0", tiles=tiles)
        assert r.status_code == 422
        beside = re.search(r'data-beside="([^"]+)"', r.text)
        problem = re.search(r'<p class="flash error" role="alert">([^<]+)</p>', r.text)
        assert beside and problem
        forms = json.loads(html.unescape(beside.group(1)))
        words = forms[Locale.parse(lang).plural_form(points)]
        filled = words.replace("{points}", str(points)).replace("{typed}", "0")
        assert filled == html.unescape(problem.group(1))
        if lang == "en":
            unit = "point," if points == 1 else "points,"
            assert f"add up to {points} {unit} but you typed 0. To post 0, untick" in filled


@pytest.mark.parametrize("lang", ["en", "de", "ru", "cs", "lt", "es"])
def test_the_hand_form_carries_the_refusal_of_went_out_beside_a_total_or_tiles(table, lang):
    """The words static/js/hand.js refuses "I went out" in (data-out) beside a typed total
    other than 0 ("total", {typed} to fill in) or beside tapped tiles ("tiles") are the
    server's, in the phone's language: the phone refused neither, and kept such a post offline
    to be refused by the server once back online."""
    game, phone = table
    bob = phone("Bob")
    assert bob.post("/language", data={"lang": lang, "next": "/"}).status_code == 303
    refresh()
    for fields, part, typed in (
        ({"total": "12"}, "total", "12"),
        ({"tiles": ["1-0"]}, "tiles", ""),
    ):
        r = post(bob, game, went_out="y", **fields)
        assert r.status_code == 422
        out = re.search(r'data-out="([^"]+)"', r.text)
        problem = re.search(r'<p class="flash error" role="alert">([^<]+)</p>', r.text)
        assert out and problem
        words = json.loads(html.unescape(out.group(1)))[part]
        assert words.replace("{typed}", typed) == html.unescape(problem.group(1))
        if lang == "en":
            assert words in (
                "Bob went out, so Bob scores 0 points, not {typed}.",
                "Bob went out, so Bob has no tiles left: clear the tapped tiles.",
            )


@pytest.mark.parametrize(("rules", "refused"), [({}, True), ({"double_blank_value": 0}, False)])
def test_the_hand_form_carries_the_refusal_of_a_0_only_where_the_round_refuses_it(
    app, client, rules, refused
):
    """The hand form gives its script (static/js/hand.js) the words a 0 without "I went out"
    is refused in (data-zero), so the phone refuses it before sending or keeping it: only
    where the server refuses it. A hand of only the double-blank scores 0 when the house
    rules make it worth 0 (and the round's centre is not 0-0): there a 0 is posted."""
    game = make_game(("Ann", "Bob", "Cy"), **rules)
    assert client.get(f"/g/{game.edit_token}").status_code == 200  # this phone keeps score
    bob = app.test_client()
    joined = bob.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Bob"]})
    assert joined.status_code == 303
    page = html.unescape(bob.get(f"/p/{game.share_token}").text)
    words = (
        "Bob: 0 points means no tiles left; tick “I went out”, or type the points left in your "
        "hand."
    )
    assert (f'data-zero="{words}"' in page) is refused
    assert ("data-zero" in page) is refused
    # a total beside tapped tiles of other points (0 or any): refused in every round, its
    # numbers filled in by the script (the tiles' points: the picker's)
    beside = (
        "Your tapped tiles add up to {points} points, but you typed {typed}. To post {typed}, "
        "untick the tiles; to post the tiles, empty “Points left in my hand”."
    )
    assert beside in page
    r = post(bob, game, total="0")
    assert r.status_code == (422 if refused else 303)
    if refused:
        assert words in text(r)


def test_changing_a_went_out_post_to_a_total_with_the_tick_left_on_is_refused(table):
    """Dmitri posted "I went out"; the page comes back with it ticked; he types 3: refused in
    words, the post stays "went out" and the 3 is still in the form."""
    game, phone = table
    assert post(phone("Bob"), game, went_out="y").status_code == 303
    r = post(phone("Bob"), game, total="3", went_out="y", seen=hand_post(game, "Bob").revision)
    assert r.status_code == 422
    assert "Bob went out, so Bob scores 0 points, not 3." in text(r)
    assert 'value="3"' in r.text
    assert hand_post(game, "Bob").went_out and hand_post(game, "Bob").total is None
    # a 0 beside the tick says the same as the tick: taken
    assert post(phone("Cy"), game, total="0", went_out="y").status_code == 303


def test_a_post_equal_to_what_the_saved_round_holds_is_no_conflict(client, table):
    """Bob posts 6 (offline); the scorekeeper's round (offline too) also has 6 for him; both
    come back: Bob is told it was saved as typed, not shown a conflict. A 7 still is one."""
    game, phone = table
    data = round_post(game, 6, totals={"Bob": 6, "Cy": 3}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=data).status_code == 303
    r = post(phone("Bob"), game, total="6")
    assert r.status_code == 303
    page = phone("Bob").get(r.location)
    assert "The round with 6-6 was already saved, with your hand as you typed it." in text(page)
    assert "What you typed" not in text(page)
    assert post(phone("Cy"), game, total="7").status_code == 409


def test_a_tile_already_in_another_posted_hand_is_refused(table):
    game, phone = table
    post(phone("Ann"), game, tiles=["5-4"])
    r = post(phone("Bob"), game, tiles=["5-4", "1-0"])
    assert r.status_code == 422
    assert "5-4 is already in Ann's posted hand" in text(r)
    assert hand_post(game, "Bob") is None


def test_a_post_for_a_round_not_being_played_is_refused(table):
    game, phone = table
    r = post(phone("Bob"), game, double=3, total="5")
    assert r.status_code == 422 and "is not being played now" in text(r)
    r = post(phone("Bob"), game, double="x", total="5")
    assert r.status_code == 422


def test_a_player_page_without_a_seat_leads_to_the_join_page(app, table):
    game, _phone = table
    r = app.test_client().get(f"/p/{game.share_token}")
    assert r.status_code == 303 and r.location.endswith(f"/j/{game.share_token}")


#: what a hand posted by a phone without a seat of the game is told, beside its hand
NOT_JOINED = (
    "This phone has not joined a seat of this game, so it cannot post a hand here. To join, "
    "scan the QR code on the scorekeeper's phone (or open the join link shown there) and tap "
    "your name; then post your hand again."
)


def test_a_hand_posted_by_a_phone_that_never_joined_is_refused_in_words_and_shown_back(app, table):
    """A phone that never joined (a stale form, an outbox entry older than its session) posts
    a hand with the game's valid share token: it was sent to the join page (a redirect, which
    the phone's outbox takes for a save), its hand thrown away unsaid. Now the answer says the
    hand was not saved, repeats it, and says how to join; a hand naming its seat (?seat=) is
    marked to be kept on the phone for that seat. A photo's Confirm is answered alike."""
    game, _phone = table
    ids = seat_ids(game)
    stranger = app.test_client()
    r = stranger.post(f"/p/{game.share_token}", data={"double": "6", "total": "13"})
    assert r.status_code == 403 and OTHER_SEAT_HEADER not in r.headers
    words = text(r)
    assert "What you typed was not saved: 13" in words and NOT_JOINED in words
    assert 'name="seat"' not in r.text  # no names to tap here: the join secret opens them
    r = stranger.post(
        f"/p/{game.share_token}?seat={ids['Bob']}", data={"double": "6", "went_out": "y"}
    )
    assert r.status_code == 403 and r.headers.get(OTHER_SEAT_HEADER) == "1"
    assert "What this phone sent was not saved: went out" in text(r)
    # tapped tiles are said to be tapped, not typed ("Введённое тобой" was wrong for them)
    r = stranger.post(f"/p/{game.share_token}", data={"double": "6", "tiles": ["3-2", "1-0"]})
    assert r.status_code == 403 and "The tiles you tapped were not saved: 3-2 1-0" in text(r)
    assert stranger.post("/language", data={"lang": "ru", "next": "/"}).status_code == 303
    refresh()
    r = stranger.post(f"/p/{game.share_token}", data={"double": "6", "tiles": ["3-2", "1-0"]})
    assert "Отмеченные тобой кости не сохранены: 3-2 1-0" in text(r)
    assert "Введённое тобой" not in text(r)
    r = stranger.post(f"/p/{game.share_token}", data={"double": "6", "total": "13"})
    assert "Введённое тобой не сохранено: 13" in text(r)
    assert stranger.post("/language", data={"lang": "en", "next": "/"}).status_code == 303
    refresh()
    r = stranger.post(
        f"/p/{game.share_token}/photo/confirm?double=6&seen=0&seat={ids['Bob']}",
        data={"tile": ["3-2", "1-0"]},
    )
    assert r.status_code == 403 and r.headers.get(OTHER_SEAT_HEADER) == "1"
    assert "Tiles from your photo were not saved: 3-2 1-0" in text(r) and NOT_JOINED in text(r)
    # a game over: no seat to join any more, so the hand was not counted, said so
    game.status = "finished"
    db.session.commit()
    r = stranger.post(f"/p/{game.share_token}", data={"double": "6", "total": "13"})
    assert r.status_code == 403 and "What you typed was not saved: 13" in text(r)
    assert "Not counted: the game ended before this hand was sent" in text(r)
    assert NOT_JOINED not in text(r)
    assert db.session.scalar(select(HandPost.id)) is None


@pytest.mark.parametrize("page", ["", "/photo"])
def test_a_phone_without_a_seat_is_told_so_not_to_tap_a_name_that_is_not_there(app, table, page):
    """A phone that lost its saved data opens its hand (or photo) page: the join page it is
    sent to (the scoreboard link's) has no names to tap, so the notice says why it is there
    and the page says how to join, with no "Tap your name first"."""
    game, _phone = table
    lost = app.test_client()
    r = lost.get(f"/p/{game.share_token}{page}")
    assert r.status_code == 303 and r.location.endswith(f"/j/{game.share_token}")
    words = html.unescape(lost.get(r.location).text)
    assert "This phone holds no seat of this game, so it has no hand to open here." in words
    assert "scan the QR code on the scorekeeper's phone" in words
    assert "Tap your name" not in words and 'name="seat"' not in words


# --- nothing typed is ever lost ------------------------------------------------------------------


def test_a_hand_typed_for_another_seat_is_never_posted_as_this_phones(table):
    """A phone's outbox kept Ann's hand while the phone lost its seat and joined Bob's; sent
    from there later (with the page's fresh token), it must not become Bob's hand. The hand
    form and the photo's Confirm name their seat in their address; a post naming another
    seat is refused in words that say for whom it was (a photo's tiles are not "typed"), with
    the mark that tells the phone's outbox to keep it for that seat, and nothing is posted."""
    game, phone = table
    ids = seat_ids(game)
    bob = phone("Bob")
    r = bob.post(f"/p/{game.share_token}?seat={ids['Ann']}", data={"double": "6", "total": "8"})
    assert r.status_code == 422 and r.headers.get(OTHER_SEAT_HEADER) == "1"
    assert (
        "Not posted: this hand was typed on this phone for Ann's seat, before the phone joined "
        "Bob's seat. If it is Bob's hand, type it again here." in text(r)
    )
    assert hand_post(game, "Bob") is None and hand_post(game, "Ann") is None
    r = bob.post(
        f"/p/{game.share_token}/photo/confirm?double=6&seen=0&seat={ids['Ann']}",
        data={"tile": ["3-2"]},
    )
    assert r.status_code == 422 and r.headers.get(OTHER_SEAT_HEADER) == "1"
    assert "this hand was counted from a photo on this phone for Ann's seat" in text(r)
    assert "typed" not in text(r).split("Not posted:")[1].split(".")[0]
    assert hand_post(game, "Bob") is None
    # a seat of no game of this address: nothing to keep it for
    r = bob.post(f"/p/{game.share_token}?seat=999999", data={"double": "6", "total": "8"})
    assert r.status_code == 404 and hand_post(game, "Bob") is None
    # its own seat's address posts as before
    r = bob.post(f"/p/{game.share_token}?seat={ids['Bob']}", data={"double": "6", "total": "8"})
    assert r.status_code == 303 and hand_post(game, "Bob").total == 8
    assert OTHER_SEAT_HEADER not in r.headers


def test_a_hand_sent_by_a_removed_phone_is_kept_for_its_seat(table, client):
    """The scorekeeper removed the phone from Bob's seat while its hand (typed, or counted
    from a photo) waited in its outbox: sent, it is refused with the mark that keeps it for
    Bob's seat (never a redirect, which the outbox takes for a save), nothing posted."""
    game, phone = table
    bob, ids = phone("Bob"), seat_ids(game)
    assert client.post(f"/g/{game.edit_token}/seats/{ids['Bob']}/free").status_code == 303
    r = bob.post(f"/p/{game.share_token}?seat={ids['Bob']}", data={"double": "6", "total": "8"})
    assert r.status_code == 403 and r.headers.get(OTHER_SEAT_HEADER) == "1"
    r = bob.post(
        f"/p/{game.share_token}/photo/confirm?double=6&seen=0&seat={ids['Bob']}",
        data={"tile": ["3-2"]},
    )
    assert r.status_code == 403 and r.headers.get(OTHER_SEAT_HEADER) == "1"
    assert "The scorekeeper removed this phone from the seat" in text(r) and "3-2" in text(r)
    assert hand_post(game, "Bob") is None
    # a post of a page older than the seat's address: refused, with nothing to keep it for
    r = bob.post(f"/p/{game.share_token}", data={"double": "6", "total": "8"})
    assert r.status_code == 403 and OTHER_SEAT_HEADER not in r.headers


def test_the_hand_form_and_the_photo_confirm_name_their_seat(table):
    game, phone = table
    bob = phone("Bob")
    bob_id = seat_ids(game)["Bob"]
    assert f'action="/p/{game.share_token}?seat={bob_id}"' in bob.get(f"/p/{game.share_token}").text


def test_different_hands_from_different_phones_both_count(table):
    game, phone = table
    post(phone("Ann"), game, total="5")
    post(phone("Bob"), game, total="7")
    assert hand_post(game, "Ann").total == 5 and hand_post(game, "Bob").total == 7


def test_the_same_hand_differently_from_a_later_phone_shows_both_and_it_chooses(app, client, table):
    game, phone = table
    post(phone("Bob"), game, total="12")
    # Bob's seat moves to another phone (freed by the scorekeeper), which had not seen 12
    client.post(f"/g/{game.edit_token}/seats/{seat_ids(game)['Bob']}/free")
    later = app.test_client()
    later.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Bob"]})
    r = post(later, game, total="15", seen=0)
    assert r.status_code == 409
    words = text(r)
    assert "Your hand was changed on another phone" in words
    assert "On the other phone: 12 points" in words and "What you typed: 15" in words
    assert hand_post(game, "Bob").total == 12  # nothing replaced unseen
    # it chooses its own value
    r = post(later, game, total="15", seen=0, force="1")
    assert r.status_code == 303 and hand_post(game, "Bob").total == 15


def test_a_hand_posted_after_the_form_was_filled_refuses_the_save_until_seen(client, table):
    game, phone = table
    bob = phone("Bob")
    post(bob, game, total="12")
    ids = seat_ids(game)
    seen = {f"seen_{ids['Bob']}": str(hand_post(game, "Bob").revision)}
    post(bob, game, total="16", seen=hand_post(game, "Bob").revision)  # after the form was filled
    data = round_post(game, 6, totals={"Bob": 12, "Cy": 3}, out="Ann")
    r = client.post(f"/g/{game.edit_token}/round", data={**data, **seen})
    assert r.status_code == 409
    words = text(r)
    assert (
        "Bob changed their hand on their phone after this form was filled (now: 16 points)"
    ) in words
    # one message says it all, both values (the offline outbox shows it without the form)
    assert (
        "The round is not saved yet: after this form was filled, Bob changed their hand on "
        "their phone (now: 16 points; this phone: 12 points). Check it, then save again: the "
        "round is saved as the form shows it."
    ) in words
    assert "Nothing was saved yet" not in words
    assert rounds(game) == []
    # the form came back with what the scorekeeper typed and the new revision: saving again
    # keeps the form's values (the scorekeeper has now seen the post)
    new_seen = re.search(rf'name="seen_{ids["Bob"]}" type="hidden" value="(\d+)"', r.text).group(1)
    r = client.post(f"/g/{game.edit_token}/round", data={**data, f"seen_{ids['Bob']}": new_seen})
    assert r.status_code == 303
    assert {h.seat_id: h.points for h in rounds(game)[0].hands}[ids["Bob"]] == 12


def refused_with_bob_out(
    client, table, lang: str = "en", filled: bool = False, bob_box: str = "12"
) -> Any:
    """The answer to a save refused as, after the form was filled (Bob 12, Cy 3), Bob's phone
    posted "went out" and Cy's 9 points (the form: Bob 12, written ``bob_box``, Cy went out), in
    ``lang``. ``filled``: the form says Bob's box holds his post as it was filled (untouched),
    and Cy's was typed over; else both read as typed (no ``filled_``)."""
    game, phone = table
    ids = seat_ids(game)
    bob, cy = phone("Bob"), phone("Cy")
    post(bob, game, total="12")
    post(cy, game, total="3")
    seen = {f"seen_{ids[n]}": str(hand_post(game, n).revision) for n in ("Bob", "Cy")}
    if filled:
        seen |= {f"filled_{ids['Bob']}": "12", f"filled_{ids['Cy']}": "3"}
    post(bob, game, went_out="y", seen=hand_post(game, "Bob").revision)  # after the form was filled
    post(cy, game, total="9", seen=hand_post(game, "Cy").revision)
    data = round_post(game, 6, totals={"Bob": bob_box, "Ann": 7}, out="Cy")
    refresh()  # (the test's app context keeps the first request's language)
    r = client.post(
        f"/g/{game.edit_token}/round", data={**data, **seen}, headers={"Accept-Language": lang}
    )
    assert r.status_code == 409 and rounds(game) == []
    return r


def test_a_refused_save_names_a_went_out_hand_in_words_that_read(client, table):
    """Each value of a refused save's message follows a colon: "went out" read "(this phone
    had went out)" and "changed their hand on their phone to went out" (a tester's words)."""
    assert (
        "after this form was filled, Bob changed their hand on their phone (now: went out; "
        "this phone: 12 points); Cy changed their hand on their phone (now: 9 points; this "
        "phone: went out). Check it, then save again: the round is saved as the form shows it."
    ) in text(refused_with_bob_out(client, table))


@pytest.mark.parametrize(
    ("lang", "went_out", "points"),
    [
        (
            "en",
            "Bob changed their hand on their phone after this form was filled (now: went out)",
            "Cy changed their hand on their phone after this form was filled (now: 9 points)",
        ),
        (
            "ru",
            "Bob: рука изменена на своём телефоне уже после заполнения формы (теперь: вышел(а))",
            "Cy: рука изменена на своём телефоне уже после заполнения формы (теперь: 9 очков)",
        ),
    ],
)
def test_a_refused_save_names_each_changed_hand_under_its_row_in_words_that_read(
    client, table, lang, went_out, points
):
    """Found by a tester (2026-12-07): under Bob's row the refused save said "Bob posted went
    out from their phone after this form was filled" (ru "отправил вышел(а)"); each row's
    message names the post's value after a colon, as the message at the top does."""
    words = text(refused_with_bob_out(client, table, lang))
    assert went_out in words and points in words
    assert "posted went out" not in words and "отправил" not in words


@pytest.mark.parametrize(
    ("lang", "took_it", "typed_stands"),
    [
        (
            "en",
            "Bob changed their hand on their phone after this form was filled (now: went out); "
            "the form holds their new hand now. Check the form, then save again.",
            "the value typed here will stand.",
        ),
        ("de", "das Formular zeigt jetzt die neue Hand.", "Der hier getippte Wert gilt."),
        ("ru", "теперь в форме новая рука.", "останется значение, введённое здесь."),
        ("cs", "formulář teď ukazuje novou ruku.", "platit bude hodnota zadaná zde."),
        ("lt", "formoje dabar nauja ranka.", "galios čia įvesta reikšmė."),
        ("es", "el formulario muestra ahora su nueva mano.", "valdrá el valor escrito aquí."),
    ],
)
def test_a_refused_save_says_which_box_took_the_new_post_and_which_typing_stands(
    client, table, lang, took_it, typed_stands
):
    """Found by a tester (2026-12-07): Bob's box held his posted 12 untouched, the scorekeeper
    marked Cy out, and Bob posted "I went out" before Save. The refused save put Bob's new
    post in his box (two players marked out now) and said under it "the form's values will
    stand", which the form as it came back could not do. The box that took the new post says
    so; a box typed over says its typed value stands (it does, at the next Save)."""
    r = refused_with_bob_out(client, table, lang, filled=True)
    ids = seat_ids(table[0])
    bob_out = re.search(rf'<input[^>]*name="out_{ids["Bob"]}"[^>]*>', r.text)
    assert bob_out and " checked" in bob_out.group(0), "Bob's new post"
    words = text(r)
    assert took_it in words and typed_stands in words
    assert "the form's values will stand" not in words


@pytest.mark.parametrize("bob_box", ["012", " 12 "])
def test_the_same_number_written_otherwise_is_the_post_untouched(client, table, bob_box):
    """Found by a tester (2026-12-07): "08" typed over a post of 8 read as typed over it. The
    same number is the same hand: Bob's box holding his 12 as "012" takes his newer post on a
    refused save, as the box holding "12" does (play._untouched)."""
    r = refused_with_bob_out(client, table, filled=True, bob_box=bob_box)
    bob_out = re.search(rf'<input[^>]*name="out_{seat_ids(table[0])["Bob"]}"[^>]*>', r.text)
    assert bob_out and " checked" in bob_out.group(0), "Bob's new post"
    assert "the form holds their new hand now" in text(r)


@pytest.mark.parametrize(
    ("lang", "saves_as_shown"),
    [
        ("en", "Check it, then save again: the round is saved as the form shows it."),
        ("de", "speichere noch einmal: die Runde wird so gespeichert, wie das Formular sie zeigt."),
        ("ru", "сохрани снова: раунд сохранится так, как его показывает форма."),
        ("cs", "ulož znovu: kolo se uloží tak, jak ho ukazuje formulář."),
        ("lt", "išsaugok dar kartą: raundas bus išsaugotas taip, kaip jį rodo forma."),
        ("es", "vuelve a guardar: la ronda se guarda tal como la muestra el formulario."),
    ],
)
def test_a_refused_saves_message_says_what_saving_again_does(client, table, lang, saves_as_shown):
    """Found by a tester (2026-12-07): the message at the top said "Check it, then save again"
    and not what that does, while each row says it ("the form holds their new hand now", "the
    value typed here will stand"): it says, true of both, that the round is saved as the form
    shows it."""
    assert saves_as_shown in text(refused_with_bob_out(client, table, lang, filled=True))


def test_a_changed_hand_whose_box_was_empty_says_so_in_words(app):
    """A hand of a refused save whose box on this phone held nothing is said in words, not
    "(this phone had —)" (every saved hand holds a value today: the words are for a box that
    reaches the message empty)."""
    from companion.games.play import _changed_hand
    from companion.services.hand_posts import HandValue

    with app.test_request_context():
        words = _changed_hand("Bob", HandValue(16, None, False), HandValue(None, None, False))
    assert words == (
        "Bob changed their hand on their phone (now: 16 points; nothing was typed for them on "
        "this phone)"
    )


def test_a_refused_save_shows_a_newer_post_in_a_box_that_held_the_old_one(client, table):
    """A save refused as incomplete (422) while Bob and Cy posted again: Bob's box, which still
    held his old post, shows his newer post; Cy's box, typed over by the scorekeeper, keeps the
    typing and names Cy's newer post (as after a 409)."""
    game, phone = table
    bob, cy = phone("Bob"), phone("Cy")
    post(bob, game, total="30")
    post(cy, game, total="4")
    ids = seat_ids(game)
    filled = {
        f"seen_{ids['Bob']}": str(hand_post(game, "Bob").revision),
        f"filled_{ids['Bob']}": "30",
        f"seen_{ids['Cy']}": str(hand_post(game, "Cy").revision),
        f"filled_{ids['Cy']}": "4",
    }
    post(bob, game, total="31", seen=hand_post(game, "Bob").revision)
    post(cy, game, total="5", seen=hand_post(game, "Cy").revision)
    data = round_post(game, 6, totals={"Ann": 2, "Bob": 30, "Cy": 9})  # nobody went out
    r = client.post(f"/g/{game.edit_token}/round", data={**data, **filled})
    assert r.status_code == 422 and rounds(game) == []
    assert re.search(rf'name="total_{ids["Bob"]}"[^>]* value="31"', r.text), "Bob's newer post"
    assert re.search(rf'name="total_{ids["Cy"]}"[^>]* value="9"', r.text), "Cy's typing kept"
    words = text(r)
    assert (
        "Cy changed their hand on their phone after this form was filled (now: 5 points)"
    ) in words
    assert "Mark who went out" in words


def test_a_hand_the_scorekeeper_typed_before_the_post_arrived_is_not_dropped(client, table):
    game, phone = table
    post(phone("Bob"), game, total="16")
    data = round_post(game, 6, totals={"Bob": 12, "Cy": 3}, out="Ann")  # seen_ missing: 0
    r = client.post(f"/g/{game.edit_token}/round", data=data)
    assert r.status_code == 409 and rounds(game) == []


def test_auto_save_saves_the_round_when_every_hand_is_posted(client, table):
    game, phone = table
    assert client.post(f"/g/{game.edit_token}/auto-save", data={"on": "1"}).status_code == 303
    post(phone("Ann"), game, went_out="y")
    post(phone("Bob"), game, total="12")
    assert rounds(game) == []
    r = post(phone("Cy"), game, total="7")
    (saved,) = rounds(game)
    assert sorted(h.points for h in saved.hands) == [0, 7, 12]
    # the last phone is told the round saved itself, not "you can change it until it is saved"
    page = text(phone("Cy").get(r.location))
    assert "every hand was in, so the round with 6-6 saved itself" in page
    assert "You can change it until the round is saved." not in page
    trail = text(client.get(f"/g/{game.edit_token}/audit"))
    assert "Round 1 (6-6) saved by itself from the posted hands:" in trail


def test_auto_save_waits_when_the_posts_conflict(client, table):
    game, phone = table
    client.post(f"/g/{game.edit_token}/auto-save", data={"on": "1"})
    post(phone("Ann"), game, went_out="y")
    post(phone("Bob"), game, went_out="y")  # two players out: the scorekeeper decides
    post(phone("Cy"), game, total="7")
    assert rounds(game) == []


def test_auto_save_of_a_round_nobody_went_out_of_points_at_the_blocked_tick(client, table):
    """Every hand posted and nobody went out: auto-save never guesses a blocked round, and the
    scorekeeper's page says why the round did not save itself and points at the tick box."""
    game, phone = table
    hint = "Every hand is posted, but nobody went out, so the round did not save itself."
    client.post(f"/g/{game.edit_token}/auto-save", data={"on": "1"})
    post(phone("Ann"), game, total="4")
    post(phone("Bob"), game, total="12")
    assert hint not in text(client.get(f"/g/{game.edit_token}"))  # Cy has not posted yet
    r = post(phone("Cy"), game, total="7")
    assert rounds(game) == []
    # the last phone is told who saves the round now (not only "waiting")
    said = "Nobody went out, so the round waits for the scorekeeper to save it."
    assert said in text(phone("Cy").get(r.location))
    page = client.get(f"/g/{game.edit_token}")
    assert hint in text(page)
    assert "tick “Nobody went out: the round was blocked” and save" in text(page)
    assert 'href="#blocked"' in page.get_data(as_text=True)
    client.post(f"/g/{game.edit_token}/auto-save", data={"on": "0"})  # the keeper saves: no hint
    assert hint not in text(client.get(f"/g/{game.edit_token}"))


def test_auto_save_scores_tapped_tiles_posted_from_the_phones(client, table):
    """The round saved by itself reads the posted tiles as the scorekeeper's form would: the
    points come from the tiles (5-4 and 2-1: 12 points), and the tiles are kept."""
    game, phone = table
    client.post(f"/g/{game.edit_token}/auto-save", data={"on": "1"})
    post(phone("Ann"), game, went_out="y")
    post(phone("Bob"), game, total="3")
    post(phone("Cy"), game, tiles=["5-4", "2-1"])
    (saved,) = rounds(game)
    ids = seat_ids(game)
    hands = {h.seat_id: h for h in saved.hands}
    assert (hands[ids["Ann"]].points, hands[ids["Ann"]].went_out) == (0, True)
    assert hands[ids["Bob"]].points == 3
    assert (hands[ids["Cy"]].points, sorted(hands[ids["Cy"]].tiles)) == (12, ["2-1", "5-4"])
    assert {h.entered_by for h in saved.hands} == {"phone"}


def test_the_posted_round_reads_as_the_form_filled_from_the_posts(app, table):
    """Auto-save (companion.services.hand_posts.posted_entry, checked by check_round) and the
    scorekeeper's form filled from the same posts (form_data -> round form) score the same
    round."""
    from companion.services import hand_posts as posts
    from companion.services.round_check import check_round
    from companion.web.round_form import round_form

    game, phone = table
    post(phone("Ann"), game, went_out="y")
    post(phone("Bob"), game, total="9")
    post(phone("Cy"), game, tiles=["5-4", "2-1"])
    db.session.expire_all()
    game = db.session.get(Game, game.id)
    posted = posts.open_posts(game, 6)
    entry = posts.posted_entry(game, 6, posted)
    assert [(h.total, h.tiles, h.went_out) for h in entry.hands] == [
        ("", [], True),
        ("9", [], False),
        ("", ["2-1", "5-4"], False),
    ]
    with app.test_request_context():
        via_entry, messages = check_round(game, entry)
        form = round_form(game, csrf=False, **{"double": "6", **posts.form_data(posted)})
        via_form = form.validate_round(game, 6)
    assert messages == []
    assert via_entry is not None
    assert via_entry == via_form
    assert [h.points for h in via_entry.hands] == [0, 9, 12]


# --- live ---------------------------------------------------------------------------------------


def test_the_polls_answer_204_until_a_hand_is_posted_or_a_round_saved(client, table):
    game, phone = table
    page = client.get(f"/g/{game.edit_token}").text
    key = re.search(r'data-key="([^"]+)"', page).group(1)
    url = f"/g/{game.edit_token}/posts?v={key}"
    assert client.get(url).status_code == 204
    bob = phone("Bob")
    hand_page = bob.get(f"/p/{game.share_token}").text
    live = re.search(r'hx-get="(/p/[^"]+/live\?v=[^"]+)"', hand_page).group(1).replace("&amp;", "&")
    assert 'hx-trigger="every 2s"' in hand_page
    assert bob.get(live).status_code == 204
    post(bob, game, total="12")
    r = client.get(url)
    assert r.status_code == 200
    assert r.json["hands"][str(seat_ids(game)["Bob"])]["total"] == 12
    r = bob.get(live)
    assert r.status_code == 200 and "Posted: 12 points" in r.text
    assert 'name="total"' not in r.text  # the form being typed in is never swapped


# --- handover -----------------------------------------------------------------------------------


def test_handover_moves_scorekeeping_and_the_old_phone_is_told(app, client, table):
    game, _phone = table
    new = app.test_client()
    r = new.get(f"/g/{game.edit_token}")
    assert r.status_code == 403 and "Another phone keeps score" in r.text
    assert new.post(f"/g/{game.edit_token}/round", data={}).status_code == 403
    r = new.post(f"/g/{game.edit_token}/ask")
    assert r.status_code == 303
    page = client.get(f"/g/{game.edit_token}").text
    assert "Another phone asks to keep score." in page
    request_id = re.search(r'name="request" value="(\d+)"', page).group(1)
    r = client.post(
        f"/g/{game.edit_token}/handover", data={"request": request_id, "choice": "move"}
    )
    assert r.status_code == 303
    # the old phone's right ended at once, and it is told so; what it sends is not saved
    r = client.get(f"/g/{game.edit_token}")
    assert r.status_code == 403 and "This phone no longer keeps score" in r.text
    data = round_post(game, 6, totals={"Bob": 12, "Cy": 3}, out="Ann")
    r = client.post(f"/g/{game.edit_token}/round", data=data)
    assert r.status_code == 403 and rounds(game) == []
    assert "Bob (points): 12" in text(r)
    # the new phone keeps score
    assert new.get(f"/g/{game.edit_token}").status_code == 200
    assert (
        new.post(
            f"/g/{game.edit_token}/round",
            data=round_post(game, 6, totals={"Bob": 12, "Cy": 3}, out="Ann"),
        ).status_code
        == 303
    )
    actions = [
        e.action
        for e in db.session.scalars(select(AuditEntry).where(AuditEntry.game_id == game.id))
    ]
    assert "scorekeeper_moved" in actions


def test_a_request_from_a_seated_phone_names_the_player_here_and_in_the_trail(client, table):
    game, phone = table
    bob = phone("Bob")
    assert bob.post(f"/g/{game.edit_token}/ask").status_code == 303
    page = client.get(f"/g/{game.edit_token}").text
    assert "Bob asks to keep score from their phone." in page
    assert "Another phone asks to keep score." not in page
    request_id = re.search(r'name="request" value="(\d+)"', page).group(1)
    r = client.post(
        f"/g/{game.edit_token}/handover", data={"request": request_id, "choice": "move"}
    )
    assert r.status_code == 303
    trail = bob.get(f"/g/{game.edit_token}/audit")
    assert "Scorekeeping handed over to Bob's phone." in text(trail)


def test_a_second_scorekeeper_only_when_added_on_purpose(app, client, table):
    game, _phone = table
    second = app.test_client()
    second.post(f"/g/{game.edit_token}/ask")
    request_id = re.search(
        r'name="request" value="(\d+)"', client.get(f"/g/{game.edit_token}").text
    ).group(1)
    client.post(f"/g/{game.edit_token}/handover", data={"request": request_id, "choice": "add"})
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    assert second.get(f"/g/{game.edit_token}").status_code == 200


def test_a_refused_request_leaves_scorekeeping_where_it_was(app, client, table):
    game, _phone = table
    other = app.test_client()
    other.post(f"/g/{game.edit_token}/ask")
    request_id = re.search(
        r'name="request" value="(\d+)"', client.get(f"/g/{game.edit_token}").text
    ).group(1)
    client.post(f"/g/{game.edit_token}/handover", data={"request": request_id, "choice": "refuse"})
    assert other.get(f"/g/{game.edit_token}").status_code == 403
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    # a request that is gone changes nothing
    r = client.post(
        f"/g/{game.edit_token}/handover", data={"request": request_id, "choice": "move"}
    )
    assert r.status_code == 303 and client.get(f"/g/{game.edit_token}").status_code == 200


def test_hand_scores_record_who_entered_them(client, table):
    game, _phone = table
    client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 1, "Cy": 2}, out="Ann"),
    )
    assert {h.entered_by for h in db.session.scalars(select(HandScore))} == {"scorekeeper"}
    assert db.session.get(Game, game.id).version >= 1


def test_a_posted_hand_of_tiles_is_shown_in_words(table):
    game, phone = table
    ann = phone("Ann")
    assert post(ann, game, tiles=["5-4", "3-2"]).status_code == 303
    assert "Posted: 2 tiles: 3-2 5-4." in text(ann.get(f"/p/{game.share_token}"))


def test_the_old_scorekeepers_seat_buttons_are_refused_in_words(app, client, table):
    """After a handover a seat button tapped on the old scorekeeper's page (its page still
    shows them) changes nothing and says so."""
    game, _phone = table
    handed_over(app, client, game)
    for path, data in (
        ("seats/lock", {"locked": "1"}),
        ("join-panel", {}),
        ("auto-save", {"on": "1"}),
    ):
        r = client.post(f"/g/{game.edit_token}/{path}", data=data)
        assert r.status_code == 403, path
        assert "This phone no longer keeps score" in r.text
        assert "What you tapped was not done" in text(r), path
    db.session.expire_all()
    fresh = db.session.get(Game, game.id)
    assert not fresh.seats_locked and not fresh.join_closed and not fresh.auto_save


def test_the_host_takes_scorekeeping_over_with_the_passcode(app, client, table):
    game, _phone = table
    app.config["COMPANION_PASSCODE"] = "hen"
    host = app.test_client()
    r = host.post(f"/g/{game.edit_token}/ask", data={"now": "1"})
    assert r.status_code == 303 and "/passcode" in r.location
    host.post("/passcode", data={"passcode": "hen"})
    r = host.post(f"/g/{game.edit_token}/ask", data={"now": "1"})
    assert r.status_code == 303
    assert host.get(f"/g/{game.edit_token}").status_code == 200
    r = client.get(f"/g/{game.edit_token}")
    assert r.status_code == 403 and "This phone no longer keeps score" in r.text


def test_without_a_passcode_a_phone_takes_over_from_a_dead_scorekeepers_phone(app, client, table):
    """With no passcode set (everybody is host) a table whose scorekeeper's phone died could
    only ask, and wait for a confirmation that never came: nobody could keep score again.
    "Take over now" hands scorekeeping over at once, and the old phone is told."""
    game, _phone = table
    app.config["COMPANION_PASSCODE"] = ""
    new = app.test_client()
    page = new.get(f"/g/{game.edit_token}")
    assert page.status_code == 403 and "Take over now" in page.text
    assert "with the passcode" not in page.text
    r = new.post(f"/g/{game.edit_token}/ask", data={"now": "1"})
    assert r.status_code == 303 and "/passcode" not in r.location
    assert new.get(f"/g/{game.edit_token}").status_code == 200
    r = client.get(f"/g/{game.edit_token}")
    assert r.status_code == 403 and "This phone no longer keeps score" in r.text
    data = round_post(game, 6, totals={"Bob": 12, "Cy": 3}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=data).status_code == 403
    assert rounds(game) == []


def test_a_phone_that_asked_to_keep_score_opens_the_game_by_itself(app, client, table):
    """ "Asked … this page opens the game when it does" was a promise the page did not keep:
    the asking phone stayed on "Another phone keeps score" until its player reloaded. While it
    waits, the page refreshes itself (a meta refresh: works without JavaScript)."""
    game, _phone = table
    new = app.test_client()
    assert 'http-equiv="refresh"' not in new.get(f"/g/{game.edit_token}").text
    new.post(f"/g/{game.edit_token}/ask")
    r = new.get(f"/g/{game.edit_token}")
    assert r.status_code == 403
    assert re.search(r'<meta http-equiv="refresh" content="\d+">', r.text)
    assert "then reload this page" not in r.text
    page = client.get(f"/g/{game.edit_token}").text
    request_id = re.search(r'name="request" value="(\d+)"', page).group(1)
    client.post(f"/g/{game.edit_token}/handover", data={"request": request_id, "choice": "move"})
    r = new.get(f"/g/{game.edit_token}")
    assert r.status_code == 200 and 'http-equiv="refresh"' not in r.text


def test_a_saved_round_brings_the_next_rounds_hand_form_to_the_phone(client, table):
    """Once the scorekeeper saved the round, a joined phone's poll showed "Taken into the
    round" under a form still titled with the saved round ("Round 1 … Change my hand") whose
    post could only be refused: the poll now asks the page to reload for the next round."""
    game, phone = table
    bob = phone("Bob")
    hand_page = bob.get(f"/p/{game.share_token}").text
    live = re.search(r'hx-get="(/p/[^"]+/live\?[^"]+)"', hand_page).group(1).replace("&amp;", "&")
    post(bob, game, total="12")
    r = bob.get(live)
    assert r.status_code == 200 and "HX-Refresh" not in r.headers  # same round: no reload
    data = round_post(game, 6, totals={"Bob": 12, "Cy": 3}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=data).status_code == 303
    r = bob.get(live)
    assert r.headers.get("HX-Refresh") == "true"
    page = bob.get(f"/p/{game.share_token}").text
    assert "centre 5-5" in page and "Post my hand" in page
    live = re.search(r'hx-get="(/p/[^"]+/live\?[^"]+)"', page).group(1).replace("&amp;", "&")
    assert "HX-Refresh" not in bob.get(live).headers


# --- odd numbers from a phone ----------------------------------------------------------------


@pytest.mark.parametrize("number", ["²", "٣", "６", "99999999999", "-1", ""])
def test_an_odd_double_in_a_posted_hand_is_refused_in_words(table, number):
    """The round's double and the seen revision come back from hidden fields; a digit of another
    script ("²".isdigit() is true, int("²") is not a number) is refused like any junk."""
    game, phone = table
    r = post(phone("Bob"), game, double=number, total="12")
    assert r.status_code == 422, r.text
    assert hand_post(game, "Bob") is None
    r = phone("Bob").post(
        f"/p/{game.share_token}/photo/confirm?double={number}&seen={number}",
        data={"tile": ["5-4"]},
    )
    assert r.status_code == 422, r.text
    assert hand_post(game, "Bob") is None


@pytest.mark.parametrize("number", ["²", "٣", "99999999999", str(2**31), "-1", ""])
def test_an_odd_request_id_in_a_handover_changes_nothing(client, table, number):
    game, _phone = table
    r = client.post(
        f"/g/{game.edit_token}/handover",
        data={"request": number, "choice": "move"},
        follow_redirects=True,
    )
    assert r.status_code == 200 and "That request is no longer there" in r.text


def test_a_total_typed_over_a_tile_post_is_refused_with_how_to_clear_the_tiles(client, table):
    """Without JavaScript the posted tiles stay ticked beside a typed total: the refusal says
    how to clear either, and the hand is still marked "typed over their post"."""
    game, phone = table
    post(phone("Cy"), game, tiles=["5-4", "2-1"])
    ids = seat_ids(game)
    page = client.get(f"/g/{game.edit_token}").text
    # the tile post's sum stands in the empty points box
    assert re.search(rf'name="total_{ids["Cy"]}"[^>]*placeholder="12"', page), page
    seen = {f"seen_{ids['Cy']}": str(hand_post(game, "Cy").revision)}
    data = round_post(
        game, 6, totals={"Bob": 12, "Cy": 10}, tiles={"Cy": ["5-4", "2-1"]}, out="Ann"
    )
    r = client.post(f"/g/{game.edit_token}/round", data={**data, **seen})
    assert r.status_code == 422
    assert (
        "Cy: the tapped tiles add up to 12 points, but 10 was typed. To keep 10, untick Cy's "
        "tiles under “Tiles”; to keep the tiles, empty Cy's points box."
    ) in text(r)
    assert re.search(rf'class="post-mark typed" data-seat="{ids["Cy"]}"', r.text), r.text


def test_a_players_phone_at_game_over_says_who_won(table):
    game, phone = table
    ann = phone("Ann")
    add_scored_rounds(game, [{"Ann": 0, "Bob": 5, "Cy": 9}] * 7)
    page = text(ann.get(f"/p/{game.share_token}"))
    assert "Game over" in page
    assert "Ann wins!" in page and "Decided by: lowest total." in page


# --- the final standings on a player's phone -------------------------------------------------

#: a double-6 game's first six rounds (6-6 down to 1-1, 0 = went out); the last round (0-0) of
#: LAST_ROUND ends it with Ann and Bob on 50 points, Ann ahead by her two zero rounds to Bob's
#: one, Cy on 60
FIRST_SIX = [
    {"Ann": 0, "Bob": 5, "Cy": 20},
    {"Ann": 10, "Bob": 0, "Cy": 20},
    {"Ann": 0, "Bob": 15, "Cy": 20},
    {"Ann": 10, "Bob": 10, "Cy": 0},
    {"Ann": 10, "Bob": 10, "Cy": 0},
    {"Ann": 10, "Bob": 5, "Cy": 0},
]
LAST_ROUND = {"Ann": 10, "Bob": 5, "Cy": 0}
#: the final standings: place and name, total, zero rounds, best non-zero round
STANDINGS = ["1. Ann 50 2 10", "2. Bob 50 1 5", "3. Cy 60 4 20"]


def final_standings(html: str) -> str:
    """The final standings' table of a page (its markup)."""
    return html.split('<table class="summary">')[1].split("</table>")[0]


def standings_rows(html: str) -> list[str]:
    """Each player's row of the final standings, as words."""
    groups = final_standings(html).split("<tbody>")[1:]
    return [" ".join(re.sub(r"<[^>]+>", " ", group).split()) for group in groups]


def live_url(page: str) -> str:
    """The address a joined phone's page polls (its key and the round of its hand form)."""
    return re.search(r'hx-get="(/p/[^"]+/live\?[^"]+)"', page).group(1).replace("&amp;", "&")


def test_a_players_phone_at_game_over_shows_the_final_standings(client, table):
    """The last round saved, a player's phone said "Game over" and the winner's line, not the
    standings the scorekeeper's phone shows. Its poll now brings the same: every player's place,
    total, zero rounds and best non-zero round, the winner and the tie-break step that decided
    (the scorekeeper's own template, games/_final_standings.html). The page's title says Game
    over too (it was "My hand")."""
    game, phone = table
    bob = phone("Bob")
    add_scored_rounds(game, FIRST_SIX)
    page = bob.get(f"/p/{game.share_token}").text
    assert "<title>My hand · Chicken Foot Companion</title>" in page
    live = live_url(page)  # its hand form: the round with 0-0
    totals = {name: points for name, points in LAST_ROUND.items() if points}
    data = round_post(game, 0, totals=totals, out="Cy")
    assert client.post(f"/g/{game.edit_token}/round", data=data).status_code == 303
    # the poll: the page's round was saved, so it loads itself again (no hand form to show)
    assert bob.get(live).headers.get("HX-Refresh") == "true"
    r = bob.get(f"/p/{game.share_token}")
    # the page loaded again says Game over in its title, which a screen reader reads on a load
    # (as the scorekeeper's page does)
    assert "<title>Game over · Chicken Foot Companion</title>" in r.text
    words = text(r)
    assert "Game over" in words and "Post my hand" not in words
    assert "Ann wins! Decided by: most zero rounds." in words
    assert standings_rows(r.text) == STANDINGS
    # the scorekeeper's phone shows the very same standings
    keeper = client.get(f"/g/{game.edit_token}").text
    assert final_standings(r.text) == final_standings(keeper)
    # and the page's poll has nothing new to say
    assert bob.get(live_url(r.text)).status_code == 204


def test_a_correction_after_the_game_reaches_the_players_standings_through_the_poll(client, table):
    """A round corrected after the game ended changes the standings: a player's page showing
    them gets the new ones from its poll, swapped in place (no reload)."""
    game, phone = table
    bob = phone("Bob")
    add_scored_rounds(game, [*FIRST_SIX, LAST_ROUND])
    page = bob.get(f"/p/{game.share_token}").text
    assert standings_rows(page) == STANDINGS
    live = live_url(page)
    assert bob.get(live).status_code == 204
    fixed = round_post(db.session.get(Game, game.id), 0, totals={"Ann": 10, "Bob": 13}, out="Cy")
    r = client.post(f"/g/{game.edit_token}/round/7", data=fixed)
    assert r.status_code == 303, text(r)
    r = bob.get(live)
    assert r.status_code == 200 and "HX-Refresh" not in r.headers
    assert "Ann wins! Decided by: lowest total." in text(r)
    assert standings_rows(r.text) == ["1. Ann 50 2 10", "2. Bob 58 1 5", "3. Cy 60 4 20"]


def test_the_final_standings_are_in_each_players_language(table):
    """Every phone reads the standings in its own language, also while they are rendered once
    and shared by the phones of the game."""
    game, phone = table
    ann, bob = phone("Ann"), phone("Bob")
    add_scored_rounds(game, [*FIRST_SIX, LAST_ROUND])
    refresh()  # (the test's app context keeps the first request's language)
    german = text(ann.get(f"/p/{game.share_token}", headers={"Accept-Language": "de"}))
    assert "Partie vorbei" in german
    assert "Ann gewinnt! Entschieden durch: meiste Nullrunden." in german
    assert "Summe Nullrunden Beste Runde über null" in german
    refresh()
    english = text(bob.get(f"/p/{game.share_token}"))
    assert "Ann wins! Decided by: most zero rounds." in english
    assert "Total Zero rounds Best non-zero round" in english


#: Ann and Bob on 60 with one zero round each; Ann's lowest non-zero round is 5, Bob's 10
BY_BEST_ROUND = [
    {"Ann": 0, "Bob": 10, "Cy": 30},
    {"Ann": 5, "Bob": 0, "Cy": 30},
    {"Ann": 15, "Bob": 10, "Cy": 30},
] + [{"Ann": 10, "Bob": 10, "Cy": 30}] * 4
#: Ann and Bob on 40 with three zero rounds each and 10 as their lowest non-zero round
SHARED = [{"Ann": 0, "Bob": 10, "Cy": 20}] * 3 + [{"Ann": 10, "Bob": 0, "Cy": 20}] * 3
SHARED += [{"Ann": 10, "Bob": 10, "Cy": 0}]


@pytest.mark.parametrize(
    ("rounds", "said", "rows"),
    [
        (
            BY_BEST_ROUND,
            "Ann wins! Decided by: lowest single non-zero round.",
            ["1. Ann 60 1 5", "2. Bob 60 1 10", "3. Cy 210 0 30"],
        ),
        (
            SHARED,
            "Shared win: Ann, Bob No tie-break separates them.",
            ["1. Ann 40 3 10", "1. Bob 40 3 10", "3. Cy 120 1 20"],
        ),
    ],
    ids=["lowest-non-zero-round", "shared-win"],
)
def test_a_players_phone_says_each_tie_break_step_as_the_scorekeepers_does(
    client, table, rounds, said, rows
):
    game, phone = table
    bob = phone("Bob")  # (seats are joined while the game is on)
    add_scored_rounds(game, rounds)
    r = bob.get(f"/p/{game.share_token}")
    assert said in text(r)
    assert standings_rows(r.text) == rows
    assert final_standings(r.text) == final_standings(client.get(f"/g/{game.edit_token}").text)


def test_a_correction_that_lists_posted_tiles_in_another_order_changes_nothing(client, table):
    """Bob's phone posts 5-4 and 3-2; the round is saved with his post (its tiles as the
    form sent them, 3-2 5-4, the order a post fills them in). The correction form ticks the
    same tiles in the picker's order (5-4 3-2): a correction of only Cy's hand said "Bob 14
    (entered by the scorekeeper)" and one that changed nothing was stored as a correction.
    The same tiles are the same hand."""
    game, phone = table
    assert post(phone("Bob"), game, tiles=["5-4", "3-2"]).status_code == 303
    ids = seat_ids(game)
    seen = {f"seen_{ids['Bob']}": str(hand_post(game, "Bob").revision)}
    data = round_post(game, 6, totals={"Cy": 3}, tiles={"Bob": ["3-2", "5-4"]}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data={**data, **seen}).status_code == 303
    bob = next(h for h in rounds(game)[0].hands if h.seat_id == ids["Bob"])
    assert (bob.points, bob.entered_by) == (14, "phone")

    def corrected(cy: int) -> None:
        fixed = round_post(
            db.session.get(Game, game.id), 6, totals={"Cy": cy}, tiles={"Bob": ["5-4", "3-2"]}
        )
        fixed[f"out_{ids['Ann']}"] = "y"
        r = client.post(f"/g/{game.edit_token}/round/1", data=fixed)
        assert r.status_code == 303, text(r)

    def edits() -> list[str]:
        db.session.expire_all()
        query = select(AuditEntry).where(AuditEntry.action == "round_edited")
        return [e.summary for e in db.session.scalars(query)]

    corrected(3)  # nothing changed
    assert edits() == []
    corrected(4)  # only Cy's hand changed
    (line,) = edits()
    assert "Bob 14 (posted from Bob's phone)" in line, line
    bob = next(h for h in rounds(game)[0].hands if h.seat_id == ids["Bob"])
    assert bob.entered_by == "phone"
