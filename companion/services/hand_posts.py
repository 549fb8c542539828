"""Hands posted from the players' phones, judged per hand (never per round).

A joined phone posts its own seat's hand for the coming round: a typed pip total, tapped tiles
or "I went out" (:func:`post_hand`). Each posted hand is one :class:`HandPost` row per
(game, round double, seat) whose ``revision`` grows with every change:

* two phones posting *different* hands both count (different rows);
* a phone that posts the *same* hand as changed by someone else since it last saw it (its
  ``seen`` revision is older) gets :class:`PostClash` with both values, and chooses which
  stands (posting again with ``force``) -- nothing typed is replaced unseen;
* a post for a round already saved gets :class:`RoundClosed` with the saved round, so the
  phone shows it with its own values beside it.

Saving a round (:func:`take_posts`, called inside the round's transaction) marks each hand's
row ``taken``; a hand the scorekeeper typed gets a row too, so a phone posting at the same
moment collides with it in the database (unique row per hand) and is told the round was
saved. A post changed after the scorekeeper's form was filled refuses the save
(:class:`PostsChanged`) rather than dropping it. With the game's auto-save on, the round saves
itself once every seat has posted (:func:`save_posted_round`). Scores come from the engine
through :mod:`.round_check` (RULES.md §6, §7).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from ..engine import Tile, score_hand
from ..errors import Problem, Refused
from ..extensions import db
from ..mapping import dominoes_of, rules_of
from ..models import Device, Game, GameAccess, HandPost, HandScore, Round, Seat, utcnow
from ..text import ascii_whole_number
from ..vocab import AuditCode, GameStatus, PostStatus, RoundStatus
from ..words import plural_forms
from .audit import new_entry
from .round_check import (
    MAX_SCORE_DIGITS,
    HandCheck,
    HandEntry,
    HandPart,
    RoundEntry,
    ScoredRound,
    centre_double_in_hand,
    check_round,
    hand_field,
    parse_tiles,
    parse_total,
    score_bound,
    score_entry,
    too_many_points,
    typed_beside_tiles,
    went_out_scores,
    went_out_with_tiles,
)
from .round_plan import RoundPlan, double_name, load_game, plan_round
from .round_store import Conflict, EnteredBy, save_round


class PostState(StrEnum):
    """A hand's state on the scorekeeper's form."""

    MISSING = "missing"  # nothing posted yet
    POSTED = "posted"  # posted; the form shows it
    CHANGED = "changed"  # posted again after the form was filled
    TYPED = "typed"  # the scorekeeper's form holds another value than the post (typed over it)
    #: no post; the box holds the scorekeeper's typing put back (a saved round since undone)
    RESTORED = "restored"
    TAKEN = "taken"  # saved into the round


class PostRefused(Refused):
    """The post cannot be taken as it is: the one refusal shape (:class:`~companion.errors.Refused`,
    422) with one problem about the hand; ``message`` says why, in the player's words."""

    def __init__(self, message: str) -> None:
        super().__init__(Problem(message, field="hand"))

    @property
    def message(self) -> str:
        """The problem's words."""
        return self.messages[0]


class PostClash(Exception):
    """The same hand was changed by someone else since this phone last saw it."""

    def __init__(self, theirs: HandPost) -> None:
        super().__init__(theirs.id)
        self.theirs = theirs


class RoundClosed(Exception):
    """The round this post is for was already saved."""

    def __init__(self, rnd: Round | None) -> None:
        super().__init__(rnd.id if rnd else None)
        self.round = rnd


class PostsChanged(Exception):
    """Hands were posted again after the scorekeeper's form was filled: seat id -> the row."""

    def __init__(self, changed: dict[int, HandPost]) -> None:
        super().__init__(sorted(changed))
        self.changed = changed


@dataclass(frozen=True)
class HandValue:
    """A hand as posted: a typed total in points, or tapped tiles, or went out."""

    total: int | None
    tiles: tuple[str, ...] | None
    went_out: bool

    @classmethod
    def of(cls, post: HandPost) -> HandValue:
        """The value a :class:`HandPost` row holds."""
        tiles = tuple(sorted(post.tiles)) if post.tiles else None
        return cls(post.total, tiles, bool(post.went_out))

    def key(self) -> str:
        """The hand as one string ("out", "tiles:5-0 8-7", "12", "" for nothing), carried by
        the round form's ``filled_<seat>`` to tell a box filled from a post from one typed over
        (static/js/table.js builds the same string)."""
        if self.went_out:
            return "out"
        if self.tiles:
            return "tiles:" + " ".join(self.tiles)
        return "" if self.total is None else str(self.total)

    def words(self) -> str:
        """The hand in words: "went out", "12 points" or "3 tiles: 9-5 4-4 2-1"."""
        if self.went_out:
            return _("went out")
        if self.tiles:
            return ngettext(
                "%(num)d tile: %(tiles)s",
                "%(num)d tiles: %(tiles)s",
                len(self.tiles),
                tiles=" ".join(self.tiles),
            )
        if self.total is not None:
            return ngettext("%(num)d point", "%(num)d points", self.total)
        return "—"


