"""Pips from a photo on the web: the round form's photo button (nothing typed is lost), the
photo page (take or choose a photo), the marked answer, correcting a tile, confirming (the
hand's tiles filled in, nothing saved before the round is), bad uploads; POST /api/v1/pips and
``flask count-pips`` give the same answer."""

from __future__ import annotations

import html
import io
import json
import re
from pathlib import Path

from PIL import Image, ImageFilter

from companion.extensions import db
from companion.models import Round
from companion.pips import MAX_BYTES, count_pips
from companion.pips.synth import scene
from tests.web.games.test_corrections import undo
from tests.web.playkit import make_game, round_post, seat_ids, text
from tests.web.table.test_hand_photo import flagged_as_picked, flags, selected

PHOTOS = Path(__file__).resolve().parents[2] / "data" / "photos"


def hand_photo():
    """A generated photo of a double-6 hand: 6-5, 3-1 and 2-2 (19 pips)."""
    return scene([(6, 5), (3, 1), (2, 2)], angle=0.5)


def start_photo(client, game, seat_name, **typed):
    """Press a hand's photo button in the round form (with whatever was typed)."""
    ids = seat_ids(game)
    data = round_post(game, 6, totals=typed)
    data["photo_seat"] = str(ids[seat_name])
    return client.post(f"/g/{game.edit_token}/photo", data=data)


def upload(client, game, seat_id, data: bytes, name="hand.jpg"):
    return client.post(
        f"/g/{game.edit_token}/photo/{seat_id}",
        data={"photo": (io.BytesIO(data), name)},
        content_type="multipart/form-data",
    )


def save_first_round(client, game):
    """Save the round with 6-6 as another tab or phone would: Ann 12, Bob 30, Cy went out."""
    return client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Ann": 12, "Bob": 30}, out="Cy"),
    )


def stored_rounds(game) -> int:
    db.session.expire_all()
    return db.session.scalar(
        db.select(db.func.count()).select_from(Round).where(Round.game_id == game.id)
    )


def test_round_form_has_a_photo_button_per_hand(client):
    game = make_game()
    body = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    assert body.count('name="photo_seat"') == 3
    # htmx posts the form to the photo address, named once per hand (no formaction) ...
    assert body.count(f'hx-post="/g/{game.edit_token}/photo"') == 3
    assert "formaction" not in body


def test_without_javascript_the_photo_button_goes_through_the_rounds_address(client):
    # ... without JavaScript the button posts the form to its own address, which sends the
    # same post on (307 keeps the method and the body) and saves nothing
    game = make_game()
    data = round_post(game, 6, totals={"Ann": 12})
    data["photo_seat"] = str(seat_ids(game)["Bob"])
    r = client.post(f"/g/{game.edit_token}/round", data=data)
    assert r.status_code == 307
    assert r.headers["Location"] == f"/g/{game.edit_token}/photo"
    assert stored_rounds(game) == 0
    on = client.post(r.headers["Location"], data=data)
    assert on.status_code == 303 and f"/photo/{seat_ids(game)['Bob']}" in on.headers["Location"]


def test_photo_page_takes_or_chooses_a_photo_without_javascript(client):
    game = make_game()
    r = start_photo(client, game, "Bob")
    assert r.status_code == 303
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert 'type="file"' in page and 'accept="image/*"' in page
    assert 'capture="environment"' in page
    assert 'enctype="multipart/form-data"' in page


def test_htmx_photo_button_navigates_to_the_photo_page(client):
    game = make_game()
    ids = seat_ids(game)
    data = round_post(game, 6)
    data["photo_seat"] = str(ids["Ann"])
    r = client.post(f"/g/{game.edit_token}/photo", data=data, headers={"HX-Request": "true"})
    assert r.headers["HX-Redirect"] == f"/g/{game.edit_token}/photo/{ids['Ann']}?double=6"


def test_answer_shows_every_pip_marked_and_each_tile_outlined(client):
    game = make_game()
    bob = seat_ids(game)["Bob"]
    photo = hand_photo()
    r = upload(client, game, bob, photo.data)
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    reading = count_pips(photo.data, 6)
    assert reading.total == 19
    assert "Points to post: 19" in text(r) and "Pips counted: 19" in text(r)
    assert body.count("<polygon") == 3
    assert len(re.findall(r'<circle[^>]*fill="none"', body)) == 19  # one mark per counted pip
    assert body.count('class="tile-hit"') == 3  # and one tap circle per tile
    assert "data:image/jpeg;base64," in body
    for tile in ("6-5", "3-1", "2-2"):
        assert re.search(rf">\d: {tile}</text>", body)
    assert "3 tiles found, each read sure" in text(r) and "Confidence" not in text(r)
    assert stored_rounds(game) == 0  # nothing saved from a photo


def test_confirm_fills_the_hand_and_keeps_what_was_typed(client):
    game = make_game()
    ids = seat_ids(game)
    start_photo(client, game, "Bob", Ann=12)
    r = client.post(
        f"/g/{game.edit_token}/photo/{ids['Bob']}/confirm",
        data={"tile": ["6-5", "4-1", "2-2"]},  # the player corrected 3-1 into 4-1
    )
    assert r.status_code == 303 and r.headers["Location"] == f"/g/{game.edit_token}"
    page = client.get(f"/g/{game.edit_token}")
    body = page.get_data(as_text=True)
    assert "Bob: 3 tiles from the photo, 20 points" in text(page)
    for tile in ("6-5", "4-1", "2-2"):
        assert re.search(
            rf'name="tiles_{ids["Bob"]}" value="{tile}" data-points="\d+" checked', body
        )
    assert re.search(rf'name="total_{ids["Ann"]}"[^>]*value="12"', body)
    assert stored_rounds(game) == 0
    assert "data-fresh" in body  # the phone's older kept typing gives way to the photo's tiles


