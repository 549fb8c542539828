"""Merge translation catalogs from several branches message by message, three-way.

Branches that each added or reworded messages conflict line by line in ``messages.po`` (the
source references alone move on every extraction), while message by message they rarely do.
For each language this reads the catalog at the merge base and at every branch, keeps every
translation a branch changed or added (a later branch in the list wins where two changed the
same message), and writes those translations into the catalog of the working tree, which
should already be re-extracted from the merged code (``make babel-update``). Fuzzy guesses
that ``pybabel update`` made are replaced where a branch has the real translation.

    .venv/bin/python scripts/merge_catalogs.py BASE BRANCH [BRANCH ...]

A branch that forked later than ``BASE`` (a fix branch made from an integration branch) is
given with its own fork point as ``BRANCH@FORK``: compared with the older ``BASE`` it would
count the older translations it carries as its own changes and undo newer ones.

Prints, per language, how many translations it set and the messages left untranslated or
fuzzy (which need a translator); exits 1 when any is left.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

LANGUAGES = ("ru", "lt", "cs", "es", "de")
CATALOG = "companion/translations/{lang}/LC_MESSAGES/messages.po"

Key = tuple[str | tuple[str, ...], str | None]
Strings = dict[Key, str | tuple[str, ...]]


def _catalog_at(rev: str, lang: str) -> Catalog | None:
    """The catalog of ``lang`` as committed at ``rev``; None where it does not exist there."""
    shown = subprocess.run(
        ["git", "show", f"{rev}:{CATALOG.format(lang=lang)}"], capture_output=True, check=False
    )
    if shown.returncode != 0:
        return None
    return read_po(io.BytesIO(shown.stdout), locale=lang)


def _strings(catalog: Catalog | None) -> Strings:
    """Translated, non-fuzzy messages of a catalog by (msgid, msgctxt)."""
    if catalog is None:
        return {}
    return {
        (message.id, message.context): message.string
        for message in catalog
        if message.id and message.string and "fuzzy" not in message.flags
    }


def branch_and_base(spec: str, base: str) -> tuple[str, str]:
    """``BRANCH@FORK`` -> (BRANCH, FORK); a plain ``BRANCH`` is compared with ``base``.

    >>> branch_and_base("tablefix@integ~3", "main")
    ('tablefix', 'integ~3')
    >>> branch_and_base("words", "main")
    ('words', 'main')
    """
    branch, _, fork = spec.partition("@")
    return branch, fork or base


def changed_translations(base: str, branches: list[str], lang: str) -> Strings:
    """Every translation some branch added or changed against its base (``base``, or the fork
    point given as ``BRANCH@FORK``); later branches win."""
    merged: Strings = {}
    for spec in branches:
        branch, fork = branch_and_base(spec, base)
        before = _strings(_catalog_at(fork, lang))
        for key, string in _strings(_catalog_at(branch, lang)).items():
            if before.get(key) != string:
                merged[key] = string
    return merged


def _untranslated(message_string: str | tuple[str, ...]) -> bool:
    if isinstance(message_string, tuple):
        return not all(message_string)
    return not message_string


def apply(lang: str, changes: Strings) -> list[str]:
    """Write ``changes`` into the working tree's catalog of ``lang``; return what stays open."""
    path = Path(CATALOG.format(lang=lang))
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    left: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        key = (message.id, message.context)
        if key in changes:
            message.string = changes[key]
            message.flags.discard("fuzzy")
        if "fuzzy" in message.flags or _untranslated(message.string):
            left.append(str(message.id))
    with path.open("wb") as handle:
        write_po(handle, catalog)
    return left


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__)
        return 2
    base, branches = argv[0], argv[1:]
    status = 0
    for lang in LANGUAGES:
        changes = changed_translations(base, branches, lang)
        left = apply(lang, changes)
        print(f"{lang}: {len(changes)} translations from the branches; {len(left)} left")
        for msgid in left:
            print(f"  left: {msgid[:100]!r}")
        status |= bool(left)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
