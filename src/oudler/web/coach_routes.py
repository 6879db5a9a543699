"""The routes of the coach (docs/web-api.md, "Learning mode") and of a person's own play across
matches (``oudler.tables.coaching``, ``oudler.tables.history``)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, StrictBool, StrictInt

from oudler.tables.coaching import Coach
from oudler.tables.games import Tables
from oudler.tables.history import deal_review, player_history


class LearningBody(BaseModel):
    learning: StrictBool


class VersionBody(BaseModel):
    version: StrictInt


def coach_of(request: Request) -> Coach:
    coach: Coach = request.app.state.coach
    return coach


def add_coach_routes(app: FastAPI) -> None:
    @app.post("/api/matches/{match_id}/learning")
    def learning(request: Request, match_id: str, body: LearningBody) -> dict[str, Any]:
        player: str = request.state.player
        return coach_of(request).set_learning(player, match_id, body.learning)

    @app.post("/api/matches/{match_id}/hint")
    async def hint(request: Request, match_id: str, body: VersionBody) -> dict[str, Any]:
        player: str = request.state.player
        return await coach_of(request).hint(player, match_id, body.version)

    @app.post("/api/matches/{match_id}/undo")
    def undo(request: Request, match_id: str, body: VersionBody) -> dict[str, Any]:
        player: str = request.state.player
        return coach_of(request).tables.undo(player, match_id, body.version)

    @app.get("/api/matches/{match_id}/deals/{number}/analysis")
    def analysis(request: Request, match_id: str, number: int) -> dict[str, Any]:
        player: str = request.state.player
        return coach_of(request).analysis(player, match_id, number)


def add_history_routes(app: FastAPI) -> None:
    def tables(request: Request) -> Tables:
        t: Tables = request.app.state.tables
        return t

    @app.get("/api/history")
    def history(request: Request) -> dict[str, Any]:
        return player_history(tables(request), request.state.player)

    @app.get("/api/matches/{match_id}/deals/{number}")
    def review(request: Request, match_id: str, number: int) -> dict[str, Any]:
        return deal_review(tables(request), request.state.player, match_id, number)
