"""The checker's contract (QUESTIONS.md): a question dict in, an answer dict out.

A question is ``{"id", "category", "ruleset", "input"}``; :func:`answer` returns a dict of facts
from the QUESTIONS.md vocabulary plus ``message`` (one sentence) and ``rule`` (the RULES.md
section), or ``{"error": {"code", "message", "where"}}`` for a malformed question. It never
raises. :func:`answer_document` answers a whole cases file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeGuard

from .errors import EngineError
from .layout import CENTER, Layout, replay
from .limits import (
    MAX_PLAYER_COUNTS,
    MAX_PLAYERS,
    check_count,
    check_shape,
    check_text,
    label,
)
from .moves import check_move
from .round_end import round_status
from .rules import RuleSet, check_players, check_set_size, ruleset_from_spec, spokes_required
from .scoring import double_blank_penalty_possible, max_hand_points, running_totals, score_hand
from .sequence import next_round, round_double, round_doubles
from .setup import HandSizeUndefined, deal
from .starters import start_of_round
from .tiebreak import decide, leaders_by_round, records
from .tiles import DominoSet, Tile, ensure_distinct
from .turns import advise_turn

CATEGORIES = (
    "placement",
    "draw",
    "round_end",
    "scoring",
    "tiebreak",
    "round_sequence",
    "setup",
    "start_player",
    "edge",
)

Answer = dict[str, Any]
#: Why no list or object of players is longer than MAX_PLAYERS (RULES.md §3.1), for messages.
SEATED = f"players: a table seats at most {MAX_PLAYERS}"


class Question:
    """A parsed question: its rules, set and raw input, with typed accessors that raise
    EngineError naming the offending field."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.raw = raw
        self.rules: RuleSet = ruleset_from_spec(raw.get("ruleset"))
        inp = raw.get("input", {})
        if not isinstance(inp, Mapping):
            raise EngineError("BAD_INPUT", "input must be an object.", "input")
        self.input: Mapping[str, Any] = inp
        n = inp.get("set", self.rules.set_size)
        self.set_size = check_set_size(n, "input.set" if "set" in inp else "ruleset.set_size")
        self.dominoes = DominoSet(self.set_size)

    def has(self, key: str) -> bool:
        """True when the input gives ``key`` (and it is not null)."""
        return self.input.get(key) is not None

    @property
    def players(self) -> int | None:
        """The player count, if given (2..12)."""
        return check_players(self.input["players"]) if self.has("players") else None

    def integer(
        self, key: str, default: int | None = None, minimum: int = 0, maximum: int | None = None
    ) -> int:
        """A whole number in ``minimum..maximum`` from the input (``maximum`` defaults to the
        set's tile count: no count of tiles can be larger). Raises EngineError(``BAD_VALUE``)."""
        value = self.input.get(key, default)
        most = self.dominoes.tile_count if maximum is None else maximum
        if value is None:
            raise EngineError(
                "MISSING_INPUT",
                "The question needs '%(key)s'.",
                f"input.{key}",
                params={"key": key},
            )
        if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= most:
            raise EngineError(
                "BAD_VALUE",
                "'%(key)s' must be a whole number from %(minimum)s to %(most)s, not %(value)s.",
                f"input.{key}",
                params={"key": key, "minimum": minimum, "most": most, "value": repr(value)},
            )
        return value

    def items(self, key: str, most: int, what: str) -> Any:
        """The input's ``key`` once its length is known to be at most ``most`` (see
        :func:`check_count`); ``what`` names the entries and the bound's reason."""
        value = self.input.get(key)
        check_count(value, most, f"input.{key}", what)
        return value

    def names(self, key: str) -> list[str]:
        """A list of player names (at most one per player of a table, §3.1)."""
        value = self.items(key, MAX_PLAYERS, SEATED)
        value = value or []
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            raise EngineError(
                "BAD_VALUE",
                "%(key)s is a list of player names.",
                f"input.{key}",
                params={"key": key},
            )
        return value

    def round_scores(self, code: str = "BAD_VALUE") -> Mapping[str, list[int]]:
        """``round_scores``: player -> points per round, at most 12 players, at most the set's
        N+1 rounds (§4) and no score above what the whole set left in hand would cost (§7).
        Raises EngineError (``code`` when it is missing, ``TOO_LARGE``, ``BAD_SCORE``)."""
        scores = self.items("round_scores", MAX_PLAYERS, SEATED)
        if not isinstance(scores, Mapping) or not scores:
            raise EngineError(
                code,
                "round_scores maps each player to their list of round scores.",
                "input.round_scores",
            )
        rounds = self.dominoes.rounds
        most = max_hand_points(self.dominoes.tile_count, self.set_size, self.rules)
        for player, points in scores.items():
            where = f"input.round_scores.{player}"
            game = f"rounds: a double-{self.set_size} game has {rounds}"
            check_count(points, rounds, where, game)
            for i, value in enumerate(points if isinstance(points, list) else ()):
                if isinstance(value, int) and not isinstance(value, bool) and value > most:
                    raise EngineError(
                        "BAD_SCORE",
                        "%(value)s is more than a whole double-%(set_size)s set left in hand "
                        "would score (%(most)s).",
                        f"{where}[{i}]",
                        params={"value": value, "set_size": self.set_size, "most": most},
                    )
        records(scores)  # the remaining checks: lists of whole points >= 0
        return scores

    def flag(self, key: str) -> bool:
        """A boolean from the input (absent = False). Raises EngineError for non-booleans."""
        value = self.input.get(key, False)
        if not isinstance(value, bool):
            raise EngineError(
                "BAD_VALUE", "'%(key)s' must be true or false.", f"input.{key}", params={"key": key}
            )
        return value

    def text(self, key: str) -> str | None:
        """A player name or id from the input, if given."""
        value = self.input.get(key)
        if value is not None and not isinstance(value, str):
            raise EngineError(
                "BAD_VALUE", "'%(key)s' must be a name.", f"input.{key}", params={"key": key}
            )
        return value

    def tile(self, value: Any, where: str) -> Tile:
        """Parse one tile of this question's set."""
        return self.dominoes.parse(value, where)

    def hand(self, key: str = "hand") -> tuple[list[Tile], dict[Tile, str]]:
        """A hand of tiles, and each tile's text as written (for echoing back)."""
        raw = self.input.get(key)
        tiles = list(self.dominoes.parse_hand(raw, f"input.{key}"))
        return tiles, dict(zip(tiles, raw or (), strict=True))  # parse_hand took raw as a list

    def spokes(self) -> int:
        """K for this table (RULES.md §5.2).

        Under ``players_to_8`` (S001) the table picks K from players..8; when the question does
        not say which, K is the least the position allows: one per player (4 if the count is
        unknown), or more if more spokes are already on the centre double.
        """
        chosen = self.input.get("center_spokes_required")
        if chosen is None and self.rules.center_spokes_required == "players_to_8":
            on_centre = _spokes_in(self.input.get("layout"))
            least = self.players if self.players is not None else 4
            if on_centre > least:
                chosen = min(on_centre, max(8, least))
        return spokes_required(self.rules, self.set_size, self.players, chosen)

    def layout(self, extra_used: list[Tile] = ()) -> Layout:  # type: ignore[assignment]
        """The replayed, validated layout (RULES.md §0)."""
        if not self.has("layout"):
            raise EngineError("MISSING_INPUT", "The question needs a layout.", "input.layout")
        return replay(
            self.input["layout"],
            self.dominoes,
            self.spokes(),
            self.rules.foot_toes_required,
            extra_used=extra_used,
        )

    def player_tiles(self, key: str) -> dict[str, list[Tile]]:
        """player -> tiles from an object of lists (e.g. ``hands``)."""
        raw = self.input.get(key, {})
        if not isinstance(raw, Mapping):
            raise EngineError(
                "BAD_VALUE",
                "'%(key)s' must map each player to a list of tiles.",
                f"input.{key}",
                params={"key": key},
            )
        check_count(raw, MAX_PLAYERS, f"input.{key}", SEATED)
        return {
            str(p): list(self.dominoes.parse_hand(h, f"input.{key}.{p}")) for p, h in raw.items()
        }


