"""The rule book players read in the app: every rule of the model in plain words, and for each
rule the sources disagree on, what each source says and which house rule chooses.

``docs/RULES.md`` stays the developers' reference (with its source tags and section numbers);
this module is its players' edition. Each :class:`RuleSection` says which RULES.md sections it
covers (``cites``), so every section an engine answer cites, every reason code and every
house-rule switch has a place here (tests/web/checker/test_rulebook.py checks it). Sources are
named as players know them ("the Wikipedia article", "the gamerules.com rules", "The Spruce
Crafts rules"), never by their tags.

Below the blueprints: imports only the engine and Flask-Babel.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l

from .engine import SECTION, SWITCHES
from .engine.rules import Switch


@dataclass(frozen=True)
class RuleSection:
    """One part of the rule book.

    Attributes:
        anchor: its id on the page (``/checker/rules#chicken-feet``).
        title: its heading.
        rules: the rules, one plain sentence or short paragraph each.
        cites: the RULES.md sections it covers (the engine's ``rule`` values).
    """

    anchor: str
    title: Any
    rules: tuple[Any, ...]
    cites: tuple[str, ...]

    @property
    def switches(self) -> list[Switch]:
        """The house-rule switches whose RULES.md section this part covers."""
        return [s for s in SWITCHES if s.section in self.cites]


SECTIONS: tuple[RuleSection, ...] = (
    RuleSection(
        "set-up",
        _l("Set-up"),
        (
            _l(
                "Chicken Foot is played with a double-N domino set: every pair of numbers "
                "from 0 to N once. A double-9 set (55 tiles) is the usual one; bigger sets "
                "(double-12, 15 or 18) suit more players."
            ),
            _l(
                "Each player is dealt a hand face down. The tiles left over are the chicken "
                "yard, face down, to draw from."
            ),
            _l(
                "A deal must fit the set: players times tiles each cannot be more than the "
                "tiles there are."
            ),
            _l("Play goes clockwise, to the left."),
        ),
        ("2", "3.2", "3.6"),
    ),
    RuleSection(
        "rounds",
        _l("Rounds and the centre double"),
        (
            _l(
                "A game has one round per double, from the highest down to the double-blank: "
                "10 rounds with a double-9 set, 13 with a double-12."
            ),
            _l(
                "Each round starts with its double in the middle of the table: the centre "
                "double. Nobody can hold the centre double in hand during its own round, so "
                "in the double-blank round nobody can be caught with the double-blank."
            ),
            _l("The game ends after the double-blank round."),
        ),
        ("4", "3.4", "3.5"),
    ),
    RuleSection(
        "centre",
        _l("The centre and its spokes"),
        (
            _l(
                "Until the centre double has all its spokes, every play must be a new spoke "
                "on it: a tile showing the centre's number, laid against it. Nobody may play "
                "anywhere else until all the spokes are down."
            ),
            _l(
                "Usually the centre takes four spokes (a cross). Once they are down the "
                "centre is full and play spreads to the ends of the spokes."
            ),
            _l(
                "No double can be laid during the spoke phase: the only double with the "
                "centre's number is the centre itself."
            ),
        ),
        ("5.2",),
    ),
    RuleSection(
        "turn",
        _l("A turn: one tile on a matching end"),
        (
            _l(
                "On your turn you lay one tile on an open end whose number it shows: the "
                "touching numbers must be equal (blank matches blank)."
            ),
            _l(
                "An open end is the outer end of a tile with nothing laid on it. Once a tile "
                "is laid on an end, that end is covered."
            ),
            _l("If you can play, you play; drawing is only for a player who cannot."),
            _l(
                "A tile that matches two open ends may go on either: the player chooses, and "
                "the checker judges the end it was laid on."
            ),
        ),
        ("5.1", "5.3"),
    ),
    RuleSection(
        "chicken-feet",
        _l("Chicken feet"),
        (
            _l(
                "A double is laid crosswise on an open end showing its number: it starts a "
                'chicken foot. Players often call it out ("Chickie fives!").'
            ),
            _l(
                "Until the chicken foot has three toes (tiles with the double's number, "
                "fanned out from it), nobody may play anywhere else. A player who has no toe "
                "to play must draw, even if another tile would fit elsewhere."
            ),
            _l(
                "The player who lays the double does not also lay its first toe. A fourth "
                "toe cannot be added. After the third toe, play is free again, on the toes' "
                "ends too."
            ),
            _l(
                "Only one chicken foot can be open at a time: a second double would be a play "
                "elsewhere."
            ),
            _l(
                "A chicken foot that can never be finished (fewer than three tiles with its "
                "number are left off the table) has no special rule: players draw and pass "
                "until the chicken yard is empty, and then the round is blocked."
            ),
        ),
        ("5.4",),
    ),
    RuleSection(
        "drawing",
        _l("Drawing and passing"),
        (
            _l(
                "A player with no legal play draws one tile from the chicken yard. If it can "
                "be played, it is played at once (the house rules say whether this is a must "
                "or a may); if not, the player passes."
            ),
            _l("A player who cannot play when the chicken yard is empty simply passes."),
        ),
        ("5.5",),
    ),
    RuleSection(
        "round-end",
        _l("Ending a round"),
        (
            _l(
                "The round ends the moment a player lays their last tile, even if a chicken "
                "foot is unfinished. That player scores 0."
            ),
            _l(
                "The round also ends when it is blocked: nobody can play and nothing can be "
                "drawn from the chicken yard. Then everyone counts their hand."
            ),
            _l(
                "The round is not over while anyone can still play, or while a player who "
                "cannot play can still draw."
            ),
        ),
        ("6",),
    ),
    RuleSection(
        "scoring",
        _l("Scoring"),
        (
            _l(
                "At the end of a round each player scores the pips on the tiles left in "
                "hand; going out scores 0. Scores add up round by round, and the lowest "
                "total is best."
            ),
            _l(
                "The double-blank left in hand usually costs 50 points; a blank half of "
                "another tile usually counts nothing (0-7 counts 7)."
            ),
        ),
        ("7",),
    ),
    RuleSection(
        "tie-breaks",
        _l("The winner and tie-breaks"),
        (
            _l("After the double-blank round, the lowest total wins."),
            _l(
                "On equal totals, the player with the most zero rounds (rounds scored 0) "
                "wins. If still equal, the player whose lowest single non-zero round is "
                "lowest wins."
            ),
            _l(
                "Beyond that the sources say nothing: the win is shared, unless the house "
                "rules say otherwise."
            ),
            _l("A round scored 50 for going out on a double is not a zero round."),
        ),
        ("8",),
    ),
)

SECTION_BY_ANCHOR: dict[str, RuleSection] = {s.anchor: s for s in SECTIONS}


def section_for(rule: str) -> RuleSection | None:
    """The rule-book part covering RULES.md section ``rule`` (``"5.4"``), if any."""
    return next((s for s in SECTIONS if rule in s.cites), None)


def anchor_for_rule(rule: str) -> str:
    """The rule-book anchor for a RULES.md section (``""`` when none covers it)."""
    section = section_for(rule)
    return section.anchor if section is not None else ""


def anchor_for_code(code: str) -> str:
    """The rule-book anchor for a reason code, turn result or tie-break step."""
    rule = SECTION.get(code)
    return anchor_for_rule(rule) if rule is not None else ""


def switch_anchor(name: str) -> str:
    """The id of a house-rule switch's entry on the rule-book page."""
    return f"house-rule-{name.replace('_', '-')}"


#: source tag (docs/RULES.md §1) -> the name players know it by
SOURCE_NAMES: dict[str, Any] = {
    "S000": _l("the Wikipedia article"),
    "S001": _l("the gamerules.com rules"),
    "S002": _l("The Spruce Crafts rules"),
    "S003": _l("The Spruce Crafts rules"),
    "WIKI-OLD": _l("an older version of the Wikipedia article"),
    "WIKI-COPY": _l("a copy of the Wikipedia article"),
    "LISTWIKI": _l("Wikipedia's list of domino games"),
    "PAGAT": _l("pagat.com (John McLeod's card and tile game rules)"),
    "MARMIDA": _l("a Chicken Foot simulation following pagat.com"),
    "SPAANS": _l("the Domino Rules site (Aron Wall's rules)"),
    "RUSSELLR": _l('the old "double chicken foot" page (2002)'),
    "PUREMCO-COPY": _l("a Puremco-style rule sheet"),
    "FUNDEX": _l("the Fundex Chicken Coop rules"),
    "FUNDEX-HS": _l("the Fundex Chicken Coop rules"),
    "DOCSLIB": _l("a domino club's cheat sheet"),
    "HASTINGS": _l("a printable family rule sheet"),
    "HTFBW1": _l("htfbw.com"),
    "HTFBW2": _l("htfbw.com"),
    "REF-BASIC": _l("reference.com"),
    "REF-PLAY": _l("reference.com"),
    "OURP1": _l("ourpastimes.com"),
    "OURP2": _l("ourpastimes.com"),
    "OURP3": _l("ourpastimes.com"),
    "CDD": _l("cardsdicedominoes.com"),
    "ODG": _l("onlinedominogames.com"),
    "BGG-DERIVED": _l("the original 1986 ChickenFoot game"),
    "REDTABLE": _l("redtablemeats.com"),
    "NATHANLONG": _l('Nathan Long\'s "No Draw" house rules'),
    "HCHERNDON": _l("the chicken-foot-scoring app"),
    "LEDTOTAL": _l("a scraped rules PDF"),
    "MEXTRAIN": _l("mexicantrain.com"),
}

#: phrases the switch table uses instead of tags
_PHRASES: dict[str, Any] = {
    "all sources": _l("every source"),
    "most sources": _l("most sources"),
    "unsourced": _l("no source: a house choice"),
    "sources silent": _l("no source: the sources say nothing"),
    "default": _l("the usual choice"),
}

_TAG = re.compile(r"S00[0-3](?:-S00[0-3])?|[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*")


def source_names(tags: str) -> list[str]:
    """The sources of a house-rule choice in players' names, in order, each once:
    ``"S000, S002/S003"`` -> ["the Wikipedia article", "The Spruce Crafts rules"]."""
    lowered = tags.lower()
    if lowered.startswith("all sources but"):
        rest = ", ".join(source_names(tags[len("all sources but") :]))
        return [str(_l("every source except %(names)s", names=rest))]
    names: list[str] = []
    for token in _TAG.findall(tags):
        if "-S00" in token:
            first, last = (int(t[1:]) for t in token.split("-"))
            keys = [f"S{n:03d}" for n in range(first, last + 1)]
        else:
            keys = [token]
        for key in keys:
            name = SOURCE_NAMES.get(key)
            if name is not None and str(name) not in names:
                names.append(str(name))
    if not names:
        phrase = next((v for k, v in _PHRASES.items() if k in lowered), None)
        if phrase is not None:
            names.append(str(phrase))
    return names
