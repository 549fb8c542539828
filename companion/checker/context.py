"""Which table the checker rules for: a running game (its house rules, set and players) or a
preset, set and player count chosen on the page.

All of it comes from the URL (``?game=<id>`` or ``?preset=&set=&players=``), so every
checker page can be bookmarked and works without JavaScript.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from ..engine import (
    PRESET_TITLES,
    PRESETS,
    SUPPORTED_SETS,
    DominoSet,
    EngineError,
    RuleSet,
    Tile,
    check_table,
    preset,
    spokes_required,
)
from ..engine.rules import CenterSpokes
from ..models import Game
from ..words import error_words
from .forms import TableArgs

DEFAULT_PLAYERS = 4
PLAYER_LETTERS = "ABCDEFGHIJKL"


@dataclass(frozen=True)
class TableSetting:
    """The table the checker rules for: its house rules, set, seats and centre double (named
    apart from the table blueprint, :mod:`companion.table`, the players' phones at a game).

    Attributes:
        rules: the house rules in force (RULES.md §9).
        preset: the preset name the rules start from.
        set_size: N of the double-N set.
        players: the players' names, in seat order (clockwise).
        spokes: K, the spokes the centre double needs (§5.2).
        centre: the round's centre double, e.g. ``"9-9"``.
        game: the game, when the checker was opened from one.
        problem: a message when a URL parameter was unusable and a default was used instead.
    """

    rules: RuleSet
    preset: str
    set_size: int
    players: tuple[str, ...]
    spokes: int
    centre: str
    game: Game | None = None
    problem: str = ""

    @property
    def dominoes(self) -> DominoSet:
        """The set in play."""
        return DominoSet(self.set_size)

    @property
    def hand_tiles(self) -> list[Tile]:
        """The tiles a hand can hold this round: the set but the round's centre double, which
        lies in the middle of the table (the score question refuses it in a hand)."""
        return [t for t in self.dominoes.tiles if str(t) != self.centre]

    @property
    def title(self) -> str:
        """The preset's title, for the page."""
        return PRESET_TITLES.get(self.preset, self.preset)

    def ruleset_spec(self) -> dict[str, Any]:
        """The question's ``ruleset`` (QUESTIONS.md): the preset plus whatever differs from it."""
        try:
            base = preset(self.preset)
        except EngineError:
            return {"preset": "standard", "overrides": self.rules.differences()}
        return {"preset": self.preset, "overrides": self.rules.differences(base)}

    def base_input(self) -> dict[str, Any]:
        """Input every question of this table carries: set, players and the chosen K."""
        data: dict[str, Any] = {"set": self.set_size, "players": len(self.players)}
        if self.rules.center_spokes_required == CenterSpokes.PLAYERS_TO_8:
            data["center_spokes_required"] = self.spokes
        return data

    def params(self) -> dict[str, Any]:
        """The URL parameters that bring the checker back to this table."""
        if self.game is not None:
            return {"game": self.game.id}  # never a token in a query string
        return {"preset": self.preset, "set": self.set_size, "players": len(self.players)}


def table_for_game(game: Game, rules: RuleSet, centre: int | None) -> TableSetting:
    """The table of a running game: its frozen rules, set, seated players and coming double."""
    names = tuple(seat.player.name for seat in game.seats) or tuple(PLAYER_LETTERS[:2])
    chosen = (
        game.chosen_spokes if rules.center_spokes_required == CenterSpokes.PLAYERS_TO_8 else None
    )
    try:
        k = spokes_required(rules, game.set_size, len(names), chosen)
    except EngineError:  # a stored K that no longer fits: the usual four
        k = min(4, game.set_size)
    double = game.set_size if centre is None else centre
    return TableSetting(rules, game.preset, game.set_size, names, k, f"{double}-{double}", game)


def table_from_args(args: Mapping[str, Any]) -> TableSetting:
    """A table from ``?preset=&set=&players=&centre=``; bad values fall back to defaults and
    say so in :attr:`TableSetting.problem`."""
    problems = []
    form = TableArgs.read(args)
    name = str(form.preset.data or "standard")
    if name not in PRESETS:
        problems.append(_("'%(name)s' is not a preset; the standard rules are used.", name=name))
        name = "standard"
    rules = preset(name)
    set_size = form.number("set") or rules.set_size
    if set_size not in SUPPORTED_SETS:
        problems.append(
            _(
                "There is no double-%(n)s set here; double-%(d)s is used.",
                n=set_size,
                d=rules.set_size,
            )
        )
        set_size = rules.set_size
    count = form.number("players") or DEFAULT_PLAYERS
    if not 2 <= count <= len(PLAYER_LETTERS):
        problems.append(
            ngettext(
                "%(num)s player is not a table; %(d)s are used.",
                "%(num)s players is not a table; %(d)s are used.",
                count,
                d=DEFAULT_PLAYERS,
            )
        )
        count = DEFAULT_PLAYERS
    if set_size != rules.set_size:
        rules = rules.with_overrides({"set_size": set_size})
    # the whole table, as a new game would be checked: an impossible deal is said here too
    check = check_table(rules, set_size, count)
    problems.extend(error_words(p) for p in check.problems)
    k = check.spokes if check.spokes is not None else min(4, set_size)
    centre = form.number("centre")
    if centre is None or not 0 <= centre <= set_size:
        centre = set_size
    return TableSetting(
        rules,
        name,
        set_size,
        tuple(PLAYER_LETTERS[:count]),
        k,
        f"{centre}-{centre}",
        None,
        " ".join(problems),
    )
