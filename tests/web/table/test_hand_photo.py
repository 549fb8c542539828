"""A player's own hand from a photo ("My hand", issue 15): the joined phone takes or chooses a
photo, sees it marked, corrects a tile, confirms, and only then is its hand posted with those
tiles (the same post as the hand form), which the scorekeeper's poll then carries."""

from __future__ import annotations

import html
import io
import json
import re

import pytest
from flask_babel import refresh
from sqlalchemy import select

from companion import access
from companion.extensions import db
from companion.models import Game, HandPost, HandScore, Round
from companion.pips.synth import scene
from tests.web.playkit import add_scored_rounds, make_game, round_post, seat_ids, text


@pytest.fixture()
def table(app, client):
    """A 3-player double-6 game kept on ``client``, and ``phone(name)``: a joined phone."""
    game = make_game(("Ann", "Bob", "Cy"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    phones = {}

    def phone(name: str):
        if name not in phones:
            c = app.test_client()
            r = c.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)[name]})
            assert r.status_code == 303, r.text
            phones[name] = c
        return phones[name]

    return game, phone


def hand_post(game, name) -> HandPost | None:
    db.session.expire_all()
    return db.session.scalar(
        select(HandPost).where(
            HandPost.game_id == game.id, HandPost.seat_id == seat_ids(game)[name]
        )
    )


def upload(c, game, data: bytes, name="hand.jpg"):
    return c.post(
        f"/p/{game.share_token}/photo",
        data={"photo": (io.BytesIO(data), name)},
        content_type="multipart/form-data",
    )


def confirm_url(page: str) -> str:
    return re.search(r'action="([^"]*/photo/confirm[^"]*)"', page).group(1).replace("&amp;", "&")


def test_my_hand_links_to_the_photo_page_which_works_without_javascript(table):
    game, phone = table
    page = phone("Bob").get(f"/p/{game.share_token}").text
    assert 'form="hand-form" name="to_photo"' in page
    assert "Count my pips from a photo" in page
    photo = phone("Bob").get(f"/p/{game.share_token}/photo")
    assert photo.status_code == 200
    assert 'type="file"' in photo.text and 'capture="environment"' in photo.text
    assert 'enctype="multipart/form-data"' in photo.text
    assert "Back to my hand" in photo.text


#: what a photo sent by a phone holding no seat of the game is told (table.views)
PHOTO_NOT_COUNTED = (
    "Your photo was not counted and nothing was saved: this phone holds no seat of this game "
    "now. Join first (see below), then take or choose the photo again."
)


def test_a_phone_not_joined_is_sent_to_the_join_page(app, table):
    """Opening the photo page leads to the join page; a photo sent from a phone holding no
    seat was redirected there too (its page gone, a notice only): it is answered in place
    (403), as the hand post and the photo's Confirm are, saying the photo was not counted and
    how to join; a phone the scorekeeper removed is told that; a game over, that it is over."""
    game, phone = table
    stranger = app.test_client()
    r = stranger.get(f"/p/{game.share_token}/photo")
    assert r.status_code == 303 and f"/j/{game.share_token}" in r.location
    r = upload(stranger, game, scene([(6, 5)], angle=0.2).data)
    assert r.status_code == 403 and hand_post(game, "Bob") is None
    words = text(r)
    assert PHOTO_NOT_COUNTED in words and "To join, scan the QR code" in words
    assert 'name="seat"' not in r.text
    bob = phone("Bob")
    seat = seat_ids(game)["Bob"]
    with app.test_request_context():  # the scorekeeper's "Remove this phone from the seat"
        assert access.free_seat(db.session.get(Game, game.id), seat)
    r = upload(bob, game, scene([(6, 5)], angle=0.2).data)
    assert r.status_code == 403 and hand_post(game, "Bob") is None
    words = text(r)
    assert PHOTO_NOT_COUNTED in words
    assert "The scorekeeper removed this phone from the seat" in words
    game.status = "finished"
    db.session.commit()
    r = upload(stranger, game, scene([(6, 5)], angle=0.2).data)
    assert r.status_code == 403 and "No round is being played now" in text(r)
    assert PHOTO_NOT_COUNTED not in text(r)


