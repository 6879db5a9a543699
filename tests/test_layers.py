"""Which package may import which: the rules engine imports nothing of the rest, and the game
service (``oudler.tables``) nothing of its HTTP transport (``oudler.web``), so that another
transport can sit beside HTTP without touching the rules of a table."""

from __future__ import annotations

import ast
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
