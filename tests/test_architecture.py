"""The shape of the code (issue 9, finding 6): blueprints never import each other, and the
engine imports nothing of the web layer. The import graph of ``companion.*`` is built from the
source with :mod:`ast` (every import, also one inside a function), so a cycle dodged with a
function-level import is found too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"
#: the blueprint packages: each may use everything below it, never another blueprint
BLUEPRINTS = ("games", "table", "checker", "history", "api")


def module_name(path: Path, package: Path = PACKAGE) -> str:
    """``companion/games/views.py`` -> ``companion.games.views`` (a package is its __init__)."""
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, package: Path = PACKAGE) -> set[str]:
    """Every ``companion.*`` module ``path`` imports, relative imports resolved."""
    name = module_name(path, package)
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - (node.level - 1)] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            found.add(module)
            # "from . import views" imports the module companion.<here>.views
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return {m for m in found if m.split(".")[0] == package.name}


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """module -> the companion modules it imports."""
    return {module_name(p, package): imported_modules(p, package) for p in package.rglob("*.py")}


def blueprint_of(module: str) -> str | None:
    """The blueprint package a module belongs to, or None below/beside the blueprints."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in BLUEPRINTS else None


def crossings(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(importer, imported) pairs where one blueprint imports another."""
    return sorted(
        (source, target)
        for source, targets in graph.items()
        for target in targets
        if blueprint_of(source) and blueprint_of(target) not in (None, blueprint_of(source))
    )


def test_no_blueprint_imports_another() -> None:
    assert crossings(import_graph()) == []


def test_the_engine_imports_nothing_of_the_web_layer() -> None:
    graph = import_graph()
    engine = {m: t for m, t in graph.items() if m.startswith("companion.engine")}
    assert engine, "the engine's modules were not found"
    outside = {(m, t) for m, targets in engine.items() for t in targets}
    assert {(m, t) for m, t in outside if not t.startswith("companion.engine")} == set()


@pytest.mark.parametrize(
    "source",
    [
        "from ..games.board import build_board\n",
        "def f():\n    from ..games import access\n",
        "import companion.games.rounds\n",
        "from .. import games\n",
    ],
    ids=["relative", "inside a function", "absolute", "package"],
)
def test_the_graph_check_would_notice(tmp_path: Path, source: str) -> None:
    package = tmp_path / "companion"
    for sub in ("games", "history"):
        (package / sub).mkdir(parents=True)
        (package / sub / "__init__.py").write_text("")
    (package / "history" / "views.py").write_text(source)
    found = crossings(import_graph(package))
    assert [(s, t.split(".")[1]) for s, t in found][:1] == [("companion.history.views", "games")]


def test_imports_below_the_blueprints_are_allowed(tmp_path: Path) -> None:
    package = tmp_path / "companion"
    (package / "history").mkdir(parents=True)
    (package / "history" / "views.py").write_text(
        "from ..services.scoreboard import build_board\nfrom . import queries\n"
    )
    assert crossings(import_graph(package)) == []


def private_blueprint_imports(source: str) -> list[str]:
    """``module.name`` for every private name (``_x``) a test's ``source`` imports from a
    blueprint's routes (``companion.<blueprint>`` or its ``views``): such a test is tied to the
    routes' insides, not to what they do."""
    routes = {f"companion.{b}" for b in BLUEPRINTS} | {f"companion.{b}.views" for b in BLUEPRINTS}
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module in routes:
            module = node.module or ""
            found += [
                f"{module}.{a.name}" for a in node.names if a.name.startswith("_") and a.name != "*"
            ]
    return found


def test_no_test_imports_a_private_name_of_a_blueprint() -> None:
    """A test that needs a blueprint's work uses a service function or drives the route."""
    tests = ROOT / "tests"
    found = {
        str(path.relative_to(ROOT)): names
        for path in sorted(tests.rglob("*.py"))
        if (names := private_blueprint_imports(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_private_import_check_would_notice() -> None:
    source = "from companion.table.views import _record_handover as record\n"
    assert private_blueprint_imports(source) == ["companion.table.views._record_handover"]
    assert private_blueprint_imports("from companion.services.x import _y\n") == []
