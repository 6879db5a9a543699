"""The routes of duplicate series (docs/web-api.md, "Series"; ``oudler.tables.series``)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import StreamingResponse

from oudler.tables.series import PAGE, Series


def series_of(request: Request) -> Series:
    series: Series | None = getattr(request.app.state, "series", None)
    if series is None:
        # Made on first use: the level is read then (OUDLER_SERIES_LEVEL), and no request
        # that does not ask about series pays for it.
        series = Series(request.app.state.tables)
        request.app.state.series = series
    return series


def add_series_routes(app: FastAPI) -> None:
    @app.get("/api/series/history")
    def history(request: Request) -> dict[str, Any]:
        return series_of(request).after.history(request.state.player)

    @app.get("/api/series")
    def listing(request: Request) -> dict[str, Any]:
        return series_of(request).listing(request.state.player)

    @app.post("/api/series/{series_id}/play")
    def play(request: Request, series_id: str) -> dict[str, Any]:
        return series_of(request).play(request.state.player, series_id)

    @app.get("/api/series/{series_id}/ranking")
    def ranking(
        request: Request,
        series_id: str,
        offset: int = Query(0, ge=0, le=1_000_000),
        limit: int = Query(PAGE, ge=1, le=200),
    ) -> dict[str, Any]:
        return series_of(request).ranking(request.state.player, series_id, offset, limit)

    @app.get("/api/series/{series_id}/review/{number}")
    def review(request: Request, series_id: str, number: int) -> dict[str, Any]:
        return series_of(request).after.review(request.state.player, series_id, number)

    @app.get("/api/series/{series_id}/export")
    def export(request: Request, series_id: str) -> StreamingResponse:
        series = series_of(request)
        lines = series.after.export_for(request.state.player, series_id)
        info = series.rows.get(series_id)
        assert info is not None
        name = "oudler-" + info.key.replace(":", "-") + ".jsonl"
        return StreamingResponse(
            lines,
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )
