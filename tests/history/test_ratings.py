"""Skill ratings (issue 25): openskill's Plackett-Luce over finished games in order of play,
stored one step per game and rebuilt after anything that changes the past.

The reference computations here call openskill directly (not companion.services.ratings), so
a mistake in the app's ordering, places or state would show as a difference."""

from __future__ import annotations

import pytest
from flask import current_app
from openskill.models import PlackettLuce
from sqlalchemy import select

from companion.extensions import db
from companion.history.demo import generate
from companion.history.players import merge
from companion.models import (
    FinalStanding,
    Game,
    GameNight,
    HandScore,
    Player,
    PlayerRating,
    RatingStep,
    Round,
    Seat,
)
from companion.services import ratings
from companion.services.exchange import export as exchange

#: the fixture's rated games in order of play with each player's final place (fixture.py)
PLACES = [
    {"Cy": 1, "Ann": 2, "Bob": 3},  # G1
    {"Ann": 1, "Bob": 1, "Dee": 3},  # G2: a shared win
    {"Eve": 1, "Cy": 2, "Ann": 3},  # G3
    {"Bob": 1, "Eve": 2},  # G4
    {"Annie": 1, "Dee": 2, "Cy": 3},  # G6 (Annie is Ann once merged)
]


def openskill_replay(games: list[dict[str, int]]) -> dict[str, tuple[float, float, int]]:
    """name -> (mu, sigma, games) after rating ``games`` in order with openskill itself."""
    model = PlackettLuce()
    state: dict[str, tuple[float, float, int]] = {}
    for places in games:
        names = list(places)
        teams = [
            [model.rating(mu=state[n][0], sigma=state[n][1]) if n in state else model.rating()]
            for n in names
        ]
        for name, (r,) in zip(
            names, model.rate(teams, ranks=[places[n] for n in names]), strict=True
        ):
            state[name] = (r.mu, r.sigma, state.get(name, (0, 0, 0))[2] + 1)
    return state


def stored() -> dict[int, tuple[float, float, float, int]]:
    """player id -> stored (mu, sigma, ordinal, games)."""
    return {
        r.player_id: (r.mu, r.sigma, r.ordinal, r.games)
        for r in db.session.scalars(select(PlayerRating))
    }


def stored_steps() -> list[tuple]:
    rows = db.session.execute(
        select(
            RatingStep.game_id,
            RatingStep.player_id,
            RatingStep.mu,
            RatingStep.sigma,
            RatingStep.ordinal,
            RatingStep.games,
        ).order_by(RatingStep.id)
    )
    return [tuple(r) for r in rows]


def fresh_replay() -> tuple[dict, list[tuple]]:
    """The stored ratings after a rebuild from scratch (then rolled back)."""
    ratings.rebuild_all(db.session)
    result = stored(), stored_steps()
    db.session.rollback()
    return result


def by_name(history, table: dict[int, tuple]) -> dict[str, tuple]:
    names = {pid: name for name, pid in history.players.items()}
    return {names[pid]: values for pid, values in table.items()}


def test_ratings_equal_openskills_own_computation(history):
    expected = openskill_replay([{("Ann" if n == "Annie" else n): p for n, p in g.items()}
                                 for g in PLACES])  # fmt: skip
    got = by_name(history, stored())
    assert set(got) == set(expected)  # Annie merged away, Zed never played: no rating
    for name, (mu, sigma, games) in expected.items():
        assert got[name][0] == pytest.approx(mu, abs=1e-9)
        assert got[name][1] == pytest.approx(sigma, abs=1e-9)
        assert got[name][2] == pytest.approx(mu - 3 * sigma, abs=1e-9)
        assert got[name][3] == games


def test_demo_history_equals_an_independent_replay(app):
    generate(db.session, games=60, players=8)
    rows = db.session.execute(
        select(FinalStanding.game_id, Seat.player_id, FinalStanding.rank)
        .join(Seat, Seat.id == FinalStanding.seat_id)
        .join(Game, Game.id == FinalStanding.game_id)
        .join(GameNight, GameNight.id == Game.night_id)
        .order_by(GameNight.played_on, Game.created_at, Game.id, FinalStanding.line)
    ).all()
    games: dict[int, dict[str, int]] = {}
    for gid, pid, rank in rows:
        games.setdefault(gid, {})[str(pid)] = rank
    expected = openskill_replay(list(games.values()))
    got = stored()
    assert {str(pid) for pid in got} == set(expected)
    for pid, (mu, sigma, _ordinal, count) in got.items():
        assert (mu, sigma, count) == pytest.approx(expected[str(pid)], abs=1e-9)


def test_ties_share_a_place():
    tied = ratings.RatedGame(key=None, places=((1, 1), (2, 1), (3, 3)))  # type: ignore[arg-type]
    [(_game, after)] = list(ratings.rate_games([tied]))
    assert after[0].mu == after[1].mu and after[0].sigma == after[1].sigma
    assert after[2].mu < after[0].mu
    assert ratings.places(list(after)) == [1, 1, 3]


