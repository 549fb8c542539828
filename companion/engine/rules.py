"""House rules: every switch of RULES.md §9, its default, the named presets, and validation.

A :class:`RuleSet` is immutable. Build one from the question format of RULES.md §0
(``{"preset": "standard", "overrides": {...}}``) with :func:`ruleset_from_spec`, or from a stored
dict with :meth:`RuleSet.from_dict`. Every switch is described in :data:`SWITCHES` (one line, the
alternatives, the sources), which the web pages show to players.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from enum import StrEnum
from typing import Any, TypeGuard

from .errors import ErrorCode, RuleError
from .reasons import DecidedAt
from .tiles import SUPPORTED_SETS

PLAYERS_MIN, PLAYERS_MAX = 2, 12
#: the tie-break steps a house rule may order (RULES.md §8); the lowest total always comes first
TIEBREAK_STEPS: tuple[DecidedAt, ...] = (
    DecidedAt.LOWEST_TOTAL,
    DecidedAt.MOST_ZERO_ROUNDS,
    DecidedAt.LOWEST_SINGLE_NONZERO_ROUND,
)


# The values of the text switches (RULES.md §9), one enum per switch. Members are ``str``, so a
# RuleSet still reads and writes the same JSON strings (stored games, exports, the API).
class HandSizeRule(StrEnum):
    """``hand_size_rule``: how many tiles each player is dealt (RULES.md §3.2)."""

    SEVEN_EACH = "seven_each"
    GAMERULES_TABLE = "gamerules_table"
    DOCSLIB_42_OVER_P = "docslib_42_over_p"
    PUREMCO_20_TO_6 = "puremco_20_to_6"
    FUNDEX_TABLE = "fundex_table"
    NATHANLONG_TABLE = "nathanlong_table"
    HASTINGS_10 = "hastings_10"
    CUSTOM = "custom"


class StartDoubleSource(StrEnum):
    """``start_double_source``: where the round's centre double comes from (RULES.md §3.4)."""

    HELD_IN_HAND = "held_in_hand"
    PULLED_BEFORE_DEAL = "pulled_before_deal"


class MissingStartDouble(StrEnum):
    """``missing_start_double``: when nobody holds the round's double (RULES.md §3.5)."""

    DRAW_UNTIL_FOUND = "draw_until_found"
    SKIP_TO_NEXT_LOWER = "skip_to_next_lower"
    SKIP_TO_NEXT_LOWER_EXCEPT_BLANK = "skip_to_next_lower_except_blank"
    RETRY_NEXT_ROUND = "retry_next_round"
    RESHUFFLE_REDEAL = "reshuffle_redeal"


class Starter(StrEnum):
    """``first_round_starter`` / ``later_round_starter``: who starts a round (RULES.md §3.6).
    ``draw_highest_tile`` is a first-round choice only, ``rotate_left`` a later-round one."""

    HOLDER_OF_START_DOUBLE = "holder_of_start_double"
    DRAW_HIGHEST_TILE = "draw_highest_tile"
    PRE_DEAL_SEARCH = "pre_deal_search"
    ROTATE_LEFT = "rotate_left"


class CenterSpokes(StrEnum):
    """``center_spokes_required``'s one non-number value (RULES.md §5.2)."""

    PLAYERS_TO_8 = "players_to_8"


class TilesPerTurn(StrEnum):
    """``tiles_per_turn``'s one non-number value (RULES.md §5.1)."""

    UNLIMITED = "unlimited"


class DrawWhenStuck(StrEnum):
    """``draw_when_stuck``: what a player with no legal play draws (RULES.md §5.5)."""

    ONE = "one"
    UNTIL_PLAYABLE = "until_playable"
    OPTIONAL = "optional"


class DrawnTilePlay(StrEnum):
    """``drawn_tile_play``: what happens to a playable drawn tile (RULES.md §5.5)."""

    MUST = "must"
    MAY = "may"
    NO = "no"


class YardReserve(StrEnum):
    """``yard_reserve``: tiles that stay undrawn in the chicken yard (RULES.md §5.5)."""

    NONE = "none"
    SEED001_2P2_ELSE1 = "seed001_2p2_else1"


class GoingOutOnDouble(StrEnum):
    """``going_out_on_double``: going out by playing a double last (RULES.md §6)."""

    ALLOWED = "allowed"
    PENALTY_50 = "penalty_50"


