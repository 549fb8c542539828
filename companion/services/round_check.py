"""Checking a round as the scorekeeper entered it, and scoring it with the engine (RULES.md §6
hand points, §7 going out, §8 the double-blank).

The second job of a round (:mod:`.round_plan`, check, :mod:`.round_store`). These are the
checks the round form's validators call (:mod:`companion.services.round_form`): each says what is
wrong as a :class:`companion.errors.Problem` whose ``field`` is the :class:`HandPart` it is
about (None: the round as a whole), so that the form shows it beside what was typed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from ..engine import (
    DominoSet,
    EngineError,
    RuleError,
    RuleSet,
    Tile,
    TileError,
    hand_size,
    max_hand_points,
    score_hand,
    tile_points,
)
from ..errors import Problem
from ..mapping import dominoes_of, rules_of
from ..models import Game
from ..text import ascii_whole_number, shortened
from ..vocab import RoundOutcome
from ..words import error_words

#: the longest typed score accepted as a number (more digits is refused as too large)
MAX_SCORE_DIGITS = 6


class HandPart(StrEnum):
    """The entries of one hand on the round form: a typed total, tapped tiles, "went out" and
    the revision of the hand posted from the player's phone that filled it."""

    TOTAL = "total"
    TILES = "tiles"
    OUT = "out"
    SEEN = "seen"
    #: the posted hand the box was filled with (HandValue.key), to tell it from typing over it
    FILLED = "filled"


@dataclass(frozen=True)
class ScoredHand:
    """One seat's checked score (points) and the tiles left in hand, if they were tapped."""

    seat_id: int
    points: int
    went_out: bool
    out_on_double: bool
    tiles: list[str] | None


@dataclass(frozen=True)
class ScoredRound:
    """A round ready to be stored."""

    double: int
    outcome: RoundOutcome
    starter_seat_id: int | None
    hands: tuple[ScoredHand, ...]


def score_bound(game: Game, double: int) -> int:
    """The most points a typed total may have, in points.

    A hand holds its dealt tiles plus whatever was drawn from the chicken yard, so the bound is
    what the heaviest ``hand size + chicken yard`` tiles of the set could score (engine
    :func:`max_hand_points`), leaving out the centre double.
    """
    rules = rules_of(game)
    dominoes = dominoes_of(game)
    players = max(len(game.seats), 1)
    try:
        size = hand_size(rules, game.set_size, players, game.hand_size)
    except (RuleError, EngineError):
        size = 7
    yard = max(dominoes.tile_count - 1 - players * size, 0)
    count = min(size + yard, dominoes.tile_count - 1)
    return max_hand_points(count, game.set_size, rules, excluded=[Tile(double, double)])


def parse_total(text: str, who: str, bound: int) -> tuple[int | None, str | None]:
    """A typed total as points (at most ``bound``), or a message in the player's words."""
    text = text.strip()
    if not text:
        return None, None
    if text.startswith("-") and ascii_whole_number(text[1:].strip()):
        return None, _("%(who)s: a score can't be negative.", who=who)
    if not ascii_whole_number(text):
        return None, _("%(who)s: type the points as a whole number (digits only).", who=who)
    if len(text) > MAX_SCORE_DIGITS or int(text) > bound:
        return None, ngettext(
            "%(who)s: %(text)s is more than any hand could hold in this game (at most "
            "%(num)s point).",
            "%(who)s: %(text)s is more than any hand could hold in this game (at most "
            "%(num)s points).",
            bound,
            who=who,
            text=shortened(text, 12),
        )
    return int(text), None


def parse_tiles(
    dominoes: DominoSet, texts: Sequence[str], who: str
) -> tuple[list[Tile], list[str]]:
    """Tapped tiles of the set (each once), and messages for texts that are not tiles of it."""
    tiles: list[Tile] = []
    problems: list[str] = []
    for text in texts[: dominoes.tile_count + 1]:
        try:
            tile = dominoes.parse(str(text)[:20])
        except TileError as exc:
            problems.append(_("%(who)s: %(problem)s", who=who, problem=error_words(exc)))
            continue
        if tile in tiles:
            continue  # the same checkbox twice is one tile
        tiles.append(tile)
    return tiles, problems