def test_photo_corrected_and_confirmed_posts_my_hand_with_those_tiles(client, table):
    game, phone = table
    bob = phone("Bob")
    r = upload(bob, game, scene([(6, 5), (3, 1), (2, 2)], angle=0.5).data)
    assert r.status_code == 200
    assert "Points to post:" in r.text and "Confirm these tiles" in r.text
    assert hand_post(game, "Bob") is None  # nothing posted before the confirmation
    picks = re.findall(r'data-read="([^"]*)"', r.text)
    assert len(picks) == 3
    picks[0] = "5-4"  # the player corrects one tile
    r = bob.post(confirm_url(r.text), data={"tile": picks})
    assert r.status_code == 303 and r.location.endswith(f"/p/{game.share_token}")
    post = hand_post(game, "Bob")
    assert sorted(post.tiles) == sorted(picks)
    assert "Hand posted" in bob.get(f"/p/{game.share_token}").text
    hands = client.get(f"/g/{game.edit_token}/posts").get_json()["hands"]
    assert sorted(hands[str(seat_ids(game)["Bob"])]["tiles"]) == sorted(picks)


def test_what_was_typed_is_kept_while_the_photo_page_is_open(table):
    """Type 23, tap "Count my pips from a photo", come back: the 23 is still there (it was
    lost: the button was a plain link)."""
    game, phone = table
    bob = phone("Bob")
    hand = f"/p/{game.share_token}"
    r = bob.post(hand, data={"total": "23", "double": "6", "seen": "0", "to_photo": "1"})
    assert r.status_code == 303 and r.location.endswith(f"{hand}/photo")
    assert hand_post(game, "Bob") is None  # nothing posted
    assert re.search(r'name="total"[^>]*value="23"', bob.get(hand).text)
    # kept once: the page after that is the hand as posted (here: nothing yet)
    assert not re.search(r'name="total"[^>]*value="23"', bob.get(hand).text)


def test_a_hand_posted_from_the_photo_drops_what_was_typed(table):
    game, phone = table
    bob = phone("Bob")
    hand = f"/p/{game.share_token}"
    bob.post(hand, data={"total": "23", "double": "6", "seen": "0", "to_photo": "1"})
    page = upload(bob, game, scene([(6, 5), (3, 1)], angle=0.3).data).text
    r = bob.post(confirm_url(page), data={"tile": ["6-5", "3-1"]})
    assert r.status_code == 303 and sorted(hand_post(game, "Bob").tiles) == ["3-1", "6-5"]
    assert not re.search(r'name="total"[^>]*value="23"', bob.get(hand).text)


def kept_reading(page: str) -> str:
    """The reading the confirm form carries back (signed by the server)."""
    return html.unescape(re.search(r'name="reading" value="([^"]*)"', page).group(1))


def selected(page: str) -> list[str]:
    """The pick shown selected in each picker of a tile read, in order."""
    pickers = re.findall(r'<select name="tile" data-read.*?</select>', page, re.S)
    return [re.search(r'value="([^"]*)"[^>]*selected', p).group(1) for p in pickers]


def bobs_three_tiles_confirmed_as(table, picks: list[str]):
    """Bob's photo of 6-5, 3-1 and 2-2 read, then confirmed with ``picks``; the answer."""
    game, phone = table
    bob = phone("Bob")
    page = upload(bob, game, scene([(6, 5), (3, 1), (2, 2)], angle=0.5).data).text
    return bob.post(confirm_url(page), data={"tile": picks, "reading": kept_reading(page)})


def test_the_centre_double_picked_is_refused_on_the_photo_page_with_every_pick_kept(table):
    """The round is 6-6's: Bob picks 6-6 for his 6-5 by mistake. As on the scorekeeper's photo
    page, the Confirm is refused on the photo page itself, the reading and every pick kept and
    the 6-6 picker pointed at; before, he was sent to his hand form with the 6-6 dropped from
    the tiles and the photo gone, so he could no longer see which tile it had been."""
    game, _ = table
    picks = ["6-6", "3-1", "2-2"]
    r = bobs_three_tiles_confirmed_as(table, picks)
    assert r.status_code == 422
    assert hand_post(game, "Bob") is None
    assert "6-6 is this round's centre double" in html.unescape(r.text)
    assert "data:image/jpeg;base64," in r.text and r.text.count("<polygon") == 3
    assert selected(r.text) == picks
    assert r.text.count('aria-invalid="true"') == 1


