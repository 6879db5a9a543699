"""What the live tables' announcements (``live.LocalBus``) and a table's events
(``presence.TableHub``) share: listeners of one match each, woken on their own event loop by a
message delivered from any thread, and the loop that hears a Redis channel."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections import defaultdict
from collections.abc import Callable
from typing import Generic, TypeVar

log = logging.getLogger("oudler.web")

M = TypeVar("M")  # what a message carries to a listener


class Listener(Generic[M]):
    """One listener of one match's messages; ``wake`` runs on the listener's event loop."""

    def __init__(self, topics: Topics[M], match_id: str) -> None:
        self.topics = topics
        self.match_id = match_id
        self.loop = asyncio.get_running_loop()  # the listener's: it is woken there

    def wake(self, message: M) -> None:
        raise NotImplementedError

    def close(self) -> None:
        self.topics._unsubscribe(self)


class Topics(Generic[M]):
    """Listeners by match within one process. ``_deliver`` may be called from any thread
    (requests run in the thread pool); each listener is woken on its own event loop."""

    def __init__(self) -> None:
        self._subs: dict[str, set[Listener[M]]] = defaultdict(set)
        self._lock = threading.Lock()

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass

    def _add(self, sub: Listener[M]) -> None:
        with self._lock:
            self._subs[sub.match_id].add(sub)

    def _unsubscribe(self, sub: Listener[M]) -> None:
        with self._lock:
            subs = self._subs.get(sub.match_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.match_id]

    def listeners(self, match_id: str) -> int:
        with self._lock:
            return len(self._subs.get(match_id, ()))

    def _deliver(self, match_id: str, message: M) -> None:
        with self._lock:
            subs = list(self._subs.get(match_id, ()))
        for sub in subs:
            if not sub.loop.is_closed():
                sub.loop.call_soon_threadsafe(sub.wake, message)


async def hear(
    url: str,
    channel: str,
    ready: asyncio.Event,
    on_message: Callable[[bytes], None],
    what: str,
    malformed: tuple[type[Exception], ...] = (),
) -> None:
    """Pass each message of the Redis ``channel`` to ``on_message`` until cancelled; ``ready``
    is set once subscribed. While Redis is unavailable (or a message is one of ``malformed``),
    log it as ``what`` and subscribe again a second later."""
    import redis.asyncio as aredis
    from redis.exceptions import RedisError

    retried: tuple[type[Exception], ...] = (RedisError, OSError, *malformed)
    while True:
        client = aredis.Redis.from_url(url)
        try:
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            await pubsub.subscribe(channel)
            ready.set()
            async for message in pubsub.listen():
                if message.get("type") == "message":
                    on_message(message["data"])
        except asyncio.CancelledError:
            raise
        except retried as e:
            log.warning("%s: Redis unavailable (%s); retrying", what, type(e).__name__)
            await asyncio.sleep(1.0)
        finally:
            with contextlib.suppress(Exception):
                await client.aclose()