def _spokes_in(layout: Any) -> int:
    """How many tiles a layout JSON puts on the centre double (0 if it is not readable)."""
    tiles = layout.get("tiles") if isinstance(layout, Mapping) else None
    if not isinstance(tiles, list):
        return 0
    return sum(1 for t in tiles if isinstance(t, Mapping) and t.get("on") == "C")


# --- placement ---------------------------------------------------------------------------------
def _placement(q: Question) -> Answer:
    layout = q.layout()
    plays = q.input.get("turn") or []
    if not isinstance(plays, list):
        raise EngineError("BAD_VALUE", "turn must be a list of plays.", "input.turn")
    n, count = q.set_size, q.dominoes.tile_count
    check_count(plays, count, "input.turn", f"plays: a double-{n} set has {count} tiles")
    move = q.input.get("move")
    if move is None and not plays:
        raise EngineError(
            "MISSING_INPUT", 'The question needs a move {"tile", "on"}.', "input.move"
        )
    last_player, streak = "", 0
    steps = [(p, f"input.turn[{i}]") for i, p in enumerate(plays)]
    if move is not None:
        steps.append((move, "input.move"))
    verdict = None
    for i, (play, where) in enumerate(steps):
        if not isinstance(play, Mapping):
            raise EngineError("BAD_VALUE", 'A play is {"tile", "on"}.', where)
        player = play.get("player") or (last_player if where == "input.move" else "")
        streak = streak + 1 if (player and player == last_player) else 0
        tile = q.tile(play.get("tile"), f"{where}.tile")
        on = play.get("on")
        if not isinstance(on, str):
            raise EngineError(
                "BAD_VALUE", '\'on\' must be a tile id such as "C" or "S1".', f"{where}.on"
            )
        try:
            verdict = check_move(
                layout,
                tile,
                on,
                played_this_turn=streak,
                tiles_per_turn=q.rules.tiles_per_turn,
                player=str(player),
            )
        except EngineError as exc:
            field = "tile" if exc.code == "DUPLICATE_TILE" else "on"
            raise exc.located(f"{where}.{field}") from None
        if not verdict.legal or i == len(steps) - 1:
            break
        layout = layout.attach(tile, on)
        last_player = player
    assert verdict is not None  # steps is never empty: a move or at least one play
    answer = verdict.as_answer()
    if plays and move is None:
        answer["plays_checked"] = i + 1
    return answer


