"""Screenshots of the web table for the README, taken by Playwright in Debian's Chromium.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots] [--deals 4] [--lang en|zh|fr]

Starts the real server (uvicorn in a thread, temporary SQLite database), plays a match through the
page with a simple deterministic player, and saves: table.png (a trick in play, a refused card
saying why, the table aids on), discard.png (the dog turned over, six cards chosen), breakdown.png
(the end-of-deal breakdown), score-sheet.png (the final standing and the score sheet), phone.png
(the table on a phone-sized screen), history.png (the person's play across matches), guide.png
(the guided first deal at its first step), four-colour.png (the settings menu with the four-colour
deck switched on, over the discard), aids.png (the table aids, all three on) and aids-phone.png
(the hand in the four-colour deck and the table aids on a phone), and in learning mode the coach's
advice as it opens at 1280x800 and on a phone, for a call (coach-bid.png, coach-bid-phone.png) and
a card (coach-card.png, coach-card-phone.png); ``--only coach`` takes these alone, ``--only guide``
guide.png alone; home.png (the home page at 1280 wide) and home-phone.png (its friends' card on a
phone), ``--only home`` these alone. In Chinese and French the names end in -zh, -fr.
Needs /usr/bin/chromium (apt-get install chromium).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
from playwright.sync_api import Page, Position, sync_playwright

from oudler.web.app import create_app
from oudler.web.background import serve_in_thread

# The browser settings and the person's deterministic choices are the end-to-end tests' own.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "e2e"))
from pagedriver import CHROMIUM, CHROMIUM_ARGS
from pagedriver import person_action as choose

View = dict[str, Any]
# The hand is fanned: a card's middle lies under its neighbour, its left edge is always in view.
CORNER: Position = {"x": 8, "y": 16}


def first_deal(base: str, seed: int, deals: int) -> tuple[bool, bool]:
    """Plays the match's first deal through the API with ``choose``: (the person took the dog,
    the person won it)."""
    discarded = False
    with httpx2.Client(base_url=base, timeout=60) as client:
        v = client.post("/api/matches", json={"deals": deals, "level": "club", "seed": seed}).json()
        mid = v["id"]
        while v["status"] in ("computer_turn", "your_turn"):
            path = "step" if v["status"] == "computer_turn" else "actions"
            body: dict[str, Any] = {"version": v["version"]}
            if path == "actions":
                discarded |= v["observation"]["phase"] == "discard"
                body["action"] = choose(v)
            v = client.post(f"/api/matches/{mid}/{path}", json=body).json()
            o = v["observation"]
            if o["declarer"] not in (None, 0) or o["contract"] in ("garde_sans", "garde_contre"):
                return False, False  # the person does not take the dog: not the deal to show
        result = v["observation"]["result"] or {}
        return discarded, discarded and result.get("won") is True


def pick_seed(base: str, deals: int, tries: int = 150) -> int:
    """A match seed whose first deal the person takes, preferably one they win."""
    fallback = None
    for seed in range(1, tries):
        discarded, won = first_deal(base, seed, deals)
        if won:
            return seed
        if discarded and fallback is None:
            fallback = seed
    if fallback is None:
        raise SystemExit("no seed gave the person the dog")
    return fallback


class Player:
    def __init__(self, page: Page, base: str) -> None:
        self.page = page
        self.base = base
        self.mid = ""

    def view(self) -> View:
        out: View = self.page.request.get(f"{self.base}/api/matches/{self.mid}").json()
        return out

    def settle(self) -> View:
        while True:
            v = self.view()
            if v["status"] != "computer_turn":
                self.page.wait_for_selector(
                    f'#table-view[data-version="{v["version"]}"]', state="attached"
                )
                self.page.wait_for_timeout(150)  # let the last trick be gathered
                return v
            time.sleep(0.05)

    def wait_past(self, version: int) -> None:
        while self.view()["version"] <= version:
            time.sleep(0.03)

    def act(self, v: View) -> None:
        action = choose(v)
        phase = v["observation"]["phase"]
        if phase == "bidding":
            self.page.click(f'[data-bid="{action}"]')
        elif phase == "discard":
            for card in action:
                self.page.click(f'#hand [data-card="{card}"]', position=CORNER)
            self.page.click('[data-action="discard"]')
        elif phase == "chelem":
            self.page.click('[data-action="chelem-no"]')
        elif phase == "poignee":
            self.page.click('[data-action="poignee-no"]')
        else:
            self.page.click(f'#hand [data-card="{action}"]', position=CORNER)
        self.wait_past(v["version"])

    def until(self, stop: Callable[[View], bool]) -> View:
        v = self.settle()
        while not stop(v):
            if v["status"] == "match_over":
                raise SystemExit("the match ended before the wanted position")
            if v["status"] == "deal_over":
                self.page.click('[data-action="next-deal"]')
                self.wait_past(v["version"])
            else:
                self.act(v)
            v = self.settle()
        return v


def advise(page: Page, path: Path) -> None:
    """Presses H, as a person would, and takes the window once the advice is drawn."""
    page.mouse.move(0, 0)
    page.keyboard.press("h")
    page.wait_for_selector('[data-role="hint"]', timeout=60_000)
    page.wait_for_timeout(300)
    page.screenshot(path=path)


def card_moment(v: View) -> bool:
    """The person to play into a trick of two or three cards, with a choice of three or more, early
    in the deal."""
    o = v["observation"]
    return (
        v["status"] == "your_turn"
        and o["phase"] == "play"
        and len(o["trick"]["cards"]) >= 2
        and len(o["legal"]["cards"]) >= 3
        and len(o["hand"]) >= 8
    )


PHONE = {"width": 390, "height": 844}


def shoot_coach(
    browser: Any, base: str, locale: str, seed: int, shot: Callable[[str], Path]
) -> None:
    """The coach's advice in learning mode, as it opens without the person scrolling: for the
    first call and for a card played into a trick, at 1280x800 and on a phone (390x844)."""
    for size, suffix in (({"width": 1280, "height": 800}, ""), (PHONE, "-phone")):
        context = browser.new_context(viewport=size, locale=locale, device_scale_factor=1)
        context.add_init_script(
            "localStorage.setItem('oudler.pace', '0'); localStorage.setItem('oudler.tour', 'off');"
        )
        page = context.new_page()
        page.goto(f"{base}/")
        page.check('[data-role="learning-input"]')
        form = page.locator('[data-action="new-match"]')
        form.locator('input[name="level"][value="club"]').check()
        form.locator("details.more summary").click()
        form.locator('[data-role="seed-input"]').fill(str(seed))
        form.locator('[type="submit"]').click()
        page.wait_for_selector("#table-view[data-match]")
        player = Player(page, base)
        player.mid = page.get_attribute("#table-view", "data-match") or ""
        player.until(lambda v: v["status"] == "your_turn")
        advise(page, shot("coach-bid" + suffix))
        player.until(card_moment)
        advise(page, shot("coach-card" + suffix))
        context.close()


HOME_NAMES = {"en-GB": "Alice", "zh-CN": "小美", "fr-FR": "Amélie"}


def shoot_home(browser: Any, base: str, locale: str, shot: Callable[[str], Path]) -> None:
    """The home page with a match in play and the deals of the day ready: home.png (the whole
    page at 1280 wide, North chosen for a friend) and home-phone.png (the friends' card on a
    phone, its rows in view)."""
    for size, suffix in (({"width": 1280, "height": 800}, ""), (PHONE, "-phone")):
        context = browser.new_context(viewport=size, locale=locale, device_scale_factor=1)
        context.add_init_script("localStorage.setItem('oudler.tour', 'off')")
        page = context.new_page()
        made = page.request.post(f"{base}/api/matches", data={"deals": 4, "level": "club"})
        assert made.ok, made.text()
        page.goto(f"{base}/")
        page.wait_for_selector('[data-action="series-play"]', timeout=300_000)
        page.wait_for_selector("#match-list table")
        form = page.locator('[data-action="new-friends-match"]')
        form.locator('[data-role="name-input"]').fill(HOME_NAMES[locale])
        form.locator('select[name="seat2"]').select_option("person")
        page.evaluate("document.activeElement.blur()")
        page.mouse.move(0, 0)
        page.locator("#series-home").screenshot(path=shot("home-series" + suffix))
        if suffix:
            # The card's heading just under the top bar (which stays over the page).
            form.evaluate(
                "e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY"
                " - document.querySelector('.topbar').offsetHeight - 8)"
            )
            page.screenshot(path=shot("home" + suffix))
        else:
            page.screenshot(path=shot("home"), full_page=True)
        context.close()


def other_choice(v: View) -> Any:
    """Another person's choices, so that the two records differ: Prise rather than Garde, and
    the last legal card rather than the first."""
    legal = v["observation"]["legal"]
    if "bids" in legal:
        return "prise" if "prise" in legal["bids"] else "pass"
    if "cards" in legal:
        return legal["cards"][-1]
    return choose(v)


def play_series_api(
    client: Any,
    base: str,
    series_id: str,
    stop_after: int | None = None,
    chooser: Callable[[View], Any] = choose,
) -> str:
    """Plays a person's match of the series through the API with ``choose`` (``client``: a
    Playwright request context with the person's cookies), to its end or until ``stop_after``
    deals are over. The match id."""
    mid: str = client.post(f"{base}/api/series/{series_id}/play").json()["match"]
    v = client.get(f"{base}/api/matches/{mid}").json()
    while v["status"] != "match_over":
        if v["status"] == "deal_over":
            if stop_after is not None and len(v["sheet"]) >= stop_after:
                return mid
            path, body = "next-deal", {"version": v["version"]}
        elif v["status"] == "computer_turn":
            path, body = "step", {"version": v["version"]}
        else:
            path, body = "actions", {"version": v["version"], "action": chooser(v)}
        answer = client.post(f"{base}/api/matches/{mid}/{path}", data=body)
        assert answer.ok, answer.text()
        v = answer.json()
    return mid


def shoot_series(browser: Any, base: str, locale: str, shot: Callable[[str], Path]) -> None:
    """The deals of the day, played by two accounts: series-play.png (the first deal over, the
    par beside the person's score), series-ranking.png (the ranking page once finished) and
    series-review.png (deal 1 against the other's record and the par)."""
    contexts = []
    people = []
    for name in ("Camille", "Dominique"):
        context = browser.new_context(
            viewport={"width": 1280, "height": 860}, locale=locale, device_scale_factor=1
        )
        context.add_init_script(
            "localStorage.setItem('oudler.pace', '0'); localStorage.setItem('oudler.tour', 'off');"
        )
        made = context.request.post(
            f"{base}/api/account", data={"name": name, "password": "screenshots only!"}
        )
        assert made.ok, made.text()
        contexts.append(context)
        people.append(context.request)
    deadline = time.monotonic() + 600
    while True:
        listed = people[0].get(f"{base}/api/series").json()["series"]
        lines = [s for s in listed if s["kind"] == "daily"]
        if lines:
            series_id = lines[0]["id"]
            break
        assert time.monotonic() < deadline, "the deals of the day were never made"
        time.sleep(0.5)
    play_series_api(people[1], base, series_id, chooser=other_choice)  # finished first
    mid = play_series_api(people[0], base, series_id, stop_after=1)
    page = contexts[0].new_page()
    page.goto(f"{base}/#/match/{mid}")
    page.wait_for_selector('[data-role="series-banner"]')
    page.wait_for_selector('[data-action="next-deal"]')
    page.mouse.move(0, 0)
    page.screenshot(path=shot("series-play"))
    play_series_api(people[0], base, series_id)
    page.goto(f"{base}/#/series/{series_id}")
    page.wait_for_selector('[data-role="series-ranking"]')
    page.mouse.move(0, 0)
    page.screenshot(path=shot("series-ranking"), full_page=True)
    page.goto(f"{base}/#/series/{series_id}/review/1")
    page.wait_for_selector('[data-role="review-parting"]')
    page.wait_for_selector('[data-role="analysis-total"]', timeout=600_000)
    page.mouse.move(0, 0)
    page.screenshot(path=shot("series-review"), full_page=True)
    for context in contexts:
        context.close()


def shoot_guide(browser: Any, base: str, locale: str, shot: Any) -> None:
    """The guide, as a newcomer first meets it (in a new browser profile): guide.png."""
    fresh = browser.new_context(viewport={"width": 1280, "height": 1000}, locale=locale)
    fresh.add_init_script("localStorage.setItem('oudler.pace', '0')")
    guide = fresh.new_page()
    guide.goto(f"{base}/")
    guide.locator('[data-action="new-match"] [type="submit"]').click()
    guide.wait_for_selector('[data-role="tour"][data-step="bid"]')
    guide.wait_for_timeout(600)  # the cards dealt
    guide.screenshot(path=shot("guide"))
    fresh.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--deals", type=int, default=4, choices=(2, 4, 8))
    parser.add_argument("--lang", default="en", choices=("en", "zh", "fr"))
    shots = ("all", "coach", "guide", "home", "series")
    parser.add_argument("--only", default="all", choices=shots)
    args = parser.parse_args()
    out: Path = args.out
    locale = {"en": "en-GB", "zh": "zh-CN", "fr": "fr-FR"}[args.lang]
    suffix = "" if args.lang == "en" else f"-{args.lang}"

    def shot(name: str) -> Path:
        return out / f"{name}{suffix}.png"

    out.mkdir(parents=True, exist_ok=True)
    # The compiled search loaded first, as a running server's workers have it: otherwise the
    # first hint spends its 750 ms cap loading it and shows the advice of a dozen worlds.
    from oudler import kernel

    if args.only not in ("guide", "home", "series"):
        kernel.warm_up()
    # The deals of the day on the home page: made with the club level (the expert's par costs
    # minutes of a core, and nothing in a screenshot shows the level).
    os.environ.setdefault("OUDLER_SERIES_LEVEL", "club")

    with (
        tempfile.TemporaryDirectory() as tmp,
        serve_in_thread(create_app(f"sqlite:///{tmp}/shots.sqlite3")) as base,
    ):
        if args.only in ("guide", "home", "series"):
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                if args.only == "guide":
                    shoot_guide(browser, base, locale, shot)
                    names = ["guide"]
                elif args.only == "series":
                    shoot_series(browser, base, locale, shot)
                    names = ["series-play", "series-ranking", "series-review"]
                else:
                    shoot_home(browser, base, locale, shot)
                    names = ["home", "home-phone", "home-series", "home-series-phone"]
                browser.close()
            for name in names:
                print(shot(name))
            return
        seed = pick_seed(base, args.deals)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            coach_shots = [f"coach-{k}{p}" for k in ("bid", "card") for p in ("", "-phone")]
            shoot_coach(browser, base, locale, seed, shot)
            if args.only == "coach":
                for name in coach_shots:
                    print(shot(name))
                return
            context = browser.new_context(
                viewport={"width": 1280, "height": 860}, locale=locale, device_scale_factor=1
            )
            # Full speed, the guide already read, the table aids on (they show in table.png).
            context.add_init_script(
                "localStorage.setItem('oudler.pace', '0');"
                "localStorage.setItem('oudler.tour', 'off');"
                "for (const a of ['points', 'played', 'trumps'])"
                " localStorage.setItem('oudler.aid.' + a, '1');"
            )
            page = context.new_page()
            page.goto(f"{base}/")
            form = page.locator('[data-action="new-match"]')
            form.locator(f'[data-deals="{args.deals}"]').check()
            form.locator('input[name="level"][value="club"]').check()
            form.locator("details.more summary").click()
            form.locator('[data-role="seed-input"]').fill(str(seed))
            form.locator('[type="submit"]').click()
            page.wait_for_selector("#table-view[data-match]")
            player = Player(page, base)
            player.mid = page.get_attribute("#table-view", "data-match") or ""

            v = player.until(
                lambda v: v["status"] == "your_turn" and v["observation"]["phase"] == "discard"
            )
            for card in choose(v):
                page.click(f'#hand [data-card="{card}"]', position=CORNER)
            page.mouse.move(0, 0)
            page.screenshot(path=shot("discard"))
            # The four-colour deck, switched on in the settings menu, on the same hand and dog.
            page.click('[data-role="settings"] summary')
            page.check('[data-role="four-colour"]')
            page.screenshot(path=shot("four-colour"))
            page.uncheck('[data-role="four-colour"]')
            page.click('[data-role="settings"] summary')
            page.click('[data-action="discard"]')
            player.wait_past(v["version"])

            def table_moment(v: View) -> bool:
                """The person to play into a trick of two or three cards, with refused cards."""
                o = v["observation"]
                return (
                    v["status"] == "your_turn"
                    and o["phase"] == "play"
                    and len(o["trick"]["cards"]) >= 2
                    and len(o["hand"]) >= 10
                    and bool(v["reasons"])
                )

            def shoot_table(v: View) -> None:
                refused = sorted(v["reasons"])[0]
                page.hover(f'#hand [data-card="{refused}"]', position=CORNER, force=True)
                page.screenshot(path=shot("table"))
                aids = page.locator('[data-role="aids"]').bounding_box()
                assert aids is not None
                around = 12  # a margin of the page around the panel
                page.screenshot(
                    path=shot("aids"),
                    clip={
                        "x": aids["x"] - around,
                        "y": aids["y"] - around,
                        "width": aids["width"] + 2 * around,
                        "height": aids["height"] + 2 * around,
                    },
                )
                phone = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
                phone.add_init_script("localStorage.setItem('oudler.tour', 'off')")
                phone.add_cookies(context.cookies())  # type: ignore[arg-type]
                phone_page = phone.new_page()
                phone_page.goto(f"{base}/#/match/{player.mid}")
                phone_page.wait_for_selector(f'#table-view[data-version="{v["version"]}"]')
                phone_page.screenshot(path=shot("phone"), full_page=True)
                # The aids at the foot of the screen, the dog and discard above in four colours.
                phone_page.evaluate(
                    "localStorage.setItem('oudler.fourColour', '1');"
                    "for (const a of ['points', 'played', 'trumps'])"
                    " localStorage.setItem('oudler.aid.' + a, '1');"
                )
                phone_page.reload()
                phone_page.wait_for_selector(f'#table-view[data-version="{v["version"]}"]')
                phone_page.locator('[data-role="aids"]').evaluate(
                    "e => { e.scrollIntoView({block: 'end'}); window.scrollBy(0, 8); }"
                )
                phone_page.screenshot(path=shot("aids-phone"))
                phone.close()

            # The table during the deal the person took, if the moment comes, and its breakdown.
            over = ("deal_over", "match_over")
            v = player.until(lambda v: table_moment(v) or v["status"] in over)
            shot_taken = table_moment(v)
            if shot_taken:
                shoot_table(v)
            v = player.until(lambda v: v["status"] in over)
            page.wait_for_selector('[data-role="breakdown"]')
            page.screenshot(path=shot("breakdown"))
            if not shot_taken:
                shoot_table(player.until(table_moment))

            v = player.until(lambda v: v["status"] == "match_over")
            page.wait_for_selector('[data-role="standing"]')
            page.evaluate("document.querySelector('.final').scrollIntoView({block: 'start'})")
            page.evaluate("document.querySelector('#deal-over').scrollBy(0, -70)")
            page.screenshot(path=shot("score-sheet"))

            # The person's play across matches, after this one.
            page.click('[data-role="history-link"]')
            page.wait_for_selector('[data-role="points-chart"]')
            page.screenshot(path=shot("history"), full_page=True)

            shoot_guide(browser, base, locale, shot)
            shoot_home(browser, base, locale, shot)
            browser.close()
    names = ("table", "discard", "breakdown", "score-sheet", "phone", "history", "guide", "home")
    for name in (*names, "home-phone", "four-colour", "aids", "aids-phone", *coach_shots):
        print(shot(name))


if __name__ == "__main__":
    main()
