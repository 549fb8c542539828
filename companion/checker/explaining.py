"""An engine answer, put together for the page: the verdict's headline, the reason in players'
words (from the engine's codes and parameters, :mod:`companion.engine.explain`, worded by
:mod:`companion.words`), the house rules it depends on, a link to its rule in the rule book, and
the codes, RULES.md sections and switch ids for the collapsed details.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from .. import words
from ..engine import SWITCH_BY_NAME, EngineError, Reason
from ..engine.explain import placement_verdict, position_of, round_end_status
from ..engine.tiles import parse_tile
from ..models import SUMMARY_MAX
from ..rulebook import anchor_for_code, anchor_for_rule, section_for


@dataclass(frozen=True)
class RuleInForce:
    """A house-rule switch that bears on a verdict: its summary and the meaning of its value."""

    name: str
    summary: str
    value: Any
    meaning: str


@dataclass
class Explained:
    """An answer, ready for the page.

    ``message`` is the reason in players' words; ``rule_anchor``/``rule_title`` point to its
    rule in the rule book. ``reason`` (the code), ``rule`` (the RULES.md section),
    ``engine_message`` and the switch ids in ``rules_in_force`` are for the collapsed details.
    """

    category: str
    headline: str
    good: bool | None
    message: str
    rule: str
    reason: str = ""
    reason_words: str = ""
    rules_in_force: list[RuleInForce] = field(default_factory=list)
    error: dict[str, str] | None = None
    facts: list[tuple[str, str]] = field(default_factory=list)
    short: str = ""  # a few words for the reason, for the picture
    engine_message: str = ""
    rule_anchor: str = ""
    rule_title: str = ""
    move_words: str = ""  # "6-4 on the open 4 on the second spoke"


#: reason code -> the switches that reason depends on (RULES.md §9)
REASON_SWITCHES: dict[str, tuple[str, ...]] = {
    Reason.SPOKES_INCOMPLETE: ("center_spokes_required",),
    Reason.CENTER_FULL: ("center_spokes_required",),
    Reason.FOOT_INCOMPLETE: ("foot_toes_required",),
    Reason.FOOT_FULL: ("foot_toes_required",),
    Reason.ONE_TILE_PER_TURN: ("tiles_per_turn",),
    Reason.OUT: ("going_out_on_double",),
    Reason.NO_DRAW: ("yard_reserve", "empty_yard_ends_round"),
    Reason.YARD_NOT_EXHAUSTED: ("yard_reserve", "empty_yard_ends_round"),
}

#: question category -> the switches every answer of it depends on
CATEGORY_SWITCHES: dict[str, tuple[str, ...]] = {
    "draw": (
        "must_play_if_able",
        "draw_when_stuck",
        "drawn_tile_play",
        "yard_reserve",
        "empty_yard_ends_round",
    ),
    "scoring": ("double_blank_value", "blank_half_value", "going_out_on_double"),
    "tiebreak": ("tiebreak_exhausted",),
}


def rules_in_force(rules: Any, category: str, reason: str) -> list[RuleInForce]:
    """The switches of RULES.md §9 the verdict depends on (by its category and reason code:
    a NO_MATCH or OK placement depends on none), each with its summary and the meaning of the
    value in force; a tie-break also shows its steps."""
    names = [*CATEGORY_SWITCHES.get(category, ()), *REASON_SWITCHES.get(reason, ())]
    out = []
    for name in dict.fromkeys(names):
        switch = SWITCH_BY_NAME[name]
        value = getattr(rules, name)
        out.append(RuleInForce(name, switch.summary, value, switch.meaning(value) or str(value)))
    if category == "tiebreak":
        steps = ", ".join(rules.tiebreak)
        labels = " → ".join(words.reason_words(step) for step in rules.tiebreak)
        out.insert(0, RuleInForce("tiebreak", _("Tie-break steps, in order."), steps, labels))
    return out


def _headline(category: str, ans: Mapping[str, Any]) -> tuple[str, bool | None, str]:
    """(headline, good?, reason code) for an answer."""
    if category == "placement":
        legal = bool(ans.get("legal"))
        return (
            str(_l("Yes, it can go there.") if legal else _l("No, it cannot go there.")),
            legal,
            str(ans.get("reason", "")),
        )
    if category == "draw":
        if ans.get("drawn_tile_playable") is not None:
            return _drawn_headline(ans)
        if ans.get("has_legal_play"):
            return str(_l("Play a tile.")), True, str(ans.get("turn_result", "PLAY"))
        if ans.get("must_draw"):
            return (
                str(_l("Draw %(n)s.", n=ans.get("draw_count", 1))),
                None,
                str(ans.get("turn_result", "")),
            )
        return str(_l("Pass.")), None, str(ans.get("turn_result", "PASS"))
    if category == "round_end":
        over = bool(ans.get("round_over"))
        return (
            str(_l("The round is over.") if over else _l("The round goes on.")),
            over,
            str(ans.get("reason", "")),
        )
    if category == "scoring":
        score = ans.get("score", 0)
        if isinstance(score, int):  # the language's plural form ("1 point.", "2 очка.")
            return ngettext("%(num)s point.", "%(num)s points.", score), None, ""
        return str(_l("%(n)s points.", n=score)), None, ""
    if category == "edge":
        return _edge_headline(ans), None, ""
    winners = ans.get("winners") or []
    if len(winners) > 1:
        return (
            str(_l("Shared win: %(names)s.", names=", ".join(winners))),
            None,
            str(ans.get("decided_at", "")),
        )
    return (
        str(_l("%(name)s wins.", name=", ".join(winners))),
        None,
        str(ans.get("decided_at", "")),
    )


def _edge_headline(ans: Mapping[str, Any]) -> str:
    """The headline of a special case's answer, by the facts it gives."""
    if "penalty_applies" in ans:
        if ans.get("penalty"):
            return _("Penalty: they draw 1 tile.")
        if ans.get("penalty_applies"):
            return _("A penalty, but the chicken yard is empty: nothing to draw.")
        return _("No penalty.")
    if "is_zero_round" in ans:
        if ans.get("is_zero_round"):
            return ngettext(
                "%(num)s point: it counts as a zero round.",
                "%(num)s points: it counts as a zero round.",
                ans.get("score", 0),
            )
        return ngettext(
            "%(num)s point: not a zero round.",
            "%(num)s points: not a zero round.",
            ans.get("score", 0),
        )
    if ans.get("feasible") is False:
        return _("Not possible with this set.")
    if "spokes_required" in ans:
        return ngettext(
            "The centre double takes %(num)s spoke.",
            "The centre double takes %(num)s spokes.",
            ans["spokes_required"],
        )
    return _("The answer")


