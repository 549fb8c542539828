"""Per-player summaries (issue 11, "history is constant in the history's size"): the
leaderboard and a player's record read all-time totals per (player, set size) and per pair
without a date filter, and buckets per (player, set size, month) with one, all kept current on
every change; their figures must equal the per-game definitions of ``history.stats``."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import pytest
from flask_migrate import downgrade, upgrade
from sqlalchemy import event, select, text

from companion import create_app
from companion.config import TestConfig
from companion.extensions import db
from companion.history.aggregates import head_to_head_rows, leaderboard_rows, player_record
from companion.history.demo import generate
from companion.history.finished_games import Filters, finished_results
from companion.history.players import merge, players_with_games
from companion.history.stats import head_to_head, leaderboard, player_stats
from companion.models import (
    Game,
    GameNight,
    HandScore,
    PairSummary,
    PairTotal,
    Player,
    PlayerSummary,
    PlayerTotal,
    Round,
    utcnow,
)
from companion.services.exchange import export as exchange
from companion.services.summaries import rebuild_all

MIGRATIONS = str(Path(__file__).resolve().parents[2] / "migrations")


def stored_buckets() -> list[tuple]:
    rows = []
    for model in (PlayerSummary, PairSummary, PlayerTotal, PairTotal):
        cols = [c for c in model.__table__.c if c.name != "id"]
        rows += sorted(tuple(r) for r in db.session.execute(select(*cols)))
    return rows


def periods() -> list[tuple[date | None, date | None]]:
    """Date filters around the nights in the database: open, whole months, partial months at
    either edge, and a range inside one month."""
    days = sorted(set(db.session.scalars(select(GameNight.played_on))))
    first, last, mid = days[0], days[-1], days[len(days) // 2]
    return [
        (None, None),
        (first, None),
        (None, last),
        (first + timedelta(days=1), last - timedelta(days=1)),
        (mid, None),
        (None, mid),
        (mid.replace(day=1), mid),
        (mid, mid),
        (first.replace(day=1), (mid.replace(day=28) + timedelta(days=4)).replace(day=1)),
    ]


def assert_agrees_with_the_per_game_definitions() -> None:
    """Every figure read from the totals and buckets equals the old per-game definition, and
    the totals and buckets kept incrementally equal those rebuilt from scratch."""
    kept = stored_buckets()
    rebuild_all(db.session)
    assert stored_buckets() == kept
    db.session.rollback()
    for start, end in periods():
        for size in (None, 6, 9, 12, 15, 18):
            filters = Filters(date_from=start, date_to=end, set_size=size)
            results = finished_results(date_from=start, date_to=end, set_size=size)
            expected = [
                replace(r, best_game_id=None, worst_game_id=None) for r in leaderboard(results)
            ]
            assert leaderboard_rows(filters) == expected, (start, end, size)
    everything = finished_results()
    for pid in db.session.scalars(select(Player.id)):
        assert player_record(pid) == player_stats(everything, pid), pid
        assert head_to_head_rows(pid) == head_to_head(everything, pid), pid
    for player, games in players_with_games():
        assert games == player_stats(everything, player.id).games, player.name


def correct_a_round() -> None:
    game = db.session.scalars(select(Game).where(Game.status == "finished")).first()
    rnd = next(r for r in game.rounds if r.status == "scored")
    hand = rnd.hands[0]
    hand.points = hand.points + 37
    db.session.commit()


def undo_a_last_round() -> None:
    game = db.session.scalars(select(Game).where(Game.status == "finished")).all()[-1]
    game.status = "active"  # what an undo of the last round does to the game
    db.session.commit()


def test_the_fixture_history_agrees(history):
    assert stored_buckets()
    assert_agrees_with_the_per_game_definitions()


def test_random_demo_data_agrees_after_correction_undo_and_deletions(db_app):
    generate(db.session, games=60, players=10, seed=11)
    assert_agrees_with_the_per_game_definitions()
    correct_a_round()
    assert_agrees_with_the_per_game_definitions()
    undo_a_last_round()
    assert_agrees_with_the_per_game_definitions()
    game = db.session.scalars(select(Game).where(Game.status == "finished")).first()
    game.deleted_at = utcnow()
    db.session.commit()
    night = db.session.scalars(select(GameNight).order_by(GameNight.id.desc())).first()
    night.deleted_at = utcnow()
    db.session.commit()
    assert_agrees_with_the_per_game_definitions()
    night.deleted_at = None
    db.session.commit()
    assert_agrees_with_the_per_game_definitions()
    game.deleted_at = None  # a deleted game restored
    db.session.commit()
    assert_agrees_with_the_per_game_definitions()


def test_a_game_finished_through_the_round_form_reaches_the_totals(app, client):
    from tests.web.playkit import make_game, round_post

    generate(db.session, games=20, players=10, seed=4)
    game = make_game(("Ann", "Bob", "Cy"), game_length="target_total", target_total=30)
    before = {p.player_id: p.games for p in leaderboard_rows(Filters())}
    for double, totals in ((6, {"Bob": 20, "Cy": 1}), (5, {"Bob": 10, "Cy": 1})):
        data = round_post(game, double, totals=totals, out="Ann")
        assert client.post(f"/g/{game.edit_token}/round", data=data).status_code == 303
    db.session.expire_all()
    assert db.session.get(Game, game.id).status == "finished"
    seated = {seat.player_id for seat in db.session.get(Game, game.id).seats}
    after = {p.player_id: p.games for p in leaderboard_rows(Filters())}
    assert {pid: after[pid] - before.get(pid, 0) for pid in seated} == dict.fromkeys(seated, 1)
    assert_agrees_with_the_per_game_definitions()


def test_a_merge_moves_the_buckets(app, unmerged):
    annie, ann = unmerged.players["Annie"], unmerged.players["Ann"]
    assert player_record(annie).games
    with app.test_request_context():  # the merge's audit entry is translated
        merge(db.session.get(Player, annie), db.session.get(Player, ann))
    assert player_record(annie).games == 0
    assert_agrees_with_the_per_game_definitions()


def test_a_deleted_round_is_taken_out(app):
    generate(db.session, games=12, players=10, seed=3)
    hand = db.session.scalars(select(HandScore).join(Round).where(Round.status == "scored")).first()
    db.session.delete(hand)
    db.session.commit()
    assert_agrees_with_the_per_game_definitions()


def test_an_import_fills_the_buckets(history, tmp_path):
    doc = exchange.export_document(db.session)
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    fresh = create_app(type("FreshConfig", (TestConfig,), {"SQLALCHEMY_DATABASE_URI": url}))
    with fresh.app_context():
        db.create_all()
        generate(db.session, games=15, players=10, seed=5)  # the import adds to a history
        assert exchange.import_document(db.session, doc).ok
        assert_agrees_with_the_per_game_definitions()
        db.session.remove()


@pytest.mark.parametrize(
    ("games", "before"),
    [
        (25, "b7e1c0a9d2f4"),  # before the monthly buckets: both migrations backfill
        (25, "c3a8f2e61d70"),  # before the all-time totals: theirs alone, from the months
    ],
)
def test_the_migration_backfills_the_buckets(backend_url, games, before):
    settings = {"SQLALCHEMY_DATABASE_URI": backend_url}
    app = create_app(type("FileConfig", (TestConfig,), settings))
    with app.app_context():
        try:
            upgrade(directory=MIGRATIONS)
            generate(db.session, games=games, players=10)
            expected = stored_buckets()
            assert expected
            db.session.remove()
            downgrade(directory=MIGRATIONS, revision=before)  # as before this change
            upgrade(directory=MIGRATIONS)
            assert stored_buckets() == expected
        finally:
            db.session.remove()
            with db.engine.begin() as conn:
                db.metadata.drop_all(conn)
                conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
            db.engine.dispose()


# --- the default pages read players × set sizes rows, whatever the history's length ----------

MONTHLY = ("player_summaries", "pair_summaries", "final_standings")


class Statements:
    """The SQL statements (with their parameters) the database runs inside the ``with``."""

    def __init__(self) -> None:
        self.run: list[tuple[str, object]] = []

    def _seen(self, conn, cursor, statement, parameters, context, executemany) -> None:
        self.run.append((statement, parameters))

    def __enter__(self) -> Statements:
        event.listen(db.engine, "before_cursor_execute", self._seen)
        return self

    def __exit__(self, *exc) -> None:
        event.remove(db.engine, "before_cursor_execute", self._seen)

    def reading(self, table: str) -> list[tuple[str, object]]:
        return [(sql, params) for sql, params in self.run if table in sql]


def many_months() -> None:
    """Demo history over more than two years of weekly nights: far more monthly buckets than
    players × set sizes."""
    generate(db.session, games=120, nights=120, players=12, seed=7)
    totals = db.session.query(PlayerTotal).count()
    assert db.session.query(PlayerSummary).count() > 3 * totals
    assert db.session.query(PairSummary).count() > 3 * db.session.query(PairTotal).count()
    db.session.remove()


def test_the_default_leaderboard_reads_only_the_totals(app, client):
    many_months()
    with Statements() as seen:
        assert client.get("/history/leaderboard").status_code == 200
        assert client.get("/history/leaderboard?set_size=9").status_code == 200
    assert seen.reading("player_totals")
    for table in MONTHLY:
        assert not seen.reading(table), table
    with Statements() as seen:
        assert client.get("/history/players").status_code == 200
    for table in MONTHLY:
        assert not seen.reading(table), table


def test_the_player_page_reads_totals_and_indexed_lookups(app, client):
    many_months()
    pid = db.session.scalars(
        select(PlayerTotal.player_id).order_by(PlayerTotal.games.desc())
    ).first()
    db.session.remove()
    with Statements() as seen:
        assert client.get(f"/history/players/{pid}").status_code == 200
    assert seen.reading("player_totals") and seen.reading("pair_totals")
    assert not seen.reading("pair_summaries")
    lookups = seen.reading("player_summaries")
    # Two index searches of this player's buckets, none read whole: the newest months holding
    # the ten latest games (in (player_id, month) order, stopping after ten months at most),
    # and one seek each for the month of the best and of the worst game.
    assert len(lookups) == 2
    plans = []
    for sql, params in lookups:
        assert "LIMIT" in sql or "max(" in sql, sql  # never an unbounded read of the months
        if db.engine.dialect.name == "sqlite":
            cursor = db.session.connection().connection.dbapi_connection.cursor()
            plans.append(
                " ".join(
                    str(row[-1]) for row in cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
                )
            )
    if plans:
        months, extremes = plans
        assert re.search(
            r"SEARCH player_summaries USING (COVERING )?INDEX ix_player_summaries_player_month "
            r"\(player_id=\?\)",
            months,
        ), months
        assert "TEMP B-TREE" not in months, months  # read in index order: no sort of them all
        for column in ("best_total", "worst_total"):
            assert re.search(
                r"SEARCH player_summaries USING (COVERING )?INDEX \S+ "
                rf"\(player_id=\? AND {column}=\?\)",
                extremes,
            ), extremes
