"""The turn clock of tables with friends: when a person does not act within the table's turn
time, a computer player of the table's level acts for their seat, that once (docs/web-api.md,
"Turn time").

The deadline is read from the database (``games.turn_deadline``: the time the last action was
stored), never kept only here: every web process that loads the table (a person's socket, a
request) arms its own timer for it, so that a process that dies takes nothing with it. Two
processes whose timers ring together both ask for the decision, and only one can store it: the
action is stored at the log's next sequence number, which the other then finds taken
(``Tables.stand_in``).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("oudler.web")

StandIn = Callable[[str], Awaitable[None]]
"""Acts for the person whose time ran out at a match, if it still has (``Tables.stand_in``)."""

LATE = 0.05  # seconds after the deadline that a timer rings: the deadline is then surely past


class Clock:
    """One timer per match whose person to act has a deadline, in this process."""

    def __init__(self, stand_in: StandIn) -> None:
        self.stand_in = stand_in
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timers: dict[str, tuple[dt.datetime, asyncio.TimerHandle]] = {}
        self._running: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()

    def arm(self, match_id: str, deadline: dt.datetime) -> None:
        """Ring at ``deadline`` for ``match_id`` (from any thread); a timer for another deadline
        of the same match is replaced."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._arm, match_id, deadline)

    def armed(self, match_id: str) -> dt.datetime | None:
        timer = self._timers.get(match_id)
        return None if timer is None else timer[0]

    def _arm(self, match_id: str, deadline: dt.datetime) -> None:
        old = self._timers.get(match_id)
        if old is not None:
            if old[0] == deadline:
                return
            old[1].cancel()
        loop = asyncio.get_running_loop()
        delay = (deadline - dt.datetime.now(dt.UTC)).total_seconds() + LATE
        handle = loop.call_at(loop.time() + max(delay, 0.0), self._ring, match_id, deadline)
        self._timers[match_id] = (deadline, handle)

    def _ring(self, match_id: str, deadline: dt.datetime) -> None:
        if self._timers.get(match_id, (None,))[0] == deadline:
            del self._timers[match_id]
        task = asyncio.get_running_loop().create_task(self._act(match_id))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _act(self, match_id: str) -> None:
        try:
            await self.stand_in(match_id)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            # The next load of the table (a socket, a page's poll) arms the timer again.
            # Only the error's type: a computer player's error might name its cards.
            log.warning(
                "match %s: acting for a person out of time failed (%s)", match_id, type(e).__name__
            )

    async def close(self) -> None:
        for _, handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in list(self._running):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._loop = None
