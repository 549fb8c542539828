"""Errors raised by the rules engine.

Every error carries a stable ``code``, a plain-language ``message`` and ``where`` (the part of the
input it is about, e.g. ``"input.layout.tiles[2] (S3)"``), so that the question contract of
QUESTIONS.md can turn it into ``{"error": {"code", "message", "where"}}`` without guessing.
"""

from __future__ import annotations

from collections.abc import Mapping

#: The code of every error about an input over a size bound of :mod:`companion.engine.limits`
#: (more tiles than the set, more rounds than a game, text too long...); the API answers 413.
TOO_LARGE = "TOO_LARGE"


class EngineError(ValueError):
    """A question, tile, layout or house rule that the engine cannot accept.

    The sentence is given as an English ``template`` with ``%(name)s`` placeholders plus its
    ``params``, so the web layer can translate the template (``companion.words.error_words``;
    ``companion.extract`` lists every template for the catalog) while the engine stays free
    of Flask-Babel.

    Attributes:
        code: stable upper-case identifier, e.g. ``"TILE_OUTSIDE_SET"``.
        template: the English sentence with ``%(name)s`` placeholders (a gettext msgid).
        params: the values of the placeholders (empty when the template has none).
        message: the English sentence, ``template % params``: one sentence a player can read.
        where: the offending part of the input, or ``""`` when it is the whole input.
    """

    def __init__(
        self,
        code: str,
        message: str,
        where: str = "",
        *,
        params: Mapping[str, object] | None = None,
    ) -> None:
        self.template = message
        self.params: dict[str, object] = dict(params or {})
        text = message % self.params if self.params else message
        super().__init__(text)
        self.code = code
        self.message = text
        self.where = where

    def located(self, where: str) -> EngineError:
        """Return the same error with ``where`` filled in when it was still empty."""
        if not self.where:
            self.where = where
        return self

    def as_dict(self) -> dict[str, str]:
        """The error as the QUESTIONS.md error object ``{"code", "message", "where"}``."""
        return {"code": self.code, "message": self.message, "where": self.where}


class TileError(EngineError):
    """A tile that cannot be parsed, lies outside the set, or is used twice (RULES.md §2)."""


class RuleError(EngineError):
    """An unknown preset or switch, a bad switch value, or an impossible combination (§9)."""


class LayoutError(EngineError):
    """A layout that could not have been played (RULES.md §0, §5)."""