def test_a_tile_picked_twice_is_refused_with_every_pick_kept(table):
    """A set has one of each tile: a duplicate is a misreading, never silently dropped (it was:
    "2-2, 2-2, 8-1, 7-0" headlined 24 and posted 20)."""
    game, _ = table
    picks = ["2-2", "2-2", "6-5"]
    r = bobs_three_tiles_confirmed_as(table, picks)
    assert r.status_code == 422
    assert hand_post(game, "Bob") is None
    assert (
        "2-2 is picked more than once: a set has only one 2-2; pick another tile or 'not a tile'."
        in html.unescape(r.text)
    )
    assert "data:image/jpeg;base64," in r.text and r.text.count("<polygon") == 3
    assert selected(r.text) == picks  # nothing lost: the reading and every pick
    assert r.text.count('aria-invalid="true"') == 2  # both 2-2 pickers pointed at
    assert "Points to post: 19" in text(r)  # the headline is what the picks are worth


def test_a_tile_picked_three_times_is_not_called_picked_twice(table):
    """Three pickers on one tile: the refusal's words hold for three (they said "twice") and
    every one of the three is pointed at."""
    picks = ["2-2", "2-2", "2-2"]
    r = bobs_three_tiles_confirmed_as(table, picks)
    assert r.status_code == 422
    words = html.unescape(r.text)
    assert "2-2 is picked more than once" in words and "picked twice" not in words
    assert r.text.count('aria-invalid="true"') == 3


def test_an_unpicked_tile_keeps_the_reading_and_points_at_it(table):
    game, phone = table
    bob = phone("Bob")
    page = upload(bob, game, scene([(6, 5), (3, 1)], angle=0.3).data).text
    r = bob.post(confirm_url(page), data={"tile": ["5-4", "?"], "reading": kept_reading(page)})
    assert r.status_code == 422
    assert hand_post(game, "Bob") is None
    assert "Tile 2 is not picked yet" in html.unescape(r.text)
    assert "Confirm these tiles" in r.text and r.text.count("<polygon") == 2
    assert selected(r.text) == ["5-4", "?"]  # the correction of tile 1 is kept
    assert r.text.count('aria-invalid="true"') == 1
    # the page can be confirmed again from there
    r = bob.post(
        confirm_url(r.text), data={"tile": ["5-4", "3-1"], "reading": kept_reading(r.text)}
    )
    assert r.status_code == 303 and sorted(hand_post(game, "Bob").tiles) == ["3-1", "5-4"]


def test_every_tile_not_a_tile_says_nothing_is_left_and_keeps_the_reading(table):
    game, phone = table
    bob = phone("Bob")
    page = upload(bob, game, scene([(6, 5), (3, 1)], angle=0.3).data).text
    r = bob.post(confirm_url(page), data={"tile": ["none", "none"], "reading": kept_reading(page)})
    assert r.status_code == 422 and hand_post(game, "Bob") is None
    assert "there is no tile left to post" in r.text
    assert selected(r.text) == ["none", "none"] and "Confirm these tiles" in r.text


def test_a_tampered_reading_is_not_drawn(table):
    game, phone = table
    bob = phone("Bob")
    page = upload(bob, game, scene([(6, 5), (3, 1)], angle=0.3).data).text
    forged = kept_reading(page).replace("data:image/jpeg", "data:image/svg+xml", 1)
    r = bob.post(confirm_url(page), data={"tile": ["6-5", "?"], "reading": forged})
    assert r.status_code == 422 and "data:image/svg" not in r.text
    assert "Tile 2 is not picked yet" in r.text and 'type="file"' in r.text


