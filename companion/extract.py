"""Babel extraction methods for the engine's English texts (see ``babel.cfg``).

The engine is pure Python and knows nothing of Flask-Babel, so its player-facing texts are
plain English: the house-rule texts of its rule tables (:mod:`companion.games.engine_strings`)
and the message templates of its errors (``SomethingError(code, "template %(x)s", ...,
params=...)``). These methods list them for ``make babel-extract``; the web layer translates
them at render time (:func:`companion.words.error_words`).
"""

from __future__ import annotations

import ast
import io
from collections.abc import Iterator
from typing import IO, Any

Extracted = tuple[int, str, str, list[str]]


def error_templates(source: str) -> Iterator[tuple[int, str]]:
    """``(line, template)`` of every ``...Error(code, "literal template", ...)`` call in a
    module's source, in source order."""
    calls = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id.endswith("Error")
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    ]
    for node in sorted(calls, key=lambda n: n.lineno):
        yield node.lineno, str(node.args[1].value)  # type: ignore[attr-defined]


def engine_errors(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[Extracted]:
    """Babel extraction method: the error templates of one engine module."""
    for line, template in error_templates(fileobj.read().decode("utf-8")):
        yield line, "gettext", template, ["engine: an error the player may read"]


def engine_rules(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[Extracted]:
    """Babel extraction method for ``companion/engine/rules.py``: its house-rule texts, then
    its error templates."""
    from .games.engine_strings import extract

    data = fileobj.read()
    yield from extract(io.BytesIO(data), keywords, comment_tags, options)
    yield from engine_errors(io.BytesIO(data), keywords, comment_tags, options)


def schema_messages(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[Extracted]:
    """Babel extraction method for the import format's JSON Schema: its ``x-messages`` (what
    the import report says about a field), worded by :mod:`companion.services.exchange.shape`."""
    import json

    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "x-messages" and isinstance(value, dict):
                    found.extend(str(v) for v in value.values())
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(fileobj.read().decode("utf-8")))
    for message in dict.fromkeys(found):
        yield 1, "gettext", message, ["import report: a field of a backup file"]
