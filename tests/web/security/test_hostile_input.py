"""Hostile input found by an attack run (issue 8): open redirects, stored 500s from odd rulings,
numbers too large for any column, control characters in free text, spreadsheet formulas in CSV
exports. Each test failed before its fix."""

from __future__ import annotations

import csv
import io
import json

import pytest
from sqlalchemy import func, select

from companion.extensions import db
from companion.models import Game, GameNight, Player, Ruling
from companion.services.exchange import export as exchange
from companion.services.exchange import importing as exchange_import
from companion.web.redirects import same_site_path
from tests.web.setup_helpers import game_data, start_game, start_night

BIG = "9" * 400


def _count(model) -> int:
    return db.session.scalar(select(func.count()).select_from(model))


# --- 1. open redirects ------------------------------------------------------------------------

#: ``next`` values (as the query string carries them) that a browser would read as another site
#: or that carry characters no Location header may hold
HOSTILE_NEXT = [
    "/%09/evil.example",
    "/%0a/evil.example",
    "/%0d/evil.example",
    "%09//evil.example",
    "%20//evil.example",
    "/%5C/evil.example",
    "%5C%5Cevil.example",
    "/%5Cevil.example",
    "//evil.example",
    "///evil.example",
    "https://evil.example/",
    "https:/evil.example",
    "javascript:alert(1)",
    "/%00/evil.example",
    "evil.example",
]


def _browser_reads_as_same_site(location: str) -> bool:
    """What a browser does with a Location header (WHATWG URL): drop tab/CR/LF, strip ends,
    backslash = slash; same-site only when it is then a path starting with one slash."""
    seen = location.replace("\t", "").replace("\r", "").replace("\n", "").strip()
    seen = seen.replace("\\", "/")
    return seen.startswith("/") and not seen.startswith("//")


@pytest.mark.parametrize("target", HOSTILE_NEXT)
def test_passcode_next_never_leaves_the_site_without_a_passcode(client, target):
    response = client.get(f"/passcode?next={target}")
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


@pytest.mark.parametrize("target", HOSTILE_NEXT)
def test_passcode_next_never_leaves_the_site_after_the_passcode(app, target):
    app.config["COMPANION_PASSCODE"] = "sesame"
    client = app.test_client()
    page = client.get(f"/passcode?next={target}")
    assert page.status_code == 200
    response = client.post(f"/passcode?next={target}", data={"passcode": "sesame"})
    assert response.status_code == 303
    assert _browser_reads_as_same_site(response.headers["Location"])
    assert response.headers["Location"] == "/"


def test_passcode_next_cannot_add_a_header(client):
    response = client.get("/passcode?next=/%0d%0aSet-Cookie:%20x=1")
    assert response.status_code == 303
    assert "Set-Cookie" not in response.headers
    assert response.headers["Location"] == "/Set-Cookie:%20x=1"  # a harmless path on this site


def test_passcode_next_keeps_a_path_on_this_site(app):
    app.config["COMPANION_PASSCODE"] = "sesame"
    client = app.test_client()
    response = client.post("/passcode?next=/nights/new?x=1", data={"passcode": "sesame"})
    assert response.headers["Location"] == "/nights/new?x=1"
    hidden = client.post("/passcode", data={"passcode": "sesame", "next": "/\t/evil.example"})
    assert hidden.headers["Location"] == "/"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("/history/", "/history/"),
        ("/g/abc?x=1#y", "/g/abc?x=1#y"),
        ("/\t/evil.example", None),
        ("/\\evil.example", None),
        (" /history/", "/history/"),
        ("/his\ttory/", "/history/"),
        ("/\x00", "/"),
        ("/\x00/evil.example", None),
        ("", None),
        (None, None),
        ("/" + "a" * 5000, None),
    ],
)
def test_same_site_path_judges_after_browser_normalisation(raw, expected):
    assert same_site_path(raw) == expected


# --- 4. numbers and ids too large for any column ----------------------------------------------


