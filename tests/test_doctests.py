"""Every docstring example in the ``hearts`` package runs, as python-chess runs its own.

The examples are read from the ``.py`` sources, not from the imported objects: the
compiled engine keeps no docstrings, yet its examples must run against it too. Each
runs in a copy of its module's namespace, as :mod:`doctest` would run it.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import re
from pathlib import Path

import pytest

import hearts

PACKAGE = Path(hearts.__file__).parent
PROMPT = re.compile(r"^\s*>>>", re.MULTILINE)


def module_name(path: Path) -> str:
    """The dotted name of the module at ``path`` inside the package."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def docstrings(source: str) -> list[tuple[str, int, str]]:
    """``(qualified name, line, docstring)`` for the module, every class and every function
    in ``source``; the line is where the docstring starts (1-based)."""
    found: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                add(child, name)
                visit(child, f"{name}.")

    def add(node: ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef,
            name: str) -> None:
        text = ast.get_docstring(node, clean=False)
        if text is not None:
            found.append((name, node.body[0].lineno, text))

    tree = ast.parse(source)
    add(tree, "")
    visit(tree, "")
    return found


def examples_of(path: Path) -> list[doctest.DocTest]:
    """The doctests of the module at ``path``, named and numbered by its source lines;
    each gets a fresh copy of the imported module's namespace."""
    name = module_name(path)
    found = [doctest.DocTestParser().get_doctest(
        text, {}, f"{name}.{qualname}".rstrip("."), str(path), line - 1)
        for qualname, line, text in docstrings(path.read_text(encoding="utf-8"))]
    return [test for test in found if test.examples]


SOURCES = sorted(path for path in PACKAGE.rglob("*.py")
                 if PROMPT.search(path.read_text(encoding="utf-8")))


def test_the_package_has_docstring_examples() -> None:
    assert SOURCES, f"no '>>>' example anywhere under {PACKAGE}: the doctest run would pass empty"
    assert sum(len(t.examples) for path in SOURCES for t in examples_of(path)) > 0


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: module_name(path))
def test_docstring_examples_run(path: Path) -> None:
    tests = examples_of(path)
    prompts = len(PROMPT.findall(path.read_text(encoding="utf-8")))
    found = sum(len(test.examples) for test in tests)
    assert found == prompts, (
        f"{path}: {prompts} '>>>' lines but {found} examples in docstrings; "
        "an example outside a docstring never runs")
    namespace = vars(importlib.import_module(module_name(path)))
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        test.globs = dict(namespace)
        runner.run(test, out=report.append)
        test.globs.clear()
    assert not runner.failures, (
        f"{runner.failures} docstring example(s) of {module_name(path)} failed:\n"
        + "".join(report))
