"""The first expert match after an install (issue 19): while the computer players' compiled search
is being built, the table says they are getting ready, with the progress, in the page's language,
and they play meanwhile (real Chromium, real server; the warm-up held at a gate that this test
never opens, see tests/warming_support.py)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from pagedriver import CHROMIUM, TIMEOUT, Table

from oudler.web.app import create_app
from oudler.web.background import serve_in_thread
from warming_support import GATE_ENV, GATED, HELD_PROGRESS, WEST_FIRST_SEED

HELD = {"progress": HELD_PROGRESS}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
]


@pytest.fixture
def server(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv(GATE_ENV, str(tmp_path / "gate"))  # never opened: it stays building
    with serve_in_thread(create_app(database_url, warm_kernel=GATED)) as base:
        # the warmer process has started and reached the gate
        deadline = time.monotonic() + TIMEOUT
        while httpx2.get(f"{base}/api/computer-players").json()["warming"] != HELD:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        yield base


@pytest.mark.parametrize(
    ("locale", "words"),
    [("en-US", "The computer players are getting ready… 25 %"), ("zh-CN", "电脑玩家正在准备… 25%")],
)
def test_the_table_says_the_computer_players_are_getting_ready_and_they_play(
    open_table: Any, locale: str, words: str
) -> None:
    from playwright.sync_api import expect

    table: Table = open_table(locale=locale)
    table.home()
    table.new_match(deals=2, level="expert", seed=WEST_FIRST_SEED)
    line = table.page.locator('#prompt [data-role="warming"]')
    expect(line).to_contain_text(words)
    expect(line.locator("progress")).to_have_attribute("value", "25")
    v = table.settle()  # West's bid, decided while the compiled search is not built
    assert v["status"] == "your_turn" and len(v["observation"]["bids"]) == 1
    assert v["warming"] == HELD
    assert table.page.locator("[data-call]").count() == 1
    assert line.is_visible()  # still getting ready, said beside the person's bid
    assert table.page.locator('[data-bid="pass"]').is_visible()
