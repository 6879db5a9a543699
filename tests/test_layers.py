"""Which package may import which: the rules engine imports nothing of the rest, and the game
service (``oudler.tables``) nothing of its HTTP transport (``oudler.web``), so that another
transport can sit beside HTTP without touching the rules of a table.

The layers, from the bottom: ``core`` (the rules); ``kernel`` (the compiled search) and
``encoding`` (action ids and observation vectors), each over the core only; ``bots`` (the levels
and their protocol) over those; then, over the levels, ``lab`` (what measures and trains them),
``rl`` (environments whose opponents are bots) and the service (``coach``, ``tables``, ``web``).
No part imports one above it, and no module imports itself back through others: every import
counts, at a module's top, inside a function, under ``TYPE_CHECKING`` (a type is a dependency
too, and the circle it closes is one a reader has to untangle) or as a literal
``importlib.import_module("...")``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

import oudler

PACKAGE = Path(oudler.__file__).parent


def imported_modules(path: Path, root: Path = PACKAGE) -> set[str]:
    """Every module a source file imports, at its top or inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(root.parent).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the file's package
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def offending(
    folder: str, forbidden: tuple[str, ...], root: Path = PACKAGE
) -> dict[str, list[str]]:
    """The files under ``root/folder`` importing a forbidden module, with what they import."""
    out = {}
    for path in sorted((root / folder).rglob("*.py")):
        bad = sorted(
            m
            for m in imported_modules(path, root)
            if any(m == f or m.startswith(f + ".") for f in forbidden)
        )
        if bad:
            out[str(path.relative_to(root))] = bad
    return out


def test_the_game_service_imports_nothing_from_the_web_layer() -> None:
    assert (PACKAGE / "tables" / "games.py").is_file()
    assert offending("tables", ("oudler.web", "fastapi")) == {}


def test_the_rules_engine_imports_nothing_from_the_rest() -> None:
    forbidden = ("oudler.web", "oudler.tables", "oudler.bots", "oudler.kernel", "sqlalchemy")
    assert offending("core", forbidden) == {}


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("from oudler.web.app import create_app", ["oudler.web.app", "oudler.web.app.create_app"]),
        ("import oudler.web", ["oudler.web"]),
        ("from ..web import app", ["oudler.web", "oudler.web.app"]),
        ("def f():\n    from oudler.web import security", ["oudler.web", "oudler.web.security"]),
    ],
)
def test_the_check_sees_an_import_of_the_web_layer(
    tmp_path: Path, source: str, found: list[str]
) -> None:
    # The check itself can fail: a copy of the package with one more file importing the web.
    root = tmp_path / "oudler"
    (root / "tables").mkdir(parents=True)
    (root / "tables" / "probe.py").write_text(source + "\n", encoding="utf-8")
    (root / "tables" / "clean.py").write_text("from oudler.core import Deal\n", encoding="utf-8")
    assert offending("tables", ("oudler.web",), root) == {"tables/probe.py": found}


# ---------------------------------------------------------------------------- the module graph


