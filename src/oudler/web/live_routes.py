"""``/api/matches/{id}/live``: a WebSocket that pushes the person's view of the match each time it
changes (docs/web-api.md, "Live"), whichever web process stored the change.

The socket sends the view (the same JSON object ``GET /api/matches/{id}`` answers that person) at
once, then after every change announced on the bus, built afresh from the stored log: a view
missed while the socket was down is never needed, the next one is complete. The browser sends
nothing that matters (actions go through the HTTP API); the socket only tells.

A match's sockets in this process share one ``Room``: after a change it loads the match once (one
read of the database, and of the log's new actions only; none on the embedded bus, where every
change was made by this process) and builds and serializes each person's view once, for all of
that person's sockets. Views are keyed by the player of the socket (who
sits at one seat of the table at most), never by seat number alone: a socket is only ever given
the view built for its own player.

Each web process holds at most ``LIVE_SOCKETS`` sockets per player and match and per client
address (behind a proxy: the forwarded one); one more is closed with 4429 at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import FastAPI, WebSocket
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocketDisconnect

from oudler.tables.games import Tables, WebError
from oudler.tables.live import LocalBus, Subscription
from oudler.tables.presence import EventSub, TableHub
from oudler.web.origin import origin_allowed
from oudler.web.progress import add_warming

log = logging.getLogger("oudler.web")
K = TypeVar("K")

# Close codes (4000-4999: the application's own).
NOT_SIGNED_IN = 4401  # no valid player cookie
FORBIDDEN_ORIGIN = 4403  # the page that opened the socket is not this site's
NO_SUCH_MATCH = 4404  # no such match, or the player does not sit there
TOO_MANY_SOCKETS = 4429  # this player (at this match) or address holds too many here already
UNAVAILABLE = 4503  # the database failed: reconnect later
SESSION_CHECK = 15.0  # seconds between a signed-in socket's looks at its session

# Sockets one web process holds: per player and match (a person's tabs), per client address
# (the people behind one router, their tabs at every table).
LIVE_SOCKETS = (8, 64)


def same_origin(websocket: WebSocket, public_url: str | None = None, https: bool = False) -> bool:
    """A browser sends the page's origin with a WebSocket handshake, and the cookie goes along
    whatever page opens it: only this site's pages may listen (cross-site WebSocket hijacking).
    The check of every request that changes state (``oudler.web.origin``), with the host also
    one a DNS name cannot be rebound to when no public URL is set."""
    return origin_allowed(websocket.scope, public_url, https=https, strict_host=True)


def _after(done: asyncio.Future[None], call: Callable[..., None], *args: Any) -> None:
    """Run ``call(*args)`` in a thread once ``done`` is (at once if it is), logging a failure."""
    loop = asyncio.get_running_loop()

    def run() -> None:
        try:
            call(*args)
        except Exception:
            log.exception("a live socket's presence could not be given back")

    done.add_done_callback(lambda _: loop.run_in_executor(None, run))


class SocketCount:
    """The live sockets this process holds, by player and match and by client address (any
    event loop: a lock)."""

    def __init__(self, limits: tuple[int, int] = LIVE_SOCKETS) -> None:
        self.per_player, self.per_address = limits
        self._players: Counter[tuple[str, str]] = Counter()
        self._addresses: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, player: str, match_id: str, address: str) -> bool:
        """Count one more socket, unless either limit is reached (then nothing is counted)."""
        with self._lock:
            if (
                self._players[player, match_id] >= self.per_player
                or self._addresses[address] >= self.per_address
            ):
                return False
            self._players[player, match_id] += 1
            self._addresses[address] += 1
            return True

    def give_back(self, player: str, match_id: str, address: str) -> None:
        with self._lock:
            _drop(self._players, (player, match_id))
            _drop(self._addresses, address)


def _drop(counter: Counter[K], key: K) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


def _dumps(view: dict[str, Any]) -> str:
    return json.dumps(view, separators=(",", ":"))


async def _watch_session(
    websocket: WebSocket, accounts: Any, session: str, every: float, lock: asyncio.Lock
) -> None:
    """Every ``every`` seconds, whether the socket's session still exists; once it is gone the
    socket closes with ``NOT_SIGNED_IN``: a device signed out (everywhere, or by the account's
    deletion) hears no more of the seat. A database that cannot answer closes nothing."""
    while True:
        await asyncio.sleep(every)
        try:
            alive = await run_in_threadpool(accounts.alive, session)
        except Exception:
            continue
        if not alive:
            async with lock:
                with contextlib.suppress(Exception):
                    await websocket.close(NOT_SIGNED_IN, "signed out")
            return


async def _until_closed(websocket: WebSocket) -> None:
    """Read (and ignore) what the browser sends, until it goes away."""
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return


async def _events(websocket: WebSocket, hub: TableHub, sub: EventSub, lock: asyncio.Lock) -> None:
    """At a table with people, for a page that asked (``?events=1``): who is connected
    (``{"event": "presence", "connected": [seats]}``, at once and at each change) and the
    phrases said (``{"event": "phrase", "seat", "phrase"}``), between the views. A presence
    event also says how long each seat not connected has been away (``absent``: seconds by
    seat) and ``free_after``, for the creator's page to offer to free a seat left for good."""
    match_id = sub.match_id
    try:
        told: list[int] | None = None
        event: dict[str, Any] = {"event": "presence"}
        while True:
            message: dict[str, Any] | None = event
            if event["event"] == "presence":
                now = await run_in_threadpool(hub.connected, match_id)
                message = None if now == told else await _presence(hub, match_id, now)
                told = now
            if message is not None:
                async with lock:
                    await websocket.send_text(_dumps(message))
            event = await sub.get()
    except (WebSocketDisconnect, RuntimeError):
        return


