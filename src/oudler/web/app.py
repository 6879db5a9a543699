"""The web table's HTTP server (docs/web-api.md): a thin layer over ``Tables``.

Routes are plain functions: Starlette runs them in its thread pool, so database writes and the
computer players' thinking never block the event loop. Shared objects live on ``app.state``.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, JsonValue, StrictInt, StrictStr
from starlette.exceptions import HTTPException as StarletteHTTPException

from oudler.core import IllegalActionError, NotationError, NotYourTurnError, OudlerError
from oudler.web.computer import ComputerPlayers
from oudler.web.games import ReplayError, Tables, WebError
from oudler.web.store import Store

log = logging.getLogger("oudler.web")

STATIC_DIR = Path(__file__).parent / "static"
PLAYER_COOKIE = "oudler_player"
_PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
COOKIE_AGE = 400 * 24 * 3600  # the longest browsers keep a cookie


def default_database_url() -> str:
    """SQLite in the user's data directory (created if needed)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("oudler", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'oudler.sqlite3'}"


# ---------------------------------------------------------------------------------- request bodies


class ReplayOf(BaseModel):
    match: StrictStr
    deal: StrictInt


class NewMatch(BaseModel):
    deals: StrictInt
    level: StrictStr
    seed: StrictInt | None = None
    replay_of: ReplayOf | None = None


class Versioned(BaseModel):
    version: StrictInt


class ActionBody(Versioned):
    action: JsonValue


# ---------------------------------------------------------------------------------- the app


def create_app(
    database_url: str | None = None,
    *,
    bot_processes: int = 0,
    static_dir: Path | None = None,
) -> FastAPI:
    """The web table. ``bot_processes`` > 0 runs the computer players in that many worker
    processes; 0 runs them in the request's worker thread (enough for tests and quick bots)."""
    store = Store(database_url or default_database_url())
    store.create_schema()
    computers = ComputerPlayers(processes=bot_processes)
    static = static_dir or STATIC_DIR

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        computers.close()
        store.close()

    app = FastAPI(title="Oudler", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.store = store
    app.state.computers = computers
    app.state.tables = Tables(store, computers)

    _add_player_cookie(app)
    _add_error_handlers(app)
    _add_api(app)
    _add_pages(app, static)
    return app


def tables_of(request: Request) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def player_of(request: Request) -> str:
    player: str = request.state.player
    return player


def _add_player_cookie(app: FastAPI) -> None:
    @app.middleware("http")
    async def player_cookie(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        given = request.cookies.get(PLAYER_COOKIE)
        new = given is None or not _PLAYER_ID.fullmatch(given)
        player = secrets.token_urlsafe(18) if new or given is None else given
        request.state.player = player
        response = await call_next(request)
        if new:
            response.set_cookie(
                PLAYER_COOKIE, player, max_age=COOKIE_AGE, httponly=True, samesite="lax"
            )
        return response


def _error(
    status: int, message: str, view: dict[str, Any] | None = None, code: str | None = None
) -> JSONResponse:
    body: dict[str, Any] = {"error": message} if code is None else {"error": message, "code": code}
    if view is not None:
        body["view"] = view
    return JSONResponse(body, status_code=status)


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(WebError)
    async def web_error(request: Request, exc: WebError) -> JSONResponse:
        return _error(exc.status, exc.message, exc.view)

    @app.exception_handler(OudlerError)
    async def engine_error(request: Request, exc: OudlerError) -> JSONResponse:
        # The engine's messages say why in plain words, about the person's own cards only.
        if isinstance(exc, NotationError):
            return _error(400, str(exc), code=exc.code)
        if isinstance(exc, NotYourTurnError):
            return _error(409, str(exc), code=exc.code)
        if isinstance(exc, IllegalActionError):
            return _error(422, str(exc), code=exc.code)
        return _error(400, str(exc), code=exc.code)

    @app.exception_handler(ReplayError)
    async def replay_error(request: Request, exc: ReplayError) -> JSONResponse:
        log.error("%s", exc)  # names no card
        return _error(500, "this match cannot be loaded: its stored actions do not replay")

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(400, _describe_validation(exc))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))


def _describe_validation(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors():
        if err.get("type") == "json_invalid":
            return "the request body is not valid JSON"
        where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
        msg = str(err.get("msg", "invalid"))
        parts.append(f"{where}: {msg}" if where else msg)
    return "malformed request: " + ("; ".join(parts) or "invalid body")


def _add_api(app: FastAPI) -> None:
    @app.get("/api/matches")
    def list_matches(request: Request) -> dict[str, Any]:
        return {"matches": tables_of(request).list(player_of(request))}

    @app.post("/api/matches", status_code=201)
    def create_match(request: Request, body: NewMatch) -> dict[str, Any]:
        replay = None if body.replay_of is None else (body.replay_of.match, body.replay_of.deal)
        return tables_of(request).create(
            player_of(request),
            deals=body.deals,
            level=body.level,
            seed=body.seed,
            replay_of=replay,
        )

    @app.get("/api/matches/{match_id}")
    def get_match(request: Request, match_id: str) -> dict[str, Any]:
        return tables_of(request).view(player_of(request), match_id)

    @app.post("/api/matches/{match_id}/actions")
    def act(request: Request, match_id: str, body: ActionBody) -> dict[str, Any]:
        return tables_of(request).act(player_of(request), match_id, body.version, body.action)

    @app.post("/api/matches/{match_id}/step")
    def step(request: Request, match_id: str, body: Versioned) -> dict[str, Any]:
        return tables_of(request).step(player_of(request), match_id, body.version)

    @app.post("/api/matches/{match_id}/next-deal")
    def next_deal(request: Request, match_id: str, body: Versioned) -> dict[str, Any]:
        return tables_of(request).next_deal(player_of(request), match_id, body.version)

    @app.get("/api/matches/{match_id}/record")
    def record(request: Request, match_id: str) -> JSONResponse:
        body = tables_of(request).record(player_of(request), match_id)
        return JSONResponse(
            body,
            headers={"Content-Disposition": f'attachment; filename="oudler-{match_id}.json"'},
        )


def _add_pages(app: FastAPI, static: Path) -> None:
    def page(name: str) -> FileResponse:
        path = static / name
        if not path.is_file():
            raise StarletteHTTPException(404, f"{name} is missing from the server's static files")
        return FileResponse(path, headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return page("index.html")

    @app.get("/rules", include_in_schema=False)
    def rules() -> FileResponse:
        return page("rules.html")

    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")
