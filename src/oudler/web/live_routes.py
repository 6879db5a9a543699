"""``/api/matches/{id}/live``: a WebSocket that pushes the person's view of the match each time it
changes (docs/web-api.md, "Live"), whichever web process stored the change.

The socket sends the view (the same JSON object ``GET /api/matches/{id}`` answers that person) at
once, then after every change announced on the bus, built afresh from the stored log: a view
missed while the socket was down is never needed, the next one is complete. The browser sends
nothing that matters (actions go through the HTTP API); the socket only tells.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import FastAPI, WebSocket
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocketDisconnect

from oudler.tables.games import Tables, WebError
from oudler.tables.live import LocalBus
from oudler.tables.presence import EventSub, TableHub

log = logging.getLogger("oudler.web")

# Close codes (4000-4999: the application's own).
NOT_SIGNED_IN = 4401  # no valid player cookie
FORBIDDEN_ORIGIN = 4403  # the page that opened the socket is not this site's
NO_SUCH_MATCH = 4404  # no such match, or the player does not sit there
UNAVAILABLE = 4503  # the database failed: reconnect later


def same_origin(websocket: WebSocket) -> bool:
    """A browser sends the page's origin with a WebSocket handshake, and the cookie goes along
    whatever page opens it: only this site's pages may listen (cross-site WebSocket hijacking).
    A client without an Origin header is not a browser page."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    return origin.split("://", 1)[-1].rstrip("/") == host


def _dumps(view: dict[str, Any]) -> str:
    return json.dumps(view, separators=(",", ":"))


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
    phrases said (``{"event": "phrase", "seat", "phrase"}``), between the views."""
    match_id = sub.match_id
    try:
        told: list[int] | None = None
        event: dict[str, Any] = {"event": "presence"}
        while True:
            message: dict[str, Any] | None = event
            if event["event"] == "presence":
                now = await run_in_threadpool(hub.connected, match_id)
                message = None if now == told else {"event": "presence", "connected": now}
                told = now
            if message is not None:
                async with lock:
                    await websocket.send_text(_dumps(message))
            event = await sub.get()
    except (WebSocketDisconnect, RuntimeError):
        return


def add_live_routes(app: FastAPI) -> None:
    @app.websocket("/api/matches/{match_id}/live")
    async def live(websocket: WebSocket, match_id: str) -> None:
        await websocket.accept()
        player: str | None = websocket.scope.get("state", {}).get("player")
        if not same_origin(websocket):
            await websocket.close(FORBIDDEN_ORIGIN, "cross-site")
            return
        if player is None:
            await websocket.close(NOT_SIGNED_IN, "no player cookie")
            return
        tables: Tables = websocket.app.state.tables
        bus: LocalBus = websocket.app.state.bus
        hub: TableHub = websocket.app.state.hub
        wants_events = websocket.query_params.get("events") == "1"
        lock = asyncio.Lock()  # the views and the events share the socket
        side: asyncio.Task[None] | None = None
        present: int | None = None  # the seat this socket counts as connected
        sub = bus.subscribe(match_id)  # before the first view: no change falls between
        said = hub.subscribe(match_id) if wants_events else None  # nor a phrase
        reader = asyncio.create_task(_until_closed(websocket))
        try:
            last: dict[str, Any] | None = None
            while True:
                try:
                    view = await run_in_threadpool(tables.view, player, match_id)
                except WebError as e:
                    await websocket.close(NO_SUCH_MATCH if e.status == 404 else UNAVAILABLE)
                    return
                except Exception as e:  # the database: the page reconnects and polls
                    log.warning("live: a view failed (%s)", type(e).__name__)
                    await websocket.close(UNAVAILABLE)
                    return
                from oudler.web.app import with_warming  # the app imports this module

                view = with_warming(websocket, view)  # as GET answers it
                if view != last:
                    async with lock:
                        await websocket.send_text(_dumps(view))
                    last = view
                if present is None and "seats" in view:  # a table with people
                    present = int(view["seat"])
                    await run_in_threadpool(hub.join, match_id, present)
                    if said is not None:
                        side = asyncio.create_task(_events(websocket, hub, said, lock))
                changed = asyncio.create_task(sub.get())
                done, _ = await asyncio.wait({changed, reader}, return_when=asyncio.FIRST_COMPLETED)
                if reader in done:
                    changed.cancel()
                    return
        except (WebSocketDisconnect, RuntimeError):
            return  # gone while a view was being sent
        finally:
            sub.close()
            if said is not None:
                said.close()
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
            if side is not None:
                side.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await side
            if present is not None:
                with contextlib.suppress(Exception):
                    await run_in_threadpool(hub.leave, match_id, present)
