"""A game's audit trail: written as codes plus parameters, read a page at a time, told in words.

Each entry says what happened as an :class:`~companion.vocab.AuditCode` plus parameters (JSON),
made by :func:`new_entry`; a page words it with :func:`entry_words` in the READER's language, so
a Lithuanian phone reads in Lithuanian a trail written from an English one (issue 13). Entries
written before codes carry only their stored sentence and keep showing it.

The trail is read a page at a time (issue 11): a long game's trail is never loaded whole, so the
game page and the audit pages cost the same at 10 entries or 1,000. What an entry changed, per
player, is :func:`changes`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import func, select

from ..extensions import db
from ..models import SUMMARY_MAX, AuditEntry, Game, GameAccess, HandPost
from ..stored import read_or
from ..vocab import AuditCode, EnteredBy, RoundOutcome, RoundStatus

# --- writing and wording the line ------------------------------------------------------------


def new_entry(
    action: str, code: AuditCode, params: Mapping[str, Any] | None = None, **columns: Any
) -> AuditEntry:
    """An audit entry (not added to a session) that says ``code`` with ``params``; ``columns``
    are the other columns (``game``, ``game_id``, ``before``, ``after``). The sentence in the
    writing phone's language is kept in ``summary`` too: a fallback for readers that do not know
    the code (an older version of the app after a downgrade)."""
    stored = dict(params or {})
    return AuditEntry(
        action=action,
        code=str(code),
        params=stored,
        summary=line_words(code, stored)[:SUMMARY_MAX],
        **columns,
    )


def undone_params(entry: AuditEntry) -> dict[str, Any]:
    """The parameters of :attr:`AuditCode.UNDONE` for undoing ``entry``: its own line, so the
    undo is worded in the reader's language too (an entry from before codes: its sentence)."""
    if entry.code:
        return {"what": {"code": entry.code, "params": entry.params or {}}}
    return {"what": {"summary": entry.summary}}


