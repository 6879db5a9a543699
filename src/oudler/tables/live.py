"""Live tables: telling every web process that a match changed, and driving the computer players
of tables with people (docs/web-api.md, "Live").

A change (an action stored, a person seated) is announced on a ``Bus`` by the match's id only,
never with a view: each listener builds its own person's view from the stored log, so nothing a
person may not see travels on the bus, and a listener that missed announcements (a dropped
connection) catches up from the log as well. ``LocalBus`` is the embedded default (one process);
``RedisBus`` carries the announcements between web processes over Redis pub/sub.

``Driver``: at a table with people no page asks the computer players to act; the web process
that stored the action before a computer player's turn drives it (``Tables.step``, as a page
would), until a person is to act. A driver whose process dies leaves the table at a computer
player's turn: any process kicks it again when a person (re)connects or loads the table, and the
pages ask for the step themselves after a while (``step`` is idempotent per position).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from oudler.tables.pubsub import Listener, Topics, hear

log = logging.getLogger("oudler.web")

CHANNEL = "oudler:live"  # Redis pub/sub channel; messages are match ids


class Subscription(Listener[None]):
    """Announcements of one match for one listener: ``await get()`` returns when the match
    changed (several announcements in a row are merged: the listener reads the log anyway)."""

    def __init__(self, bus: LocalBus, match_id: str) -> None:
        super().__init__(bus, match_id)
        self.event = asyncio.Event()

    def wake(self, message: None) -> None:
        self.event.set()

    async def get(self) -> None:
        await self.event.wait()
        self.event.clear()


class LocalBus(Topics[None]):
    """Announcements within one process. ``publish`` may be called from any thread (requests
    store their actions in the thread pool); each listener is woken on its own event loop."""

    # Whether other processes announce changes too: if not, every change announced here was
    # made by this process, after it brought its copy of the match up to date.
    shared = False

    def subscribe(self, match_id: str) -> Subscription:
        """Listen to a match (call on the listener's event loop)."""
        sub = Subscription(self, match_id)
        self._add(sub)
        return sub

    def publish(self, match_id: str) -> None:
        """Announce that ``match_id`` changed (from any thread)."""
        self._deliver(match_id, None)


class RedisBus(LocalBus):
    """Announcements between web processes: published on a Redis channel, and every process
    (this one included) delivers what it hears to its own listeners."""

    shared = True

    def __init__(self, url: str) -> None:
        super().__init__()
        import redis

        self.url = url
        self._publisher = redis.Redis.from_url(url)  # thread-safe: a connection pool
        self._reader: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        await super().start()
        # Pages catch up from the log when the bus comes back (and poll meanwhile).
        heard = hear(self.url, CHANNEL, self._ready, self._announced, "live bus")
        self._reader = asyncio.create_task(heard, name="oudler-live-bus")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._ready.wait(), 5)

    def _announced(self, data: bytes) -> None:
        self._deliver(data.decode(), None)

    def publish(self, match_id: str) -> None:
        from redis.exceptions import RedisError

        try:
            self._publisher.publish(CHANNEL, match_id)
        except (RedisError, OSError) as e:
            # The action is stored: the other pages learn it when they next load the table.
            log.warning("live bus: could not publish (%s)", type(e).__name__)
            self._deliver(match_id, None)  # this process's listeners at least

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        self._publisher.close()
        await super().close()


Step = Callable[[str], Awaitable[bool]]
"""One computer player's step of a match; False once no computer player is to act."""


class Driver:
    """Runs the computer players of tables with people, one task per match at a time."""

    def __init__(self, step: Step, pause: float = 0.0) -> None:
        self.step = step
        self.pause = pause  # seconds between computer players' actions, for people to follow
        self._loop: asyncio.AbstractEventLoop | None = None
        self._running: dict[str, asyncio.Task[None]] = {}

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()

    def kick(self, match_id: str) -> None:
        """Drive the match's computer players if one is to act (from any thread)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._start, match_id)

    def _start(self, match_id: str) -> None:
        if match_id in self._running:
            return
        task = asyncio.get_running_loop().create_task(self._drive(match_id))
        self._running[match_id] = task

    async def _drive(self, match_id: str) -> None:
        try:
            failures = 0
            while True:
                if self.pause:
                    await asyncio.sleep(self.pause)
                try:
                    if not await self.step(match_id):
                        return
                    failures = 0
                except asyncio.CancelledError:
                    raise
                except Exception as e:
                    failures += 1
                    log.warning(
                        "match %s: driving a computer player failed (%s)",
                        match_id,
                        type(e).__name__,
                    )
                    if failures >= 5:
                        return  # the pages ask for the step themselves
                    await asyncio.sleep(0.5 * failures)
        finally:
            self._running.pop(match_id, None)

    async def close(self) -> None:
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._loop = None


def make_bus(url: str | None) -> LocalBus:
    return LocalBus() if url is None else RedisBus(url)
