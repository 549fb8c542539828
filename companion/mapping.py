"""Rows <-> engine objects, in one place. The web layer never re-implements rules: it maps its
rows to engine values here and asks the engine."""

from __future__ import annotations

from collections.abc import Mapping

from .engine import (
    DominoSet,
    NextRound,
    RoundState,
    RuleSet,
    Standing,
    Tile,
    next_round,
    parse_tile,
    standings,
)
from .models import Game, HandScore, Round, Seat
from .vocab import RoundStatus


def rules_of(game: Game) -> RuleSet:
    """The house rules frozen with ``game`` (RULES.md §9)."""
    return RuleSet.from_dict({**game.rules, "set_size": game.set_size})


def dominoes_of(game: Game) -> DominoSet:
    """The game's domino set."""
    return DominoSet(game.set_size)


def tiles_of(hand: HandScore) -> tuple[Tile, ...]:
    """The tiles recorded as left in a hand (empty when only a total was typed)."""
    return tuple(parse_tile(t) for t in (hand.tiles or ()))


def tile_texts(tiles: tuple[Tile, ...] | list[Tile]) -> list[str]:
    """Tiles as stored: ``["9-5", ...]``, high end first."""
    return [str(t) for t in tiles]


def scored_rounds(game: Game) -> list[Round]:
    """The rounds that were played and scored, in order (burned doubles left out)."""
    return [r for r in game.rounds if r.status == RoundStatus.SCORED]


def round_scores(game: Game) -> dict[Seat, list[int]]:
    """Seat -> points per scored round, in round order (a missing hand counts as absent)."""
    rounds = scored_rounds(game)
    out: dict[Seat, list[int]] = {seat: [] for seat in game.seats}
    by_round = [{h.seat_id: h.points for h in r.hands} for r in rounds]
    for seat in game.seats:
        out[seat] = [points[seat.id] for points in by_round if seat.id in points]
    return out


def standings_of(game: Game) -> list[tuple[Seat, Standing]]:
    """The standings with the tie-break step that separates neighbours (RULES.md §8)."""
    scores = round_scores(game)
    keyed: Mapping[str, list[int]] = {str(seat.id): pts for seat, pts in scores.items()}
    by_id = {str(seat.id): seat for seat in game.seats}
    return [(by_id[s.record.player], s) for s in standings(keyed, rules_of(game))]


def played_doubles(game: Game) -> list[int]:
    """Start doubles used so far (scored or burned), in round order."""
    return [r.start_double for r in game.rounds]


def coming_round(game: Game, holders: Mapping[int, str | None] | None = None) -> NextRound:
    """The coming round's double under the game's house rules (RULES.md §3.5, §4)."""
    state = RoundState(
        rules=rules_of(game),
        set_size=game.set_size,
        played=played_doubles(game),
        holders=holders or {},
    )
    return next_round(state)
