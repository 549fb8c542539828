"""Export and import of the history (companion.services.exchange.export): CSV rows checked by hand,
lossless JSON round trips on SQLite and PostgreSQL, idempotent and partial imports, refusals."""

from __future__ import annotations

import copy
import csv
import io
import json
from collections import Counter

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError

from companion.extensions import db
from companion.models import AuditEntry, Game, GameNight, HandScore, Player, Round, Ruling, Seat
from companion.services.exchange import export as exchange
from companion.services.exchange import importing as exchange_import
from tests.history.exchange_fixture import build

MODELS = (Player, GameNight, Game, Seat, Round, HandScore, AuditEntry, Ruling)


def counts() -> dict[str, int]:
    """Rows per table."""
    return {m.__tablename__: db.session.scalar(select(func.count()).select_from(m)) for m in MODELS}


def fresh_database() -> None:
    """Empty every table (the same server, a brand-new schema)."""
    db.session.remove()
    db.drop_all()
    db.create_all()


def csv_rows(**scope) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO("".join(exchange.iter_csv(db.session, **scope)))))


def test_constraint_names_are_unique_so_postgresql_accepts_the_schema(app):
    # PostgreSQL refuses two constraints with one name in a schema; SQLite does not mind, so
    # check it here too, where no PostgreSQL server is needed.
    names = Counter(str(c.name) for table in db.metadata.tables.values() for c in table.constraints)
    assert [n for n, k in names.items() if k > 1] == []


# --- CSV -------------------------------------------------------------------------------------


def test_csv_has_one_row_per_player_per_scored_round(app):
    rows = build(db.session)
    game_a = rows["game_a"].id
    got = csv_rows(game_id=game_a)
    # Hand-checked: round 2 (5-5) was burned, so it has no rows; totals run per seat.
    expected = [
        ("1", "6-6", "Anna", "1", "0", "1", "0", "0", ""),
        ("1", "6-6", "Bob", "2", "12", "0", "0", "12", "5-4 2-1"),
        ("1", "6-6", "Chloé", "3", "7", "0", "0", "7", ""),
        ("3", "4-4", "Anna", "1", "3", "0", "0", "3", ""),
        ("3", "4-4", "Bob", "2", "0", "1", "0", "12", ""),
        ("3", "4-4", "Chloé", "3", "10", "0", "0", "17", ""),
    ]
    keys = ("round_number", "round_double", "player", "seat", "score", "went_out")
    keys += ("out_on_double", "total", "tiles")
    assert [tuple(r[k] for k in keys) for r in got] == expected
    assert {(r["night_date"], r["night_place"], r["game_id"], r["set"]) for r in got} == {
        ("2026-11-20", "Kitchen", str(game_a), "double-6")
    }
    assert list(got[0]) == list(exchange.CSV_COLUMNS)


def test_csv_of_everything_follows_merges_and_defuses_formulas(app):
    build(db.session)
    got = csv_rows()
    assert len(got) == 8
    night2 = [r for r in got if r["night_date"] == "2026-11-27"]
    # Bobby was merged into Bob: his history is Bob's. "=Club" must not become a formula.
    assert [(r["player"], r["score"], r["went_out"], r["out_on_double"]) for r in night2] == [
        ("Anna", "20", "0", "0"),
        ("Bob", "50", "1", "1"),
    ]
    assert {r["night_place"] for r in night2} == {"'=Club"}


def test_csv_of_a_night_and_unknown_scopes(app):
    rows = build(db.session)
    assert len(csv_rows(night_id=rows["night2"].id)) == 2
    with pytest.raises(exchange.NotFound):
        exchange.iter_csv(db.session, game_id=999)
    with pytest.raises(exchange.NotFound):
        exchange.export_document(db.session, night_id=999)


def test_deleted_games_are_not_exported(app):
    from datetime import datetime

    rows = build(db.session)
    rows["game_b"].deleted_at = datetime(2026, 11, 28)
    db.session.commit()
    doc = exchange.export_document(db.session)
    keys = [g["key"] for n in doc["nights"] for g in n["games"]]
    assert keys == ["share-game-a"]
    with pytest.raises(exchange.NotFound):
        exchange.export_document(db.session, game_id=rows["game_b"].id)


# --- JSON: shape, round trip, idempotence ----------------------------------------------------


