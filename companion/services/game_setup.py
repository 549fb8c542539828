"""Setting up game nights and games: the service behind the "new night" and "new game" pages.

Pure functions over a SQLAlchemy session and plain values, so views stay thin and tests can
call them directly. Every refusal raises :class:`SetupError` (a ``ValueError``) carrying the
messages to show; nothing is written unless everything is valid. The rules themselves (hand
sizes, the chicken yard, spokes) come from the engine (RULES.md §3, §5.2, §9); this module
only gathers the table's choices and stores them.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import ColumnElement, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..engine import PRESETS, RuleError, RuleSet, TableCheck, check_table, preset
from ..engine.rules import PLAYERS_MAX, PLAYERS_MIN, CenterSpokes
from ..errors import Refused
from ..ids import is_id
from ..models import (
    NAME_MAX,
    NOTES_MAX,
    PLACE_MAX,
    Game,
    GameNight,
    Player,
    Seat,
)
from ..text import (
    clean_name_text,
    clean_text,
    forbidden_characters,
    shortened,
    without_format_characters,
)
from ..vocab import AuditCode
from ..words import error_words
from .audit import new_entry

#: A night or game that cannot be created as asked: its ``messages``, one or more sentences
#: for the user, in order. The one refusal shape (companion.errors.Refused), by the name its
#: callers catch.
SetupError = Refused


# --- names -------------------------------------------------------------------------------


def clean_name(raw: str) -> str:
    """A player's name as stored: Unicode NFC, whitespace trimmed and collapsed to single spaces,
    invisible format characters (zero-width space, byte order mark, bidi marks...) removed
    (:func:`companion.text.clean_name_text`).

    Any language is welcome; markup is kept as text (templates escape it).

    Raises:
        SetupError: for an empty name, one longer than :data:`NAME_MAX` characters, or one
            containing control characters.
    """
    if forbidden_characters(raw or ""):
        raise SetupError(_("A player's name cannot contain invisible characters."))
    name = clean_name_text(raw)
    if not name:
        raise SetupError(_("A player's name cannot be empty."))
    if len(name) > NAME_MAX:
        raise SetupError(
            _("“%(name)s…” is too long: a name has at most %(max)d characters.")
            % {"name": name[:20], "max": NAME_MAX}
        )
    return name


def name_key(name: str) -> str:
    """The lookup key of a name (casefolded, without invisible format characters such as a
    zero-width joiner), as stored in ``Player.name_key``.

    Casefolding can lengthen a name ("ß" -> "ss"), so the stored key is cut to the column's
    60 characters (:func:`stored_key`): two names whose keys agree in those 60 characters
    are one player, as the database's unique index on live players' keys says.
    """
    # NFKC folds look-alike forms ("Ｆｏｏ" full-width, ligatures) into one player.
    return unicodedata.normalize("NFKC", without_format_characters(name)).casefold()


def stored_key(name: str) -> str:
    """``Player.name_key`` of ``name``: :func:`name_key` cut to the column's length."""
    return name_key(name)[:NAME_MAX]


def find_player(session: Session, name: str) -> Player | None:
    """The existing player called ``name`` (case-insensitive), following merges; else None.

    A live (not merged) player with the key comes first; else the oldest merged one leads to
    the player it was merged into."""
    candidates = session.scalars(
        select(Player)
        .where(Player.name_key == stored_key(name))
        .order_by(Player.merged_into_id.is_not(None), Player.id)
    ).all()
    return _merge_target(session, candidates[0]) if candidates else None


def _merge_target(session: Session, player: Player) -> Player:
    """The player a merged player now lives on as (merges can chain; loops are cut)."""
    seen = {player.id}
    while player.merged_into_id is not None and player.merged_into_id not in seen:
        target = session.get(Player, player.merged_into_id)
        if target is None:
            break
        seen.add(target.id)
        player = target
    return player


