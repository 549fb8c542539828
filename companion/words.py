"""The engine's codes and parameters in players' words (gettext), for every page.

The engine decides and returns codes plus parameters (:mod:`companion.engine.reasons`,
:mod:`companion.engine.explain`); this module words them, so they can be translated. Ends are
named as players see them on the table ("the open 3 on the second spoke", "the chicken foot on
5-5"), never by the notation's ids (S1, D1, T1). Codes, RULES.md sections and switch ids are
for the API and a page's collapsed details only.

Below the blueprints: any blueprint may import it; it imports only the engine and Flask-Babel.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from babel import Locale
from babel.lists import format_list
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from .engine import CENTER, DecidedAt, EngineError, Layout, Reason, TurnResult
from .engine.deal import DEAL_SHORT, TOO_MANY_TOES
from .engine.layout import Phrase, Place, PlaceKind
from .engine.moves import Verdict
from .engine.round_end import RoundEnd
from .engine.starters import StartAction, StartInfo


def plural_forms(words: Callable[[int], str]) -> dict[str, str]:
    """A count's words for a script, one per plural form of the page's language: CLDR plural
    category ("one", "few", "many", "other", ...) -> ``words(n)`` for a number ``n`` of that
    category (``words`` calls ngettext with ``n`` and writes a placeholder where the count
    goes). The script picks the category of its own count with ``Intl.PluralRules``
    (static/js/score.js, hand.js), so a count it computes gets the form ngettext would give."""
    locale = get_locale() or Locale("en")
    return {category: words(n) for category, n in _plural_samples(str(locale))}


@cache
def _plural_samples(locale: str) -> tuple[tuple[str, int], ...]:
    """The first count (0 to 1000) of each plural category of ``locale``, in that order. Worked
    out once a language: every picker of the scorekeeper's page and every hand page asks (a
    thousand rule calls each time, some 3.5 ms)."""
    rule = Locale.parse(locale).plural_form
    samples: dict[str, int] = {}
    for n in range(0, 1001):  # every category shows up among the first numbers
        samples.setdefault(str(rule(n)), n)
    return tuple(samples.items())


_ORDINALS = (
    _l("first"),
    _l("second"),
    _l("third"),
    _l("fourth"),
    _l("fifth"),
    _l("sixth"),
    _l("seventh"),
    _l("eighth"),
    _l("ninth"),
    _l("tenth"),
    _l("eleventh"),
    _l("twelfth"),
)


def names_list(names: Sequence[str]) -> str:
    """Players' names as the page's language lists them (CLDR): "Ann, Bob, and Cy"; in Russian
    «Ann, Bob и Cy», not «Ann и Bob и Cy» (a translated " and " between every two names)."""
    return format_list(list(names), locale=str(get_locale() or "en")) if names else ""


def ordinal(n: int) -> str:
    """``1`` -> "first" ... "twelfth", then "13th" (a count of spokes or toes, from 1)."""
    if 1 <= n <= len(_ORDINALS):
        return str(_ORDINALS[n - 1])
    return _("%(n)sth", n=n)


def _position_among_siblings(layout: Layout, tile_id: str) -> int:
    """1 for the first tile laid on its parent, 2 for the second, ..."""
    parent = layout.get(tile_id).on
    siblings = [p.id for p in layout if p.on == parent]
    return siblings.index(tile_id) + 1


def _line_of(layout: Layout, tile_id: str) -> str:
    """Where a tile's line starts, in words: "the second spoke" or "the first toe of the
    chicken foot on 5-5"."""
    current = tile_id
    while True:
        placement = layout.get(current)
        parent = placement.on
        if parent == CENTER:
            return _("the %(nth)s spoke", nth=ordinal(_position_among_siblings(layout, current)))
        if layout.get(parent).is_double:
            return _(
                "the %(nth)s toe of the chicken foot on %(double)s",
                nth=ordinal(_position_among_siblings(layout, current)),
                double=layout.get(parent).tile,
            )
        current = parent


