"""What the checker page shows, from the URL or the posted form: the table, the position, the
open question's tab and selection, a saved ruling with its drawing, and recent positions. Each
part of the page is built by its own small function; :func:`page_context` puts them together.
"""

from __future__ import annotations

import contextlib
from typing import Any

from flask import url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict

from ..engine import (
    PRESET_TITLES,
    SUPPORTED_SETS,
    EngineError,
    Layout,
    RuleSet,
    house_rule_overrides,
    legal_moves,
)
from ..engine.explain import position_of
from ..ids import parse_id
from ..mapping import round_scores
from ..models import Game
from ..services.rulings import (
    none_if_unreadable,
    ruling_by_id,
    rulings_for,
)
from ..words import end_name
from .asking import (
    EDGE_CASES,
    QUESTIONS,
    SITUATIONS,
    form_from_question,
)
from .context import TableSetting
from .drawing import HIT_R, LENGTH, WIDTH
from .explaining import explain, question_facts, summary
from .forms import PositionArgs
from .notation import (
    format_layout,
)
from .position import PositionView


def _links(table: TableSetting, pos_text: str, tab: str) -> Any:
    base = {**table.params(), "q": tab or None, "pos": pos_text or None}

    def link(**changes: Any) -> str:
        params = {**base, **changes}
        return url_for("checker.index", **{k: v for k, v in params.items() if v not in (None, "")})

    return link


def _ruling_view(
    ruling_id: str | None, table: TableSetting, position: PositionView
) -> dict[str, Any]:
    wanted = parse_id(ruling_id)
    if wanted is None:
        return {}
    ruling = ruling_by_id(wanted, table.game)
    if ruling is None:
        return {}
    # Readable here only if the lists can read it too: one judgement for every page.
    readable = ruling_essentials(ruling) is not None
    return (readable and _readable_ruling_view(ruling, table, position)) or {
        "unreadable_ruling": ruling,
        "delete_ruling_link": url_for("checker.delete", ruling_id=ruling.id, **table.params()),
    }


@none_if_unreadable
def _readable_ruling_view(
    ruling: Any, table: TableSetting, position: PositionView
) -> dict[str, Any]:
    explained = explain(ruling.category, ruling.answer, rules_from(ruling, table), ruling.question)
    view: dict[str, Any] = {
        "ruling": ruling,
        "verdict": explained,
        "form": form_from_question(ruling.question, table),
    }
    move = (ruling.question.get("input") or {}).get("move")
    if ruling.category == "placement" and isinstance(move, dict) and position.layout is not None:
        try:
            tile = table.dominoes.parse(move.get("tile"))
            on = str(move.get("on"))
            legal = bool(ruling.answer.get("legal"))
            targets = [t for t_, t in legal_moves(position.layout, [tile])]
            view["drawing"] = position.drawing((tile, on, legal), highlight=targets)
            view["alternatives"] = [(t, end_name(position.layout, t)) for t in targets if t != on]
            view["move"] = (str(tile), on)
            view["move_words"] = explained.move_words
        except EngineError:  # a ruling about another position: the plain drawing
            view.pop("drawing", None)
    return view


def rules_from(ruling: Any, table: TableSetting) -> Any:
    """The RuleSet saved with a ruling (the table's rules if it cannot be read back)."""
    try:
        return RuleSet.from_dict(ruling.rules)
    except (EngineError, TypeError, AttributeError):  # rules stored by an older version
        return table.rules


def pasted_move_of(position: PositionView) -> dict[str, str]:
    """The move of a pasted placement question (its tile and end are preselected)."""
    question = position.question or {}
    move = (question.get("input") or {}).get("move")
    if question.get("category") not in ("placement", "edge") or not isinstance(move, dict):
        return {}
    return {k: str(move.get(k, "")) for k in ("tile", "on")}


