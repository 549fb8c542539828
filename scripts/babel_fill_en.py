"""Complete the English catalog: every msgstr is its msgid (English is the source language).

Run by ``make babel-update`` after ``pybabel update``, so the shipped English catalog is always
complete and never carries fuzzy guesses from changed source strings. Other languages are
translated by people and are left alone.

Usage: python scripts/babel_fill_en.py companion/translations/en/LC_MESSAGES/messages.po
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po


def fill(path: Path) -> int:
    """Set msgstr = msgid (and the plural forms) for every message in the catalog at ``path``;
    drop fuzzy flags and obsolete entries. Returns the number of messages."""
    with path.open("rb") as handle:
        catalog = read_po(handle, locale="en")
    catalog.project = "Chicken Foot Companion"
    catalog.header_comment = (
        "# English messages of Chicken Foot Companion (the source language: msgstr = msgid).\n"
        "# Written by `make babel-update` (scripts/babel_fill_en.py); do not edit by hand."
    )
    catalog.obsolete.clear()
    count = 0
    for message in catalog:
        if not message.id:
            continue  # the header
        message.string = message.id  # a tuple (singular, plural) for plural messages
        message.flags.discard("fuzzy")
        count += 1
    with path.open("wb") as handle:
        write_po(handle, catalog, width=100)
    return count


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(f"{arg}: {fill(Path(arg))} messages")