def _drawn_headline(ans: Mapping[str, Any]) -> tuple[str, bool | None, str]:
    """The headline about the tile just drawn (RULES.md §5.5), from the engine's
    drawn_tile_playable, must_play_drawn, may_play_drawn and turn_result."""
    result = str(ans.get("turn_result", ""))
    if ans.get("must_play_drawn"):
        return str(_l("Play the drawn tile.")), True, result
    if ans.get("may_play_drawn"):
        return str(_l("You may play the drawn tile, or keep it and pass.")), True, result
    if ans.get("drawn_tile_playable"):
        return str(_l("Keep the drawn tile and pass.")), None, result
    if result == "DRAW_AGAIN":
        return str(_l("The drawn tile cannot be played: draw again.")), None, result
    return str(_l("The drawn tile cannot be played: pass.")), None, result


def explain(
    category: str,
    ans: Mapping[str, Any],
    rules: Any,
    question: Mapping[str, Any] | None = None,
) -> Explained:
    """The page's view of an engine answer (or error answer); with the ``question``, the
    reason is worded from the engine's codes and parameters (ends named as players see them)
    and its facts start with what was judged (the hand, the hands, the tile drawn)."""
    if "error" in ans:
        err = dict(ans["error"])
        return Explained(
            category,
            str(_l("The question could not be answered.")),
            False,
            err.get("message", ""),
            "",
            err.get("code", ""),
            "",
            [],
            err,
            engine_message=err.get("message", ""),
        )
    headline, good, reason = _headline(category, ans)
    if category == "scoring":  # running totals or a round's double-blank: not "0 points."
        headline = _not_a_hand(ans, question or {}, rules)[0] or headline
    section = str(ans.get("rule", ""))
    facts = [*question_facts(question or {}), *_facts(category, ans, question or {})]
    said, move_words = _reason_in_words(category, ans, question or {}, reason, rules)
    part = section_for(section)
    anchor = anchor_for_rule(section) or anchor_for_code(reason)
    return Explained(
        category,
        headline,
        good,
        said,
        section,
        reason,
        words.reason_words(reason),
        rules_in_force(rules, category, reason),
        None,
        facts,
        str(words.SHORT_REASON.get(reason, "")),
        str(ans.get("message", "")),
        anchor,
        str(part.title) if part is not None else "",
        move_words,
    )


