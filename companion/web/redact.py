"""Capability links: which paths carry a token, and masking those tokens wherever a path is
written down (logs).

A game's edit link ``/g/<edit_token>`` lets anyone who has it change the scores, and its share
link ``/s/<share_token>`` shows the live scoreboard: the token *is* the permission. So a log
line, a proxy cache or a browser cache holding the full path holds the permission too. Every
log that can show a path (gunicorn's access and error logs under ``make run``, the dev server's
request log, the app's own log) goes through :func:`mask_tokens`, and pages under
:data:`SECRET_PREFIXES` are sent ``Cache-Control: no-store``. A link with a token in its query
string (an old ``/checker/?game=<edit token>``) is masked too: :data:`SECRET_PARAMS`.
"""

from __future__ import annotations

import logging
import re

#: the path prefixes of every page that carries a secret: reached by an edit link (``/g/``),
#: a joined phone's page and the join page (``/p/``, ``/j/``: the seat's hand, the join
#: secret), and the passcode pages (a CSRF token, a phone's admit code)
SECRET_PREFIXES = ("/g/", "/p/", "/j/", "/passcode")
#: the one-letter path segments followed by a capability token (edit ``g``, share ``s``, and the
#: share token again in a player's join ``j`` and hand ``p`` pages)
TOKEN_SEGMENTS = ("g", "s", "j", "p")
#: what a masked token is shown as
MASK = "***"

# "/g/<token>" in a path, a URL or a Referer, percent-encoded once or more in a query
# ("%2Fg%2F<token>", "%252Fg%252F<token>", e.g. ?next=), with the letter itself encoded
# ("/%67/<token>": the server decodes it to /g/) or in either case; the token runs to the next
# "/", "?", "#", "%", quote or space.
_PERCENT = "%(?:25)*"  # "%", or "%25..." when encoded again
_SLASH = rf"(?:/|{_PERCENT}2f)"


def _letter(letter: str) -> str:
    """A pattern for ``letter`` as it may appear in a logged path: itself (either case, the
    patterns are case-insensitive) or percent-encoded."""
    return rf"(?:{letter}|{_PERCENT}{ord(letter):x}|{_PERCENT}{ord(letter.upper()):x})"


def _word(word: str) -> str:
    """A pattern for ``word`` with any of its letters percent-encoded (see :func:`_letter`)."""
    return "".join(_letter(letter) for letter in word)


# Paths that still reach the page or carry the token were logged whole: the token itself
# percent-encoded ("/g/%33%30WR..."), a doubled slash ("/g//<token>", redirected), a "./" or a
# ";x" parameter after the letter ("/g/./<token>", "/g;x/<token>"). The lead takes those, and
# the token runs over its own percent-encoded letters, not over an encoded separator.
_TOKEN_IN_PATH = re.compile(
    rf"(?P<lead>{_SLASH}(?:{'|'.join(_letter(s) for s in TOKEN_SEGMENTS)})"
    rf"(?:(?:;|{_PERCENT}3b)[^/\s]*)?(?:{_SLASH}(?:\.|{_PERCENT}2e)?)*{_SLASH})"
    r"(?:[^/?#%\s\"'&;]|%(?!25|2f|3f|23|26|3b|3d|20|22|27)[0-9a-f]{2})+",
    re.IGNORECASE,
)


#: query parameters whose value may be a token (old links put the edit token in ``game=``;
#: a game's id there is a number and is kept)
SECRET_PARAMS = ("game", "token")
# a query's separators "?", "&" and ";" (old CGI style), and "=", plain or percent-encoded
_TOKEN_IN_QUERY = re.compile(
    rf"(?P<lead>(?:[?&;]|{_PERCENT}(?:3f|26|3b))(?:{'|'.join(_word(p) for p in SECRET_PARAMS)})"
    rf"(?:=|{_PERCENT}3d))(?![0-9]+(?:[&#\s\"';%]|$))[^&#\s\"';%]+",
    re.IGNORECASE,
)


def mask_tokens(text: str) -> str:
    """``text`` with every capability token in a path or a query replaced by :data:`MASK`
    (``GET /g/AbC.../round`` -> ``GET /g/***/round``); the rest is kept for debugging."""
    masked = _TOKEN_IN_PATH.sub(lambda m: m.group("lead") + MASK, text)
    return _TOKEN_IN_QUERY.sub(lambda m: m.group("lead") + MASK, masked)


def carries_secret(path: str) -> bool:
    """True for a page that carries a secret (:data:`SECRET_PREFIXES`): sent ``no-store``."""
    return path.startswith(SECRET_PREFIXES)


class MaskTokensFilter(logging.Filter):
    """A logging filter that masks capability tokens in a record's message (formatted with its
    arguments) and in its exception text, then lets the record through."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite ``record`` in place; always keep it."""
        message = record.getMessage()
        masked = mask_tokens(message)
        if masked != message:
            record.msg, record.args = masked, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask_tokens(record.exc_text)
        return True


#: loggers that write request paths: the dev server's request log, gunicorn's logs
PATH_LOGGERS = ("werkzeug", "gunicorn.error", "gunicorn.access")


def mask_logs(*loggers: logging.Logger) -> None:
    """Install one :class:`MaskTokensFilter` on ``loggers`` and on :data:`PATH_LOGGERS`
    (idempotent: a logger never gets two)."""
    for logger in (*loggers, *map(logging.getLogger, PATH_LOGGERS)):
        if not any(isinstance(f, MaskTokensFilter) for f in logger.filters):
            logger.addFilter(MaskTokensFilter())