def end_name(layout: Layout, on: str) -> str:
    """A place on the table as players name it: "the centre 9-9", "the chicken foot on 5-5",
    "the open 3 on the second spoke", "the open 2 on the first toe of the chicken foot on
    5-5" (RULES.md §5.2-§5.4). An unknown id gives "that end"."""
    if on == CENTER:
        return _("the centre %(tile)s", tile=layout.center)
    if on not in layout:
        return _("that end")
    placement = layout.get(on)
    if placement.is_double:
        return _("the chicken foot on %(tile)s", tile=placement.tile)
    line = _line_of(layout, on)
    return _("the open %(n)s on %(line)s", n=placement.outer, line=line)


def move_reason(layout: Layout, verdict: Verdict) -> str:
    """Why a move is or is not allowed, in a sentence a player can read out (§5.1-§5.4)."""
    p: Mapping[str, Any] = verdict.params
    code = Reason(verdict.reason)
    if code is Reason.SPOKES_INCOMPLETE:
        return ngettext(
            "The centre %(centre)s needs all %(required)s spokes before anyone plays "
            "elsewhere: %(num)s of %(required)s is down.",
            "The centre %(centre)s needs all %(required)s spokes before anyone plays "
            "elsewhere: %(num)s of %(required)s are down.",
            p["spokes"],
            centre=p["centre"],
            required=p["required"],
        )
    if code is Reason.FOOT_INCOMPLETE:
        return ngettext(
            "The chicken foot on %(double)s needs all %(required)s toes before anyone plays "
            "elsewhere: %(num)s of %(required)s is down, so the next play must be a tile "
            "with a %(number)s on that foot.",
            "The chicken foot on %(double)s needs all %(required)s toes before anyone plays "
            "elsewhere: %(num)s of %(required)s are down, so the next play must be a tile "
            "with a %(number)s on that foot.",
            p["toes"],
            double=p["double"],
            required=p["required"],
            number=p["number"],
        )
    if code is Reason.CENTER_FULL:
        return _(
            "The centre %(centre)s already has all its %(required)s spokes.",
            centre=p["centre"],
            required=p["required"],
        )
    if code is Reason.FOOT_FULL:
        return _(
            "The chicken foot on %(double)s already has all its %(required)s toes.",
            double=p["double"],
            required=p["required"],
        )
    if code is Reason.END_COVERED:
        return _(
            "%(end)s is covered: a tile is already laid on it.",
            end=_capital(end_name(layout, verdict.on)),
        )
    if code is Reason.NO_MATCH:
        return _(
            "%(tile)s has no %(number)s, so it cannot go on %(end)s.",
            tile=p["tile"],
            number=p["number"],
            end=end_name(layout, verdict.on),
        )
    if code is Reason.ONE_TILE_PER_TURN:
        return _("One tile per turn: this player has already laid a tile this turn.")
    return _legal_reason(layout, verdict)


