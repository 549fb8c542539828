"""Reading a question (QUESTIONS.md): its rules, set and input, through typed accessors that
refuse a bad value with an :class:`~companion.engine.errors.EngineError` naming the field, so
no question reaches a rule with a value of the wrong type."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import EngineError, ErrorCode
from ..layout import Layout, replay
from ..limits import (
    MAX_PLAYERS,
    check_count,
)
from ..rules import (
    CenterSpokes,
    RuleSet,
    check_players,
    check_set_size,
    ruleset_from_spec,
    spokes_required,
)
from ..scoring import max_hand_points
from ..tiebreak import records
from ..tiles import DominoSet, Tile

Answer = dict[str, Any]


#: Why no list or object of players is longer than MAX_PLAYERS (RULES.md §3.1), for messages.
SEATED = f"players: a table seats at most {MAX_PLAYERS}"


class Question:
    """A parsed question: its rules, set and raw input, with typed accessors that raise
    EngineError naming the offending field."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.raw = raw
        self.rules: RuleSet = ruleset_from_spec(raw.get("ruleset"))
        inp = raw.get("input", {})
        if not isinstance(inp, Mapping):
            raise EngineError(ErrorCode.BAD_INPUT, "input must be an object.", "input")
        self.input: Mapping[str, Any] = inp
        n = inp.get("set", self.rules.set_size)
        self.set_size = check_set_size(n, "input.set" if "set" in inp else "ruleset.set_size")
        self.dominoes = DominoSet(n=self.set_size)

    def has(self, key: str) -> bool:
        """True when the input gives ``key`` (and it is not null)."""
        return self.input.get(key) is not None

    @property
    def players(self) -> int | None:
        """The player count, if given (2..12)."""
        return check_players(self.input["players"]) if self.has("players") else None

    def integer(
        self, key: str, default: int | None = None, minimum: int = 0, maximum: int | None = None
    ) -> int:
        """A whole number in ``minimum..maximum`` from the input (``maximum`` defaults to the
        set's tile count: no count of tiles can be larger). Raises EngineError(``BAD_VALUE``)."""
        value = self.input.get(key, default)
        most = self.dominoes.tile_count if maximum is None else maximum
        if value is None:
            raise EngineError(
                ErrorCode.MISSING_INPUT,
                "The question needs '%(key)s'.",
                f"input.{key}",
                params={"key": key},
            )
        if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= most:
            raise EngineError(
                ErrorCode.BAD_VALUE,
                "'%(key)s' must be a whole number from %(minimum)s to %(most)s, not %(value)s.",
                f"input.{key}",
                params={"key": key, "minimum": minimum, "most": most, "value": repr(value)},
            )
        return value

    def items(self, key: str, most: int, what: str) -> Any:
        """The input's ``key`` once its length is known to be at most ``most`` (see
        :func:`check_count`); ``what`` names the entries and the bound's reason."""
        value = self.input.get(key)
        check_count(value, most, f"input.{key}", what)
        return value

    def names(self, key: str) -> list[str]:
        """A list of player names (at most one per player of a table, §3.1)."""
        value = self.items(key, MAX_PLAYERS, SEATED)
        value = value or []
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            raise EngineError(
                ErrorCode.BAD_VALUE,
                "%(key)s is a list of player names.",
                f"input.{key}",
                params={"key": key},
            )
        return value

    def round_scores(self, code: ErrorCode = ErrorCode.BAD_VALUE) -> Mapping[str, list[int]]:
        """``round_scores``: player -> points per round, at most 12 players, at most the set's
        N+1 rounds (§4) and no score above what the whole set left in hand would cost (§7).
        Raises EngineError (``code`` when it is missing, ``TOO_LARGE``, ``BAD_SCORE``)."""
        scores = self.items("round_scores", MAX_PLAYERS, SEATED)
        if not isinstance(scores, Mapping) or not scores:
            raise EngineError(
                code,
                "round_scores maps each player to their list of round scores.",
                "input.round_scores",
            )
        rounds = self.dominoes.rounds
        most = max_hand_points(self.dominoes.tile_count, self.set_size, self.rules)
        for player, points in scores.items():
            where = f"input.round_scores.{player}"
            game = f"rounds: a double-{self.set_size} game has {rounds}"
            check_count(points, rounds, where, game)
            for i, value in enumerate(points if isinstance(points, list) else ()):
                if isinstance(value, int) and not isinstance(value, bool) and value > most:
                    raise EngineError(
                        ErrorCode.BAD_SCORE,
                        "%(value)s is more than a whole double-%(set_size)s set left in hand "
                        "would score (%(most)s).",
                        f"{where}[{i}]",
                        params={"value": value, "set_size": self.set_size, "most": most},
                    )
        records(scores)  # the remaining checks: lists of whole points >= 0
        return scores

    def flag(self, key: str) -> bool:
        """A boolean from the input (absent = False). Raises EngineError for non-booleans."""
        value = self.input.get(key, False)
        if not isinstance(value, bool):
            raise EngineError(
                ErrorCode.BAD_VALUE,
                "'%(key)s' must be true or false.",
                f"input.{key}",
                params={"key": key},
            )
        return value

    def text(self, key: str) -> str | None:
        """A player name or id from the input, if given."""
        value = self.input.get(key)
        if value is not None and not isinstance(value, str):
            raise EngineError(
                ErrorCode.BAD_VALUE,
                "'%(key)s' must be a name.",
                f"input.{key}",
                params={"key": key},
            )
        return value

    def tile(self, value: Any, where: str) -> Tile:
        """Parse one tile of this question's set."""
        return self.dominoes.parse(value, where)

    def hand(self, key: str = "hand") -> tuple[list[Tile], dict[Tile, str]]:
        """A hand of tiles, and each tile's text as written (for echoing back)."""
        raw = self.input.get(key)
        tiles = list(self.dominoes.parse_hand(raw, f"input.{key}"))
        return tiles, dict(zip(tiles, raw or (), strict=True))  # parse_hand took raw as a list

    def spokes(self) -> int:
        """K for this table (RULES.md §5.2).

        Under ``players_to_8`` (S001) the table picks K from players..8; when the question does
        not say which, K is the least the position allows: one per player (4 if the count is
        unknown), or more if more spokes are already on the centre double.
        """
        chosen = self.input.get("center_spokes_required")
        if chosen is None and self.rules.center_spokes_required == CenterSpokes.PLAYERS_TO_8:
            on_centre = _spokes_in(self.input.get("layout"))
            least = self.players if self.players is not None else 4
            if on_centre > least:
                chosen = min(on_centre, max(8, least))
        return spokes_required(self.rules, self.set_size, self.players, chosen)

    def layout(self, extra_used: list[Tile] = ()) -> Layout:  # type: ignore[assignment]
        """The replayed, validated layout (RULES.md §0)."""
        if not self.has("layout"):
            raise EngineError(
                ErrorCode.MISSING_INPUT, "The question needs a layout.", "input.layout"
            )
        return replay(
            self.input["layout"],
            self.dominoes,
            self.spokes(),
            self.rules.foot_toes_required,
            extra_used=extra_used,
        )

    def player_tiles(self, key: str) -> dict[str, list[Tile]]:
        """player -> tiles from an object of lists (e.g. ``hands``)."""
        raw = self.input.get(key, {})
        if not isinstance(raw, Mapping):
            raise EngineError(
                ErrorCode.BAD_VALUE,
                "'%(key)s' must map each player to a list of tiles.",
                f"input.{key}",
                params={"key": key},
            )
        check_count(raw, MAX_PLAYERS, f"input.{key}", SEATED)
        return {
            str(p): list(self.dominoes.parse_hand(h, f"input.{key}.{p}")) for p, h in raw.items()
        }


def _spokes_in(layout: Any) -> int:
    """How many tiles a layout JSON puts on the centre double (0 if it is not readable)."""
    tiles = layout.get("tiles") if isinstance(layout, Mapping) else None
    if not isinstance(tiles, list):
        return 0
    return sum(1 for t in tiles if isinstance(t, Mapping) and t.get("on") == "C")
