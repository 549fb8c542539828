"""A season, a year in review and a player's rating chart read only what they show (issue 25:
flat from 500 to 50,000 games): a player's rating steps by number and by season through their
indexes, a season's lines through the nights' date index, a player's years from their monthly
summaries. What they read equals the whole history's answer, also after a correction, a merge,
a night deleted and restored and an import (the steps are renumbered by the rebuild)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import current_app
from sqlalchemy import extract, select

from companion.extensions import db
from companion.history.players import merge
from companion.models import Game, GameNight, Player, RatingStep
from companion.services import ratings, seasons
from companion.services.exchange import export as exchange

from .test_constant_pages import a_long_history, plan, statements


def steps_numbered_in_order_of_play() -> None:
    """Every player's steps, in order of play, are numbered 1, 2, 3...; a chart's points
    picked by number are those steps of the whole list."""
    for pid in db.session.scalars(select(Player.id)):
        everything = ratings.steps_of(db.session, pid)
        assert [s.rating.games for s in everything] == list(range(1, len(everything) + 1)), pid
        if not everything:
            assert ratings.steps_of(db.session, pid, {0}) == []
            continue
        for positions in ({0}, {0, len(everything) - 1}, set(range(0, len(everything), 2))):
            picked = ratings.steps_of(db.session, pid, positions)
            assert picked == [everything[p] for p in sorted(positions)], pid


def rated_years(pid: int) -> list[int]:
    """The years of a player's rated games, read from every step (the definition)."""
    year = extract("year", RatingStep.played_on)
    found = db.session.scalars(select(year).where(RatingStep.player_id == pid).distinct())
    return sorted((int(y) for y in found), reverse=True)


def years_are_the_rated_games_years() -> None:
    for pid in db.session.scalars(select(Player.id)):
        assert seasons.player_years(db.session, pid) == rated_years(pid), pid


def correct(history) -> None:
    g1 = db.session.get(Game, history.games["G1"])
    cy = next(h for h in g1.rounds[0].hands if h.seat.player.name == "Cy")
    cy.points = 60  # Cy now finishes last in G1: the later steps are rated again
    db.session.commit()


def delete_and_restore(history) -> None:
    night = db.session.get(GameNight, history.nights["N1"])
    night.deleted_at = night.created_at
    db.session.commit()
    steps_numbered_in_order_of_play()
    years_are_the_rated_games_years()
    night.deleted_at = None
    db.session.commit()


def import_older(history) -> None:
    doc = exchange.export_document(db.session, night_id=history.nights["N1"])
    for night in doc["nights"]:  # the same games years earlier: every step after is renumbered
        night["played_on"] = "2019-01-10"
        night["place"] = "Elsewhere"
        for game in night["games"]:
            game["key"] = "older-" + game["key"]
    assert exchange.import_document(db.session, exchange.dumps(doc)).ok


CHANGES: dict[str, Callable] = {
    "correction": correct,
    "delete and restore": delete_and_restore,
    "import": import_older,
}


@pytest.mark.parametrize("change", CHANGES)
def test_steps_and_years_after_a_change_equal_the_whole_historys(history, change):
    steps_numbered_in_order_of_play()
    CHANGES[change](history)
    steps_numbered_in_order_of_play()
    years_are_the_rated_games_years()


def test_steps_and_years_after_a_merge_equal_the_whole_historys(unmerged):
    with current_app.test_request_context():
        merge(
            db.session.get(Player, unmerged.players["Annie"]),
            db.session.get(Player, unmerged.players["Ann"]),
        )
    steps_numbered_in_order_of_play()
    years_are_the_rated_games_years()
    assert seasons.player_years(db.session, unmerged.players["Annie"]) == []


def test_steps_and_years_on_a_long_demo_history(app):
    a_long_history()
    steps_numbered_in_order_of_play()
    years_are_the_rated_games_years()
    assert len(seasons.years(db.session)) >= 3  # the history spans years


def test_the_group_years_are_the_first_to_the_last_played(app):
    a_long_history()
    days = db.session.scalars(
        select(GameNight.played_on)
        .join(Game, Game.night_id == GameNight.id)
        .where(
            Game.status == "finished",
            Game.deleted_at.is_(None),
            GameNight.deleted_at.is_(None),
        )
    ).all()
    first, last = min(days).year, max(days).year
    assert seasons.years(db.session) == list(range(last, first - 1, -1))


@pytest.fixture()
def sqlite_only(app):
    if db.engine.dialect.name != "sqlite":
        pytest.skip("SQLite's query plans")


def busiest_player_and_year() -> tuple[int, int]:
    row = db.session.execute(
        select(RatingStep.player_id, extract("year", RatingStep.played_on))
        .order_by(RatingStep.id.desc())
        .limit(1)
    ).one()
    return row[0], int(row[1])


def test_a_year_in_review_reads_the_years_nights_not_the_players_history(app, client, sqlite_only):
    a_long_history()
    pid, year = busiest_player_and_year()
    seen = statements(client, f"/history/seasons/{year}/players/{pid}")
    lines = [(sql, p) for sql, p in seen if "FROM final_standings" in sql]
    assert len(lines) == 2, lines  # best night, nights and games
    for sql, params in lines:
        shown = plan(sql, params)
        # the season's nights by date, their games and lines: never every seat of the player
        assert "SEARCH game_nights USING INDEX ix_game_nights_live_by_date (played_on>?" in shown
        assert "ix_seats_player_id" not in shown, shown
    steps = [(sql, p) for sql, p in seen if "FROM rating_steps" in sql]
    assert steps, seen
    for sql, params in steps:
        shown = plan(sql, params)
        assert (
            "ix_rating_steps_player_played_on (player_id=? AND played_on>? AND played_on<?)"
            in (shown)
            or "ix_rating_steps_player_id_id (player_id=? AND rowid<?)" in shown
        ), shown


def test_a_players_rating_chart_seeks_its_points_by_number(app, client, sqlite_only):
    a_long_history()
    pid, _year = busiest_player_and_year()
    seen = statements(client, f"/history/players/{pid}")
    chart = [(sql, p) for sql, p in seen if "rating_steps.games IN" in sql]
    assert len(chart) == 1, seen
    shown = plan(*chart[0])
    assert "ix_rating_steps_player_games (player_id=? AND games=?)" in shown, shown
