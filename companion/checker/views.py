"""Thin views for the rules checker.

Everything the page shows comes from the URL (GET) or the posted form: the table (``game`` or
``preset``/``set``/``players``), the position ``pos`` in the text notation of
:mod:`companion.checker.notation`, the open end being filled ``sel``, the question tab ``q``,
and a saved ``ruling`` to show. Building the position is plain links (GET, nothing saved);
asking a question is a POST that saves the ruling and redirects to the page showing it.
htmx requests get only the ``#checker`` fragment.
"""

from __future__ import annotations

import contextlib
from typing import Any

from flask import abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict

from ..access import Role, requires
from ..engine import (
    PRESET_TITLES,
    PRESETS,
    SUPPORTED_SETS,
    SWITCHES,
    EngineError,
    Layout,
    RuleSet,
    Tile,
    check_move,
    legal_moves,
)
from ..engine.explain import position_of
from ..engine.tiles import parse_ends
from ..ids import parse_id
from ..mapping import coming_round, round_scores, rules_of
from ..models import Game
from ..rulebook import SECTIONS, section_for, source_names, switch_anchor
from ..services.game_lookup import game_for_edit
from ..services.rulings import (
    delete_ruling,
    none_if_unreadable,
    ruling_by_id,
    rulings_for,
    save_ruling,
)
from ..words import end_name, move_reason, reason_words
from . import bp
from .asking import (
    EDGE_CASES,
    QUESTIONS,
    SITUATIONS,
    FormProblem,
    ask,
    build_question,
    form_from_question,
)
from .context import Table, table_for_game, table_from_args
from .drawing import HIT_R, LENGTH, WIDTH, draw_layout
from .explaining import explain, question_facts, summary
from .notation import (
    NotationError,
    format_layout,
    layout_prefix,
    parse_position,
    read_position,
    split_items,
)

MAX_POS = 20000  # characters of typed or pasted position accepted (a big JSON layout fits)


def _game_for_token(token: str) -> Game:
    return game_for_edit(token)


def table_of(args: MultiDict) -> Table:
    """The table from ``?game=<edit token>`` (404 when unknown) or preset/set/players."""
    token = args.get("game")
    if token:
        game = _game_for_token(token)
        rules = rules_of(game)
        try:
            centre = coming_round(game).start_double
        except EngineError:  # rounds that no longer fit the rules: fall back to the last one
            centre = None
        if centre is None and game.rounds:
            centre = game.rounds[-1].start_double  # the game is over: its last double
        return table_for_game(game, rules, centre)
    return table_from_args(args)


