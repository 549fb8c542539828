"""Setting up a round: hand sizes, the chicken yard, the reserve and feasibility (RULES.md §3).

All counts are numbers of tiles.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import EngineError, ErrorCode, RuleError
from .rules import (
    HandSizeRule,
    RuleSet,
    StartDoubleSource,
    check_players,
    reserve_size,
    spokes_required,
)
from .tiles import DominoSet

# RULES.md §3.2. Keys: players -> tiles each.
GAMERULES_D9 = {2: 21, 3: 14, 4: 11, 5: 8, 6: 7, 7: 6, 8: 5}
FUNDEX_D9 = {2: 11, 3: 11, 4: 9, 5: 7, 6: 7}
NATHANLONG = {
    9: {2: 14, 3: 10, 4: 7, 5: 6, 6: 5},
    12: {4: 12, 5: 10, 6: 8, 7: 7, 8: 6, 9: 5},
    15: {6: 12, 7: 10, 8: 9, 9: 8, 10: 7, 11: 7, 12: 6},
}
D9_TILES = 55
#: The hand-size rules that read a table: rule -> set size -> (players -> tiles each); a set or
#: player count a table does not list has no hand size under that rule (§3.2).
HAND_SIZE_TABLES: dict[HandSizeRule, dict[int, dict[int, int]]] = {
    HandSizeRule.GAMERULES_TABLE: {9: GAMERULES_D9},
    HandSizeRule.FUNDEX_TABLE: {9: FUNDEX_D9},
    HandSizeRule.NATHANLONG_TABLE: NATHANLONG,
}


def _round_half_up(x: float) -> int:
    return int(x + 0.5)


def _scaled(total_on_d9: float, dominoes: DominoSet, players: int) -> int:
    """A total sized for double-9, scaled to the set ("adjust proportionately"), shared out."""
    return _round_half_up(total_on_d9 * dominoes.tile_count / D9_TILES / players)


class HandSizeUndefined(RuleError):
    """The hand-size rule has no entry for this set and player count (§3.2)."""


def hand_size(rules: RuleSet, set_size: int, players: int, chosen: int | None = None) -> int:
    """Tiles dealt to each player under ``rules.hand_size_rule`` (RULES.md §3.2).

    ``chosen`` (the table's own number, S000 "can draw more") wins over the rule. The tables of
    S001, FUNDEX-HS and NATHANLONG only cover the sets and counts they list; elsewhere this raises
    HandSizeUndefined (code ``HAND_SIZE_UNDEFINED``) and the table must choose a custom size.
    ``puremco_20_to_6`` interpolates the dealt total between its two sourced anchors (2 players
    20 each, 8 players 6 each on double-9) and scales other sets proportionately, as the source
    says; ``docslib_42_over_p`` is 42 / players on double-9, scaled likewise.

    >>> from companion.engine import RuleSet, hand_size
    >>> hand_size(RuleSet(), 9, 4)  # double-9, 4 players
    7
    """
    check_players(players)
    dominoes = DominoSet(n=set_size)
    if chosen is not None:
        if not isinstance(chosen, int) or isinstance(chosen, bool) or chosen < 1:
            raise RuleError(
                ErrorCode.BAD_HAND_SIZE,
                "%(chosen)s is not a hand size.",
                "input.hand_size_chosen",
                params={"chosen": repr(chosen)},
            )
        return chosen
    rule = rules.hand_size_rule
    by_formula = _by_formula(rules, dominoes, players)
    if by_formula is not None:
        return by_formula
    if rule not in HAND_SIZE_TABLES:
        raise RuleError(
            ErrorCode.BAD_SWITCH_VALUE,
            "Unknown hand-size rule %(rule)s.",
            "ruleset.hand_size_rule",
            params={"rule": repr(rule)},
        )
    table = HAND_SIZE_TABLES[rule].get(set_size, {})
    if players not in table:
        listed = ", ".join(str(p) for p in sorted(table)) or "none"
        raise HandSizeUndefined(
            ErrorCode.HAND_SIZE_UNDEFINED,
            f"The {rule} hand sizes do not cover {players} players on double-{set_size} "
            f"(listed player counts: {listed}); choose a custom hand size.",
            "ruleset.hand_size_rule",
        )
    return table[players]


def _by_formula(rules: RuleSet, dominoes: DominoSet, players: int) -> int | None:
    """Tiles each under a hand-size rule that is a number or a formula; None for the rules
    that read a table (:data:`HAND_SIZE_TABLES`)."""
    match rules.hand_size_rule:
        case HandSizeRule.SEVEN_EACH:
            return 7
        case HandSizeRule.HASTINGS_10:
            return 10
        case HandSizeRule.DOCSLIB_42_OVER_P:
            return _scaled(42, dominoes, players)
        case HandSizeRule.PUREMCO_20_TO_6:
            return _scaled(40 + (players - 2) * 8 / 6, dominoes, players)
        case HandSizeRule.CUSTOM:
            if rules.hand_size_custom > 0:
                return rules.hand_size_custom
            raise HandSizeUndefined(
                ErrorCode.HAND_SIZE_UNDEFINED,
                "The hand-size rule is 'custom': choose how many tiles each.",
                "ruleset.hand_size_custom",
            )
        case _:
            return None


@dataclass(frozen=True, slots=True)
class Deal:
    """The arithmetic of one deal (RULES.md §3.2-3.3, §5.5). Counts are tiles.

    Attributes:
        players: player count.
        hand_size: tiles dealt to each player.
        available: tiles the deal is made from (the set, less a double set aside first).
        needed: players x hand_size.
        yard_after_deal: tiles left in the chicken yard (negative when infeasible).
        reserve: tiles of the yard that may never be drawn (S001).
        set_aside: 1 when the start double is pulled before the deal, else 0.
    """

    players: int
    hand_size: int
    available: int
    needed: int
    yard_after_deal: int
    reserve: int
    set_aside: int

    @property
    def feasible(self) -> bool:
        """True when the set has enough tiles for every hand."""
        return self.needed <= self.available

    @property
    def drawable(self) -> int:
        """Yard tiles that can be drawn before the reserve is reached (never negative)."""
        return max(0, self.yard_after_deal - self.reserve)


def deal(rules: RuleSet, set_size: int, players: int, chosen: int | None = None) -> Deal:
    """The deal for ``players`` on a double-``set_size`` set (RULES.md §3.2, §3.4).

    Raises RuleError for a bad player count and HandSizeUndefined when the rule has no entry.

    >>> from companion.engine import RuleSet, deal
    >>> deal(RuleSet(), 9, 4).yard_after_deal
    27
    """
    size = hand_size(rules, set_size, players, chosen)
    set_aside = 1 if rules.start_double_source == StartDoubleSource.PULLED_BEFORE_DEAL else 0
    available = DominoSet(n=set_size).tile_count - set_aside
    needed = players * size
    return Deal(
        players=players,
        hand_size=size,
        available=available,
        needed=needed,
        yard_after_deal=available - needed,
        reserve=reserve_size(rules, players),
        set_aside=set_aside,
    )


#: The code of a deal that needs more tiles than the set holds (params: players, hand_size,
#: needed, available, set_size; counts of players and of tiles).
DEAL_SHORT = ErrorCode.DEAL_SHORT
#: The code of a chicken foot needing more toes than its suit can give (params: toes,
#: set_size; counts of tiles).
TOO_MANY_TOES = ErrorCode.TOO_MANY_TOES


@dataclass(frozen=True, slots=True)
class TableCheck:
    """Everything wrong with playing ``rules`` at a table (empty if none).

    Each problem is an :class:`EngineError` (code + English template + params, not raised),
    so the web layer can word it in the player's language (``companion.words.error_words``).
    """

    problems: tuple[EngineError, ...]
    deal: Deal | None
    spokes: int | None

    @property
    def ok(self) -> bool:
        """True when the game can be played as configured."""
        return not self.problems


def check_table(
    rules: RuleSet, set_size: int, players: int, chosen_spokes: int | None = None
) -> TableCheck:
    """Validate a whole configuration before a game starts (RULES.md §3, §5.2, §11).

    Collects every problem rather than stopping at the first: an infeasible deal
    (``DEAL_SHORT``), more spokes than the centre's suit has tiles, a foot needing more toes
    than its suit can give (``TOO_MANY_TOES``), an undefined hand size. Never raises for
    those; raises RuleError only for a bad player count.

    >>> from companion.engine import RuleSet, check_table
    >>> [p.message for p in check_table(RuleSet(), 6, 8).problems]
    ['8 players x 7 tiles = 56 tiles, but the double-6 set has only 28 to deal.']
    """
    check_players(players)
    problems: list[EngineError] = []
    the_deal: Deal | None = None
    spokes: int | None = None
    try:
        the_deal = deal(rules, set_size, players)
        if not the_deal.feasible:
            problems.append(
                RuleError(
                    DEAL_SHORT,
                    "%(players)s players x %(hand_size)s tiles = %(needed)s tiles, but the "
                    "double-%(set_size)s set has only %(available)s to deal.",
                    params={
                        "players": players,
                        "hand_size": the_deal.hand_size,
                        "needed": the_deal.needed,
                        "set_size": set_size,
                        "available": the_deal.available,
                    },
                )
            )
    except RuleError as exc:
        problems.append(exc)
    try:
        spokes = spokes_required(rules, set_size, players, chosen_spokes)
    except RuleError as exc:
        problems.append(exc)
    if rules.foot_toes_required > set_size:
        problems.append(
            RuleError(
                TOO_MANY_TOES,
                "A chicken foot cannot need %(toes)s toes: only %(set_size)s tiles carry its "
                "number.",
                params={"toes": rules.foot_toes_required, "set_size": set_size},
            )
        )
    return TableCheck(problems=tuple(problems), deal=the_deal, spokes=spokes)
