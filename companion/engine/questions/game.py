"""Questions about a game's course (QUESTIONS.md "round_sequence", "setup", "start_player"):
which double starts the coming round, the deal, the centre's capacity, who starts (RULES.md §3,
§4, §5.2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..deal import HandSizeUndefined, deal
from ..errors import EngineError, ErrorCode
from ..limits import (
    MAX_PLAYER_COUNTS,
    MAX_PLAYERS,
)
from ..rules import check_players
from ..sequence import next_round, round_double, round_doubles
from ..starters import start_of_round
from ..state import RoundStart, RoundState
from ..tiles import Tile, ensure_distinct
from .reading import SEATED, Answer, Question


def double_value(q: Question, value: Any, where: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value <= q.set_size:
            return value
        raise EngineError(
            ErrorCode.BAD_DOUBLE,
            "%(value)s is not a double of a double-%(set_size)s set.",
            where,
            params={"value": value, "set_size": q.set_size},
        )
    tile = q.tile(value, where)
    if not tile.is_double:
        raise EngineError(
            ErrorCode.BAD_DOUBLE, "%(tile)s is not a double.", where, params={"tile": tile}
        )
    return tile.high


def _holders(q: Question) -> dict[int, str | None]:
    rounds = q.dominoes.rounds
    what = f"doubles: a double-{q.set_size} set has {rounds}"
    raw = q.items("holders", rounds, what) or {}
    if not isinstance(raw, Mapping):
        raise EngineError(
            ErrorCode.BAD_VALUE, "holders maps a double to a player (or null).", "input.holders"
        )
    out: dict[int, str | None] = {}
    for key, who in raw.items():
        if who is not None and not isinstance(who, str):
            raise EngineError(
                ErrorCode.BAD_VALUE, "A holder is a player name or null.", f"input.holders.{key}"
            )
        out[double_value(q, key, f"input.holders.{key}")] = who
    return out


def sequence(q: Question) -> Answer:
    n = q.set_size
    what = f"rounds: a double-{n} game has {q.dominoes.rounds}"
    raw_played = q.items("rounds_played", q.dominoes.rounds, what) or []
    if not isinstance(raw_played, list):
        raise EngineError(
            ErrorCode.BAD_VALUE, "rounds_played is a list of doubles.", "input.rounds_played"
        )
    played = [double_value(q, d, f"input.rounds_played[{i}]") for i, d in enumerate(raw_played)]
    nxt = next_round(RoundState(rules=q.rules, set_size=n, played=played, holders=_holders(q)))
    answer: Answer = {
        "tiles": q.dominoes.tile_count,
        "total_pips": q.dominoes.total_pips,
        "rounds": q.dominoes.rounds,
        "round_start_doubles": list(round_doubles(n)),
        "spoke_candidates_for_centre": q.dominoes.spoke_tiles_per_suit,
        "start_double": nxt.start_double,
        "next_start_double": nxt.start_double,
        "next_start_double_after": nxt.following,
        "rounds_left": nxt.rounds_left,
        "game_over": nxt.game_over,
        "burned": list(nxt.burned),
        "passed_over": list(nxt.passed_over),
        "procedure": nxt.procedure,
    }
    if nxt.game_over:
        answer["message"] = "The game is over: the double-blank round has been played."
    else:
        answer["message"] = (
            f"A double-{n} game has {q.dominoes.rounds} rounds; the coming round "
            f"starts with {nxt.start_double}-{nxt.start_double}. {nxt.procedure}"
        )
    answer["rule"] = nxt.rule
    return answer


def setup(q: Question) -> Answer:
    chosen = q.input.get("hand_size_chosen")
    if q.has("players_list"):
        what = f"counts: only {MAX_PLAYER_COUNTS} player counts exist"
        counts = q.items("players_list", MAX_PLAYER_COUNTS, what)
        if not isinstance(counts, list) or not counts:
            raise EngineError(
                ErrorCode.BAD_VALUE,
                "players_list is a list of player counts.",
                "input.players_list",
            )
        per = {c: _one_setup(q, check_players(c, "input.players_list"), chosen) for c in counts}
        answer: Answer = {
            key: {str(c): a[key] for c, a in per.items() if key in a}
            for key in ("hand_size", "yard_after_deal", "feasible")
        }
        answer["message"] = "; ".join(f"{c} players: {a['message']}" for c, a in per.items())
        answer["rule"] = "3.2"
    else:
        answer = _one_setup(q, check_players(q.input.get("players"), "input.players"), chosen)
    answer.update(hub_capacity(q))
    if answer.get("spokes_feasible") is False:
        answer["feasible"] = False
        answer["message"] = answer["spokes_message"]
        answer["rule"] = "5.2"
    answer.pop("spokes_message", None)
    return answer


def _one_setup(q: Question, players: int, chosen: Any) -> Answer:
    try:
        d = deal(q.rules, q.set_size, players, chosen)
    except HandSizeUndefined as exc:
        return {"feasible": False, "message": exc.message, "rule": "3.2"}
    answer: Answer = {
        "hand_size": d.hand_size,
        "feasible": d.feasible,
        "needed": d.needed,
        "available": d.available,
    }
    if d.feasible:
        answer["yard_after_deal"] = d.yard_after_deal
        answer["drawable_before_reserve"] = d.drawable
        answer["message"] = (
            f"{d.hand_size} tiles each; {d.yard_after_deal} stay in the chicken "
            "yard" + (f" ({d.reserve} of them never drawn)" if d.reserve else "") + "."
        )
    else:
        answer["message"] = (
            f"{players} players x {d.hand_size} tiles need {d.needed} tiles, "
            f"but only {d.available} are available."
        )
    answer["rule"] = "3.2"
    return answer


def hub_capacity(q: Question) -> Answer:
    n = q.set_size
    requested = q.input.get("requested_center_spokes")
    answer: Answer = {"spoke_tiles_in_set": n, "max_possible": n}
    if requested is not None:
        if not isinstance(requested, int) or isinstance(requested, bool) or requested < 1:
            raise EngineError(
                ErrorCode.BAD_VALUE,
                "requested_center_spokes is a number of spokes.",
                "input.requested_center_spokes",
            )
        answer["spokes_required"] = requested
        if requested > n:
            answer["spokes_feasible"] = False
            answer["spokes_message"] = (
                f"Only {n} tiles besides the centre double carry its "
                f"number in a double-{n} set, so it can take at most {n} "
                f"spokes, not {requested}."
            )
        return answer
    try:
        answer["spokes_required"] = q.spokes()
    except EngineError as exc:
        answer["spokes_feasible"] = False
        answer["spokes_message"] = exc.message
    return answer


def start_player(q: Question) -> Answer:
    n = q.set_size
    rnd = q.integer("round", 1, minimum=1, maximum=q.dominoes.rounds)
    given = q.input.get("start_double", q.input.get("round_start_double"))
    double = (
        double_value(q, given, "input.start_double") if given is not None else round_double(n, rnd)
    )
    seats = q.names("seats_clockwise")
    holders = _holders(q)
    draws_raw = q.items("draws", MAX_PLAYERS, SEATED) or {}
    if not isinstance(draws_raw, Mapping):
        raise EngineError(
            ErrorCode.BAD_VALUE, "draws maps a player to the tile they drew.", "input.draws"
        )
    draws = {p: q.tile(t, f"input.draws.{p}") for p, t in draws_raw.items()}
    ensure_distinct(draws.values(), "input.draws")
    found_by = q.text("found_by") or _search(q, double)
    info = start_of_round(
        RoundStart(
            rules=q.rules,
            set_size=n,
            number=rnd,
            start_double=double,
            seats=seats,
            holders=holders,
            draws=draws,
            found_by=found_by,
            round1_starter=q.text("round1_starter"),
        )
    )
    answer: Answer = {
        "starter": info.starter,
        "first_spoke_by": info.first_spoke_by,
        "draw_tiles_returned_to_yard": info.draw_tiles_returned,
        "start_double_set_aside_before_deal": info.set_aside_before_deal,
        "start_double": double,
        "starter_action": info.action,
    }
    if info.tied:
        answer["tied"] = list(info.tied)
    who = info.starter or "The starter"
    answer["message"] = (
        f"{who} {info.action}."
        if info.starter
        else (
            f"Tied on the highest tile: {', '.join(info.tied)} draw again."
            if info.tied
            else f"Not enough is known yet: {info.action}."
        )
    )
    answer["rule"] = "3.6"
    return answer


def _search(q: Question, double: int) -> str | None:
    """The first player in ``search_order`` who drew the round's double, if the order lists
    draws as ``{"player", "tile"}`` or ``[player, tile]``."""
    count = q.dominoes.tile_count
    order = q.items("search_order", count, f"draws: a double-{q.set_size} set has {count} tiles")
    if not isinstance(order, list):
        return None
    for i, item in enumerate(order):
        if isinstance(item, Mapping):
            player, tile = item.get("player"), item.get("tile")
        elif isinstance(item, list | tuple) and len(item) == 2:
            player, tile = item
        else:
            continue
        if not isinstance(player, str):
            raise EngineError(
                ErrorCode.BAD_VALUE, "A draw names its player.", f"input.search_order[{i}]"
            )
        if q.tile(tile, f"input.search_order[{i}]") == Tile(double, double):
            return player
    return None
