"""Player statistics from final results: pure functions over plain data, no database.

Input is a sequence of :class:`companion.history.finished_games.GameResult` (finished games only;
the ranks come from the engine's tie-breaks, RULES.md §8). Units: totals and averages are in
points (lower is better), counts are games or rounds as named.

Definitions (what the pages show):

* **games**: finished games the player sat at.
* **wins**: games where the player alone ranked first; **shared wins**: ranked first together
  with someone else (the tie-breaks left them level). Counted separately, never added.
* **win rate**: wins / games (shared wins are not counted as wins), a fraction 0..1.
* **average points per round**: all points scored / all scored rounds played.
* **zero rounds**: rounds scored 0 points (RULES.md §8; a 50 for going out on a double is not).
* **best / worst game total**: the lowest / highest final total of a finished game.
* **head-to-head** against an opponent: games both played; *ahead* when the player finished
  with a better (lower) rank, *behind* with a worse one, *level* with the same rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from .finished_games import GameResult, SeatResult


@dataclass
class PlayerStats:
    """One player's record over some finished games (see the module docstring)."""

    player_id: int
    games: int = 0
    wins: int = 0
    shared_wins: int = 0
    rounds: int = 0
    points: int = 0
    zero_rounds: int = 0
    best_total: int | None = None
    best_game_id: int | None = None
    worst_total: int | None = None
    worst_game_id: int | None = None

    @property
    def win_rate(self) -> float | None:
        """Outright wins / games, 0..1; None before the first finished game."""
        return self.wins / self.games if self.games else None

    @property
    def average_points(self) -> float | None:
        """Points per scored round; None before the first round."""
        return self.points / self.rounds if self.rounds else None

    def add(self, seat: SeatResult) -> None:
        """Count one finished game's line for this player."""
        self.games += 1
        if seat.rank == 1:
            if seat.shared:
                self.shared_wins += 1
            else:
                self.wins += 1
        self.rounds += seat.rounds
        self.points += seat.total
        self.zero_rounds += seat.zero_rounds
        # Ties on a best or worst total keep the earliest game seen (results come newest
        # first, so on equal totals the most recent game is shown).
        if self.best_total is None or seat.total < self.best_total:
            self.best_total, self.best_game_id = seat.total, seat.game_id
        if self.worst_total is None or seat.total > self.worst_total:
            self.worst_total, self.worst_game_id = seat.total, seat.game_id


@dataclass
class HeadToHead:
    """The player's record against one opponent over the games both finished (counts of
    games)."""

    opponent_id: int
    games: int = 0
    ahead: int = 0
    behind: int = 0
    level: int = 0


def player_stats(results: Iterable[GameResult], player_id: int) -> PlayerStats:
    """The record of ``player_id`` over ``results`` (games without them are skipped)."""
    stats = PlayerStats(player_id)
    for result in results:
        for seat in result.seats:
            if seat.player_id == player_id:
                stats.add(seat)
    return stats


def head_to_head(results: Iterable[GameResult], player_id: int) -> list[HeadToHead]:
    """Every opponent of ``player_id`` with the head-to-head record, most frequent first
    (then by opponent id, for a stable order)."""
    table: dict[int, HeadToHead] = {}
    for result in results:
        mine = next((s for s in result.seats if s.player_id == player_id), None)
        if mine is None:
            continue
        for other in result.seats:
            if other.player_id == player_id:
                continue
            h2h = table.setdefault(other.player_id, HeadToHead(other.player_id))
            h2h.games += 1
            if mine.rank < other.rank:
                h2h.ahead += 1
            elif mine.rank > other.rank:
                h2h.behind += 1
            else:
                h2h.level += 1
    return sorted(table.values(), key=lambda h: (-h.games, h.opponent_id))


def all_player_stats(results: Iterable[GameResult]) -> dict[int, PlayerStats]:
    """Player id -> record, for every player in ``results`` (one pass)."""
    table: dict[int, PlayerStats] = defaultdict(lambda: PlayerStats(0))
    for result in results:
        for seat in result.seats:
            stats = table[seat.player_id]
            stats.player_id = seat.player_id
            stats.add(seat)
    return dict(table)


def leaderboard(results: Iterable[GameResult]) -> list[PlayerStats]:
    """Every player's record, best first (see :func:`rank_players`)."""
    return rank_players(all_player_stats(results).values())


def rank_players(rows: Iterable[PlayerStats]) -> list[PlayerStats]:
    """Player records best first: most wins, then higher win rate, then more shared wins,
    then fewer average points per round, then player id (stable)."""
    return sorted(
        rows,
        key=lambda s: (
            -s.wins,
            -(s.win_rate or 0.0),
            -s.shared_wins,
            s.average_points if s.average_points is not None else float("inf"),
            s.player_id,
        ),
    )