@dataclass(frozen=True)
class PostMark:
    """What the scorekeeper's form says about one hand: its state, when the phone last posted
    it (UTC, naive as stored; None when nothing was posted) and the post in words, a tile post
    with its sum ("2 tiles: 5-0 8-7 (20 points)")."""

    state: PostState
    at: datetime | None = None
    words: str = ""
    tiles: bool = False  # the post is tapped tiles (its words then carry the sum)
    points: int | None = None  # a tile post's sum (points), shown in the empty points box
    #: the post as the scorekeeper's poll sends it (:func:`post_json`), for "Use Bob's post"
    post: dict[str, Any] | None = None

    @property
    def iso(self) -> str:
        """``at`` as an ISO 8601 UTC time for ``<time datetime>`` (the page shows it in the
        phone's own time zone), "" when nothing was posted."""
        return self.at.isoformat(timespec="seconds") + "Z" if self.at else ""


def post_points(game: Game, post: HandPost) -> int | None:
    """A tile post's sum in points under the house rules (the engine's score); None for a
    typed total, "went out" or tiles that cannot be read."""
    value = HandValue.of(post)
    if not value.tiles or value.went_out:
        return None
    parsed, problems = parse_tiles(dominoes_of(game), list(value.tiles), "")
    if problems:
        return None
    return score_hand(parsed, rules_of(game), round_double=Tile(post.double, post.double)).points


def post_words(game: Game, post: HandPost) -> str:
    """The posted hand in words; tapped tiles also say their sum in points, so the
    scorekeeper sees it at once."""
    value = HandValue.of(post)
    points = post_points(game, post)
    if points is None:
        return value.words()
    return "{} ({})".format(value.words(), ngettext("%(num)d point", "%(num)d points", points))


def form_value(total: str, tiles: list[str], went_out: bool) -> HandValue:
    """A hand as the scorekeeper's form holds it (its total box, tapped tiles, went out)."""
    text = (total or "").strip()
    typed = int(text) if ascii_whole_number(text) and len(text) < 9 else None
    if went_out:
        return HandValue(None, None, True)
    if tiles:
        # a total typed beside the tiles is kept: the form holds another value than a tile
        # post then (typed over it), even while the save is refused until one is cleared
        return HandValue(typed, tuple(sorted(tiles)), False)
    return HandValue(typed, None, False)


@dataclass(frozen=True)
class MineBeside:
    """One line of "On this phone:" beside a round saved with other values than this phone's
    form held (another phone saved first, or the round saved itself from the posts): what it
    is about (a player's name, or "Who started"), this phone's value and the saved one in
    words."""

    name: str
    mine: str
    saved: str
    seat_id: int | None = None  # the hand's seat; None for how the round ended


def saved_value(hand: Any) -> HandValue:
    """A saved hand (:class:`~companion.models.HandScore`) as a :class:`HandValue`."""
    return _saved(bool(hand.went_out), hand.tiles, hand.points)


def _saved(went_out: bool, tiles: list[str] | None, points: int) -> HandValue:
    """A saved hand as the round form shows it: went out, its tiles, else its points."""
    if went_out:
        return HandValue(None, None, True)
    if tiles:
        return HandValue(None, tuple(sorted(str(t) for t in tiles)), False)
    return HandValue(int(points), None, False)


def put_back(snapshot: Mapping[str, Any], posts: dict[int, HandPost]) -> dict[int, HandValue]:
    """Seat id -> the hand of a saved round since undone (``snapshot``: its
    :func:`~.round_store.round_snapshot`) that goes back into the round form, beside the
    round's open ``posts`` (which fill their boxes as ever, :func:`form_data`): each hand the
    scorekeeper entered, typed or typed over the phone's post. A hand taken from its phone's
    post comes back as that post, and a hand its phone posted again after the undo (an open
    row again: ``take_posts`` left the others taken) is that newer post: it wins, as it would
    over any box filled before it. Raises ``LookupError``/``TypeError``/``ValueError`` for a
    snapshot of another shape (stored JSON: :func:`companion.stored.read_or`)."""
    back: dict[int, HandValue] = {}
    for hand in snapshot["hands"]:
        post = posts.get(int(hand["seat_id"]))
        posted_since = post is not None and post.status == PostStatus.OPEN
        if posted_since or (post is not None and hand.get("entered_by") == EnteredBy.PHONE):
            continue
        value = _saved(bool(hand["went_out"]), hand.get("tiles"), hand["points"])
        back[int(hand["seat_id"])] = value
    return back


