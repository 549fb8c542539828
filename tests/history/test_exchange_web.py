"""Export/import from the command line (Flask's CliRunner), the download routes and the upload
page (CSRF on and off, size bound, refusals import nothing)."""

from __future__ import annotations

import csv
import html
import io
import json
import re

import pytest
from flask import render_template_string
from flask_babel import refresh
from sqlalchemy import func, select

from companion.extensions import db
from companion.models import Game, Player
from companion.services.exchange import export as exchange
from tests.history.exchange_fixture import build


def games() -> int:
    return db.session.scalar(select(func.count()).select_from(Game))


def fresh_database() -> None:
    db.session.remove()
    db.drop_all()
    db.create_all()


# --- command line ------------------------------------------------------------------------------


def test_cli_exports_json_and_imports_it_into_a_fresh_database(app, tmp_path):
    build(db.session)
    runner = app.test_cli_runner()
    target = tmp_path / "all.json"
    result = runner.invoke(args=["export", "--format", "json", "-o", str(target)])
    assert result.exit_code == 0, result.output
    original = target.read_text(encoding="utf-8")
    assert json.loads(original)["format"] == exchange.FORMAT
    fresh_database()
    result = runner.invoke(args=["import", str(target)])
    assert result.exit_code == 0, result.output
    assert "added 4 players, 2 nights, 2 games, 4 rounds, 2 rulings" in result.output
    again = runner.invoke(args=["export"])  # JSON to stdout by default
    assert again.output == original
    result = runner.invoke(args=["import", str(target)])
    assert "added 0 players, 0 nights, 0 games" in result.output and games() == 2


def test_cli_exports_csv_of_one_game_and_one_night(app):
    rows = build(db.session)
    runner = app.test_cli_runner()
    out = runner.invoke(args=["export", "--format", "csv", "--game", str(rows["game_a"].id)])
    assert out.exit_code == 0
    lines = list(csv.reader(io.StringIO(out.output)))
    assert lines[0] == list(exchange.CSV_COLUMNS) and len(lines) == 7
    out = runner.invoke(args=["export", "--format", "csv", "--night", str(rows["night2"].id)])
    assert len(list(csv.reader(io.StringIO(out.output)))) == 3


def test_cli_refuses_unknown_ids_and_bad_files(app, tmp_path):
    build(db.session)
    runner = app.test_cli_runner()
    result = runner.invoke(args=["export", "--game", "999"])
    assert result.exit_code != 0 and "There is no game 999" in result.output
    result = runner.invoke(args=["export", "--game", "1", "--night", "1"])
    assert result.exit_code != 0
    bad = tmp_path / "bad.json"
    doc = exchange.export_document(db.session)
    doc["nights"][0]["games"][0]["rounds"][0]["hands"][1]["tiles"] = ["9-9"]
    bad.write_text(json.dumps(doc))
    fresh_database()
    result = runner.invoke(args=["import", str(bad)])
    assert result.exit_code == 1
    assert "Refused: 1 problem(s) found; nothing was imported." in result.output
    assert "$.nights[0].games[0].rounds[0].hands[1].tiles[0]" in result.output
    assert games() == 0


def test_cli_demo_data_adds_finished_games_that_export_cleanly(app):
    result = app.test_cli_runner().invoke(args=["demo-data", "--games", "12", "--players", "9"])
    assert result.exit_code == 0, result.output
    assert "Added 12 games over 1 nights" in result.output
    assert db.session.scalar(select(func.count()).select_from(Player)) == 9
    doc = exchange.export_document(db.session)
    from companion.services.exchange.importing import validate

    assert validate(doc) == []  # engine-valid tiles, sets and house rules throughout
    statuses = {g["status"] for n in doc["nights"] for g in n["games"]}
    assert statuses == {"finished"}


# --- download routes -------------------------------------------------------------------------