def page_context(
    table: TableSetting,
    args: MultiDict,
    form: MultiDict | None = None,
    problem: str = "",
    problem_field: str = "",
) -> dict[str, Any]:
    """Everything the checker templates need, from the URL (or the posted form)."""
    shown = PositionArgs.read(args)
    position = PositionView(table, shown.pos.data)
    pasted_move = pasted_move_of(position)
    tab = _tab(shown, pasted_move)
    ctx = _frame(table, position, tab, form or MultiDict(), problem, problem_field)
    if table.game is not None:
        ctx["prefill_scores"] = _prefill_scores(table.game)
    ctx.update(_ruling_view(shown.ruling.data, table, position))
    if "drawing" not in ctx:
        ctx["drawing"] = position.drawing()
    move = PositionArgs.read(ctx["form"]) if ctx["form"] else shown  # the typed move first
    ctx["on_selected"] = move.on.data or pasted_move.get("on", "")
    ctx["tile_selected"] = move.tile.data or pasted_move.get("tile", "")
    if position.layout is not None:
        ctx.update(_layout_context(table, position.layout, shown.sel.data))
    return ctx


def _tab(shown: PositionArgs, pasted_move: dict[str, str]) -> str:
    """The open question's tab: the URL's, or the move tab for a pasted placement question."""
    tab = shown.tab()
    return "move" if pasted_move and not tab else tab


def _frame(
    table: TableSetting,
    position: PositionView,
    tab: str,
    form: MultiDict,
    problem: str,
    problem_field: str,
) -> dict[str, Any]:
    """What every checker page has: the table, the position, the questions and their choices,
    the drawing's sizes (px) and the form with its problem, if any."""
    return {
        "table": table,
        "position": position,
        "tab": tab,
        "questions": QUESTIONS,
        "link": _links(table, position.text, tab),
        "form": form,
        "problem": problem,
        "problem_field": problem_field,
        "LENGTH": LENGTH,
        "HIT_R": HIT_R,
        "WIDTH": WIDTH,
        "presets": PRESET_TITLES,
        "sets": SUPPORTED_SETS,
        "situations": SITUATIONS,
        "edge_cases": EDGE_CASES,
        "recent_positions": recent_positions(table, position.text),
    }


def _prefill_scores(game: Game) -> dict[str, str]:
    """Each player's round scores so far, for the tie question ("12, 0, 30")."""
    return {
        seat.player.name: ", ".join(str(p) for p in points)
        for seat, points in round_scores(game).items()
        if points
    }


def _layout_context(table: TableSetting, layout: Layout, sel: str) -> dict[str, Any]:
    """The position's tiles and ends for tapping: unplayed tiles, open, playable and closed
    ends, and the tiles that fit the selected end ``sel`` (when it is playable)."""
    unplayed = [t for t in table.dominoes.tiles if t not in layout.used]
    ctx: dict[str, Any] = {
        "unplayed": unplayed,
        "open_ends": layout.open_ends(),
        "playable": {e.on for e in layout.playable_targets()},
        "describe": lambda on: end_name(layout, on),
        "closed_ends": closed_ends(layout),
    }
    if sel in ctx["playable"]:
        number = layout.number_at(sel)
        ctx["sel"] = sel
        ctx["sel_tiles"] = [t for t in unplayed if t.has(number)]
        ctx["sel_words"] = end_name(layout, sel)
    return ctx


RECENT_POSITIONS = 4  # positions offered from a game's recent rulings


def recent_positions(table: TableSetting, current: str) -> list[tuple[str, str]]:
    """Positions to start from, newest first: those of the game's recent rulings (the last
    position asked in that game first), as (position text, words: centre and tiles laid, and
    what was asked, worded in the page's language by :func:`ruling_summary`); the position on
    screen is left out. Empty without a game."""
    if table.game is None:
        return []
    out: list[tuple[str, str]] = []
    for ruling in rulings_for(table.game, limit=20):
        layout = (ruling.question or {}).get("input", {}).get("layout")
        if not isinstance(layout, dict):
            continue
        with contextlib.suppress(EngineError, KeyError, TypeError, AttributeError):
            text = format_layout(layout)
            tiles = len(layout.get("tiles") or [])
            if text and text != current and text not in (t for t, _w in out):
                label = ngettext(
                    "Centre %(c)s and %(num)s tile, asked: %(what)s",
                    "Centre %(c)s and %(num)s tiles, asked: %(what)s",
                    tiles,
                    c=layout.get("center"),
                    what=(ruling_summary(ruling) or ruling.summary)[:60],
                )
                out.append((text, label))
        if len(out) >= RECENT_POSITIONS:
            break
    return out


