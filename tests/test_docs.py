"""The README stays a short page for people and docs/ holds the depth (issue 23): the README
is at most 250 lines and says early that a plain-HTTP LAN address gets no offline copy; every
link of the README and of docs/ reaches a file; every docs/ file the code cites exists; each
topic file is organised under `## ` headings (several engineers add sections of their own);
every picture under docs/img/ is taken by scripts/screenshots.py."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
README_MAX_LINES = 250
TOPICS = (
    "ARCHITECTURE",
    "TABLE",
    "OFFLINE",
    "DEPLOY",
    "TRANSLATING",
    "PIPS",
    "EXPORT",
    "SECURITY",
    "PERFORMANCE",
)
LINK = re.compile(r"\]\(([^)\s]+)\)")  # a Markdown link or image target
CITED_DOC = re.compile(r"docs/([\w/-]+\.md)")


def markdown_files() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def test_the_readme_is_at_most_250_lines():
    lines = README.read_text("utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, (
        f"README.md has {len(lines)} lines; put depth into a docs/ topic file and link it"
    )


def test_the_readme_says_early_that_plain_http_gets_no_offline_copy():
    lines = README.read_text("utf-8").splitlines()[:40]
    top = " ".join(line.lstrip("> ") for line in lines)
    assert "Plain HTTP" in top and "no service worker" in top and "installed" in top


@pytest.mark.parametrize("page", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_reaches_a_file(page: Path):
    broken = []
    for target in LINK.findall(page.read_text("utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # another site, or a heading of the same page
        path = (page.parent / target.split("#", 1)[0]).resolve()
        if not path.exists():
            broken.append(target)
    assert broken == []


@pytest.mark.parametrize("topic", TOPICS)
def test_each_topic_file_exists_under_second_level_headings(topic: str):
    text = (DOCS / f"{topic}.md").read_text("utf-8")
    assert text.startswith("# ")
    assert re.search(r"^## \S", text, re.MULTILINE)


def test_every_docs_file_the_code_cites_exists():
    missing = []
    for folder in ("companion", "scripts", "benchmarks", "tests"):
        for source in (ROOT / folder).rglob("*.py"):
            for name in CITED_DOC.findall(source.read_text("utf-8")):
                if not (DOCS / name).exists():
                    missing.append(f"{source.relative_to(ROOT)}: docs/{name}")
    assert missing == []


def test_every_picture_is_taken_by_the_screenshot_script():
    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "scripts/screenshots.py")
    assert spec and spec.loader
    script = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = script  # its dataclasses look their module up there
    spec.loader.exec_module(script)
    pictures = {path.stem for path in (DOCS / "img").glob("*.png")}
    assert pictures <= set(script.PICTURES), "a docs/img picture no function of the script takes"
    shown = set(re.findall(r"docs/img/([\w-]+)\.png", README.read_text("utf-8")))
    assert shown <= pictures