def test_a_reload_before_the_save_shows_the_photos_tiles_again_until_the_round_is_saved(client):
    """The kept draft was used once: a reload of the scorekeeper's page after coming back
    from a photo, before saving, lost the photo's tiles. It stays until the game moves on;
    shown again it is not fresh, so what the phone typed since (kept on the phone) is put
    back over it."""
    game = make_game()
    ids = seat_ids(game)
    start_photo(client, game, "Bob", Ann=12)
    client.post(f"/g/{game.edit_token}/photo/{ids['Bob']}/confirm", data={"tile": ["6-5", "2-2"]})
    client.get(f"/g/{game.edit_token}")
    again = client.get(f"/g/{game.edit_token}")
    body = again.get_data(as_text=True)
    for tile in ("6-5", "2-2"):
        assert re.search(
            rf'name="tiles_{ids["Bob"]}" value="{tile}" data-points="\d+" checked', body
        )
    assert re.search(rf'name="total_{ids["Ann"]}"[^>]*value="12"', body)
    assert "data-fresh" not in body
    r = client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Ann": 12}, tiles={"Bob": ["6-5", "2-2"]}, out="Cy"),
    )
    assert r.status_code == 303 and stored_rounds(game) == 1
    after = client.get(f"/g/{game.edit_token}")
    assert not re.search(r'name="tiles_\d+" value="[^"]+" data-points="\d+" checked', after.text)


def test_a_cookie_with_the_older_versions_draft_keys_is_no_trouble(client):
    """A deploy mid game night: the scorekeeper's cookie still holds the three keys older
    versions kept a draft under (its fields, whether it was shown, its photo's seat). They are
    dropped unread, and the photo flow works as on a fresh phone."""
    game = make_game()
    ids = seat_ids(game)
    old = {
        "round_drafts": {game.edit_token: [["double", "6"], [f"total_{ids['Ann']}", "99"]]},
        "round_drafts_shown": [game.edit_token],
        "round_drafts_photo_seat": {game.edit_token: ids["Cy"]},
    }
    with client.session_transaction() as session:
        session.update(old)
    page = client.get(f"/g/{game.edit_token}")
    assert page.status_code == 200 and 'value="99"' not in page.text
    start_photo(client, game, "Bob", Ann=12)
    r = client.post(f"/g/{game.edit_token}/photo/{ids['Bob']}/confirm", data={"tile": ["6-5"]})
    assert r.status_code == 303
    body = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    assert re.search(rf'name="tiles_{ids["Bob"]}" value="6-5" data-points="\d+" checked', body)
    assert re.search(rf'name="total_{ids["Ann"]}"[^>]*value="12"', body)
    assert "data-fresh" in body
    with client.session_transaction() as session:
        assert not set(old) & set(session)


def test_a_hand_posted_while_the_photo_was_taken_fills_its_untouched_box(app, client):
    """Bob posts 12 from his phone while the scorekeeper is on Cy's photo page. Back on the
    round form (the kept draft), Bob's box was empty and marked "typed over their post", as if
    the scorekeeper had typed nothing over it: saving then refused Bob's hand or needed "Use
    Bob's post". An untouched box takes the post, as it would have live; a box typed before
    the photo (Ann's 7) and the photo's tiles stay."""
    game = make_game()
    ids = seat_ids(game)
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    bob = app.test_client()
    assert bob.post(f"/j/{game.join_token}", data={"seat": ids["Bob"]}).status_code == 303
    start_photo(client, game, "Cy", Ann=7)
    r = bob.post(f"/p/{game.share_token}", data={"double": "6", "total": "12"})
    assert r.status_code == 303
    client.post(f"/g/{game.edit_token}/photo/{ids['Cy']}/confirm", data={"tile": ["3-1"]})
    body = client.get(f"/g/{game.edit_token}").get_data(as_text=True)
    assert re.search(rf'name="total_{ids["Bob"]}"[^>]*value="12"', body)
    assert re.search(rf'name="seen_{ids["Bob"]}"[^>]*value="1"', body)
    assert f'class="post-mark posted" data-seat="{ids["Bob"]}"' in body
    assert 'class="post-mark typed"' not in body
    assert re.search(rf'name="total_{ids["Ann"]}"[^>]*value="7"', body)
    assert re.search(rf'name="tiles_{ids["Cy"]}" value="3-1" data-points="\d+" checked', body)


def test_confirmed_tiles_are_scored_as_tapped_tiles(client):
    game = make_game()
    ids = seat_ids(game)
    start_photo(client, game, "Bob")
    client.post(f"/g/{game.edit_token}/photo/{ids['Bob']}/confirm", data={"tile": ["0-0", "5-2"]})
    r = client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Cy": 3}, tiles={"Bob": ["0-0", "5-2"]}, out="Ann"),
    )
    assert r.status_code == 303
    hand = {h.seat_id: h for h in db.session.scalars(db.select(Round)).one().hands}
    assert hand[ids["Bob"]].points == 57  # double-blank 50 under the standard house rules
    assert list(hand[ids["Bob"]].tiles) == ["0-0", "5-2"]


def test_an_unread_tile_must_be_picked(client):
    game = make_game()
    bob = seat_ids(game)["Bob"]
    start_photo(client, game, "Bob")
    r = client.post(f"/g/{game.edit_token}/photo/{bob}/confirm", data={"tile": ["6-5", "?"]})
    assert r.status_code == 422 and "Tile 2 is not picked yet" in text(r)
    assert "tiles from the photo" not in text(client.get(f"/g/{game.edit_token}"))


