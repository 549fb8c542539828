"""What a game's history page shows, built from its loaded rows with the engine's help.

The round grid and standings are the score keeper's scoreboard
(:func:`companion.services.scoreboard.build_board`, standings from the engine via
:func:`companion.mapping.standings_of`); running totals for the chart come from
:func:`companion.engine.running_totals`, the house rules in words from
:meth:`companion.engine.RuleSet.describe`, the audit trail in words from
:func:`companion.services.audit.changes`. Nothing here decides a winner itself.
"""

from __future__ import annotations

from typing import Any

from ..engine import PRESET_TITLES, running_totals
from ..engine.rules import Switch
from ..mapping import round_scores, rules_of, scored_rounds
from ..models import Game, Ruling
from ..services.audit import AuditPage, audit_page, changes
from ..services.rulings import rulings_for
from ..services.scoreboard import board_window, build_board
from .charts import Chart, running_chart


def chart_of(game: Game) -> Chart | None:
    """The running-totals chart: one line per player over the scored rounds."""
    scored = scored_rounds(game)
    totals = running_totals({str(s.id): p for s, p in round_scores(game).items()})
    return running_chart(
        [str(r.start_double) for r in scored],
        [(s.player.name, totals[str(s.id)]) for s in game.seats],
    )


def house_rules(game: Game) -> list[tuple[Switch, Any, str, bool]]:
    """Each house-rule switch: (switch, value, meaning, differs from the standard rules); the
    set is shown with the game, so it never counts as a difference."""
    rules = rules_of(game)
    differs = rules.house_rule_changes()
    return [(sw, value, meaning, sw.name in differs) for sw, value, meaning in rules.describe()]


def rulings(game: Game) -> list[Ruling]:
    """The game's saved rulings from the rules checker, newest first (the checker's query)."""
    return rulings_for(game)


def audit_trail(game: Game, number: int = 1) -> tuple[AuditPage, list[tuple[Any, list[Any]]]]:
    """Page ``number`` of the audit trail (the latest entries on the game's page), newest
    first: the page and its (entry, changes in words) pairs."""
    names = {s.id: s.player.name for s in game.seats}
    page = audit_page(game, number)
    return page, [(entry, changes(entry, names)) for entry in page.entries]


def context(game: Game, upto: int | None = None, who: int | None = None) -> dict[str, Any]:
    """Everything templates/history/game.html needs; ``upto`` and ``who`` choose the part of
    the scoreboard shown (see :func:`board_window`)."""
    trail = audit_trail(game)
    board = build_board(game)
    return {
        "game": game,
        "night": game.night,
        "number": game.number_in_night,
        "preset_title": PRESET_TITLES.get(game.preset, game.preset),
        "board": board,
        "window": board_window(board, upto, who),
        "chart": chart_of(game),
        "audit_page": trail[0],
        "audit": trail[1],
        "rules": house_rules(game),
        "rulings": rulings(game),
    }