def test_json_document_carries_no_database_ids_or_edit_tokens(app):
    build(db.session)
    doc = exchange.export_document(db.session)
    text = exchange.dumps(doc)
    assert doc["format"] == "chickenfoot-companion/v1"
    assert "edit-game-a" not in text and '"id"' not in text and "version" not in text
    players = {p["ref"]: p for p in doc["players"]}
    bobby = next(p for p in doc["players"] if p["name"] == "Bobby")
    assert players[bobby["merged_into"]]["name"] == "Bob"
    game_a = doc["nights"][0]["games"][0]
    assert game_a["rounds"][0]["starter"] == 1
    assert game_a["rounds"][0]["hands"][1]["tiles"] == ["5-4", "2-1"]
    assert game_a["rounds"][1]["status"] == "burned"
    assert [a["undone"] for a in game_a["audit"]] == [False, True]
    snapshot = game_a["audit"][0]["after"]  # seats by position, not by database id
    assert snapshot["starter_seat_id"] == {"$seat": 1}
    assert snapshot["hands"][0]["seat_id"] == {"$seat": 2}
    assert game_a["rulings"][0]["summary"] == "6-3 may be played on the 6-6."
    assert [r["summary"] for r in doc["rulings"]] == ["The double-blank counts 50."]


def test_game_scope_keeps_the_merge_chain(app):
    rows = build(db.session)
    doc = exchange.export_document(db.session, game_id=rows["game_b"].id)
    assert doc["scope"] == "game"
    assert sorted(p["name"] for p in doc["players"]) == ["Anna", "Bob", "Bobby"]
    assert doc["rulings"] == []


@pytest.mark.parametrize("scope", ["all", "night", "game"])
def test_round_trip_is_lossless(db_app, scope):
    rows = build(db.session)
    args = {"all": {}, "night": {"night_id": rows["night1"].id}, "game": {"game_id": 2}}[scope]
    before = exchange.dumps(exchange.export_document(db.session, **args))
    fresh_database()
    report = exchange.import_document(db.session, before)
    assert report.ok, report.problems
    again = exchange.export_document(
        db.session, **({"night_id": 1} if scope == "night" else {"game_id": 1} if args else {})
    )
    assert exchange.dumps(again) == before


def test_round_trip_counts_and_reimport_is_a_no_op(db_app):
    build(db.session)
    text = exchange.dumps(exchange.export_document(db.session))
    original = counts()
    fresh_database()
    first = exchange.import_document(db.session, text)
    assert dict(first.added) == {
        "players": 4,
        "nights": 2,
        "games": 2,
        "rounds": 4,
        "rulings": 2,
    }
    assert counts() == original
    second = exchange.import_document(db.session, text)
    assert second.ok and sum(second.added.values()) == 0
    assert dict(second.kept) == {"players": 4, "nights": 2, "games": 2, "rulings": 1}
    assert counts() == original
    assert exchange.dumps(exchange.export_document(db.session)) == text


def test_reimport_into_the_source_database_adds_nothing(db_app):
    build(db.session)
    original = counts()
    report = exchange.import_document(db.session, exchange.export_document(db.session))
    assert report.ok and sum(report.added.values()) == 0
    assert counts() == original


def test_partial_overlap_adds_only_what_is_new(db_app):
    rows = build(db.session)
    everything = exchange.dumps(exchange.export_document(db.session))
    only_a = exchange.export_document(db.session, game_id=rows["game_a"].id)
    fresh_database()
    assert exchange.import_document(db.session, only_a).ok
    assert counts()["games"] == 1 and counts()["players"] == 3
    report = exchange.import_document(db.session, everything)
    assert report.ok
    assert report.added["games"] == 1 and report.kept["games"] == 1
    assert report.added["nights"] == 1 and report.kept["nights"] == 1
    assert report.added["players"] == 1 and report.kept["players"] == 3  # only Bobby is new
    assert exchange.dumps(exchange.export_document(db.session)) == everything


def test_audit_snapshots_point_at_the_imported_seats(db_app):
    rows = build(db.session)
    doc = exchange.export_document(db.session, game_id=rows["game_a"].id)
    fresh_database()
    db.session.add(Player(name="Zed", name_key="zed"))  # shift the ids a little
    db.session.commit()
    assert exchange.import_document(db.session, doc).ok
    game = db.session.scalars(select(Game)).one()
    seats = {seat.position: seat.id for seat in game.seats}
    after = game.audit[0].after
    assert after["starter_seat_id"] == seats[1]
    assert after["hands"][0]["seat_id"] == seats[2]


def test_existing_players_are_matched_by_name(app):
    build(db.session)
    doc = exchange.export_document(db.session)
    fresh_database()
    db.session.add(Player(name="ANNA", name_key="anna"))
    db.session.commit()
    report = exchange.import_document(db.session, doc)
    assert report.ok
    assert db.session.scalars(select(Player.name).where(Player.name_key == "anna")).all() == [
        "ANNA"
    ]