class PositionView:
    """The typed position, parsed: ``layout`` when it is possible, else ``error`` and the
    drawing of what could be laid with the refused placement in red."""

    def __init__(self, table: Table, text: str) -> None:
        self.text = text[:MAX_POS]
        self.layout: Layout | None = None
        self.error: NotationError | None = None
        self.refused_item: str = ""
        self.without_refused: str | None = None
        self.question: dict[str, Any] | None = None
        try:
            pos = parse_position(
                self.text,
                table.dominoes,
                table.spokes,
                table.rules.foot_toes_required,
                table.centre,
            )
        except NotationError as exc:
            self.error = exc
            items = split_items(self.text) if not self.text.strip().startswith("{") else []
            if exc.item is not None and exc.item < len(items):
                self.refused_item = items[exc.item]
                self.without_refused = "; ".join(i for n, i in enumerate(items) if n != exc.item)
        else:
            self.layout, self.question = pos.layout, pos.question
            self.text = format_layout(pos.spec) if self.text.strip() else ""
        self.table = table

    def drawing(self, candidate: tuple[Tile, str, bool] | None = None, highlight=()) -> Any:
        """The drawing of the position (or of its playable part and the refused tile)."""
        if self.layout is not None:
            return draw_layout(self.layout, candidate=candidate, highlight=highlight)
        return self._refused_drawing()

    def _refused_drawing(self) -> Any:
        """What could be laid before the refused placement, and that placement in red."""
        prefix, refused = self._refused_parts()
        return draw_layout(prefix, refused=refused)

    def _refused_parts(self) -> tuple[Layout, tuple[str, str, str] | None]:
        """The layout that could be laid before the refused placement, and that placement as
        (id, on, "a-b") when it can be read."""
        table = self.table
        try:
            spec, _items, _q = read_position(self.text, table.centre)
        except NotationError:
            spec = {"center": table.centre, "tiles": []}
        tiles = [t for t in spec.get("tiles") or [] if isinstance(t, dict)]
        wanted = self.error.tile_id if self.error else None
        index = next((i for i, t in enumerate(tiles) if t.get("id") == wanted), len(tiles))
        toes = table.rules.foot_toes_required
        prefix, _stop = layout_prefix(
            {**spec, "tiles": tiles[:index]}, table.dominoes, table.spokes, toes
        )
        if prefix is None:
            prefix = Layout.start(table.dominoes.parse(table.centre), table.spokes, toes)
        refused = None
        if index < len(tiles):
            try:
                a, b = parse_ends(tiles[index].get("tile"))
                refused = (str(tiles[index].get("id")), str(tiles[index].get("on")), f"{a}-{b}")
            except EngineError:
                refused = None
        return prefix, refused

    @property
    def refusal_words(self) -> str:
        """Why the refused placement could not have been played, in players' words (the same
        move check a question gets); ``""`` when the refusal is not about a move (a typo, a
        tile twice, an unknown id): then the reader's own message says it."""
        if self.error is None:
            return ""
        prefix, refused = self._refused_parts()
        if refused is not None and self.error.code == "DUPLICATE_TILE":
            # the engine's message names tile ids ("S2 9-5 is already on the table as S1")
            return _(
                "%(tile)s is already on the table: a set has only one of each tile.",
                tile=refused[2],
            )
        if refused is None or refused[1] not in prefix:
            return ""
        _id, on, text = refused
        try:
            verdict = check_move(prefix, Tile.of(*(int(v) for v in text.split("-"))), on)
        except EngineError:
            return ""
        if verdict.legal:
            return ""
        return _(
            "%(tile)s on %(end)s: %(reason)s",
            tile=text,
            end=end_name(prefix, on),
            reason=move_reason(prefix, verdict),
        )

    def without_last(self) -> str:
        """The position text with its last placement taken back (undo)."""
        if self.layout is None or not len(self.layout):
            return ""
        spec = self.layout.to_json()
        spec["tiles"] = spec["tiles"][:-1]
        return format_layout(spec) if spec["tiles"] else ""

    def with_tile(self, tile: Tile, on: str) -> str:
        """The position text with ``tile`` laid on ``on``."""
        base = self.text or f"{self.table.centre} centre"
        return f"{base}; {tile} on {on}"


def _links(table: Table, pos_text: str, tab: str) -> Any:
    base = {**table.params(), "q": tab or None, "pos": pos_text or None}

    def link(**changes: Any) -> str:
        params = {**base, **changes}
        return url_for("checker.index", **{k: v for k, v in params.items() if v not in (None, "")})

    return link


def _ruling_view(ruling_id: str | None, table: Table, position: PositionView) -> dict[str, Any]:
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
def _readable_ruling_view(ruling: Any, table: Table, position: PositionView) -> dict[str, Any]:
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


def rules_from(ruling: Any, table: Table) -> Any:
    """The RuleSet saved with a ruling (the table's rules if it cannot be read back)."""
    try:
        return RuleSet.from_dict(ruling.rules)
    except (EngineError, TypeError, AttributeError):  # rules stored by an older version
        return table.rules


def _pasted_move(position: PositionView) -> dict[str, str]:
    """The move of a pasted placement question (its tile and end are preselected)."""
    question = position.question or {}
    move = (question.get("input") or {}).get("move")
    if question.get("category") not in ("placement", "edge") or not isinstance(move, dict):
        return {}
    return {k: str(move.get(k, "")) for k in ("tile", "on")}


