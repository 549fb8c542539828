"""Errors raised by the rules engine.

Every error carries a stable ``code``, a plain-language ``message`` and ``where`` (the part of the
input it is about, e.g. ``"input.layout.tiles[2] (S3)"``), so that the question contract of
QUESTIONS.md can turn it into ``{"error": {"code", "message", "where"}}`` without guessing.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum


class ErrorCode(StrEnum):
    """Every code an engine error carries, but those of an illegal move, which are
    :class:`~companion.engine.reasons.Reason` members (``NO_MATCH``, ``FOOT_INCOMPLETE``...: a
    layout that could not have been played is refused for the reason a move would be).

    The members are plain strings, so the API's ``{"error": {"code"}}``, the command line and
    the web layer's comparisons keep the same text.

    >>> ErrorCode.BAD_TILE == "BAD_TILE"
    True
    """

    # the question's shape (QUESTIONS.md)
    BAD_QUESTION = "BAD_QUESTION"  # not an object with category, ruleset and input
    BAD_INPUT = "BAD_INPUT"  # ``input`` is not an object
    UNKNOWN_CATEGORY = "UNKNOWN_CATEGORY"  # no such question category
    MISSING_INPUT = "MISSING_INPUT"  # a field the question needs is absent
    BAD_VALUE = "BAD_VALUE"  # a field of the wrong type or out of its range
    BAD_TEXT = "BAD_TEXT"  # text that is not Unicode (a lone surrogate)
    TOO_LARGE = "TOO_LARGE"  # over a size bound of companion.engine.limits (the API: 413)
    # tiles and sets (RULES.md §2)
    BAD_SET = "BAD_SET"  # not double-6, 9, 12, 15 or 18
    BAD_TILE = "BAD_TILE"  # not written like "9-5"
    TILE_OUTSIDE_SET = "TILE_OUTSIDE_SET"  # a number above the set's highest
    DUPLICATE_TILE = "DUPLICATE_TILE"  # one tile in two places
    BAD_DOUBLE = "BAD_DOUBLE"  # not a double of the set
    BAD_HAND = "BAD_HAND"  # a hand that is not a list of tiles
    # layouts (RULES.md §5)
    BAD_LAYOUT = "BAD_LAYOUT"  # not an object {"center", "tiles"}
    BAD_CENTER = "BAD_CENTER"  # the centre is not a double
    BAD_SPOKES = "BAD_SPOKES"  # a spoke count the house rules do not allow
    TOO_MANY_SPOKES = "TOO_MANY_SPOKES"  # more spokes than tiles carry the centre's number
    MISSING_ID = "MISSING_ID"  # a placed tile without its id
    BAD_ID = "BAD_ID"  # an id that is not usable (S1, D1, T1...)
    DUPLICATE_ID = "DUPLICATE_ID"  # one id for two tiles
    UNKNOWN_ID = "UNKNOWN_ID"  # placed on a tile that is not earlier in the layout
    ILLEGAL_EVENT = "ILLEGAL_EVENT"  # a turn of a sequence that could not have happened
    # house rules (RULES.md §9)
    BAD_RULESET = "BAD_RULESET"  # not {"preset", "overrides"}
    UNKNOWN_PRESET = "UNKNOWN_PRESET"
    UNKNOWN_SWITCH = "UNKNOWN_SWITCH"
    BAD_SWITCH_VALUE = "BAD_SWITCH_VALUE"  # a value the switch does not take
    CONFLICTING_RULES = "CONFLICTING_RULES"  # switches that cannot hold together
    BAD_HAND_SIZE = "BAD_HAND_SIZE"
    HAND_SIZE_UNDEFINED = "HAND_SIZE_UNDEFINED"  # the rule's table has no entry for this table
    # the table, the deal and the rounds (RULES.md §3, §4)
    BAD_PLAYERS = "BAD_PLAYERS"  # a player count outside 2-12 (or the house rules' table)
    DEAL_SHORT = "DEAL_SHORT"  # the set has too few tiles for these hands
    TOO_MANY_TOES = "TOO_MANY_TOES"  # a foot needing more toes than tiles carry its number
    BAD_ROUND = "BAD_ROUND"  # a round number the game does not have
    DUPLICATE_ROUND = "DUPLICATE_ROUND"  # one double starting two rounds
    CENTRE_DOUBLE_IN_HAND = "CENTRE_DOUBLE_IN_HAND"
    # scoring and tie-breaks (RULES.md §7, §8)
    BAD_SCORE = "BAD_SCORE"  # more than a whole set left in hand would score
    WENT_OUT_WITH_TILES = "WENT_OUT_WITH_TILES"
    SEVERAL_WENT_OUT = "SEVERAL_WENT_OUT"
    NO_PLAYERS = "NO_PLAYERS"
    UNKNOWN_PLAYER = "UNKNOWN_PLAYER"


#: Kept as a name of its own for the importers that compare with it (the API's 413).
TOO_LARGE = ErrorCode.TOO_LARGE


class EngineError(ValueError):
    """A question, tile, layout or house rule that the engine cannot accept.

    The sentence is given as an English ``template`` with ``%(name)s`` placeholders plus its
    ``params``, so the web layer can translate the template (``companion.words.error_words``;
    ``companion.extract`` lists every template for the catalog) while the engine stays free
    of Flask-Babel.

    Attributes:
        code: stable upper-case identifier: an :class:`ErrorCode` (e.g.
            ``ErrorCode.TILE_OUTSIDE_SET``), the :class:`Reason` of an illegal move, or a
            code of the layer above that reads positions (the checker's ``NotationCode``).
        template: the English sentence with ``%(name)s`` placeholders (a gettext msgid).
        params: the values of the placeholders (empty when the template has none).
        message: the English sentence, ``template % params``: one sentence a player can read.
        where: the offending part of the input, or ``""`` when it is the whole input.
    """

    def __init__(
        self,
        code: StrEnum,
        message: str,
        where: str = "",
        *,
        params: Mapping[str, object] | None = None,
    ) -> None:
        self.template = message
        self.params: dict[str, object] = dict(params or {})
        text = message % self.params if self.params else message
        super().__init__(text)
        self.code: StrEnum = code
        self.message = text
        self.where = where

    def located(self, where: str) -> EngineError:
        """Return the same error with ``where`` filled in when it was still empty."""
        if not self.where:
            self.where = where
        return self

    def as_dict(self) -> dict[str, str]:
        """The error as the QUESTIONS.md error object ``{"code", "message", "where"}``."""
        return {"code": str(self.code), "message": self.message, "where": self.where}


class TileError(EngineError):
    """A tile that cannot be parsed, lies outside the set, or is used twice (RULES.md §2)."""


class RuleError(EngineError):
    """An unknown preset or switch, a bad switch value, or an impossible combination (§9)."""


class LayoutError(EngineError):
    """A layout that could not have been played (RULES.md §0, §5)."""
