"""Flask-Babel: the English catalog is complete and used; another language needs no template
change; dates follow the locale."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from companion import config
from companion.config import ROOT
from companion.games.engine_strings import engine_texts
from tests.conftest import contextless_app
from tests.web.setup_helpers import start_night

CATALOG = ROOT / "companion" / "translations" / "en" / "LC_MESSAGES" / "messages.po"


def _english() -> list:
    with Path(CATALOG).open("rb") as handle:
        return [m for m in read_po(handle) if m.id]


def test_english_catalog_is_complete():
    messages = _english()
    assert len(messages) > 100
    assert all(m.string for m in messages), [m.id for m in messages if not m.string][:5]
    assert not [m.id for m in messages if m.fuzzy]
    ids = {m.id for m in messages}
    # form labels (lazy_gettext), template strings and the engine's house-rule texts
    assert {"Start the game night", "Start a game night", "Share this game"} <= ids
    assert set(engine_texts()) <= ids


def test_dates_follow_the_locale(client):
    night_id = start_night(client, "2026-11-28")
    page = client.get(f"/nights/{night_id}", headers={"Accept-Language": "en-GB,en;q=0.8"})
    assert page.status_code == 200
    assert '<html lang="en' in page.text
    assert "Saturday, November 28, 2026" in page.text


@pytest.fixture()
def french(tmp_path):
    """An app with a small French catalog (compiled into a temporary translations folder)."""
    catalog = Catalog(locale="fr")
    catalog.add("Start a game night", "Commencer une soirée")
    catalog.add("Six spokes (the double chicken foot).", "Six rayons (double patte de poulet).")
    catalog.add("House rules", "Règles de la maison")
    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "messages.mo").open("wb") as handle:
        write_mo(handle, catalog)

    class French(config.TestConfig):
        LANGUAGES = ["en", "fr"]
        BABEL_TRANSLATION_DIRECTORIES = str(tmp_path)

    yield from contextless_app(French)


def test_another_language_needs_only_a_catalog(french):
    client = french.test_client()
    fr = {"Accept-Language": "fr-FR,fr;q=0.9"}
    home = client.get("/", headers=fr).text
    assert "Commencer une soirée" in home and "Start a game night" not in home
    assert '<html lang="fr' in home
    night_id = start_night(client, "2026-11-28")
    page = client.get(f"/nights/{night_id}/games/new", headers=fr).text
    assert "Six rayons (double patte de poulet)." in page  # an engine text, translated
    assert "Règles de la maison" in page
    assert "samedi 28 novembre 2026" in client.get(f"/nights/{night_id}", headers=fr).text
    assert "Start a game night" in client.get("/").text  # English stays the default
