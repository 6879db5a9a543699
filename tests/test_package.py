"""The package's version, changelog and metadata agree. (Building the wheel and the sdist, and
serving from a fresh venv with only the wheel, is scripts/check_package.py, run by CI.)"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from typer.testing import CliRunner

import oudler
from oudler.cli import app

ROOT = Path(__file__).resolve().parent.parent


def test_oudler_version_prints_the_package_version() -> None:
    out = CliRunner().invoke(app, ["--version"])
    assert out.exit_code == 0
    assert out.output.strip() == f"oudler {oudler.__version__}"


def test_the_changelog_starts_with_this_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    first = re.search(r"^## (\S+)", text, flags=re.M)
    assert first is not None and first.group(1) == oudler.__version__


def test_pyproject_takes_the_version_from_the_package_and_an_spdx_license() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = meta["project"]
    assert "version" in project["dynamic"]
    assert meta["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "oudler.__version__"}
    assert project["license"] == "MIT" and (ROOT / "LICENSE").is_file()
