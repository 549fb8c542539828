"""The native-quality review note per language (issue 13, docs/TRANSLATING.md) agrees with the
glossaries and the catalogs: each term it names for tile, double, spoke, chicken foot, toe,
chicken yard, round and going out is the glossary's word, and the catalog uses it."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from companion.config import LANGUAGES, ROOT

TERMS = ("tile", "double", "spoke", "chicken foot", "toe", "chicken yard", "round", "going out")


def review_table() -> dict[str, dict[str, str]]:
    """language code -> term -> the word the review table of docs/TRANSLATING.md names."""
    readme = (ROOT / "docs" / "TRANSLATING.md").read_text("utf-8")
    header = "| Language | Seed | " + " | ".join(TERMS) + " |"
    assert header in readme, "the review table's header changed"
    rows = readme.split(header, 1)[1].splitlines()[2:]
    table = {}
    for row in rows:
        if not row.startswith("|"):
            break
        cells = [c.strip() for c in row.strip("|").split("|")]
        table[cells[0]] = dict(zip(TERMS, cells[2:], strict=True))
    return table


def test_the_review_table_has_a_row_per_language():
    assert set(review_table()) == set(LANGUAGES) - {"en"}


@pytest.mark.parametrize("code", sorted(set(LANGUAGES) - {"en"}))
def test_the_review_terms_are_the_glossarys_and_the_catalogs(code):
    glossary = (ROOT / "docs" / "glossary" / f"{code}.md").read_text("utf-8")
    with (ROOT / "companion" / "translations" / code / "LC_MESSAGES" / "messages.po").open(
        "rb"
    ) as handle:
        catalog = read_po(handle)
    said = " ".join(
        " ".join(m.string) if isinstance(m.string, tuple) else m.string for m in catalog if m.id
    ).casefold()
    for term, word in review_table()[code].items():
        assert word in glossary, (code, term, word)
        # the catalog inflects words: its stem (all but the last two letters of each word)
        stems = [w[: max(3, len(w) - 2)].casefold() for w in re.findall(r"\w+", word)]
        assert all(stem in said for stem in stems), (code, term, word)