def test_a_tile_picked_twice_is_refused_and_the_reading_kept(client):
    """The scorekeeper's photo page refuses a duplicate like a player's: the reading again with
    every pick, nothing filled in (it used to fill in the tile once, not what the headline said)."""
    game = make_game()
    bob = seat_ids(game)["Bob"]
    start_photo(client, game, "Bob", Ann=12)
    page = upload(client, game, bob, hand_photo().data).get_data(as_text=True)
    kept = html.unescape(re.search(r'name="reading" value="([^"]*)"', page).group(1))
    picks = {"tile": ["6-5", "6-5", "2-2"], "reading": kept}
    r = client.post(f"/g/{game.edit_token}/photo/{bob}/confirm", data=picks)
    assert r.status_code == 422
    assert "6-5 is picked more than once: a set has only one 6-5" in text(r)
    assert "Points to post: 26" in text(r) and "Confirm these tiles" in text(r)
    assert "tiles from the photo" not in text(client.get(f"/g/{game.edit_token}"))


def test_not_a_tile_drops_a_false_find(client):
    game = make_game()
    bob = seat_ids(game)["Bob"]
    client.post(f"/g/{game.edit_token}/photo/{bob}/confirm", data={"tile": ["6-5", "none"]})
    assert "Bob: 1 tile from the photo, 11 points." in text(client.get(f"/g/{game.edit_token}"))


def test_the_flash_says_the_points_posted_under_the_house_rules(client):
    """A double-blank hand is worth its house value (50), not "0 pips"; one tile is "1 tile"."""
    game = make_game()
    bob = seat_ids(game)["Bob"]
    client.post(f"/g/{game.edit_token}/photo/{bob}/confirm", data={"tile": ["0-0", "2-2"]})
    assert "Bob: 2 tiles from the photo, 54 points." in text(client.get(f"/g/{game.edit_token}"))


def test_one_point_is_said_in_the_singular(client):
    """The points have their own plural: "1 point", not "1 points" (nor "4 очков")."""
    game = make_game()
    bob = seat_ids(game)["Bob"]
    client.post(f"/g/{game.edit_token}/photo/{bob}/confirm", data={"tile": ["1-0"]})
    assert "Bob: 1 tile from the photo, 1 point." in text(client.get(f"/g/{game.edit_token}"))


def test_one_unread_tile_is_said_in_the_singular(client, monkeypatch):
    monkeypatch.setattr("companion.services.hand_photo.Reading.unread", property(lambda r: [0]))
    game = make_game()
    r = upload(client, game, seat_ids(game)["Bob"], hand_photo().data)
    assert "1 tile could not be read (marked ?): pick it below" in text(r)


def test_a_tile_outside_the_set_is_refused(client):
    game = make_game()
    bob = seat_ids(game)["Bob"]
    r = client.post(f"/g/{game.edit_token}/photo/{bob}/confirm", data={"tile": ["9-9"]})
    assert r.status_code == 422 and "Tile 1 is not picked yet" in text(r)


def test_bad_uploads_get_a_clear_message_never_a_500(client):
    game = make_game()
    bob = seat_ids(game)["Bob"]
    cases = {
        b"": "This file is empty (0 bytes)",
        b"hello": "not a photo the app can read",
        b"\x89PNG\r\n\x1a\n" + b"\0" * 40: "not a photo the app can read",
    }
    for data, words in cases.items():
        r = upload(client, game, bob, data)
        assert r.status_code == 422, data
        assert words in text(r)
    tiny = io.BytesIO()
    from PIL import Image

    Image.new("RGB", (1, 1)).save(tiny, "PNG")
    r = upload(client, game, bob, tiny.getvalue())
    assert r.status_code == 422 and "too small" in text(r)


def test_a_phone_sized_photo_is_accepted_over_the_form_limit(client, app):
    """The app-wide body limit is 1 MiB; a photo may be bigger."""
    game = make_game()
    bob = seat_ids(game)["Bob"]
    photo = hand_photo().data
    padded = photo + b"\0" * (2 * 1024 * 1024)  # JPEG readers ignore bytes after the end
    r = upload(client, game, bob, padded)
    assert r.status_code == 200
    assert "Points to post: 19" in text(r) and "Pips counted: 19" in text(r)


def test_headline_is_the_hands_value_under_the_house_rules(client):
    """The double-blank counts its house value (50 by default), not 0 pips: the headline is
    what will be posted, and each option carries its points for the live update. A 0-0 is
    never sure (nothing on it to check but the divider): it waits for a tap."""
    game = make_game()
    bob = seat_ids(game)["Bob"]
    r = upload(client, game, bob, scene([(6, 5), (0, 0)], angle=0.3).data)
    assert r.status_code == 200
    assert "Points to post: 11" in text(r) and "Pips counted: 11" in text(r)
    body = r.get_data(as_text=True)
    assert "? (looks like 0-0: pick it)" in body
    assert 'value="0-0" data-points="50"' in body and 'value="6-5" data-points="11"' in body
    assert "js/photo.js" in body


def test_a_tile_not_sure_must_be_picked(client, monkeypatch):
    """A tile read below the calibrated confidence starts on "?" (the photo's guess listed
    first) and adds nothing to the headline until the player picks it."""
    monkeypatch.setattr("companion.pips.reading.SURE", 1.01)  # no tile is sure
    game = make_game()
    bob = seat_ids(game)["Bob"]
    r = upload(client, game, bob, hand_photo().data)
    body = r.get_data(as_text=True)
    assert "Points to post: 0" in text(r)
    assert "3 tiles found: 0 read sure, 3 to check" in text(r)
    assert body.count('<option value="?" data-points="0" selected>') == 3
    assert "? (looks like 6-5: pick it)" in body and "(not sure: check it)" in body
    picks = {"tile": ["?", "3-1", "2-2"], "csrf_token": ""}
    r = client.post(f"/g/{game.edit_token}/photo/{bob}/confirm", data=picks)
    assert r.status_code == 422 and stored_rounds(game) == 0
    assert "Tile 1 is not picked yet" in text(r)


