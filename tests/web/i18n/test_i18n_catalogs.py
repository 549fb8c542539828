"""The shipped catalogs are complete (issue 13): every language of LANGUAGES has a catalog and a
glossary, no catalog is on disk without being offered, and no message is untranslated, fuzzy,
missing a plural form or mismatching its placeholders (Babel's own checkers).

These pass once the translators' catalogs (ru, lt, cs, es, de) are merged.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.checkers import python_format
from babel.messages.pofile import read_po

from companion.config import LANGUAGES, ROOT

TRANSLATIONS = ROOT / "companion" / "translations"
GLOSSARIES = ROOT / "docs" / "glossary"
TRANSLATED = [code for code in LANGUAGES if code != "en"]


def _catalog(code: str):
    with (TRANSLATIONS / code / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=code)


def test_languages_and_the_catalogs_on_disk_agree():
    on_disk = {p.parent.parent.name for p in TRANSLATIONS.glob("*/LC_MESSAGES/messages.po")}
    assert on_disk == set(LANGUAGES)


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_language_has_a_glossary(code):
    assert (GLOSSARIES / f"{code}.md").is_file()


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_catalog_is_complete_and_consistent(code):
    catalog = _catalog(code)
    template_ids = {m.id for m in _template() if m.id}
    problems = []
    for message in catalog:
        if not message.id:
            continue
        label = message.id if isinstance(message.id, str) else message.id[0]
        strings = message.string if isinstance(message.string, tuple | list) else [message.string]
        if message.fuzzy:
            problems.append(f"fuzzy: {label}")
        if not all(strings):
            problems.append(f"untranslated: {label}")
        if isinstance(message.id, tuple | list) and len(strings) != catalog.num_plurals:
            problems.append(f"{len(strings)} plural forms, not {catalog.num_plurals}: {label}")
        if message.python_format and all(strings):
            try:
                python_format(catalog, message)
            except Exception as exc:  # TranslationError: placeholders that do not match
                problems.append(f"placeholders: {label}: {exc}")
    missing = template_ids - {m.id for m in catalog if m.id}
    problems.extend(
        f"missing: {m if isinstance(m, str) else m[0]}" for m in sorted(map(str, missing))
    )
    assert problems == [], f"{code}: {len(problems)} problems, e.g. {problems[:10]}"


def _template():
    with Path(TRANSLATIONS / "messages.pot").open("rb") as handle:
        return read_po(handle)


# A count of points written with an abbreviation ("5 очк.") dodges the language's plural forms
# ("1 очко / 2 очка / 5 очков"): a message says it with ngettext, or puts the count after the
# word ("Очков: 5", "in all 12") so that no noun has to agree with it.
ABBREVIATED_POINTS = {"ru": "очк.", "lt": "tšk.", "cs": " b."}


@pytest.mark.parametrize("code", sorted(ABBREVIATED_POINTS))
def test_no_count_of_points_is_abbreviated(code):
    abbreviated = ABBREVIATED_POINTS[code]
    found = [
        message.id
        for message in _catalog(code)
        if message.id and any(abbreviated in text for text in _texts(message.string))
    ]
    assert found == []


def _texts(string: str | tuple[str, ...]) -> tuple[str, ...]:
    return string if isinstance(string, tuple) else (string,)