def hands_params(game: Game, snapshot: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The ``hands`` parameter of a round's line from its snapshot
    (:func:`companion.services.round_store.round_snapshot`): names as they are now, so a later
    rename or merge does not rewrite what the line said."""
    names = {s.id: s.player.name for s in game.seats}
    return [
        {
            "name": names.get(h["seat_id"], "?"),
            "points": h["points"],
            "went_out": bool(h["went_out"]),
            "by": h.get("entered_by") or "",
        }
        for h in snapshot["hands"]
    ]


def round_line(game: Game, double: int, snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters of a saved or corrected round's line: its ``double``, its ``hands``
    (:func:`hands_params`) and ``phones`` when the game is played with phones (a seat joined
    on one, or a hand posted from one): then every hand says who entered it, also in a round
    the scorekeeper (the first or one handed over to) typed whole."""
    hands = hands_params(game, snapshot)
    line: dict[str, Any] = {"double": double, "hands": hands}
    if _said_by_phone(hands) or _played_with_phones(game):
        line["phones"] = True
    return line


def _said_by_phone(hands: Sequence[Mapping[str, Any]]) -> bool:
    return any(h.get("by") in (EnteredBy.PHONE, EnteredBy.OVERRULED) for h in hands)


def _played_with_phones(game: Game) -> bool:
    joined = select(GameAccess.id).where(
        GameAccess.game_id == game.id, GameAccess.seat_id.is_not(None)
    )
    posted = select(HandPost.id).where(HandPost.game_id == game.id, HandPost.device_id.is_not(None))
    return db.session.scalar(select(joined.exists() | posted.exists())) or False


def entered_words(seat_name: str, entered_by: str | None) -> str:
    """Who entered a saved hand, for the audit trail: "posted from Bob's phone" or "entered
    by the scorekeeper" ("" for hands saved before phones could post)."""
    if entered_by == EnteredBy.PHONE:
        return _("posted from %(who)s's phone", who=seat_name)
    if entered_by == EnteredBy.SCOREKEEPER:
        return _("entered by the scorekeeper")
    if entered_by == EnteredBy.OVERRULED:
        return _("entered by the scorekeeper, overruling %(who)s's phone", who=seat_name)
    return ""


def _hands_words(hands: Sequence[Mapping[str, Any]], *, phones: bool = False) -> str:
    # Who entered each hand is said in a game played with phones (``phones``: the line's flag,
    # see round_line; a line written before the flag says it when a phone posted one of its
    # hands); a game kept on the scorekeeper's phone alone reads as before.
    phones = phones or _said_by_phone(hands)
    parts = []
    for h in hands:
        name = str(h["name"])
        text = f"{name} {int(h['points'])}"
        # one pair of brackets: "Chen 0 (went out; posted from Chen's phone)"
        notes = [_("went out")] if h.get("went_out") else []
        by = entered_words(name, h.get("by")) if phones else ""
        if by:
            notes.append(by)
        if notes:
            text += " (" + "; ".join(notes) + ")"
        parts.append(text)
    return ", ".join(parts)


def _double(value: Any) -> str:
    # as round_plan.double_name, checked: the value may come from an imported file
    return f"{int(value)}-{int(value)}"


def _players(value: Any) -> str:
    return ", ".join(str(name) for name in value)


#: the lines that need no parameters
_WITHOUT_PARAMS = {
    AuditCode.GAME_DELETED: _l("Game deleted."),
    AuditCode.GAME_RESTORED: _l("Game restored."),
    AuditCode.AUTO_SAVE_ON: _l("Rounds save themselves when every hand is posted."),
    AuditCode.AUTO_SAVE_OFF: _l("Rounds are saved by the scorekeeper."),
    AuditCode.SCOREKEEPER_MOVED: _l("Scorekeeping handed over to another phone."),
    AuditCode.SCOREKEEPER_ADDED: _l("A second phone keeps score too."),
}


def line_words(code: str, params: Mapping[str, Any]) -> str:
    """The line ``code`` says with ``params``, in the current request's language.

    Raises ``KeyError``/``TypeError``/``ValueError`` for params of another shape and
    ``LookupError`` for a code this version does not know (:func:`entry_words` falls back)."""
    p = params
    if code == AuditCode.SCOREKEEPER_MOVED and p and p.get("to"):
        return _("Scorekeeping handed over to %(name)s's phone.", name=str(p["to"]))
    fixed = _WITHOUT_PARAMS.get(AuditCode(code))
    if fixed is not None:
        return str(fixed)
    match AuditCode(code):
        case AuditCode.GAME_STARTED | AuditCode.REMATCH:
            players, size = _players(p["players"]), int(p["set"])
            if code == AuditCode.REMATCH:
                return _("Rematch: %(players)s, double-%(set)s.", players=players, set=size)
            return _("Game started: %(players)s, double-%(set)d.", players=players, set=size)
        case AuditCode.ROUND_SAVED | AuditCode.ROUND_CORRECTED:
            double = _double(p["double"])
            hands = _hands_words(p["hands"], phones=bool(p.get("phones")))
            if code == AuditCode.ROUND_CORRECTED:
                return _("Round with %(d)s corrected: %(hands)s", d=double, hands=hands)
            k = int(p["number"])
            if p.get("auto"):
                return _(
                    "Round %(k)s (%(d)s) saved by itself from the posted hands: %(hands)s",
                    k=k,
                    d=double,
                    hands=hands,
                )
            return _("Round %(k)s (%(d)s) saved: %(hands)s", k=k, d=double, hands=hands)
        case AuditCode.DOUBLE_BURNED:
            return _("Nobody held %(d)s: burned for this game.", d=_double(p["double"]))
        case AuditCode.UNDONE:
            what = p["what"]
            said = line_words(what["code"], what["params"]) if "code" in what else what["summary"]
            return _("Undone: %(what)s", what=str(said))
        case AuditCode.PLAYER_MERGED:
            return _(
                "%(gone)s merged into %(kept)s (same person).",
                gone=str(p["gone"]),
                kept=str(p["kept"]),
            )
    raise LookupError(code)  # pragma: no cover - the match covers every AuditCode


@read_or(lambda: None)
def _read_line(code: str, params: Any) -> str | None:
    return line_words(code, params if isinstance(params, Mapping) else {})


def entry_words(entry: AuditEntry) -> str:
    """An audit entry's line in the reader's language: worded from its code and parameters;
    an entry from before codes (or with a code or parameters this version cannot read) shows
    the sentence it was stored with, and one without any says that the game changed (never a
    raw code)."""
    if entry.code:
        said = _read_line(entry.code, entry.params)
        if said is not None:
            return said
    return entry.summary or _("A change to the game.")


# --- reading the trail a page at a time -------------------------------------------------------

#: entries per audit page (and on a game's history page: the latest ones)
AUDIT_PAGE = 20


@dataclass(frozen=True)
class AuditPage:
    """Entries ``first``..``first + len(entries) - 1`` counted from the newest (1-based).

    Attributes:
        entries: newest first.
        number: this page (1 = the newest entries).
        total: entries in the whole trail.
    """

    entries: list[AuditEntry]
    number: int
    total: int

    @property
    def first(self) -> int:
        """The position of the first entry from the oldest (the list is numbered downwards)."""
        return self.total - (self.number - 1) * AUDIT_PAGE

    @property
    def older(self) -> int | None:
        """The page number of older entries, if any."""
        return self.number + 1 if self.number * AUDIT_PAGE < self.total else None

    @property
    def newer(self) -> int | None:
        """The page number of newer entries, if any."""
        return self.number - 1 if self.number > 1 else None


def audit_page(game: Game, number: int = 1) -> AuditPage:
    """Page ``number`` of ``game``'s trail, newest first (two queries; an out-of-range page
    number gives the last page)."""
    total = db.session.scalar(
        select(func.count(AuditEntry.id)).where(AuditEntry.game_id == game.id)
    )
    last = max(1, -(-int(total or 0) // AUDIT_PAGE))
    number = min(max(1, number), last)
    entries = db.session.scalars(
        select(AuditEntry)
        .where(AuditEntry.game_id == game.id)
        .order_by(AuditEntry.id.desc())
        .offset((number - 1) * AUDIT_PAGE)
        .limit(AUDIT_PAGE)
    ).all()
    return AuditPage(list(entries), number, int(total or 0))


def newest_entries(game: Game, actions: tuple[str, ...], batch: int = 8) -> Iterator[AuditEntry]:
    """The entries with one of ``actions``, undone or not, newest first, read ``batch`` at a
    time (a caller that stops at the first it needs never loads a long trail whole)."""
    query = (
        select(AuditEntry)
        .where(AuditEntry.game_id == game.id, AuditEntry.action.in_(actions))
        .order_by(AuditEntry.id.desc())
        .limit(batch)
    )
    offset = 0
    while True:
        found = db.session.scalars(query.offset(offset)).all()
        yield from found
        if len(found) < batch:
            return
        offset += batch


def latest_entry(game: Game, actions: tuple[str, ...]) -> AuditEntry | None:
    """The newest entry with one of ``actions`` not undone yet (one query)."""
    return db.session.scalar(
        select(AuditEntry)
        .where(
            AuditEntry.game_id == game.id,
            AuditEntry.action.in_(actions),
            AuditEntry.undone.is_(False),
        )
        .order_by(AuditEntry.id.desc())
        .limit(1)
    )


def saved_by_itself(game: Game, double: int) -> bool:
    """Whether the round of ``game`` started by ``double`` (N of N-N) was saved by the game's
    auto-save from the posted hands: its newest "round saved" line not undone says so."""
    for entry in newest_entries(game, ("round_saved",)):
        params = entry.params or {}
        if not entry.undone and params.get("double") == double:
            return bool(params.get("auto"))
    return False


@dataclass(frozen=True)
class Change:
    """One line of a change in the audit trail: what, the old value and the new one."""

    what: str
    old: str
    new: str


def _hand_text(hand: dict[str, Any] | None) -> str:
    if hand is None:
        return "—"
    text = str(hand["points"])
    if hand.get("went_out"):
        text += " " + _("(went out)")
    if hand.get("tiles"):
        text += " [" + " ".join(hand["tiles"]) + "]"
    return text


@read_or(list)
def changes(entry: AuditEntry, names: dict[int, str]) -> list[Change]:
    """What an audit entry changed, per player: old and new values, in words (empty for
    entries without round data, e.g. deleting the game, and for snapshots of a shape this
    version cannot read)."""
    before = entry.before if isinstance(entry.before, dict) else {}
    after = entry.after if isinstance(entry.after, dict) else {}
    if not before and not after:
        return []
    old_hands = {h["seat_id"]: h for h in before.get("hands", [])}
    new_hands = {h["seat_id"]: h for h in after.get("hands", [])}
    out = []
    for seat_id in sorted(set(old_hands) | set(new_hands)):
        old, new = _hand_text(old_hands.get(seat_id)), _hand_text(new_hands.get(seat_id))
        if old != new:
            out.append(Change(names.get(seat_id, "?"), old, new))
    words: dict[str, str] = {
        RoundStatus.SCORED: _("played"),
        RoundStatus.BURNED: _("burned: nobody held it"),
        RoundOutcome.OUT: _("someone went out"),
        RoundOutcome.BLOCKED: _("blocked"),
    }
    for key, label in (("status", _("double")), ("outcome", _("round ended"))):
        was, now = before.get(key), after.get(key)
        if was != now:
            out.append(Change(label, words.get(was or "", "—"), words.get(now or "", "—")))
    old_starter, new_starter = before.get("starter_seat_id"), after.get("starter_seat_id")
    if old_starter != new_starter:
        out.append(
            Change(
                _("started the round"),
                names.get(old_starter, "—") if old_starter else "—",
                names.get(new_starter, "—") if new_starter else "—",
            )
        )
    return out