async def _presence(hub: TableHub, match_id: str, connected: list[int]) -> dict[str, Any]:
    """Who is connected; for the others, how many seconds they have been away (as this process
    knows it), and after how long the creator may free such a seat (``free_after``)."""

    def away() -> dict[str, float]:
        gone = [s for s in range(4) if s not in connected]
        return {str(s): round(hub.absent_for(match_id, s, 0.0), 1) for s in gone}

    absent = await run_in_threadpool(away)
    return {
        "event": "presence",
        "connected": connected,
        "absent": absent,
        "free_after": hub.free_after,
    }


class Feed:
    """What one socket is to send: its player's latest view (as JSON text) not yet sent, or
    the code to close with. Only the latest matters: every view is complete."""

    def __init__(self, player: str) -> None:
        self.player = player
        self.latest: str | None = None  # the last text offered (sent, or about to be)
        self.pending: str | None = None
        self.code: int | None = None
        self.gone = False  # the browser went away
        self.seat: int | None = None  # the player's seat at a table with people (presence)
        self.ready = asyncio.Event()

    def offer(self, text: str, seat: int | None) -> None:
        self.seat = seat
        if text != self.latest:  # an unchanged view is not sent again
            self.latest = self.pending = text
            self.ready.set()

    def close(self, code: int) -> None:
        self.code = code
        self.ready.set()

    def stop(self) -> None:
        self.gone = True
        self.ready.set()

    async def next(self) -> str | int | None:
        """The next text to send, the code to close with, or None once the browser is gone."""
        await self.ready.wait()
        self.ready.clear()
        if self.gone:
            return None
        if self.code is not None:
            return self.code
        text, self.pending = self.pending, None
        assert text is not None
        return text


class Room:
    """The sockets of one match in this process (on one event loop): a change announced on the
    bus, or a socket joining, wakes it; it builds each listening player's view once and offers
    it to that player's sockets."""

    def __init__(self, live: LiveViews, match_id: str) -> None:
        self.live = live
        self.match_id = match_id
        self.feeds: dict[str, set[Feed]] = {}  # by player
        self.joined = True  # a socket joined since the last build: its first view is read afresh
        self.sub: Subscription = live.bus.subscribe(match_id)
        self.task = asyncio.create_task(self._run(), name=f"oudler-live-{match_id}")

    def wake(self) -> None:
        self.joined = True
        self.sub.event.set()  # as an announcement would: build the views now

    async def _run(self) -> None:
        while True:
            await self.sub.get()  # announcements in a row merge: the next build is complete
            players = [p for p, feeds in self.feeds.items() if feeds]
            if not players:
                continue
            # On the embedded bus each change announced was made here, the match in memory
            # updated first: no read (with other processes, the database tells what they did).
            cached = not self.live.bus.shared and not self.joined
            self.joined = False
            try:
                views = await run_in_threadpool(
                    self.live.tables.views, self.match_id, players, cached
                )
                for player, view in views.items():
                    feeds = self.feeds.get(player, set())
                    if isinstance(view, WebError):
                        code = NO_SUCH_MATCH if view.status == 404 else UNAVAILABLE
                        for feed in feeds:
                            feed.close(code)
                        continue
                    text = _dumps(self.live.decorate(view))  # once for all the player's sockets
                    seat = int(view["seat"]) if "seats" in view else None
                    for feed in feeds:
                        feed.offer(text, seat)
            except Exception as e:  # the database: the pages reconnect and poll
                log.warning("live: a view failed (%s)", type(e).__name__)
                for feeds in self.feeds.values():
                    for feed in feeds:
                        feed.close(UNAVAILABLE)


