"""A game night's notes are edited on two pages (the night page and its history page): one
limit (models.NOTES_MAX, also the import's) and one cleaning for both (issue 9, finding 8)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.extensions import db
from companion.models import NOTES_MAX, PLACE_MAX, GameNight
from companion.services.exchange import export as exchange
from companion.services.exchange import importing as exchange_import
from tests.web.setup_helpers import start_night

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"
TYPED = "  Ann won twice  \r\n\r\n\r\n\r\n  cake\t  "


def _post(client, page: str, night_id: int, notes: str):
    if page == "night":
        return client.post(f"/nights/{night_id}", data={"place": "", "notes": notes})
    return client.post(f"/history/nights/{night_id}/notes", data={"notes": notes})


@pytest.mark.parametrize("page", ["night", "history"])
def test_both_pages_keep_the_same_notes_up_to_the_one_limit(client, page):
    night_id = start_night(client)
    assert _post(client, page, night_id, "n" * NOTES_MAX).status_code == 303
    assert db.session.get(GameNight, night_id).notes == "n" * NOTES_MAX
    refused = _post(client, page, night_id, "m" * (NOTES_MAX + 1))
    assert refused.status_code in (200, 400)
    assert f"Notes have at most {NOTES_MAX} characters." in refused.text
    db.session.expire_all()
    assert db.session.get(GameNight, night_id).notes == "n" * NOTES_MAX


def test_both_pages_clean_notes_alike(client):
    stored = []
    for page in ("night", "history"):
        night_id = start_night(client)
        assert _post(client, page, night_id, TYPED).status_code == 303
        stored.append(db.session.get(GameNight, night_id).notes)
    assert stored[0] == stored[1]


def test_the_import_has_the_same_limit(client):
    night_id = start_night(client)
    doc = exchange.export_document(db.session(), night_id=night_id)
    for notes, ok in (("n" * NOTES_MAX, True), ("m" * (NOTES_MAX + 1), False)):
        doc["nights"][0]["notes"] = notes
        report = exchange_import.import_document(db.session(), json.dumps(doc))
        assert report.ok is ok, report.problems


@pytest.mark.parametrize("page", ["night", "history"])
def test_both_pages_count_the_limit_on_the_kept_text(client, page):
    """Blank lines around notes of exactly the limit are not part of them, on either page (the
    history page's own field used to count them and refuse the notes)."""
    night_id = start_night(client)
    assert _post(client, page, night_id, "\r\n " + "n" * NOTES_MAX + " \r\n\r\n").status_code == 303
    assert db.session.get(GameNight, night_id).notes == "n" * NOTES_MAX


@pytest.mark.parametrize("page", ["/nights/{id}", "/history/nights/{id}"])
def test_both_pages_tell_the_phone_the_column_limits(client, page):
    night_id = start_night(client)
    html = client.get(page.format(id=night_id)).text
    assert re.search(rf'<textarea[^>]*maxlength="{NOTES_MAX}"[^>]*name="notes"', html)
    if page == "/nights/{id}":
        assert re.search(rf'<input[^>]*maxlength="{PLACE_MAX}"[^>]*name="place"', html)


def test_no_template_spells_a_column_limit():
    """The inputs' maxlength comes from the form fields (models.NAME_MAX, PLACE_MAX, NOTES_MAX
    and the search box's SEARCH_MAX), never a number typed into a template."""
    found = [
        f"{path.relative_to(TEMPLATES)}: {match.group(0)}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for match in re.finditer(r"maxlength\s*=\s*\d+", path.read_text(encoding="utf-8"))
    ]
    assert found == []