def test_a_database_error_rolls_everything_back(app, monkeypatch):
    build(db.session)
    doc = exchange.export_document(db.session)
    fresh_database()

    def broken(self, batch):
        raise SQLAlchemyError("disk full")

    monkeypatch.setattr(exchange_import._Writer, "_games", broken)
    report = exchange.import_document(db.session, doc)
    assert not report.ok and "disk full" in report.problems[0].message
    assert set(counts().values()) == {0}


# --- refusals --------------------------------------------------------------------------------


def _game_a(doc):
    return doc["nights"][0]["games"][0]


def _seat_to_unknown(doc):
    _game_a(doc)["seats"][2]["player"] = "p99"


def _tile_outside(doc):
    _game_a(doc)["rounds"][0]["hands"][1]["tiles"] = ["7-1"]


def _duplicate_tile(doc):
    _game_a(doc)["rounds"][0]["hands"][2]["tiles"] = ["4-5"]


def _negative(doc):
    _game_a(doc)["rounds"][2]["hands"][0]["points"] = -3


def _bad_rule(doc):
    _game_a(doc)["rules"]["double_blank_value"] = "lots"


def _seat_collision(doc):
    _game_a(doc)["seats"][1]["position"] = 0


def _centre_double(doc):
    _game_a(doc)["rounds"][0]["hands"][2]["tiles"] = ["6-6"]


def _merge_loop(doc):
    bob = next(p for p in doc["players"] if p["name"] == "Bob")
    bobby = next(p for p in doc["players"] if p["name"] == "Bobby")
    bob["merged_into"] = bobby["ref"]


def _burned_with_hands(doc):
    _game_a(doc)["rounds"][1]["hands"] = [copy.deepcopy(_game_a(doc)["rounds"][0]["hands"][2])]


def _two_went_out(doc):
    _game_a(doc)["rounds"][2]["hands"][2]["went_out"] = True


def _bad_date(doc):
    doc["nights"][1]["played_on"] = "27/11/2026"


def _bad_set(doc):
    _game_a(doc)["set_size"] = 7


def _nul_in_ruling(doc):
    # Free text (names, place, notes) is cleaned on import instead (test_hostile_input.py).
    _game_a(doc)["rulings"][0]["question"]["input"]["move"]["on"] = "C\x00"


def _audit_seat_unknown(doc):
    _game_a(doc)["audit"][0]["after"]["starter_seat_id"] = {"$seat": 7}


def _one_seat(doc):
    game_b = doc["nights"][1]["games"][0]
    game_b["seats"] = game_b["seats"][:1]
    game_b["rounds"][0]["hands"] = game_b["rounds"][0]["hands"][:1]


def _duplicate_key(doc):
    doc["nights"][1]["games"][0]["key"] = "share-game-a"


REFUSALS = [
    (_seat_to_unknown, "$.nights[0].games[0].seats[2].player", "unknown player"),
    (_tile_outside, "$.nights[0].games[0].rounds[0].hands[1].tiles[0]", "not in a double-6"),
    (
        _duplicate_tile,
        "$.nights[0].games[0].rounds[0].hands[2].tiles[0]",
        "can't be in both Bob's and Chloé's hands",
    ),
    (_negative, "$.nights[0].games[0].rounds[2].hands[0].points", "between 0"),
    (_bad_rule, "$.nights[0].games[0].rules.double_blank_value", ""),
    (_seat_collision, "$.nights[0].games[0].seats[1].position", "taken by two"),
    (_centre_double, "$.nights[0].games[0].rounds[0].hands[2].tiles", "centre double"),
    (_merge_loop, ".merged_into", "lead back"),
    (_burned_with_hands, "$.nights[0].games[0].rounds[1].hands", "burned"),
    (
        _two_went_out,
        "$.nights[0].games[0].rounds[2].hands[2].went_out",
        "round 3 (the 4-4): Chloé went out too, but Bob already went out.",
    ),
    (_bad_date, "$.nights[1].played_on", "date"),
    (_bad_set, "$.nights[0].games[0].set_size", "double-6, 9"),
    (_duplicate_key, "$.nights[1].games[0].key", "another game"),
    (_one_seat, "$.nights[1].games[0].seats", "2 to 12 players"),
    (_nul_in_ruling, "$.nights[0].games[0].rulings[0].question", "control characters"),
    (_audit_seat_unknown, "$.nights[0].games[0].audit[0].after.starter_seat_id", "no seat 7"),
]


@pytest.mark.parametrize(
    ("mutate", "path", "words"), REFUSALS, ids=[m.__name__.strip("_") for m, _, _ in REFUSALS]
)
def test_inconsistent_files_are_refused_with_the_path_and_nothing_is_imported(
    app, mutate, path, words
):
    build(db.session)
    doc = exchange.export_document(db.session)
    mutate(doc)
    fresh_database()
    report = exchange.import_document(db.session, json.dumps(doc))
    assert not report.ok
    assert any(p.path.endswith(path) and words in p.message for p in report.problems), [
        str(p) for p in report.problems
    ]
    assert set(counts().values()) == {0}
    assert report.lines()[0].startswith("Refused:")