def test_a_photo_without_a_csrf_token_is_refused(app, table):
    game, phone = table
    bob = phone("Bob")
    app.config["WTF_CSRF_ENABLED"] = True
    try:
        r = upload(bob, game, scene([(6, 5)], angle=0.2).data)
    finally:
        app.config["WTF_CSRF_ENABLED"] = False
    assert r.status_code == 400


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"not an image at all", "not a photo the app can read"),
        (b"", "This file is empty (0 bytes)"),
    ],
)
def test_a_bad_file_is_refused_in_words(table, data, words):
    game, phone = table
    r = upload(phone("Bob"), game, data)
    assert r.status_code == 422 and words in r.text
    assert hand_post(game, "Bob") is None


def test_a_photo_without_tiles_says_so_instead_of_zero_pips_at_zero_confidence(table):
    """A photo of an empty table read "0 pips counted · Confidence: 0%" above the advice,
    as if the hand were counted at zero."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (1200, 900), (210, 190, 160)).save(buffer, "PNG")
    game, phone = table
    r = upload(phone("Bob"), game, buffer.getvalue(), "table.png")
    assert r.status_code == 422
    assert "No tile could be read in this photo" in r.text
    assert "type your points or tap your tiles instead" in r.text
    assert "Back to my hand: type the points instead" in r.text
    assert "0 pips counted" not in r.text and "Confidence: 0%" not in r.text
    assert "Confirm these tiles" not in r.text


def labels(page: str) -> list[str]:
    """The labels drawn on the photo ("1: 5-4"), in order."""
    return [html.unescape(t) for t in re.findall(r"<text [^>]*>([^<]*)</text>", page)]


def test_a_refused_confirm_draws_the_players_picks_on_the_photo(table):
    """Without JavaScript the photo's labels kept the first reading after a refused Confirm
    while the pickers showed the picks."""
    r = bobs_three_tiles_confirmed_as(table, ["2-2", "2-2", "none"])
    assert r.status_code == 422
    assert labels(r.text) == ["1: 2-2", "2: 2-2", "3: ×"]


def test_add_up_my_picks_draws_the_page_again_with_the_picks_and_posts_nothing(table):
    """Without JavaScript the headline was not added up again after a correction: "Add up my
    picks" sends the picks back and the page is drawn again with them (headline, labels,
    pickers), nothing posted, nothing refused; Confirm from there posts them."""
    game, phone = table
    bob = phone("Bob")
    page = upload(bob, game, scene([(6, 5), (3, 1), (2, 2)], angle=0.5).data).text
    assert "Add up my picks" in page
    picks = ["5-4", "3-1", "none"]
    r = bob.post(
        confirm_url(page), data={"tile": picks, "reading": kept_reading(page), "add_up": "1"}
    )
    assert r.status_code == 200 and hand_post(game, "Bob") is None
    assert "Points to post: 13" in text(r)  # 5-4 and 3-1
    assert selected(r.text) == picks and labels(r.text) == ["1: 5-4", "2: 3-1", "3: ×"]
    assert 'role="alert"' not in r.text and 'aria-invalid="true"' not in r.text
    r = bob.post(confirm_url(r.text), data={"tile": picks, "reading": kept_reading(r.text)})
    assert r.status_code == 303 and sorted(hand_post(game, "Bob").tiles) == ["3-1", "5-4"]


def test_add_up_without_the_reading_asks_for_the_photo_again(table):
    game, phone = table
    bob = phone("Bob")
    page = upload(bob, game, scene([(6, 5), (3, 1)], angle=0.3).data).text
    r = bob.post(confirm_url(page), data={"tile": ["6-5", "3-1"], "add_up": "1"})
    assert r.status_code == 422 and hand_post(game, "Bob") is None
    assert "could not be shown again" in html.unescape(r.text) and 'type="file"' in r.text


def test_a_tile_the_reader_reads_twice_says_so_beside_its_pickers_from_the_start(table):
    """A set has one of each tile: two tiles read as 3-1 were marked only by aria-invalid
    (from photo.js) until Confirm. The page says it beside both pickers from its first
    render, in the words of a refused Confirm, and works without JavaScript."""
    game, phone = table
    r = upload(phone("Bob"), game, scene([(3, 1), (6, 5), (3, 1)], angle=0.4).data)
    assert r.status_code == 200
    assert sorted(selected(r.text)) == ["3-1", "3-1", "6-5"]
    words = "3-1 is picked more than once: a set has only one 3-1"
    shown = re.findall(r'<p class="errors" id="(fix-words-\d)" data-fix-words>([^<]*)</p>', r.text)
    assert len(shown) == 2 and all(words in html.unescape(w) for _, w in shown)
    for fix_id, _ in shown:
        assert re.search(rf'aria-invalid="true" aria-describedby="{fix_id}"', r.text)
    assert r.text.count("data-fix-words hidden") == 3  # the 6-5's and two added tiles', empty


def test_a_later_post_says_which_earlier_post_it_replaced(table):
    """The last post wins (a player correcting their own hand), but never silently: typed or
    from the photo, the answer names the post it replaced; a first post says nothing of it."""
    game, phone = table
    bob = phone("Bob")
    hand = f"/p/{game.share_token}"
    first = bob.post(hand, data={"total": "22", "double": "6", "seen": "0"}, follow_redirects=True)
    assert "replaced" not in first.text
    typed = bob.post(hand, data={"total": "15", "double": "6", "seen": "1"}, follow_redirects=True)
    assert "This replaced your earlier post: 22 points." in typed.text
    assert hand_post(game, "Bob").total == 15
    page = upload(bob, game, scene([(6, 5), (3, 1)], angle=0.3).data).text
    r = bob.post(confirm_url(page), data={"tile": ["6-5", "3-1"]}, follow_redirects=True)
    assert "This replaced your earlier post: 15 points." in r.text
    assert sorted(hand_post(game, "Bob").tiles) == ["3-1", "6-5"]


def added(page: str) -> list[str]:
    """The pick shown in each "added tile" picker (a tile the photo missed), in order."""
    part = page.split('class="added-tiles"')[1]
    pickers = re.findall(r'<select name="tile".*?</select>', part, re.S)
    return [re.search(r'value="([^"]*)"[^>]*selected', p).group(1) for p in pickers]


def test_a_tile_the_photo_missed_is_added_counted_and_posted(table):
    """The reader can miss a tile, or refuse one without a word: the page had no way to add
    it, so the hand was posted short. Two "added tile" pickers (none by default) are counted
    in the headline, checked against the others for a tile picked twice, and posted."""
    game, phone = table
    bob = phone("Bob")
    page = upload(bob, game, scene([(6, 5), (3, 1)], angle=0.3).data).text
    assert added(page) == ["none", "none"] and "The photo missed a tile?" in page
    reading = kept_reading(page)
    picks = ["6-5", "3-1", "5-4", "none"]
    r = bob.post(confirm_url(page), data={"tile": picks, "reading": reading, "add_up": "1"})
    assert r.status_code == 200 and hand_post(game, "Bob") is None
    assert "Points to post: 24" in text(r) and added(r.text) == ["5-4", "none"]
    twice = ["6-5", "3-1", "3-1", "none"]
    r = bob.post(confirm_url(page), data={"tile": twice, "reading": reading})
    assert r.status_code == 422 and hand_post(game, "Bob") is None
    assert "3-1 is picked more than once" in html.unescape(r.text)
    assert added(r.text) == ["3-1", "none"]
    r = bob.post(confirm_url(page), data={"tile": picks, "reading": reading})
    assert r.status_code == 303 and sorted(hand_post(game, "Bob").tiles) == ["3-1", "5-4", "6-5"]


def test_the_address_a_refused_confirm_leaves_opens_the_hand_page(table):
    """A photo's Confirm refused by the other hands (a tile already in Ann's posted hand) is
    answered with the hand page at the Confirm's address, /p/<share>/photo/confirm?...; a tab
    restored or that address opened again asked it with GET: "405 · Page not found, there is
    nothing to open at this address". It now opens the hand page."""
    game, phone = table
    ann = phone("Ann").post(f"/p/{game.share_token}", data={"double": "6", "tiles": ["6-5"]})
    assert ann.status_code == 303
    bob = phone("Bob")
    page = upload(bob, game, scene([(6, 5), (3, 1), (2, 2)], angle=0.5).data).text
    address = confirm_url(page)
    refused = bob.post(address, data={"tile": re.findall(r'data-read="([^"]*)"', page)})
    assert refused.status_code == 422 and "6-5 is already in Ann" in text(refused)
    again = bob.get(address)
    assert again.status_code == 303 and again.location.endswith(f"/p/{game.share_token}")