def put_back_data(values: dict[int, HandValue]) -> dict[str, Any]:
    """Round-form data that puts each hand of ``values`` (seat id -> hand) in its boxes as
    the form's own (its total, tiles and tick; any post's value there replaced). What the box
    was filled with (``filled_<seat>``) stays the form's original (:func:`form_data`: the
    post, or nothing): the scorekeeper's typing put back is this phone's typing where it
    differs from that, so a comparison with the round saved meanwhile on another phone lists
    it (it was read as a box untouched, and left out). ``seen_<seat>`` stays the post's the
    form shows, if any: a hand posted after the page was drawn still takes the box live
    (static/js/table.js fills a box not typed in since)."""
    data: dict[str, Any] = {}
    for seat_id, value in values.items():
        typed = value.total is not None and not value.tiles and not value.went_out
        data[hand_field(HandPart.TOTAL, seat_id)] = str(value.total) if typed else ""
        data[hand_field(HandPart.TILES, seat_id)] = list(value.tiles or ())
        data[hand_field(HandPart.OUT, seat_id)] = value.went_out
    return data


def mine_beside(
    rnd: Round,
    seats: list[Seat],
    held: dict[int, HandValue],
    only: Collection[int],
    typed: Mapping[int, str] | None = None,
) -> list[MineBeside]:
    """The hands this phone's form held (``held``) that differ from the saved round ``rnd``:
    what the loser of two saves at once, or a form whose round saved itself, is shown.
    ``only``: the seats whose hand is this phone's own (the others, an empty box it never
    touched, say nothing against the saved round and are left out). ``typed``: each box's
    text, shown as typed for a box that holds no value ("abc"), so that the scorekeeper
    recognises it."""
    saved = {h.seat_id: h for h in rnd.hands}
    rows = []
    for seat in seats:
        if seat.id not in only:
            continue
        mine = held.get(seat.id, HandValue(None, None, False))
        hand = saved.get(seat.id)
        theirs = saved_value(hand) if hand is not None else HandValue(None, None, False)
        same = mine == theirs or (
            hand is not None and not mine.tiles and not mine.went_out and mine.total == hand.points
        )
        if same:
            continue
        text = (typed or {}).get(seat.id, "").strip()
        words = text if text and not mine.key() else mine.words()
        rows.append(MineBeside(seat.player.name, words, theirs.words(), seat.id))
    return rows


# --- reading ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class LiveKey:
    """What the scorekeeper's game page shows, as its poll's ``?v=`` carries it back: the
    game's version and auto-save setting (``game``, "12" or "12a"), the sum of its posts'
    revisions (``posts``: they only grow), the sum of its access rows' ids and of the seats
    they hold (``phones``: a phone joins, is removed from its seat or asks to keep score),
    and whether the page shows the join panel (``panel``), the blocked-round hint
    (``blocked``) and the join QR code and link (``link``: a phone removed from its seat
    makes a new join secret, so the poll sends them again), which the poll keeps up to date
    out of band. Written "12a.40.7" with "j", "b" and "l" after it for the three."""

    game: str
    posts: int
    phones: int
    panel: bool = False
    blocked: bool = False
    link: bool = False

    def __str__(self) -> str:
        flags = (self.panel, self.blocked, self.link)
        shows = "".join(f for f, on in zip("jbl", flags, strict=True) if on)
        return f"{self.game}.{self.posts}.{self.phones}{shows}"

    @classmethod
    def parse(cls, text: str) -> LiveKey | None:
        """The key a page sent back; None for anything else (an old or forged key)."""
        found = re.fullmatch(r"(\d{1,18}a?)\.(\d{1,18})\.(\d{1,18})(j?)(b?)(l?)", text)
        if found is None:
            return None
        game, posted, phones, panel, blocked, link = found.groups()
        return cls(game, int(posted), int(phones), bool(panel), bool(blocked), bool(link))

    def same_game(self, other: LiveKey) -> bool:
        """Whether nothing the poll reads changed between the two keys (what the page shows
        aside)."""
        return (self.game, self.posts, self.phones) == (other.game, other.posts, other.phones)


def live_key(game: Game) -> LiveKey:
    """The scorekeeper's :class:`LiveKey` of ``game`` as the database holds it (what a page
    shows aside): it changes whenever a round is saved, a hand is posted, auto-save is
    switched or a phone joins, leaves or asks to keep score (one small query). A phone
    removed from its seat keeps its row (``seat_id`` cleared: it is told so), hence the count
    of held seats beside the ids."""
    posted = (
        select(func.coalesce(func.sum(HandPost.revision), 0))
        .where(HandPost.game_id == game.id)
        .scalar_subquery()
    )
    phones = (
        select(func.coalesce(func.sum(GameAccess.id), 0) + func.count(GameAccess.seat_id))
        .where(GameAccess.game_id == game.id)
        .scalar_subquery()
    )
    total, access_sum = db.session.execute(select(posted, phones)).one()
    return LiveKey(f"{game.version}{'a' if game.auto_save else ''}", int(total), int(access_sum))