def in_live_game(player_id: Any) -> ColumnElement[bool]:
    """The SQL condition "``player_id`` sits at a game not deleted, in a night not deleted"
    (``player_id`` a column such as ``Player.id``, or an id).

    The one rule of who is in the history: a player whose every game is deleted (or who has
    no seat at all) is not listed anywhere (History's players, its filters, the new-game
    page's people seen before) while those games stay deleted, and is back when one is
    restored. A player of a game still in play is listed (with 0 finished games)."""
    return (
        select(Seat.id)
        .join(Game, Game.id == Seat.game_id)
        .join(GameNight, GameNight.id == Game.night_id)
        .where(
            Seat.player_id == player_id,
            Game.deleted_at.is_(None),
            GameNight.deleted_at.is_(None),
        )
        .exists()
    )


def is_listed(session: Session, player: Player) -> bool:
    """True when ``player`` is in the history (:func:`in_live_game`); a player not saved yet
    is not."""
    if player.id is None:
        return False
    return bool(session.scalar(select(in_live_game(player.id))))


def known_players(session: Session, limit: int = 200) -> list[Player]:
    """People seen before (not merged away, in the history: :func:`in_live_game`), most
    recently created first, at most ``limit``."""
    return list(
        session.scalars(
            select(Player)
            .where(Player.merged_into_id.is_(None), in_live_game(Player.id))
            .order_by(Player.created_at.desc(), Player.id.desc())
            .limit(limit)
        )
    )


# --- nights --------------------------------------------------------------------------------


def create_night(session: Session, played_on: date, place: str = "", notes: str = "") -> GameNight:
    """Create and commit a game night. ``place`` and ``notes`` are trimmed.

    Raises:
        SetupError: when place or notes are too long.
    """
    night = GameNight(played_on=played_on, place="", notes="")
    _set_night_text(night, place, notes)
    session.add(night)
    session.commit()
    return night


#: how much of the saved notes a refused save quotes back (characters)
NOTES_QUOTED = 200


class NotesChanged(SetupError):
    """A save of a night's place and notes made after another phone changed them: nothing is
    saved, the message quotes what is saved now."""


def night_text_seen(night: GameNight) -> str:
    """A fingerprint of a night's place and notes as a page shows them (16 hex digits: 8 for
    the place, then 8 for the notes): the notes form sends it back, so that a save made after
    another phone changed them is refused instead of silently replacing that phone's text
    (:func:`update_night_notes`). One half per field, so that a page editing only the notes
    is not refused because the place changed."""
    return _digest(night.place or "") + _digest(night.notes or "")


#: hex digits of each field's half of :func:`night_text_seen`
_DIGEST_HEX = 8


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:_DIGEST_HEX]


def update_night_notes(
    session: Session, night: GameNight, place: str, notes: str, seen: str | None = None
) -> None:
    """Replace a night's place and notes and commit.

    ``seen`` is the :func:`night_text_seen` of the page the text was typed on (None: not
    checked, e.g. a form from before this check). When another phone changed the place or the
    notes since and this save would replace that field, nothing is saved: a form tapped twice,
    one whose text is what is saved now, or one changing only a field nobody else changed (the
    history page's notes after the place was changed) is not refused.

    Raises:
        NotesChanged: another phone changed the place or notes since the page was shown.
        SetupError: when place or notes are too long or hold invisible characters.
    """
    now = night_text_seen(night)
    if seen and seen != now:
        typed_place, typed_notes = clean_text(place), clean_text(notes, multiline=True)
        # a field conflicts when another phone changed it and this save would replace it; a
        # seen of another shape (a page from before the halves) counts both as changed
        half = _DIGEST_HEX
        place_lost = seen[:half] != now[:half] and typed_place != (night.place or "")
        notes_lost = seen[half:] != now[half:] and typed_notes != (night.notes or "")
        if place_lost or notes_lost:
            saved = shortened(night.notes or "", NOTES_QUOTED)
            if place_lost:
                # The other phone changed the place: name it too, or saving again would put
                # the old place back over it unseen (the notes alone may even be empty).
                raise NotesChanged(
                    _(
                        "Nothing was saved: the place or notes were changed on another phone "
                        "while you were typing. Saved now: place “%(place)s”, notes "
                        "“%(saved)s”. Your text is still in the form: save again to replace "
                        "what is saved."
                    )
                    % {"place": night.place or "", "saved": saved}
                )
            raise NotesChanged(
                _(
                    "Nothing was saved: the place or notes were changed on another phone "
                    "while you were typing. Saved now: “%(saved)s”. Your text is still in "
                    "the form: save again to replace what is saved."
                )
                % {"saved": saved}
            )
    _set_night_text(night, place, notes)
    session.commit()


