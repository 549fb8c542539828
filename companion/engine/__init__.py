"""The Chicken Foot rules engine: pure Python, no web imports, immutable typed values.

The public API, by the game's nouns (RULES.md section in brackets):

* tiles and sets [§2]: :class:`Tile`, :class:`DominoSet`, :func:`parse_tile`
* house rules [§9]: :class:`RuleSet`, :data:`PRESETS`, :data:`SWITCHES`, :func:`ruleset_from_spec`
* setup [§3]: :func:`hand_size`, :func:`deal`, :func:`check_table`
* round sequence [§3.5, §4]: :func:`round_doubles`, :func:`next_round`
* start player [§3.6]: :func:`start_of_round`
* layout and moves [§0, §5]: :class:`Layout`, :func:`replay`, :func:`check_move`,
  :func:`legal_moves`
* turns [§5.5]: :func:`advise_turn`; round end [§6]: :func:`round_status`
* scoring [§7]: :func:`score_hand`, :func:`tile_points`; tie-breaks [§8]: :func:`decide`,
  :func:`standings`
* the checker's contract (QUESTIONS.md): :func:`answer`, :func:`answer_document`
"""

from .deal import Deal, TableCheck, check_table, deal, hand_size
from .errors import EngineError, ErrorCode, LayoutError, RuleError, TileError
from .layout import CENTER, Layout, OpenEnd, Placement, replay
from .moves import Verdict, check_move, has_legal_play, legal_moves, play
from .questions import CATEGORIES, answer, answer_document
from .reasons import SECTION, DecidedAt, Reason, TurnResult
from .round_end import RoundEnd, round_status
from .rules import (
    NOT_HOUSE_RULES,
    PRESET_TITLES,
    PRESETS,
    SWITCH_BY_NAME,
    SWITCHES,
    RuleSet,
    house_rule_overrides,
    preset,
    ruleset_from_spec,
    spokes_required,
)
from .scoring import (
    HandResult,
    hand_points,
    max_hand_points,
    running_totals,
    score_hand,
    tile_points,
)
from .sequence import NextRound, next_round, round_double, round_doubles
from .starters import StartInfo, next_clockwise, start_of_round
from .state import RoundInPlay, RoundStart, RoundState
from .tiebreak import DECIDED_LABELS, Decision, PlayerRecord, Standing, decide, records, standings
from .tiles import SUPPORTED_SETS, DominoSet, Tile, parse_tile
from .turns import TurnAdvice, advise_turn

__all__ = [
    "CATEGORIES",
    "CENTER",
    "DECIDED_LABELS",
    "NOT_HOUSE_RULES",
    "PRESETS",
    "PRESET_TITLES",
    "SUPPORTED_SETS",
    "SWITCHES",
    "SWITCH_BY_NAME",
    "Deal",
    "Decision",
    "DominoSet",
    "EngineError",
    "ErrorCode",
    "HandResult",
    "Layout",
    "LayoutError",
    "NextRound",
    "OpenEnd",
    "Placement",
    "PlayerRecord",
    "RoundInPlay",
    "RoundStart",
    "RoundState",
    "RoundEnd",
    "RuleError",
    "RuleSet",
    "Standing",
    "StartInfo",
    "TableCheck",
    "Tile",
    "TileError",
    "TurnAdvice",
    "Verdict",
    "Reason",
    "DecidedAt",
    "TurnResult",
    "SECTION",
    "advise_turn",
    "answer",
    "answer_document",
    "check_move",
    "check_table",
    "deal",
    "decide",
    "hand_points",
    "hand_size",
    "has_legal_play",
    "house_rule_overrides",
    "legal_moves",
    "max_hand_points",
    "next_clockwise",
    "next_round",
    "parse_tile",
    "play",
    "preset",
    "records",
    "replay",
    "round_double",
    "round_doubles",
    "round_status",
    "ruleset_from_spec",
    "running_totals",
    "score_hand",
    "spokes_required",
    "standings",
    "start_of_round",
    "tile_points",
]