def closed_ends(layout: Layout) -> list[tuple[str, str]]:
    """The places with no free slot, as (id, ``"full"`` or ``"covered"``): a full centre, full
    chicken feet and covered ends, so "can I add a 4th toe?" can be asked by tapping (the
    engine answers CENTER_FULL, FOOT_FULL or END_COVERED, RULES.md §5.2-§5.4)."""
    ids = ["C", *(p.id for p in layout)]
    return [
        (i, "covered" if layout.kind(i) == "end" else "full")
        for i in ids
        if not layout.free_slots(i)
    ]


@none_if_unreadable
def ruling_summary(ruling: Any) -> str | None:
    """A saved ruling's one line worded again in the page's language from its stored question
    and answer: the stored ``summary`` is in the language of the phone that asked, and the
    lists are read by every phone at the table. None when the ruling cannot be read (the list
    then shows the stored line): a ruling stored without its question (older versions)."""
    question = ruling.question
    if not isinstance(question, dict) or question.get("category") != ruling.category:
        return None
    if not (question.get("input") and ruling.answer and ruling.rules):
        return None
    if ruling_essentials(ruling) is None:
        return None
    explained = explain(
        ruling.category, ruling.answer, RuleSet.from_dict(ruling.rules), ruling.question
    )
    return summary(ruling.question, explained)


@none_if_unreadable
def ruling_essentials(ruling: Any) -> str:
    """What a saved ruling judged, in one line (the move, the hand(s), the scores, the house
    rules label), so two rulings with the same verdict can be told apart; None when the
    stored ruling cannot be read (the list then says so)."""
    question = ruling.question or {}
    data = question.get("input") or {}
    parts = [f"{label}: {value}" for label, value in question_facts(question)]
    move = data.get("move")
    layout = position_of(question)
    if isinstance(move, dict):
        where = end_name(layout, str(move.get("on"))) if layout is not None else ""
        parts.insert(
            0, _("%(tile)s on %(end)s", tile=move.get("tile"), end=where or move.get("on"))
        )
    for name, points in (data.get("round_scores") or {}).items():
        parts.append(f"{name}: {', '.join(str(p) for p in points)}")
    ruleset = question.get("ruleset") or {}
    name = str(ruleset.get("preset") or "")
    label = _(PRESET_TITLES.get(name, name)) if name else ""
    changes = len(house_rule_overrides(ruleset.get("overrides") or {}))
    if changes:
        label += " " + ngettext(
            "+ %(num)s house rule change", "+ %(num)s house rule changes", changes
        )
    if label:
        parts.append(label)
    return " · ".join(parts)


@none_if_unreadable
def ruling_link(ruling: Any, table: TableSetting) -> str:
    """The checker page showing a saved ruling on its own position, under the table it was
    made for (the game, or the preset, set and player count of its question); None when the
    stored ruling cannot be read."""
    question = ruling.question or {}
    data = question.get("input") or {}
    params: dict[str, Any] = table.params()
    if ruling.game is None:
        ruleset = question.get("ruleset") or {}
        params = {
            "preset": ruleset.get("preset", table.preset),
            "set": data.get("set", table.set_size),
            "players": data.get("players") or len(data.get("round_scores") or {}) or None,
        }
    params["ruling"] = ruling.id
    params["q"] = next((k for k, (cat, _t) in QUESTIONS.items() if cat == ruling.category), None)
    layout = data.get("layout")
    if isinstance(layout, dict):
        with contextlib.suppress(EngineError, KeyError, TypeError, AttributeError):
            params["pos"] = format_layout(layout)
    return url_for("checker.index", **{k: v for k, v in params.items() if v})
