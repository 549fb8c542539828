"""Every translation keeps its message's placeholders and ``%`` escapes (issue 26).

A page's words are %-formatted whether or not they carry a placeholder: Jinja's new-style
gettext (flask-babel turns it on) always runs ``msgstr % variables``, so a lone ``%`` in a
translation ("Rate" -> "%") is a server error on every page that shows it, in that language
only. Babel's own checkers (``Catalog.check()``: plural forms, placeholders of messages flagged
``python-format``) do not see that: a message without a placeholder is not flagged, and Babel's
placeholder pattern skips a lone ``%``. So each translation is also formatted as the page
formats it, with the placeholders its message names.
"""

from __future__ import annotations

import pytest
from babel.messages.catalog import PYTHON_FORMAT, Catalog, Message
from babel.messages.pofile import read_po

from companion.config import LANGUAGES, ROOT

TRANSLATIONS = ROOT / "companion" / "translations"


def _catalog(code: str) -> Catalog:
    with (TRANSLATIONS / code / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=code)


def _strings(value: str | tuple[str, ...] | list[str]) -> list[str]:
    return list(value) if isinstance(value, tuple | list) else [value]


def _names(text: str) -> set[str]:
    """The named placeholders of ``text`` (``%(num)s`` -> ``num``); ``%%`` is not one."""
    return {m.group(1) for m in PYTHON_FORMAT.finditer(text) if m.group(1)}


def format_problems(message: Message) -> list[str]:
    """What goes wrong formatting ``message``'s translations as a page does: ``msgstr %
    {placeholders of the msgid: a value}``. A translation must format wherever its message
    does, and name the same placeholders (a plural form may leave the count out: "одно очко")."""
    ids = _strings(message.id)
    names = set().union(*(_names(text) for text in ids))
    values = dict.fromkeys(names, 7)
    problems = []
    for text in ids:
        try:
            text % values
        except (ValueError, KeyError, TypeError):
            return []  # a message that never goes through %-formatting (none today)
    plural = isinstance(message.id, tuple | list)
    for text in _strings(message.string):
        if not text:
            continue  # untranslated: test_i18n_catalogs says so
        try:
            text % values
        except (ValueError, KeyError, TypeError) as exc:
            problems.append(f"{ids[0]!r} -> {text!r}: {type(exc).__name__}: {exc}")
            continue
        kept = _names(text)
        if kept - names or (not plural and kept != names):
            problems.append(f"{ids[0]!r} -> {text!r}: placeholders {sorted(kept)}")
    return problems


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_babels_checkers_find_nothing(code):
    found = [
        f"{message.id!r}: {'; '.join(map(str, errors))}"
        for message, errors in _catalog(code).check()
    ]
    assert found == []


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_every_translation_formats_as_its_message_does(code):
    found = [
        problem for message in _catalog(code) if message.id for problem in format_problems(message)
    ]
    assert found == [], f"{code}: {found[:10]}"


@pytest.mark.parametrize(
    ("msgid", "msgstr", "broken"),
    [
        ("Rate", "%", True),  # the es leaderboard's 500
        ("Rate", "Tasa", False),
        ("50%% of %(name)s", "50 %% de %(name)s", False),
        ("50%% of %(name)s", "50 % de %(name)s", True),  # the escape lost
        ("Points of %(name)s", "Puntos", True),  # the name dropped
        ("Points", "Puntos de %(name)s", True),  # a name the page never gives
    ],
)
def test_the_format_check_can_fail(msgid, msgstr, broken):
    assert bool(format_problems(Message(msgid, msgstr))) is broken
