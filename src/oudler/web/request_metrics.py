"""Counting the web table's HTTP answers into the process's ``Metrics`` (``GET /metrics``)."""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from oudler.tables.metrics import Metrics


class RequestMetrics:
    """ASGI middleware counting every HTTP answer and its latency, labelled by the route's path
    template (``/api/matches/{match_id}``), never by the match id itself."""

    def __init__(self, app: ASGIApp, *, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = [500]

        async def counting_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, counting_send)
        finally:
            route = scope.get("route")
            path = getattr(route, "path", None)
            if path is None:
                path = "/static" if scope["path"].startswith("/static/") else "other"
            method = scope["method"]
            self.metrics.requests.labels(method, path, str(status[0])).inc()
            self.metrics.latency.labels(method, path).observe(time.perf_counter() - start)
