"""A replayed outbox key with another upload is compared, not taken as the first (issue 21,
item 3): an import larger than the app's 1 MB body limit is digested once its view has read
it within its own bound (companion.web.idempotency.claim_upload), a smaller upload's
files are compared with its fields."""

from __future__ import annotations

import io

from companion.extensions import db
from companion.services.exchange import export as exchange
from companion.services.idempotency import HEADER, REPLAY_HEADER
from tests.history.exchange_fixture import build
from tests.history.test_exchange_web import fresh_database, games
from tests.web.playkit import make_game, text

KEY = "the-import-phones-key-01"
#: more than the app's MAX_CONTENT_LENGTH (1 MiB): the body is read by the import view only
LARGE = 1_200_000


def _backup(padding: int) -> bytes:
    """An export of the fixture's nights, with ``padding`` bytes of JSON whitespace after it."""
    build(db.session)
    data = exchange.dumps(exchange.export_document(db.session)).encode()
    fresh_database()
    return data + b" " * padding


def _a_phone(client):
    """The client as a phone with a device (an outbox key belongs to a phone)."""
    game = make_game(("Ann", "Bob"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200


def _upload(client, data: bytes):
    return client.post(
        "/history/import",
        data={"file": (io.BytesIO(data), "backup.json")},
        content_type="multipart/form-data",
        headers={HEADER: KEY},
    )


def test_a_large_import_replayed_with_another_file_says_the_first_was_kept(client, app):
    first_file, other_file = _backup(LARGE), _backup(LARGE + 10)
    _a_phone(client)
    first = _upload(client, first_file)
    assert first.status_code == 200 and "2 games, 4 rounds" in text(first)
    assert games() == 3  # the phone's own game and the two imported
    changed = _upload(client, other_file)
    assert changed.status_code == 409
    assert "The values sent first were kept; these were not saved." in text(changed)
    assert games() == 3
    # the same file again gets the first answer, and nothing is imported twice
    same = _upload(client, first_file)
    assert same.status_code == 200 and same.headers[REPLAY_HEADER] == "true"
    assert "already sent from this phone and taken" in text(same)
    assert games() == 3


def test_a_small_upload_replayed_with_another_file_is_compared_too(client, app):
    """A multipart body under 1 MB was compared on its fields only, not its files."""
    first_file, other_file = _backup(0), _backup(5)
    _a_phone(client)
    assert _upload(client, first_file).status_code == 200
    changed = _upload(client, other_file)
    assert changed.status_code == 409 and games() == 3
    assert _upload(client, first_file).headers[REPLAY_HEADER] == "true"
