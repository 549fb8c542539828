"""Who starts a round and who lays the first spoke (RULES.md §3.6). Play runs clockwise."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .errors import ErrorCode, RuleError
from .rules import StartDoubleSource, Starter
from .state import RoundStart
from .tiles import Tile


class StartAction(StrEnum):
    """What the starter of a round does (RULES.md §3.6), for :attr:`StartInfo.how`."""

    DREW_HIGHEST = "drew_highest"
    EVERYONE_DRAWS = "everyone_draws"
    ROTATE = "rotate"
    PRE_DEAL_SEARCH = "pre_deal_search"
    PLACES = "places"
    SET_ASIDE = "set_aside"
    DREW_FROM_YARD = "drew_from_yard"


@dataclass(frozen=True, slots=True)
class StartInfo:
    """The start of one round.

    Attributes:
        starter: the player who places the centre double (None when not yet known).
        first_spoke_by: who lays the first spoke (None when seats are unknown).
        tied: players tied on the highest drawn tile, who draw again (``draw_highest_tile``).
        draw_tiles_returned: the tiles drawn to decide the starter go back to the yard.
        set_aside_before_deal: the double is found and placed before the hands are dealt.
        action: what the starter does, in English words (the API's ``starter_action``).
        rule_name: the switch that decided (``first_round_starter``/``later_round_starter``).
        how: what the starter does, as a code (:class:`StartAction`; worded for pages by
            ``companion.words.start_action``).
        lays_first_spoke: the starter also lays the first spoke (``starter_plays_first_spoke``).
    """

    starter: str | None
    first_spoke_by: str | None
    tied: tuple[str, ...]
    draw_tiles_returned: bool
    set_aside_before_deal: bool
    action: str
    rule_name: str
    how: str = ""
    lays_first_spoke: bool = False


def next_clockwise(seats: Sequence[str], player: str, steps: int = 1) -> str:
    """The player ``steps`` seats to the left (clockwise) of ``player``.

    Raises RuleError when ``player`` is not seated.

    >>> from companion.engine import next_clockwise
    >>> next_clockwise(["Ann", "Bob", "Cy"], "Cy")
    'Ann'
    """
    if player not in seats:
        raise RuleError(
            ErrorCode.UNKNOWN_PLAYER,
            "%(player)s is not in the seating order.",
            "input.seats_clockwise",
            params={"player": player},
        )
    return seats[(list(seats).index(player) + steps) % len(seats)]


def highest_draw(draws: Mapping[str, Tile]) -> tuple[str, ...]:
    """Players whose drawn tile has the most pips (S000 'highest value' = pip total)."""
    if not draws:
        return ()
    best = max(t.pips for t in draws.values())
    return tuple(p for p, t in draws.items() if t.pips == best)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Pick:
    """Who the round's starter rule names and what they do (before the first spoke)."""

    starter: str | None
    how: StartAction
    action: str
    tied: tuple[str, ...] = ()
    returned: bool = False


def start_of_round(state: RoundStart) -> StartInfo:
    """Who starts round ``state.number`` (1-based) with centre double ``state.double`` (§3.6).

    Args:
        state: the round at its start (:class:`~companion.engine.state.RoundStart`): ``rules``,
            ``number``, ``start_double``, ``seats`` (clockwise), and what is known of
            ``holders`` (who holds the double: ``holder_of_start_double``), ``draws`` (player ->
            tile drawn to pick the first starter: ``draw_highest_tile``), ``found_by`` (who
            found the double in a pre-deal search or by drawing for it) and
            ``round1_starter`` (``rotate_left``).

    >>> from companion.engine import RoundStart, RuleSet, start_of_round
    >>> start = RoundStart(rules=RuleSet(), number=1, seats=["Ann", "Bob"], holders={9: "Bob"})
    >>> info = start_of_round(start)
    >>> info.starter, info.action, info.first_spoke_by
    ('Bob', 'places 9-9 in the centre', 'Ann')
    """
    rules = state.rules
    rule_name = "first_round_starter" if state.number == 1 else "later_round_starter"
    rule: Starter = getattr(rules, rule_name)
    name = f"{state.double}-{state.double}"
    match rule:
        case Starter.DRAW_HIGHEST_TILE:
            pick = _by_highest_draw(state, name)
        case Starter.ROTATE_LEFT:
            pick = _by_rotation(state, name)
        case Starter.PRE_DEAL_SEARCH:
            pick = _Pick(
                starter=state.found_by,
                how=StartAction.PRE_DEAL_SEARCH,
                action=f"found {name} in the pre-deal search and places it in the centre",
                returned=True,
            )
        case Starter.HOLDER_OF_START_DOUBLE:
            pick = _by_holder(state, name)
    action, first = pick.action, pick.starter
    if rules.starter_plays_first_spoke:
        action += " and lays the first spoke"
    elif state.seats and pick.starter:
        first = next_clockwise(state.seats, pick.starter)
    else:
        first = None
    return StartInfo(
        starter=pick.starter,
        first_spoke_by=first,
        tied=pick.tied,
        draw_tiles_returned=pick.returned,
        set_aside_before_deal=(
            rules.start_double_source == StartDoubleSource.PULLED_BEFORE_DEAL
            or rule == Starter.PRE_DEAL_SEARCH
        ),
        action=action,
        rule_name=rule_name,
        how=pick.how,
        lays_first_spoke=rules.starter_plays_first_spoke,
    )


def _by_highest_draw(state: RoundStart, name: str) -> _Pick:
    """``draw_highest_tile``: the highest pip total starts; players tied on it draw again."""
    best = highest_draw(state.draws)
    if len(best) == 1:
        action = f"drew the highest tile, places {name} in the centre"
        return _Pick(starter=best[0], how=StartAction.DREW_HIGHEST, action=action, returned=True)
    return _Pick(
        starter=None,
        how=StartAction.EVERYONE_DRAWS,
        action="everyone draws a tile; the highest pip total starts",
        tied=best if len(best) > 1 else (),
        returned=True,
    )


def _rotated(state: RoundStart) -> str | None:
    """The player ``number - 1`` seats left of round 1's starter, when both are known."""
    if not (state.seats and state.round1_starter):
        return None
    return next_clockwise(state.seats, state.round1_starter, state.number - 1)


def _by_rotation(state: RoundStart, name: str) -> _Pick:
    """``rotate_left``: the starter moves one seat to the left each round."""
    return _Pick(
        starter=_rotated(state),
        how=StartAction.ROTATE,
        action=f"starts, to the left of the last round's starter, with {name} in the centre",
    )


def _by_holder(state: RoundStart, name: str) -> _Pick:
    """``holder_of_start_double``: whoever holds (or drew, or found) the double places it."""
    holder = state.holders.get(state.double)
    starter = holder or state.found_by
    pulled = state.rules.start_double_source == StartDoubleSource.PULLED_BEFORE_DEAL
    if pulled and starter is None and (rotated := _rotated(state)) is not None:
        # The double was set aside before the deal, so nobody "holds" it: rotate (§3.6).
        action = f"starts with {name}, set aside before the deal"
        return _Pick(starter=rotated, how=StartAction.SET_ASIDE, action=action)
    if holder is None and state.found_by:
        action = f"drew {name} from the chicken yard and places it in the centre"
        return _Pick(starter=starter, how=StartAction.DREW_FROM_YARD, action=action)
    return _Pick(starter=starter, how=StartAction.PLACES, action=f"places {name} in the centre")
