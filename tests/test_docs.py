"""The examples of docs/api.md run as doctests: each section in one namespace, in order. The
environments' section needs the rl extra (skipped without it, never in CI)."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from rl_support import need

API = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def sections() -> list[tuple[str, str]]:
    text = API.read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.M)[1:]
    return [(p.splitlines()[0], p) for p in parts]


def test_every_section_has_examples() -> None:
    parser = doctest.DocTestParser()
    for title, body in sections():
        assert parser.get_examples(body), f"section {title!r} of docs/api.md shows no example"


def run_section(body: str, name: str, globs: dict[str, object]) -> None:
    test = doctest.DocTestParser().get_doctest(body, globs, name, str(API), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test, clear_globs=False)
    globs.update(test.globs)  # the next section goes on from here
    failed, attempted = runner.summarize(verbose=False)
    assert attempted and not failed, f"{failed} of {attempted} examples of {name!r} failed"


def test_the_core_bots_and_records_examples_run() -> None:
    globs: dict[str, object] = {}
    for title, body in sections():
        if not title.startswith("The environments"):
            run_section(body, title, globs)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_the_environment_examples_run() -> None:
    need("pettingzoo")
    need("pyspiel")
    globs: dict[str, object] = {}
    for title, body in sections():
        if title.startswith("The core: a deal") or title.startswith("The environments"):
            run_section(body, title, globs)