def _set_night_text(night: GameNight, place: str, notes: str) -> None:
    if forbidden_characters((place or "") + (notes or "")):
        raise SetupError(_("Place and notes cannot contain invisible characters."))
    place, notes = clean_text(place), clean_text(notes, multiline=True)
    if len(place) > PLACE_MAX:
        raise SetupError(_("The place has at most %(max)d characters.") % {"max": PLACE_MAX})
    if len(notes) > NOTES_MAX:
        raise SetupError(_("Notes have at most %(max)d characters.") % {"max": NOTES_MAX})
    night.place, night.notes = place, notes


# --- house rules and the deal --------------------------------------------------------------


def build_rules(preset_name: str, set_size: int, overrides: Mapping[str, Any]) -> RuleSet:
    """The house rules: the named preset, then ``overrides`` (switch -> value), on the set.

    Raises:
        SetupError: for an unknown preset, switch or value, or switches that conflict
            (the engine's message, RULES.md §9).
    """
    if preset_name not in PRESETS:
        raise SetupError(_("Choose one of the listed house-rule presets."))
    try:
        return preset(preset_name).with_overrides({**overrides, "set_size": set_size})
    except RuleError as exc:
        raise SetupError(error_words(exc)) from exc


@dataclass(frozen=True, slots=True)
class Preview:
    """What the new-game page shows about the deal.

    Attributes:
        players: how many players are chosen so far.
        rules: the house rules, or None when they are invalid.
        table: the engine's check of the table (hand size, chicken yard, spokes), or None
            when there are not 2..12 players or the rules are invalid.
        problems: sentences explaining why the game cannot start as configured.
    """

    players: int
    rules: RuleSet | None
    table: TableCheck | None
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when a game can be started with these choices."""
        return self.table is not None and not self.problems

    @property
    def too_few_players(self) -> bool:
        """True when the only thing missing is players (fewer than 2 chosen yet, the house rules
        fine): the page is still being filled in, so its problem is a hint until "Start the
        game" is pressed, not an error shown before anyone did anything."""
        return self.rules is not None and self.players < PLAYERS_MIN


def preview(
    preset_name: str,
    set_size: int,
    overrides: Mapping[str, Any],
    players: int,
    chosen_spokes: int | None = None,
    seating: Sequence[str] = (),
) -> Preview:
    """The recommended hand size, chicken yard and spokes for these choices (RULES.md §3).
    ``seating``: why the chosen players cannot sit (:func:`choice_problems`), told first.

    Never raises: every reason the game cannot start is in ``problems``.
    """
    try:
        rules = build_rules(preset_name, set_size, overrides)
    except SetupError as exc:
        return Preview(players, None, None, (*seating, *exc.messages))
    if not PLAYERS_MIN <= players <= PLAYERS_MAX:
        return Preview(players, rules, None, (*seating, _players_message(players)))
    table = check_table(rules, set_size, players, _spokes_choice(rules, chosen_spokes))
    return Preview(players, rules, table, (*seating, *(error_words(p) for p in table.problems)))


def _spokes_choice(rules: RuleSet, chosen: int | None) -> int | None:
    # Only "players_to_8" lets the table choose K (RULES.md §5.2); otherwise K is fixed.
    return chosen if rules.center_spokes_required == CenterSpokes.PLAYERS_TO_8 else None