def _reason_in_words(
    category: str, ans: Mapping[str, Any], question: Mapping[str, Any], reason: str, rules: Any
) -> tuple[str, str]:
    """(the reason as a sentence in players' words, the move in words) for an answer; the
    engine's own sentence when the category has no worded form (it names no codes)."""
    if category == "placement":
        judged = placement_verdict(question)
        if judged is not None:
            layout, verdict = judged
            typed = (question.get("input") or {}).get("move", {}).get("tile", verdict.tile)
            move = _("%(tile)s on %(end)s", tile=typed, end=words.end_name(layout, verdict.on))
            return words.move_reason(layout, verdict), move
    elif category == "round_end":
        status = round_end_status(question)
        if status is not None:
            yard = (question.get("input") or {}).get("yard_count") or 0
            return words.round_end_reason(status[1], int(yard)), ""
    elif category == "tiebreak":
        return words.tiebreak_reason(ans), ""
    elif category == "draw":
        return _draw_reason(ans, question), ""
    elif category in ("scoring", "edge"):  # edge: the blocked double-blank hand is a score
        said = (
            _hand_score_reason(ans, question, rules)
            or _not_a_hand(ans, question, rules)[1]
            or _announcement_reason(ans, question, rules)
            or _capacity_reason(ans, question)
        )
        if said:
            return said, ""
    return str(ans.get("message") or words.reason_words(reason)), ""


def _blank_round(question: Mapping[str, Any], rules: Any) -> tuple[str, int] | None:
    """(the round's centre double as "a-b", the double-blank's points under ``rules``) of a
    scoring question about a round's double-blank; None when it names no readable double."""
    centre = (question.get("input") or {}).get("round_start_double")
    try:
        return str(parse_tile(centre)), int(rules.double_blank_value)
    except (EngineError, TypeError, ValueError, AttributeError):
        return None


def _not_a_hand(ans: Mapping[str, Any], question: Mapping[str, Any], rules: Any) -> tuple[str, str]:
    """(headline, reason) of a scoring answer that is not about a hand, in the player's language
    (the engine's own sentence is English): who leads after the running totals (RULES.md §7),
    or what the double-blank costs in a round (RULES.md §4). ("", "") for a hand's answer."""
    if isinstance(ans.get("score"), int):
        return "", ""
    if "totals_after_each_round" in ans:
        return words.totals_headline(ans), words.totals_reason(ans)
    blank = _blank_round(question, rules)
    if blank is None:
        return "", ""
    return words.double_blank_round_headline(ans, *blank), words.double_blank_round_reason(
        ans, *blank
    )


