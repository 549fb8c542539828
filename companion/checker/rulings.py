"""Saved rulings: every verdict the checker gives is kept with its game (if any), so "we ruled
this way last time" can be looked up. Other pages list them with :func:`rulings_for` and the
template fragment ``templates/checker/_rulings_list.html``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any, TypeVar

from sqlalchemy import select

from ..engine import EngineError
from ..extensions import db
from ..models import Game, Ruling

#: rulings shown on a list page (newest first)
LIST_LIMIT = 200

#: what reading a stored ruling of a shape this version does not expect can raise (a ruling
#: imported or stored by another version): such a ruling is shown as unreadable, not a 500
UNREADABLE = (EngineError, TypeError, ValueError, LookupError, AttributeError, RecursionError)

_T = TypeVar("_T")


def none_if_unreadable(read: Callable[..., _T]) -> Callable[..., _T | None]:
    """Decorate a function that reads a stored ruling's JSON for a page: when the ruling does
    not have the shape it expects, it returns None (the page then says the ruling cannot be
    read and offers to delete it) instead of failing the whole page."""

    @wraps(read)
    def wrapper(*args: Any, **kwargs: Any) -> _T | None:
        try:
            return read(*args, **kwargs)
        except UNREADABLE:
            return None

    return wrapper


def save_ruling(
    game: Game | None,
    question: Mapping[str, Any],
    answer: Mapping[str, Any],
    rules: Mapping[str, Any],
    summary: str,
) -> Ruling:
    """Store one ruling (question, answer, the full house rules, a one-line summary) and
    commit. Returns the saved row."""
    ruling = Ruling(
        game=game,
        category=str(question.get("category", ""))[:20],
        question=dict(question),
        answer=dict(answer),
        rules=dict(rules),
        summary=summary[:300],
    )
    db.session.add(ruling)
    db.session.commit()
    return ruling


def rulings_for(game: Game | None, limit: int = LIST_LIMIT) -> list[Ruling]:
    """The rulings of ``game`` (or, for None, those made without a game), newest first."""
    query = select(Ruling).order_by(Ruling.created_at.desc(), Ruling.id.desc()).limit(limit)
    if game is None:
        query = query.where(Ruling.game_id.is_(None))
    else:
        query = query.where(Ruling.game_id == game.id)
    return list(db.session.scalars(query))


def ruling_by_id(ruling_id: int, game: Game | None) -> Ruling | None:
    """The ruling ``ruling_id`` if it belongs to ``game`` (or to no game when None)."""
    ruling = db.session.get(Ruling, ruling_id)
    if ruling is None:
        return None
    wanted = game.id if game is not None else None
    return ruling if ruling.game_id == wanted else None


def delete_ruling(ruling: Ruling) -> None:
    """Delete one saved ruling and commit (the caller has asked for confirmation)."""
    db.session.delete(ruling)
    db.session.commit()