def test_a_confirm_after_the_games_last_round_was_saved_says_so_with_the_photos_tiles(table):
    """Bob reads his hand for the last round (0-0); the scorekeeper saves that round, which ends
    the game; then Bob confirms. As for a round saved mid-game, he is told the round was
    already saved, with the saved score and the photo's tiles beside it; before, he only got
    "No round is being played now" and the tiles he had just confirmed were gone unsaid."""
    game, phone = table
    bob = phone("Bob")
    add_scored_rounds(game, [{"Ann": 0, "Bob": 5, "Cy": 7}] * 6)
    r = upload(bob, game, scene([(6, 5), (3, 1)], angle=0.5).data)
    assert r.status_code == 200 and "double=0" in confirm_url(r.text)
    picks = ["6-5", "3-1"]
    last_round_saved(game)
    r = bob.post(confirm_url(r.text), data={"tile": picks})
    assert r.status_code == 409
    words = text(r)
    assert "was already saved" in words
    # what the photo read, not "What you typed" (a fresh tester: nothing was typed)
    assert "Saved: 9" in words and "Tiles from your photo: 6-5 3-1" in words
    assert "What you typed" not in words
    assert hand_post(game, "Bob") is None


def test_a_confirm_for_a_round_saved_meanwhile_says_the_tiles_are_the_photos(client, table):
    """Bob's photo is read for the round of 6-6; the scorekeeper saves that round (Bob 20);
    then his Confirm arrives: the round was already saved, with the tiles the photo read
    beside it, said as the photo's ("What you typed" read wrong: he typed nothing)."""
    game, phone = table
    bob = phone("Bob")
    url = _read_bobs_hand(game, bob)
    data = round_post(game, 6, totals={"Bob": 20, "Cy": 5}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=data).status_code == 303
    r = bob.post(url, data={"tile": ["6-5", "3-1"]})
    assert r.status_code == 409
    words = text(r)
    assert "was already saved" in words and "Saved: 20" in words
    assert "Tiles from your photo: 6-5 3-1" in words and "What you typed" not in words
    # the hand form's post still says what was typed
    r = bob.post(f"/p/{game.share_token}", data={"double": "6", "total": "9"})
    assert r.status_code == 409 and "What you typed: 9" in text(r)


