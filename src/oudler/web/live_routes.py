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
        sub = bus.subscribe(match_id)  # before the first view: no change falls between
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
                    await websocket.send_text(_dumps(view))
                    last = view
                changed = asyncio.create_task(sub.get())
                done, _ = await asyncio.wait({changed, reader}, return_when=asyncio.FIRST_COMPLETED)
                if reader in done:
                    changed.cancel()
                    return
        except (WebSocketDisconnect, RuntimeError):
            return  # gone while a view was being sent
        finally:
            sub.close()
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