def test_csv_download_is_an_attachment(client, app):
    rows = build(db.session)
    response = client.get(f"/history/export.csv?game={rows['game_a'].id}")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    disposition = response.headers["Content-Disposition"]
    assert re.fullmatch(
        r'attachment; filename="chickenfoot-game-\d+-\d{4}-\d\d-\d\d\.csv"', disposition
    )
    text = response.get_data(as_text=True)
    game_id = rows["game_a"].id
    assert text.splitlines()[2] == (
        f"2026-11-20,Kitchen,{game_id},1,share-game-a,double-6,1,6-6,Bob,2,12,0,0,12,5-4 2-1"
    )


def test_json_download_of_a_night_and_of_everything(client, app):
    rows = build(db.session)
    response = client.get(f"/history/export.json?night={rows['night2'].id}")
    assert response.status_code == 200 and response.mimetype == "application/json"
    night2 = rows["night2"]
    named = f'filename="chickenfoot-night-{night2.id}-{night2.played_on.isoformat()}.json"'
    assert named in response.headers["Content-Disposition"]  # the night's date, not today's
    doc = response.get_json()
    assert doc["scope"] == "night" and [n["place"] for n in doc["nights"]] == ["=Club"]
    everything = client.get("/history/export.json")
    assert 'filename="chickenfoot-all-' in everything.headers["Content-Disposition"]
    assert everything.get_data(as_text=True) == exchange.dumps(exchange.export_document(db.session))


@pytest.mark.parametrize(
    "query", ["game=999", "night=999", "game=abc", "night=-1", "game=1&night=1", "game=%C2%B2"]
)
def test_downloads_of_unknown_scopes_are_404(client, app, query):
    build(db.session)
    assert client.get(f"/history/export.json?{query}").status_code == 404
    assert client.get(f"/history/export.csv?{query}").status_code == 404


def test_export_links_template_points_at_the_scope(app):
    rows = build(db.session)
    template = '{% include "history/_export_links.html" %}'
    with app.test_request_context():
        for_game = render_template_string(template, game=rows["game_a"])
        for_night = render_template_string(template, night=rows["night1"])
        for_all = render_template_string(template)
    assert f"/history/export.csv?game={rows['game_a'].id}" in for_game
    assert f"/history/export.json?night={rows['night1'].id}" in for_night
    assert 'href="/history/export.json"' in for_all and "/history/import" in for_all


# --- upload page -----------------------------------------------------------------------------


def _upload(client, data: bytes, **extra):
    return client.post(
        "/history/import",
        data={"file": (io.BytesIO(data), "backup.json"), **extra},
        content_type="multipart/form-data",
    )


def test_upload_imports_and_shows_the_report(client, app):
    build(db.session)
    text = exchange.dumps(exchange.export_document(db.session)).encode()
    fresh_database()
    assert client.get("/history/import").status_code == 200
    response = _upload(client, text)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Added: 4 players, 2 game nights, 2 games, 8 rounds" not in page
    assert "Added: 4 players, 2 game nights, 2 games, 4 rounds, 2 rulings." in page
    assert games() == 2
    again = _upload(client, text).get_data(as_text=True)
    assert "Added: 0 players, 0 game nights, 0 games" in again and games() == 2


def test_the_importing_browser_keeps_score_for_unfinished_imported_games(client, app):
    from tests.web.table_helpers import kept_tokens

    build(db.session)
    text = exchange.dumps(exchange.export_document(db.session)).encode()
    fresh_database()
    assert _upload(client, text).status_code == 200
    game_b = db.session.scalars(select(Game).where(Game.share_token == "share-game-b")).one()
    assert game_b.edit_token != "edit-game-b"  # edit links do not travel
    assert kept_tokens(client) == [game_b.edit_token]  # game A is finished
    assert client.get(f"/g/{game_b.edit_token}").status_code == 200


def test_refused_upload_names_the_problem_and_imports_nothing(client, app):
    build(db.session)
    doc = exchange.export_document(db.session)
    doc["nights"][0]["games"][0]["seats"][1]["position"] = 0
    fresh_database()
    response = _upload(client, json.dumps(doc).encode())
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Nothing was imported" in page
    assert "$.nights[0].games[0].seats[1].position" in page and "taken by two" in page
    assert games() == 0
    assert _upload(client, b"{oops").status_code == 422 and games() == 0


