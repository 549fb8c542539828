"""Shared code sits below the blueprints: nothing in companion/services/ nor the request-level
helpers of companion/web/ imports a blueprint (games, table, checker, history, api); services sit
below companion/web/ too (only the imports listed in SERVICES_STILL_ON_THE_WEB, which issue 23's
item 3 removes, may remain); and no blueprint imports the gunicorn launcher (companion/serve.py
imports wsgi, i.e. the whole app)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

COMPANION = Path(__file__).resolve().parents[1] / "companion"
BLUEPRINTS = ("games", "table", "checker", "history", "api")


def imported_modules(path: Path, source: str | None = None) -> set[str]:
    """Absolute module names ``path`` imports (relative imports resolved), top level or not;
    ``source`` stands in for the file's text (a test's made-up module)."""
    package = ["companion", *path.relative_to(COMPANION).parent.parts]
    found: set[str] = set()
    text = path.read_text(encoding="utf-8") if source is None else source
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


#: service module -> the companion.web modules it still imports (web code left in services/;
#: the list may only shrink: a new import of companion.web from a service fails below)
SERVICES_STILL_ON_THE_WEB = {}

#: Flask's request-level names a service may not import (services take and return plain values)
FLASK_WEB_NAMES = frozenset(
    f"flask.{name}"
    for name in ("request", "session", "render_template", "redirect", "url_for", "flash")
)
#: form libraries a service may not import (forms live with the views, in companion/web/)
FORM_PACKAGES = ("flask_wtf", "wtforms")

#: service module -> the Flask request-level names / form packages it still imports (shrink-only,
#: like SERVICES_STILL_ON_THE_WEB; issue 23's item 3 empties it)
SERVICES_STILL_ON_FLASK = {}


def below_blueprints() -> list[Path]:
    return [
        *sorted((COMPANION / "services").rglob("*.py")),
        *sorted((COMPANION / "web").glob("*.py")),
    ]


def web_modules_imported(path: Path, source: str | None = None) -> set[str]:
    """The companion.web modules ``path`` imports (the package itself counts too)."""
    return {
        m
        for m in imported_modules(path, source)
        if m == "companion.web" or (m.startswith("companion.web.") and m.count(".") == 2)
    }


@pytest.mark.parametrize("path", below_blueprints(), ids=lambda p: p.name)
def test_shared_code_imports_no_blueprint(path: Path) -> None:
    bad = {
        m
        for m in imported_modules(path)
        if any(m == f"companion.{b}" or m.startswith(f"companion.{b}.") for b in BLUEPRINTS)
    }
    assert not bad, f"{path.name} imports {sorted(bad)}"


@pytest.mark.parametrize(
    "path", sorted((COMPANION / "services").rglob("*.py")), ids=lambda p: p.name
)
def test_services_import_nothing_of_the_web_package(path: Path) -> None:
    allowed = SERVICES_STILL_ON_THE_WEB.get(path.name, set())
    assert web_modules_imported(path) <= allowed, f"{path.name} imports companion.web"


def test_the_web_check_would_notice() -> None:
    service = COMPANION / "services" / "made_up_for_the_test.py"
    source = "def f():\n    from ..web.htmx import is_htmx\nfrom ..web import redirects\n"
    assert web_modules_imported(service, source) == {
        "companion.web",
        "companion.web.htmx",
        "companion.web.redirects",
    }


def test_no_blueprint_imports_the_launcher() -> None:
    for blueprint in BLUEPRINTS:
        for path in (
            (COMPANION / blueprint).glob("*.py") if (COMPANION / blueprint).is_dir() else []
        ):
            assert "companion.serve" not in imported_modules(path), path


def test_the_check_resolves_relative_imports() -> None:
    """The import reader resolves relative imports (``from .round_plan import …``), so the
    tests above can fail."""
    here = COMPANION / "services" / "hand_posts.py"
    names = imported_modules(here)
    assert "companion.services.round_plan" in names
    assert "companion.models" in names


def flask_web_imported(path: Path, source: str | None = None) -> set[str]:
    """The Flask request-level names and form packages (top name only) ``path`` imports."""
    found: set[str] = set()
    for m in imported_modules(path, source):
        if m in FLASK_WEB_NAMES:
            found.add(m)
        elif m.split(".")[0] in FORM_PACKAGES:
            found.add(m.split(".")[0])
    return found


@pytest.mark.parametrize(
    "path", sorted((COMPANION / "services").rglob("*.py")), ids=lambda p: p.name
)
def test_services_import_no_request_session_templates_or_forms(path: Path) -> None:
    allowed = SERVICES_STILL_ON_FLASK.get(path.name, set())
    assert flask_web_imported(path) <= allowed, (
        f"{path.name} imports {sorted(flask_web_imported(path) - allowed)}"
    )


def test_the_flask_check_would_notice() -> None:
    service = COMPANION / "services" / "made_up_for_the_test.py"
    source = (
        "from flask import current_app, request, url_for\n"
        "def f():\n    from flask import session, flash\n    import wtforms.validators\n"
        "from flask_wtf import FlaskForm\nfrom flask_babel import gettext\n"
    )
    assert flask_web_imported(service, source) == {
        "flask.request",
        "flask.url_for",
        "flask.session",
        "flask.flash",
        "wtforms",
        "flask_wtf",
    }
