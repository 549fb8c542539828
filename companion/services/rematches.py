"""Where a finished game's links lead once a rematch started: the live rematch (the newest of
a chain of finished games and their rematches), and the seat at the same place in it. Used by
the join link, a player's photo page and the scorekeeper's photo page of the old game (its hand
page already follows the carried seat)."""

from __future__ import annotations

from ..models import Game, Seat
from ..vocab import GameStatus
from .game_lookup import live_rematch


def followed_rematch(game: Game) -> Game | None:
    """The live rematch a finished ``game``'s links lead to, or None while the game is played
    or has no live rematch."""
    found: Game | None = None
    seen = {game.id}
    while game.status == GameStatus.FINISHED:
        new = live_rematch(game)
        if new is None or new.id in seen:
            break
        found = game = new
        seen.add(new.id)
    return found


def same_place(old: Game, seat_id: int, new: Game) -> Seat | None:
    """The seat of ``new`` at the place of ``old``'s seat ``seat_id`` (a rematch keeps the
    seats in the same order), or None."""
    position = next((s.position for s in old.seats if s.id == seat_id), None)
    return next((s for s in new.seats if s.position == position), None)
