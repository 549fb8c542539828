"""Static files: versioned URLs cached for a year, compressed once (issue 11)."""

from __future__ import annotations

import gzip
import re

import brotli

from companion.web import assets as assets_module
from companion.web.assets import YEAR, Assets


def css_url(client) -> str:
    page = client.get("/").get_data(as_text=True)
    found = re.search(r'href="(/static/css/app\.css\?v=[0-9a-f]{12})"', page)
    assert found, "the stylesheet link carries the file's digest"
    return found.group(1)


def test_pages_link_static_files_by_content_digest(client):
    page = client.get("/").get_data(as_text=True)
    for link in re.findall(r'(?:href|src)="(/static/[^"]+)"', page):
        assert re.search(r"\?v=[0-9a-f]{12}$", link), link


def test_a_versioned_url_is_cached_for_a_year_and_others_are_revalidated(client):
    versioned = client.get(css_url(client), headers={"Accept-Encoding": "gzip"})
    assert versioned.status_code == 200
    cache = versioned.headers["Cache-Control"]
    assert "immutable" in cache and f"max-age={YEAR}" in cache and "public" in cache
    plain = client.get("/static/css/app.css")
    assert plain.headers["Cache-Control"] == "no-cache"
    old = client.get("/static/css/app.css?v=000000000000")
    assert old.headers["Cache-Control"] == "no-cache"
    again = client.get("/static/css/app.css", headers={"If-None-Match": plain.headers["ETag"]})
    assert again.status_code == 304


def test_a_versioned_answer_carries_no_etag_and_a_revalidated_one_does(client):
    """A versioned URL is kept a year and never asked again, so an ETag there only cost its
    bytes on each of a first visit's answers (issue 26: 30 KB); an unversioned or outdated
    one is revalidated with it."""
    for headers in ({"Accept-Encoding": "br"}, {}):
        assert "ETag" not in client.get(css_url(client), headers=headers).headers
    assert client.get("/static/css/app.css").headers["ETag"]
    assert client.get("/static/css/app.css?v=000000000000").headers["ETag"]


def test_text_files_are_compressed_once_per_version(client, monkeypatch):
    calls = []
    real = brotli.compress
    monkeypatch.setattr(
        assets_module.brotli, "compress", lambda b, **k: calls.append(1) or real(b, **k)
    )
    client.application.extensions["assets"]._bodies.clear()
    url = css_url(client)
    first = client.get(url, headers={"Accept-Encoding": "br, gzip"})
    second = client.get(url, headers={"Accept-Encoding": "br, gzip"})
    assert first.headers["Content-Encoding"] == "br" and calls == [1]
    assert first.data == second.data
    raw = client.get(url).data  # no Accept-Encoding: sent as it is
    assert brotli.decompress(first.data) == raw
    gz = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert gz.headers["Content-Encoding"] == "gzip" and gzip.decompress(gz.data) == raw
    assert "Accept-Encoding" in gz.headers["Vary"]


def test_a_changed_file_gets_a_new_digest(tmp_path):
    (tmp_path / "a.css").write_text("body { color: red }")
    assets = Assets(tmp_path)
    before = assets.digest("a.css")
    (tmp_path / "a.css").write_text("body { color: blue; margin: 0 }")
    assert assets.digest("a.css") != before
    assert assets.digest("../secret") is None and assets.digest("missing.css") is None


def test_one_visually_hidden_helper():
    """One CSS class hides text from the eye but not from screen readers (issue 9, finding 8):
    `.visually-hidden`, not also a `.vh` copy."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    css = (root / "static" / "css" / "app.css").read_text()
    assert len(re.findall(r"^\.visually-hidden\s*\{", css, re.M)) == 1
    assert not re.search(r"^\.vh\b", css, re.M)
    templates = [p.read_text() for p in (root / "templates").rglob("*.html")]
    assert not any(re.search(r"""class_?=["'][^"']*\bvh\b""", t) for t in templates)


def test_scripts_and_style_sheets_are_sent_minified(client, tmp_path):
    """Comments stay in the sources, not in what a phone downloads (issue 26); every script
    still parses (checked with Node when the machine has it)."""
    import shutil
    import subprocess

    from companion.config import ROOT

    static = ROOT / "static"
    for path in [*sorted((static / "js").glob("*.js")), static / "css" / "app.css"]:
        url = f"/static/{path.relative_to(static).as_posix()}"
        sent = client.get(url).data
        source = path.read_bytes()
        assert len(sent) < 0.8 * len(source), url
        assert b"\n//" not in sent and b"/* " not in sent, url
        if path.suffix == ".js" and shutil.which("node"):
            copy = tmp_path / path.name
            copy.write_bytes(sent)
            subprocess.run(["node", "--check", str(copy)], check=True)
    vendored = static / "vendor" / "htmx.min.js"
    if vendored.exists():  # minified already: sent as it is
        assert client.get("/static/vendor/htmx.min.js").data == vendored.read_bytes()
