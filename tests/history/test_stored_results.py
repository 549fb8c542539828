"""Stored standings of finished games (issue 11): written when a game changes, read by the
history pages through SQL aggregates, backfilled by the migration (RULES.md §8)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from flask_migrate import downgrade, upgrade
from sqlalchemy import delete, func, select

from companion import create_app
from companion.config import TestConfig
from companion.extensions import db
from companion.history.aggregates import head_to_head_rows, leaderboard_rows, player_record
from companion.history.demo import generate
from companion.history.finished_games import Filters, finished_results
from companion.history.stats import head_to_head, leaderboard, player_stats
from companion.models import FinalStanding, Game
from companion.services.results import record_all

MIGRATIONS = str(Path(__file__).resolve().parents[2] / "migrations")


def without_game_ids(rows):
    """The leaderboard shows no best or worst game: those ids are not aggregated for it."""
    return [replace(r, best_game_id=None, worst_game_id=None) for r in rows]


def test_sql_aggregates_agree_with_the_stats_definitions(history):
    results = finished_results()
    assert leaderboard_rows(Filters()) == without_game_ids(leaderboard(results))
    for pid in history.players.values():
        assert player_record(pid) == player_stats(results, pid)
        assert head_to_head_rows(pid) == head_to_head(results, pid)


def test_a_filtered_leaderboard_agrees_too(history):
    results = finished_results(set_size=9)
    assert leaderboard_rows(Filters(set_size=9)) == without_game_ids(leaderboard(results))


def test_reopening_a_game_drops_its_standings_and_finishing_stores_them(history):
    gid = history.games["G1"]
    count = select(func.count()).select_from(FinalStanding).where(FinalStanding.game_id == gid)
    stored = db.session.scalar(count)
    assert stored == 3
    game = db.session.get(Game, gid)
    game.status = "active"  # an undo of the last round reopens the game
    db.session.commit()
    assert db.session.scalar(count) == 0
    assert gid not in {r.game_id for r in finished_results()}
    game.status = "finished"
    db.session.commit()
    assert db.session.scalar(count) == stored


def test_demo_data_stores_every_games_standings(app):
    generate(db.session, games=30, players=10)
    finished = db.session.scalar(select(func.count()).where(Game.status == "finished"))
    games = db.session.scalar(select(func.count(func.distinct(FinalStanding.game_id))))
    assert finished == games == 30
    before = sorted(db.session.execute(select(FinalStanding.seat_id, FinalStanding.rank)).all())
    db.session.execute(delete(FinalStanding))
    assert record_all(db.session) == 30
    db.session.commit()
    after = sorted(db.session.execute(select(FinalStanding.seat_id, FinalStanding.rank)).all())
    assert after == before


def test_the_migration_backfills_finished_games(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    app = create_app(type("FileConfig", (TestConfig,), {"SQLALCHEMY_DATABASE_URI": url}))
    with app.app_context():
        upgrade(directory=MIGRATIONS)
        generate(db.session, games=20, players=10)
        expected = sorted(db.session.execute(select(FinalStanding.seat_id, FinalStanding.total)))
        assert len(expected) > 20
        db.session.remove()
        downgrade(directory=MIGRATIONS, revision="b7d3e2a91c40")  # as before this change
        upgrade(directory=MIGRATIONS)  # creates the table and decides the 20 games again
        got = sorted(db.session.execute(select(FinalStanding.seat_id, FinalStanding.total)))
        assert got == expected
        db.session.remove()


def test_an_import_stores_the_standings_of_its_finished_games(history, tmp_path):
    from companion.services.exchange import export as exchange

    doc = exchange.export_document(db.session)
    expected = [(r.played_on, [(s.rank, s.total) for s in r.seats]) for r in finished_results()]
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    fresh = create_app(type("FreshConfig", (TestConfig,), {"SQLALCHEMY_DATABASE_URI": url}))
    with fresh.app_context():
        db.create_all()
        assert exchange.import_document(db.session, doc).ok
        got = [(r.played_on, [(s.rank, s.total) for s in r.seats]) for r in finished_results()]
        db.session.remove()
    assert got == expected and len(got) == 5


def test_history_pages_decide_no_game_on_a_request(history, client, monkeypatch):
    """The pages read stored standings: nothing asks the engine who won (a fresh worker's
    first request costs what every later one does)."""
    import companion.engine.tiebreak as tiebreak
    import companion.services.results as service

    def refuse(*args, **kwargs):
        raise AssertionError("a history page decided a game on a request")

    monkeypatch.setattr(service, "decide", refuse)
    monkeypatch.setattr(service, "standings", refuse)
    monkeypatch.setattr(tiebreak, "standings", refuse)
    ann = history.players["Ann"]
    for url in ("/history/", "/history/leaderboard", f"/history/players/{ann}", "/history/players"):
        assert client.get(url).status_code == 200, url