@pytest.mark.parametrize(
    "field", ["chosen_spokes", "new-0-seat", "rules-hand_size_custom", "known-0-player_id"]
)
@pytest.mark.parametrize("number", [BIG, "-" + BIG, "2147483648", "1" + "0" * 30])
def test_huge_numbers_in_the_new_game_form_are_refused_in_words(client, field, number):
    night_id = start_night(client)
    data = game_data(["Ann", "Bob"], chosen_spokes=None)
    data[field] = number
    if field.startswith("known-"):
        data["known-0-plays"] = "y"
    response = client.post(f"/nights/{night_id}/games/new", data=data)
    assert response.status_code == 200
    assert _count(Game) == 0


def test_huge_numbers_in_the_deal_preview_are_not_an_error(client):
    night_id = start_night(client)
    data = game_data(["Ann", "Bob"], button="check")
    data["chosen_spokes"] = BIG
    response = client.post(
        f"/nights/{night_id}/games/preview", data=data, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        f"/checker/?ruling={BIG}",
        "/checker/?ruling=2147483648",
        f"/checker/rulings?ruling={BIG}",
        f"/history/players/1/merge?into={BIG}",
        "/history/players/1/merge?into=2147483648",
        f"/history/?page={BIG}",
        f"/history/?player={BIG}",
        f"/history/leaderboard?set_size={BIG}",
        f"/history/export.csv?game={BIG}",
        "/history/export.json?night=2147483648",
    ],
)
def test_huge_ids_in_query_strings_are_not_an_error(client, path):
    night_id = start_night(client)
    start_game(client, night_id, names=("Ann", "Bob"))
    response = client.get(path)
    assert response.status_code in (200, 404)


def test_merge_post_with_a_huge_id_is_refused_in_words(client):
    start_game(client, start_night(client), names=("Ann", "Bob"))
    response = client.post("/history/players/1/merge", data={"into": BIG})
    assert response.status_code == 200
    assert "Choose one of the players in the list." in response.text


# --- 5. control characters --------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["\x00", "\x07", "\x1b[31m", "\x7f", "\x85"])
def test_history_notes_refuse_control_characters_and_keep_what_was_typed(client, bad):
    night_id = start_night(client)
    response = client.post(f"/history/nights/{night_id}/notes", data={"notes": f"good{bad}game"})
    assert response.status_code == 400
    assert "invisible character that cannot be saved" in response.text
    assert "NUL" not in response.text and "control character" not in response.text
    assert "good" in response.text  # what was typed is shown again
    assert db.session.get(GameNight, night_id).notes == ""


def test_notes_keep_line_breaks_and_tabs_are_spaces(client):
    night_id = start_night(client)
    notes = "Line one\r\n\tLine two  \r\nthree"
    response = client.post(f"/history/nights/{night_id}/notes", data={"notes": notes})
    assert response.status_code == 303
    assert db.session.get(GameNight, night_id).notes == "Line one\n Line two\nthree"


@pytest.mark.parametrize(
    ("url", "field"),
    [("/nights/new", "place"), ("/nights/new", "notes")],
)
def test_night_forms_refuse_control_characters(client, url, field):
    response = client.post(url, data={"played_on": "2026-11-28", field: "Pub\x00"})
    assert response.status_code == 200
    assert "invisible character that cannot be saved" in response.text
    assert "NUL" not in response.text and "control character" not in response.text
    assert _count(GameNight) == 0


def test_night_page_notes_refuse_control_characters(client):
    night_id = start_night(client)
    response = client.post(f"/nights/{night_id}", data={"place": "Pub", "notes": "a\x00b"})
    assert response.status_code == 200
    assert "invisible character that cannot be saved" in response.text
    assert "NUL" not in response.text and "control character" not in response.text
    assert db.session.get(GameNight, night_id).place == ""


def test_rename_refuses_control_characters(client):
    start_game(client, start_night(client), names=("Ann", "Bob"))
    response = client.post("/history/players/1/rename", data={"name": "An\x00n"})
    assert "invisible characters" in response.text and "control character" not in response.text
    assert db.session.get(Player, 1).name == "Ann"


