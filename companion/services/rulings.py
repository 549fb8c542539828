"""Saved rulings: every verdict the checker gives is kept with its game (if any), so "we ruled
this way last time" can be looked up. Other pages list them with :func:`rulings_for` and the
template fragment ``templates/checker/_rulings_list.html``."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from sqlalchemy import Select, select

from ..extensions import db
from ..models import SUMMARY_MAX, Game, Ruling, utcnow
from ..stored import read_or

#: rulings shown on a list page (newest first)
LIST_LIMIT = 200
#: the same ruling asked again this soon is the one already saved (a double tap), not a new one
REPEAT_WINDOW = timedelta(seconds=10)

#: a function reading a stored ruling for a page returns None for one it cannot read (stored
#: by another version): the page shows it as unreadable, with its delete link, not a 500
none_if_unreadable = read_or(lambda: None)


def save_ruling(
    game: Game | None,
    question: Mapping[str, Any],
    answer: Mapping[str, Any],
    rules: Mapping[str, Any],
    summary: str,
) -> Ruling:
    """Store one ruling (question, answer, the full house rules, a one-line summary) and
    commit. Returns the saved row.

    The same ruling asked again within :data:`REPEAT_WINDOW` (a double tap, or the checker's
    tap-to-ask followed by a tap on the button) is not stored twice: the one saved a moment
    ago is returned, so Back after it does not land on a copy."""
    fields = {
        "category": str(question.get("category", ""))[:20],
        "question": dict(question),
        "answer": dict(answer),
        "rules": dict(rules),
        "summary": summary[:SUMMARY_MAX],
    }
    repeated = _just_saved(game, fields)
    if repeated is not None:
        return repeated
    ruling = Ruling(game=game, **fields)
    db.session.add(ruling)
    db.session.commit()
    return ruling


def _just_saved(game: Game | None, fields: Mapping[str, Any]) -> Ruling | None:
    """The ruling of ``game`` saved within the last :data:`REPEAT_WINDOW` with exactly these
    fields, if any. Compared here, not in SQL: JSON columns have no portable equality."""
    since = utcnow() - REPEAT_WINDOW
    query = _of_game(select(Ruling), game).where(
        Ruling.created_at >= since, Ruling.category == fields["category"]
    )
    for ruling in db.session.scalars(query.order_by(Ruling.id.desc())):
        if all(getattr(ruling, key) == value for key, value in fields.items()):
            return ruling
    return None


def rulings_for(game: Game | None, limit: int = LIST_LIMIT) -> list[Ruling]:
    """The rulings of ``game`` (or, for None, those made without a game), newest first."""
    query = select(Ruling).order_by(Ruling.created_at.desc(), Ruling.id.desc()).limit(limit)
    return list(db.session.scalars(_of_game(query, game)))


def _of_game(query: Select[Ruling], game: Game | None) -> Select[Ruling]:
    """``query`` narrowed to the rulings of ``game`` (None: those made without a game)."""
    if game is None:
        return query.where(Ruling.game_id.is_(None))
    return query.where(Ruling.game_id == game.id)


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