def round_end_problems(outs: int, blocked: bool) -> list[Problem]:
    """What is wrong with how the round ended (RULES.md §7): ``outs`` players marked as gone
    out, and whether the round was marked as blocked."""
    problems = []
    if outs > 1:
        problems.append(
            Problem(_l("Only one player can go out in a round; %(n)s are marked.", n=outs))
        )
    if blocked and outs:
        problems.append(Problem(_l("A blocked round has nobody going out: untick one of them.")))
    if not blocked and not outs:
        problems.append(Problem(_l("Mark who went out, or that the round was blocked.")))
    return problems


def placement_problems(
    tiles: Sequence[Tile], centre: Tile, seen: dict[Tile, str], who: str
) -> list[Problem]:
    """Tapped tiles that cannot be in ``who``'s hand: the round's centre double, or a tile
    already in another hand (``seen``: tile -> whose hand, filled in seat order)."""
    problems = []
    for tile in tiles:
        if tile == centre:
            message = _l(
                "%(who)s: %(tile)s is this round's centre double, so it can't be in a hand.",
                who=who,
                tile=str(tile),
            )
            problems.append(Problem(message, HandPart.TILES))
        elif tile in seen:
            message = _l(
                "%(tile)s can't be in both %(a)s's and %(b)s's hands.",
                tile=str(tile),
                a=seen[tile],
                b=who,
            )
            problems.append(Problem(message, HandPart.TILES))
        else:
            seen[tile] = who
    return problems


@dataclass(frozen=True)
class HandCheck:
    """One hand as read from the form, ready for scoring: whose seat (id, name), the typed
    total (points, None when nothing was typed), the tapped tiles, and whether they went out."""

    seat_id: int
    who: str
    typed: int | None
    tiles: list[Tile]
    went_out: bool


def score_entry(
    hand: HandCheck, rules: RuleSet, centre: Tile, out_on_double: bool
) -> ScoredHand | Problem:
    """Score one hand with the engine (RULES.md §6), or say why it cannot be scored: a typed
    total that disagrees with the tapped tiles, nothing entered, an impossible 0, tiles left
    in the hand of the player who went out."""
    who = hand.who
    if hand.went_out:
        return _went_out(hand, rules, centre, out_on_double)
    if hand.tiles:
        points = score_hand(hand.tiles, rules, round_double=centre).points
        if hand.typed is not None and hand.typed != points:
            message = _l(
                "%(who)s: the tapped tiles add up to %(points)s points, but %(typed)s was "
                "typed. To keep %(typed)s, untick %(who)s's tiles under “Tiles”; to keep the "
                "tiles, empty %(who)s's points box.",
                who=who,
                points=points,
                typed=hand.typed,
            )
            return Problem(message, HandPart.TOTAL)
        return ScoredHand(hand.seat_id, points, False, False, [str(t) for t in hand.tiles])
    if hand.typed is None:
        message = _l("%(who)s: type the points left in hand, or tap the tiles.", who=who)
        return Problem(message, HandPart.TOTAL)
    if hand.typed == 0 and not _zero_hand_possible(rules, centre):
        message = _l(
            "%(who)s: 0 points means no tiles left; tick “went out” for %(who)s, or type the "
            "points left in hand.",
            who=who,
        )
        return Problem(message, HandPart.TOTAL)
    return ScoredHand(hand.seat_id, hand.typed, False, False, None)


def _zero_hand_possible(rules: RuleSet, centre: Tile) -> bool:
    """Can a player who did not go out score 0? Only holding nothing but the double-blank when
    it is worth 0 (RULES.md §8, EDG-02), and never in the 0-0 round."""
    return centre != Tile(0, 0) and tile_points(Tile(0, 0), rules) == 0


def _went_out(
    hand: HandCheck, rules: RuleSet, centre: Tile, out_on_double: bool
) -> ScoredHand | Problem:
    """Score the player who went out: 0, or the going-out-on-a-double penalty (RULES.md §6)."""
    who = hand.who
    try:
        result = score_hand(
            hand.tiles,
            rules,
            went_out=True,
            last_tile_was_double=out_on_double,
            round_double=centre,
        )
    except EngineError:
        message = _l(
            "%(who)s went out, so %(who)s has no tiles left: clear the tapped tiles.", who=who
        )
        return Problem(message, HandPart.TILES)
    if hand.typed is not None and hand.typed != result.points:
        message = _l(
            "%(who)s went out, so %(who)s scores %(points)s points, not %(typed)s.",
            who=who,
            points=result.points,
            typed=hand.typed,
        )
        return Problem(message, HandPart.TOTAL)
    return ScoredHand(hand.seat_id, result.points, True, out_on_double, [])
