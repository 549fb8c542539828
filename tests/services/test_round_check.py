"""The round check over plain hand entries (companion.services.round_check.check_round): no form,
no request data. A valid round is scored as the engine scores it; each wrong entry gets the
message the scorekeeper's round form (companion.web.round_form) gives for the same entries,
since the form hands its entries to the same check."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from werkzeug.datastructures import MultiDict

from companion.engine import Tile, TileError, score_hand
from companion.mapping import dominoes_of, rules_of
from companion.services.round_check import (
    HandEntry,
    HandPart,
    RoundEntry,
    check_round,
    hand_field,
    score_bound,
)
from companion.services.round_plan import load_game
from companion.web import round_form as round_form_module
from companion.web.round_form import round_form
from companion.words import error_words
from tests.web.playkit import make_game

DOUBLE = 6


def form_data(entry: RoundEntry) -> dict[str, Any]:
    """The round form's post for the same entries (field names ``total_<seat>`` ...)."""
    data: dict[str, Any] = {"double": str(entry.double)}
    for hand in entry.hands:
        if hand.total:
            data[hand_field(HandPart.TOTAL, hand.seat.id)] = hand.total
        if hand.tiles:
            data[hand_field(HandPart.TILES, hand.seat.id)] = list(hand.tiles)
        if hand.went_out:
            data[hand_field(HandPart.OUT, hand.seat.id)] = "y"
    if entry.blocked:
        data["blocked"] = "y"
    return data


def via_form(game, entry: RoundEntry) -> tuple[Any, list[str]]:
    """The scored round and the messages of the round form posted with ``entry``'s values."""
    form = round_form(game, MultiDict(form_data(entry)), csrf=False)
    return form.validate_round(game, entry.double), form.messages()


@pytest.fixture
def game(app):
    with app.test_request_context():
        yield load_game(make_game())


def test_a_valid_round_scores_as_the_engine_does(game):
    ann, bob, cy = game.seats
    entry = RoundEntry(
        DOUBLE,
        [HandEntry(ann, went_out=True), HandEntry(bob, "12"), HandEntry(cy, tiles=["5-4", "1-0"])],
        starter_seat_id=bob.id,
    )
    scored, messages = check_round(game, entry)
    assert messages == []
    assert scored is not None
    rules, centre = rules_of(game), Tile(DOUBLE, DOUBLE)
    left = score_hand([Tile(5, 4), Tile(1, 0)], rules, round_double=centre).points
    out = score_hand([], rules, went_out=True, round_double=centre).points
    assert [(h.seat_id, h.points) for h in scored.hands] == [
        (ann.id, out),
        (bob.id, 12),
        (cy.id, left),
    ]
    assert (scored.double, scored.starter_seat_id) == (DOUBLE, bob.id)
    assert scored.hands[2].tiles == ["5-4", "1-0"]
    # the form (posted without a starter) scores the same hands
    assert via_form(game, entry)[0] == replace(scored, starter_seat_id=None)


def _wrong_rounds(game) -> dict[str, tuple[RoundEntry, str]]:
    """Each case: the entries and the message (or its beginning) the check must give."""
    ann, bob, cy = game.seats
    bound = score_bound(game, DOUBLE)

    def hands(bob_total: str = "4", cy_tiles: tuple[str, ...] = ("1-0",), out: bool = True):
        return [
            HandEntry(ann, went_out=out),
            HandEntry(bob, bob_total),
            HandEntry(cy, tiles=list(cy_tiles)),
        ]

    two_out = hands()
    two_out[1].went_out = True
    two_out[1].total = ""
    return {
        "bad total": (
            RoundEntry(DOUBLE, hands(bob_total="4x")),
            "Bob: type the points as a whole number (digits only).",
        ),
        "bad tile": (RoundEntry(DOUBLE, hands(cy_tiles=("7-7",))), "Cy: "),
        "two out": (
            RoundEntry(DOUBLE, two_out),
            "Only one player can go out in a round; 2 are marked.",
        ),
        "nobody out, not blocked": (
            RoundEntry(DOUBLE, hands(out=False)),
            "Mark who went out, or that the round was blocked.",
        ),
        "above the bound": (
            RoundEntry(DOUBLE, hands(bob_total=str(bound + 1))),
            f"Bob: {bound + 1} is more than any hand could hold in this game "
            f"(at most {bound} points).",
        ),
    }


@pytest.mark.parametrize(
    "case", ["bad total", "bad tile", "two out", "nobody out, not blocked", "above the bound"]
)
def test_a_wrong_round_gets_the_message_the_form_gives(game, case):
    entry, expected = _wrong_rounds(game)[case]
    scored, messages = check_round(game, entry)
    assert scored is None
    assert messages and messages[0].startswith(expected), messages
    assert via_form(game, entry) == (None, messages)


def test_a_bad_tile_gets_the_engines_words_after_the_player(game):
    entry, _ = _wrong_rounds(game)["bad tile"]
    with pytest.raises(TileError) as refused:
        dominoes_of(game).parse("7-7")  # not a tile of a double-6 set
    assert check_round(game, entry) == (None, [f"Cy: {error_words(refused.value)}"])


def test_a_seat_without_an_entry_is_asked_for_and_a_stranger_is_ignored(game):
    ann, bob, cy = game.seats
    stranger = HandEntry(SimpleNamespace(id=999_999, player=cy.player), "3")  # type: ignore[arg-type]
    entry = RoundEntry(DOUBLE, [HandEntry(ann, went_out=True), HandEntry(bob, "4"), stranger])
    scored, messages = check_round(game, entry)
    assert scored is None
    assert messages == ["Cy: type the points left in hand, or tap the tiles."]


def test_the_form_checks_through_the_plain_function(game, monkeypatch):
    """The round form has no checks of its own: without check_entry it cannot score a round."""
    calls: list[RoundEntry] = []
    real = round_form_module.check_entry

    def spy(entry, rules):
        calls.append(entry)
        return real(entry, rules)

    monkeypatch.setattr(round_form_module, "check_entry", spy)
    ann, bob, cy = game.seats
    entry = RoundEntry(
        DOUBLE, [HandEntry(ann, went_out=True), HandEntry(bob, "4"), HandEntry(cy, "9")]
    )
    scored, _messages = via_form(game, entry)
    assert scored is not None
    assert [(h.seat.id, h.total, h.went_out) for h in calls[0].hands] == [
        (ann.id, "", True),
        (bob.id, "4", False),
        (cy.id, "9", False),
    ]