def last_round_saved(game) -> None:
    """The round with 0-0 of a game whose six rounds before it are saved, saved by the
    scorekeeper (Ann went out, Bob 9, Cy 4): the game is over."""
    last = Round(number=7, start_double=0, status="scored")
    for seat in game.seats:
        points = {"Ann": 0, "Bob": 9, "Cy": 4}[seat.player.name]
        last.hands.append(HandScore(seat=seat, points=points, went_out=points == 0))
    game.rounds.append(last)
    game.status = "finished"
    game.version += 1
    db.session.commit()


def flags(page: str) -> dict[str, str]:
    """The words shown beside the pickers (the hidden ones left out): fix-words id -> words."""
    shown = re.findall(r'<p class="errors" id="(fix-words-\d+)" data-fix-words>([^<]*)</p>', page)
    return {fix_id: html.unescape(words) for fix_id, words in shown}


def flagged_as_picked(page: str) -> dict[str, str]:
    """What photo.js flags as tiles are picked (the form's data-elsewhere): tile -> words."""
    return json.loads(html.unescape(re.search(r"data-elsewhere='([^']*)'", page).group(1)))


CENTRE_WORDS = "Bob: 6-6 is this round's centre double, so it can't be in a hand."


def test_the_centre_double_read_is_flagged_beside_its_picker_from_the_first_render(table):
    """The round is 6-6's, which sits in the middle of the table: a 6-6 read in Bob's photo (a
    misread, or the centre double caught in the picture) is said beside its picker as soon as
    the reading is shown, in the words of the Confirm that would refuse it; not only when the
    Confirm is refused."""
    game, phone = table
    r = upload(phone("Bob"), game, scene([(6, 6), (6, 5), (3, 1)], angle=0.4).data)
    assert r.status_code == 200
    picks = selected(r.text)
    assert sorted(picks) == ["3-1", "6-5", "6-6"]
    at = picks.index("6-6")
    assert flags(r.text) == {f"fix-words-{at}": CENTRE_WORDS}
    assert re.search(rf'aria-invalid="true" aria-describedby="fix-words-{at}"', r.text)
    assert r.text.count('aria-invalid="true"') == 1
    assert "Points to post: 27" in text(r)  # the headline is not changed by the flag


