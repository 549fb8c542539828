"""Thin views for the rules checker.

Everything the page shows comes from the URL (GET) or the posted form: the table (``game`` or
``preset``/``set``/``players``), the position ``pos`` in the text notation of
:mod:`companion.checker.notation`, the open end being filled ``sel``, the question tab ``q``,
and a saved ``ruling`` to show. Building the position is plain links (GET, nothing saved);
asking a question is a POST that saves the ruling and redirects to the page showing it.
htmx requests get only the ``#checker`` fragment.
"""

from __future__ import annotations

from typing import Any

from flask import abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import MultiDict

from ..access import Role, requires
from ..engine import (
    PRESETS,
    SWITCHES,
    EngineError,
)
from ..errors import Problem
from ..mapping import coming_round, rules_of
from ..models import Game
from ..rulebook import SECTIONS, section_for, source_names, switch_anchor
from ..services.rulings import (
    delete_ruling,
    ruling_by_id,
    rulings_for,
    save_ruling,
)
from ..web import query
from ..web.game_lookup import game_of_this_phone, way_back
from ..web.htmx import is_htmx, keep_url, push_url
from ..words import reason_words
from . import bp
from .asking import (
    ask,
    build_question,
)
from .context import TableSetting, table_for_game, table_from_args
from .explaining import explain, summary
from .forms import PositionArgs, TableArgs
from .page import page_context, pasted_move_of, ruling_essentials, ruling_link, ruling_summary
from .position import PositionView


def table_of(args: MultiDict) -> TableSetting:
    """The table from ``?game=<id>`` (404 when unknown or not this phone's table) or
    preset/set/players."""
    named = TableArgs.read(args).game.data
    if named:
        game = game_of_this_phone(str(named))
        rules = rules_of(game)
        try:
            centre = coming_round(game).start_double
        except EngineError:  # rounds that no longer fit the rules: fall back to the last one
            centre = None
        if centre is None and game.rounds:
            centre = game.rounds[-1].start_double  # the game is over: its last double
        return table_for_game(game, rules, centre)
    return table_from_args(args)


def _render(ctx: dict[str, Any], status: int = 200) -> ResponseReturnValue:
    if is_htmx():
        response = render_template("checker/_checker.html", **ctx)
        return (
            response,
            status,
            push_url(request.full_path.rstrip("?")) if request.method == "GET" else keep_url(),
        )
    return render_template("checker/index.html", **ctx), status


@bp.get("/")
@requires(Role.ANYONE)
def index() -> ResponseReturnValue:
    """The checker: the position (built by tapping, typing or pasting) and the questions."""
    args = query.arguments()
    return _render(page_context(table_of(args), args))


@bp.post("/ask")
@requires(Role.HOST)
def ask_question() -> ResponseReturnValue:
    """Ask one question about the posted position; save the ruling and show it (PRG)."""
    form = query.posted()
    table = table_of(form)
    asked = PositionArgs.read(form)
    tab = asked.q.data
    position = PositionView(table, asked.pos.data)
    question = build_question(tab, form, table, position.layout)
    if isinstance(question, Problem):
        return _refused(table, form, question)
    answer = ask(question)
    if "error" in answer:
        error = answer["error"]
        return _refused(table, form, Problem(error["message"], error.get("where", "")))
    explained = explain(question["category"], answer, table.rules, question)
    ruling = save_ruling(
        table.game, question, answer, table.rules.to_dict(), summary(question, explained)
    )
    params = {**table.params(), "q": tab, "pos": position.text or None, "ruling": ruling.id}
    return redirect(url_for("checker.index", **{k: v for k, v in params.items() if v}), 303)


def _refused(table: TableSetting, form: MultiDict, problem: Problem) -> ResponseReturnValue:
    """The question's form again, everything typed kept, with what is wrong (HTTP 422)."""
    return _render(page_context(table, form, form, str(problem), problem.field or ""), 422)


@bp.post("/position")
@requires(Role.ANYONE)
def show_position() -> ResponseReturnValue:
    """Read a typed or pasted position (POST: a big JSON layout does not fit in a URL) and
    redirect (303) to the checker showing it in the compact text notation, so the address
    stays short and shareable; a pasted placement question keeps its move. A position that
    cannot be read or played is shown here (422) with the typed text kept."""
    form = query.posted()
    table = table_of(form)
    typed = PositionArgs.read(form)
    position = PositionView(table, typed.pos.data)
    if position.error is not None:
        return _render(page_context(table, form), 422)
    tab = typed.tab()
    move = pasted_move_of(position)
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
    """The rulings made for a game (``?game=<id>``), or without one, newest first."""
    table = table_of(query.arguments())
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
    source = query.posted() if request.method == "POST" else query.arguments()
    table = table_of(source)
    ruling = ruling_by_id(ruling_id, table.game)
    if ruling is None:
        abort(404)
    if request.method == "POST":
        delete_ruling(ruling)
        return redirect(url_for("checker.rulings", **table.params()), 303)
    return render_template("checker/delete_ruling.html", table=table, ruling=ruling)


def _same_value(a: Any, b: Any) -> bool:
    # 1 == True in Python; a switch value of 1 is not the choice True
    return type(a) is type(b) and a == b


@bp.get("/house-rules")
@requires(Role.ANYONE)
def house_rules() -> ResponseReturnValue:
    """Every switch in force, in plain words, with what the other choices would mean."""
    table = table_of(query.arguments())
    changed = table.rules.house_rule_changes()
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
    table = table_of(query.arguments())
    changed = table.rules.house_rule_changes()
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
        params["game"] = game.id  # never a token in a query string
    return str(url_for("checker.rule_book", **params)) + (f"#{anchor}" if anchor else "")


@bp.app_template_global("checker_url")
def checker_url(game: Game | None = None, **params: Any) -> str:
    """A link to the checker for ``game`` (or on its own), for other pages."""
    if game is not None:
        params["game"] = game.id  # never a token in a query string
    return url_for("checker.index", **params)


#: "what a saved ruling judged", for the rulings list and the page (templates call it)
bp.add_app_template_global(ruling_essentials, "ruling_essentials")
bp.add_app_template_global(ruling_summary, "ruling_summary")
#: the way back to the checker's game that this phone may take (never another phone's edit link)
bp.add_app_template_global(way_back, "game_way_back")
