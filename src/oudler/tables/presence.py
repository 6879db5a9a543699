"""At a table with people: who is connected, and the fixed phrases they send each other
(docs/web-api.md, "At the table").

**Presence.** A person is connected while one of their pages holds the table's live socket open.
``TableHub`` counts sockets by (match, seat) within one process; ``RedisHub`` also keeps, per
match, a Redis sorted set whose members are ``<process>:<seat>`` scored by when they expire:
each process renews its own every third of ``PRESENCE_TTL``, so the sockets of a process that was
killed stop counting after ``PRESENCE_TTL`` seconds at most, with nobody to say goodbye.

**Events** go to the sockets of one table: ``presence`` (a nudge: listeners read who is
connected again) and ``phrase`` (a seat said one of ``PHRASES``). Nothing in them is secret (a
seat number, a phrase's code): on Redis they travel on their own pub/sub channel, apart from the
live tables' announcements. A process's heartbeat also nudges its own listeners when the set of
connected seats changed without an event (a member expired).

**Absence.** How long a seat's person has had no page open on the table (``absent_for``): when
their last socket closed (over Redis, a hash per match of when each seat was last seen, renewed
with the heartbeat), else since they sat or this process started. The creator may free the seat
of a person absent for ``FREE_AFTER`` seconds (``Tables.free_seat``): someone who lost their
cookie cannot come back to it, and the table would wait for ever.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import Counter
from typing import Any, cast

from oudler.tables.pubsub import Listener, Topics, hear

log = logging.getLogger("oudler.web")

PHRASES = (
    "hello",
    "good_luck",
    "well_played",
    "bravo",
    "thanks",
    "oops",
    "sorry",
    "wow",
)
"""The phrases a person may send at a table with people, by code: no free text, so nothing to
moderate (the page says them in its three languages)."""

PHRASE_LIMIT = (4, 15.0)  # at most this many phrases per person per table, per that many seconds
PRESENCE_TTL = 15.0  # seconds a process's sockets count after its last heartbeat (every TTL/3)
# Seconds a person must have had no page open on a table before its creator may free their seat
# (a reload, a lost connection come back well within it).
FREE_AFTER = 60.0
EVENTS_CHANNEL = "oudler:table-events"
SEEN_DAYS = 7  # days a table's "last seen" times stay in Redis after the last change
MALFORMED = (ValueError, KeyError)  # an event on the channel that is not ours: subscribe again


class EventSub(Listener[dict[str, Any]]):
    """The events of one table for one listener (a socket), in order."""

    def __init__(self, hub: TableHub, match_id: str) -> None:
        super().__init__(hub, match_id)
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def wake(self, message: dict[str, Any]) -> None:
        self.queue.put_nowait(message)

    async def get(self) -> dict[str, Any]:
        return await self.queue.get()


class TableHub(Topics[dict[str, Any]]):
    """Presence and events within one process (the embedded default)."""

    def __init__(
        self, phrase_limit: tuple[int, float] = PHRASE_LIMIT, free_after: float = FREE_AFTER
    ) -> None:
        super().__init__()
        self.phrase_limit = phrase_limit
        self.free_after = free_after
        self.started = time.time()
        self._here: Counter[tuple[str, int]] = Counter()  # open sockets by (match, seat)
        self._gone: dict[tuple[str, int], float] = {}  # when a seat's last socket closed
        self._said: dict[tuple[str, int], list[float]] = {}

    # ------------------------------------------------------------------ listeners

    def subscribe(self, match_id: str) -> EventSub:
        """Listen to a table's events (on the listener's event loop)."""
        sub = EventSub(self, match_id)
        self._add(sub)
        return sub

    def publish(self, match_id: str, event: dict[str, Any]) -> None:
        """Send an event to every socket of the table (from any thread)."""
        self._deliver(match_id, event)

    # ------------------------------------------------------------------ presence

    def join(self, match_id: str, seat: int) -> None:
        """A socket of the person at ``seat`` opened (blocking: call in a thread)."""
        with self._lock:
            self._here[match_id, seat] += 1
            first = self._here[match_id, seat] == 1
            self._gone.pop((match_id, seat), None)
        if first:
            self._mark(match_id, seat, True)
            self.publish(match_id, {"event": "presence"})

    def leave(self, match_id: str, seat: int) -> None:
        """A socket of the person at ``seat`` closed (blocking: call in a thread)."""
        with self._lock:
            self._here[match_id, seat] -= 1
            last = self._here[match_id, seat] <= 0
            if last:
                del self._here[match_id, seat]
                self._gone[match_id, seat] = time.time()
        if last:
            self._mark(match_id, seat, False)
            self.publish(match_id, {"event": "presence"})

    def _mark(self, match_id: str, seat: int, here: bool) -> None:
        """Where other processes learn of this one's sockets (nowhere, in one process)."""

    def connected(self, match_id: str) -> list[int]:
        """The seats whose person has a socket open on the table (blocking: call in a thread)."""
        with self._lock:
            return sorted(seat for (m, seat), n in self._here.items() if m == match_id and n > 0)

    def last_seen(self, match_id: str, seat: int) -> float | None:
        """When (``time.time()``) the seat's last socket closed, if known here."""
        with self._lock:
            return self._gone.get((match_id, seat))

    def absent_for(self, match_id: str, seat: int, since: float) -> float:
        """Seconds the person at ``seat`` has had no page open on the table: 0 while one is;
        else since their last socket closed, or (never seen) since ``since`` (when they sat)
        or this process started, whichever came last (blocking: call in a thread)."""
        if seat in self.connected(match_id):
            return 0.0
        last = self.last_seen(match_id, seat)
        return max(0.0, time.time() - max(since, self.started if last is None else last))

    # ------------------------------------------------------------------ phrases

    def allow_phrase(self, match_id: str, seat: int) -> bool:
        """Count a phrase of the person at ``seat``; False when over the limit (not counted)."""
        most, seconds = self.phrase_limit
        now = time.monotonic()
        with self._lock:
            recent = [t for t in self._said.get((match_id, seat), []) if now - t < seconds]
            if len(recent) >= most:
                self._said[match_id, seat] = recent
                return False
            self._said[match_id, seat] = [*recent, now]
            return True