def test_a_photo_with_no_tile_held_elsewhere_flags_nothing(table):
    game, phone = table
    r = upload(phone("Bob"), game, scene([(6, 5), (3, 1), (2, 2)], angle=0.5).data)
    assert r.status_code == 200
    assert flags(r.text) == {} and 'aria-invalid="true"' not in r.text
    # photo.js is given the words for a tile picked later: here only the centre double's
    assert flagged_as_picked(r.text) == {"6-6": CENTRE_WORDS}


def test_a_tile_another_player_posted_is_flagged_beside_its_picker(table):
    """Ann posted 6-5 for this round: Bob's photo reading 6-5 says so beside that picker from
    the first render (a tile is in one hand only), in the words of the post that would refuse
    it, naming Ann; his own earlier post (3-1) is no clash, it is replaced. Without JS, "Add up
    my picks" draws the flags for the picks: 6-5 corrected to 5-4 is no longer flagged, the
    centre double picked in an added picker is."""
    game, phone = table
    ann = phone("Ann").post(f"/p/{game.share_token}", data={"double": "6", "tiles": ["6-5"]})
    assert ann.status_code == 303
    bob = phone("Bob")
    mine = bob.post(f"/p/{game.share_token}", data={"double": "6", "tiles": ["3-1"], "seen": "0"})
    assert mine.status_code == 303
    r = upload(bob, game, scene([(6, 5), (3, 1), (2, 2)], angle=0.5).data)
    assert r.status_code == 200
    picks = selected(r.text)
    at = picks.index("6-5")
    words = "6-5 is already in Ann's posted hand: check your tiles (or ask Ann to check theirs)."
    assert flags(r.text) == {f"fix-words-{at}": words}
    assert re.search(rf'aria-invalid="true" aria-describedby="fix-words-{at}"', r.text)
    picks[at] = "5-4"
    again = bob.post(
        confirm_url(r.text),
        data={"tile": [*picks, "6-6", "none"], "reading": kept_reading(r.text), "add_up": "1"},
    )
    assert again.status_code == 200
    assert flags(again.text) == {"fix-words-3": CENTRE_WORDS}


def test_the_page_counts_the_tiles_found_and_asks_whether_that_is_the_whole_hand(
    table, monkeypatch
):
    """The reader can miss a tile without a word: "All 2 tiles sure" then told a player
    holding 3 there was nothing to check. The page says how many tiles were found and how
    surely, asks before Confirm whether that is every tile in the hand, and links to the
    first "added tile" picker (inside "The photo missed a tile?")."""
    game, phone = table
    bob = phone("Bob")
    page = upload(bob, game, scene([(6, 5), (3, 1)], angle=0.3).data)
    words = text(page)
    assert "2 tiles found, each read sure" in words and "All 2 tiles sure" not in words
    assert "Is that every tile in the hand? If not, add the missed tile." in words
    link = re.search(r'<a href="#fix-(\d+)" class="add-missed">', page.text)
    assert link and link.group(1) == "2"  # the first added tile, after tiles 0 and 1
    assert 'id="fix-2"' in page.text.split('class="added-tiles"')[1]
    assert page.text.index("Is that every tile") < page.text.index("Confirm these tiles")
    assert "1 tile found, read sure" in text(upload(bob, game, scene([(6, 5)], angle=0.3).data))

    ann = phone("Ann")
    assert ann.post("/language", data={"lang": "ru", "next": "/"}).status_code == 303
    refresh()  # (the test's app context keeps the first request's language)
    words = text(upload(ann, game, scene([(6, 5), (3, 1), (2, 2)], angle=0.5).data))
    assert "Найдены 3 кости, каждая прочитана уверенно" in words
    assert "Это все кости на руке? Если нет, добавь пропущенную." in words

    monkeypatch.setattr("companion.pips.reading.SURE", 1.01)  # no tile is sure
    refresh()
    assert "2 tiles found: 0 read sure, 2 to check" in text(
        upload(bob, game, scene([(6, 5), (3, 1)], angle=0.3).data)
    )
    cy = phone("Cy")
    assert cy.post("/language", data={"lang": "cs", "next": "/"}).status_code == 303
    refresh()
    words = text(upload(cy, game, scene([(6, 5), (3, 1)], angle=0.3).data))
    assert "Nalezeny 2 kostky: jistě 0, zkontrolovat 2" in words
    assert "Jsou to všechny kostky v ruce?" in words


