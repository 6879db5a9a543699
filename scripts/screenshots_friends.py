"""Screenshots of a table with friends for the README, taken by Playwright in Debian's Chromium.

    .venv/bin/python scripts/screenshots_friends.py [--out docs/screenshots] [--lang en|zh|fr]

Starts the real server (uvicorn in a thread, temporary SQLite database), makes a table of four
people through the home page, and saves friends-waiting.png (the creator's page while the table
waits, one friend seated: who is there and the links to send) and friends-table.png (the same
table with four people in play, from North's page: North's own hand at the bottom, everyone's
name, a dot by each saying who is connected (East's page is closed: grey), and West's "Well
played!" by West's seat), then at a second table with 30 seconds a turn (South and North people,
East and West computers, seed 3) lets North's time run out on their second card:
friends-stood-in.png (South's page, the "computer played" mark by North's name) and
friends-stood-in-mine.png (North's page, the notice of what was played for them), and the same two
on a phone (friends-stood-in-phone.png, friends-stood-in-mine-phone.png). In Chinese and French
the names end in -zh, -fr. The real 30 s turn runs out once for each language.
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

STOOD_IN_SEED = 3  # the second table's deals: the same pictures each time, three cards down


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
        form = me.locator('[data-action="new-friends-match"]')
        form.locator('select[name="level"]').select_option("club")
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
        stood_in_shots(browser, base, options, args.lang, out, suffix)
        browser.close()
    print(f"saved friends-waiting, friends-table, friends-stood-in(-mine){suffix}.png in {out}")


def stood_in_shots(
    browser: Any, base: str, options: dict[str, Any], lang: str, out: Path, suffix: str
) -> None:
    """South makes a table with North kept for a friend and 30 s a turn; both play through the
    API until North is to play a card, then North does nothing: the server's computer player acts
    for them when the 30 s are over, and both pages are taken."""
    contexts = [browser.new_context(**options) for _ in range(2)]
    for c in contexts:
        c.add_init_script("localStorage.setItem('oudler.pace', '0')")
        c.add_init_script("localStorage.setItem('oudler.tour', 'off')")
    south, north = (c.new_page() for c in contexts)
    south.goto(f"{base}/")
    south.wait_for_selector("#home:not([hidden])")
    form = south.locator('[data-action="new-friends-match"]')
    form.locator('select[name="level"]').select_option("club")
    form.locator('[data-role="name-input"]').fill(NAMES[lang][0])
    form.locator('select[name="seat2"]').select_option("person")
    form.locator('select[name="turn_time"]').select_option("30")
    form.locator("details.more summary").click()
    form.locator('[data-role="seed-input"]').fill(str(STOOD_IN_SEED))
    form.locator('[type="submit"]').click()
    link = south.locator('[data-role="invite-link"][data-seat="2"]')
    link.wait_for()
    url = link.input_value()
    mid = south.get_attribute("#table-view", "data-match")
    north.goto(url)
    north.locator('[data-role="name-input"]').fill(NAMES[lang][2])
    north.locator('[data-action="sit"]').click()
    north.wait_for_selector("#table-view[data-match]")
    # Each acts as soon as it is their turn, until North is to play their second card.
    north_cards = 0
    while True:
        views = [c.request.get(f"{base}/api/matches/{mid}").json() for c in contexts]
        turn = [i for i in (0, 1) if views[i]["status"] == "your_turn"]
        if not turn:
            time.sleep(0.1)
            continue
        v = views[turn[0]]
        if turn[0] == 1 and v["observation"]["phase"] == "play":
            north_cards += 1
            if north_cards == 2:
                break
        body = {"version": v["version"], "action": choose(v)}
        contexts[turn[0]].request.post(f"{base}/api/matches/{mid}/actions", data=body)
    # North's 30 s: then the mark on South's screen, the notice on North's.
    south.wait_for_selector('#seat-2 [data-role="stood-in"]', timeout=60_000)
    north.wait_for_selector('[data-role="stood-in-mine"]')
    # No tooltip left under the pointer from the click to sit, nor on a card kept in focus.
    north.mouse.move(0, 0)
    north.evaluate("document.activeElement && document.activeElement.blur()")
    time.sleep(0.5)  # the card's animation
    pages = {"stood-in": south, "stood-in-mine": north}
    for name, page in pages.items():
        page.screenshot(path=str(out / f"friends-{name}{suffix}.png"))
    # The same two pages on a phone (South's turn clock runs: no time to lose).
    for page in pages.values():
        page.set_viewport_size({"width": 390, "height": 844})
    time.sleep(0.3)
    for name, page in pages.items():
        page.screenshot(path=str(out / f"friends-{name}-phone{suffix}.png"))
    for c in contexts:
        c.close()


if __name__ == "__main__":
    main()