def test_import_cleans_control_characters_like_the_forms_so_old_backups_restore(client):
    night_id = start_night(client)
    start_game(client, night_id, names=("Ann", "Bob"))
    # Data stored before the rule existed (or by another tool) carries control characters.
    night = db.session.get(GameNight, night_id)
    night.notes, night.place = "first\x00line\nsecond\x07", "Pub\x1b"
    db.session.get(Player, 1).name = "A\x00nn"
    db.session.commit()
    backup = exchange.dumps(exchange.export_document(db.session))
    assert "\\u0000" in backup
    db.session.remove()
    db.drop_all()
    db.create_all()
    report = exchange_import.import_document(db.session, backup)
    assert report.ok, report.lines()
    assert report.cleaned == 3
    assert "Invisible control characters were removed from 3 text(s)." in report.lines()
    restored = db.session.scalars(select(GameNight)).one()
    assert (restored.notes, restored.place) == ("firstline\nsecond", "Pub")
    names = sorted(db.session.scalars(select(Player.name)))
    assert names == ["Ann", "Bob"]
    # ... and the cleaned data goes round again unchanged.
    again = exchange.dumps(exchange.export_document(db.session))
    assert exchange_import.import_document(db.session, again).ok


# --- 6. CSV formula injection -----------------------------------------------------------------

FORMULAS = ['=HYPERLINK("http://evil.example")', "+1+1", "-2+3", "@SUM(A1)", "\tx", " =1+1"]


@pytest.mark.parametrize("formula", FORMULAS)
def test_every_text_column_of_the_csv_export_is_neutralised(client, formula):
    night_id = start_night(client)
    token = start_game(client, night_id, names=("Ann", "Bob"))
    doc = exchange.export_document(db.session)
    game = doc["nights"][0]["games"][0]
    game["key"] = "k" + token[1:]  # a second copy of the game, imported under another key
    doc["nights"][0]["place"] = formula.strip()
    doc["players"][0]["name"] = formula.strip()
    game["rounds"] = [
        {
            "number": 1,
            "start_double": 9,
            "status": "scored",
            "outcome": "out",
            "starter": None,
            "created_at": "2026-11-28T20:00:00",
            "updated_at": "2026-11-28T20:00:00",
            "hands": [
                {"seat": 0, "points": 0, "went_out": True, "out_on_double": False, "tiles": None},
                {"seat": 1, "points": 5, "went_out": False, "out_on_double": False, "tiles": None},
            ],
        }
    ]
    db.session.remove()
    db.drop_all()
    db.create_all()
    report = exchange_import.import_document(db.session, json.loads(json.dumps(doc)))
    assert report.ok, report.lines()
    # A stored value of any text column that a spreadsheet would run as a formula.
    db.session.execute(Game.__table__.update().values(share_token=formula))
    db.session.commit()
    text = "".join(exchange.iter_csv(db.session))
    rows = list(csv.reader(io.StringIO(text)))
    assert len(rows) == 3
    for row in rows[1:]:
        for cell in row:
            assert cell.lstrip(" ")[:1] not in set("=+-@\t\r"), row


def test_import_refuses_a_game_key_that_is_not_a_link_key(client):
    night_id = start_night(client)
    start_game(client, night_id, names=("Ann", "Bob"))
    doc = exchange.export_document(db.session)
    doc["nights"][0]["games"][0]["key"] = '=HYPERLINK("http://evil.example")'
    report = exchange_import.import_document(db.session, json.loads(json.dumps(doc)))
    assert not report.ok
    assert any(p.path.endswith(".key") for p in report.problems)


# --- 2. rulings of an unexpected shape --------------------------------------------------------

ODD_QUESTIONS = [
    {"category": "placement", "input": {"round_scores": [1, 2]}},
    {"category": "placement", "input": []},
    {"category": "placement", "input": {"move": "9-5"}},
    {"category": "placement", "ruleset": [], "input": {}},
    {"category": "placement", "ruleset": {"preset": [], "overrides": 5}, "input": {}},
    {"category": "scoring", "input": {"round_scores": {"Ann": 5}}},
    {"category": "placement", "input": {"layout": {"center": "9-9", "tiles": "x"}}},
    {},
]


