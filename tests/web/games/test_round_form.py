"""The round form read by WTForms: one HandForm per seat (FieldList of FormField) with the field
names every consumer knows (total_<seat>), checked by the plain round check (check_entry), whose
messages land on the fields they are about."""

from __future__ import annotations

from werkzeug.datastructures import MultiDict

from companion.services.round_check import HandEntry, RoundEntry, check_round
from companion.services.round_plan import load_game
from companion.web.round_form import HandForm, round_form
from tests.web.playkit import make_game, round_post, seat_ids


def _form(app, game, data):
    """A round form bound to ``data`` as a POST, without CSRF (the checks, not the token)."""
    return round_form(game, MultiDict(data), csrf=False)


def test_each_seat_has_a_hand_subform_named_by_its_seat(app):
    with app.test_request_context():
        game = load_game(make_game())
        form = round_form(game, csrf=False)
        hands = form.hand_forms()
        assert [type(h) for h in hands] == [HandForm] * 3
        assert [h.seat.id for h in hands] == [s.id for s in game.seats]
        seat = game.seats[1].id
        hand = form.hand(seat)
        names = [hand.total.name, hand.tiles.name, hand.out.name, hand.seen.name]
        assert names == [f"total_{seat}", f"tiles_{seat}", f"out_{seat}", f"seen_{seat}"]
        assert hand.total.id == f"total_{seat}"
        assert hand.total.label.text == "Bob"


def test_a_posted_round_is_read_into_its_hands_and_scored(app):
    with app.test_request_context():
        game = load_game(make_game())
        ids = seat_ids(game)
        data = round_post(game, 6, totals={"Bob": "12"}, tiles={"Cy": ["5-4", "1-0"]}, out="Ann")
        form = _form(app, game, data)
        scored = form.validate_round(game, 6)
        assert scored is not None, form.messages()
        points = {h.seat_id: (h.points, h.went_out, h.tiles) for h in scored.hands}
        assert points == {
            ids["Ann"]: (0, True, []),
            ids["Bob"]: (12, False, None),
            ids["Cy"]: (10, False, ["5-4", "1-0"]),
        }
        assert form.hand(ids["Bob"]).typed == 12


def test_the_hands_validators_put_the_engines_words_on_their_fields(app):
    with app.test_request_context():
        game = load_game(make_game())
        ids = seat_ids(game)
        data = round_post(game, 6, totals={"Bob": "-3"}, tiles={"Cy": ["7-7", "6-6"]}, out="Ann")
        form = _form(app, game, data)
        assert form.validate_round(game, 6) is None
        assert form.hand(ids["Bob"]).total.errors == ["Bob: a score can't be negative."]
        cy = form.hand(ids["Cy"]).tiles.errors
        assert len(cy) == 2
        assert cy[0].startswith("Cy: ")  # 7-7 is not a tile of a double-6 set
        assert "centre double" in cy[1]  # 6-6 is this round's centre
        assert form.form_errors == []
        assert form.hand(ids["Ann"]).total.errors == []


def test_a_tile_in_two_hands_and_the_round_end_are_checked_across_hands(app):
    with app.test_request_context():
        game = load_game(make_game())
        ids = seat_ids(game)
        data = round_post(game, 6, tiles={"Bob": ["5-4"], "Cy": ["5-4"]})
        form = _form(app, game, data)
        assert form.validate_round(game, 6) is None
        assert form.form_errors == ["Mark who went out, or that the round was blocked."]
        assert form.hand(ids["Bob"]).tiles.errors == []
        assert form.hand(ids["Cy"]).tiles.errors == ["5-4 can't be in both Bob's and Cy's hands."]
        assert form.messages()[0] == form.form_errors[0]


def test_a_field_of_a_seat_not_in_the_game_is_ignored_and_a_missing_hand_is_asked_for(app):
    with app.test_request_context():
        game = load_game(make_game())
        ids = seat_ids(game)
        data = round_post(game, 6, totals={"Bob": "3"}, out="Ann")
        data["total_999999"] = "7"
        form = _form(app, game, data)
        assert form.validate_round(game, 6) is None
        assert [h.seat.id for h in form.hand_forms()] == list(ids.values())
        assert form.hand(ids["Cy"]).total.errors == [
            "Cy: type the points left in hand, or tap the tiles."
        ]


def test_a_round_entered_without_a_page_gets_the_same_checks(app):
    with app.test_request_context():
        game = load_game(make_game())
        ann, bob, cy = game.seats
        entry = RoundEntry(
            double=6,
            hands=[HandEntry(ann, went_out=True), HandEntry(bob, "4"), HandEntry(cy, "x")],
        )
        scored, messages = check_round(game, entry)
        assert scored is None
        assert messages == ["Cy: type the points as a whole number (digits only)."]
        entry.hands[2] = HandEntry(cy, "0")
        scored, messages = check_round(game, entry)
        assert scored is None and "0 points means no tiles left" in messages[0]
        entry.hands[2] = HandEntry(cy, tiles=["1-0"])
        scored, messages = check_round(game, entry)
        assert scored is not None, messages
        assert [h.points for h in scored.hands] == [0, 4, 1]