def seat_live_key(game: Game, seat_id: int) -> str:
    """The ``?v=`` of one joined phone's live part, which shows the board (the game's
    version) and only this seat's own posted hand: the version, the sum of this seat's posts'
    revisions and its newest post's id (a post made anew after one was cleared). Another
    player's post leaves it alone, so it does not send every phone at the table to fetch its
    live part again (twelve posts made 144 renders of live parts a round). Only the last post
    of a round that waits for the scorekeeper's "blocked" tick (:func:`blocked_unmarked`: every
    hand posted, nobody out) changes every posted phone's key ("b" after it), so each says the
    round waits."""
    total, newest = db.session.execute(
        select(
            func.coalesce(func.sum(HandPost.revision), 0), func.coalesce(func.max(HandPost.id), 0)
        ).where(HandPost.game_id == game.id, HandPost.seat_id == seat_id)
    ).one()
    waits = "b" if newest and _waits_blocked(game, db.session.get(HandPost, newest)) else ""
    return f"{game.version}.{total}.{newest}{waits}"


def _waits_blocked(game: Game, post: HandPost | None) -> bool:
    """Whether ``post``'s round waits for the scorekeeper's "blocked" tick, as
    :func:`blocked_unmarked` says it, without planning the round (a phone's poll): auto-save
    on, the round not saved, every seat posted from a phone and nobody out."""
    if post is None or post.device_id is None or not game.auto_save:
        return False
    if game.status == GameStatus.FINISHED or saved_round(game, post.double) is not None:
        return False
    seats = db.session.scalar(select(func.count(Seat.id)).where(Seat.game_id == game.id))
    posted, out = db.session.execute(
        select(func.count(HandPost.id), func.count(HandPost.id).filter(HandPost.went_out)).where(
            HandPost.game_id == game.id,
            HandPost.double == post.double,
            HandPost.device_id.is_not(None),
        )
    ).one()
    return bool(seats) and posted == seats and not out


def saved_round(game: Game, double: int) -> Round | None:
    """The saved (scored) round of ``game`` started by ``double``, if any, as the database
    holds it now (another request may have saved it since ``game`` was loaded)."""
    return db.session.scalars(
        select(Round).where(
            Round.game_id == game.id,
            Round.start_double == double,
            Round.status == RoundStatus.SCORED,
        )
    ).first()


def posts_for(game: Game, double: int) -> dict[int, HandPost]:
    """Seat id -> the posted hand for the round with ``double`` (open or taken), fresh from
    the database (rows already loaded in this request are refreshed, never trusted)."""
    rows = db.session.scalars(
        select(HandPost)
        .where(HandPost.game_id == game.id, HandPost.double == double)
        .execution_options(populate_existing=True)
    )
    return {r.seat_id: r for r in rows}


def phone_post(game: Game, double: int, seat_id: int) -> HandPost | None:
    """The hand ``seat_id``'s phone posted for the round with ``double`` (open or taken), None
    when none did: the row a save wrote for a hand the scorekeeper typed is no post (after an
    undo it stays, and a player's page showed it as "Posted: ..." and a post over it as
    replacing "your earlier post")."""
    post = posts_for(game, double).get(seat_id)
    return post if post is not None and post.device_id is not None else None


def is_open(post: HandPost, game: Game, saving: Round | None = None) -> bool:
    """True while ``post`` (from a phone) waits for its round: not taken, or taken into a round
    since undone. A row the scorekeeper's save wrote for a typed hand is never a post.
    ``saving``: the round being saved now, already in the session, which does not count as
    the saved round yet (a post the undo put back waits for it)."""
    if post.device_id is None:
        return False
    if post.status == PostStatus.OPEN:
        return True
    saved = saved_round(game, post.double)
    return saved is None or saved is saving


def open_posts(game: Game, double: int) -> dict[int, HandPost]:
    """The posted hands still waiting for the round with ``double``."""
    return {s: p for s, p in posts_for(game, double).items() if is_open(p, game)}


def form_data(posts: dict[int, HandPost]) -> dict[str, Any]:
    """Round-form data that fills each seat from its posted hand (``seen_<seat>`` carries the
    revision the form shows, so a later change is noticed when saving)."""
    data: dict[str, Any] = {}
    for seat_id, post in posts.items():
        value = HandValue.of(post)
        data[f"seen_{seat_id}"] = str(post.revision)
        data[f"filled_{seat_id}"] = value.key()
        if value.went_out:
            data[f"out_{seat_id}"] = True
        elif value.tiles:
            data[f"tiles_{seat_id}"] = list(value.tiles)
        elif value.total is not None:
            data[f"total_{seat_id}"] = str(value.total)
    return data


def seen_revisions(form: Any, seats: list[Seat]) -> dict[int, int]:
    """Seat id -> the post revision the scorekeeper's form was filled from (0: none)."""
    seen: dict[int, int] = {}
    for seat in seats:
        text = str(form.get(f"seen_{seat.id}", "") or "").strip()
        seen[seat.id] = revision_number(text)
    return seen


def revision_number(text: str) -> int:
    """A post revision sent back by a form (a hidden field), or 0 for anything else (junk,
    a forged value, non-ASCII digits): never an error."""
    text = text.strip()
    return int(text) if ascii_whole_number(text) and len(text) < 9 else 0


def marks(
    game: Game,
    double: int,
    seen: dict[int, int],
    held: dict[int, HandValue] | None = None,
    restored: Collection[int] = (),
) -> dict[int, PostMark]:
    """Seat id -> what the scorekeeper's form says about that hand: not posted (or, for the
    ``restored`` seats, the scorekeeper's typing put back: :func:`put_back`); posted (and
    when); changed on the phone after the form was filled; or typed over by the scorekeeper
    (``held``: what the form holds per seat differs from the post it was filled from)."""
    posts = open_posts(game, double)
    out: dict[int, PostMark] = {}
    for seat in game.seats:
        post = posts.get(seat.id)
        if post is None:
            typed = seat.id in restored
            out[seat.id] = PostMark(PostState.RESTORED if typed else PostState.MISSING)
            continue
        state = PostState.POSTED
        if post.revision > seen.get(seat.id, 0) and seen.get(seat.id, 0) != 0:
            state = PostState.CHANGED
        elif held is not None and seat.id in held and held[seat.id] != HandValue.of(post):
            state = PostState.TYPED
        shown = post_json(game, post)
        out[seat.id] = PostMark(
            state, post.updated_at, shown["words"], bool(post.tiles), shown["points"], shown
        )
    return out


def post_json(game: Game, post: HandPost) -> dict[str, Any]:
    """One posted hand as static/js/table.js reads it: its revision, the total, tiles and
    "went out", in words, a tile post's sum (points) and when it was posted (ISO UTC)."""
    value = HandValue.of(post)
    return {
        "revision": post.revision,
        "total": value.total,
        "tiles": list(value.tiles or ()),
        "went_out": value.went_out,
        "words": post_words(game, post),
        "points": post_points(game, post),
        "at": PostMark(PostState.POSTED, post.updated_at).iso,
    }


def posts_json(game: Game, double: int | None) -> dict[str, Any]:
    """The open posted hands of the coming round for the scorekeeper's page poll."""
    if double is None:
        return {}
    return {
        str(seat_id): post_json(game, post) for seat_id, post in open_posts(game, double).items()
    }


# --- posting ---------------------------------------------------------------------------------


def _value_from(
    game: Game, seat: Seat, double: int, total_text: str, tiles: list[str], went_out: bool
) -> HandValue:
    """Check one posted hand on its own and against the other posted hands (no tile twice,
    not the centre double, total and tiles agree) -- RULES.md §6, §7."""
    who = seat.player.name
    total, problem = parse_total(total_text or "", who, score_bound(game, double))
    if problem:
        raise PostRefused(problem)
    if went_out:
        # a total or tiles beside the tick is refused, never silently dropped: the player
        # may have meant the total (a "went out" post left ticked on a reload)
        if tiles:
            raise PostRefused(went_out_with_tiles(who))
        if total:
            raise PostRefused(went_out_scores(who, 0, total))
        return HandValue(None, None, True)
    parsed, problems = parse_tiles(dominoes_of(game), tiles, who)
    if problems:
        raise PostRefused(problems[0])
    centre = Tile(double, double)
    if centre in parsed:
        raise PostRefused(str(centre_double_in_hand(who, str(centre))))
    held = posted_tiles(game, double, seat.id)
    clash = sorted(str(t) for t in parsed if str(t) in held)
    if clash:
        raise PostRefused(already_posted(clash[0], held[clash[0]]))
    if not parsed and total is None:
        raise PostRefused(_("Type the points left in your hand, or tap your tiles."))
    refusal = _refusal(game, HandCheck(seat.id, who, total, parsed, False), centre)
    if refusal:
        raise PostRefused(refusal)
    if parsed:
        return HandValue(None, tuple(sorted(str(t) for t in parsed)), False)
    return HandValue(total, None, False)


def _refusal(game: Game, hand: HandCheck, centre: Tile) -> str | None:
    """Why ``hand`` (a typed total, tapped tiles or both; "I went out" not ticked) is refused
    in the round with the ``centre`` double, or None. The round form's scoring of a hand
    (round_check.score_entry: one home for "0 points means no tiles left" and for a total
    that disagrees with the tiles): a hand the scorekeeper's Save, or the auto-save, would
    refuse is refused at the post, so the player is told now, in the phone's words (quoting
    its own boxes)."""
    scored = score_entry(hand, rules_of(game), centre, False, own=True)
    return str(scored.message) if isinstance(scored, Problem) else None


