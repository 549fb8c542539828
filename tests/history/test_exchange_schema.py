"""The declared import format (issue 9, finding 4):
``companion/services/exchange/schema/v1.json`` is a
valid JSON Schema, every export conforms to it, the import reports its failures with the same
``$.nights[0]…`` paths and words, and the schema is published next to the import page."""

from __future__ import annotations

import json
import re

import pytest
from jsonschema import Draft202012Validator

from companion.engine import CATEGORIES
from companion.extensions import db
from companion.services.exchange import export as exchange
from companion.services.exchange import importing as exchange_import
from companion.services.exchange import shape as exchange_schema

from .exchange_fixture import build


def test_the_schema_is_a_valid_json_schema():
    Draft202012Validator.check_schema(exchange_schema.schema())
    assert exchange_schema.schema()["properties"]["format"]["const"] == exchange.FORMAT


def test_the_schema_lists_the_engine_categories():
    """A ruling's category: the engine's list is the one home, the schema agrees with it."""
    ruling = exchange_schema.schema()["$defs"]["ruling"]["properties"]["category"]
    assert ruling["enum"] == list(CATEGORIES)


@pytest.mark.parametrize("scope", ["all", "night", "game"])
def test_every_export_conforms_to_the_schema(app, scope):
    rows = build(db.session)
    ids = {
        "all": {},
        "night": {"night_id": rows["night1"].id},
        "game": {"game_id": rows["game_a"].id},
    }
    doc = json.loads(exchange.dumps(exchange.export_document(db.session, **ids[scope])))
    assert doc["scope"] == scope
    assert list(exchange_schema.validator().iter_errors(doc)) == []
    assert exchange_schema.shape_problems(doc) == []


def test_an_export_with_the_audit_trail_of_real_round_saves_imports(app):
    """The audit trail keeps rounds as companion.services.round_store.round_snapshot writes
    them, who entered each hand included: a backup of any game with a saved round was refused
    by its own import ("entered_by is not a field of this format")."""
    from companion.models import AuditEntry
    from companion.services.round_store import EnteredBy, round_snapshot

    game = build(db.session)["game_a"]
    rnd = game.rounds[0]
    rnd.hands[0].entered_by = str(EnteredBy.PHONE)
    snapshot = round_snapshot(rnd)
    assert "entered_by" in snapshot["hands"][0]
    words = re.findall(r'"entered_by": \{"enum": \[([^]]*)\]', json.dumps(exchange_schema.schema()))
    assert words == [", ".join(["null", *(json.dumps(str(e)) for e in EnteredBy)])]
    game.audit.append(
        AuditEntry(action="round_corrected", summary="", before=snapshot, after=snapshot)
    )
    db.session.commit()
    doc = json.loads(exchange.dumps(exchange.export_document(db.session)))
    assert exchange_schema.shape_problems(doc) == []
    assert [str(p) for p in exchange_import.validate(doc)] == []


def test_a_demo_history_export_conforms_to_the_schema(db_app):
    from companion.history.demo import generate

    generate(db.session, games=8, nights=3, players=10, seed=7)
    doc = json.loads(exchange.dumps(exchange.export_document(db.session)))
    assert exchange_schema.shape_problems(doc) == []


@pytest.mark.parametrize(
    ("mutate", "path", "message"),
    [
        (lambda d: d["players"][0].update(name=""), "$.players[0].name", "must have 1 to 60"),
        (lambda d: d["players"][0].pop("created_at"), "$.players[0].created_at", "is missing."),
        (lambda d: d["nights"][0].update(place=5), "$.nights[0].place", "must be text."),
        (
            lambda d: d["nights"][0]["games"][0].update(status="lost"),
            "$.nights[0].games[0].status",
            "must be one of active, finished, not 'lost'.",
        ),
        (
            lambda d: d["nights"][0]["games"][0].update(key="no spaces"),
            "$.nights[0].games[0].key",
            "must be a game's link key",
        ),
        (
            lambda d: d["nights"][0]["games"][0]["rounds"][0]["hands"][0].update(went_out="yes"),
            "$.nights[0].games[0].rounds[0].hands[0].went_out",
            "must be true or false.",
        ),
        (
            lambda d: d["nights"][0].update(created_at="yesterday"),
            "$.nights[0].created_at",
            "must be a date and time like 2026-11-28T19:30:00.",
        ),
        (
            lambda d: d["nights"][0]["games"][0]["audit"][0]["after"].update(starter_seat_id=3),
            "$.nights[0].games[0].audit[0].after.starter_seat_id",
            "must be a seat",
        ),
    ],
)
def test_schema_failures_read_as_the_import_report(app, mutate, path, message):
    build(db.session)
    doc = exchange.export_document(db.session)
    mutate(doc)
    problems = [str(p) for p in exchange_import.validate(doc)]
    assert [p for p in problems if p.startswith(f"{path}: ")] != [], problems
    assert any(p.startswith(f"{path}: ") and message in p for p in problems), problems