def _loose_ruling_doc(question) -> dict:
    return {
        "format": exchange_import.FORMAT,
        "players": [],
        "nights": [],
        "rulings": [
            {
                "created_at": "2026-11-28T20:00:00",
                "category": "placement",
                "question": question,
                "answer": {"legal": True, "rule": "5.2"},
                "rules": {},
                "summary": "An odd ruling",
            }
        ],
    }


@pytest.mark.parametrize("question", ODD_QUESTIONS)
def test_import_refuses_a_ruling_whose_question_the_checker_cannot_read(app, question):
    report = exchange_import.import_document(db.session, _loose_ruling_doc(question))
    assert not report.ok
    assert any(p.path.startswith("$.rulings[0]") for p in report.problems), report.lines()
    assert _count(Ruling) == 0


@pytest.mark.parametrize("question", ODD_QUESTIONS)
@pytest.mark.parametrize(
    "answer", [{"legal": True, "rule": "5.2"}, {"legal": "x", "error": 5}, {"rule": {"a": 1}}]
)
def test_pages_show_an_unreadable_ruling_and_it_can_be_deleted(client, question, answer):
    # Stored by another version, or by an import before rulings were checked strictly.
    ruling = Ruling(
        category="placement", question=question, answer=answer, rules={}, summary="Odd one"
    )
    db.session.add(ruling)
    db.session.commit()
    listing = client.get("/checker/rulings")
    assert listing.status_code == 200
    assert "Odd one" in listing.text
    delete_link = f"/checker/rulings/{ruling.id}/delete"
    assert delete_link in listing.text
    shown = client.get(f"/checker/?ruling={ruling.id}")
    assert shown.status_code == 200
    confirm = client.get(delete_link)
    assert confirm.status_code == 200
    assert client.post(delete_link).status_code == 303
    assert _count(Ruling) == 0


def test_an_unreadable_ruling_says_so(client):
    ruling = Ruling(
        category="placement",
        question={"category": "placement", "input": {"round_scores": [1]}},
        answer={},
        rules={},
        summary="Odd one",
    )
    db.session.add(ruling)
    db.session.commit()
    assert "cannot be read by this version" in client.get("/checker/rulings").text
    shown = client.get(f"/checker/?ruling={ruling.id}").text
    assert "cannot be read by this version" in shown
    assert f"/checker/rulings/{ruling.id}/delete" in shown


# --- the same on every backend (PostgreSQL refuses NUL outright) -------------------------------


def test_control_characters_never_reach_the_database_on_any_backend(db_app):
    client = db_app.test_client()
    night_id = start_night(client)
    response = client.post(f"/history/nights/{night_id}/notes", data={"notes": "a\x00b"})
    assert response.status_code == 400
    response = client.post(f"/nights/{night_id}", data={"place": "P\x00", "notes": ""})
    assert response.status_code == 200
    night = db.session.get(GameNight, night_id)
    assert (night.place, night.notes) == ("", "")
    start_game(client, night_id, names=("Ann", "Bob"))
    doc = exchange.export_document(db.session)
    doc["nights"][0]["notes"] = "old\x00notes"
    doc["nights"][0]["games"][0]["key"] = "another-key"
    report = exchange_import.import_document(db.session, exchange.dumps(doc))
    assert report.ok, report.lines()
    assert report.cleaned == 1


def test_the_upload_page_says_which_texts_were_cleaned(client):
    night_id = start_night(client)
    start_game(client, night_id, names=("Ann", "Bob"))
    doc = exchange.export_document(db.session)
    doc["nights"][0]["place"] = "Pub\x07"
    doc["nights"][0]["games"][0]["key"] = "another-key"
    upload = (io.BytesIO(exchange.dumps(doc).encode()), "backup.json")
    response = client.post(
        "/history/import", data={"file": upload}, content_type="multipart/form-data"
    )
    assert response.status_code == 200
    assert "Invisible control characters were removed from 1 name, place or note." in response.text