def test_the_sure_tiles_are_counted_not_one_confidence_that_any_unread_tile_zeroes(
    client, monkeypatch
):
    """ "Confidence: 0%" was shown whenever any tile was unread, however many were sure."""
    from companion.pips.reading import TileRead

    sure = TileRead.sure
    monkeypatch.setattr(TileRead, "sure", property(lambda t: sure.fget(t) and t.text != "3-1"))
    game = make_game()
    r = upload(client, game, seat_ids(game)["Bob"], hand_photo().data)
    assert "3 tiles found: 2 read sure, 1 to check" in text(r)
    assert "Confidence" not in text(r)


def test_no_tiles_says_what_to_do(client):
    """A photo with no tile read is refused in the player's words, never "0 pips", and the
    page offers typing instead."""
    game = make_game()
    bob = seat_ids(game)["Bob"]
    r = upload(client, game, bob, scene([]).data)
    assert r.status_code == 422
    assert "No tile could be read in this photo" in text(r)
    assert "type your points or tap your tiles instead" in text(r)
    assert "Confirm these tiles" not in text(r)
    assert "0 pips" not in text(r)
    assert f'href="/g/{game.edit_token}">Back to the round: type the points' in r.get_data(
        as_text=True
    )


def test_a_blurred_photo_is_unreadable_not_zero(client):
    blurred = Image.open(io.BytesIO(hand_photo().data)).filter(ImageFilter.GaussianBlur(8))
    buffer = io.BytesIO()
    blurred.save(buffer, "JPEG")
    r = api(client, buffer.getvalue())
    assert r.status_code == 422
    body = r.get_json()
    assert body["error"]["code"] == "PHOTO_UNREADABLE" and "pips" not in body


def test_unknown_seat_is_404(client):
    game = make_game()
    assert client.get(f"/g/{game.edit_token}/photo/999999").status_code == 404


# --- the API and the command line give the same answer -----------------------------------------


def api(client, data: bytes, **fields):
    return client.post(
        "/api/v1/pips",
        data={"photo": (io.BytesIO(data), "p.jpg"), **fields},
        content_type="multipart/form-data",
    )


def test_api_answers_total_tiles_positions_and_confidence(client):
    photo = hand_photo()
    r = api(client, photo.data)
    assert r.status_code == 200
    body = r.get_json()
    assert body["pips"] == 19 and sorted(body["tiles"]) == ["2-2", "3-1", "6-5"]
    assert body["unread"] == 0 and 0 < body["confidence"] <= 1
    assert len(body["found"]) == 3
    assert all(len(t["outline"]) == 4 for t in body["found"])
    assert sum(len(t["pip_marks"]) for t in body["found"]) == 19
    assert body == count_pips(photo.data).as_json()


def test_api_says_which_tiles_must_be_confirmed(client, monkeypatch):
    """Each tile found says whether it is sure (at or above ``SURE``): a client must ask the
    player about a tile that is not, as the photo page does."""
    assert all(t["sure"] for t in api(client, hand_photo().data).get_json()["found"])
    monkeypatch.setattr("companion.pips.reading.SURE", 1.01)  # no tile is sure
    assert not any(t["sure"] for t in api(client, hand_photo().data).get_json()["found"])