def zero_refusal(game: Game, seat: Seat, double: int) -> str | None:
    """The words refusing a typed 0 without "I went out" in the round with ``double``, or None
    where such a 0 stands (a hand of only the double-blank worth 0: round_check's rule). The
    hand page gives them to its script (static/js/hand.js), which refuses that post on the
    phone before it is sent or kept there to be sent later."""
    return _refusal(game, HandCheck(seat.id, seat.player.name, 0, [], False), Tile(double, double))


def beside_refusal() -> str:
    """The words refusing a total typed beside tapped tiles that add up to other points (0 or
    any), as JSON: one per plural form of the language (:func:`companion.words.plural_forms`),
    "{points}" and "{typed}" to fill in. The hand page gives them to its script
    (static/js/hand.js), which adds up the tapped tiles' points (the picker's, the engine's
    under the house rules), picks the form of that sum and refuses that post on the phone
    before it is sent or kept there to be sent later, as :func:`_value_from` would."""
    forms = plural_forms(lambda n: typed_beside_tiles("", "{points}", "{typed}", own=True, count=n))
    return json.dumps(forms, ensure_ascii=False)


def over_refusal(game: Game, seat: Seat, double: int) -> str:
    """The words refusing a typed total above the most a hand may hold in the round with
    ``double`` ("{typed}" to fill in), that most and the most digits, as JSON (``bound``,
    ``digits``, ``words``):
    :func:`_value_from` says them before anything else (typed beside tiles too), and so does
    the hand page's script (static/js/hand.js), on the phone, before the post is sent or kept
    there to be sent later."""
    bound = score_bound(game, double)
    words = too_many_points(seat.player.name, "{typed}", bound)
    limits = {"bound": bound, "digits": MAX_SCORE_DIGITS, "words": words}
    return json.dumps(limits, ensure_ascii=False)


def out_refusal(seat: Seat) -> str:
    """The words refusing "I went out" ticked beside a typed total other than 0 (``total``,
    "{typed}" to fill in: the one who went out scores 0 on the phone, so the plural form is
    0's) or beside tapped tiles (``tiles``), as JSON: :func:`_value_from`'s. The hand page
    gives them to its script (static/js/hand.js), which refuses that post on the phone before
    it is sent or kept there to be sent later."""
    who = seat.player.name
    words = {"total": went_out_scores(who, 0, "{typed}"), "tiles": went_out_with_tiles(who)}
    return json.dumps(words, ensure_ascii=False)


def posted_tiles(game: Game, double: int, but: int) -> dict[str, str]:
    """Tile ("5-3") -> the name of the player whose open posted hand for the round with
    ``double`` holds it, every seat's but seat ``but``'s (a tile is in one hand only)."""
    return {
        tile: post.seat.player.name
        for seat_id, post in open_posts(game, double).items()
        if seat_id != but
        for tile in post.tiles or ()
    }


def already_posted(tile: str, who: str) -> str:
    """Why ``tile`` cannot be posted, ``who``'s posted hand holding it already, in the
    player's words: the post's refusal, and the player's photo page's flag beside a picker."""
    return _(
        "%(tile)s is already in %(who)s's posted hand: check your tiles "
        "(or ask %(who)s to check theirs).",
        tile=tile,
        who=who,
    )


def post_hand(
    game: Game,
    seat: Seat,
    device: Device,
    double: int,
    *,
    total: str = "",
    tiles: list[str] | None = None,
    went_out: bool = False,
    seen: int = 0,
    force: bool = False,
) -> HandPost:
    """Post ``seat``'s hand for the round with ``double`` from ``device`` and commit.

    ``seen`` is the revision of this hand the phone last showed (0: none). Raises
    :class:`PostRefused` (bad hand, round not being played), :class:`RoundClosed` (already
    saved), :class:`PostClash` (someone else changed this hand since ``seen``; ``force``
    posts anyway, after the phone was shown both values).
    """
    rnd = saved_round(game, double)
    if rnd is not None:
        raise RoundClosed(rnd)
    plan = plan_round(game)
    if plan is None or plan.double != double:
        raise PostRefused(
            _(
                "The round with %(d)s is not being played now: the page was out of date and "
                "now shows the coming round. Post your hand again.",
                d=double_name(double),
            )
        )
    value = _value_from(game, seat, double, total, list(tiles or []), went_out)
    row = posts_for(game, double).get(seat.id)
    if row is not None and row.status != PostStatus.OPEN:
        # Read the row, then the round: a save marks the row and stores the round in one
        # commit, so a taken row with its round present means the round closed meanwhile.
        rnd = saved_round(game, double)
        if rnd is not None:
            raise RoundClosed(rnd)
    if row is None:
        return _insert(game, seat, device, double, value)
    if HandValue.of(row) == value and is_open(row, game):
        return row  # the same hand again (a double tap): nothing changes
    # A leftover of a round since undone is simply replaced; an open hand changed by someone
    # else since this phone last saw it is shown to the phone first.
    changed_by_other = row.device_id != device.id
    if row.revision != seen and changed_by_other and is_open(row, game) and not force:
        raise PostClash(row)
    result = db.session.execute(
        update(HandPost)
        .where(HandPost.id == row.id, HandPost.revision == row.revision)
        .values(
            total=value.total,
            tiles=list(value.tiles) if value.tiles else None,
            went_out=value.went_out,
            device_id=device.id,
            revision=row.revision + 1,
            status=PostStatus.OPEN,
            round_id=None,
            taken_at=None,
            updated_at=utcnow(),
        )
    )
    if not getattr(result, "rowcount", 0):
        # Changed under us: the scorekeeper took the hand into the saved round, or another
        # phone posted it. Say which, with what is stored now.
        db.session.rollback()
        rnd = saved_round(game, double)
        if rnd is not None:
            raise RoundClosed(rnd)
        raise PostClash(posts_for(game, double)[seat.id])
    db.session.commit()
    db.session.refresh(row)
    return row


