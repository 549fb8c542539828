"""htmx's version and SRI hash have one home, pyproject.toml's [tool.companion.htmx]: the app's
config (the page's <script> and the CSP) and the fallback fetcher (make vendor) both read it,
and the Makefile repeats neither (issue 9, finding 8)."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import tomllib
from pathlib import Path

import pytest

from companion import config

ROOT = Path(__file__).resolve().parents[1]


def _fetcher():
    spec = importlib.util.spec_from_file_location("fetch_htmx", ROOT / "scripts" / "fetch_htmx.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_config_and_fetcher_read_the_one_pin(monkeypatch):
    pin = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["companion"]["htmx"]
    monkeypatch.delenv("HTMX_VERSION", raising=False)
    monkeypatch.delenv("HTMX_SRI", raising=False)
    assert _fetcher().pinned() == (pin["version"], pin["sri"])
    assert (pin["version"], pin["sri"]) == (config.HTMX_VERSION, config.Config.HTMX_SRI)
    assert f"htmx.org@{pin['version']}/" in config.Config.HTMX_CDN
    makefile = (ROOT / "Makefile").read_text()
    assert pin["version"] not in makefile and pin["sri"] not in makefile


def test_the_local_copy_matches_the_pinned_hash():
    local = ROOT / "static" / "vendor" / "htmx.min.js"
    if not local.exists():
        pytest.skip("no local htmx copy (make vendor could not fetch it)")
    digest = base64.b64encode(hashlib.sha384(local.read_bytes()).digest()).decode()
    assert f"sha384-{digest}" == config.HTMX_SRI