def module_names(root: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package under ``root`` by its dotted name (a package by its own)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def depends_on(path: Path, known: Iterable[str], root: Path = PACKAGE) -> set[str]:
    """The package's modules a source file imports, wherever the import is: ``from X import a``
    is X.a when that is a module (a submodule), else X (a name of X); a name that is no module is
    read as the nearest enclosing one."""
    names = set(known)

    def nearest(name: str) -> str | None:
        while name and name not in names:
            name = name.rpartition(".")[0]
        return name or None

    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(root.parent).with_suffix("").parts[:-1])
    wanted: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            wanted += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            wanted += [f"{module}.{alias.name}" for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            wanted.append(node.args[0].value)
    return {m for m in map(nearest, wanted) if m is not None}


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module of the package with the package's modules it imports (itself left out)."""
    modules = module_names(root)
    return {
        name: depends_on(path, modules, root) - {name} for name, path in sorted(modules.items())
    }


def path_between(graph: Mapping[str, Iterable[str]], start: str, goal: str) -> list[str] | None:
    """The shortest chain of imports from ``start`` to ``goal``, both included (None: none)."""
    before: dict[str, str | None] = {start: None}
    queue = [start]
    for at in queue:
        for nxt in sorted(graph.get(at, ())):
            if nxt == goal:
                chain, back = [goal], at
                while back is not None:
                    chain.append(back)
                    back = before[back]
                return chain[::-1]
            if nxt not in before:
                before[nxt] = at
                queue.append(nxt)
    return None


def circles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """One circle of imports for each knot of the graph, as ``[a, b, ..., a]``."""
    found: list[list[str]] = []
    seen: set[str] = set()
    for start in sorted(graph):
        if start in seen:
            continue
        chain = path_between(graph, start, start)
        if chain is not None:
            found.append(chain)
            seen.update(chain)
    return found


def test_no_circle_of_imports_in_the_package() -> None:
    found = circles(import_graph())
    assert not found, "circles of imports:\n" + "\n".join(" -> ".join(c) for c in found)


# What each part may import of the others (a part: the first name under oudler). The service
# (coach, tables, web) and the command line sit above every part listed here.
MAY_IMPORT: dict[str, set[str]] = {
    "core": set(),
    "kernel": {"core"},
    "encoding": {"core"},
    "bots": {"core", "kernel", "encoding"},
    "lab": {"core", "kernel", "encoding", "bots"},
    "rl": {"core", "encoding", "bots"},
}


def part(module: str) -> str:
    return module.split(".")[1] if "." in module else module


def test_each_part_imports_only_the_layers_below_it() -> None:
    graph = import_graph()
    assert set(MAY_IMPORT) <= {part(m) for m in graph}
    bad = {
        f"{a} -> {b}"
        for a, deps in graph.items()
        if part(a) in MAY_IMPORT
        for b in deps
        if part(b) != part(a) and part(b) not in MAY_IMPORT[part(a)]
    }
    assert not bad, sorted(bad)


@pytest.mark.parametrize("top", ["lab", "rl"])
def test_nothing_of_the_package_depends_on_the_lab_or_the_environments(top: str) -> None:
    # Only the command line reaches the lab, by name (oudler.cli.COMMAND_MODULES).
    users = sorted(
        f"{a} -> {b}"
        for a, deps in import_graph().items()
        if part(a) != top
        for b in deps
        if part(b) == top
    )
    assert users == []


def test_the_graph_sees_every_kind_of_import_and_the_circles(tmp_path: Path) -> None:
    # A package of its own: a circle through a function's import, one through TYPE_CHECKING and
    # importlib, and submodule imports that close none.
    root = tmp_path / "oudler"
    (root / "p").mkdir(parents=True)
    files = {
        "__init__.py": "",
        "p/__init__.py": "from oudler.p.a import f\n",
        "p/a.py": "def f():\n    from . import b\n",
        "p/b.py": "from oudler.p.c import g\n",
        "p/c.py": "from oudler.p import a\n",
        "p/d.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from oudler.p.e import E\n"
        ),
        "p/e.py": "import importlib\nM = importlib.import_module('oudler.p.d')\n",
        "p/f.py": "import oudler.p.a\nfrom oudler.p import b, c\n",
    }
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    graph = import_graph(root)
    assert graph["oudler.p"] == {"oudler.p.a"}
    assert graph["oudler.p.c"] == {"oudler.p.a"}  # a submodule, not the package
    assert graph["oudler.p.f"] == {"oudler.p.a", "oudler.p.b", "oudler.p.c"}
    assert circles(graph) == [
        ["oudler.p.a", "oudler.p.b", "oudler.p.c", "oudler.p.a"],
        ["oudler.p.d", "oudler.p.e", "oudler.p.d"],
    ]
    graph["oudler.p.c"].discard("oudler.p.a")  # each circle broken: none left
    graph["oudler.p.e"].discard("oudler.p.d")
    assert circles(graph) == []