def test_one_problem_per_place(app):
    """A value of the wrong type is told once ("must be text"), not also as too long or NUL."""
    build(db.session)
    doc = exchange.export_document(db.session)
    doc["players"][0]["name"] = ["x" * 100]
    problems = [str(p) for p in exchange_import.validate(doc)]
    assert [p for p in problems if p.startswith("$.players[0].name:")] == [
        "$.players[0].name: must be text."
    ]


def test_problems_come_in_document_order(app):
    build(db.session)
    doc = exchange.export_document(db.session)
    doc["nights"][1]["place"] = 1
    doc["players"][0]["name"] = 2
    doc["nights"][0]["notes"] = 3
    paths = [p.path for p in exchange_import.validate(doc)]
    assert paths == ["$.players[0].name", "$.nights[0].notes", "$.nights[1].place"]


def test_the_schema_is_published(client):
    response = client.get("/history/schema/v1.json")
    assert response.status_code == 200
    assert response.mimetype == "application/schema+json"
    assert response.get_json() == exchange_schema.schema()
    page = client.get("/history/import")  # the import page links it (everyone is host here)
    assert page.status_code == 200
    assert b'href="/history/schema/v1.json"' in page.data


def test_the_schema_limits_and_words_are_the_models_and_vocabularies():
    """The schema file is declarative JSON; its column limits and closed word lists must be
    the ones the models and companion/vocab.py declare (one home each), or an import would
    accept what the database cannot hold or refuse what the app writes."""
    from companion.models import NAME_MAX, NOTES_MAX, PLACE_MAX, SUMMARY_MAX, TOKEN_MAX
    from companion.vocab import GameStatus, RoundOutcome, RoundStatus

    defs = exchange_schema.schema()["$defs"]

    def prop(kind: str, name: str) -> dict:
        return defs[kind]["properties"][name]

    assert prop("player", "name")["maxLength"] == NAME_MAX
    assert prop("player", "name_key")["maxLength"] == NAME_MAX
    assert prop("player", "ref")["maxLength"] == TOKEN_MAX
    assert prop("night", "place")["maxLength"] == PLACE_MAX
    assert prop("night", "notes")["maxLength"] == NOTES_MAX
    assert prop("game", "key")["maxLength"] == TOKEN_MAX
    assert prop("game", "preset")["maxLength"] == TOKEN_MAX
    assert prop("audit_entry", "action")["maxLength"] == TOKEN_MAX
    assert prop("audit_entry", "summary")["maxLength"] == SUMMARY_MAX
    assert prop("ruling", "summary")["maxLength"] == SUMMARY_MAX
    assert set(prop("game", "status")["enum"]) == set(GameStatus)
    for kind in ("round", "round_snapshot"):
        assert set(prop(kind, "status")["enum"]) == set(RoundStatus)
        assert set(prop(kind, "outcome")["enum"]) == {None, *RoundOutcome}


#: values the two validators could read differently: bool for a number, 1.0 for a whole
#: number, NUL and newlines against patterns, lengths counted in characters, odd dates
_EDGE_VALUES = [
    True,
    1.0,
    1.5,
    -1,
    10**30,
    float("nan"),
    "",
    "x" * 60,
    "x" * 61,
    "é" * 60,
    "😀" * 60,
    "a\x00b",
    "a\n",
    "\n",
    "2026-02-30",
    "2026-11-28",
    "2026-11-28T19:30:00",
    "2026-11-28T19:30:00Z",
    "2026-11-28T19:30:00+02:00",
    "2026-11-28 19:30",
    "28.11.2026",
    None,
    [],
    {},
]


def _scalar_paths(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _scalar_paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:2]):  # the first two of each list reach every field
            yield from _scalar_paths(item, (*path, i))
    else:
        yield path


def test_the_quick_check_agrees_with_the_worded_one(app):
    """shape_problems answers "no problem" from jsonschema-rs alone: it must refuse every
    document jsonschema refuses (refusing more only costs the worded walk, whose answer
    stands). Every field of an export gets each edge value in turn."""
    build(db.session)
    base = json.loads(exchange.dumps(exchange.export_document(db.session)))
    quick, full = exchange_schema.quick_validator(), exchange_schema.validator()
    tried = 0
    for path in list(_scalar_paths(base)):
        for value in _EDGE_VALUES:
            doc = json.loads(json.dumps(base))
            parent = doc
            for part in path[:-1]:
                parent = parent[part]
            parent[path[-1]] = value
            if any(True for _ in full.iter_errors(doc)):
                assert not quick.is_valid(doc), (path, value)
                assert exchange_schema.shape_problems(doc) != [], (path, value)
            tried += 1
    assert tried > 1000
