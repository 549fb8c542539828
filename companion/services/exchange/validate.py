"""Validate an export document: every problem of the plain data, each with its JSON path.

The second of the import's three steps (:mod:`.decode` -> :mod:`.validate` -> :mod:`.write`).
No database and no request: :func:`validate` takes the plain data :mod:`.decode` made and
returns every problem, in the file's order, located by a JSON path
(``$.nights[0].games[1].rounds[2].hands[0].tiles[1]``):

1. the declared shape (:mod:`.shape`, ``schema/v1.json``, JSON Schema): fields, types, fixed
   bounds;
2. by hand, only what a schema cannot say: references (a seat's player, a merge target, a
   round's starter), uniqueness (keys, seats, round numbers, doubles, tiles across hands) and
   the bounds that depend on the game's set;
3. through the rules engine, as the pages do: sets, house rules, the number of players, each
   hand's tiles and a ruling's question;
4. each scored round with the round form's own checks (:mod:`companion.services.round_check`):
   a hand's points within what the set allows and agreeing with its tiles under the game's
   house rules, who went out or the round blocked.

A path the schema already reported gets no second problem. Every problem whose path points
inside a night, game, round or hand starts with that place in words (:func:`place_words`: "Game
night of December 6, 2026, game 1, round 1 (the 12-12): Dee: ..."), as a keeper would look for
it; the JSON path stays beside it for whoever edits the file. Only a document without problems
is written (:mod:`.write`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypeGuard

from flask import has_app_context
from flask_babel import format_date
from flask_babel import gettext as _

from ...engine import CATEGORIES, DominoSet, EngineError, RuleSet, Tile, answer, score_hand
from ...engine.rules import check_players
from ...text import forbidden_characters
from ...vocab import RoundOutcome, RoundStatus
from ...words import error_words
from ..round_check import (
    HandCheck,
    RoundRules,
    hand_bound,
    judge_hand,
    round_end_problems,
    tile_in_two_hands,
)
from .shape import FORMAT, Problem, seat_marker, shape_problems, to_date


def validate(doc: Any) -> list[Problem]:
    """Every problem in ``doc`` (empty when it can be imported), each with its JSON path, in
    document order: first the declared shape (:mod:`.shape`, JSON Schema), then what a
    schema cannot say (references, uniqueness, the set's bounds) and the rules engine's checks."""
    if not isinstance(doc, dict):
        return [Problem("$", _("must be an object."))]
    if doc.get("format") != FORMAT:
        # Another format or version: the rest would only produce noise.
        return [
            Problem(
                "$.format",
                _(
                    "must be %(format)s, not %(value)s.",
                    format=repr(FORMAT),
                    value=repr(doc.get("format")),
                ),
            )
        ]
    found = shape_problems(doc)
    taken = {p.path for p in found}
    check = _Checker(taken)
    refs = _check_players(check, _list(doc, "players"))
    keys: set[str] = set()
    for n, night in enumerate(_list(doc, "nights")):
        for g, game in enumerate(_list(night, "games")):
            _check_game(check, game, f"$.nights[{n}].games[{g}]", refs, keys)
    if not found and not check.problems:  # a file of the right shape: now judge its rounds
        _judge_rounds(check, doc)
    for r, ruling in enumerate(_list(doc, "rulings")):
        _check_ruling(check, ruling, f"$.rulings[{r}]")
    ordered = sorted(found + check.problems, key=lambda p: _path_key(doc, p.path))
    return [_placed(doc, p, p.path in check.named) for p in ordered]


#: the part of a JSON path that says where in a night it is: night, game, round, hand
_PLACE = re.compile(
    r"^\$\.nights\[(\d+)\](?:\.games\[(\d+)\](?:\.rounds\[(\d+)\](?:\.hands\[(\d+)\])?)?)?"
)


def _placed(doc: dict[str, Any], problem: Problem, names_player: bool) -> Problem:
    """``problem`` with its place in words in front (:func:`place_words`), when its path is
    inside a night; ``names_player``: its words already name the hand's player."""
    place, who = place_words(doc, problem.path)
    if place is None:
        return problem
    message = str(problem.message)
    if who is not None and not names_player:
        message = _("%(who)s: %(problem)s", who=who, problem=message)
    return Problem(problem.path, _("%(place)s: %(problem)s", place=place, problem=message))


def place_words(doc: dict[str, Any], path: str) -> tuple[str | None, str | None]:
    """Where ``path`` points in ``doc``, as a keeper would look for it: the night, game and
    round in words ("Game night of December 6, 2026, game 1, round 1 (the 12-12)"), and the
    hand's player when it is inside a hand. (None, None) outside the nights. Never raises: the
    document may be of any shape."""
    found = _PLACE.match(path)
    if found is None:
        return None, None
    n, g, r, h = (int(i) if i is not None else None for i in found.groups())
    nights = _list(doc, "nights")
    if n is None or n >= len(nights):
        return None, None
    place = _night_words(nights, n)
    games = _list(nights[n], "games")
    if g is None or g >= len(games):
        return place, None
    place = _("%(night)s, game %(game)s", night=place, game=g + 1)
    rounds = _list(games[g], "rounds")
    if r is None or r >= len(rounds) or not isinstance(rounds[r], dict):
        return place, None
    rnd = rounds[r]
    number = rnd.get("number") if _is_int(rnd.get("number")) else r + 1
    double = rnd.get("start_double")
    top = games[g].get("set_size") if isinstance(games[g], dict) else None
    if _is_int(double) and _is_int(top) and 0 <= double <= top:  # a double of the game's set
        place = _(
            "%(place)s, round %(round)s (the %(double)s-%(double)s)",
            place=place,
            round=number,
            double=double,
        )
    else:
        place = _("%(place)s, round %(round)s", place=place, round=number)
    hands = _list(rnd, "hands")
    if h is None or h >= len(hands) or not isinstance(hands[h], dict):
        return place, None
    return place, _hand_player(doc, games[g], hands[h].get("seat"))


def _hand_player(doc: dict[str, Any], game: Any, seat: Any) -> str:
    """The name of the player in ``seat`` of ``game`` (by the seat's number when unknown)."""
    names = {
        p.get("ref"): p.get("name")
        for p in _list(doc, "players")
        if isinstance(p, dict) and isinstance(p.get("name"), str)
    }
    for entry in _list(game, "seats"):
        if isinstance(entry, dict) and entry.get("position") == seat and _is_int(seat):
            name = names.get(entry.get("player"))
            if isinstance(name, str):
                return name
    return _("the player in seat %(seat)s", seat=seat)


def _night_words(nights: list[Any], n: int) -> str:
    """Night ``n`` as the players know it: by its date, and, when other nights of the file
    share that date, by its place (when it tells them apart) or its number that day."""
    night = nights[n]
    played_on = night.get("played_on") if isinstance(night, dict) else None
    day = to_date(played_on)
    if day is None:
        return _("Game night %(number)s of the file", number=n + 1)
    # in the reader's language inside the app; the ISO date without one (no app: the tests)
    date = format_date(day, "long") if has_app_context() else day.isoformat()
    same = [i for i, other in enumerate(nights) if _day_of(other) == day]
    if len(same) == 1:
        return _("Game night of %(date)s", date=date)
    places = [nights[i].get("place") for i in same]
    place = night.get("place")
    if isinstance(place, str) and place.strip() and places.count(place) == 1:
        return _("Game night of %(date)s at %(place)s", date=date, place=place.strip())
    return _(
        "Game night %(number)s of %(count)s on %(date)s",
        number=same.index(n) + 1,
        count=len(same),
        date=date,
    )


def _day_of(night: Any) -> Any:
    return to_date(night.get("played_on")) if isinstance(night, dict) else None


def _path_key(doc: Any, path: str) -> list[int]:
    """Where ``path`` is in ``doc``, for sorting in the file's own order (``[10]`` after
    ``[9]``, a field by its place in its object; a missing field after the ones present)."""
    key, node = [], doc
    for step in path.replace("[", ".[").split(".")[1:]:
        if step.startswith("[") and step[1:-1].isdigit():
            index = int(step[1:-1])
            node = node[index] if isinstance(node, list) and index < len(node) else None
        elif isinstance(node, dict) and step in node:
            index, node = list(node).index(step), node[step]
        else:
            index, node = len(node) if isinstance(node, dict | list) else 0, None
        key.append(index)
    return key


def _list(data: Any, name: str) -> list[Any]:
    """``data[name]`` when ``data`` is an object holding a list there, else [] (a wrong shape is
    the schema's problem, reported once)."""
    value = data.get(name) if isinstance(data, dict) else None
    return value if isinstance(value, list) else []


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    """Collects the problems the schema cannot see, one per path: a path the schema already
    reported (a value of the wrong shape) gets no second problem."""

    def __init__(self, taken: set[str]) -> None:
        self.problems: list[Problem] = []
        self.taken = taken
        #: paths whose words already name the hand's player (no "Dee: " in front of them)
        self.named: set[str] = set()

    def add(self, path: str, message: str, names_player: bool = False) -> None:
        if path not in self.taken:
            self.taken.add(path)
            self.problems.append(Problem(path, message))
            if names_player:
                self.named.add(path)


def _check_players(check: _Checker, players: list[Any]) -> dict[str, str]:
    """The document's players: ref -> name (the ref itself when the name is not text), so that
    a problem can name a player as the table knows them, not by a JSON path."""
    refs: dict[str, str | None] = {}
    names: dict[str, str] = {}
    for i, player in enumerate(players):
        ref = player.get("ref") if isinstance(player, dict) else None
        if not isinstance(ref, str):
            continue
        if ref in refs:
            check.add(f"$.players[{i}].ref", _("%(ref)s is used by two players.", ref=repr(ref)))
        target = player.get("merged_into")
        refs[ref] = target if isinstance(target, str) else None
        name = player.get("name")
        names.setdefault(ref, name if isinstance(name, str) else ref)
    for i, player in enumerate(players):
        target = player.get("merged_into") if isinstance(player, dict) else None
        if isinstance(target, str) and target not in refs:
            check.add(
                f"$.players[{i}].merged_into",
                _("refers to an unknown player %(target)s.", target=repr(target)),
            )
    for i, player in enumerate(players):
        ref = player.get("ref") if isinstance(player, dict) else None
        if isinstance(ref, str) and _merge_loops(refs, ref):
            check.add(f"$.players[{i}].merged_into", _("merges lead back to this player."))
    return names


def _merge_loops(targets: dict[str, str | None], ref: str) -> bool:
    seen = {ref}
    current = targets.get(ref)
    while current is not None:
        if current in seen:
            return current == ref
        seen.add(current)
        current = targets.get(current)
    return False


def _check_game(
    check: _Checker, game: Any, path: str, refs: Mapping[str, str], keys: set[str]
) -> None:
    if not isinstance(game, dict):
        return
    key = game.get("key")
    if isinstance(key, str):
        if key in keys:
            check.add(
                f"{path}.key", _("%(key)s is the key of another game in this file.", key=repr(key))
            )
        keys.add(key)
    dominoes = _check_set(check, game, path)
    _check_rules(check, game, path, dominoes)
    positions = _check_seats(check, game, f"{path}.seats", refs)
    _check_rounds(check, _list(game, "rounds"), path, positions, dominoes, game)
    for a, entry in enumerate(_list(game, "audit")):
        _check_audit(check, entry, f"{path}.audit[{a}]", positions)
    for r, ruling in enumerate(_list(game, "rulings")):
        _check_ruling(check, ruling, f"{path}.rulings[{r}]")


def _check_set(check: _Checker, data: dict[str, Any], path: str) -> DominoSet | None:
    value = data.get("set_size")
    if not _is_int(value):
        return None
    try:
        return DominoSet(value)
    except EngineError as exc:
        check.add(f"{path}.set_size", error_words(exc))
        return None


def _check_rules(
    check: _Checker, data: dict[str, Any], path: str, dominoes: DominoSet | None
) -> None:
    rules = data.get("rules")
    if not isinstance(rules, dict) or dominoes is None:
        return
    try:
        RuleSet.from_dict({**rules, "set_size": dominoes.n})
    except EngineError as exc:
        where = exc.where.replace("ruleset", f"{path}.rules", 1) if exc.where else f"{path}.rules"
        check.add(where, error_words(exc))


def _check_seats(
    check: _Checker, game: dict[str, Any], path: str, refs: Mapping[str, str]
) -> dict[int, str]:
    """The game's seats: position -> the name of the player sitting there (their ref when the
    document does not know them, which is reported here)."""
    seats = _list(game, "seats")
    positions: dict[int, str] = {}
    players: set[str] = set()
    for s, seat in enumerate(seats):
        if not isinstance(seat, dict):
            continue
        where = f"{path}[{s}]"
        position = seat.get("position")
        player = seat.get("player")
        if _is_int(position):
            if position in positions:
                check.add(
                    f"{where}.position",
                    _("seat %(position)s is taken by two players.", position=position),
                )
            known = refs.get(player) if isinstance(player, str) else None
            positions.setdefault(position, known or str(player))
        if not isinstance(player, str) or player not in refs:
            check.add(
                f"{where}.player", _("refers to an unknown player %(player)s.", player=repr(player))
            )
            continue
        if player in players:
            check.add(
                f"{where}.player", _("%(player)s sits at this game twice.", player=repr(player))
            )
        players.add(player)
    if isinstance(game.get("seats"), list):  # a missing list is reported once, as missing
        try:
            check_players(len(seats))
        except EngineError as exc:
            check.add(path, error_words(exc))
    return positions


def _check_rounds(
    check: _Checker,
    rounds: list[Any],
    game_path: str,
    positions: Mapping[int, str],
    dominoes: DominoSet | None,
    game: dict[str, Any],
) -> None:
    numbers: set[int] = set()
    doubles: set[int] = set()
    top = dominoes.n if dominoes else 18
    rules = _ruleset_or_none(game, dominoes)  # once per game: every round plays by its rules
    for r, rnd in enumerate(rounds):
        if not isinstance(rnd, dict):
            continue
        path = f"{game_path}.rounds[{r}]"
        number = _in_set(check, rnd, "number", path, 1, top + 1)
        if number is not None and number in numbers:
            check.add(f"{path}.number", _("round %(number)s appears twice.", number=number))
        numbers.add(number) if number is not None else None
        double = _in_set(check, rnd, "start_double", path, 0, top)
        if double is not None and double in doubles:
            check.add(
                f"{path}.start_double",
                _("the %(double)s-%(double)s starts two rounds.", double=double),
            )
        doubles.add(double) if double is not None else None
        starter = rnd.get("starter")
        if _is_int(starter) and starter not in positions:
            check.add(f"{path}.starter", _("there is no seat %(starter)s.", starter=starter))
        hands = _list(rnd, "hands")
        if rnd.get("status") == RoundStatus.BURNED and hands:
            check.add(f"{path}.hands", _("a burned round has no hands."))
        round_double = Tile(double, double) if double is not None else None
        _check_hands(check, hands, f"{path}.hands", positions, dominoes, round_double, rules)


def _in_set(check: _Checker, data: dict[str, Any], name: str, path: str, lo: int, hi: int) -> Any:
    """``data[name]`` when it is a whole number within the game's set (lo..hi), else None."""
    value = data.get(name)
    if not _is_int(value):
        return None
    if not lo <= value <= hi:
        check.add(
            f"{path}.{name}",
            _("must be between %(lo)s and %(hi)s, not %(value)s.", lo=lo, hi=hi, value=value),
        )
        return None
    return value


def _check_hands(
    check: _Checker,
    hands: list[Any],
    path: str,
    positions: Mapping[int, str],
    dominoes: DominoSet | None,
    round_double: Tile | None,
    rules: RuleSet | None,
) -> None:
    seats: set[int] = set()
    seen: dict[Tile, str] = {}
    out_seen: str | None = None
    for h, hand in enumerate(hands):
        if not isinstance(hand, dict):
            continue
        where = f"{path}[{h}]"
        seat = hand.get("seat")
        if _is_int(seat):
            if seat not in positions:
                check.add(f"{where}.seat", _("there is no seat %(seat)s.", seat=seat))
            elif seat in seats:
                check.add(
                    f"{where}.seat", _("seat %(seat)s has two hands in this round.", seat=seat)
                )
            seats.add(seat)
        # the hand's player by name (a seat the game does not have: by its number)
        who = (
            positions[seat]
            if _is_int(seat) and seat in positions
            else _("the player in seat %(seat)s", seat=seat)
        )
        went_out = hand.get("went_out")
        if hand.get("out_on_double") is True and went_out is False:
            check.add(
                f"{where}.out_on_double", _("only a player who went out can go out on a double.")
            )
        if went_out is True:
            if out_seen is not None:
                check.add(
                    f"{where}.went_out",
                    _(
                        "%(who)s went out too, but %(first)s already went out.",
                        who=who,
                        first=out_seen,
                    ),
                    names_player=True,
                )
            if out_seen is None:
                out_seen = who
        tiles = hand.get("tiles")
        if tiles is None or dominoes is None:
            continue
        try:
            held = dominoes.parse_hand(tiles, f"{where}.tiles")
        except EngineError as exc:
            check.add(exc.where or f"{where}.tiles", error_words(exc))
            continue
        for t, tile in enumerate(held):
            if tile in seen:
                check.add(
                    f"{where}.tiles[{t}]",
                    str(tile_in_two_hands(str(tile), seen[tile], who)),
                    names_player=True,
                )
            seen[tile] = who
        if rules is not None:
            try:  # the engine refuses the centre double in a hand and tiles after going out
                score_hand(held, rules, went_out=went_out is True, round_double=round_double)
            except EngineError as exc:
                check.add(f"{where}.tiles", error_words(exc))


def _ruleset_or_none(game: dict[str, Any], dominoes: DominoSet | None) -> RuleSet | None:
    if dominoes is None or not isinstance(game.get("rules"), dict):
        return None
    try:
        return RuleSet.from_dict({**game["rules"], "set_size": dominoes.n})
    except EngineError:
        return None  # already reported by _check_rules


def _check_audit(check: _Checker, entry: Any, path: str, positions: Mapping[int, str]) -> None:
    if not isinstance(entry, dict):
        return
    for name in ("before", "after"):
        for where, seat in _seat_markers(entry.get(name), f"{path}.{name}"):
            if not _is_int(seat) or seat not in positions:
                check.add(where, _("there is no seat %(seat)s.", seat=repr(seat)))
    for name in ("before", "after", "params"):
        if _has_forbidden_text(entry.get(name)):
            check.add(f"{path}.{name}", _("must not contain control characters."))


def _seat_markers(value: Any, path: str) -> list[tuple[str, Any]]:
    """Every ``{"$seat": position}`` inside ``value``, with its path."""
    found, seat = seat_marker(value)
    if found:
        return [(path, seat)]
    if isinstance(value, dict):
        return [m for k, v in value.items() for m in _seat_markers(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [m for i, v in enumerate(value) for m in _seat_markers(v, f"{path}[{i}]")]
    return []


def _check_ruling(check: _Checker, ruling: Any, path: str) -> None:
    """A ruling is imported only when the checker could have made it: its category is one of
    QUESTIONS.md (the schema), its question is that category's question and the rules engine
    reads it, its house rules are a RuleSet, and nothing in it is unstorable text."""
    if not isinstance(ruling, dict):
        return
    blobs = {name: ruling.get(name) for name in ("question", "answer", "rules")}
    for name, value in blobs.items():
        if isinstance(value, dict) and _has_forbidden_text(value):
            check.add(f"{path}.{name}", _("must not contain control characters."))
            blobs[name] = None
    question, rules, category = blobs["question"], blobs["rules"], ruling.get("category")
    if isinstance(question, dict) and category in CATEGORIES:
        problem = ruling_question_problem(category, question)
        if problem:
            check.add(f"{path}.question", problem)
    if isinstance(rules, dict):
        try:
            RuleSet.from_dict(rules)
        except (EngineError, TypeError, ValueError, AttributeError) as exc:
            check.add(
                f"{path}.rules", _("are not house rules this version knows: %(exc)s", exc=exc)
            )


def ruling_question_problem(category: str, question: dict[str, Any]) -> str | None:
    """Why ``question`` cannot be the question of a ruling of ``category`` (None when it can):
    it must name that category and the rules engine must read it without an error."""
    if question.get("category") != category:
        return _(
            "must be a %(category)s question, like the ruling's category.", category=repr(category)
        )
    verdict = answer(question)
    error = verdict.get("error") if isinstance(verdict, dict) else None
    if isinstance(error, dict):
        where = f" (at {error.get('where')})" if error.get("where") else ""
        return f"is not a question the rules checker can read{where}: {error.get('message')}"
    return None


def _has_forbidden_text(value: Any) -> bool:
    """True when a key or string anywhere in ``value`` has a forbidden character
    (:func:`companion.text.forbidden_characters`; PostgreSQL cannot store NUL)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and forbidden_characters(item):
            return True
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _judge_rounds(check: _Checker, doc: dict[str, Any]) -> None:
    """Judge every scored round of ``doc`` (already of the right shape, its references and
    tiles checked) with the round form's checks (:func:`_judge_round`)."""
    names = {p["ref"]: p["name"] for p in doc["players"]}
    for n, night in enumerate(doc["nights"]):
        for g, game in enumerate(night["games"]):
            where = f"$.nights[{n}].games[{g}]"
            seats = {s["position"]: names[s["player"]] for s in game["seats"]}
            rules = RuleSet.from_dict({**game["rules"], "set_size": game["set_size"]})
            dominoes = DominoSet(game["set_size"])
            for r, rnd in enumerate(game["rounds"]):
                if rnd["status"] != RoundStatus.SCORED:
                    continue
                double = rnd["start_double"]
                bound = hand_bound(rules, dominoes, len(seats), game["hand_size"], double)
                round_rules = RoundRules(rules, dominoes, Tile(double, double), bound)
                # at the round's path: validate() puts the round's place in front
                for problem in _judge_round(rnd, seats, round_rules):
                    check.add(f"{where}.rounds[{r}]", problem)


def _judge_round(rnd: dict[str, Any], seats: dict[int, str], rules: RoundRules) -> list[str]:
    """What the round form would refuse in ``rnd`` (a scored round), in the player's words:
    how it ended (one player out, or blocked with nobody out), then each hand (its points
    within the set's bound and agreeing with its tiles, RULES.md §6-§8)."""
    hands = rnd["hands"]
    outs = sum(1 for h in hands if h["went_out"])
    problems = [str(p) for p in round_end_problems(outs, rnd["outcome"] == RoundOutcome.BLOCKED)]
    out_on_double = any(h["out_on_double"] for h in hands)
    for hand in hands:
        tiles = [rules.dominoes.parse(t) for t in hand["tiles"] or []]
        who = seats[hand["seat"]]
        check = HandCheck(hand["seat"], who, hand["points"], tiles, hand["went_out"])
        problem = judge_hand(check, rules, out_on_double)
        if problem is not None:
            problems.append(str(problem))
    return problems
