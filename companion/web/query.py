"""The one module that reads a request's query arguments and posted fields by hand.

No other module touches ``request.args`` or ``request.form`` (tests/test_request_reads.py fails
when one does). A posted form is read by its Flask-WTF form (which binds the post itself); a query
argument is read here, by its type:

* :func:`number` (``?page=3``), :func:`text` (``?v=...``), :func:`optional_text` (``?d=``),
  :func:`texts` (``?missing=9&missing=4``) and :func:`has` (``?picker``): never an error (junk
  reads as "not given");
* :func:`arguments`: the whole query, for a WTForms form fed the query (the history's filters,
  the checker's table) or for carrying it on to another address.

:func:`posted` hands the posted fields to a form that a function below the blueprints builds
(the round form, the checker's question form), so that form binds the post too; :func:`upload`
hands over one posted file (a photo read within its own size bound), :func:`uploads` every one
(an outbox entry's digest).
"""

from __future__ import annotations

from flask import request
from werkzeug.datastructures import FileStorage, MultiDict


def number(name: str, default: int | None = None) -> int | None:
    """The query argument ``name`` as a whole number (``int()`` of it: ``-3`` and `` 7`` read),
    or ``default`` when it is missing or not a number."""
    return request.args.get(name, default, type=int)


def text(name: str, default: str = "") -> str:
    """The query argument ``name`` as sent (the first one), or ``default`` when missing."""
    return request.args.get(name, default)


def optional_text(name: str) -> str | None:
    """The query argument ``name`` as sent, or None when it is not in the address at all (an
    empty ``?d=`` is not the same as no ``d``)."""
    return request.args.get(name)


def texts(name: str) -> list[str]:
    """Every value of the query argument ``name`` (``?missing=9&missing=4``), in order."""
    return request.args.getlist(name)


def has(name: str) -> bool:
    """True when the address names ``name``, with or without a value (``?picker``)."""
    return name in request.args


def arguments() -> MultiDict[str, str]:
    """The whole query (read-only), for a WTForms form fed the query or to carry it on."""
    return request.args


def posted() -> MultiDict[str, str]:
    """The posted fields (read-only), for a form built below the blueprints that is handed its
    form data (a plain ``wtforms.Form`` or a ``FlaskForm`` given ``formdata``)."""
    return request.form


def upload(name: str) -> FileStorage | None:
    """The file posted in the field ``name``, or None (parsing the body reads it: set the
    request's own size bound first)."""
    return request.files.get(name)


def uploads() -> list[tuple[str, FileStorage]]:
    """Every posted file, (field name, file) in the order sent (parsing the body reads it)."""
    return list(request.files.items(multi=True))