# --- draw --------------------------------------------------------------------------------------
def _draw(q: Question) -> Answer:
    hand, texts = q.hand()
    drawn = q.tile(q.input["tile_drawn"], "input.tile_drawn") if q.has("tile_drawn") else None
    extra = [*hand, *([drawn] if drawn else [])]
    ensure_distinct(extra, "input.tile_drawn")
    layout = q.layout(extra)
    advice = advise_turn(
        layout, hand, q.integer("yard_count", 0), q.rules, players=q.players, tile_drawn=drawn
    )
    answer: Answer = {
        "has_legal_play": advice.has_legal_play,
        "legal_plays": [[texts[t], on] for t, on in advice.legal_plays],
        "must_draw": advice.must_draw,
        "may_draw": advice.may_draw,
        "draw_count": advice.draw_count,
        "drawable_tiles": advice.drawable,
    }
    # Only a player who had to draw has a drawn tile to ask about: a tile given when the player
    # can play (or cannot draw) leaves these keys out, as QUESTIONS.md says of keys that do not
    # apply, rather than answering null.
    if drawn is not None and advice.drawn_playable is not None:
        answer["drawn_tile_playable"] = advice.drawn_playable
        answer["must_play_drawn"] = advice.must_play_drawn
        answer["may_play_drawn"] = advice.may_play_drawn
    if advice.result is not None:
        answer["turn_result"] = advice.result
    answer.update(message=advice.message, rule=advice.rule)
    return answer


# --- round end ---------------------------------------------------------------------------------
def _round_end(q: Question) -> Answer:
    hands = q.player_tiles("hands")
    event = q.input.get("event")
    went_out, last_double = None, False
    layout = q.layout([t for h in hands.values() for t in h])
    if event is not None:
        layout, went_out, last_double = _apply_event(q, layout, hands, event)
    all_tiles = [t for h in hands.values() for t in h]
    ensure_distinct(all_tiles, "input.hands")
    to_move = q.text("to_move")
    status = round_status(
        layout,
        hands,
        q.integer("yard_count", 0),
        q.rules,
        players=q.players,
        to_move=to_move,
        went_out=went_out,
        last_tile_was_double=last_double,
    )
    answer: Answer = {"round_over": status.over, "reason": status.reason}
    if status.over:
        answer["scores"] = {p: s.points for p, s in status.scores.items()}
        for p, s in status.scores.items():
            answer[f"score_{p}"] = s.points
        if event is not None and event.get("player") in status.scores:
            answer["counts_as_zero_round"] = status.scores[event["player"]].is_zero_round
    answer.update(message=status.message, rule=status.rule)
    return answer