def test_api_is_in_the_openapi_document(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert "multipart/form-data" in doc["paths"]["/api/v1/pips"]["post"]["requestBody"]["content"]
    assert "PipsReading" in doc["components"]["schemas"]


def test_api_errors(client):
    r = client.post("/api/v1/pips", data={}, content_type="multipart/form-data")
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "NO_PHOTO"
    r = api(client, b"not an image")
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "NOT_AN_IMAGE"
    for bad in ("99", "0", "six", "-1"):
        r = api(client, hand_photo().data, max_pips=bad)
        assert r.status_code == 400 and r.get_json()["error"]["code"] == "BAD_MAX_PIPS"


def test_an_empty_file_is_called_empty_and_no_file_is_called_no_photo(client):
    """A 0-byte file chosen as the photo said "No photo was sent" (the page and the API's
    message): it says the file is empty. A form sent with no file chosen (a part without a
    file name) is "no photo" on both; the API's codes stay EMPTY and NO_PHOTO."""
    game = make_game()
    bob = seat_ids(game)["Bob"]
    r = upload(client, game, bob, b"", name="IMG_0042.jpg")
    assert r.status_code == 422 and "This file is empty (0 bytes)" in text(r)
    assert "No photo was sent" not in text(r)
    r = upload(client, game, bob, b"", name="")
    assert r.status_code == 422 and "No photo was sent" in text(r)
    r = api(client, b"")
    error = r.get_json()["error"]
    assert r.status_code == 400 and error["code"] == "EMPTY" and "empty" in error["message"]
    r = client.post(
        "/api/v1/pips",
        data={"photo": (io.BytesIO(b""), "")},
        content_type="multipart/form-data",
    )
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "NO_PHOTO"


def test_api_unread_when_a_half_is_over_the_sets_highest(client):
    r = api(client, scene([(9, 4), (2, 1)]).data, max_pips="6")
    body = r.get_json()
    assert body["unread"] == 1 and body["tiles"] == ["2-1"]
    assert sorted(t["reading"] for t in body["found"]) == ["2-1", "?"]


def test_api_nothing_read_is_unreadable_not_zero_pips(client):
    r = api(client, scene([(9, 4)]).data, max_pips="6")
    assert r.status_code == 422
    assert r.get_json() == {
        "error": {
            "code": "PHOTO_UNREADABLE",
            "message": r.get_json()["error"]["message"],
            "where": "photo",
        }
    }


def test_openapi_names_the_unreadable_and_busy_answers(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    answers = doc["paths"]["/api/v1/pips"]["post"]["responses"]
    assert "PHOTO_UNREADABLE" in answers["422"]["description"]
    assert "Retry-After" in answers["429"]["description"]


def test_cli_prints_one_json_object_per_photo(app, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("not a photo")
    photos = [str(PHOTOS / "valid_4.jpg"), str(PHOTOS / "valid_6.jpg"), str(bad)]
    result = app.test_cli_runner().invoke(args=["count-pips", *photos])
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert lines[0] == {
        "photo": photos[0],
        "pips": 4,
        "tiles": ["3-1"],
        "unread": 0,
        "confidence": count_pips((PHOTOS / "valid_4.jpg").read_bytes()).confidence,
    }
    assert lines[1]["pips"] == 5 and lines[1]["tiles"] == ["5-0"]
    assert lines[2]["error"]["code"] == "NOT_AN_IMAGE"


def test_cli_prints_an_error_without_pips_for_an_unreadable_photo(app, tmp_path):
    plain = tmp_path / "table.png"
    plain.write_bytes(scene([]).data)
    result = app.test_cli_runner().invoke(args=["count-pips", str(plain)])
    line = json.loads(result.output)
    assert result.exit_code == 1
    assert line["error"]["code"] == "PHOTO_UNREADABLE" and "pips" not in line
    assert result.exit_code == 1


# --- with CSRF on, as in production --------------------------------------------------------------


def big_photo() -> bytes:
    """A 2.5 MB upload: the hand photo padded after its end (JPEG readers stop at the end)."""
    return hand_photo().data + b"\0" * (2 * 1024 * 1024 + 512 * 1024)


def test_big_photo_with_csrf_on_is_counted(csrf_client):
    game = make_game()
    bob = seat_ids(game)["Bob"]
    page = csrf_client.get(f"/g/{game.edit_token}/photo/{bob}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    r = csrf_client.post(
        f"/g/{game.edit_token}/photo/{bob}",
        data={"csrf_token": token, "photo": (io.BytesIO(big_photo()), "hand.jpg")},
        content_type="multipart/form-data",
    )
    assert r.status_code == 200
    assert "Points to post: 19" in text(r) and "Pips counted: 19" in text(r)


def test_photo_without_csrf_token_is_refused(csrf_client):
    game = make_game()
    bob = seat_ids(game)["Bob"]
    r = upload(csrf_client, game, bob, hand_photo().data)
    assert r.status_code == 400
    assert "Nothing was saved" in text(r)


def test_over_the_byte_limit_gets_its_message(client):
    game = make_game()
    bob = seat_ids(game)["Bob"]
    r = upload(client, game, bob, b"\xff\xd8" + b"\0" * (MAX_BYTES + 100_000))
    assert r.status_code == 422
    assert "This photo is too large" in text(r)
    assert "or type your points instead" in text(r)


def test_a_picture_with_too_many_pixels_offers_typing_the_points(client):
    """A 16 MP PNG (over the limit of formats without a scaled decode) said only "too big":
    it now says what to do."""
    game = make_game()
    bob = seat_ids(game)["Bob"]
    big = io.BytesIO()
    Image.new("L", (4000, 4000)).save(big, "PNG", optimize=False)
    r = upload(client, game, bob, big.getvalue(), name="big.png")
    assert r.status_code == 422 and "This picture is too big" in text(r)
    assert "Take it again at a lower camera resolution, or type your points instead." in text(r)
    r = api(client, b"\xff\xd8" + b"\0" * (MAX_BYTES + 100_000))
    assert r.status_code == 413 and r.get_json()["error"]["code"] == "TOO_MANY_BYTES"


def test_big_photo_through_the_api_with_csrf_on(csrf_client):
    r = api(csrf_client, big_photo())
    assert r.status_code == 200 and r.get_json()["pips"] == 19


def test_a_confirm_sent_again_by_the_outbox_fills_the_hand_once(client):
    """The scorekeeper's Confirm made offline waits in the phone's outbox and is sent with its
    idempotency key, again should an answer be lost: the hand is filled and said once."""
    game = make_game()
    ids = seat_ids(game)
    client.get(f"/g/{game.edit_token}")  # the scorekeeper's phone, with its device id
    start_photo(client, game, "Bob", Ann=12)
    url = f"/g/{game.edit_token}/photo/{ids['Bob']}/confirm"
    sent = {"tile": ["6-5", "4-1", "2-2"]}
    first = client.post(url, data=sent, headers={"Idempotency-Key": "k-photo-1"})
    again = client.post(url, data=sent, headers={"Idempotency-Key": "k-photo-1"})
    assert first.status_code == again.status_code == 303
    assert again.headers["Location"] == first.headers["Location"] == f"/g/{game.edit_token}"
    page = text(client.get(f"/g/{game.edit_token}"))
    assert page.count("Bob: 3 tiles from the photo, 20 points") == 1
    assert stored_rounds(game) == 0


def test_the_confirm_address_asked_with_get_opens_the_game_page(client):
    """A refused Confirm's answer is shown at the Confirm's address (static/js/offline.js
    replaces the history entry): a reload asks for it with GET, answered by the game page."""
    game = make_game()
    ids = seat_ids(game)
    client.get(f"/g/{game.edit_token}")
    answer = client.get(f"/g/{game.edit_token}/photo/{ids['Bob']}/confirm?double=12")
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/g/{game.edit_token}"


def action_of(body: str, ending: str) -> str:
    """The address a photo page's form posts to (the upload's, or the Confirm's with
    ``ending="/confirm"``), as the page gives it."""
    found = re.search(rf'<form method="post" action="([^"]*/photo/\d+{ending}(?:\?[^"]*)?)"', body)
    assert found, f"no form posting to …{ending}"
    return html.unescape(found.group(1))


def test_a_confirm_whose_kept_draft_is_gone_fills_the_round_being_entered(client):
    """The session's draft was dropped while the photo page was open: the Confirm built a
    draft of the tiles alone, with no round or version, which the game page threw away, while
    its message said the tiles were filled in. They go into that hand of the round being
    entered, as the page draws it (a hand posted from a phone takes its own box)."""
    game = make_game()
    ids = seat_ids(game)
    start_photo(client, game, "Bob", Ann=12)
    with client.session_transaction() as session:
        session.pop("drafts")
    r = client.post(f"/g/{game.edit_token}/photo/{ids['Bob']}/confirm", data={"tile": ["6-5"]})
    assert r.status_code == 303
    page = client.get(f"/g/{game.edit_token}")
    assert "Bob: 1 tile from the photo, 11 points" in text(page)
    assert re.search(rf'name="tiles_{ids["Bob"]}" value="6-5" data-points="\d+" checked', page.text)
    assert "data-fresh" in page.text
    assert stored_rounds(game) == 0


def test_a_confirm_for_a_round_saved_meanwhile_says_so_and_keeps_the_next_rounds_form(client):
    """The round was saved from another tab while Bob's photo page was open. His photo's
    Confirm, sent afterwards, fills nothing in (not the saved round, not the next one), and
    says so with the photo's tiles instead of "3 tiles from the photo"; the form the
    scorekeeper keeps for the next round (a photo of Cy's hand begun there) stays as it was."""
    game = make_game()
    ids = seat_ids(game)
    start = start_photo(client, game, "Bob", Ann=12)
    photo_page = client.get(start.headers["Location"]).get_data(as_text=True)
    saved = save_first_round(client, game)  # the other tab
    assert saved.status_code == 303 and stored_rounds(game) == 1
    client.get(f"/g/{game.edit_token}")
    db.session.refresh(game)
    next_round = round_post(game, 5, totals={"Ann": 3})
    client.post(f"/g/{game.edit_token}/photo", data={**next_round, "photo_seat": str(ids["Cy"])})
    reading = client.post(
        action_of(photo_page, ""),
        data={"photo": (io.BytesIO(hand_photo().data), "hand.jpg")},
        content_type="multipart/form-data",
    )
    assert reading.status_code == 200
    confirm = action_of(reading.get_data(as_text=True), "/confirm")
    r = client.post(confirm, data={"tile": ["6-5", "4-1", "2-2"]})
    assert r.status_code == 303 and r.headers["Location"] == f"/g/{game.edit_token}"
    page = client.get(f"/g/{game.edit_token}")
    said = text(page)
    assert (
        "Bob's hand from the photo was not used: the round with 6-6 was saved with what was "
        "typed. The photo's tiles: 6-5, 4-1, 2-2 (20 points). To use them, correct that "
        "round." in said
    )
    assert "tiles from the photo" not in said
    assert not re.search(r'name="tiles_\d+" value="[^"]+" data-points="\d+" checked', page.text)
    assert re.search(rf'name="total_{ids["Ann"]}"[^>]*value="3"', page.text)
    assert re.search(r"<input[^>]*name=\"double\"[^>]*value=\"5\"", page.text)  # the next round
    assert stored_rounds(game) == 1


def test_a_confirm_for_a_round_no_longer_being_entered_is_said_not_put_in_another(client):
    """Bob's photo was for the round with 5-5; the round with 6-6 was undone from another tab
    meanwhile, so 6-6 is to be entered again. The photo's tiles do not go into that round."""
    game = make_game()
    ids = seat_ids(game)
    save_first_round(client, game)
    db.session.refresh(game)
    start = client.post(
        f"/g/{game.edit_token}/photo", data={**round_post(game, 5), "photo_seat": str(ids["Bob"])}
    )
    assert start.headers["Location"].endswith("?double=5")
    assert undo(client, game).status_code == 200 and stored_rounds(game) == 0  # another tab
    confirm = start.headers["Location"].replace("?", "/confirm?")
    r = client.post(confirm, data={"tile": ["6-5"]})
    assert r.status_code == 303
    page = client.get(f"/g/{game.edit_token}")
    assert (
        "Bob's hand from the photo was not filled in: its round is no longer the round to "
        "enter. The photo's tiles: 6-5 (11 points)." in text(page)
    )
    assert not re.search(r'name="tiles_\d+" value="[^"]+" data-points="\d+" checked', page.text)


def test_a_confirm_sent_before_the_round_typed_offline_is_saved_says_its_tiles_were_not_used(
    client,
):
    """Offline, the scorekeeper confirmed Bob's photo (it waits in the outbox) and then typed
    and saved the round on the game page's kept copy. Back online the outbox sends the
    Confirm, then the save: the round is saved as typed. The game page said "3 tiles from
    the photo ... Check the round and save it" although the round was saved and the photo's
    tiles went nowhere; it says the round was saved with what was typed, and the tiles."""
    game = make_game()
    ids = seat_ids(game)
    client.get(f"/g/{game.edit_token}")  # the scorekeeper's phone, with its device id
    start = start_photo(client, game, "Bob", Ann=12)
    typed = round_post(game, 6, totals={"Ann": 12, "Bob": 30}, out="Cy")  # the kept copy's form
    confirm = start.headers["Location"].replace("?", "/confirm?")
    sent = client.post(
        confirm, data={"tile": ["6-5", "4-1", "2-2"]}, headers={"Idempotency-Key": "k-photo-1"}
    )
    saved = client.post(
        f"/g/{game.edit_token}/round", data=typed, headers={"Idempotency-Key": "k-round-1"}
    )
    assert sent.status_code == saved.status_code == 303
    page = client.get(f"/g/{game.edit_token}")  # the outbox opens the entries' page
    said = text(page)
    assert "Round saved." in said
    assert (
        "Bob's hand from the photo was not used: the round with 6-6 was saved with what was "
        "typed. The photo's tiles: 6-5, 4-1, 2-2 (20 points). To use them, correct that "
        "round." in said
    )
    assert "tiles from the photo" not in said and "Check the round and save it" not in said
    assert not re.search(r'name="tiles_\d+" value="[^"]+" data-points="\d+" checked', page.text)
    assert "data-fresh" not in page.text
    assert "the photo" not in text(client.get(f"/g/{game.edit_token}"))  # said once
    assert stored_rounds(game) == 1
    hand = {h.seat_id: h for h in db.session.scalars(db.select(Round)).one().hands}
    assert hand[ids["Bob"]].points == 30 and not hand[ids["Bob"]].tiles  # as typed


def outbox_confirm(client, game, seat_name, tiles, **typed):
    """Bob's photo taken for the round being entered (``typed`` in the form when its button
    was pressed) and its Confirm sent from the outbox: 303, nothing shown yet."""
    start = start_photo_for(client, game, seat_name, **typed)
    confirm = start.headers["Location"].replace("?", "/confirm?")
    r = client.post(confirm, data={"tile": tiles}, headers={"Idempotency-Key": "k-photo-2"})
    assert r.status_code == 303


def start_photo_for(client, game, seat_name, **typed):
    """:func:`start_photo` for the round with the game's next double (5-5 after one round)."""
    db.session.refresh(game)
    double = 6 - len(game.rounds)
    data = {**round_post(game, double, totals=typed), "photo_seat": str(seat_ids(game)[seat_name])}
    return client.post(f"/g/{game.edit_token}/photo", data=data)


def test_a_confirm_sent_before_a_correction_of_an_earlier_round_still_fills_the_hand(client):
    """The outbox sent the Confirm, then a correction of the round before, typed offline too:
    the game moved on, so the draft holding the photo's tiles no longer fitted and the game
    page dropped it unseen, its message still saying the tiles were in the form. The round
    is still the one to be entered: the tiles go into its form, and the message is true."""
    game = make_game()
    ids = seat_ids(game)
    save_first_round(client, game)
    client.get(f"/g/{game.edit_token}")
    db.session.refresh(game)
    correction = round_post(game, 6, totals={"Ann": 14, "Bob": 30}, out="Cy")  # the copy's
    outbox_confirm(client, game, "Bob", ["6-5"], Ann=3)
    fixed = client.post(f"/g/{game.edit_token}/round/1", data=correction)
    assert fixed.status_code == 303
    page = client.get(f"/g/{game.edit_token}")
    tapped = rf'name="tiles_{ids["Bob"]}" value="6-5" data-points="\d+" checked'
    assert "Bob: 1 tile from the photo, 11 points. Check the round and save it." in text(page)
    assert re.search(tapped, page.text)
    assert re.search(r"<input[^>]*name=\"double\"[^>]*value=\"5\"", page.text)
    assert "data-fresh" in page.text
    again = client.get(f"/g/{game.edit_token}")  # a reload: the tiles again, not said again
    assert "from the photo" not in text(again) and "data-fresh" not in again.text
    assert re.search(tapped, again.text)
    assert stored_rounds(game) == 1


def test_a_confirm_sent_before_its_round_is_undone_away_says_its_tiles_were_not_used(client):
    """The Confirm for the round with 5-5 came, then the round before was undone (from another
    tab): the round to be entered is 6-6 again, and the page says the photo's tiles were not
    filled in, with them, instead of "1 tile from the photo"."""
    game = make_game()
    save_first_round(client, game)
    outbox_confirm(client, game, "Bob", ["6-5"])
    undone = undo(client, game)  # followed to the game page
    assert undone.status_code == 200 and stored_rounds(game) == 0
    said = text(undone)
    assert (
        "Bob's hand from the photo was not filled in: its round is no longer the round to "
        "enter. The photo's tiles: 6-5 (11 points)." in said
    )
    assert "tile from the photo" not in said


def test_points_typed_before_a_photo_stay_when_an_earlier_round_is_corrected_meanwhile(client):
    """Tester-60: the scorekeeper typed Ann 3 and Cy 9 in the round with 5-5, counted Bob's
    hand from a photo, and another tab corrected the round before while the photo page was
    open. The Confirm filled Bob's tiles into a form of the same round with nothing else in
    it: Ann's 3 and Cy's 9 were gone, unsaid. The round is still the one to be entered, so
    what was typed in it stands beside the photo's tiles."""
    game = make_game()
    ids = seat_ids(game)
    save_first_round(client, game)
    start = start_photo_for(client, game, "Bob", Ann=3, Cy=9)
    db.session.refresh(game)
    correction = round_post(game, 6, totals={"Ann": 14, "Bob": 30}, out="Cy")
    assert client.post(f"/g/{game.edit_token}/round/1", data=correction).status_code == 303
    client.get(f"/g/{game.edit_token}")  # the other tab back on the game page after it
    confirm = start.headers["Location"].replace("?", "/confirm?")
    assert client.post(confirm, data={"tile": ["6-5"]}).status_code == 303
    page = client.get(f"/g/{game.edit_token}")
    assert "Bob: 1 tile from the photo, 11 points. Check the round and save it." in text(page)
    assert re.search(rf'name="tiles_{ids["Bob"]}" value="6-5" data-points="\d+" checked', page.text)
    assert re.search(rf'name="total_{ids["Ann"]}"[^>]*value="3"', page.text)
    assert re.search(rf'name="total_{ids["Cy"]}"[^>]*value="9"', page.text)
    db.session.refresh(game)
    assert re.search(rf'name="version"[^>]*value="{game.version}"', page.text)


def test_points_typed_before_a_photo_stay_when_a_correction_follows_its_confirm(client):
    """The outbox's order (tester-60): the Confirm, then a correction of the round before. The
    game page takes the photo's tiles into the round's form at the new version; Ann's 3,
    typed before the photo, stays too."""
    game = make_game()
    ids = seat_ids(game)
    save_first_round(client, game)
    db.session.refresh(game)
    correction = round_post(game, 6, totals={"Ann": 14, "Bob": 30}, out="Cy")
    outbox_confirm(client, game, "Bob", ["6-5"], Ann=3)
    assert client.post(f"/g/{game.edit_token}/round/1", data=correction).status_code == 303
    page = client.get(f"/g/{game.edit_token}")
    assert "Bob: 1 tile from the photo, 11 points." in text(page)
    assert re.search(rf'name="total_{ids["Ann"]}"[^>]*value="3"', page.text)


def test_the_rounds_centre_double_picked_on_the_photo_is_refused_not_dropped(client):
    """Tester-60: Bob's photo for the round with 6-6 confirmed with 6-6 among its picks (a
    misread, or the centre double caught in the photo). The game page said "2 tiles from the
    photo, 23 points", but the round form has no box for the centre double: it held 6-5 alone
    (11 points), and a save took 11 without a word. The Confirm is refused, the tile pointed
    at, in the words the round form uses for the centre double."""
    game = make_game()
    ids = seat_ids(game)
    start = start_photo(client, game, "Bob", Ann=12)
    confirm = start.headers["Location"].replace("?", "/confirm?")
    r = client.post(confirm, data={"tile": ["6-5", "6-6"]})
    assert r.status_code == 422
    assert "Bob: 6-6 is this round's centre double, so it can't be in a hand." in text(r)
    page = client.get(f"/g/{game.edit_token}")
    assert "from the photo" not in text(page)
    assert not re.search(
        rf'name="tiles_{ids["Bob"]}" value="6-5" data-points="\d+" checked', page.text
    )
    assert stored_rounds(game) == 0


def test_the_photo_page_flags_the_centre_double_and_tiles_in_the_other_hands_before_confirm(
    app, client
):
    """Bob's photo for the round with 6-6 reads 6-6, 6-5 and 3-1. The round form the
    scorekeeper goes back to holds 6-5 in Ann's hand (tapped before the photo button) and 3-1
    in Cy's (posted from Cy's phone while the photo was taken): each is said beside its picker
    from the first render, in the words the round's Save would refuse it with, and the centre
    double in the words its Confirm would; not only once the Confirm or the Save refuses."""
    game = make_game()
    ids = seat_ids(game)
    data = round_post(game, 6, tiles={"Ann": ["6-5"]})
    data["photo_seat"] = str(ids["Bob"])
    assert client.post(f"/g/{game.edit_token}/photo", data=data).status_code == 303
    cy = app.test_client()
    assert cy.post(f"/j/{game.join_token}", data={"seat": ids["Cy"]}).status_code == 303
    posted = cy.post(f"/p/{game.share_token}", data={"double": "6", "tiles": ["3-1"]})
    assert posted.status_code == 303
    r = upload(client, game, ids["Bob"], scene([(6, 6), (6, 5), (3, 1)], angle=0.4).data)
    assert r.status_code == 200
    picks = selected(r.text)
    assert sorted(picks) == ["3-1", "6-5", "6-6"]
    assert flags(r.text) == {
        f"fix-words-{picks.index('6-6')}": (
            "Bob: 6-6 is this round's centre double, so it can't be in a hand."
        ),
        f"fix-words-{picks.index('6-5')}": "6-5 can't be in both Ann's and Bob's hands.",
        f"fix-words-{picks.index('3-1')}": "3-1 can't be in both Cy's and Bob's hands.",
    }
    assert r.text.count('aria-invalid="true"') == 3
    assert "Points to post: 27" in text(r)  # the headline is not changed by the flags


def test_a_post_typed_over_on_the_round_form_is_not_flagged_nor_is_a_plain_reading(app, client):
    """Cy posted 3-1, but the scorekeeper typed 5 over it before taking Bob's photo: the round
    form holds no 3-1, so Bob's 3-1 is no clash there; nor is anything flagged in a photo of
    tiles in no other hand."""
    game = make_game()
    ids = seat_ids(game)
    cy = app.test_client()
    assert cy.post(f"/j/{game.join_token}", data={"seat": ids["Cy"]}).status_code == 303
    posted = cy.post(f"/p/{game.share_token}", data={"double": "6", "tiles": ["3-1"]})
    assert posted.status_code == 303
    typed_over = {f"seen_{ids['Cy']}": "1", f"filled_{ids['Cy']}": "tiles:3-1"}
    data = round_post(game, 6, totals={"Cy": 5}, **typed_over)
    data["photo_seat"] = str(ids["Bob"])
    assert client.post(f"/g/{game.edit_token}/photo", data=data).status_code == 303
    r = upload(client, game, ids["Bob"], hand_photo().data)
    assert r.status_code == 200 and sorted(selected(r.text)) == ["2-2", "3-1", "6-5"]
    assert flags(r.text) == {} and 'aria-invalid="true"' not in r.text
    # nor by photo.js as tiles are picked: only the centre double is
    assert list(flagged_as_picked(r.text)) == ["6-6"]
