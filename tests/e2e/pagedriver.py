"""Drives the web table through its stable hooks (issue 4), the way a person would: clicks on
`data-card`, `data-bid`, `data-action` elements. The server's view (read through the same browser
context, so with the same player cookie) is the oracle the page is checked against."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx2

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Shared memory in /tmp, not /dev/shm: a container's /dev/shm is often 64 MB, and several
    # contexts at once (the four-person test beside another worker's) can exhaust it; a page
    # then closes under the test ("Target page ... has been closed", seen once in CI).
    "--disable-dev-shm-usage",
]
View = dict[str, Any]
TIMEOUT = 60.0
CARD_CORNER = {"x": 8, "y": 16}  # a point inside the visible strip of a fanned card


def is_trump(card: str) -> bool:
    return card.startswith("T")


def person_action(view: View) -> Any:
    """The person's choice, from the legal actions only and deterministic, so that a match can be
    played once through the API and again, identically, through the page: take the dog when
    possible (Garde, else Prise), discard the first allowed cards, announce no chelem, show no
    poignée, play the first legal card."""
    legal = view["observation"]["legal"]
    if "bids" in legal:
        return next((b for b in ("garde", "prise") if b in legal["bids"]), "pass")
    if "discard" in legal:
        allowed, forced = legal["discard"]["allowed"], legal["discard"]["forced_trumps"]
        plain = [c for c in allowed if not is_trump(c)]
        return plain[: 6 - forced] + [c for c in allowed if is_trump(c)][:forced]
    if "chelem" in legal:
        return False
    if "poignee" in legal:
        return []
    return legal["cards"][0]


def discards_in_match(base: str, seed: int, deals: int = 2) -> int:
    """Plays a match with ``person_action`` through the API alone (another player's cookie) and
    counts the person's discards: used to pick a seed whose match makes the person discard."""
    discards = 0
    with httpx2.Client(base_url=base, timeout=TIMEOUT) as client:

        def post(path: str, body: dict[str, Any]) -> View:
            r = client.post(path, json=body)
            assert r.status_code in (200, 201), r.text
            out: View = r.json()
            return out

        v = post("/api/matches", {"deals": deals, "level": "random", "seed": seed})
        mid = v["id"]
        while v["status"] != "match_over":
            if v["status"] == "computer_turn":
                v = post(f"/api/matches/{mid}/step", {"version": v["version"]})
            elif v["status"] == "deal_over":
                v = post(f"/api/matches/{mid}/next-deal", {"version": v["version"]})
            else:
                action = person_action(v)
                discards += v["observation"]["phase"] == "discard"
                v = post(f"/api/matches/{mid}/actions", {"version": v["version"], "action": action})
    return discards


def settled(tables: dict[int, Table]) -> dict[int, View]:
    """At a table with people, one page each (by seat): each person's view once all agree and
    no computer player is to act, after each page has drawn it (pushed over its socket: no page
    asks)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        views = {seat: t.view() for seat, t in tables.items()}
        one = len({v["version"] for v in views.values()}) == 1
        if one and views[0]["status"] != "computer_turn":
            for t in tables.values():
                t.drawn(views[0]["version"])
            return views
        assert time.monotonic() < deadline, "the table did not settle"
        time.sleep(0.05)


class Table:
    """One browser tab on the table, with the match it plays."""

    def __init__(self, context: Any, base: str) -> None:
        self.context = context
        self.base = base
        self.errors: list[str] = []
        self.match_id: str | None = None
        # The computer players at full speed: the page still waits for the server at each step.
        context.add_init_script("localStorage.setItem('oudler.pace', '0')")
        self.page = self.new_page()

    def new_page(self) -> Any:
        page = self.context.new_page()
        page.set_default_timeout(TIMEOUT * 1000)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        # Refused requests (409, 422) are part of the game; other console errors are not.
        page.on(
            "console",
            lambda m: (
                self.errors.append(m.text)
                if m.type == "error" and "Failed to load resource" not in m.text
                else None
            ),
        )
        return page

    # ------------------------------------------------------------------ server side (oracle)

    def view(self) -> View:
        r = self.context.request.get(f"{self.base}/api/matches/{self.match_id}")
        assert r.ok, r.text()
        out: View = r.json()
        return out

    def record(self) -> dict[str, Any]:
        r = self.context.request.get(f"{self.base}/api/matches/{self.match_id}/record")
        assert r.ok, r.text()
        out: dict[str, Any] = r.json()
        return out

    def me(self) -> dict[str, Any]:
        """The server's ``/api/me`` for this browser: its player and account, if any."""
        r = self.context.request.get(f"{self.base}/api/me")
        assert r.ok, r.text()
        out: dict[str, Any] = r.json()
        return out

    # ------------------------------------------------------------------ page side

    def home(self) -> None:
        self.page.goto(f"{self.base}/")
        self.page.wait_for_selector("#home:not([hidden])")

    def new_match(self, deals: int = 2, level: str = "random", seed: int | None = None) -> str:
        form = self.page.locator('[data-action="new-match"]')
        form.locator(f'[data-deals="{deals}"]').check()
        form.locator(f'input[name="level"][value="{level}"]').check()
        return self._start(form, seed)

    def _start(self, form: Any, seed: int | None) -> str:
        """Sends a home page's form, with ``seed`` under its more options; the new match's id."""
        if seed is not None:
            form.locator("details.more summary").click()
            form.locator('[data-role="seed-input"]').fill(str(seed))
        form.locator('[type="submit"]').click()
        self.page.wait_for_selector("#table-view[data-match]")
        self.match_id = self.page.get_attribute("#table-view", "data-match")
        assert self.match_id
        return self.match_id

    def wait_until(self, ready: Any) -> None:
        """Lets the page run until ``ready()`` is true (a route handler, say, has seen a
        request: Playwright calls it while it waits), for at most five seconds."""
        for _ in range(100):
            if ready():
                return
            self.page.wait_for_timeout(50)
        assert ready()

    def account_menu(self) -> Any:
        """Opens the account menu from the top bar; the menu's locator."""
        self.page.locator('[data-role="account-summary"]').click()
        menu = self.page.locator('[data-role="account-menu"]')
        menu.wait_for()
        return menu

    def new_friends_match(
        self,
        friends: tuple[int, ...] = (2,),
        *,
        level: str = "random",
        turn: str = "",
        seed: int | None = None,
        name: str | None = None,
        hints: bool = False,
    ) -> dict[int, str]:
        """From the home page, a table with ``friends`` kept for friends and computer players of
        ``level`` in the other seats; the links to send, by seat."""
        self.home()
        form = self.page.locator('[data-action="new-friends-match"]')
        form.locator('select[name="level"]').select_option(level)
        if name:
            form.locator('[data-role="name-input"]').fill(name)
        for seat in friends:
            form.locator(f'select[name="seat{seat}"]').select_option("person")
        if turn:
            form.locator('select[name="turn_time"]').select_option(turn)
        if hints:
            form.locator('[data-role="hints-input"]').check()
        self._start(form, seed)
        links = self.page.locator('[data-role="invite-link"]')
        links.first.wait_for()
        return {
            int(links.nth(i).get_attribute("data-seat") or 0): links.nth(i).input_value()
            for i in range(links.count())
        }

    def drawn(self, version: int) -> None:
        self.page.wait_for_selector(f'#table-view[data-version="{version}"]', state="attached")

    def settle(self) -> View:
        """Waits while the computer players act (the page steps them) and returns the view once
        the person must act or the deal is over, after the page has drawn it."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            v = self.view()
            if v["status"] != "computer_turn":
                self.drawn(v["version"])
                return v
            assert time.monotonic() < deadline, "the computer players did not finish"
            time.sleep(0.03)

    def hand(self) -> list[str]:
        cards = self.page.query_selector_all("#hand [data-card]")
        return [e.get_attribute("data-card") for e in cards]

    def click_card(self, card: str, *, force: bool = False) -> None:
        """Clicks a card of the hand where a person sees it: the hand is fanned, so the middle
        of a card lies under its right neighbour; its left edge is always in view."""
        self.page.click(f'#hand [data-card="{card}"]', position=CARD_CORNER, force=force)

    def disabled(self) -> set[str]:
        return {
            e.get_attribute("data-card")
            for e in self.page.query_selector_all('#hand [data-card][aria-disabled="true"]')
        }

    def after(self, version: int) -> View:
        """Waits until the match moved past ``version`` (the page's request was answered)."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            v = self.view()
            if v["version"] > version:
                return v
            assert time.monotonic() < deadline, f"nothing happened after version {version}"
            time.sleep(0.03)

    def act(self, v: View, action: Any) -> View:
        """Does ``action`` through the page, checking first that the page offers exactly the
        legal choices of the view; returns the next settled view."""
        o = v["observation"]
        phase = o["phase"]
        page = self.page
        if phase == "bidding":
            offered = [e.get_attribute("data-bid") for e in page.query_selector_all("[data-bid]")]
            assert offered == o["legal"]["bids"]
            page.click(f'[data-bid="{action}"]')
        elif phase == "discard":
            allowed = set(o["legal"]["discard"]["allowed"])
            assert sorted(self.hand()) == sorted(o["hand"])
            assert self.disabled() == set(o["hand"]) - allowed
            shown = page.query_selector_all("#center [data-show]")
            center = {e.get_attribute("data-show") for e in shown}
            assert center == set(o["dog"]), "the dog is turned over in the middle of the table"
            confirm = page.locator('[data-action="discard"]')
            for i, card in enumerate(action):
                assert confirm.is_disabled()
                self.click_card(card)
                counter = page.inner_text('[data-role="discard-count"]')
                assert counter.startswith(f"{i + 1} / 6"), counter
            confirm.click()
        elif phase == "chelem":
            page.click(f'[data-action="{"chelem-yes" if action else "chelem-no"}"]')
        elif phase == "poignee":
            assert not action, "this driver declines poignées"
            page.click('[data-action="poignee-no"]')
            if "seats" in v:
                # At a table with people the answer is no step of its own (docs/web-api.md,
                # "Changes", item 9): the version stays, the question goes.
                page.locator('[data-action="poignee-no"]').wait_for(state="detached")
                return self.settle()
        else:
            legal = set(o["legal"]["cards"])
            assert sorted(self.hand()) == sorted(o["hand"])
            assert self.disabled() == set(o["hand"]) - legal
            self.click_card(action)
        self.after(v["version"])
        return self.settle()

    def play_until(self, stop: Any) -> View:
        """Plays with ``person_action`` until ``stop(view)`` is true or the match is over."""
        v = self.settle()
        while not stop(v) and v["status"] != "match_over":
            if v["status"] == "deal_over":
                self.page.click('[data-action="next-deal"]')
                self.after(v["version"])
                v = self.settle()
            else:
                v = self.act(v, person_action(v))
        return v