def _apply_event(
    q: Question, layout: Layout, hands: dict[str, list[Tile]], event: Any
) -> tuple[Layout, str | None, bool]:
    if not isinstance(event, Mapping) or not isinstance(event.get("player"), str):
        raise EngineError(
            "BAD_VALUE", 'event is {"player", "tile", "on", "hand_after"}.', "input.event"
        )
    player = event["player"]
    tile = q.tile(event.get("tile"), "input.event.tile")
    on = event.get("on")
    holder = next((p for p, held in hands.items() if p != player and tile in held), None)
    if holder is not None:
        raise EngineError(
            "DUPLICATE_TILE",
            "%(tile)s is in %(holder)s's hand, so %(player)s cannot have played it.",
            "input.event.tile",
            params={"tile": tile, "holder": holder, "player": player},
        )
    if tile in layout.used:  # drawn in the layout already: it must lie where the event says
        placed = layout.find(tile)
        if placed == CENTER or (isinstance(on, str) and layout.get(str(placed)).on != on):
            raise EngineError(
                "DUPLICATE_TILE",
                "%(tile)s is already on the table as %(place)s.",
                "input.event.tile",
                params={"tile": tile, "place": layout.name_of(tile)},
            )
    else:
        if not isinstance(on, str):
            raise EngineError("BAD_VALUE", "event.on must be a tile id.", "input.event.on")
        verdict = check_move(layout, tile, on)
        if not verdict.legal:
            raise EngineError(
                "ILLEGAL_EVENT",
                "That play could not have happened: %(message)s",
                "input.event",
                params={"message": verdict.message},
            )
        layout = layout.attach(tile, on)
    if "hand_after" in event:
        after = list(q.dominoes.parse_hand(event["hand_after"], "input.event.hand_after"))
        if tile in after:
            raise EngineError(
                "DUPLICATE_TILE",
                "%(tile)s was just played, so it is not in hand.",
                "input.event.hand_after",
                params={"tile": tile},
            )
        for i, held in enumerate(after):
            if held in layout.used:
                raise EngineError(
                    "DUPLICATE_TILE",
                    "%(held)s is on the table as %(place)s, so it is not in hand.",
                    f"input.event.hand_after[{i}]",
                    params={"held": held, "place": layout.name_of(held)},
                )
        hands[player] = after
    elif tile in hands.get(player, []):
        hands[player] = [t for t in hands[player] if t != tile]
    if not hands.get(player, [None]):
        return layout, player, tile.is_double
    return layout, None, False


# --- scoring -----------------------------------------------------------------------------------
def _scoring(q: Question) -> Answer:
    answer: Answer = {}
    centre = (
        q.tile(q.input["round_start_double"], "input.round_start_double")
        if q.has("round_start_double")
        else None
    )
    if centre is not None and not centre.is_double:
        raise EngineError(
            "BAD_VALUE",
            "%(centre)s is not a double.",
            "input.round_start_double",
            params={"centre": centre},
        )
    if q.has("hand"):
        hand, _ = q.hand()
        round_end = q.input.get("round_end")
        if round_end not in (None, "OUT", "BLOCKED"):
            raise EngineError("BAD_VALUE", 'round_end is "OUT" or "BLOCKED".', "input.round_end")
        went_out = q.flag("went_out") or (not hand and round_end != "BLOCKED")
        score = score_hand(
            hand,
            q.rules,
            went_out=went_out,
            last_tile_was_double=q.flag("last_tile_was_double"),
            round_double=centre,
        )
        answer.update(
            score=score.points,
            is_zero_round=score.is_zero_round,
            message=score.explanation,
            rule=score.rule,
        )
    if q.has("round_scores"):
        answer.update(_totals(q))
    if centre is not None:
        possible = double_blank_penalty_possible(q.rules, centre)
        answer["double_blank_penalty_possible"] = possible
        if "message" not in answer:
            answer["message"] = (
                f"In the {centre} round the double-blank is the centre tile, so nobody can be "
                "caught with it."
                if centre == Tile(0, 0)
                else f"Whoever is caught with 0-0 this round scores {q.rules.double_blank_value}."
                if possible
                else "The double-blank costs nothing extra under these house rules."
            )
            answer["rule"] = "4"
    if not answer:
        raise EngineError(
            "MISSING_INPUT",
            "A scoring question needs a hand, round_scores or a round_start_double.",
            "input",
        )
    return answer


