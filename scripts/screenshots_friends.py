"""Screenshots of a table with friends for the README, taken by Playwright in Debian's Chromium.

    .venv/bin/python scripts/screenshots_friends.py [--out docs/screenshots] [--lang en|zh|fr]

Starts the real server (uvicorn in a thread, temporary SQLite database), makes a table of four
people through the home page, and saves friends-waiting.png (the creator's page while the table
waits, one friend seated: who is there and the links to send) and friends-table.png (the same
table with four people in play, from North's page: North's own hand at the bottom, everyone's
name, a dot by each saying who is connected (East's page is closed: grey), and West's "Well
played!" by West's seat). In Chinese and French the names end in -zh, -fr.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from oudler.web.app import create_app
from oudler.web.background import serve_in_thread

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "e2e"))
from pagedriver import CHROMIUM, CHROMIUM_ARGS
from pagedriver import person_action as choose

LOCALES = {"en": "en-US", "zh": "zh-CN", "fr": "fr-FR"}
NAMES = {  # the four people's chosen names, by seat
    "en": ("Marc", "Léa", "Sam", "Zoé"),
    "zh": ("小明", "丽丽", "阿强", "美美"),
    "fr": ("Marc", "Léa", "Sam", "Zoé"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="docs/screenshots")
    parser.add_argument("--lang", default="en", choices=sorted(LOCALES))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    suffix = "" if args.lang == "en" else f"-{args.lang}"
    with (
        tempfile.TemporaryDirectory() as folder,
        serve_in_thread(create_app(f"sqlite:///{folder}/shots.sqlite3", computer_pause=0)) as base,
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        options: dict[str, Any] = {
            "viewport": {"width": 1280, "height": 860},
            "locale": LOCALES[args.lang],
        }
        contexts = [browser.new_context(**options) for _ in range(4)]
        for c in contexts:
            # Full speed, and no guided first deal over the table.
            c.add_init_script("localStorage.setItem('oudler.pace', '0')")
            c.add_init_script("localStorage.setItem('oudler.tour', 'off')")
        pages = [c.new_page() for c in contexts]
        me = pages[0]
        me.goto(f"{base}/")
        me.wait_for_selector("#home:not([hidden])")
        form = me.locator('[data-action="new-match"]')
        form.locator('input[name="level"][value="club"]').check()
        form.locator('[data-role="name-input"]').fill(NAMES[args.lang][0])
        for seat in (1, 2, 3):
            form.locator(f'select[name="seat{seat}"]').select_option("person")
        form.locator('[type="submit"]').click()
        me.wait_for_selector('[data-role="invite-link"][data-seat="3"]')
        links = {
            seat: me.locator(f'[data-role="invite-link"][data-seat="{seat}"]').input_value()
            for seat in (1, 2, 3)
        }
        mid = me.get_attribute("#table-view", "data-match")
        # East sits first: the table still waits for North and West.
        for seat in (1, 2, 3):
            page = pages[seat]
            page.goto(links[seat])
            page.locator('[data-role="name-input"]').fill(NAMES[args.lang][seat])
            page.locator('[data-action="sit"]').click()
            page.wait_for_selector("#table-view[data-match]")
            if seat == 1:
                me.wait_for_selector(
                    '[data-role="waiting-seats"] li[data-seat="1"][data-kind="person"]'
                )
                me.screenshot(path=str(out / f"friends-waiting{suffix}.png"))
        # A few decisions in, from North's page.
        acted = 0
        while acted < 9:
            for seat in range(4):
                r = contexts[seat].request.get(f"{base}/api/matches/{mid}")
                v = r.json()
                if v["status"] == "your_turn":
                    body = {"version": v["version"], "action": choose(v)}
                    contexts[seat].request.post(f"{base}/api/matches/{mid}/actions", data=body)
                    acted += 1
                    break
            else:
                time.sleep(0.1)
        v = contexts[2].request.get(f"{base}/api/matches/{mid}").json()
        pages[2].wait_for_selector(f'#table-view[data-version="{v["version"]}"]', state="attached")
        # East's page goes away (a grey dot on the others' screens); West says "Well played!".
        pages[1].close()
        pages[2].wait_for_selector('#seat-1 [data-role="presence"][data-connected="false"]')
        pages[3].locator('[data-role="phrases"] [data-phrase="well_played"]').click()
        pages[2].wait_for_selector('#seat-3 [data-role="said"][data-phrase="well_played"]')
        time.sleep(0.5)  # the last card's animation, and the phrase's
        pages[2].screenshot(path=str(out / f"friends-table{suffix}.png"))
        browser.close()
    print(f"saved friends-waiting{suffix}.png and friends-table{suffix}.png in {out}")


if __name__ == "__main__":
    main()
