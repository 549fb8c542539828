"""Two phones edit a game night's notes at once: the second save silently replaced what the
first had just saved ("Anna brought the cake. Ivan owes 5 euros." was gone). Now the page's
form carries what it was shown (a fingerprint of the place and notes); a save made after
another phone changed them is refused with what is saved now, the typed text stays in the
form, and saving that form again keeps it (on both pages that edit the notes)."""

from __future__ import annotations

import re

import pytest

from companion.extensions import db
from companion.models import GameNight
from tests.web.playkit import text
from tests.web.setup_helpers import start_night

PAGES = {
    "night": ("/nights/{id}", "/nights/{id}"),
    "history": ("/history/nights/{id}", "/history/nights/{id}/notes"),
}


def seen_on(page_html: str) -> str:
    """The fingerprint the page's notes form was shown with."""
    match = re.search(r'name="seen"[^>]*value="([0-9a-f]+)"', page_html) or re.search(
        r'value="([0-9a-f]+)"[^>]*name="seen"', page_html
    )
    assert match, "the notes form carries no 'seen' field"
    return match.group(1)


def save(client, page: str, night_id: int, notes: str, seen: str):
    path = PAGES[page][1].format(id=night_id)
    return client.post(path, data={"place": "Garden", "notes": notes, "seen": seen})


def stored(night_id: int) -> str:
    db.session.expire_all()
    return db.session.get(GameNight, night_id).notes


@pytest.mark.parametrize("page", list(PAGES))
def test_a_save_after_another_phone_saved_is_refused_and_loses_nothing(client, page):
    night_id = start_night(client)
    shown = client.get(PAGES[page][0].format(id=night_id)).get_data(as_text=True)
    phone_a = phone_b = seen_on(shown)  # both phones opened the page before either saved
    first = "Anna brought the cake. Ivan owes 5 euros."
    assert save(client, page, night_id, first, phone_a).status_code == 303
    refused = save(client, page, night_id, "Next time at Jiří's.", phone_b)
    assert refused.status_code in (400, 409, 422)
    assert stored(night_id) == first  # the first phone's notes are kept
    words = text(refused)
    assert "changed on another phone" in words and first in words  # what is saved now
    assert "Next time at Jiří's." in words  # the typed text is kept in the form
    again = save(client, page, night_id, "Next time at Jiří's.", seen_on(refused.text))
    assert again.status_code == 303  # saved once the phone has seen the other's notes
    assert stored(night_id) == "Next time at Jiří's."


@pytest.mark.parametrize("page", list(PAGES))
def test_a_phone_saving_twice_in_a_row_is_not_refused(client, page):
    night_id = start_night(client)
    seen = seen_on(client.get(PAGES[page][0].format(id=night_id)).get_data(as_text=True))
    assert save(client, page, night_id, "first", seen).status_code == 303
    # the same phone taps Save again before the page reloaded (a double tap): same text
    assert save(client, page, night_id, "first", seen).status_code == 303
    seen = seen_on(client.get(PAGES[page][0].format(id=night_id)).get_data(as_text=True))
    assert save(client, page, night_id, "second", seen).status_code == 303
    assert stored(night_id) == "second"


def test_a_refusal_names_the_place_another_phone_saved(client):
    """Phone A changed only the place ("Garden" -> "Bob's flat"); phone B typed notes on the
    old page. B's refusal said 'Saved now: “”' (only the notes, empty): B could not see that
    the place had changed, and saving again put back "Garden" over A's place unseen. (The
    history page edits only the notes: it keeps the place saved now.)"""
    page = "night"
    night_id = start_night(client)
    seen = seen_on(client.get(PAGES[page][0].format(id=night_id)).get_data(as_text=True))
    path = PAGES[page][1].format(id=night_id)
    moved = client.post(path, data={"place": "Bob's flat", "notes": "", "seen": seen})
    assert moved.status_code == 303
    refused = client.post(path, data={"place": "Garden", "notes": "Pizza", "seen": seen})
    assert refused.status_code in (400, 409, 422)
    words = text(refused)
    message = re.search(r"Nothing was saved:.*?replace what is saved", words)
    assert message, words
    message = message.group(0)
    assert "Bob's flat" in message  # the place saved now is named in the message


def test_the_history_page_is_not_refused_when_only_the_place_changed(client):
    """The history page edits only the notes. Phone A moved the night to "Bob's flat" on the
    night page; phone B, on the history page, added to the notes it was shown. B was refused
    ('Saved now: “Cake”', the very notes it had seen), though its save changes nothing A
    typed; now it is saved, and A's place stays."""
    night_id = start_night(client)
    seen = seen_on(client.get(f"/nights/{night_id}").get_data(as_text=True))
    client.post(f"/nights/{night_id}", data={"place": "Garden", "notes": "Cake", "seen": seen})
    shown_b = seen_on(client.get(f"/history/nights/{night_id}").get_data(as_text=True))
    seen = seen_on(client.get(f"/nights/{night_id}").get_data(as_text=True))
    moved = client.post(
        f"/nights/{night_id}", data={"place": "Bob's flat", "notes": "Cake", "seen": seen}
    )
    assert moved.status_code == 303
    added = client.post(
        f"/history/nights/{night_id}/notes",
        data={"notes": "Cake. Ivan owes 5", "seen": shown_b},
    )
    assert added.status_code == 303
    db.session.expire_all()
    night = db.session.get(GameNight, night_id)
    assert (night.place, night.notes) == ("Bob's flat", "Cake. Ivan owes 5")


def test_the_night_page_still_refuses_a_stale_place_over_changed_notes(client):
    """The other way round stays refused: A changed the notes, B changed only the place on a
    page showing the old notes (its save would put the old notes back)."""
    night_id = start_night(client)
    seen = seen_on(client.get(f"/nights/{night_id}").get_data(as_text=True))
    first = client.post(
        f"/nights/{night_id}", data={"place": "Garden", "notes": "Cake", "seen": seen}
    )
    assert first.status_code == 303
    refused = client.post(f"/nights/{night_id}", data={"place": "Park", "notes": "", "seen": seen})
    assert refused.status_code == 409
    assert stored(night_id) == "Cake"
