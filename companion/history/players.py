"""Players in the history: lists, renaming, and merging two entries for the same person.

Only players who sit at a game not deleted are in the history
(:func:`companion.services.game_setup.in_live_game`; docs/ARCHITECTURE.md, "Players and
their names").

Names follow the score keeper's rules (:func:`companion.services.game_setup.clean_name`) and
are unique regardless of case (``Player.name_key``). Merging moves every seat of the merged
player to the kept one and marks the merged row with ``merged_into_id``; the row stays, nothing
is lost, and each game whose seat moved gets an audit entry ``player_merged`` (not undoable by
the score keeper's "undo", which only reverts round changes).
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import abort
from flask_babel import gettext as _
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from ..extensions import db
from ..models import Game, Player, PlayerTotal, Seat
from ..services.audit import new_entry
from ..services.game_setup import SetupError, clean_name, in_live_game, is_listed, stored_key
from ..vocab import AuditCode


def listed_players() -> list[Player]:
    """Every player not merged away who sits at a game not deleted (finished or in play:
    :func:`companion.services.game_setup.in_live_game`), by name (case-insensitive)."""
    return list(
        db.session.scalars(
            select(Player)
            .where(Player.merged_into_id.is_(None), in_live_game(Player.id))
            .order_by(Player.name_key, Player.id)
        )
    )


def players_with_games() -> list[tuple[Player, int]]:
    """(player, finished games played) for every listed player (:func:`listed_players`), by
    name; two queries (the games of each player's all-time totals per set added up, and the
    players)."""
    counts = dict(
        db.session.execute(
            select(PlayerTotal.player_id, func.sum(PlayerTotal.games)).group_by(
                PlayerTotal.player_id
            )
        ).all()
    )
    return [(p, counts.get(p.id, 0)) for p in listed_players()]


def must_be_listed(player: Player) -> None:
    """Abort with 404 when ``player`` is not in the history: every game they sat at is
    deleted (their page comes back when one is restored)."""
    if not is_listed(db.session(), player):
        abort(
            404,
            description=_(
                "%(name)s has no game in the history: every game they played was deleted.",
                name=player.name,
            ),
        )


def names(player_ids: Iterable[int]) -> dict[int, str]:
    """Player id -> name, in one query."""
    ids = set(player_ids)
    if not ids:
        return {}
    return dict(db.session.execute(select(Player.id, Player.name).where(Player.id.in_(ids))).all())


def merge_target(player: Player) -> Player:
    """The player a merged player now lives on as (merges can chain; a loop is cut)."""
    seen = {player.id}
    while player.merged_into_id is not None and player.merged_into_id not in seen:
        target = db.session.get(Player, player.merged_into_id)
        if target is None:
            break
        seen.add(target.id)
        player = target
    return player


def rename(player: Player, raw: str) -> str:
    """Give ``player`` a new name and commit; returns the old name.

    Raises:
        SetupError: for a name that is empty, too long or has control characters, or that
            another player in the history already has (case-insensitive) — merge them
            instead. A holder of the name whose every game is deleted is merged into
            ``player`` (the name is free as far as anyone can see).
    """
    new = clean_name(raw)
    key = stored_key(new)
    others = db.session.scalars(
        select(Player).where(Player.name_key == key, Player.id != player.id)
    ).all()
    hidden: list[Player] = []
    for other in others:
        target = merge_target(other)
        if target.id == player.id:
            continue  # an old name of this very player
        if (
            target.id == other.id
            and not is_listed(db.session(), other)
            and not shared_games(other, player)
        ):
            # Every game of the name's holder is deleted: nobody sees that name any more, so
            # it is free. The holder joins this player (as typing the name in a new game
            # would seat this player), and a restored game shows them under the new name.
            hidden.append(other)
            continue
        if target.id != other.id:  # the name still leads to the player it was merged into
            raise SetupError(
                _(
                    "The name %(name)s now leads to %(kept)s (they were merged); "
                    "choose another name.",
                    name=other.name,
                    kept=target.name,
                )
            )
        raise SetupError(
            _(
                "Another player is already called %(name)s. If they are the same person, "
                "merge the two instead.",
                name=other.name,
            )
        )
    old = player.name
    try:
        for other in hidden:
            _move_seats(other, player)
        db.session.flush()  # the holder leaves the live names before the key is taken
        player.name, player.name_key = new, key
        db.session.commit()
    except IntegrityError as exc:  # another phone gave someone this name at the same moment
        db.session.rollback()
        raise SetupError(
            _(
                "Another player is already called %(name)s. If they are the same person, "
                "merge the two instead.",
                name=new,
            )
        ) from exc
    return old


def shared_games(gone: Player, kept: Player) -> list[Game]:
    """Games (deleted ones too) where both players sat: such a pair cannot be merged."""
    return list(
        db.session.scalars(
            select(Game)
            .where(
                Game.seats.any(Seat.player_id == gone.id),
                Game.seats.any(Seat.player_id == kept.id),
            )
            .options(selectinload(Game.night))
            .order_by(Game.id)
        )
    )


def game_count(player: Player) -> int:
    """Games (any status, deleted ones too) ``player`` sat at: the seats a merge moves."""
    return db.session.scalar(select(func.count(Seat.id)).where(Seat.player_id == player.id)) or 0


def merge(gone: Player, kept: Player) -> int:
    """Merge ``gone`` into ``kept`` and commit; returns the number of seats moved.

    Every seat of ``gone`` moves to ``kept`` (with an audit entry in its game), players that
    had been merged into ``gone`` now point at ``kept``, and ``gone.merged_into_id`` is set.
    The caller must have checked :func:`shared_games` is empty (the seats table allows one seat
    per player per game, so the commit would fail otherwise and nothing would change).
    """
    moved = _move_seats(gone, kept)
    db.session.commit()
    return moved


def _move_seats(gone: Player, kept: Player) -> int:
    """:func:`merge` without the commit; returns the number of seats moved."""
    seats = db.session.scalars(select(Seat).where(Seat.player_id == gone.id)).all()
    for seat in seats:
        seat.player_id = kept.id
        db.session.add(
            new_entry(
                "player_merged",
                AuditCode.PLAYER_MERGED,
                {"gone": gone.name, "kept": kept.name},
                game_id=seat.game_id,
                before={"seat_id": seat.id, "player_id": gone.id, "name": gone.name},
                after={"seat_id": seat.id, "player_id": kept.id, "name": kept.name},
            )
        )
    db.session.execute(
        update(Player).where(Player.merged_into_id == gone.id).values(merged_into_id=kept.id)
    )
    gone.merged_into_id = kept.id
    return len(seats)
