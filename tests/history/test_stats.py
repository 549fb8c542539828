"""Statistics against hand-computed values (see the score tables in tests/history/fixture.py).

Every expected number below is worked out by hand from those tables; units are points and
rounds. Only finished, non-deleted games in non-deleted nights count.
"""

from __future__ import annotations

from datetime import date

import pytest

from companion.history.finished_games import GameResult, SeatResult, finished_results
from companion.history.stats import (
    HeadToHead,
    PlayerStats,
    all_player_stats,
    head_to_head,
    leaderboard,
    player_stats,
)


def _result(history, game):
    return next(r for r in finished_results() if r.game_id == history.games[game])


def _line(history, result, name):
    return next(s for s in result.seats if s.player_id == history.players[name])


# --- final results (decided by the engine) ---------------------------------------------------


def test_only_live_finished_games_count(history):
    ids = {r.game_id for r in finished_results()}
    assert ids == {history.games[g] for g in ("G1", "G2", "G3", "G4", "G6")}


def test_results_come_newest_night_first(history):
    dates = [r.played_on for r in finished_results()]
    assert dates == sorted(dates, reverse=True)
    assert dates[0] == date(2026, 3, 7)


def test_outright_winner_and_tie_below_decided_by_best_round(history):
    g1 = _result(history, "G1")
    assert g1.winners == (history.players["Cy"],)
    ann, bob = _line(history, g1, "Ann"), _line(history, g1, "Bob")
    assert (ann.rank, ann.total, ann.zero_rounds, ann.rounds) == (2, 20, 1, 3)
    assert (bob.rank, bob.total) == (3, 20)
    assert bob.decided_by == "lowest_single_nonzero_round"
    assert g1.decided_by == "lowest_total"


def test_shared_win(history):
    g2 = _result(history, "G2")
    assert set(g2.winners) == {history.players["Ann"], history.players["Bob"]}
    assert all(s.shared for s in g2.seats if s.rank == 1)
    assert g2.decided_by == "unresolved_shared"
    assert _line(history, g2, "Dee").rank == 3


def test_going_out_on_a_double_is_fifty_and_not_a_zero_round(history):
    ann = _line(history, _result(history, "G3"), "Ann")
    assert (ann.total, ann.zero_rounds, ann.rank) == (56, 0, 3)


def test_house_rule_extension_decides(history):
    g4 = _result(history, "G4")
    assert g4.winners == (history.players["Bob"],)
    assert g4.decided_by == "extension_next_lowest_nonzero"
    assert g4.set_size == 12


def test_burned_round_is_not_a_round_played(history):
    ann = _line(history, _result(history, "G6"), "Ann")  # played as Annie, then merged
    assert (ann.rank, ann.total, ann.rounds, ann.zero_rounds) == (1, 8, 3, 1)


def test_filters(history):
    def ids(**kw):
        return {r.game_id for r in finished_results(**kw)}

    g = history.games
    assert ids(set_size=9) == {g["G1"], g["G2"], g["G6"]}
    assert ids(date_from=date(2026, 2, 1), date_to=date(2026, 2, 28)) == {g["G3"], g["G4"]}
    assert ids(date_from=date(2026, 3, 7)) == {g["G6"]}
    assert ids(player_id=history.players["Eve"]) == {g["G3"], g["G4"]}
    assert ids(player_id=history.players["Zed"]) == set()


def test_stored_result_follows_a_changed_game(history):
    """A saved change to a finished game stores its standings again in the same commit."""
    from companion.extensions import db
    from companion.models import Game, utcnow

    assert _result(history, "G1").winners == (history.players["Cy"],)
    game = db.session.get(Game, history.games["G1"])
    version = game.version
    cy_seat = next(s for s in game.seats if s.player.name == "Cy")
    rnd = next(r for r in game.rounds if r.number == 2)
    # Cy's 7 becomes 30, saved as the score keeper does (updated_at set: the version grows).
    next(h for h in rnd.hands if h.seat_id == cy_seat.id).points = 30
    game.updated_at = utcnow()
    db.session.commit()
    assert game.version > version
    g1 = _result(history, "G1")
    assert _line(history, g1, "Cy").total == 35
    assert g1.winners == (history.players["Ann"],)


# --- player statistics ---------------------------------------------------------------------


