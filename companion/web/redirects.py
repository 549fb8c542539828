"""Redirect targets that come from the request (``?next=``, hidden form fields).

A browser reads a ``Location`` header leniently (WHATWG URL parsing): it drops tab, CR and LF
anywhere, strips leading and trailing spaces and C0 controls, and treats ``\\`` like ``/``.
So ``/\\t/evil.example`` becomes ``//evil.example``: another site. :func:`same_site_path`
applies the same normalisation first and only then judges, so only a path on this site is
ever a redirect target. Every redirect to a user-supplied target goes through it.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlsplit

from flask import url_for

#: characters a browser deletes anywhere in a URL before parsing it
_REMOVED_ANYWHERE = re.compile(r"[\t\n\r]")
#: what a browser strips from both ends of a URL (C0 controls and space)
_STRIPPED_AT_ENDS = "".join(chr(c) for c in range(0x21))
#: longest target accepted (paths on this site are short)
TARGET_MAX = 2000


def same_site_path(target: object) -> str | None:
    """``target`` normalised as a browser would, when it is a path on this site; else None.

    The result starts with a single ``/``, has no scheme or host, no backslash and no control
    character, so it is safe in a ``Location`` header and cannot leave the site.
    """
    if not isinstance(target, str) or not target or len(target) > TARGET_MAX:
        return None
    cleaned = _REMOVED_ANYWHERE.sub("", target).strip(_STRIPPED_AT_ENDS).replace("\\", "/")
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in cleaned):
        return None
    if not cleaned.startswith("/") or cleaned.startswith("//"):
        return None
    parts = urlsplit(cleaned)
    if parts.scheme or parts.netloc:
        return None
    return cleaned


def safe_next(target: str | None) -> str:
    """``target`` when it is a path on this site (judged as a browser would read it, see
    :func:`same_site_path`), else the home page: no open redirects."""
    return same_site_path(target) or url_for("games.index")
