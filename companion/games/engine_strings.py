"""The engine's player-facing texts (house-rule summaries, choice meanings, preset titles) for
the translation catalog.

The engine is pure and knows nothing of Flask-Babel, so its texts are plain English strings.
:func:`extract` is a Babel extraction method (see ``babel.cfg``) that lists them from the engine's
tables, so ``make babel-extract`` puts them in the catalog; the web layer translates them at
render time with :func:`translated` (``lazy_gettext`` of the engine's text).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from flask_babel import lazy_gettext

from ..engine import PRESET_TITLES, SWITCHES


def engine_texts() -> list[str]:
    """Every switch summary, choice meaning and preset title, in table order, without repeats."""
    texts: list[str] = []
    for switch in SWITCHES:
        texts.append(switch.summary)
        texts.extend(choice.meaning for choice in switch.choices)
    texts.extend(PRESET_TITLES.values())
    return list(dict.fromkeys(t for t in texts if t))


def translated(text: str) -> Any:
    """``text`` (one of :func:`engine_texts`) translated lazily for the request's locale."""
    return lazy_gettext(text)


def extract(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extraction method: the engine's texts, located at their line in ``fileobj``
    (``companion/engine/rules.py``); texts not found there are listed at line 1."""
    source = fileobj.read().decode("utf-8")
    for text in engine_texts():
        head = text[:40]
        index = source.find(head)
        line = source.count("\n", 0, index) + 1 if index >= 0 else 1
        yield line, "gettext", text, ["engine: house-rule text (companion/engine/rules.py)"]