def _insert(game: Game, seat: Seat, device: Device, double: int, value: HandValue) -> HandPost:
    row = HandPost(
        game_id=game.id,
        double=double,
        seat_id=seat.id,
        total=value.total,
        tiles=list(value.tiles) if value.tiles else None,
        went_out=value.went_out,
        device_id=device.id,
    )
    db.session.add(row)
    try:
        db.session.commit()
    except IntegrityError:
        # Another request wrote this hand first: the scorekeeper saved the round (taken) or
        # another phone posted the same hand.
        db.session.rollback()
        theirs = posts_for(game, double).get(seat.id)
        rnd = saved_round(game, double)
        if rnd is not None or theirs is None:
            raise RoundClosed(rnd) from None
        raise PostClash(theirs) from None
    return row


# --- saving the round ------------------------------------------------------------------------


def seat_hand(rnd: Round, seat_id: int) -> HandScore | None:
    """``seat_id``'s hand in the round ``rnd``, None when it has none."""
    return next((h for h in rnd.hands if h.seat_id == seat_id), None)


def saved_as_typed(rnd: Round, seat_id: int, typed: dict[str, Any]) -> bool:
    """True when the saved round ``rnd`` already holds this seat's hand as the phone typed it
    (``typed``: total, tiles, went_out as the hand form sends them): a post that arrives after
    the round was saved is then no conflict (e.g. both came back from offline with 6)."""
    hand = seat_hand(rnd, seat_id)
    if hand is None:
        return False
    total = str(typed.get("total") or "").strip()
    tiles = sorted(str(t) for t in typed.get("tiles") or ())
    if typed.get("went_out") or hand.went_out:
        return (
            bool(typed.get("went_out")) == bool(hand.went_out) and not tiles and total in ("", "0")
        )
    if tiles:
        return tiles == sorted(hand.tiles or ())
    return ascii_whole_number(total) and int(total) == hand.points


def matches(post: HandPost, hand: Any) -> bool:
    """True when a saved hand (engine-scored) is what the phone posted."""
    value = HandValue.of(post)
    if value.went_out or hand.went_out:
        return value.went_out == bool(hand.went_out)
    if value.tiles:
        return tuple(sorted(hand.tiles or ())) == value.tiles
    return value.total == hand.points and not hand.tiles


def check_unchanged(game: Game, double: int, scored: ScoredRound, seen: dict[int, int]) -> None:
    """Refuse (:class:`PostsChanged`) when a hand was posted again after the form was filled
    and the form does not hold that newer value (the scorekeeper has not seen it)."""
    posts = open_posts(game, double)
    changed = {
        h.seat_id: posts[h.seat_id]
        for h in scored.hands
        if h.seat_id in posts
        and posts[h.seat_id].revision != seen.get(h.seat_id, 0)
        and not matches(posts[h.seat_id], h)
    }
    if changed:
        raise PostsChanged(changed)


