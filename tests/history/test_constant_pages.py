"""History pages constant in the history's size (issue 11): the nights list and a player's
latest games walk the live nights' date index a page at a time instead of reading every live
night or game and sorting them, and what they find equals the whole history's answer.

The plans are SQLite's (EXPLAIN QUERY PLAN on the statements the pages run); the answers are
compared on a demo history with deleted nights and games and nights entered out of date order.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import event, select

from companion.extensions import db
from companion.history.aggregates import player_record
from companion.history.demo import generate
from companion.history.finished_games import finished_results, newest_months
from companion.history.stats import player_stats
from companion.models import Game, GameNight, Player, Seat, utcnow
from companion.vocab import GameStatus


def statements(client, url: str) -> list[tuple[str, object]]:
    """The SQL statements (with parameters) a GET of ``url`` runs (the page must answer 200)."""
    seen: list[tuple[str, object]] = []

    def _seen(conn, cursor, statement, parameters, *args) -> None:  # noqa: ANN001
        seen.append((statement, parameters))

    event.listen(db.engine, "before_cursor_execute", _seen)
    try:
        assert client.get(url).status_code == 200
    finally:
        event.remove(db.engine, "before_cursor_execute", _seen)
    return seen


def plan(sql: str, params: object) -> str:
    cursor = db.session.connection().connection.dbapi_connection.cursor()
    return " | ".join(str(row[-1]) for row in cursor.execute("EXPLAIN QUERY PLAN " + sql, params))


def a_long_history() -> None:
    """Demo games over two years and more, a few nights and games deleted, and nights entered
    after younger ones (ids out of date order)."""
    generate(db.session, games=150, nights=60, players=12, seed=11)
    nights = db.session.scalars(select(GameNight).order_by(GameNight.id)).all()
    for night in nights[5::9]:
        night.deleted_at = utcnow()
    for game in db.session.scalars(select(Game).order_by(Game.id)).all()[3::11]:
        game.deleted_at = utcnow()
    newest = max(n.played_on for n in nights)
    for night in nights[-8:-4]:  # moved: now the oldest nights, or newer than every other
        night.played_on = night.played_on - timedelta(days=900)
    nights[10].played_on = newest + timedelta(days=1)
    db.session.commit()
    db.session.remove()


def test_a_players_latest_games_are_the_whole_historys_newest(app):
    a_long_history()
    for pid in db.session.scalars(select(Player.id)):
        everything = finished_results(player_id=pid)  # newest first, the whole history
        assert finished_results(player_id=pid, limit=10) == everything[:10], pid
        assert finished_results(player_id=pid, limit=1) == everything[:1], pid
        assert sum(1 for _ in newest_months(pid, 10)) <= 10


def test_a_player_without_finished_games_has_no_latest_games(app):
    a_long_history()
    lone = Player(name="Zed", name_key="zed")
    db.session.add(lone)
    db.session.commit()
    assert newest_months(lone.id, 10) == ()
    assert finished_results(player_id=lone.id, limit=10) == []


def test_the_best_and_worst_game_are_the_whole_historys(app):
    a_long_history()
    rows = finished_results()
    for pid in db.session.scalars(select(Player.id)):
        expected = player_stats(rows, pid)
        record = player_record(pid)
        assert (record.best_game_id, record.worst_game_id) == (
            expected.best_game_id,
            expected.worst_game_id,
        ), pid


@pytest.fixture()
def sqlite_only(app):
    if db.engine.dialect.name != "sqlite":
        pytest.skip("SQLite's query plans")


def test_the_nights_list_reads_a_page_of_the_live_nights_index(app, client, sqlite_only):
    a_long_history()
    for url in ("/history/", "/history/?page=3"):
        pages = [
            (sql, params)
            for sql, params in statements(client, url)
            if "FROM game_nights" in sql and "LIMIT" in sql and "deleted_at IS NULL" in sql
        ]
        assert len(pages) == 1, pages
        shown = plan(*pages[0])
        assert "ix_game_nights_live_by_date" in shown, shown
        assert "TEMP B-TREE" not in shown, shown  # in the index's order: no sort of all nights


def test_a_players_latest_games_read_their_newest_months_nights_only(app, client, sqlite_only):
    a_long_history()
    seat = db.session.scalars(
        select(Seat).join(Game).where(Game.status == GameStatus.FINISHED).limit(1)
    ).one()
    latest = [
        (sql, params)
        for sql, params in statements(client, f"/history/players/{seat.player_id}")
        if "final_standings.rank" in sql and "LIMIT" in sql
    ]
    assert len(latest) == 1, latest
    shown = plan(*latest[0])
    # the nights of the player's newest months, found in the live nights' date index; their
    # games by night: never every live game sorted by date
    assert "SEARCH game_nights USING INDEX ix_game_nights_live_by_date (played_on>?" in shown
    assert "SEARCH games USING INDEX ix_games_night_id (night_id=?)" in shown, shown
    assert "SCAN games" not in shown and "ix_games_deleted" not in shown, shown


def test_the_restore_window_reads_the_deleted_rows_index(app, sqlite_only):
    from companion.history.queries import recently_deleted_nights

    a_long_history()
    seen: list[tuple[str, object]] = []

    def _seen(conn, cursor, statement, parameters, *args) -> None:  # noqa: ANN001
        seen.append((statement, parameters))

    event.listen(db.engine, "before_cursor_execute", _seen)
    try:
        assert recently_deleted_nights()
    finally:
        event.remove(db.engine, "before_cursor_execute", _seen)
    assert "INDEX ix_game_nights_deleted (" in plan(*seen[-1])  # the partial one


def test_dates_are_the_nights_days(app):
    """The months of a player's buckets are those of their nights (the look-up relies on it)."""
    a_long_history()
    pid = db.session.scalars(select(Player.id)).first()
    months = newest_months(pid, 10)
    assert all(isinstance(m, date) and m.day == 1 for m in months)
    assert list(months) == sorted(months, reverse=True)
