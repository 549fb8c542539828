"""The engine's examples are run (issue 23): every module's doctests pass, and every public
function of ``companion.engine`` (its ``__all__``) shows at least one example."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
from types import ModuleType

import pytest

import companion.engine as engine


def modules() -> list[ModuleType]:
    names = [
        info.name
        for info in pkgutil.walk_packages(engine.__path__, prefix="companion.engine.")
        if not info.name.endswith("__main__")
    ]
    return [engine, *(importlib.import_module(name) for name in sorted(names))]


@pytest.mark.parametrize("module", modules(), ids=lambda m: m.__name__)
def test_the_examples_of_each_module_pass(module: ModuleType) -> None:
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert failed == 0, (
        f"{module.__name__}: {failed} example(s) failed (run pytest --doctest-modules)"
    )


def test_every_public_function_shows_an_example() -> None:
    functions = [name for name in engine.__all__ if inspect.isfunction(getattr(engine, name))]
    bare = [name for name in functions if ">>> " not in (getattr(engine, name).__doc__ or "")]
    assert len(functions) > 25
    assert bare == []