def _players_message(players: int) -> str:
    if players < PLAYERS_MIN:
        return _("Choose at least %(min)d players (%(n)d chosen).") % {
            "min": PLAYERS_MIN,
            "n": players,
        }
    return _("Chicken Foot is for at most %(max)d players (%(n)d chosen).") % {
        "max": PLAYERS_MAX,
        "n": players,
    }


# --- players and seats ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerChoice:
    """One player chosen for a game: a known player's id, or a new name.

    ``seat`` is the order number the scorekeeper typed (1 = first clockwise), or None to keep
    the order of the page.
    """

    player_id: int | None = None
    name: str | None = None
    seat: int | None = None


def seat_order(choices: Sequence[PlayerChoice]) -> list[PlayerChoice]:
    """The choices in clockwise seat order: numbered ones by number, then the rest as listed.

    Raises:
        SetupError: when two players were given the same seat number.
    """
    numbers = [c.seat for c in choices if c.seat is not None]
    doubled = sorted({n for n in numbers if numbers.count(n) > 1})
    if doubled:
        raise SetupError(
            _("Two players cannot both sit at seat %(seat)s.")
            % {"seat": ", ".join(str(n) for n in doubled)}
        )
    indexed = list(enumerate(choices))
    indexed.sort(key=lambda ic: (ic[1].seat is None, ic[1].seat or 0, ic[0]))
    return [c for _i, c in indexed]


def resolve_players(session: Session, choices: Sequence[PlayerChoice]) -> list[Player]:
    """The players of ``choices`` in order: known ones loaded, new names matched to people seen
    before (case-insensitively) or created unsaved.

    Raises:
        SetupError: for a name that is invalid or given twice, an unknown player id, or a
            player count outside 2..12.
    """
    players, problems = _resolved(session, choices)
    if problems:
        raise SetupError(*problems)
    if not PLAYERS_MIN <= len(players) <= PLAYERS_MAX:
        raise SetupError(_players_message(len(players)))
    return players


def choice_problems(session: Session, choices: Sequence[PlayerChoice]) -> list[str]:
    """Why ``choices`` cannot sit as they are (a player chosen twice, under any spelling or
    ticked and typed; an unknown or invalid name), in the words "Start the game" refuses with:
    the deal preview says it before. Never raises; the number of players is not judged here."""
    return _resolved(session, choices)[1]


def _resolved(session: Session, choices: Sequence[PlayerChoice]) -> tuple[list[Player], list[str]]:
    """The players of ``choices`` in order (each once) and why the others cannot sit."""
    players: list[Player] = []
    seen: dict[str, str] = {}
    problems: list[str] = []
    for choice in choices:
        try:
            player = _resolve_one(session, choice)
        except SetupError as exc:
            problems.extend(exc.messages)
            continue
        key = name_key(player.name)
        if key in seen:
            problems.append(
                _("“%(name)s” is in this game twice; each player sits once.") % {"name": seen[key]}
            )
            continue
        seen[key] = player.name
        players.append(player)
    return players, problems


def _resolve_one(session: Session, choice: PlayerChoice) -> Player:
    if choice.player_id is not None:
        # an id past the bound names no row (and overflows PostgreSQL's INTEGER): not found;
        # the deal preview resolves the choices of a form refused for such an id too
        player = session.get(Player, choice.player_id) if is_id(choice.player_id) else None
        if player is None:
            raise SetupError(_("A chosen player was not found; please choose again."))
        return _merge_target(session, player)
    name = clean_name(choice.name or "")
    existing = find_player(session, name)
    if existing is not None:
        return existing
    return Player(name=name, name_key=stored_key(name))


def _typed_names(
    choices: Sequence[PlayerChoice], players: Sequence[Player]
) -> list[tuple[str, Player]]:
    """(name as typed and cleaned, the player it sits as) for each typed name of ``choices``
    (in seat order, as :func:`resolve_players` returned ``players``)."""
    return [
        (clean_name_text(choice.name), player)
        for choice, player in zip(choices, players, strict=True)
        if choice.player_id is None and choice.name is not None
    ]


