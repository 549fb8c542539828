"""Audit lines stored as codes plus parameters and worded in the READER's language (issue 13):
a trail written from an English phone reads in Lithuanian on a Lithuanian phone; entries from
before codes keep showing the sentence they were stored with; nothing shows a raw code."""

from __future__ import annotations

import pytest
from flask_babel import refresh
from sqlalchemy import select

from companion.extensions import db
from companion.models import AuditEntry
from companion.vocab import AuditCode
from tests.web.playkit import make_game, round_post, text

pytestmark = pytest.mark.usefixtures("fresh_translations")

EN = {"Accept-Language": "en"}
LT = {"Accept-Language": "lt"}
RU = {"Accept-Language": "ru"}


def entries(game) -> list[AuditEntry]:
    return list(
        db.session.scalars(
            select(AuditEntry).where(AuditEntry.game_id == game.id).order_by(AuditEntry.id)
        )
    )


def get(client, path: str, headers):
    """A page in a language: the test's app context is shared by its requests, and
    Flask-Babel keeps the locale and catalog of the first one there (in ``g``)."""
    refresh()
    return client.get(path, headers=headers)


def audit_text(client, game, headers) -> str:
    return text(get(client, f"/g/{game.edit_token}/audit", headers))


def test_a_round_is_stored_as_a_code_and_read_in_the_readers_language(client):
    game = make_game()
    data = round_post(game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=data, headers=EN).status_code == 303
    (saved,) = entries(game)
    assert saved.code == AuditCode.ROUND_SAVED
    assert saved.params["number"] == 1 and saved.params["double"] == 6
    assert [(h["name"], h["points"], h["went_out"]) for h in saved.params["hands"]] == [
        ("Ann", 0, True),
        ("Bob", 12, False),
        ("Cy", 5, False),
    ]
    assert saved.summary.startswith("Round 1 (6-6) saved: Ann 0")  # the writer's words, kept
    lithuanian = audit_text(client, game, LT)
    assert "Raundas 1 (6-6) išsaugotas: Ann 0" in lithuanian
    assert "saved:" not in lithuanian and "(went out)" not in lithuanian
    assert "Round 1 (6-6) saved: Ann 0 (went out), Bob 12, Cy 5" in audit_text(client, game, EN)


def test_an_undo_reads_in_the_readers_language_with_the_line_it_undid(client):
    game = make_game()
    client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 3, "Cy": 4}, out="Ann"),
    )
    version = str(game.version)
    r = client.post(f"/g/{game.edit_token}/undo", data={"version": version}, headers=EN)
    assert r.status_code == 303
    undo = entries(game)[-1]
    assert undo.code == AuditCode.UNDONE
    assert undo.params["what"]["code"] == AuditCode.ROUND_SAVED
    get(client, f"/g/{game.edit_token}", EN)  # shows (and so clears) the English flash
    russian = audit_text(client, game, RU)
    assert "Отменено: Раунд 1 (6-6) сохранён" in russian
    assert "Undone" not in russian


def test_the_undo_button_words_the_last_change_in_the_readers_language(client):
    game = make_game()
    client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 3, "Cy": 4}, out="Ann"),
    )
    page = get(client, f"/g/{game.edit_token}", LT).get_data(as_text=True)
    assert "Raundas 1 (6-6) išsaugotas" in page and "Round 1 (6-6) saved" not in page


def test_entries_from_before_codes_and_unreadable_ones_keep_their_sentence(client):
    game = make_game()
    db.session.add_all(
        [
            AuditEntry(game=game, action="note", summary="A sentence from an old version"),
            AuditEntry(game=game, action="secret_action", summary=""),
            AuditEntry(game=game, action="x", code="from_a_newer_app", summary="Newer words"),
            AuditEntry(game=game, action="x", code="round_saved", params={"k": 1}, summary="Odd"),
            AuditEntry(game=game, action="x", code="undone", params="not an object", summary=""),
        ]
    )
    db.session.commit()
    for headers in (EN, LT):
        page = audit_text(client, game, headers)
        assert "A sentence from an old version" in page
        assert "Newer words" in page and "Odd" in page
        assert "secret_action" not in page and "from_a_newer_app" not in page
    assert audit_text(client, game, EN).count("A change to the game.") == 2


def test_every_writer_stores_a_code_the_reader_words(client):
    """A burned double and the auto-save setting: each entry has a
    code, and its line in Russian differs from the English one (it went through the catalog)."""
    from companion.services.audit import entry_words

    game = make_game(missing_start_double="skip_to_next_lower")
    token = game.edit_token
    client.post(f"/g/{token}/burn", data={"version": str(game.version), "double": "6"})
    client.post(f"/g/{token}/auto-save", data={"on": "1"})
    for entry in entries(game):
        assert entry.code in set(AuditCode), entry.action
        with client.application.test_request_context(headers=EN):
            refresh()
            english = entry_words(entry)
        with client.application.test_request_context(headers=RU):
            refresh()
            assert entry_words(entry) != english, entry.code


def test_undoing_an_entry_from_before_codes_keeps_its_sentence(client):
    game = make_game()
    client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 3, "Cy": 4}, out="Ann"),
    )
    (saved,) = entries(game)
    saved.code, saved.params, saved.summary = None, None, "Old words for round 1"
    db.session.commit()
    r = client.post(f"/g/{game.edit_token}/undo", data={"version": str(game.version)})
    assert r.status_code == 303
    undo = entries(game)[-1]
    assert undo.params == {"what": {"summary": "Old words for round 1"}}
    get(client, f"/g/{game.edit_token}", EN)  # clears the flash
    assert "Отменено: Old words for round 1" in audit_text(client, game, RU)
