"""The JSON backup keeps audit lines as codes (issue 13): ``code`` and ``params`` are exported
and imported back (the lossless round trips of test_exchange.py cover an entry with them and
one without); they are optional, so a backup from before codes still imports."""

from __future__ import annotations

import json

from sqlalchemy import select

from companion.extensions import db
from companion.models import AuditEntry
from companion.services.exchange import export as exchange
from tests.history.exchange_fixture import build


def _game_a_audit(doc) -> list[dict]:
    return doc["nights"][0]["games"][0]["audit"]


def _fresh() -> None:
    db.session.remove()
    db.drop_all()
    db.create_all()


def test_an_entry_with_a_code_exports_it_and_one_without_is_written_as_before(app):
    build(db.session)
    old, coded = _game_a_audit(exchange.export_document(db.session))
    assert "code" not in old and "params" not in old
    assert coded["code"] == "round_corrected"
    assert coded["params"]["hands"][0] == {
        "name": "Chloé",
        "points": 7,
        "went_out": False,
        "by": "scorekeeper",
    }


def test_the_code_and_params_are_imported_back(app):
    build(db.session)
    doc = exchange.export_document(db.session)
    _fresh()
    assert exchange.import_document(db.session, doc).ok
    stored = db.session.scalars(select(AuditEntry).order_by(AuditEntry.at)).all()
    assert [(e.code, e.summary) for e in stored] == [
        (None, "Round 1"),
        ("round_corrected", "Chloé 8 → 7"),
    ]
    assert stored[1].params["double"] == 6


def test_a_backup_from_before_codes_still_imports(app):
    build(db.session)
    doc = exchange.export_document(db.session)
    for entry in _game_a_audit(doc):
        entry.pop("code", None)
        entry.pop("params", None)
    _fresh()
    report = exchange.import_document(db.session, json.dumps(doc))
    assert report.ok, report.problems
    assert {e.code for e in db.session.scalars(select(AuditEntry))} == {None}


def test_a_bad_code_or_params_are_refused_with_their_path(app):
    build(db.session)
    doc = exchange.export_document(db.session)
    _game_a_audit(doc)[1]["code"] = "Not a code!"
    _game_a_audit(doc)[1]["params"] = {"name": "C\x07"}
    _fresh()
    report = exchange.import_document(db.session, json.dumps(doc))
    assert not report.ok
    said = {
        p.path.removeprefix("$.nights[0].games[0].audit[1]."): p.message for p in report.problems
    }
    assert "small letters" in said["code"], said
    assert "control characters" in said["params"], said