EXPECTED = {
    # name: games, wins, shared, rounds, points, zero rounds, best, worst
    "Ann": (4, 1, 1, 12, 94, 3, 8, 56),
    "Bob": (3, 1, 1, 10, 43, 3, 10, 20),
    "Cy": (3, 1, 0, 9, 37, 3, 12, 13),
    "Dee": (2, 0, 0, 6, 25, 2, 12, 13),
    "Eve": (2, 1, 0, 7, 22, 2, 9, 13),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_player_stats(history, name):
    s = player_stats(finished_results(), history.players[name])
    games, wins, shared, rounds, points, zeros, best, worst = EXPECTED[name]
    assert (s.games, s.wins, s.shared_wins) == (games, wins, shared)
    assert (s.rounds, s.points, s.zero_rounds) == (rounds, points, zeros)
    assert (s.best_total, s.worst_total) == (best, worst)
    assert s.win_rate == pytest.approx(wins / games)
    assert s.average_points == pytest.approx(points / rounds)


def test_best_and_worst_games(history):
    g = history.games
    ann = player_stats(finished_results(), history.players["Ann"])
    assert (ann.best_game_id, ann.worst_game_id) == (g["G6"], g["G3"])
    cy = player_stats(finished_results(), history.players["Cy"])
    # 12 in both G1 (January) and G3 (February): the more recent game is shown.
    assert (cy.best_game_id, cy.worst_game_id) == (g["G3"], g["G6"])


def test_player_without_games(history):
    s = player_stats(finished_results(), history.players["Zed"])
    assert s.games == 0
    assert s.win_rate is None and s.average_points is None and s.best_total is None


def test_merged_player_has_no_record_of_their_own(history):
    assert player_stats(finished_results(), history.players["Annie"]).games == 0


def test_unmerged_history_keeps_annie_apart(unmerged):
    results = finished_results()
    ann = player_stats(results, unmerged.players["Ann"])
    annie = player_stats(results, unmerged.players["Annie"])
    assert (ann.games, ann.wins, ann.points, ann.rounds) == (3, 0, 86, 9)
    assert (annie.games, annie.wins, annie.points) == (1, 1, 8)


def test_head_to_head_for_ann(history):
    p = history.players
    got = head_to_head(finished_results(), p["Ann"])
    assert got == [
        HeadToHead(p["Cy"], games=3, ahead=1, behind=2, level=0),
        HeadToHead(p["Bob"], games=2, ahead=1, behind=0, level=1),
        HeadToHead(p["Dee"], games=2, ahead=2, behind=0, level=0),
        HeadToHead(p["Eve"], games=1, ahead=0, behind=1, level=0),
    ]


def test_head_to_head_is_mirrored(history):
    p = history.players
    results = finished_results()
    for a in ("Ann", "Bob", "Cy", "Dee", "Eve"):
        for h in head_to_head(results, p[a]):
            back = next(x for x in head_to_head(results, h.opponent_id) if x.opponent_id == p[a])
            assert (back.games, back.ahead, back.behind, back.level) == (
                h.games,
                h.behind,
                h.ahead,
                h.level,
            )


def test_leaderboard_all_time(history):
    p = history.players
    rows = leaderboard(finished_results())
    assert [r.player_id for r in rows] == [p["Eve"], p["Bob"], p["Cy"], p["Ann"], p["Dee"]]


def test_leaderboard_double_nine(history):
    p = history.players
    rows = leaderboard(finished_results(set_size=9))
    assert [r.player_id for r in rows] == [p["Cy"], p["Ann"], p["Bob"], p["Dee"]]
    ann = rows[1]
    assert (ann.games, ann.wins, ann.shared_wins, ann.points, ann.rounds) == (3, 1, 1, 38, 9)


def test_leaderboard_february(history):
    p = history.players
    rows = leaderboard(finished_results(date_from=date(2026, 2, 1), date_to=date(2026, 2, 28)))
    assert [r.player_id for r in rows] == [p["Bob"], p["Eve"], p["Cy"], p["Ann"]]
    assert rows[0].win_rate == 1.0


# --- pure functions on plain data ----------------------------------------------------------


def _plain(game_id, *lines):
    return GameResult(
        game_id,
        date(2026, 1, 1),
        9,
        tuple(
            SeatResult(game_id, pid, rank, shared, total, 10, z, "")
            for pid, rank, shared, total, z in lines
        ),
    )


def test_pure_stats_on_plain_results():
    results = [
        _plain(1, (1, 1, True, 30, 2), (2, 1, True, 30, 2), (3, 3, False, 50, 0)),
        _plain(2, (1, 2, False, 40, 1), (3, 1, False, 20, 3)),
    ]
    table = all_player_stats(results)
    assert table[1] == PlayerStats(1, 2, 0, 1, 20, 70, 3, 30, 1, 40, 2)
    assert table[3].wins == 1 and table[3].games == 2
    assert [h.opponent_id for h in head_to_head(results, 1)] == [3, 2]
    assert head_to_head(results, 2) == [
        HeadToHead(1, 1, 0, 0, 1),
        HeadToHead(3, 1, 1, 0, 0),
    ]


def test_fast_results_agree_with_mapping_standings_of(history):
    """results.py gathers scores from plain tuples for speed; it must rank exactly as
    companion.mapping.standings_of does on the loaded rows, for every fixture game."""
    from companion.extensions import db
    from companion.mapping import standings_of
    from companion.models import Game

    for result in finished_results():
        game = db.session.get(Game, result.game_id)
        expected = [
            (seat.player_id, st.rank, st.record.total, st.record.zero_rounds, st.decided_by)
            for seat, st in standings_of(game)
        ]
        got = [(s.player_id, s.rank, s.total, s.zero_rounds, s.decided_by) for s in result.seats]
        assert got == expected