def _totals(q: Question) -> Answer:
    scores = q.round_scores()
    totals = running_totals(scores)
    rounds = max(len(v) for v in scores.values())
    leaders: list[Any] = [
        w[0] if len(w) == 1 else list(w) for w in leaders_by_round(scores, q.rules)
    ]
    answer: Answer = {"totals_after_each_round": totals, "leader_after_each_round": leaders}
    for r, leader in enumerate(leaders, start=1):
        answer[f"leader_after_round_{r}"] = leader
    if "message" not in answer:
        last = leaders[-1] if leaders else None
        answer["message"] = (
            f"After round {rounds} the leader is "
            f"{last if isinstance(last, str) else ' and '.join(last or [])}."
        )
        answer["rule"] = "7"
    return answer


# --- tie-break ---------------------------------------------------------------------------------
def _tiebreak(q: Question) -> Answer:
    recs = records(q.round_scores("MISSING_INPUT"))
    decision = decide(recs, q.rules)
    winners = list(decision.winners)
    return {
        "winners": winners,
        "decided_at": decision.decided_at,
        "totals": {r.player: r.total for r in recs},
        "zero_rounds": {r.player: r.zero_rounds for r in recs},
        "best_nonzero_round": {r.player: r.best_nonzero for r in recs},
        "message": _tiebreak_message(winners, decision.decided_at, recs),
        "rule": decision.rule,
    }


def _tiebreak_message(winners: list[str], decided_at: str, recs: list[Any]) -> str:
    names = " and ".join(winners)
    by = {r.player: r for r in recs}
    w = by[winners[0]]
    return {
        "lowest_total": f"{names} wins with the lowest total, {w.total} points.",
        "most_zero_rounds": f"{names} wins the tie on {w.total} points with the most zero rounds "
        f"({w.zero_rounds}).",
        "lowest_single_nonzero_round": f"{names} wins the tie: same total and zero rounds, but "
        f"the lowest single non-zero round ({w.best_nonzero}).",
        "extension_next_lowest_nonzero": f"{names} wins on the next-lowest non-zero round "
        "(a house extension).",
        "unresolved_shared": f"{names} share the win: total, zero rounds and best non-zero round "
        "are all equal.",
    }[decided_at]


