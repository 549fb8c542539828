"""Questions about the table in play (QUESTIONS.md "placement", "draw", "round_end"): can this
tile go there, must the player draw, is the round over (RULES.md §5, §6)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import EngineError, ErrorCode
from ..layout import CENTER, Layout, place_of
from ..limits import (
    check_count,
)
from ..moves import check_move
from ..round_end import RoundEnd, round_status
from ..state import RoundInPlay
from ..tiles import Tile, ensure_distinct
from ..turns import advise_turn
from .reading import Answer, Question


def placement(q: Question) -> Answer:
    layout = q.layout()
    plays = q.input.get("turn") or []
    if not isinstance(plays, list):
        raise EngineError(ErrorCode.BAD_VALUE, "turn must be a list of plays.", "input.turn")
    n, count = q.set_size, q.dominoes.tile_count
    check_count(plays, count, "input.turn", f"plays: a double-{n} set has {count} tiles")
    move = q.input.get("move")
    if move is None and not plays:
        raise EngineError(
            ErrorCode.MISSING_INPUT, 'The question needs a move {"tile", "on"}.', "input.move"
        )
    last_player, streak = "", 0
    steps = [(p, f"input.turn[{i}]") for i, p in enumerate(plays)]
    if move is not None:
        steps.append((move, "input.move"))
    verdict = None
    for i, (play, where) in enumerate(steps):
        if not isinstance(play, Mapping):
            raise EngineError(ErrorCode.BAD_VALUE, 'A play is {"tile", "on"}.', where)
        player = play.get("player") or (last_player if where == "input.move" else "")
        streak = streak + 1 if (player and player == last_player) else 0
        tile = q.tile(play.get("tile"), f"{where}.tile")
        on = play.get("on")
        if not isinstance(on, str):
            raise EngineError(
                ErrorCode.BAD_VALUE, '\'on\' must be a tile id such as "C" or "S1".', f"{where}.on"
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
            field = "tile" if exc.code == ErrorCode.DUPLICATE_TILE else "on"
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


def draw(q: Question) -> Answer:
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


def judge_round(q: Question) -> tuple[Layout, RoundEnd]:
    """The position (after ``input.event``, if any) and the round's status (RULES.md §6): the
    one path for the "round_end" answer and for :func:`companion.engine.explain.round_end_status`.
    """
    hands = q.player_tiles("hands")
    event = q.input.get("event")
    went_out, last_double = None, False
    layout = q.layout([t for h in hands.values() for t in h])
    if event is not None:
        layout, went_out, last_double = _apply_event(q, layout, hands, event)
    all_tiles = [t for h in hands.values() for t in h]
    ensure_distinct(all_tiles, "input.hands")
    state = RoundInPlay(
        layout=layout,
        hands=hands,
        yard_count=q.integer("yard_count", 0),
        rules=q.rules,
        players=q.players,
        to_move=q.text("to_move"),
        went_out=went_out,
        last_tile_was_double=last_double,
    )
    status = round_status(state)
    return layout, status


def round_end(q: Question) -> Answer:
    """Is the round over, why, and each hand's score (RULES.md §6, §7)."""
    _layout, status = judge_round(q)
    event = q.input.get("event")
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
            ErrorCode.BAD_VALUE, 'event is {"player", "tile", "on", "hand_after"}.', "input.event"
        )
    player = event["player"]
    tile = q.tile(event.get("tile"), "input.event.tile")
    on = event.get("on")
    holder = next((p for p, held in hands.items() if p != player and tile in held), None)
    if holder is not None:
        raise EngineError(
            ErrorCode.DUPLICATE_TILE,
            "%(tile)s is in %(holder)s's hand, so %(player)s cannot have played it.",
            "input.event.tile",
            params={"tile": tile, "holder": holder, "player": player},
        )
    if tile in layout.used:  # drawn in the layout already: it must lie where the event says
        placed = layout.find(tile)
        if placed == CENTER or (isinstance(on, str) and layout.get(str(placed)).on != on):
            raise EngineError(
                ErrorCode.DUPLICATE_TILE,
                "%(tile)s is already on the table as %(place)s.",
                "input.event.tile",
                params={"tile": tile, "place": place_of(layout, tile)},
            )
    else:
        if not isinstance(on, str):
            raise EngineError(ErrorCode.BAD_VALUE, "event.on must be a tile id.", "input.event.on")
        verdict = check_move(layout, tile, on)
        if not verdict.legal:
            raise EngineError(
                ErrorCode.ILLEGAL_EVENT,
                "That play could not have happened: %(message)s",
                "input.event",
                params={"message": verdict.message},
            )
        layout = layout.attach(tile, on)
    if "hand_after" in event:
        after = list(q.dominoes.parse_hand(event["hand_after"], "input.event.hand_after"))
        if tile in after:
            raise EngineError(
                ErrorCode.DUPLICATE_TILE,
                "%(tile)s was just played, so it is not in hand.",
                "input.event.hand_after",
                params={"tile": tile},
            )
        for i, held in enumerate(after):
            if held in layout.used:
                raise EngineError(
                    ErrorCode.DUPLICATE_TILE,
                    "%(held)s is on the table as %(place)s, so it is not in hand.",
                    f"input.event.hand_after[{i}]",
                    params={"held": held, "place": place_of(layout, held)},
                )
        hands[player] = after
    elif tile in hands.get(player, []):
        hands[player] = [t for t in hands[player] if t != tile]
    if not hands.get(player, [None]):
        return layout, player, tile.is_double
    return layout, None, False
