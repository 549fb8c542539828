"""Static files under versioned URLs, cached for a year, compressed once.

``url_for('static', filename=...)`` — the one helper the templates use — adds ``?v=<digest>``,
the first 12 hex digits of the file's SHA-256, so a changed file gets a new URL. The static
view answers a request carrying the current digest with ``Cache-Control: public,
max-age=31536000, immutable`` (a year, no ETag: it is never asked again) and anything else
(no digest, an old one) with ``no-cache`` and an ETag, so a phone never keeps a stale
script. Text files are compressed (Brotli, else gzip, as the browser accepts) once per file
version and process, not per request; the compressed bytes are a pure function of the file,
so every app server sends the same.
Scripts and style sheets are minified first (rjsmin, rcssmin: the sources keep their comments,
which made a third of a first visit's bytes; issue 26: at most 30 KB a page).
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import threading
from pathlib import Path

import brotli
import rcssmin
import rjsmin
from flask import Flask, Response, abort, request
from werkzeug.security import safe_join
from werkzeug.wrappers import Response as WerkzeugResponse

from . import query

#: a year, in seconds: what a versioned URL may be cached for
YEAR = 365 * 24 * 3600
#: types worth compressing (images other than SVG are compressed already)
COMPRESSIBLE = ("text/", "application/javascript", "image/svg+xml", "application/json")
#: files below this many bytes are sent as they are
MIN_COMPRESS = 512

_Key = tuple[str, int, int]  # file path, mtime in ns, size in bytes


class Assets:
    """Digests and compressed copies of the files under ``root`` (memoised per file version:
    a file edited on disk gets a new digest without a restart)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._digests: dict[_Key, str] = {}
        self._bodies: dict[tuple[_Key, str], bytes] = {}

    def path(self, filename: str) -> Path | None:
        """The file for ``filename`` inside the root, or None (missing, or outside it)."""
        joined = safe_join(str(self.root), filename)
        if joined is None:
            return None
        path = Path(joined)
        return path if path.is_file() else None

    @staticmethod
    def _key(path: Path) -> _Key:
        stat = path.stat()
        return (str(path), stat.st_mtime_ns, stat.st_size)

    def digest(self, filename: str) -> str | None:
        """The file's version: 12 hex digits of its SHA-256, or None when it does not exist."""
        path = self.path(filename)
        if path is None:
            return None
        key = self._key(path)
        found = self._digests.get(key)
        if found is None:
            found = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
            with self._lock:
                self._digests[key] = found
        return found

    def body(self, path: Path, encoding: str) -> bytes:
        """The file's bytes in ``encoding`` (``br``, ``gzip`` or ``identity``), compressed once
        per file version."""
        key = (self._key(path), encoding)
        found = self._bodies.get(key)
        if found is None:
            raw = minified(path)
            if encoding == "br":
                found = brotli.compress(raw, quality=11)
            elif encoding == "gzip":
                found = gzip.compress(raw, compresslevel=9, mtime=0)
            else:
                found = raw
            with self._lock:
                self._bodies[key] = found
        return found


#: file suffix -> its minifier (text in, text out)
MINIFIERS = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}


def minified(path: Path) -> bytes:
    """The file's bytes, without comments and spare white space when it is a script or a
    style sheet (vendored files are minified already and pass unchanged)."""
    raw = path.read_bytes()
    minify = MINIFIERS.get(path.suffix)
    if minify is None or path.name.endswith(".min.js"):
        return raw
    return minify(raw.decode("utf-8")).encode("utf-8")


def _compressible(path: Path, mimetype: str) -> bool:
    """Whether the file is ever sent compressed (a property of the file, not of a request)."""
    return path.stat().st_size >= MIN_COMPRESS and mimetype.startswith(COMPRESSIBLE)


def _encoding(compressible: bool) -> str:
    """The encoding this request gets: ``identity`` for a file never compressed, else the best
    the browser accepts."""
    if not compressible:
        return "identity"
    accepted = request.accept_encodings
    if accepted["br"]:
        return "br"
    return "gzip" if accepted["gzip"] else "identity"


def init_assets(app: Flask) -> None:
    """Version ``url_for('static', ...)`` and replace the static view (see the module doc)."""
    assets = Assets(Path(app.static_folder or "static"))
    app.extensions["assets"] = assets

    @app.url_defaults
    def _version(endpoint: str, values: dict[str, object]) -> None:
        if endpoint == "static" and "v" not in values:
            digest = assets.digest(str(values.get("filename", "")))
            if digest is not None:
                values["v"] = digest

    def serve(filename: str) -> WerkzeugResponse:
        path = assets.path(filename)
        if path is None:
            abort(404)
        digest = assets.digest(filename)
        mimetype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        compressible = _compressible(path, mimetype)  # one stat of the file per request
        encoding = _encoding(compressible)
        response = Response(assets.body(path, encoding), mimetype=mimetype)
        if encoding != "identity":
            response.headers["Content-Encoding"] = encoding
        if compressible:
            response.vary.add("Accept-Encoding")
        if query.optional_text("v") == digest:
            # kept a year and never asked again: no ETag (its ~26 bytes on each of a first
            # visit's dozen answers counted against the 30 KB, issue 26)
            response.cache_control.public = True
            response.cache_control.max_age = YEAR
            response.cache_control.immutable = True
            return response
        # an unversioned or outdated URL: asked again each time, cheap with the ETag (one
        # representation whatever the browser accepts when not compressible: a plain one)
        response.set_etag(f"{digest}-{encoding}" if compressible else digest or "")
        response.cache_control.no_cache = True
        return response.make_conditional(request)

    app.view_functions["static"] = serve