# --- round sequence ----------------------------------------------------------------------------
def _double_value(q: Question, value: Any, where: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value <= q.set_size:
            return value
        raise EngineError(
            "BAD_DOUBLE",
            "%(value)s is not a double of a double-%(set_size)s set.",
            where,
            params={"value": value, "set_size": q.set_size},
        )
    tile = q.tile(value, where)
    if not tile.is_double:
        raise EngineError("BAD_DOUBLE", "%(tile)s is not a double.", where, params={"tile": tile})
    return tile.high


def _holders(q: Question) -> dict[int, str | None]:
    rounds = q.dominoes.rounds
    what = f"doubles: a double-{q.set_size} set has {rounds}"
    raw = q.items("holders", rounds, what) or {}
    if not isinstance(raw, Mapping):
        raise EngineError(
            "BAD_VALUE", "holders maps a double to a player (or null).", "input.holders"
        )
    out: dict[int, str | None] = {}
    for key, who in raw.items():
        if who is not None and not isinstance(who, str):
            raise EngineError(
                "BAD_VALUE", "A holder is a player name or null.", f"input.holders.{key}"
            )
        out[_double_value(q, key, f"input.holders.{key}")] = who
    return out


def _sequence(q: Question) -> Answer:
    n = q.set_size
    what = f"rounds: a double-{n} game has {q.dominoes.rounds}"
    raw_played = q.items("rounds_played", q.dominoes.rounds, what) or []
    if not isinstance(raw_played, list):
        raise EngineError("BAD_VALUE", "rounds_played is a list of doubles.", "input.rounds_played")
    played = [_double_value(q, d, f"input.rounds_played[{i}]") for i, d in enumerate(raw_played)]
    nxt = next_round(q.rules, n, played, _holders(q))
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


# --- setup -------------------------------------------------------------------------------------
def _setup(q: Question) -> Answer:
    chosen = q.input.get("hand_size_chosen")
    if q.has("players_list"):
        what = f"counts: only {MAX_PLAYER_COUNTS} player counts exist"
        counts = q.items("players_list", MAX_PLAYER_COUNTS, what)
        if not isinstance(counts, list) or not counts:
            raise EngineError(
                "BAD_VALUE", "players_list is a list of player counts.", "input.players_list"
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
    answer.update(_hub_capacity(q))
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


def _hub_capacity(q: Question) -> Answer:
    n = q.set_size
    requested = q.input.get("requested_center_spokes")
    answer: Answer = {"spoke_tiles_in_set": n, "max_possible": n}
    if requested is not None:
        if not isinstance(requested, int) or isinstance(requested, bool) or requested < 1:
            raise EngineError(
                "BAD_VALUE",
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


# --- start player ------------------------------------------------------------------------------
def _start_player(q: Question) -> Answer:
    n = q.set_size
    rnd = q.integer("round", 1, minimum=1, maximum=q.dominoes.rounds)
    given = q.input.get("start_double", q.input.get("round_start_double"))
    double = (
        _double_value(q, given, "input.start_double") if given is not None else round_double(n, rnd)
    )
    seats = q.names("seats_clockwise")
    holders = _holders(q)
    draws_raw = q.items("draws", MAX_PLAYERS, SEATED) or {}
    if not isinstance(draws_raw, Mapping):
        raise EngineError("BAD_VALUE", "draws maps a player to the tile they drew.", "input.draws")
    draws = {p: q.tile(t, f"input.draws.{p}") for p, t in draws_raw.items()}
    ensure_distinct(draws.values(), "input.draws")
    found_by = q.text("found_by") or _search(q, double)
    info = start_of_round(
        q.rules,
        double,
        rnd,
        seats=seats,
        holder=holders.get(double),
        draws=draws,
        found_by=found_by,
        round1_starter=q.text("round1_starter"),
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
            raise EngineError("BAD_VALUE", "A draw names its player.", f"input.search_order[{i}]")
        if q.tile(tile, f"input.search_order[{i}]") == Tile(double, double):
            return player
    return None


# --- edge --------------------------------------------------------------------------------------
def _announcement(q: Question) -> Answer:
    player = q.text("player") or "The player"
    applies = (
        q.rules.last_tile_announcement == "tap_or_draw_1"
        and q.integer("tiles_left", 1) == 1
        and not q.flag("announced")
        and q.flag("next_player_has_played")
    )
    can_draw = q.integer("yard_count", 1) > 0
    if not applies:
        msg = (
            "No penalty: these house rules do not require announcing the last tile."
            if q.rules.last_tile_announcement == "off"
            else "No penalty: the last tile was announced in time, or it is not the last tile."
        )
        return {"penalty": None, "penalty_applies": False, "message": msg, "rule": "5.5"}
    if not can_draw:
        return {
            "penalty": None,
            "penalty_applies": True,
            "rule": "5.5",
            "message": f"{player} should draw 1 tile, but the chicken yard is empty.",
        }
    return {
        "penalty": f"{player} draws 1 tile from the yard",
        "penalty_applies": True,
        "message": f"{player} did not announce their last tile before the next player "
        "played, so they draw 1 tile from the chicken yard.",
        "rule": "5.5",
    }


def _edge(q: Question) -> Answer:
    keys = {k for k, v in q.input.items() if v is not None}
    if keys & {"announced", "tiles_left", "next_player_has_played"}:
        return _announcement(q)
    if keys & {"move", "turn"}:
        return _placement(q)
    if keys & {"event", "hands"}:
        return _round_end(q)
    if "layout" in keys and "hand" in keys:
        return _draw(q)
    if "round_scores" in keys:
        answer = _scoring(q)
        answer.update({k: v for k, v in _tiebreak(q).items() if k not in ("message", "rule")})
        return answer
    if keys & {"hand", "round_end", "round_start_double"}:
        return _scoring(q)
    if keys & {"seats_clockwise", "round", "draws", "found_by", "round1_starter"}:
        return _start_player(q)
    if keys & {"rounds_played", "holders"}:
        return _sequence(q)
    if keys & {"players", "players_list"}:
        return _setup(q)
    if "requested_center_spokes" in keys:
        return _hub(q)
    answer = _sequence(q)
    answer.update({k: v for k, v in _hub(q).items() if k not in ("message", "rule")})
    return answer


def _hub(q: Question) -> Answer:
    """The centre double's capacity: K, the N tiles of its suit, and whether K fits (§5.2)."""
    answer = _hub_capacity(q)
    feasible = answer.pop("spokes_feasible", True)
    message = answer.pop("spokes_message", None)
    if message is None:
        n, k = q.set_size, answer["spokes_required"]
        message = (
            f"The centre double takes {k} spokes; a double-{n} set has {n} tiles carrying its "
            "number besides the double."
        )
    answer.update(feasible=feasible, message=message, rule="5.2")
    return answer


HANDLERS: dict[str, Callable[[Question], Answer]] = {
    "placement": _placement,
    "draw": _draw,
    "round_end": _round_end,
    "scoring": _scoring,
    "tiebreak": _tiebreak,
    "round_sequence": _sequence,
    "setup": _setup,
    "start_player": _start_player,
    "edge": _edge,
}


def answer(question: Any, *, worded: Callable[[EngineError], str] | None = None) -> Answer:
    """Answer one question of QUESTIONS.md. Never raises: errors become an error answer.

    ``worded`` turns an error into the sentence its answer carries (a web page passes its
    translation, so the engine stays free of gettext); by default the English message.
    """
    try:
        if not isinstance(question, Mapping):
            raise EngineError(
                "BAD_QUESTION", "A question is an object with category, ruleset and input.", ""
            )
        check_shape(question)  # size bounds first: refused questions cost no more work
        category = question.get("category")
        if not isinstance(category, str) or category not in HANDLERS:
            raise EngineError(
                "UNKNOWN_CATEGORY",
                "%(category)s is not a question category; use one of %(categories)s.",
                "category",
                params={"category": repr(category), "categories": ", ".join(CATEGORIES)},
            )
        return HANDLERS[category](Question(question))
    except EngineError as exc:
        error = exc.as_dict()
        if worded is not None:
            error["message"] = worded(exc)
        return {"error": error}
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as exc:
        return {
            "error": {
                "code": "MALFORMED",
                "message": f"The question could not be read: {label(exc)}",
                "where": "",
            }
        }
    except Exception:  # a fault of the engine, not of the question: still one error answer, so
        # that one question never costs a batch or a file its other answers
        return {
            "error": {
                "code": "ENGINE_FAULT",
                "message": "The engine could not answer this question (a fault of the engine; "
                "please report it with the question).",
                "where": "",
            }
        }


def answer_document(doc: Any) -> dict[str, Answer]:
    """Answer every case of a cases.json-shaped document: ``{"cases": [...]}`` or a bare list.

    Returns case id -> answer; a case without a usable id (missing, not text, over
    :data:`~companion.engine.limits.MAX_TEXT` characters, or repeating an earlier case's id) is
    keyed ``#<index>``, so every case keeps its answer. ``expected`` and other extra fields are
    ignored.
    """
    cases = doc.get("cases") if isinstance(doc, Mapping) else doc
    if not isinstance(cases, list):
        return {
            "#document": {
                "error": {
                    "code": "BAD_DOCUMENT",
                    "message": "The file has no list of cases.",
                    "where": "cases",
                }
            }
        }
    answers: dict[str, Answer] = {}
    for i, case in enumerate(cases):
        case_id = case.get("id") if isinstance(case, Mapping) else None
        key = case_id if _usable_id(case_id) and case_id not in answers else f"#{i}"
        answers[key] = answer(case)
    return answers


def _usable_id(case_id: Any) -> TypeGuard[str]:
    """A case id that can key its answer: non-empty text within the limits (a repeated id would
    hide an earlier answer, so callers key the repeat by its index instead)."""
    if not isinstance(case_id, str) or not case_id:
        return False
    try:
        check_text(case_id, "id")
    except EngineError:
        return False
    return True
