"""Four friends at one table in a real Chromium, across two web processes (issue 18): four
browser contexts (four people, each with their own cookie), two real web processes on one
database (PostgreSQL in CI) joined by a real Redis. They make the table and sit by the links,
and play a whole deal to its breakdown, each page showing only its own hand and the countdown
of whoever is to act; one person's connection is cut and comes back; one web process is killed
(SIGKILL) mid-deal and the table goes on through the other.

Each person reaches the site through a small TCP balancer of their own (as a load balancer in
front of the processes would be): two of them go to the first process, two to the second, and
each fails over to the other process when its own does not answer. Cutting a person's
connection closes their balancer's connections and refuses new ones for a while.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import pytest
from pagedriver import CHROMIUM, Table, View, person_action, settled

from redis_support import Process, oudler_serve, redis_server
from test_web_support import PG_ENV

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
    # The scaled-out deployment's database: run where the web tests run on PostgreSQL (.ci/run's
    # last step, or OUDLER_TEST_DATABASE_URL set by hand), not again on SQLite.
    pytest.mark.skipif(
        not os.environ.get(PG_ENV), reason=f"runs on PostgreSQL only: set {PG_ENV} (see .ci/run)"
    ),
]


# A web process as ``oudler serve --live`` runs it, without the expert's warm-up (these
# computer players are never asked).
@contextmanager
def web_process(db: str, live: str) -> Iterator[tuple[int, Process]]:
    """Yields the process's port (the balancers' backend) and the process."""
    with oudler_serve(db, app={"live_url": live}) as (base, process):
        port = urlsplit(base).port
        assert port is not None
        yield port, process


class Balancer:
    """One person's way in: a loopback port whose connections go to the first backend that
    answers, in the person's order of preference."""

    def __init__(self, loop: asyncio.AbstractEventLoop, backends: list[int]) -> None:
        self.loop = loop
        self.backends = backends
        self.cut = False
        self.open: set[asyncio.StreamWriter] = set()
        self.port = 0

    async def start(self) -> None:
        server = await asyncio.start_server(self.handle, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        self.server = server

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.cut:
            writer.close()
            return
        for port in self.backends:
            try:
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", port)
                break
            except OSError:
                continue  # that process is gone: the next one
        else:
            writer.close()
            return
        self.open |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, asyncio.CancelledError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()  # one side gone: so is the other

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self.open -= {writer, up_writer}

    def set_cut(self, cut: bool) -> None:
        """Cut (or restore) the person's connections; returns once it is done."""

        async def apply() -> None:
            self.cut = cut
            if cut:
                for w in list(self.open):
                    w.close()

        asyncio.run_coroutine_threadsafe(apply(), self.loop).result(10)


@contextmanager
def balancers(preferences: list[list[int]]) -> Iterator[list[Balancer]]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    out = [Balancer(loop, p) for p in preferences]
    for b in out:
        asyncio.run_coroutine_threadsafe(b.start(), loop).result(10)
    try:
        yield out
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


def test_four_friends_play_a_deal_across_two_web_processes(browser: Any, database_url: str) -> None:
    with (
        redis_server() as redis_url,
        web_process(database_url, redis_url) as (one, first),
        web_process(database_url, redis_url) as (two, _second),
        balancers([[one, two], [one, two], [two, one], [two, one]]) as ways,
    ):
        tables = {}
        for seat, way in enumerate(ways):
            context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
            tables[seat] = Table(context, way.base)
        try:
            play(tables, ways, first)
        finally:
            for t in tables.values():
                t.context.close()
        for t in tables.values():
            assert not t.errors, f"script errors in the page: {t.errors}"


def play(tables: dict[int, Table], ways: list[Balancer], first: Process) -> None:
    me = tables[0]
    links = me.new_friends_match((1, 2, 3), turn="120", seed=18)
    for seat in (1, 2, 3):
        link = links[seat]
        friend = tables[seat]
        # Each friend opens the link through their own way in.
        friend.page.goto(friend.base + link[link.index("/join/") :])
        friend.page.locator('[data-action="sit"]').click()
        friend.page.wait_for_selector("#table-view[data-match]")
        friend.match_id = friend.page.get_attribute("#table-view", "data-match")
        assert friend.match_id == me.match_id
        assert friend.page.get_attribute(".seat.seat-south", "id") == f"seat-{seat}"
    views = settled(tables)
    # Every screen counts down for the person to act.
    mover = views[0]["turn"]["seat"]
    for t in tables.values():
        clock = t.page.locator(f'[data-role="turn-clock"][data-seat="{mover}"]')
        clock.wait_for(state="visible")
        assert 100 <= int(clock.get_attribute("data-left") or 0) <= 120

    actions, cut_done, killed = 0, False, False
    while views[0]["status"] not in ("deal_over", "match_over"):
        for seat, t in tables.items():
            # Each page shows its own hand, and only that.
            assert sorted(t.hand()) == sorted(views[seat]["observation"]["hand"])
        mover = next(s for s, v in views.items() if v["status"] == "your_turn")
        if not cut_done and actions == 12 and mover != 2:
            views = cut_and_back(tables, ways, views)
            cut_done = True
            continue
        if not killed and actions == 30:
            # The first process dies without a word; people 0 and 1 come through the second.
            first.kill()
            killed = True
        tables[mover].act(views[mover], person_action(views[mover]))
        actions += 1
        views = settled(tables)
    assert cut_done and killed
    for seat, t in tables.items():
        t.page.wait_for_selector("#deal-over:not([hidden])")
        assert views[seat]["observation"]["seat"] == seat
        assert views[seat]["observation"]["result"] is not None


def cut_and_back(tables: dict[int, Table], ways: list[Balancer], views: dict[int, View]) -> Any:
    """Person 2's connection is cut while the others play on until it is their turn; it comes
    back, and their page catches up by itself."""
    cut_version = views[2]["version"]
    ways[2].set_cut(True)
    others = {s: t for s, t in tables.items() if s != 2}
    while True:
        now = {s: t.view() for s, t in others.items()}
        mover = now[0]["observation"]["to_move"]
        if mover == 2:
            break
        tables[mover].drawn(now[mover]["version"])
        tables[mover].act(now[mover], person_action(now[mover]))
    version = now[0]["version"]
    assert version > cut_version
    # Cut off, their page still shows the table as it was.
    assert tables[2].page.get_attribute("#table-view", "data-version") == str(cut_version)
    ways[2].set_cut(False)
    tables[2].drawn(version)  # back: the page reconnected and drew the current table
    # Failed connection attempts while cut are logged by the browser: part of the cut.
    tables[2].errors[:] = [e for e in tables[2].errors if "WebSocket connection" not in e]
    return settled(tables)