class RedisHub(TableHub):
    """Presence and events shared by the web processes of one Redis."""

    def __init__(
        self,
        url: str,
        phrase_limit: tuple[int, float] = PHRASE_LIMIT,
        ttl: float = PRESENCE_TTL,
        free_after: float = FREE_AFTER,
    ) -> None:
        super().__init__(phrase_limit, free_after)
        import redis

        self.url = url
        self.ttl = ttl
        self.heartbeat = ttl / 3
        self.process = secrets.token_hex(6)  # this process's name in the presence sets
        self._redis = redis.Redis.from_url(url)
        self._tasks: list[asyncio.Task[None]] = []
        self._ready = asyncio.Event()
        self._seen: dict[str, list[int]] = {}  # the connected seats last told, by match

    @staticmethod
    def _key(match_id: str) -> str:
        return f"oudler:presence:{match_id}"

    @staticmethod
    def _seen_key(match_id: str) -> str:
        return f"oudler:seen:{match_id}"  # a hash: seat -> when last seen (time.time())

    async def start(self) -> None:
        self._tasks = [
            asyncio.create_task(
                hear(self.url, EVENTS_CHANNEL, self._ready, self._heard, "table events", MALFORMED),
                name="oudler-table-events",
            ),
            asyncio.create_task(self._beat(), name="oudler-presence"),
        ]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._ready.wait(), 5)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        # This process's sockets stop counting at once (a killed one's when they expire).
        with self._lock:
            here = list(self._here)
        with contextlib.suppress(Exception):
            for match_id, seat in here:
                self._redis.zrem(self._key(match_id), f"{self.process}:{seat}")
        self._redis.close()

    def _mark(self, match_id: str, seat: int, here: bool) -> None:
        from redis.exceptions import RedisError

        key, member = self._key(match_id), f"{self.process}:{seat}"
        now = time.time()
        try:
            pipe = self._redis.pipeline()
            if here:
                pipe.zadd(key, {member: now + self.ttl})
                pipe.expire(key, int(self.ttl * 4))
            else:
                pipe.zrem(key, member)
            pipe.hset(self._seen_key(match_id), str(seat), str(now))
            pipe.expire(self._seen_key(match_id), SEEN_DAYS * 86400)
            pipe.execute()
        except (RedisError, OSError) as e:
            log.warning("presence: Redis unavailable (%s)", type(e).__name__)

    def connected(self, match_id: str) -> list[int]:
        from redis.exceptions import RedisError

        try:
            found = self._redis.zrangebyscore(self._key(match_id), time.time(), "+inf")
            members = cast(list[bytes], found)  # the sync client's answer
        except (RedisError, OSError) as e:
            log.warning("presence: Redis unavailable (%s)", type(e).__name__)
            return super().connected(match_id)  # this process's sockets at least
        return sorted({int(m.decode().rsplit(":", 1)[1]) for m in members})

    def last_seen(self, match_id: str, seat: int) -> float | None:
        """When a socket of the seat was last seen open by any process (its heartbeat), from
        Redis; this process's own knowledge if Redis fails."""
        from redis.exceptions import RedisError

        try:
            found = self._redis.hget(self._seen_key(match_id), str(seat))
        except (RedisError, OSError) as e:
            log.warning("presence: Redis unavailable (%s)", type(e).__name__)
            return super().last_seen(match_id, seat)
        return None if found is None else float(cast(bytes, found))

    def publish(self, match_id: str, event: dict[str, Any]) -> None:
        from redis.exceptions import RedisError

        try:
            self._redis.publish(EVENTS_CHANNEL, json.dumps({"match": match_id, **event}))
        except (RedisError, OSError) as e:
            log.warning("table events: could not publish (%s)", type(e).__name__)
            self._deliver(match_id, event)  # this process's sockets at least

    def allow_phrase(self, match_id: str, seat: int) -> bool:
        """Counted in Redis, so that the limit holds across web processes (a fixed window)."""
        from redis.exceptions import RedisError

        most, seconds = self.phrase_limit
        window = int(time.time() // seconds)
        key = f"oudler:phrases:{match_id}:{seat}:{window}"
        try:
            pipe = self._redis.pipeline()
            pipe.incr(key)
            pipe.expire(key, int(seconds) + 1)
            count = int(pipe.execute()[0])
        except (RedisError, OSError):
            return super().allow_phrase(match_id, seat)
        return count <= most

    def _heard(self, data: bytes) -> None:
        event = json.loads(data)
        self._deliver(str(event.pop("match")), event)

    async def _beat(self) -> None:
        """Renew this process's sockets; tell its listeners of seats that came or went without
        an event (another process's sockets expired)."""
        while True:
            await asyncio.sleep(self.heartbeat)
            try:
                await asyncio.to_thread(self._renew)
            except Exception as e:
                log.warning("presence: heartbeat failed (%s)", type(e).__name__)

    def _renew(self) -> None:
        with self._lock:
            here = list(self._here)
            listened = list(self._subs)
        if here:
            pipe = self._redis.pipeline()
            until = time.time() + self.ttl
            for match_id, seat in here:
                pipe.zadd(self._key(match_id), {f"{self.process}:{seat}": until})
                pipe.expire(self._key(match_id), int(self.ttl * 4))
                pipe.hset(self._seen_key(match_id), str(seat), str(until - self.ttl))
            pipe.execute()
        for match_id in listened:
            now = self.connected(match_id)
            if self._seen.get(match_id) != now:
                self._seen[match_id] = now
                self._deliver(match_id, {"event": "presence"})
        for match_id in set(self._seen) - set(listened):
            del self._seen[match_id]


def make_hub(
    url: str | None,
    phrase_limit: tuple[int, float] = PHRASE_LIMIT,
    ttl: float = PRESENCE_TTL,
    free_after: float = FREE_AFTER,
) -> TableHub:
    if url is None:
        return TableHub(phrase_limit, free_after)
    return RedisHub(url, phrase_limit, ttl, free_after)


def say(tables: Any, hub: TableHub, player: str, match_id: str, phrase: str) -> dict[str, Any]:
    """The person says one of ``PHRASES`` to their table: pushed to every socket there as
    ``{"event": "phrase", "seat", "phrase"}``. 400 ``unknown_phrase``; 404 for anyone not seated
    there; 422 ``table_for_one`` (nobody to tell); 429 ``too_many_phrases``."""
    from oudler.tables.games import BadRequest, TooManyRequests, Unprocessable

    if phrase not in PHRASES:
        raise BadRequest(
            f"no such phrase; the phrases are {', '.join(PHRASES)}", code="unknown_phrase"
        )
    with tables.lock(match_id):
        game = tables.load(match_id, player)
        seat: int = tables.seat(game, player)
    if not game.info.shared:
        raise Unprocessable(
            "phrases are for a table with friends: nobody else sits here", code="table_for_one"
        )
    if not hub.allow_phrase(match_id, seat):
        most, seconds = hub.phrase_limit
        raise TooManyRequests(
            f"at most {most} phrases every {seconds:g} seconds: wait a little",
            code="too_many_phrases",
        )
    hub.publish(match_id, {"event": "phrase", "seat": seat, "phrase": phrase})
    log.info("match %s: seat %d said %s", match_id, seat, phrase)
    return {"seat": seat, "phrase": phrase}
