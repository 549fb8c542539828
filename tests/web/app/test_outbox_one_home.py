"""The outbox's knowledge has one home, static/js/offline.js: the scripts that list or act on its
entries elsewhere (waiting.js on the join and home pages, kept.js on the table) use its one
exported object, ``window.cfc``, and keep no copy of its storage key or its rules."""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parents[3] / "static" / "js"


def test_waiting_js_keeps_no_copy_of_the_outboxs_rules():
    waiting = (JS / "waiting.js").read_text(encoding="utf-8")
    assert "cfc-outbox" not in waiting  # offline.js's storage key
    for rule in ("seatOf", "load", "draw"):  # (its forget asks first, then calls cfc.forget)
        assert not re.search(rf"function {rule}\b", waiting), rule
    assert "cfc.refused(" in waiting and "cfc.seatOf(" in waiting and "cfc.load()" in waiting


def test_offline_js_exports_one_object_and_no_stray_globals():
    offline = (JS / "offline.js").read_text(encoding="utf-8")
    assert "window.cfc = {" in offline
    for script in JS.glob("*.js"):
        text = script.read_text(encoding="utf-8")
        for old in ("cfcForget", "cfcDraw", "cfcComparison"):
            assert old not in text, (script.name, old)
