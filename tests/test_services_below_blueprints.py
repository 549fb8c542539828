"""Shared code sits below the blueprints: nothing in companion/services/ nor the htmx helper
imports a blueprint (games, table, checker, history, api), and no blueprint imports the
gunicorn launcher (companion/serve.py imports wsgi, i.e. the whole app)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

COMPANION = Path(__file__).resolve().parents[1] / "companion"
BLUEPRINTS = ("games", "table", "checker", "history", "api")


def imported_modules(path: Path) -> set[str]:
    """Absolute module names ``path`` imports (relative imports resolved), top level or not."""
    package = ["companion", *path.relative_to(COMPANION).parent.parts]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def below_blueprints() -> list[Path]:
    return [*sorted((COMPANION / "services").glob("*.py")), COMPANION / "htmx.py"]


@pytest.mark.parametrize("path", below_blueprints(), ids=lambda p: p.name)
def test_shared_code_imports_no_blueprint(path: Path) -> None:
    bad = {
        m
        for m in imported_modules(path)
        if any(m == f"companion.{b}" or m.startswith(f"companion.{b}.") for b in BLUEPRINTS)
    }
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_no_blueprint_imports_the_launcher() -> None:
    for blueprint in BLUEPRINTS:
        for path in (
            (COMPANION / blueprint).glob("*.py") if (COMPANION / blueprint).is_dir() else []
        ):
            assert "companion.serve" not in imported_modules(path), path


def test_the_check_resolves_relative_imports() -> None:
    """The import reader resolves relative imports (``from .round_plan import …``), so the
    tests above can fail."""
    here = COMPANION / "services" / "table.py"
    names = imported_modules(here)
    assert "companion.services.round_plan" in names
    assert "companion.models" in names