def _page(
    table: Table,
    args: MultiDict,
    form: MultiDict | None = None,
    problem: str = "",
    problem_field: str = "",
) -> dict[str, Any]:
    """Everything the checker templates need, from the URL (or the posted form)."""
    tab = args.get("q", "") if args.get("q", "") in QUESTIONS else ""
    position = PositionView(table, args.get("pos", ""))
    pasted_move = _pasted_move(position)
    if pasted_move and not tab:
        tab = "move"
    link = _links(table, position.text, tab)
    ctx: dict[str, Any] = {
        "table": table,
        "position": position,
        "tab": tab,
        "questions": QUESTIONS,
        "link": link,
        "form": form or MultiDict(),
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
    if table.game is not None:
        ctx["prefill_scores"] = {
            seat.player.name: ", ".join(str(p) for p in points)
            for seat, points in round_scores(table.game).items()
            if points
        }
    ctx.update(_ruling_view(args.get("ruling"), table, position))
    if "drawing" not in ctx:
        ctx["drawing"] = position.drawing()
    layout = position.layout
    sel = args.get("sel", "")
    source = ctx["form"] or args
    ctx["on_selected"] = source.get("on", "") or pasted_move.get("on", "")
    ctx["tile_selected"] = source.get("tile", "") or pasted_move.get("tile", "")
    if layout is not None:
        unplayed = [t for t in table.dominoes.tiles if t not in layout.used]
        ctx["unplayed"] = unplayed
        ctx["open_ends"] = layout.open_ends()
        ctx["playable"] = {e.on for e in layout.playable_targets()}
        ctx["describe"] = lambda on: end_name(layout, on)
        ctx["closed_ends"] = closed_ends(layout)
        if sel in ctx["playable"]:
            number = layout.number_at(sel)
            ctx["sel"] = sel
            ctx["sel_tiles"] = [t for t in unplayed if t.has(number)]
            ctx["sel_words"] = end_name(layout, sel)
    return ctx


RECENT_POSITIONS = 4  # positions offered from a game's recent rulings


def recent_positions(table: Table, current: str) -> list[tuple[str, str]]:
    """Positions to start from, newest first: those of the game's recent rulings (the last
    position asked in that game first), as (position text, words: centre and tiles laid);
    the position on screen is left out. Empty without a game."""
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
                    what=ruling.summary[:60],
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


def _render(ctx: dict[str, Any], status: int = 200) -> ResponseReturnValue:
    if request.headers.get("HX-Request"):
        response = render_template("checker/_checker.html", **ctx)
        return (
            response,
            status,
            {"HX-Push-Url": request.full_path.rstrip("?")} if request.method == "GET" else {},
        )
    return render_template("checker/index.html", **ctx), status


@bp.get("/")
@requires(Role.ANYONE)
def index() -> ResponseReturnValue:
    """The checker: the position (built by tapping, typing or pasting) and the questions."""
    table = table_of(request.args)
    return _render(_page(table, request.args))


@bp.post("/ask")
@requires(Role.HOST)
def ask_question() -> ResponseReturnValue:
    """Ask one question about the posted position; save the ruling and show it (PRG)."""
    form = request.form
    table = table_of(form)
    tab = form.get("q", "")
    position = PositionView(table, form.get("pos", ""))
    try:
        question = build_question(tab, form, table, position.layout)
    except FormProblem as exc:
        status = 200 if request.headers.get("HX-Request") else 422
        return _render(_page(table, form, form, exc.message, exc.field), status)
    answer = ask(question)
    if "error" in answer:
        status = 200 if request.headers.get("HX-Request") else 422
        return _render(
            _page(
                table,
                form,
                form,
                answer["error"]["message"],
                answer["error"].get("where", ""),
            ),
            status,
        )
    explained = explain(question["category"], answer, table.rules, question)
    ruling = save_ruling(
        table.game, question, answer, table.rules.to_dict(), summary(question, explained)
    )
    params = {**table.params(), "q": tab, "pos": position.text or None, "ruling": ruling.id}
    return redirect(url_for("checker.index", **{k: v for k, v in params.items() if v}), 303)


@bp.post("/position")
@requires(Role.ANYONE)
def show_position() -> ResponseReturnValue:
    """Read a typed or pasted position (POST: a big JSON layout does not fit in a URL) and
    redirect (303) to the checker showing it in the compact text notation, so the address
    stays short and shareable; a pasted placement question keeps its move. A position that
    cannot be read or played is shown here (422) with the typed text kept."""
    form = request.form
    table = table_of(form)
    position = PositionView(table, form.get("pos", ""))
    if position.error is not None:
        status = 200 if request.headers.get("HX-Request") else 422
        return _render(_page(table, form), status)
    tab = form.get("q", "") if form.get("q", "") in QUESTIONS else ""
    move = _pasted_move(position)
    params: dict[str, Any] = {
        **table.params(),
        "q": "move" if move else tab,
        "pos": position.text,
        **move,
    }
    return redirect(url_for("checker.index", **{k: v for k, v in params.items() if v}), 303)


@bp.get("/rulings")
@requires(Role.ANYONE)
def rulings() -> ResponseReturnValue:
    """The rulings made for a game (``?game=<edit token>``), or without one, newest first."""
    table = table_of(request.args)
    return render_template(
        "checker/rulings.html",
        table=table,
        rulings=rulings_for(table.game),
        ruling_link=lambda r: ruling_link(r, table),
        delete_link=lambda r: url_for("checker.delete", ruling_id=r.id, **table.params()),
    )


@bp.route("/rulings/<int:ruling_id>/delete", methods=["GET", "POST"])
@requires(Role.ANYONE, post=Role.HOST)
def delete(ruling_id: int) -> ResponseReturnValue:
    """Delete a saved ruling, deliberately: GET asks for confirmation (showing the ruling),
    the confirmation form POSTs (with CSRF) and goes back to the rulings list (303). A ruling
    of another game (or of a game, asked without its token) is 404."""
    source = request.form if request.method == "POST" else request.args
    table = table_of(source)
    ruling = ruling_by_id(ruling_id, table.game)
    if ruling is None:
        abort(404)
    if request.method == "POST":
        delete_ruling(ruling)
        return redirect(url_for("checker.rulings", **table.params()), 303)
    return render_template("checker/delete_ruling.html", table=table, ruling=ruling)


@bp.app_template_global("ruling_essentials")
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
    label = str(PRESET_TITLES.get(name, name))
    if ruleset.get("overrides"):
        label += " " + _("+ %(n)s house rule changes", n=len(ruleset["overrides"]))
    if label:
        parts.append(label)
    return " · ".join(parts)


@none_if_unreadable
def ruling_link(ruling: Any, table: Table) -> str:
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


def _same_value(a: Any, b: Any) -> bool:
    # 1 == True in Python; a switch value of 1 is not the choice True
    return type(a) is type(b) and a == b


@bp.get("/house-rules")
@requires(Role.ANYONE)
def house_rules() -> ResponseReturnValue:
    """Every switch in force, in plain words, with what the other choices would mean."""
    table = table_of(request.args)
    changed = table.rules.differences()
    rows = []
    for switch in SWITCHES:
        value = getattr(table.rules, switch.name)
        others = [c for c in switch.choices if not _same_value(c.value, value)]
        rows.append(
            {
                "switch": switch,
                "value": value,
                "meaning": switch.meaning(value),
                "others": others,
                "changed": switch.name in changed,
            }
        )
    return render_template(
        "checker/house_rules.html",
        table=table,
        rows=rows,
        tiebreak=list(table.rules.tiebreak),
        tiebreak_words=[reason_words(step) for step in table.rules.tiebreak],
        changed=[r for r in rows if r["changed"]],
        presets=PRESETS,
    )


@bp.get("/rules")
@requires(Role.ANYONE)
def rule_book() -> ResponseReturnValue:
    """The rule book: every rule in plain words; where the sources disagree, what each says,
    the house rule that chooses, and this table's choice highlighted (``?game=`` or the
    preset on the checker)."""
    table = table_of(request.args)
    changed = table.rules.differences()
    return render_template(
        "checker/rule_book.html",
        table=table,
        sections=SECTIONS,
        value_of=lambda switch: getattr(table.rules, switch.name),
        same_value=_same_value,
        changed=changed,
        source_names=source_names,
        switch_anchor=switch_anchor,
        tiebreak_words=[reason_words(step) for step in table.rules.tiebreak],
    )


@bp.app_template_global("rule_part")
def rule_part(rule: str) -> Any:
    """The rule-book part covering RULES.md section ``rule`` (None when none does)."""
    return section_for(str(rule))


@bp.app_template_global("rule_book_url")
def rule_book_url(game: Game | None = None, anchor: str = "", **params: Any) -> str:
    """A link to the rule book (at ``anchor``), for ``game`` when given, for other pages."""
    if game is not None:
        params["game"] = game.edit_token
    return str(url_for("checker.rule_book", **params)) + (f"#{anchor}" if anchor else "")


@bp.app_template_global("checker_url")
def checker_url(game: Game | None = None, **params: Any) -> str:
    """A link to the checker for ``game`` (or on its own), for other pages."""
    if game is not None:
        params["game"] = game.edit_token
    return url_for("checker.index", **params)
