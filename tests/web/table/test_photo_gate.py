"""The bounds on reading photos (companion/services/photo_gate.py): readings in flight per
process and photos per phone per minute, past which the answer is 429 with Retry-After."""

from __future__ import annotations

import io

import pytest

from companion.pips.synth import scene
from companion.services import photo_gate
from tests.web.playkit import make_game, seat_ids


@pytest.fixture()
def photo() -> bytes:
    return scene([(6, 5), (3, 1)]).data


def api(client, data: bytes):
    return client.post(
        "/api/v1/pips",
        data={"photo": (io.BytesIO(data), "p.jpg")},
        content_type="multipart/form-data",
    )


def test_past_the_phones_rate_the_api_answers_429_with_retry_after(app, client, photo):
    app.config["PIPS_PER_MINUTE"] = 2
    assert [api(client, photo).status_code for _ in range(2)] == [200, 200]
    r = api(client, photo)
    assert r.status_code == 429
    assert r.get_json()["error"]["code"] == "TOO_MANY_PHOTOS"
    assert 1 <= int(r.headers["Retry-After"]) <= 60


def test_the_rate_is_per_phone(app, photo):
    app.config["PIPS_PER_MINUTE"] = 1
    first = app.test_client()
    assert api(first, photo).status_code == 200
    assert api(first, photo).status_code == 429
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    assert api(other, photo).status_code == 200


def test_with_every_slot_taken_a_reading_waits_then_gets_429(app, client, photo):
    app.config.update(PIPS_IN_FLIGHT=1, PIPS_WAIT_SECONDS=0)
    slots = photo_gate.gate(app).slots
    assert slots.acquire(blocking=False)  # another phone's reading in flight
    try:
        r = api(client, photo)
        assert r.status_code == 429 and r.get_json()["error"]["code"] == "BUSY"
        assert r.headers["Retry-After"] == str(photo_gate.BUSY_RETRY)
    finally:
        slots.release()
    assert api(client, photo).status_code == 200  # the slot is free again


def test_the_photo_page_answers_429_in_the_players_words(app, client, photo):
    app.config["PIPS_PER_MINUTE"] = 1
    game = make_game()
    bob = seat_ids(game)["Bob"]

    def upload():
        return client.post(
            f"/g/{game.edit_token}/photo/{bob}",
            data={"photo": (io.BytesIO(photo), "hand.jpg")},
            content_type="multipart/form-data",
        )

    assert upload().status_code == 200
    r = upload()
    assert r.status_code == 429 and "Retry-After" in r.headers
    assert "Too many photos from this phone" in r.get_data(as_text=True)


def test_a_reading_gives_its_slot_back_when_it_fails(app, client):
    app.config.update(PIPS_IN_FLIGHT=1, PIPS_WAIT_SECONDS=0)
    assert api(client, scene([]).data).status_code == 422  # unreadable
    assert api(client, b"not an image").status_code == 422
    assert photo_gate.gate(app).slots.acquire(blocking=False)


def test_files_refused_from_their_header_do_not_count_toward_the_rate(app, client, photo):
    """A .txt sent six times used to answer "Too many photos... wait 56 seconds": only
    readings that cost CPU count."""
    app.config["PIPS_PER_MINUTE"] = 2
    game = make_game()
    bob = seat_ids(game)["Bob"]
    for data in (b"notes.txt, not a photo", b"", b"\x89PNG\r\n\x1a\n" + b"\0" * 40) * 2:
        r = client.post(
            f"/g/{game.edit_token}/photo/{bob}",
            data={"photo": (io.BytesIO(data), "notes.txt")},
            content_type="multipart/form-data",
        )
        assert r.status_code == 422, r.status_code
    assert [api(client, photo).status_code for _ in range(3)] == [200, 200, 429]
    assert api(client, b"hello").status_code == 429  # the rate is still the rate


def test_an_unreadable_photo_still_counts(app, client):
    app.config["PIPS_PER_MINUTE"] = 1
    assert api(client, scene([]).data).status_code == 422  # read, found nothing: it cost
    assert api(client, scene([]).data).status_code == 429
