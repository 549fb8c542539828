"""Questions that cut across categories (QUESTIONS.md "edge"): the last-tile announcement, the
centre double's capacity, and the other categories' questions asked as special cases."""

from __future__ import annotations

from .game import hub_capacity, sequence, setup, start_player
from .play import draw, placement, round_end
from .reading import Answer, Question
from .scores import scoring, tiebreak


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


def edge(q: Question) -> Answer:
    keys = {k for k, v in q.input.items() if v is not None}
    if keys & {"announced", "tiles_left", "next_player_has_played"}:
        return _announcement(q)
    if keys & {"move", "turn"}:
        return placement(q)
    if keys & {"event", "hands"}:
        return round_end(q)
    if "layout" in keys and "hand" in keys:
        return draw(q)
    if "round_scores" in keys:
        answer = scoring(q)
        answer.update({k: v for k, v in tiebreak(q).items() if k not in ("message", "rule")})
        return answer
    if keys & {"hand", "round_end", "round_start_double"}:
        return scoring(q)
    if keys & {"seats_clockwise", "round", "draws", "found_by", "round1_starter"}:
        return start_player(q)
    if keys & {"rounds_played", "holders"}:
        return sequence(q)
    if keys & {"players", "players_list"}:
        return setup(q)
    if "requested_center_spokes" in keys:
        return _hub(q)
    answer = sequence(q)
    answer.update({k: v for k, v in _hub(q).items() if k not in ("message", "rule")})
    return answer


def _hub(q: Question) -> Answer:
    """The centre double's capacity: K, the N tiles of its suit, and whether K fits (§5.2)."""
    answer = hub_capacity(q)
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