class LastTileAnnouncement(StrEnum):
    """``last_tile_announcement``: announcing your last tile (RULES.md §5.5)."""

    OFF = "off"
    TAP_OR_DRAW_1 = "tap_or_draw_1"


class TiebreakExhausted(StrEnum):
    """``tiebreak_exhausted``: when every tie-break step ties (RULES.md §8)."""

    SHARED = "shared"
    NEXT_LOWEST_NONZERO = "next_lowest_nonzero"


class GameLength(StrEnum):
    """``game_length``: how long a game lasts (RULES.md §4)."""

    ALL_ROUNDS = "all_rounds"
    TARGET_TOTAL = "target_total"


@dataclass(frozen=True, slots=True)
class Choice:
    """One value a switch can take, with what it means at the table and where it comes from."""

    value: Any
    meaning: str
    sources: str = ""


@dataclass(frozen=True, slots=True)
class Switch:
    """A house-rule switch (RULES.md §9): its name, one-line summary, and its choices.

    ``choices`` is empty for integer switches bounded by ``minimum``/``maximum``.
    """

    name: str
    summary: str
    section: str
    choices: tuple[Choice, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    extra: tuple[Any, ...] = field(default=())  # non-integer values an integer switch also takes

    def canonical(self, value: Any) -> Any:
        """The choice (or extra value) equal to ``value``, so text values become their enum
        member; ``value`` itself for an integer within the bounds."""
        for known in (*(c.value for c in self.choices), *self.extra):
            if _same(value, known):
                return known
        return value

    def allows(self, value: Any) -> bool:
        """True if ``value`` is one of the choices (or an integer within the bounds)."""
        if self.choices and any(_same(value, c.value) for c in self.choices):
            return True
        if any(_same(value, v) for v in self.extra):
            return True
        if self.minimum is not None and _is_int(value):
            return self.minimum <= value <= (self.maximum if self.maximum is not None else value)
        return False

    def meaning(self, value: Any) -> str:
        """The plain-language meaning of ``value`` for this switch (``""`` if not listed)."""
        for choice in self.choices:
            if _same(value, choice.value):
                return choice.meaning
        return ""


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _same(a: Any, b: Any) -> bool:
    # True == 1 in Python; a bool switch must not accept 1 and an int switch must not accept True.
    # A text choice is an enum member and matches its plain string (as read from JSON).
    if isinstance(b, StrEnum):
        return isinstance(a, str) and a == b
    return type(a) is type(b) and a == b


def _c(value: Any, meaning: str, sources: str = "") -> Choice:
    return Choice(value=value, meaning=meaning, sources=sources)


SWITCHES: tuple[Switch, ...] = (
    Switch(
        "set_size",
        "Which domino set: one round per double, highest first.",
        "2",
        (
            _c(9, "Double-9, 55 tiles, 10 rounds (the usual set).", "S001, S002, S003, PAGAT"),
            _c(6, "Double-6, 28 tiles, 7 rounds (2-4 players).", "S000, WIKI-OLD"),
            _c(12, "Double-12, 91 tiles, 13 rounds.", "S000, WIKI-OLD, S002/S003"),
            _c(15, "Double-15, 136 tiles, 16 rounds.", "WIKI-OLD, S002/S003"),
            _c(18, "Double-18, 190 tiles, 19 rounds.", "WIKI-OLD, S002/S003"),
        ),
    ),
    Switch(
        "hand_size_rule",
        "How many tiles each player is dealt.",
        "3.2",
        (
            _c(
                HandSizeRule.SEVEN_EACH,
                "Seven tiles each, whatever the player count.",
                "S000, S002, S003",
            ),
            _c(
                HandSizeRule.GAMERULES_TABLE,
                "Double-9 table 21/14/11/8/7/6/5 for 2-8 players (9-9 set aside).",
                "S001",
            ),
            _c(
                HandSizeRule.DOCSLIB_42_OVER_P,
                "42 divided by the players, rounded (scaled for other sets).",
                "DOCSLIB",
            ),
            _c(
                HandSizeRule.PUREMCO_20_TO_6,
                "From 20 each for 2 players down to 6 each for 8 (interpolated).",
                "PUREMCO-COPY, RUSSELLR",
            ),
            _c(
                HandSizeRule.FUNDEX_TABLE,
                "Chicken Coop table 11/11/9/7/7 for 2-6 players.",
                "FUNDEX-HS",
            ),
            _c(
                HandSizeRule.NATHANLONG_TABLE,
                "The 'No Draw' tables for double-9, 12 and 15.",
                "NATHANLONG",
            ),
            _c(HandSizeRule.HASTINGS_10, "Ten tiles each.", "HASTINGS"),
            _c(
                HandSizeRule.CUSTOM,
                "The table picks the number (e.g. 15 each for 4 players on double-12).",
                "S000",
            ),
        ),
    ),
    Switch(
        "hand_size_custom",
        "The hand size when the rule is 'custom' (0 = not chosen yet).",
        "3.2",
        minimum=0,
        maximum=95,
    ),
    Switch(
        "start_double_source",
        "Where the round's centre double comes from.",
        "3.4",
        (
            _c(
                StartDoubleSource.HELD_IN_HAND,
                "Deal from the whole set; whoever holds the double lays it.",
                "S002, S003, SPAANS, FUNDEX",
            ),
            _c(
                StartDoubleSource.PULLED_BEFORE_DEAL,
                "Find the double first, put it in the centre, deal the rest.",
                "S001, NATHANLONG, S000 (implied)",
            ),
        ),
    ),
    Switch(
        "missing_start_double",
        "When nobody holds the round's double.",
        "3.5",
        (
            _c(
                MissingStartDouble.DRAW_UNTIL_FOUND,
                "Players take turns drawing from the chicken yard until it "
                "appears; drawn tiles stay in hand.",
                "S002, S003, SPAANS, RUSSELLR, FUNDEX",
            ),
            _c(
                MissingStartDouble.SKIP_TO_NEXT_LOWER,
                "Burn it and start with the next lower double.",
                "PUREMCO-COPY opt. 1, HTFBW2",
            ),
            _c(
                MissingStartDouble.SKIP_TO_NEXT_LOWER_EXCEPT_BLANK,
                "Burn it and go lower, but the double-blank is always drawn for.",
                "HCHERNDON (earlier)",
            ),
            _c(
                MissingStartDouble.RETRY_NEXT_ROUND,
                "Pass it over this round; it is tried again next round, so every "
                "double still gets its round.",
                "HCHERNDON (current)",
            ),
            _c(
                MissingStartDouble.RESHUFFLE_REDEAL,
                "Reshuffle all tiles and deal again.",
                "PUREMCO-COPY opt. 2",
            ),
        ),
    ),
    Switch(
        "first_round_starter",
        "Who starts the first round.",
        "3.6",
        (
            _c(
                Starter.HOLDER_OF_START_DOUBLE,
                "Whoever holds the highest double.",
                "S002, S003, SPAANS, RUSSELLR, FUNDEX",
            ),
            _c(
                Starter.DRAW_HIGHEST_TILE,
                "Everyone draws a tile; the highest pip total starts; the tiles go back.",
                "S000, HASTINGS",
            ),
            _c(
                Starter.PRE_DEAL_SEARCH,
                "Before the deal, players draw in turn until someone finds the "
                "double; that player starts.",
                "S001",
            ),
        ),
    ),
    Switch(
        "later_round_starter",
        "Who starts each later round.",
        "3.6",
        (
            _c(
                Starter.HOLDER_OF_START_DOUBLE,
                "Whoever holds that round's double.",
                "S002, S003, FUNDEX, PUREMCO-COPY",
            ),
            _c(
                Starter.ROTATE_LEFT,
                "The player to the left of the last round's starter.",
                "HASTINGS, NATHANLONG",
            ),
            _c(
                Starter.PRE_DEAL_SEARCH,
                "Before the deal, players draw in turn until someone finds the double.",
                "S001",
            ),
        ),
    ),
    Switch(
        "starter_plays_first_spoke",
        "Does the starter also lay the first spoke?",
        "3.6",
        (
            _c(
                False,
                "No: the turn passes left after the centre double is placed.",
                "SPAANS, HTFBW1, S002/S003",
            ),
            _c(
                True,
                "Yes: the starter places the double and lays the first spoke.",
                "S000, S001, FUNDEX",
            ),
        ),
    ),
    Switch(
        "center_spokes_required",
        "Spokes the centre double needs before play spreads.",
        "5.2",
        (
            _c(4, "Four spokes (the Maltese cross).", "S000, S002, S003, SPAANS, PAGAT"),
            _c(6, "Six spokes (the double chicken foot).", "RUSSELLR, PUREMCO-COPY, FUNDEX"),
            _c(
                CenterSpokes.PLAYERS_TO_8,
                "At least one spoke per player, up to 8 as the table chooses.",
                "S001",
            ),
        ),
        minimum=2,
        maximum=18,
        extra=(CenterSpokes.PLAYERS_TO_8,),
    ),
    Switch(
        "foot_toes_required",
        "Toes a chicken foot needs before play elsewhere.",
        "5.4",
        (_c(3, "Three toes on every double.", "all sources"),),
        minimum=1,
        maximum=6,
    ),
    Switch(
        "tiles_per_turn",
        "Tiles a player may lay in one turn.",
        "5.1",
        (
            _c(1, "One tile per turn.", "all sources but OURP2"),
            _c(TilesPerTurn.UNLIMITED, "As many as the player can.", "OURP2 (outlier)"),
        ),
    ),
    Switch(
        "must_play_if_able",
        "Must a player with a legal play play it?",
        "5.1",
        (
            _c(True, "Yes; drawing is only for a player with no legal play.", "S000, S002, S003"),
            _c(False, "No; a player may draw instead of playing.", "unsourced"),
        ),
    ),
    Switch(
        "draw_when_stuck",
        "What a player with no legal play draws.",
        "5.5",
        (
            _c(
                DrawWhenStuck.ONE,
                "Draw one tile; if it cannot be played, pass.",
                "S000-S003, SPAANS, MARMIDA",
            ),
            _c(DrawWhenStuck.UNTIL_PLAYABLE, "Keep drawing until a tile can be played.", "HTFBW2"),
            _c(DrawWhenStuck.OPTIONAL, "May draw one tile, or pass.", "RUSSELLR"),
        ),
    ),
    Switch(
        "drawn_tile_play",
        "A drawn tile that can be played:",
        "5.5",
        (
            _c(DrawnTilePlay.MUST, "must be played at once.", "S001, S000, REF-BASIC, ODG"),
            _c(
                DrawnTilePlay.MAY,
                "may be played at once, or kept.",
                "S002, S003, SPAANS, CDD, RUSSELLR",
            ),
            _c(DrawnTilePlay.NO, "is kept; the player passes.", "OURP1, OURP3"),
        ),
    ),
    Switch(
        "yard_reserve",
        "Tiles that stay undrawn in the chicken yard.",
        "5.5",
        (
            _c(YardReserve.NONE, "Every tile in the chicken yard can be drawn.", "most sources"),
            _c(
                YardReserve.SEED001_2P2_ELSE1,
                "The last 2 tiles (2 players) or the last 1 (3+) stay undrawn.",
                "S001",
            ),
        ),
    ),
    Switch(
        "empty_yard_ends_round",
        "Does a stuck player with an empty yard end the round?",
        "5.5",
        (
            _c(False, "No: they pass, and the round ends when nobody can play.", "S000-S003"),
            _c(True, "Yes: the round ends at once ('No Draw').", "NATHANLONG"),
        ),
    ),
    Switch(
        "double_blank_value",
        "Points for the double-blank left in hand.",
        "7",
        (
            _c(50, "50 points.", "S000, S002, S003, FUNDEX, HCHERNDON"),
            _c(0, "0 points (its pips).", "S001 default"),
            _c(25, "25 points.", "DOCSLIB"),
        ),
        minimum=0,
        maximum=100,
    ),
    Switch(
        "blank_half_value",
        "Points for each blank half of other tiles.",
        "7",
        (
            _c(0, "Nothing: 0-7 counts 7.", "S000"),
            _c(25, "25 points each: 0-7 counts 32.", "RUSSELLR, FUNDEX"),
        ),
    ),
    Switch(
        "going_out_on_double",
        "Going out by playing a double as the last tile.",
        "6",
        (
            _c(
                GoingOutOnDouble.ALLOWED, "Scores 0 like any other going out.", "S001-S003 (silent)"
            ),
            _c(
                GoingOutOnDouble.PENALTY_50,
                "Ends the round but scores 50, and is not a zero round.",
                "S000, BGG-DERIVED, REDTABLE",
            ),
        ),
    ),
    Switch(
        "last_tile_announcement",
        "Announcing your last tile ('Chicken Little').",
        "5.5",
        (
            _c(LastTileAnnouncement.OFF, "No announcement needed.", "default"),
            _c(
                LastTileAnnouncement.TAP_OR_DRAW_1,
                "Tap or announce your last tile before the next player plays, or draw one.",
                "WIKI-COPY, DOCSLIB, NATHANLONG, HASTINGS",
            ),
        ),
    ),
    Switch(
        "announce_double",
        "Say 'Chickie N' / 'chicken foot' when laying a double.",
        "5.4",
        (
            _c(True, "Announce it (cosmetic, no penalty is sourced).", "S000, S002, S003"),
            _c(False, "No announcement.", ""),
        ),
    ),
    Switch(
        "tiebreak_exhausted",
        "When totals, zero rounds and best round all tie:",
        "8",
        (
            _c(TiebreakExhausted.SHARED, "the win is shared.", "sources silent"),
            _c(
                TiebreakExhausted.NEXT_LOWEST_NONZERO,
                "compare the 2nd-lowest non-zero round, then the 3rd, ...",
                "unsourced (HORIZON analogy)",
            ),
        ),
    ),
    Switch(
        "game_length",
        "How long a game lasts.",
        "4",
        (
            _c(
                GameLength.ALL_ROUNDS,
                "One round per double, double-N down to double-blank.",
                "S000-S003",
            ),
            _c(
                GameLength.TARGET_TOTAL,
                "Until someone reaches the target total; they lose.",
                "SPAANS",
            ),
        ),
    ),
    Switch(
        "target_total",
        "The losing total when the game is played to a target.",
        "4",
        minimum=0,
        maximum=100000,
    ),
    Switch(
        "take_back_before_next_play",
        "May a tile be taken back before the next play?",
        "5.5",
        (
            _c(False, "No.", "default"),
            _c(
                True,
                "Yes, until the next player has played (not modelled by the checker).",
                "LEDTOTAL",
            ),
        ),
    ),
)

SWITCH_BY_NAME: dict[str, Switch] = {s.name: s for s in SWITCHES}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every house-rule switch in force, with the RULES.md §9 defaults.

    Values are JSON types (text switches are ``StrEnum`` members, which are ``str``; int, bool,
    tuple of tie-break steps) so a RuleSet can be frozen with a game and compared. Use
    :func:`ruleset_from_spec` to build one; the constructor does no validation,
    :meth:`validated` does.
    """

    set_size: int = 9
    hand_size_rule: HandSizeRule = HandSizeRule.SEVEN_EACH
    hand_size_custom: int = 0
    start_double_source: StartDoubleSource = StartDoubleSource.HELD_IN_HAND
    missing_start_double: MissingStartDouble = MissingStartDouble.DRAW_UNTIL_FOUND
    first_round_starter: Starter = Starter.HOLDER_OF_START_DOUBLE
    later_round_starter: Starter = Starter.HOLDER_OF_START_DOUBLE
    starter_plays_first_spoke: bool = False
    center_spokes_required: int | CenterSpokes = 4
    foot_toes_required: int = 3
    tiles_per_turn: int | TilesPerTurn = 1
    must_play_if_able: bool = True
    draw_when_stuck: DrawWhenStuck = DrawWhenStuck.ONE
    drawn_tile_play: DrawnTilePlay = DrawnTilePlay.MUST
    yard_reserve: YardReserve = YardReserve.NONE
    empty_yard_ends_round: bool = False
    double_blank_value: int = 50
    blank_half_value: int = 0
    going_out_on_double: GoingOutOnDouble = GoingOutOnDouble.ALLOWED
    last_tile_announcement: LastTileAnnouncement = LastTileAnnouncement.OFF
    announce_double: bool = True
    tiebreak: tuple[DecidedAt, ...] = TIEBREAK_STEPS
    tiebreak_exhausted: TiebreakExhausted = TiebreakExhausted.SHARED
    game_length: GameLength = GameLength.ALL_ROUNDS
    target_total: int = 0
    take_back_before_next_play: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Every switch as a JSON-ready dict (tiebreak as a list)."""
        data = asdict(self)
        data["tiebreak"] = list(self.tiebreak)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """A validated RuleSet from a full or partial switch dict (missing switches default).

        Raises RuleError for unknown switches or bad values.
        """
        return RuleSet().with_overrides(data, where="ruleset")

    def with_overrides(self, overrides: Mapping[str, Any], where: str = "overrides") -> RuleSet:
        """A new validated RuleSet with ``overrides`` applied. Raises RuleError (§9)."""
        if not isinstance(overrides, Mapping):
            raise RuleError(
                ErrorCode.BAD_RULESET, "Overrides must be an object of switch: value.", where
            )
        known = {f.name for f in fields(RuleSet)}
        clean: dict[str, Any] = {}
        for name, value in overrides.items():
            if name not in known:
                raise RuleError(
                    ErrorCode.UNKNOWN_SWITCH,
                    "'%(name)s' is not a house-rule switch.",
                    f"{where}.{name}",
                    params={"name": name},
                )
            clean[name] = _check_value(name, value, f"{where}.{name}")
        return replace(self, **clean).validated(where)

    def validated(self, where: str = "ruleset") -> RuleSet:
        """Return self if the switches fit together, else raise RuleError (§9, §10)."""
        for starter in ("first_round_starter", "later_round_starter"):
            if getattr(self, starter) == Starter.PRE_DEAL_SEARCH and (
                self.start_double_source != StartDoubleSource.PULLED_BEFORE_DEAL
            ):
                raise RuleError(
                    ErrorCode.CONFLICTING_RULES,
                    "A pre-deal search sets the double aside before the deal, so "
                    "start_double_source must be 'pulled_before_deal'.",
                    f"{where}.{starter}",
                )
        if self.game_length == GameLength.TARGET_TOTAL and self.target_total <= 0:
            raise RuleError(
                ErrorCode.CONFLICTING_RULES,
                "Playing to a target total needs a target above 0 points.",
                f"{where}.target_total",
            )
        return self

    def describe(self) -> list[tuple[Switch, Any, str]]:
        """Each switch with its value and that value's meaning, in SWITCHES order."""
        out = []
        for switch in SWITCHES:
            value = getattr(self, switch.name)
            out.append((switch, value, switch.meaning(value) or str(value)))
        return out

    def differences(self, other: RuleSet | None = None) -> dict[str, Any]:
        """Switches whose value differs from ``other`` (default: the standard rules)."""
        base = (other or RuleSet()).to_dict()
        return {k: v for k, v in self.to_dict().items() if base.get(k) != v}

    def house_rule_changes(self, other: RuleSet | None = None) -> dict[str, Any]:
        """The house rules that differ from ``other`` (default: the standard rules): the
        :meth:`differences` but the table's equipment (:data:`NOT_HOUSE_RULES`)."""
        return house_rule_overrides(self.differences(other))


def _check_value(name: str, value: Any, where: str) -> Any:
    if name == "tiebreak":
        return _check_tiebreak(value, where)
    switch = SWITCH_BY_NAME[name]
    if not switch.allows(value):
        allowed = [c.value for c in switch.choices] + list(switch.extra)
        if switch.minimum is not None:
            allowed_text = f"a whole number from {switch.minimum} to {switch.maximum}"
            if switch.extra:
                allowed_text += " or " + ", ".join(repr(str(v)) for v in switch.extra)
        else:
            allowed_text = "one of " + ", ".join(_json_repr(v) for v in allowed)
        raise RuleError(
            ErrorCode.BAD_SWITCH_VALUE,
            "%(value)s is not a value of '%(name)s'; use %(allowed_text)s.",
            where,
            params={"value": _json_repr(value), "name": name, "allowed_text": allowed_text},
        )
    return switch.canonical(value)


def _check_tiebreak(value: Any, where: str) -> tuple[DecidedAt, ...]:
    if not isinstance(value, list | tuple) or not value:
        raise RuleError(ErrorCode.BAD_SWITCH_VALUE, "tiebreak must be a list of steps.", where)
    known = all(isinstance(s, str) and s in TIEBREAK_STEPS for s in value)
    steps = tuple(DecidedAt(s) for s in value) if known else ()
    if not known or len(set(steps)) != len(steps):
        raise RuleError(
            ErrorCode.BAD_SWITCH_VALUE,
            "tiebreak steps are " + ", ".join(TIEBREAK_STEPS) + ", each at most once.",
            where,
        )
    if steps[0] != DecidedAt.LOWEST_TOTAL:
        raise RuleError(
            ErrorCode.BAD_SWITCH_VALUE, "The lowest total always decides first (§8).", where
        )
    return steps


def _json_repr(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


#: The named presets of RULES.md §9 (overrides on top of the standard rules).
PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "wikipedia": {
        "first_round_starter": Starter.DRAW_HIGHEST_TILE,
        "start_double_source": StartDoubleSource.PULLED_BEFORE_DEAL,
        "starter_plays_first_spoke": True,
        "going_out_on_double": GoingOutOnDouble.PENALTY_50,
        "last_tile_announcement": LastTileAnnouncement.TAP_OR_DRAW_1,
    },
    "gamerules_seed001": {
        "hand_size_rule": HandSizeRule.GAMERULES_TABLE,
        "start_double_source": StartDoubleSource.PULLED_BEFORE_DEAL,
        "first_round_starter": Starter.PRE_DEAL_SEARCH,
        "later_round_starter": Starter.PRE_DEAL_SEARCH,
        "starter_plays_first_spoke": True,
        "center_spokes_required": CenterSpokes.PLAYERS_TO_8,
        "yard_reserve": YardReserve.SEED001_2P2_ELSE1,
        "double_blank_value": 0,
    },
    "spruce_seed002_003": {"drawn_tile_play": DrawnTilePlay.MAY},
    "double_chickenfoot": {"center_spokes_required": 6},
    "fundex_chicken_coop": {
        "center_spokes_required": 6,
        "starter_plays_first_spoke": True,
        "blank_half_value": 25,
        "hand_size_rule": HandSizeRule.FUNDEX_TABLE,
    },
    "nathanlong_no_draw": {
        "empty_yard_ends_round": True,
        "hand_size_rule": HandSizeRule.NATHANLONG_TABLE,
        "later_round_starter": Starter.ROTATE_LEFT,
    },
    "hcherndon_app": {"missing_start_double": MissingStartDouble.RETRY_NEXT_ROUND},
}

#: switches that name the table's equipment, not a house rule: the set is shown with the game
#: ("double-6"), so a double-6 game under the standard rules has no house rule changed
NOT_HOUSE_RULES = frozenset({"set_size"})


def house_rule_overrides(overrides: dict[str, Any]) -> dict[str, Any]:
    """The house rules among ``overrides`` (switch name -> value, e.g. a question's
    ``ruleset.overrides``): all but :data:`NOT_HOUSE_RULES`.

    >>> house_rule_overrides({"set_size": 6, "foot_toes_required": 2})
    {'foot_toes_required': 2}
    """
    return {k: v for k, v in overrides.items() if k not in NOT_HOUSE_RULES}


PRESET_TITLES: dict[str, str] = {
    "standard": "Standard (Spruce / Wikipedia defaults)",
    "wikipedia": "Wikipedia (draw for first, 50 for going out on a double)",
    "gamerules_seed001": "gamerules.com (train per player, big hands, 0-0 worth 0)",
    "spruce_seed002_003": "The Spruce (may play the drawn tile)",
    "double_chickenfoot": "Double chicken foot (6 spokes)",
    "fundex_chicken_coop": "Fundex Chicken Coop (6 spokes, blanks 25)",
    "nathanlong_no_draw": "'No Draw' house rules",
    "hcherndon_app": "Retry a missing double next round",
}


def preset(name: str) -> RuleSet:
    """The RuleSet of a named preset. Raises RuleError(``UNKNOWN_PRESET``).

    >>> from companion.engine import preset
    >>> preset("standard").set_size
    9
    """
    if name not in PRESETS:
        raise RuleError(
            ErrorCode.UNKNOWN_PRESET,
            "'%(name)s' is not a preset; use one of %(presets)s.",
            "ruleset.preset",
            params={"name": name, "presets": ", ".join(PRESETS)},
        )
    return RuleSet().with_overrides(PRESETS[name], where=f"presets.{name}")


def ruleset_from_spec(spec: Any) -> RuleSet:
    """The effective rules of a question: standard, then the preset, then overrides (§0).

    ``spec`` is ``{"preset": name, "overrides": {...}}``; switches given at the top level next to
    the preset count as overrides, and ``None`` means the standard rules.
    Raises RuleError for an unknown preset, switch or value.

    >>> from companion.engine import ruleset_from_spec
    >>> ruleset_from_spec({"preset": "standard", "overrides": {"set_size": 12}}).set_size
    12
    """
    if spec is None:
        return RuleSet()
    if not isinstance(spec, Mapping):
        raise RuleError(
            ErrorCode.BAD_RULESET,
            'ruleset must be an object like {"preset": "standard", "overrides": {}}.',
            "ruleset",
        )
    name = spec.get("preset", "standard")
    if not isinstance(name, str):
        raise RuleError(ErrorCode.UNKNOWN_PRESET, "preset must be a preset name.", "ruleset.preset")
    rules = preset(name)
    loose = {k: v for k, v in spec.items() if k not in ("preset", "overrides")}
    overrides = spec.get("overrides") or {}
    if not isinstance(overrides, Mapping):
        raise RuleError(
            ErrorCode.BAD_RULESET,
            "overrides must be an object of switch: value.",
            "ruleset.overrides",
        )
    if loose:
        rules = rules.with_overrides(loose, where="ruleset")
    return rules.with_overrides(overrides, where="ruleset.overrides")


def check_players(players: Any, where: str = "input.players") -> int:
    """Return ``players`` if it is a supported count (2..12, §3.1), else raise RuleError."""
    if not _is_int(players) or not PLAYERS_MIN <= players <= PLAYERS_MAX:
        raise RuleError(
            ErrorCode.BAD_PLAYERS,
            "Chicken Foot is for %(players_min)s to %(players_max)s players; "
            "%(players)s is not a player count.",
            where,
            params={
                "players_min": PLAYERS_MIN,
                "players_max": PLAYERS_MAX,
                "players": repr(players),
            },
        )
    return players


def check_set_size(n: Any, where: str = "input.set") -> int:
    """Return ``n`` if it is a supported set (6, 9, 12, 15, 18), else raise RuleError."""
    if not _is_int(n) or n not in SUPPORTED_SETS:
        raise RuleError(
            ErrorCode.BAD_SET,
            "Sets are double-6, 9, 12, 15 or 18; %(n)s is not one.",
            where,
            params={"n": repr(n)},
        )
    return n


def spokes_required(
    rules: RuleSet, set_size: int, players: int | None = None, chosen: int | None = None
) -> int:
    """K, the spokes the centre double needs before play spreads (RULES.md §5.2).

    For ``players_to_8`` (S001) the table's ``chosen`` K is used, else one spoke per player, else
    4. Raises RuleError(``TOO_MANY_SPOKES``) when K exceeds the N tiles of the centre's suit, or
    when a chosen K lies outside players..8.

    >>> from companion.engine import RuleSet, spokes_required
    >>> spokes_required(RuleSet(), 9)
    4
    """
    value = rules.center_spokes_required
    if value == CenterSpokes.PLAYERS_TO_8:
        if chosen is not None:
            if not _is_int(chosen) or chosen < 2:
                raise RuleError(
                    ErrorCode.BAD_SPOKES,
                    "%(chosen)s is not a number of spokes.",
                    "input.center_spokes_required",
                    params={"chosen": repr(chosen)},
                )
            low = players if players is not None else 2
            if not low <= chosen <= max(8, low):
                raise RuleError(
                    ErrorCode.BAD_SPOKES,
                    "With one train per player up to eight, %(players)s players need "
                    "%(low)s to %(most)s spokes, not %(chosen)s.",
                    "input.center_spokes_required",
                    params={"players": players, "low": low, "most": max(8, low), "chosen": chosen},
                )
            value = chosen
        else:
            value = players if players is not None else 4
    elif chosen is not None and chosen != value:
        raise RuleError(
            ErrorCode.BAD_SPOKES,
            "These house rules fix the centre at %(value)s spokes, not %(chosen)s.",
            "input.center_spokes_required",
            params={"value": value, "chosen": chosen},
        )
    if value > set_size:
        raise RuleError(
            ErrorCode.TOO_MANY_SPOKES,
            "A double-%(set_size)s set has only %(set_size)s tiles carrying the "
            "centre number, so the centre double cannot take %(value)s spokes.",
            "ruleset.center_spokes_required",
            params={"set_size": set_size, "value": value},
        )
    return int(value)


def reserve_size(rules: RuleSet, players: int | None) -> int:
    """Tiles that stay undrawable in the chicken yard (RULES.md §5.5, S001 reserve).

    ``seed001_2p2_else1``: 2 tiles with 2 players, else 1 (3+ players, or count unknown).
    """
    if rules.yard_reserve == YardReserve.SEED001_2P2_ELSE1:
        return 2 if players == 2 else 1
    return 0