def _capacity_reason(ans: Mapping[str, Any], question: Mapping[str, Any]) -> str:
    """How many spokes the centre double takes (RULES.md §5.2), in the player's language: the
    engine's own sentence is English. "" for any other answer."""
    data = question.get("input") or {}
    k, n = ans.get("spokes_required"), ans.get("spoke_tiles_in_set")
    if data.get("kind") != "centre_capacity" or not isinstance(k, int) or not isinstance(n, int):
        return ""
    if ans.get("feasible") is not False:
        return ngettext(
            "The centre double takes %(num)s spoke; a double-%(n)s set has %(n)s tiles carrying "
            "its number besides the double.",
            "The centre double takes %(num)s spokes; a double-%(n)s set has %(n)s tiles carrying "
            "its number besides the double.",
            k,
            n=n,
        )
    if k > n:
        return _(
            "Only %(n)s tiles besides the centre double carry its number in a double-%(n)s set, "
            "so it can take at most %(n)s spokes, not %(k)s.",
            n=n,
            k=k,
        )
    return ""


def _announcement_reason(ans: Mapping[str, Any], question: Mapping[str, Any], rules: Any) -> str:
    """The last-tile announcement's answer (RULES.md §5.5) in the player's language: the
    engine's own sentence is English. "" for any other answer."""
    data = question.get("input") or {}
    if data.get("kind") != "announcement" or "penalty_applies" not in ans:
        return ""
    player = str(data.get("player") or "") or _("The player")
    if not ans.get("penalty_applies"):
        if str(rules.last_tile_announcement) == "off":
            return _("No penalty: these house rules do not require announcing the last tile.")
        return _("No penalty: the last tile was announced in time, or it is not the last tile.")
    if not ans.get("penalty"):
        return _("%(player)s should draw 1 tile, but the chicken yard is empty.", player=player)
    return _(
        "%(player)s did not announce their last tile before the next player played, so they "
        "draw 1 tile from the chicken yard.",
        player=player,
    )


def _hand_score_reason(ans: Mapping[str, Any], question: Mapping[str, Any], rules: Any) -> str:
    """How a hand's score was counted (RULES.md §6), in the player's language: the engine's
    own sentence ("2 tiles left in hand: 11 points.") is English. "" when the answer is not
    about a hand (the engine's sentence is shown then)."""
    data = question.get("input") or {}
    hand = data.get("hand")
    score = ans.get("score")
    if not isinstance(hand, list) or not isinstance(score, int):
        return ""
    if not hand:  # went out: no tiles, and the going-out-on-a-double house rule
        if score:
            return _(
                "Went out on a double: under this house rule that costs %(num)s points and is "
                "not a zero round.",
                num=score,
            )
        return _("Went out: 0 points.")
    tiles = ngettext("%(num)s tile left in hand", "%(num)s tiles left in hand", len(hand))
    points = ngettext("%(num)s point", "%(num)s points", score)
    halves = [str(t).replace(" ", "").split("-") for t in hand]
    extra = []
    if ["0", "0"] in halves:
        extra.append(_("the double-blank counts %(n)s", n=rules.double_blank_value))
    if rules.blank_half_value and any("0" in h and h != ["0", "0"] for h in halves):
        extra.append(_("each blank half counts %(n)s", n=rules.blank_half_value))
    if extra:
        return _(
            "%(tiles)s: %(points)s (%(extra)s).", tiles=tiles, points=points, extra="; ".join(extra)
        )
    return _("%(tiles)s: %(points)s.", tiles=tiles, points=points)