def test_provisional_marking(history):
    current = {r.player_id: r for r in ratings.ranked(db.session)}
    eve = current[history.players["Eve"]]
    assert eve.games == 2 and eve.provisional
    assert not ratings.Rating(0, 25.0, 1.0, 22.0, ratings.PROVISIONAL_GAMES).provisional
    assert ratings.rating_of(db.session, history.players["Zed"]) is None


def test_a_new_latest_game_is_one_update_not_a_replay(history):
    before = stored_steps()
    first_ids = db.session.scalars(select(RatingStep.id).order_by(RatingStep.id)).all()
    night = GameNight(played_on=db.session.get(GameNight, history.nights["N3"]).played_on)
    game = Game(night=night, set_size=9, rules={}, status="finished")
    players = [db.session.get(Player, history.players[n]) for n in ("Bob", "Eve")]
    game.seats = [Seat(player=p, position=i) for i, p in enumerate(players)]
    rnd = Round(number=1, start_double=9, status="scored", outcome="out")
    rnd.hands = [HandScore(seat=game.seats[0], points=0), HandScore(seat=game.seats[1], points=9)]
    game.rounds.append(rnd)
    db.session.add(game)
    db.session.commit()
    after = stored_steps()
    assert after[: len(before)] == before  # earlier steps untouched (same rows)
    assert (
        db.session.scalars(select(RatingStep.id).order_by(RatingStep.id)).all()[: len(first_ids)]
        == first_ids
    )
    assert [(s[0], s[1]) for s in after[len(before) :]] == [
        (game.id, history.players["Bob"]),
        (game.id, history.players["Eve"]),
    ]
    assert (stored(), stored_steps()) == fresh_replay()


def test_a_correction_of_a_past_game_equals_a_fresh_replay(history):
    before = stored()
    g1 = db.session.get(Game, history.games["G1"])
    first = g1.rounds[0]
    cy = next(h for h in first.hands if h.seat.player.name == "Cy")
    cy.points = 60  # Cy now finishes last in G1
    db.session.commit()
    assert stored() != before
    assert (stored(), stored_steps()) == fresh_replay()


def test_a_merge_equals_a_fresh_replay(unmerged):
    with current_app.test_request_context():
        merge(
            db.session.get(Player, unmerged.players["Annie"]),
            db.session.get(Player, unmerged.players["Ann"]),
        )
    assert unmerged.players["Annie"] not in stored()
    assert (stored(), stored_steps()) == fresh_replay()


def test_deleting_and_restoring_a_night_equals_a_fresh_replay(history):
    before = (stored(), stored_steps())
    night = db.session.get(GameNight, history.nights["N1"])
    night.deleted_at = night.created_at
    db.session.commit()
    assert history.players["Dee"] in stored()
    assert stored()[history.players["Dee"]][3] == 1  # only G6 left for Dee
    assert (stored(), stored_steps()) == fresh_replay()
    night.deleted_at = None
    db.session.commit()
    assert (stored(), [s[:2] + s[2:] for s in stored_steps()]) == before


def test_an_import_of_older_games_equals_a_fresh_replay(history):
    doc = exchange.export_document(db.session, night_id=history.nights["N1"])
    for night in doc["nights"]:  # the same games a year earlier, as another group's history
        night["played_on"] = "2025-01-10"
        night["place"] = "Elsewhere"
        for game in night["games"]:
            game["key"] = "older-" + game["key"]
    before = stored()
    report = exchange.import_document(db.session, exchange.dumps(doc))
    assert report.ok, report.lines()
    assert stored() != before
    assert (stored(), stored_steps()) == fresh_replay()


def test_undo_reopening_a_finished_game_drops_its_rating(history):
    game = db.session.get(Game, history.games["G4"])
    game.status = "active"
    db.session.commit()
    assert not db.session.scalars(select(RatingStep).where(RatingStep.game_id == game.id)).all()
    assert (stored(), stored_steps()) == fresh_replay()


def test_chance_ahead_is_openskills_predict_win(history):
    a = ratings.rating_of(db.session, history.players["Cy"])
    b = ratings.rating_of(db.session, history.players["Dee"])
    model = PlackettLuce()
    expected = model.predict_win(
        [[model.rating(mu=a.mu, sigma=a.sigma)], [model.rating(mu=b.mu, sigma=b.sigma)]]
    )[0]
    assert ratings.chance_ahead(a, b) == pytest.approx(expected)
    assert ratings.chance_ahead(a, b) + ratings.chance_ahead(b, a) == pytest.approx(1.0)


def test_the_ratings_api_answers_the_documented_shape(history, client):
    body = client.get("/api/v1/ratings").get_json()
    assert body["model"] == "openskill PlackettLuce"
    assert [set(p) for p in body["players"]] == [{"name", "mu", "sigma", "ordinal", "games"}] * len(
        body["players"]
    )
    ordinals = [p["ordinal"] for p in body["players"]]
    assert ordinals == sorted(ordinals, reverse=True)
    mine = {p["name"]: p for p in body["players"]}
    stored_ann = stored()[history.players["Ann"]]
    assert (mine["Ann"]["mu"], mine["Ann"]["sigma"], mine["Ann"]["games"]) == (
        stored_ann[0],
        stored_ann[1],
        stored_ann[3],
    )
    assert "Annie" not in mine and "Zed" not in mine