def test_upload_without_a_file_is_a_form_error(client, app):
    response = client.post("/history/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert "Choose a file." in response.get_data(as_text=True)


@pytest.fixture()
def csrf_settings():
    return {"HISTORY_IMPORT_MAX_BYTES": 64 * 1024}


def test_upload_needs_the_csrf_token_and_respects_the_size_bound(csrf_app):
    build(db.session)
    text = exchange.dumps(exchange.export_document(db.session)).encode()
    fresh_database()
    client = csrf_app.test_client()
    refused = _upload(client, text)
    assert refused.status_code == 400 and games() == 0
    page = client.get("/history/import").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    accepted = _upload(client, text, csrf_token=token)
    assert accepted.status_code == 200 and games() == 2
    huge = b" " * (70 * 1024) + text
    too_large = _upload(client, huge, csrf_token=token)
    assert too_large.status_code == 413 and games() == 2
    words = too_large.get_data(as_text=True)
    assert (
        "The file is larger than 0.06 MB, the most a backup may be; nothing was imported." in words
    )


def test_import_asks_for_the_passcode_when_one_is_set(app):
    app.config["COMPANION_PASSCODE"] = "hen"
    client = app.test_client()
    response = client.get("/history/import")
    assert response.status_code == 302 and "/passcode" in response.headers["Location"]
    response = _upload(client, b"{}")
    assert response.status_code == 303 and games() == 0  # POST: see other


def test_history_pages_offer_the_downloads_of_what_they_show(client, app):
    rows = build(db.session)
    links = re.compile(r'href="(/history/(?:export|import)[^"]*)"')
    night, game = rows["night1"].id, rows["game_a"].id
    pages = {
        "/history/": ["/history/export.csv", "/history/export.json", "/history/import"],
        f"/history/nights/{night}": [
            f"/history/export.csv?night={night}",
            f"/history/export.json?night={night}",
        ],
        f"/history/games/{game}": [
            f"/history/export.csv?game={game}",
            f"/history/export.json?game={game}",
        ],
    }
    for url, expected in pages.items():
        assert links.findall(client.get(url).get_data(as_text=True)) == expected, url
        for link in expected[:2]:
            assert client.get(link).status_code == 200


def test_importing_the_backup_of_a_deleted_night_brings_it_back(client, app):
    rows = build(db.session)
    night_id = rows["night2"].id
    backup = client.get(f"/history/export.json?night={night_id}").get_data()
    assert client.post(f"/history/nights/{night_id}/delete").status_code == 303
    assert client.get(f"/history/nights/{night_id}").status_code == 404
    page = _upload(client, backup).get_data(as_text=True)
    assert "Restored (they had been deleted): 1 game night, 0 games." in page
    assert "Already here, kept as they were: 3 players, 0 game nights, 1 game, " in page
    assert client.get(f"/history/nights/{night_id}").status_code == 200


def test_import_messages_read_well(client, app):
    """Plural forms, no doubled "at", a CSV export named as such, paths "in the file at"."""
    page = _upload(client, b'{"format": "x').get_data(as_text=True)
    assert "at at" not in page and "Unterminated string" not in page
    assert "it ends in the middle (is it cut short?); line 1, column 12." in page
    build(db.session)
    csv_text = "".join(exchange.iter_csv(db.session)).encode()
    page = _upload(client, csv_text).get_data(as_text=True)
    assert "Only JSON backups can be imported; this looks like a CSV export." in page
    doc = exchange.export_document(db.session)
    doc["nights"][1]["played_on"] = "yesterday"
    page = _upload(client, json.dumps(doc).encode()).get_data(as_text=True)
    assert re.search(r"\(in the file at <code>\$\.nights\[1\]\.played_on</code>\)", page)


@pytest.mark.parametrize(
    ("data", "reason", "python_words"),
    [
        (b'{"format": "chickenfoot', "ends in the middle", "Unterminated string"),
        (
            b"Datum;Misto;Hra\r\n2026-12-03;x;1\r\n",
            "Only JSON backups can be imported; this looks like a CSV export.",
            "Expecting value",
        ),
        (b'{"format": 1} x', "something follows the end of the backup", "Extra data"),
        (b'{"format" 1}', "something is missing or out of place", "delimiter"),
        # a 0-byte file (a download that failed) was "not a JSON backup (is it a CSV export?)"
        (b"", "The file is empty: choose the JSON file the export saved.", "CSV export"),
        (b" \r\n\n", "The file is empty: choose the JSON file the export saved.", "CSV export"),
    ],
)
def test_json_errors_are_worded_in_the_players_language(
    client, app, fresh_translations, data, reason, python_words
):
    """The parser's English is never shown; the reason is a translated sentence with the place."""
    page = _upload(client, data).get_data(as_text=True)
    assert reason in page and python_words not in page
    refresh()  # the test's app context keeps the first request's locale
    response = client.post(
        "/history/import",
        data={"file": (io.BytesIO(b'{"format": "x'), "b.json")},
        content_type="multipart/form-data",
        headers={"Accept-Language": "cs"},
    )
    cs_page = response.get_data(as_text=True)
    assert "Unterminated" not in cs_page and "řádek 1, sloupec 12" in cs_page


def test_a_file_with_many_problems_lists_the_first_ones_and_counts_the_rest(client, app):
    from companion.history.export_views import PROBLEMS_LISTED

    build(db.session)
    doc = exchange.export_document(db.session)
    fresh_database()
    doc["nights"] = [{**doc["nights"][0], "surprise": n} for n in range(80)]
    page = _upload(client, json.dumps(doc).encode()).get_data(as_text=True)
    total = int(re.search(r"The file has (\d+) problems:", page).group(1))
    assert total > PROBLEMS_LISTED == 50
    listed = page[page.find('<ul class="errors">') :]
    listed = listed[: listed.find("</ul>")]
    assert listed.count("<li>") == PROBLEMS_LISTED + 1
    assert f"…and {total - PROBLEMS_LISTED} more." in listed


def test_the_import_page_says_the_size_limit_in_mb(client, app):
    assert app.config["HISTORY_IMPORT_MAX_BYTES"] == 64 * 1024 * 1024
    page = client.get("/history/import").get_data(as_text=True)
    assert "A backup may be at most 64 MB." in page


@pytest.mark.parametrize("lang", ["en", "ru", "lt", "cs", "es", "de"])
def test_csv_headings_are_distinct_and_the_set_is_worded_in_each_language(
    client, app, fresh_translations, lang
):
    """No two columns share a heading (Russian had "Место" twice, Czech called the place
    "Pořadí"); the set reads as the pages word it; each game has its number in the night."""
    rows = build(db.session)
    refresh()
    response = client.get("/history/export.csv", headers={"Accept-Language": lang})
    text = response.get_data(as_text=True).removeprefix(exchange.CSV_BOM)
    header, *lines = list(csv.reader(io.StringIO(text), delimiter=exchange.csv_separator(lang)))
    assert len(set(header)) == len(header) == len(exchange.CSV_COLUMNS)
    refresh()
    with app.test_request_context(headers={"Accept-Language": lang}):
        from flask_babel import gettext

        worded = gettext("double-%(n)s", n=6)
        expected = [str(exchange.CSV_HEADINGS[c]) for c in exchange.CSV_COLUMNS]
    assert header == expected
    if lang != "en":
        assert worded != "double-6"
    column = dict(zip(exchange.CSV_COLUMNS, zip(*lines, strict=True), strict=True))
    assert set(column["set"]) <= {worded, worded.replace("6", "9")}
    numbers = {(gid, n) for gid, n in zip(column["game_id"], column["game_number"], strict=True)}
    assert (str(rows["game_a"].id), "1") in numbers


def test_csv_game_number_counts_the_nights_live_games(app):
    """The number the pages show ("Game 2"), in the CSV of that one game too; a deleted game
    before it no longer counts."""
    from companion.models import utcnow

    rows = build(db.session)
    game_a, game_b = rows["game_a"], rows["game_b"]
    game_b.night = game_a.night
    db.session.commit()
    assert game_b.id > game_a.id

    def numbers() -> set[str]:
        text = "".join(exchange.iter_csv(db.session, game_id=game_b.id))
        return {r["game_number"] for r in csv.DictReader(io.StringIO(text))}

    assert numbers() == {"2"} == {str(game_b.number_in_night)}
    game_a.deleted_at = utcnow()
    db.session.commit()
    assert numbers() == {"1"}


# --- issue 26: a CSV a spreadsheet opens with a tap, in the reader's locale -------------------


@pytest.mark.parametrize(
    ("lang", "separator"),
    [("en", ","), ("de", ";"), ("es", ";"), ("ru", ";"), ("lt", ";"), ("cs", ";")],
)
def test_the_csv_has_a_bom_and_the_separator_of_the_readers_locale(client, app, lang, separator):
    rows = build(db.session)
    response = client.get("/history/export.csv", headers={"Accept-Language": lang})
    raw = response.get_data()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8's byte order mark, once
    text = raw.decode("utf-8-sig")
    assert not text.startswith(exchange.CSV_BOM)
    assert text.splitlines()[0].count(separator) == len(exchange.CSV_COLUMNS) - 1
    header, *lines = list(csv.reader(io.StringIO(text), delimiter=separator))
    assert len(header) == len(exchange.CSV_COLUMNS)
    assert all(len(line) == len(header) for line in lines)
    # the same rows as the comma-separated export, cell for cell (the set is worded)
    plain = list(csv.reader(io.StringIO("".join(exchange.iter_csv(db.session)))))
    worded = exchange.CSV_COLUMNS.index("set")
    assert [line[:worded] + line[worded + 1 :] for line in lines] == [
        line[:worded] + line[worded + 1 :] for line in plain[1:]
    ]
    assert str(rows["game_a"].id) in {line[2] for line in lines}


def test_the_separator_follows_the_locales_decimal_mark():
    assert exchange.csv_separator("de_CH") == ","  # Swiss German writes 1.5
    assert exchange.csv_separator("fr") == ";"
    assert exchange.csv_separator("xx") == ","  # unknown: the comma


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_csv_export_uploaded_as_a_backup_is_named_a_csv_export(client, app, lang):
    """The page keeps the first request's language (the app context is held): the upload
    answers in ``lang``, the words come from its catalog."""
    from babel.messages.pofile import read_po

    from companion.config import ROOT

    build(db.session)
    raw = client.get("/history/export.csv", headers={"Accept-Language": lang}).get_data()
    page = _upload(client, raw).get_data(as_text=True)
    po = ROOT / "companion" / "translations" / lang / "LC_MESSAGES" / "messages.po"
    with po.open("rb") as handle:
        words = read_po(handle)["Only JSON backups can be imported; this looks like a CSV export."]
    assert html.escape(words.string, quote=True) in page or words.string in page


def test_refusals_inside_a_round_name_the_night_game_round_and_player(client, app):
    """A hand-edited backup: the page names the place in words (the night told apart from
    another of its date, the game, the round, the player), the JSON path after it."""
    build(db.session)
    doc = exchange.export_document(db.session)
    doc["nights"][1]["played_on"] = doc["nights"][0]["played_on"]  # two nights of one date
    hands = doc["nights"][0]["games"][0]["rounds"][2]["hands"]
    hands[2]["went_out"] = True  # Bob went out already
    hands[0]["points"] = -5
    fresh_database()
    page = html.unescape(_upload(client, json.dumps(doc).encode()).get_data(as_text=True))
    place = "Game night of November 20, 2026 at Kitchen, game 1, round 3 (the 4-4)"
    assert f"{place}: Anna: must be between 0 and 1000000, not -5. (in the file at" in page
    assert f"{place}: Chloé went out too, but Bob already went out. (in the file at" in page
    assert "$.nights[0].games[0].rounds[2].hands[2].went_out" in page