def _drawn_tile_reason(ans: Mapping[str, Any], question: Mapping[str, Any]) -> str:
    """What to do with the tile just drawn (RULES.md §5.5) in the player's language: the
    engine's own sentence is English."""
    tile = str((question.get("input") or {}).get("tile_drawn", ""))
    if ans.get("drawn_tile_playable"):
        if ans.get("must_play_drawn"):
            return _(
                "The drawn %(tile)s can be played, and under this house rule it must be.", tile=tile
            )
        if ans.get("may_play_drawn"):
            return _(
                "The drawn %(tile)s can be played; you may play it now or keep it and pass.",
                tile=tile,
            )
        return _(
            "The drawn %(tile)s could be played, but under this house rule you keep it and pass.",
            tile=tile,
        )
    if ans.get("turn_result") == "DRAW_AGAIN":
        return _("The drawn %(tile)s cannot be played: keep drawing until you can play.", tile=tile)
    return _("The drawn %(tile)s cannot be played, so you pass (no second draw).", tile=tile)


def _draw_reason(ans: Mapping[str, Any], question: Mapping[str, Any]) -> str:
    """What the player must do and why (RULES.md §5.5), with the legal plays in words."""
    layout = position_of(question)
    plays = ans.get("legal_plays") or []
    if ans.get("drawn_tile_playable") is not None:
        return _drawn_tile_reason(ans, question)
    if plays and layout is not None:
        return _("You can play %(plays)s.", plays=words.play_list(layout, plays))
    if ans.get("must_draw"):
        return ngettext(
            "No tile in your hand fits an open end: draw %(num)s tile from the chicken yard; "
            "if it fits, see what the house rules say about playing it.",
            "No tile in your hand fits an open end: draw %(num)s tiles from the chicken yard.",
            int(ans.get("draw_count") or 1),
        )
    if ans.get("may_draw"):
        return _("You may draw a tile from the chicken yard, or pass.")
    return _("No tile in your hand fits an open end and nothing can be drawn: pass.")


def question_facts(question: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What a question judged, as (label, value) pairs: the hand (draw, scoring), each
    player's hand (round end), the yard count and the tile just drawn."""
    data = question.get("input") or {}
    out: list[tuple[str, str]] = []
    category = question.get("category")
    if category in ("draw", "scoring"):
        hand = ", ".join(str(t) for t in data.get("hand") or [])
        out.append((str(_l("Hand")), hand or str(_l("empty"))))
    hands = data.get("hands")
    if category == "round_end" and isinstance(hands, Mapping):
        for name, tiles in hands.items():
            label = str(_l("%(name)s's hand", name=name))
            out.append((label, ", ".join(str(t) for t in tiles or []) or str(_l("empty"))))
    if category in ("draw", "round_end") and data.get("yard_count") is not None:
        out.append((str(_l("Tiles in the chicken yard")), str(data["yard_count"])))
    if data.get("tile_drawn"):
        out.append((str(_l("Tile just drawn")), str(data["tile_drawn"])))
    return out


def _facts(
    category: str, ans: Mapping[str, Any], question: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """A few answer fields worth showing as a list (label, value)."""
    out: list[tuple[str, str]] = []
    layout = position_of(question) if category == "draw" else None
    if category == "draw" and ans.get("legal_plays") and layout is not None:
        out.append((str(_l("Legal plays")), words.play_list(layout, ans["legal_plays"])))
    if category == "round_end" and ans.get("scores"):
        out.append((str(_l("Scores")), ", ".join(f"{p}: {s}" for p, s in ans["scores"].items())))
    if category == "tiebreak":
        for key, label in (
            ("totals", _l("Totals")),
            ("zero_rounds", _l("Zero rounds")),
            ("best_nonzero_round", _l("Best non-zero round")),
        ):
            values = ans.get(key) or {}
            out.append((str(label), ", ".join(f"{p}: {v}" for p, v in values.items())))
    return out


def summary(question: Mapping[str, Any], explained: Explained) -> str:
    """One line for the rulings list, in players' words (at most SUMMARY_MAX characters)."""
    prefix = f"{explained.move_words}: " if explained.move_words else ""
    return f"{prefix}{explained.headline} {explained.message}"[:SUMMARY_MAX]


def switch_label(name: str) -> str:
    """A switch's one-line summary (its name when unknown)."""
    switch = SWITCH_BY_NAME.get(name)
    return switch.summary if switch else name