class LiveViews:
    """The rooms of this process's live sockets, one per match and event loop."""

    def __init__(
        self,
        tables: Tables,
        bus: LocalBus,
        decorate: Callable[[dict[str, Any]], dict[str, Any]],
    ) -> None:
        self.tables = tables
        self.bus = bus
        self.decorate = decorate  # what the HTTP answers add to a view (the warm-up)
        self._rooms: dict[tuple[str, asyncio.AbstractEventLoop], Room] = {}

    def join(self, match_id: str, player: str) -> Feed:
        """A socket of ``player`` listens to ``match_id`` (on the running loop): its first view
        comes at once, and a new one after each change from now on."""
        key = (match_id, asyncio.get_running_loop())
        room = self._rooms.get(key)
        if room is None:
            room = self._rooms[key] = Room(self, match_id)
        feed = Feed(player)
        room.feeds.setdefault(player, set()).add(feed)
        room.wake()
        return feed

    def leave(self, match_id: str, feed: Feed) -> None:
        key = (match_id, asyncio.get_running_loop())
        room = self._rooms.get(key)
        if room is None:
            return
        feeds = room.feeds.get(feed.player, set())
        feeds.discard(feed)
        if not feeds:
            room.feeds.pop(feed.player, None)
        if not room.feeds:  # the last socket of the match here: the room goes
            del self._rooms[key]
            room.task.cancel()
            room.sub.close()

    def rooms(self) -> int:
        return len(self._rooms)


def add_live_routes(app: FastAPI) -> None:

    computers = app.state.computers
    # The views pushed say what the HTTP answers say of the warm-up (``with_warming``).
    app.state.live = LiveViews(
        app.state.tables, app.state.bus, lambda view: add_warming(computers, view)
    )
    sockets = SocketCount(getattr(app.state, "live_sockets", LIVE_SOCKETS))

    @app.websocket("/api/matches/{match_id}/live")
    async def live(websocket: WebSocket, match_id: str) -> None:
        await websocket.accept()
        player: str | None = websocket.scope.get("state", {}).get("player")
        state = websocket.app.state
        if not same_origin(websocket, state.public_url, state.https):
            await websocket.close(FORBIDDEN_ORIGIN, "cross-site")
            return
        if player is None:
            await websocket.close(NOT_SIGNED_IN, "no player cookie")
            return
        address = websocket.client.host if websocket.client else ""
        if not sockets.take(player, match_id, address):
            await websocket.close(TOO_MANY_SOCKETS, "too many sockets")
            return
        live: LiveViews = websocket.app.state.live
        hub: TableHub = websocket.app.state.hub
        wants_events = websocket.query_params.get("events") == "1"
        lock = asyncio.Lock()  # the views and the events share the socket
        side: asyncio.Task[None] | None = None
        present: int | None = None  # the seat this socket counts as connected
        joining: asyncio.Future[None] | None = None  # its count taken (``hub.join``)
        feed = live.join(match_id, player)  # before the first view: no change falls between
        said = hub.subscribe(match_id) if wants_events else None  # nor a phrase
        reader = asyncio.create_task(_until_closed(websocket))
        reader.add_done_callback(lambda _: feed.stop())
        signed = websocket.scope.get("state", {}).get("account")
        watch = None
        if signed is not None:  # it ends with its session (signed out everywhere, deleted)
            every = getattr(state, "session_check", SESSION_CHECK)
            watch = asyncio.create_task(
                _watch_session(websocket, state.accounts, signed.session, every, lock)
            )
            watch.add_done_callback(lambda _: feed.stop())
        try:
            while True:
                message = await feed.next()
                if message is None:
                    return
                if isinstance(message, int):
                    await websocket.close(message)
                    return
                async with lock:
                    await websocket.send_text(message)
                if present is None and feed.seat is not None:  # a table with people
                    present = feed.seat
                    # In a thread of its own, which no cancellation of this handler stops: its
                    # leave (below) follows it, whatever happens here meanwhile.
                    joining = asyncio.get_running_loop().run_in_executor(
                        None, hub.join, match_id, present
                    )
                    await asyncio.shield(joining)
                    if said is not None:
                        side = asyncio.create_task(_events(websocket, hub, said, lock))
        except (WebSocketDisconnect, RuntimeError):
            return  # gone while a view was being sent
        finally:
            sockets.give_back(player, match_id, address)
            live.leave(match_id, feed)
            if said is not None:
                said.close()
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
            if watch is not None:
                watch.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await watch
            if side is not None:
                side.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await side
            if present is not None and joining is not None:
                # Not awaited: a cancelled handler (a client gone while the server is busy; a
                # cancel scope raises again at every later await) must still give the seat
                # back, and only once its join is done, or the seat stays counted for ever.
                _after(joining, hub.leave, match_id, present)
