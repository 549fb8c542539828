"""Flask-Babel: the English catalog is complete and used; dates and numbers follow the locale."""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po

from companion.config import ROOT
from tests.web.setup_helpers import start_night

CATALOG = ROOT / "companion" / "translations" / "en" / "LC_MESSAGES" / "messages.po"


def test_english_catalog_is_complete():
    with Path(CATALOG).open("rb") as handle:
        catalog = read_po(handle)
    messages = [m for m in catalog if m.id]
    assert len(messages) > 100
    assert all(m.string for m in messages), [m.id for m in messages if not m.string][:5]
    assert not [m.id for m in messages if m.fuzzy]
    ids = {m.id for m in messages}
    # form labels (lazy_gettext) and template strings are both extracted
    assert {"Start the game night", "Start a game night", "Share this game"} <= ids


def test_pages_follow_the_accept_language_locale(client):
    night_id = start_night(client, "2026-11-28")
    page = client.get(f"/nights/{night_id}", headers={"Accept-Language": "en-GB,en;q=0.8"})
    assert page.status_code == 200
    assert '<html lang="en' in page.text
    assert "Saturday, November 28, 2026" in page.text