def _legal_reason(layout: Layout, verdict: Verdict) -> str:
    p = verdict.params
    end = end_name(layout, verdict.on)
    played_as = p.get("played_as")
    if played_as == "spoke":
        if p["left"]:
            return ngettext(
                "%(tile)s is a spoke on %(end)s, leaving a %(open)s open; %(num)s more spoke "
                "to go.",
                "%(tile)s is a spoke on %(end)s, leaving a %(open)s open; %(num)s more spokes "
                "to go.",
                p["left"],
                tile=p["tile"],
                end=end,
                open=p["open_end"],
            )
        return _(
            "%(tile)s is the last spoke on %(end)s: play may spread everywhere now.",
            tile=p["tile"],
            end=end,
        )
    if played_as == "foot":
        return ngettext(
            "%(tile)s goes crosswise on %(end)s and starts a chicken foot: the next play "
            "must be a toe on it (a tile with a %(open)s).",
            "%(tile)s goes crosswise on %(end)s and starts a chicken foot: the next "
            "%(num)s plays must be toes on it (tiles with a %(open)s).",
            p["left"],
            tile=p["tile"],
            end=end,
            open=p["open_end"],
        )
    if played_as == "toe":
        if p["left"]:
            return ngettext(
                "%(tile)s is a toe on %(end)s; the foot still needs %(num)s more toe.",
                "%(tile)s is a toe on %(end)s; the foot still needs %(num)s more toes.",
                p["left"],
                tile=p["tile"],
                end=end,
            )
        return _(
            "%(tile)s is the last toe on %(end)s: play is open everywhere again.",
            tile=p["tile"],
            end=end,
        )
    return _(
        "%(tile)s goes on %(end)s and leaves a %(open)s open.",
        tile=p["tile"],
        end=end,
        open=p["open_end"],
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def round_end_reason(status: RoundEnd, yard_count: int) -> str:
    """Why the round is or is not over (RULES.md §6), from the engine's round status."""
    code = Reason(status.reason)
    if code is Reason.OUT:
        if status.went_out:
            return _(
                "%(name)s laid their last tile: the round is over, even if a chicken foot is "
                "unfinished.",
                name=status.went_out,
            )
        return _("A player laid their last tile: the round is over.")
    if code is Reason.BLOCKED:
        if yard_count:
            return _(
                "Nobody can play and only the tiles kept back in the chicken yard are left: "
                "the round is blocked, and everyone counts the pips left in hand."
            )
        return _(
            "Nobody can play and the chicken yard is empty: the round is blocked, and "
            "everyone counts the pips left in hand."
        )
    if code is Reason.NO_DRAW:
        return _(
            "A player who cannot play has nothing to draw: under these house rules the "
            "round ends at once."
        )
    if code is Reason.YARD_NOT_EXHAUSTED:
        return ngettext(
            "Nobody can play yet, but %(num)s tile can still be drawn from the chicken "
            "yard: the player to move draws.",
            "Nobody can play yet, but %(num)s tiles can still be drawn from the chicken "
            "yard: the player to move draws.",
            max(1, yard_count),
        )
    names = names_list(status.can_play)
    return _("%(names)s can still play, so the round goes on.", names=names)


def reason_words(code: str) -> str:
    """A reason code in one plain sentence, without the facts of a position (for a saved
    ruling whose position cannot be read back, and for the rule book's index)."""
    words = REASON_WORDS.get(code)
    return str(words) if words is not None else ""


#: every reason code the engine answers with -> one plain sentence (no facts of a position)
REASON_WORDS: dict[str, Any] = {
    Reason.OK: _l("The move is allowed."),
    Reason.SPOKES_INCOMPLETE: _l(
        "The centre double needs all its spokes before anyone plays elsewhere."
    ),
    Reason.FOOT_INCOMPLETE: _l("A chicken foot needs all its toes before anyone plays elsewhere."),
    Reason.CENTER_FULL: _l("The centre double already has all its spokes."),
    Reason.FOOT_FULL: _l("That chicken foot already has all its toes."),
    Reason.END_COVERED: _l("That end is already covered."),
    Reason.NO_MATCH: _l("The tile does not show the number at that end."),
    Reason.ONE_TILE_PER_TURN: _l("Only one tile may be laid per turn."),
    Reason.OUT: _l("A player went out."),
    Reason.BLOCKED: _l("Nobody can play and nobody can draw: the round is blocked."),
    Reason.NO_DRAW: _l("A stuck player cannot draw, and these house rules end the round then."),
    Reason.YARD_NOT_EXHAUSTED: _l("Tiles can still be drawn from the chicken yard."),
    Reason.SOMEONE_CAN_PLAY: _l("Someone can still play."),
    TurnResult.PLAY: _l("Play a tile."),
    TurnResult.PASS: _l("Pass: nothing to play and nothing to draw."),
    TurnResult.DRAW_AGAIN: _l("Draw again."),
    DecidedAt.LOWEST_TOTAL: _l("The lowest total wins."),
    DecidedAt.MOST_ZERO_ROUNDS: _l("Equal totals: the most zero rounds wins."),
    DecidedAt.LOWEST_SINGLE_NONZERO_ROUND: _l(
        "Still equal: the lowest single non-zero round wins."
    ),
    DecidedAt.UNRESOLVED_SHARED: _l("Everything is equal: the win is shared."),
    DecidedAt.EXTENSION_NEXT_LOWEST_NONZERO: _l(
        "Decided by the next-lowest non-zero round (a house extension)."
    ),
}

#: reason code -> a few words for the picture's label beside the red tile
SHORT_REASON: dict[str, Any] = {
    Reason.SPOKES_INCOMPLETE: _l("spokes not finished"),
    Reason.FOOT_INCOMPLETE: _l("foot not finished"),
    Reason.CENTER_FULL: _l("centre full"),
    Reason.FOOT_FULL: _l("foot full"),
    Reason.END_COVERED: _l("end covered"),
    Reason.NO_MATCH: _l("wrong number"),
    Reason.ONE_TILE_PER_TURN: _l("one tile per turn"),
}


def tiebreak_reason(answer: Mapping[str, Any]) -> str:
    """Why the winners won (RULES.md §8), from a tie-break answer's figures."""
    winners: Sequence[str] = answer.get("winners") or []
    names = names_list(winners)
    first = winners[0] if winners else ""
    total = (answer.get("totals") or {}).get(first)
    zeros = (answer.get("zero_rounds") or {}).get(first)
    best = (answer.get("best_nonzero_round") or {}).get(first)
    decided = str(answer.get("decided_at", ""))
    if decided == DecidedAt.LOWEST_TOTAL:
        return ngettext(
            "%(names)s has the lowest total, %(num)s point.",
            "%(names)s has the lowest total, %(num)s points.",
            total or 0,
            names=names,
        )
    if decided == DecidedAt.MOST_ZERO_ROUNDS:
        return ngettext(
            "The totals are equal at %(num)s point; %(names)s has the most zero rounds "
            "(%(zeros)s).",
            "The totals are equal at %(num)s points; %(names)s has the most zero rounds "
            "(%(zeros)s).",
            total or 0,
            names=names,
            zeros=zeros,
        )
    if decided == DecidedAt.LOWEST_SINGLE_NONZERO_ROUND:
        return ngettext(
            "Equal totals and equal zero rounds; %(names)s has the lowest single non-zero "
            "round (%(num)s point).",
            "Equal totals and equal zero rounds; %(names)s has the lowest single non-zero "
            "round (%(num)s points).",
            best or 0,
            names=names,
        )
    if decided == DecidedAt.EXTENSION_NEXT_LOWEST_NONZERO:
        return _(
            "Still equal after the sourced tie-breaks; %(names)s wins on the next-lowest "
            "non-zero round (a house extension).",
            names=names,
        )
    return _(
        "Total, zero rounds and best non-zero round are all equal: %(names)s share the win.",
        names=names,
    )


def _leaders(answer: Mapping[str, Any]) -> str:
    """The leaders after the last round of a running-totals answer, joined ("Ann and Bob");
    "" when the answer has none."""
    leaders = answer.get("leader_after_each_round") or []
    last = leaders[-1] if leaders else None
    return str(last) if isinstance(last, str) else names_list([str(n) for n in last or []])


def totals_reason(answer: Mapping[str, Any]) -> str:
    """Who leads after the last round (RULES.md §7), from a running-totals answer
    (``totals_after_each_round``: name -> running totals in points, one per round); "" for
    any other answer."""
    totals = answer.get("totals_after_each_round")
    names = _leaders(answer)
    if not isinstance(totals, Mapping) or not totals or not names:
        return ""
    rounds = max(len(points) for points in totals.values())
    return _("After round %(n)s the leader is %(names)s.", n=rounds, names=names)


def totals_headline(answer: Mapping[str, Any]) -> str:
    """The headline of a running-totals answer: who leads ("" when nobody can be named)."""
    names = _leaders(answer)
    return _("Leading: %(names)s.", names=names) if names else ""


def double_blank_round_reason(answer: Mapping[str, Any], centre: str, value: int) -> str:
    """What the double-blank costs in the round started by ``centre`` (RULES.md §4), from a
    scoring answer's ``double_blank_penalty_possible``; ``value`` is the house rule's points
    for the double-blank. "" for any other answer."""
    possible = answer.get("double_blank_penalty_possible")
    if not isinstance(possible, bool):
        return ""
    if centre == "0-0":
        return _(
            "In the %(centre)s round the double-blank is the centre tile, so nobody can be "
            "caught with it.",
            centre=centre,
        )
    if possible:
        return _("Whoever is caught with 0-0 this round scores %(n)s.", n=value)
    return _("The double-blank costs nothing extra under these house rules.")


def double_blank_round_headline(answer: Mapping[str, Any], centre: str, value: int) -> str:
    """The headline of the double-blank question for the round started by ``centre``."""
    if centre == "0-0":
        return _("Nobody can be caught with the double-blank this round.")
    if answer.get("double_blank_penalty_possible"):
        return ngettext(
            "The double-blank costs %(num)s point this round.",
            "The double-blank costs %(num)s points this round.",
            value,
        )
    return _("The double-blank costs nothing extra.")


def play_list(layout: Layout, plays: Sequence[Sequence[str]]) -> str:
    """Legal plays ``[[tile, on], ...]`` in words: "6-4 on the open 4 on the second spoke"."""
    return "; ".join(
        _("%(tile)s on %(end)s", tile=tile, end=end_name(layout, on)) for tile, on in plays
    )


def error_words(error: EngineError) -> str:
    """An engine error (or a problem of :func:`companion.engine.check_table`) in the player's
    language: the engine's English template translated, its parameters filled in. Counts that
    meet a noun get the language's plural forms (the deal, RULES.md §3; the foot, §5.3)."""
    p = error.params
    if error.code == DEAL_SHORT:
        return _(
            "%(players)s x %(hand)s = %(needed)s, but the double-%(set_size)s set has only "
            "%(available)s to deal.",
            players=ngettext("%(num)s player", "%(num)s players", p["players"]),
            hand=ngettext("%(num)s tile", "%(num)s tiles", p["hand_size"]),
            needed=ngettext("%(num)s tile", "%(num)s tiles", p["needed"]),
            set_size=p["set_size"],
            available=p["available"],
        )
    if error.code == TOO_MANY_TOES:
        return ngettext(
            "A chicken foot cannot need %(toes)s toes: only %(num)s tile carries its number.",
            "A chicken foot cannot need %(toes)s toes: only %(num)s tiles carry its number.",
            p["set_size"],
            toes=p["toes"],
        )
    # The template is a msgid: companion.extract lists every engine template for the catalog.
    return _(error.template, **_worded_params(p)) if p else _(error.template)


def _worded_params(params: Mapping[str, object]) -> dict[str, object]:
    """An error's parameters with the engine's places and phrases in the player's words."""
    return {key: _param_words(value) for key, value in params.items()}


def _param_words(value: object) -> object:
    if isinstance(value, Place):
        return place_words(value)
    if isinstance(value, Phrase):
        return _(" (write the touching end first)") if value is Phrase.TOUCHING_END_FIRST else ""
    return value


def place_words(place: Place) -> str:
    """A place on the table an error names, in the player's language (RULES.md §0): "the
    centre 9-9", "the centre double", "the chicken foot 5-5 (D1)", "the open 5 of 9-5 (S1)"."""
    if place.kind is PlaceKind.CENTRE:
        return _("the centre %(tile)s", tile=place.tile)
    if place.kind is PlaceKind.CENTRE_DOUBLE:
        return _("the centre double")
    if place.kind is PlaceKind.FOOT:
        return _("the chicken foot %(tile)s (%(id)s)", tile=place.tile, id=place.id)
    if place.kind is PlaceKind.END:
        return _(
            "the open %(n)s of %(tile)s (%(id)s)", n=place.number, tile=place.tile, id=place.id
        )
    return place.id


def start_action(start: StartInfo, double: int) -> str:
    """What the starter of a round does (RULES.md §3.6), from the engine's code, in the
    player's language: "places 9-9 in the centre and lays the first spoke"."""
    name = f"{double}-{double}"
    how = start.how
    if how == StartAction.DREW_HIGHEST:
        said = _("drew the highest tile, places %(d)s in the centre", d=name)
    elif how == StartAction.EVERYONE_DRAWS:
        said = _("everyone draws a tile; the highest pip total starts")
    elif how == StartAction.ROTATE:
        said = _(
            "starts, to the left of the last round's starter, with %(d)s in the centre", d=name
        )
    elif how == StartAction.PRE_DEAL_SEARCH:
        said = _("found %(d)s in the pre-deal search and places it in the centre", d=name)
    elif how == StartAction.SET_ASIDE:
        said = _("starts with %(d)s, set aside before the deal", d=name)
    elif how == StartAction.DREW_FROM_YARD:
        said = _("drew %(d)s from the chicken yard and places it in the centre", d=name)
    else:
        said = _("places %(d)s in the centre", d=name)
    if start.lays_first_spoke:
        return _("%(action)s and lays the first spoke", action=said)
    return said


def install(app: Any) -> None:
    """Give templates the wording helpers they call directly (``start_action``)."""
    app.jinja_env.globals["start_action"] = start_action