def _read_bobs_hand(game, bob) -> str:
    """Bob's photo read (6-5 and 3-1) for the round being played: its Confirm's address."""
    r = upload(bob, game, scene([(6, 5), (3, 1)], angle=0.5).data)
    assert r.status_code == 200
    return confirm_url(r.text)


def test_a_confirm_from_a_phone_removed_meanwhile_is_refused_with_its_tiles_not_a_redirect(
    client, table
):
    """Bob's photo is read; the scorekeeper removes his phone from the seat; then his Confirm
    arrives (tapped, or sent later by the phone's outbox). It was answered with a redirect to
    the hand page, which the outbox reads as saved: the entry left the phone without a word
    and nothing was posted. Now it is refused (403) with the tiles said not saved."""
    game, phone = table
    bob = phone("Bob")
    url = _read_bobs_hand(game, bob)
    r = client.post(f"/g/{game.edit_token}/seats/{seat_ids(game)['Bob']}/free")
    assert r.status_code in (200, 303)
    r = bob.post(url, data={"tile": ["6-5", "3-1"]})
    assert r.status_code == 403
    words = text(r)
    assert "removed this phone from the seat" in words
    # said as the photo's tiles, not "What you typed" (he typed nothing)
    assert "Tiles from your photo were not saved: 6-5 3-1" in words
    assert "What you typed" not in words
    assert hand_post(game, "Bob") is None


def test_a_confirm_for_a_game_ended_without_its_round_is_refused_in_words_not_a_redirect(table):
    """Bob's photo is read for the round of 6-6; the scorekeeper ends the game early (that round
    never saved); then his Confirm arrives. A redirect to the hand page (its notice "No round
    is being played now") read as saved to the outbox: the tiles left the phone unsaid. Now
    the Confirm is refused with those words, nothing posted."""
    game, phone = table
    bob = phone("Bob")
    url = _read_bobs_hand(game, bob)
    game.status = "finished"  # ended early: the round of 6-6 is never saved
    game.version += 1
    db.session.commit()
    r = bob.post(url, data={"tile": ["6-5", "3-1"]})
    assert r.status_code == 409
    assert "No round is being played now: there is no hand to count." in text(r)
    assert hand_post(game, "Bob") is None


def test_a_confirm_from_before_the_rematch_is_answered_about_its_own_game(app, client, table):
    """Bob's photo is read for the last round; that round is saved (the game over) and the
    scorekeeper starts a rematch, which carries Bob's phone to it; then his Confirm arrives.
    It was sent on to the rematch's photo page (303), which the outbox reads as saved: the
    tiles left unsaid. Now it is answered as any Confirm after the game: the round was
    already saved, with his photo's tiles beside the saved score."""
    game, phone = table
    bob = phone("Bob")
    add_scored_rounds(game, [{"Ann": 0, "Bob": 5, "Cy": 7}] * 6)
    url = _read_bobs_hand(game, bob)
    last_round_saved(game)
    r = client.post(f"/g/{game.edit_token}/rematch", data={"version": str(game.version)})
    assert r.status_code == 303
    r = bob.post(url, data={"tile": ["6-5", "3-1"]})
    assert r.status_code == 409
    words = text(r)
    assert "was already saved" in words and "Saved: 9" in words
    assert hand_post(game, "Bob") is None