def take_posts(game: Game, rnd: Round, scored: ScoredRound, seen: dict[int, int]) -> None:
    """Inside the round's transaction: mark each hand's posted row taken, write a row for the
    hands the scorekeeper typed, and record on each :class:`HandScore` who entered it.

    Each row is read fresh and marked only at the revision that was checked (a conditional
    UPDATE), so a post that lands meanwhile is never taken unseen: the save is refused with
    :class:`PostsChanged` (after a rollback: nothing of the round is stored).
    """
    posts = posts_for(game, scored.double)
    now = utcnow()
    by_seat = {h.seat_id: h for h in rnd.hands}
    waiting = {seat_id for seat_id, post in posts.items() if is_open(post, game, saving=rnd)}
    for hand in scored.hands:
        post = posts.get(hand.seat_id)
        saved = by_seat[hand.seat_id]
        if post is None or hand.seat_id not in waiting:
            saved.entered_by = str(EnteredBy.SCOREKEEPER)
            if post is None:
                db.session.add(_typed_row(game, rnd, scored.double, hand, now))
            continue
        same = matches(post, hand)
        if post.revision != seen.get(hand.seat_id, 0) and not same:
            _refuse(game, scored.double, hand.seat_id)
        saved.entered_by = str(EnteredBy.PHONE if same else EnteredBy.OVERRULED)
        result = db.session.execute(
            update(HandPost)
            .where(HandPost.id == post.id, HandPost.revision == post.revision)
            # (``updated_at`` stays the time it was posted: an undo puts the post back in the
            # form, marked "posted" at that time, not at the save's)
            .values(status=PostStatus.TAKEN, taken_at=now, revision=post.revision + 1)
        )
        if not getattr(result, "rowcount", 0):
            _refuse(game, scored.double, hand.seat_id)
    db.session.flush()
    # the round's id is known after the flush: link the rows to it
    db.session.execute(
        update(HandPost)
        .where(
            HandPost.game_id == game.id,
            HandPost.double == scored.double,
            HandPost.status == PostStatus.TAKEN,
        )
        .values(round_id=rnd.id)
    )


def _typed_row(game: Game, rnd: Round, double: int, hand: Any, now: Any) -> HandPost:
    """The row for a hand the scorekeeper typed (a phone posting it now collides with it)."""
    return HandPost(
        game_id=game.id,
        double=double,
        seat_id=hand.seat_id,
        total=hand.points if not hand.tiles and not hand.went_out else None,
        tiles=list(hand.tiles) if hand.tiles else None,
        went_out=hand.went_out,
        status=PostStatus.TAKEN,
        taken_at=now,
        round=rnd,
    )


def _refuse(game: Game, double: int, seat_id: int) -> None:
    """Roll the round back and say which posted hand changed under the save."""
    db.session.rollback()
    post = posts_for(game, double).get(seat_id)
    if post is None:
        raise Conflict()
    raise PostsChanged({seat_id: post})


# --- the round saving itself (the game's auto-save setting) --------------------------------------


def posted_entry(game: Game, double: int, posts: dict[int, HandPost]) -> RoundEntry:
    """The round with ``double`` as its posted hands say it, read as the scorekeeper's form
    filled from them (:func:`form_data`) would be: a hand that went out carries no points,
    tapped tiles win over a typed total, nobody blocked and the starter not recorded."""
    hands = []
    for seat in game.seats:
        post = posts.get(seat.id)
        value = HandValue.of(post) if post is not None else HandValue(None, None, False)
        typed = value.total is not None and not value.went_out and not value.tiles
        hands.append(
            HandEntry(
                seat=seat,
                total=str(value.total) if typed else "",
                tiles=[] if value.went_out else list(value.tiles or ()),
                went_out=value.went_out,
            )
        )
    return RoundEntry(double=double, hands=hands)


def save_posted_round(game: Game) -> bool:
    """Save the coming round from the posted hands alone (the game's auto-save setting): only
    when every seat has posted, exactly one player went out and the checks pass
    (:func:`~.round_check.check_round`: the checks the scorekeeper's round form calls, no
    form built). True if saved; anything else leaves the round to the scorekeeper."""
    plan = plan_round(game)
    if plan is None:
        return False
    posted = open_posts(game, plan.double)
    if set(posted) != {s.id for s in game.seats}:
        return False
    scored, _errors = check_round(game, posted_entry(game, plan.double, posted))
    if scored is None:
        return False
    seen = {seat_id: post.revision for seat_id, post in posted.items()}
    try:
        save_round(
            game,
            scored,
            game.version,
            also=lambda rnd: take_posts(game, rnd, scored, seen),
            by_itself=True,
        )
    except Conflict:
        return False
    return True


def switch_auto_save(game: Game, on: bool) -> bool:
    """Switch the game's auto-save setting (kept in the audit trail) and, switched on, save the
    coming round at once if its hands allow (:func:`save_posted_round`). True if it saved."""
    game.auto_save = on
    code = AuditCode.AUTO_SAVE_ON if on else AuditCode.AUTO_SAVE_OFF
    db.session.add(new_entry("setting", code, game=game))
    db.session.commit()
    return on and save_posted_round(load_game(game))


def blocked_unmarked(game: Game, plan: RoundPlan | None) -> bool:
    """With auto-save on, is the coming round (``plan``, as the page showing it planned it:
    no second replay of the game on a phone's poll) waiting only because nobody went out?
    Every seat has posted and no posted hand went out: auto-save never guesses a blocked round
    (RULES.md §7), so the scorekeeper must tick "Nobody went out: the round was blocked" and
    save."""
    if plan is None or not game.auto_save or game.status == GameStatus.FINISHED:
        return False
    posted = open_posts(game, plan.double)
    return set(posted) == {s.id for s in game.seats} and not any(
        p.went_out for p in posted.values()
    )
