"""What a phone is told of a hand it kept (tester findings on hands kept on a phone): a hand
that was "I went out" is not "What you typed" (nothing was typed), in all six languages; a
hand waiting for its seat names the scorekeeper's very button and what to do after it."""

from __future__ import annotations

import html
import re

import pytest
from flask_babel import force_locale, gettext, refresh

from companion.table.views import remove_phone_label
from tests.web.playkit import round_post, text
from tests.web.table.test_table import post, table  # noqa: F401 (the fixture)

LANGS = ["en", "de", "ru", "cs", "lt", "es"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_went_out_hand_for_a_saved_round_is_not_said_as_typed(app, client, table, lang):  # noqa: F811
    """Bob's "I went out" reaches the server after the scorekeeper saved the round: the
    answer shows it beside the saved round. It said "What you typed: went out" over a hand
    with nothing typed; it says what the phone sent."""
    game, phone = table
    bob = phone("Bob")
    assert bob.post("/language", data={"lang": lang, "next": "/"}).status_code == 303
    client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 14, "Cy": 3}, out="Ann"),
    )
    refresh()  # (the test's app context keeps the first request's language)
    r = post(bob, game, went_out="y")
    assert r.status_code == 409
    words = text(r)
    with app.test_request_context(), force_locale(lang):
        sent, typed = gettext("This phone sent:"), gettext("What you typed:")
        out = gettext("went out")
    assert f"{sent} {out}" in words
    assert typed not in words
    # a typed total is still what was typed
    r = post(bob, game, total="20")
    assert r.status_code == 409 and f"{typed} 20" in text(r)


def test_a_hand_waiting_for_its_seat_names_the_scorekeepers_button_and_what_follows(app, table):  # noqa: F811
    """A hand kept for a seat this phone does not hold said "ask the scorekeeper to free it
    first": no such button, and nothing of the new QR code that freeing makes. It names the
    button by its label and says to scan the new QR code and tap the name, as the join page."""
    game, phone = table
    page = phone("Bob").get(f"/p/{game.share_token}").text  # (the words its form carries)
    found = re.search(r'data-outbox-wait="([^"]*)"', page)
    assert found
    words = html.unescape(found.group(1))
    with app.test_request_context():
        assert f"ask the scorekeeper to tap “{remove_phone_label()}” beside Bob" in words
    assert "then scan the new QR code and tap Bob. It is sent by itself then." in words
    assert "free it first" not in words