def _too_many_points(doc):
    _game_a(doc)["rounds"][0]["hands"][2]["points"] = 9999  # Chloé, a typed total


def _points_against_tiles(doc):
    _game_a(doc)["rounds"][0]["hands"][1]["points"] = 1  # Bob holds 5-4 2-1: 12 points


def _blocked_with_one_out(doc):
    _game_a(doc)["rounds"][0]["outcome"] = "blocked"  # yet Anna went out


JUDGED = [
    (_too_many_points, "Chloé: 9999 is more than any hand could hold in this game (at most"),
    (_points_against_tiles, "Bob: the tiles 5-4 2-1 add up to 12 points, not 1."),
    (_blocked_with_one_out, "A blocked round has nobody going out"),
]


@pytest.mark.parametrize(
    ("mutate", "words"), JUDGED, ids=[m.__name__.strip("_") for m, _ in JUDGED]
)
def test_rounds_the_round_form_would_refuse_are_refused_in_words(app, mutate, words):
    """Import judges each scored round with the round form's checks: a hand's points within
    the set's bound and agreeing with its tiles, the round's end; the message names the night,
    game and round in words (and the player, as the form does), and nothing is imported."""
    build(db.session)
    doc = exchange.export_document(db.session)
    mutate(doc)
    fresh_database()
    report = exchange.import_document(db.session, json.dumps(doc))
    assert len(report.problems) == 1, [str(p) for p in report.problems]
    message = report.problems[0].message
    assert message.startswith("Game night of November 20, 2026, game 1, round 1 (the 6-6): ")
    assert words in message
    assert set(counts().values()) == {0}


def test_every_problem_is_reported_at_once(app):
    build(db.session)
    doc = exchange.export_document(db.session)
    _tile_outside(doc)
    _negative(doc)
    _bad_rule(doc)
    doc["nights"][0]["surprise"] = 1
    problems = exchange_import.validate(doc)
    assert len(problems) == 4
    assert (
        "$.nights[0].surprise: Game night of November 20, 2026: is not a field of this format."
        in [str(p) for p in problems]
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        (b"\xff\xfe\x00", "not UTF-8"),
        ('{"format": "chickenfoot-companion/v2", "players": [], "nights": []}', "v1"),
        ("[1, 2]", "must be an object"),
        ('{"format": "chickenfoot-companion/v1"}', "is missing"),
    ],
)
def test_malformed_files_are_refused(app, text, message):
    report = exchange.import_document(db.session, text)
    assert not report.ok
    assert any(message in p.message for p in report.problems), report.problems
    assert set(counts().values()) == {0}


def test_demo_history_round_trips(db_app):
    from companion.history.demo import generate

    summary = generate(db.session, games=8, nights=3, players=10, seed=7)
    assert (summary.games, summary.nights, summary.players) == (8, 3, 10)
    text = exchange.dumps(exchange.export_document(db.session))
    fresh_database()
    report = exchange.import_document(db.session, text)
    assert report.ok and report.added["rounds"] == summary.rounds
    assert exchange.dumps(exchange.export_document(db.session)) == text
    # ids came from the database, so a game added the ordinary way still gets a free id
    db.session.add(Game(night_id=1, rules={}, share_token="s-new", edit_token="e-new"))
    db.session.commit()


def test_import_restores_a_deleted_night_and_game_from_the_backup(db_app):
    """A backup undoes a deletion: the matching soft-deleted night and game come back."""
    rows = build(db.session)
    night = rows["night2"]
    doc = exchange.export_document(db.session, night_id=night.id)
    game = db.session.scalars(select(Game).where(Game.night_id == night.id)).first()
    night.deleted_at = exchange_import.to_datetime("2026-01-01T00:00:00")
    game.deleted_at = exchange_import.to_datetime("2026-01-01T00:00:00")
    db.session.commit()
    original = counts()
    report = exchange.import_document(db.session, doc)
    assert report.ok and sum(report.added.values()) == 0
    assert dict(report.restored) == {"nights": 1, "games": 1}
    assert report.kept["nights"] == 0 and report.kept["games"] == 0
    assert any("Restored" in line for line in report.lines())
    db.session.expire_all()
    assert db.session.get(GameNight, night.id).deleted_at is None
    assert db.session.get(Game, game.id).deleted_at is None
    assert counts() == original
    again = exchange.import_document(db.session, doc)
    assert not again.restored and again.kept["nights"] == 1