def _take_typed_spellings(
    session: Session, choices: Sequence[PlayerChoice], players: Sequence[Player]
) -> None:
    """Give a player seen before the spelling just typed when nobody can see them any more:
    every game they sat at is deleted (:func:`in_live_game`), so the history shows none of
    their name. A player in the history (a finished game, or one still in play that another
    table may be looking at) keeps the stored name; :func:`spelled_otherwise` says so."""
    for typed, player in _typed_names(choices, players):
        if (
            player.name != typed
            and player.name_key == stored_key(typed)  # not an old name leading to a merge
            and not is_listed(session, player)
        ):
            player.name = typed


def spelled_otherwise(choices: Sequence[PlayerChoice], game: Game) -> list[tuple[str, str]]:
    """(name as typed, name as stored) for each typed name of ``choices`` that sits in
    ``game`` as a player seen before under another spelling, or under the name they were
    merged into: what the new game's page tells the scorekeeper, so that a name is never
    replaced unsaid."""
    players = [seat.player for seat in game.seats]
    return [
        (typed, player.name)
        for typed, player in _typed_names(seat_order(choices), players)
        if typed != player.name
    ]


# --- the game ------------------------------------------------------------------------------


def create_game(
    session: Session,
    night: GameNight,
    choices: Sequence[PlayerChoice],
    set_size: int,
    preset_name: str,
    overrides: Mapping[str, Any],
    chosen_spokes: int | None = None,
) -> Game:
    """Create a game in ``night`` with its seats and a ``create_game`` audit entry, in one
    transaction, and commit.

    The house rules are frozen as ``RuleSet.to_dict()``; ``hand_size`` is the engine's
    recommendation (RULES.md §3.2); ``chosen_spokes`` is kept only under ``players_to_8``
    (§5.2), as the K the engine settled on.

    Raises:
        SetupError: for bad players or seats, invalid house rules, or a table the engine
            refuses (e.g. a deal needing more tiles than the set has); nothing is saved.
    """
    args = (session, night, choices, set_size, preset_name, overrides, chosen_spokes)
    try:
        return _create_game(*args)
    except IntegrityError:
        session.rollback()
    # Another phone added one of these new names at the same moment: the database keeps one
    # live player per name, so the second try finds that player and seats them.
    try:
        return _create_game(*args)
    except IntegrityError as exc:
        session.rollback()
        raise SetupError(_("The game could not be saved; nothing was changed.")) from exc


def _create_game(
    session: Session,
    night: GameNight,
    choices: Sequence[PlayerChoice],
    set_size: int,
    preset_name: str,
    overrides: Mapping[str, Any],
    chosen_spokes: int | None,
) -> Game:
    night_id = night.id
    ordered = seat_order(choices)
    players = resolve_players(session, ordered)
    check = preview(preset_name, set_size, overrides, len(players), chosen_spokes)
    if not check.ok or check.rules is None or check.table is None:
        raise SetupError(*check.problems)
    rules, table = check.rules, check.table
    _take_typed_spellings(session, ordered, players)
    game = Game(
        night_id=night_id,
        set_size=set_size,
        preset=preset_name,
        rules=rules.to_dict(),
        hand_size=table.deal.hand_size if table.deal else None,
        chosen_spokes=table.spokes
        if rules.center_spokes_required == CenterSpokes.PLAYERS_TO_8
        else None,
    )
    game.seats = [Seat(player=p, position=i) for i, p in enumerate(players)]
    game.audit.append(
        new_entry(
            "create_game",
            AuditCode.GAME_STARTED,
            {"players": [p.name for p in players], "set": set_size},
            before=None,  # explicit: stored as JSON null (the column is NOT NULL)
            after={
                "set_size": set_size,
                "preset": preset_name,
                "players": [p.name for p in players],
                "hand_size": game.hand_size,
                "chosen_spokes": game.chosen_spokes,
            },
        )
    )
    session.add(game)
    session.commit()
    return game
