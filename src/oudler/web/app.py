"""The web table's HTTP server (docs/web-api.md): a thin layer over ``Tables``.

Routes are plain functions, which Starlette runs in its thread pool, so database writes never block
the event loop; except ``step``, a coroutine that awaits the computer player's decision on the
job queue, so that no thread waits for a thinking bot. Shared objects live on ``app.state``.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import BaseModel, JsonValue, StrictBool, StrictInt, StrictStr
from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from oudler.core import IllegalActionError, NotationError, NotYourTurnError, OudlerError
from oudler.tables.accounts import Accounts
from oudler.tables.clock import Clock
from oudler.tables.coaching import Coach
from oudler.tables.computer import ComputerPlayers
from oudler.tables.device_links import DeviceLinks
from oudler.tables.games import (
    NEW_MATCH_LIMIT,
    STEP_WAIT,
    BadRequest,
    Conflict,
    ReplayError,
    Tables,
    WebError,
)
from oudler.tables.jobs import EXPERT, LANES, JobQueue, LocalQueue, SplitQueue
from oudler.tables.live import Driver, make_bus
from oudler.tables.metrics import Metrics
from oudler.tables.passkeys import Passkeys
from oudler.tables.presence import (
    FREE_AFTER,
    PHRASE_LIMIT,
    PRESENCE_TTL,
    TableHub,
    make_hub,
    say,
)
from oudler.tables.store import DatabaseUnavailable, Store
from oudler.web import addresses
from oudler.web.account_routes import (
    AccountSessions,
    account_of,
    add_account_routes,
    add_data_routes,
    signed_of,
)
from oudler.web.coach_routes import add_coach_routes, add_history_routes
from oudler.web.live_routes import LIVE_SOCKETS, add_live_routes
from oudler.web.origin import SameOrigin
from oudler.web.passkey_routes import add_passkey_routes
from oudler.web.progress import add_warming, warming
from oudler.web.request_metrics import RequestMetrics
from oudler.web.security import MAX_BODY, Hardening, PlayerIds, legacy_id
from oudler.web.series_routes import add_series_routes

log = logging.getLogger("oudler.web")

STATIC_DIR = Path(__file__).parent / "static"
PLAYER_COOKIE = "oudler_player"
COOKIE_AGE = 400 * 24 * 3600  # the longest browsers keep a cookie
COMPUTER_PAUSE = 0.8  # seconds before a computer player acts at a table with people


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
    learning: StrictBool = False
    seats: list[StrictStr] | None = None
    turn_time: StrictInt | None = None
    hints: StrictBool = False  # at a table with friends: may each ask the coach
    reserved: dict[str, StrictStr] | None = None  # seat ("1") -> the account it is kept for


class NameBody(BaseModel):
    name: StrictStr


class PhraseBody(BaseModel):
    phrase: StrictStr


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
    https: bool = False,
    secret_key: str | None = None,
    max_body: int = MAX_BODY,
    new_match_limit: tuple[int, float] = NEW_MATCH_LIMIT,
    coach_worlds: int | None = None,
    queue_url: str | None = None,
    queue_lanes: tuple[str, ...] = LANES,
    step_wait: float = STEP_WAIT,
    decision_timeout: float = 60.0,
    live_url: str | None = None,
    computer_pause: float = COMPUTER_PAUSE,
    warm_kernel: bool | str = False,
    phrase_limit: tuple[int, float] = PHRASE_LIMIT,
    presence_ttl: float = PRESENCE_TTL,
    public_url: str | None = None,
    listen_host: str | None = None,
    live_sockets: tuple[int, int] = LIVE_SOCKETS,
    free_after: float = FREE_AFTER,
) -> FastAPI:
    """The web table. The computer players think on a job queue (``oudler.tables.jobs``): with
    ``queue_url`` (``redis://...``), on ``oudler worker`` processes anywhere; without it, random,
    novice and club in threads of this process and the expert in ``bot_processes`` worker
    processes (0: threads, enough for tests). ``queue_lanes``: the lanes sent to the queue at
    ``queue_url`` (the others think here, as without it). ``step_wait``: how long a step request
    awaits a decision before answering 202; ``decision_timeout``: when a decision is cancelled
    (503).

    ``https``: the site is served over HTTPS (directly or behind a proxy), so the player cookie
    is ``Secure``; a request that uvicorn sees as HTTPS (proxy headers) gets it anyway.
    ``secret_key`` signs player ids (default: a key made once and kept in the database).
    ``new_match_limit``: at most that many new matches per player within that many seconds.
    ``coach_worlds``: the coach samples exactly that many worlds per decision, with no cap of
    wall time (reproducible hints and analyses whatever the load, for tests).

    ``live_url``: the Redis that carries the live tables' announcements between web processes
    (default: ``queue_url``; without either, within this process only). ``computer_pause``:
    seconds before each computer player's action at a table with people, for them to follow.

    ``phrase_limit``: at most that many phrases per person and table within that many seconds.
    ``presence_ttl``: over Redis, how long a web process's sockets count as connected after its
    last heartbeat (a third of it apart): a killed process's people show as gone after that.
    ``free_after``: seconds a person must have had no page open on a table before its creator
    may free their seat.

    ``warm_kernel``: at the start, build (or load) the expert's compiled search in a process of
    its own, the expert deciding with its pure-Python search until it is ready, and say so in
    the views of expert matches (``oudler serve``; ``oudler.tables.warming``). Without it the
    worker processes load or build it before their first decision (threads: at their first).
    A string names the warm-up function to run instead of the kernel's (for tests).

    ``public_url``: the address people reach the site at (``oudler.web.addresses``): invitation
    links are built on it, and only its pages may open the live socket. ``listen_host``: the
    address the server listens on, for the addresses to share when a link names this machine
    only. ``live_sockets``: the live sockets a process holds per player and match, and per
    client address."""
    store = Store(database_url or default_database_url())
    store.create_schema()
    stored_key, signing_since = store.player_key()
    player_ids = PlayerIds((secret_key or stored_key).encode())
    metrics = Metrics()
    queue: JobQueue | None = None
    if queue_url is not None:
        from oudler.tables.redisqueue import RedisQueue

        queue = RedisQueue(queue_url)
        if set(queue_lanes) != set(LANES):  # the other lanes think here, as without a queue
            local = LocalQueue(bot_processes, warm=False if EXPERT in queue_lanes else warm_kernel)
            queue = SplitQueue(queue, set(queue_lanes), local)
    computers = ComputerPlayers(
        processes=bot_processes,
        timeout=decision_timeout,
        metrics=metrics,
        queue=queue,
        warm=warm_kernel,
    )
    static = static_dir or STATIC_DIR

    bus = make_bus(live_url or queue_url)
    # Who is connected, and the phrases said.
    hub = make_hub(
        live_url or queue_url, phrase_limit=phrase_limit, ttl=presence_ttl, free_after=free_after
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await computers.start()
        await bus.start()
        await hub.start()
        await app.state.driver.start()
        await app.state.clock.start()
        yield
        series = getattr(app.state, "series", None)
        if series is not None:
            series.stop()  # a series being made in the background is left
        await app.state.clock.close()
        await app.state.driver.close()
        await hub.close()
        await bus.close()
        app.state.coach.close()
        await computers.close()
        store.close()

    app = FastAPI(title="Oudler", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.store = store
    app.state.public_url = None if public_url is None else addresses.public_url(public_url)
    app.state.listen_host = listen_host
    app.state.https = https
    app.state.live_sockets = live_sockets
    app.state.accounts = Accounts(store)
    app.state.passkeys = Passkeys(app.state.accounts)
    app.state.device_links = DeviceLinks(app.state.accounts)
    app.state.computers = computers
    app.state.metrics = metrics
    app.state.tables = Tables(
        store, computers, new_match_limit=new_match_limit, step_wait=step_wait
    )
    app.state.bus = bus
    app.state.hub = hub
    app.state.driver = Driver(app.state.tables.drive_step, pause=computer_pause)
    app.state.tables.bus = bus
    app.state.tables.driver = app.state.driver
    app.state.clock = Clock(app.state.tables.stand_in)
    app.state.tables.clock = app.state.clock
    app.state.coach = Coach(
        app.state.tables,
        computers,
        worlds=coach_worlds,
        analysis_processes=1 if bot_processes > 0 else 0,
    )

    _add_error_handlers(app)
    _add_api(app)
    add_live_routes(app)
    add_coach_routes(app)
    add_history_routes(app)
    add_account_routes(app)
    add_passkey_routes(app)
    add_data_routes(app)
    add_series_routes(app)
    _add_health(app)
    _add_pages(app, static)
    app.add_middleware(
        AccountSessions,
        accounts=app.state.accounts,
        ids=player_ids,
        player_cookie=PLAYER_COOKIE,
        cookie_age=COOKIE_AGE,
        https=https,
    )  # inside PlayerCookie: a session's account overrides the guest cookie's player id
    app.add_middleware(
        PlayerCookie, ids=player_ids, store=store, signing_since=signing_since, https=https
    )
    # before a new guest id is issued to a foreign page
    app.add_middleware(SameOrigin, public_url=app.state.public_url, https=https)
    app.add_middleware(RequestMetrics, metrics=metrics)
    app.add_middleware(Hardening, max_body=max_body, https=https)  # outermost: every answer
    return app


def tables_of(request: Request) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def player_of(request: Request) -> str:
    player: str = request.state.player
    return player


class PlayerCookie:
    """Who is asking: the player id from the signed cookie, put in ``request.state.player``; a
    missing, unsigned or forged cookie gets a new id, sent back in a ``Set-Cookie``. A plain
    ASGI middleware: Starlette's ``@app.middleware("http")`` runs every request through a task
    group and memory streams of its own, a cost paid on each of a table's requests."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        ids: PlayerIds,
        store: Store,
        signing_since: dt.datetime,
        https: bool,
    ) -> None:
        self.app = app
        self.ids = ids
        self.store = store
        self.signing_since = signing_since
        self.https = https

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            # A live table's socket: only a cookie this server signed names the player (none is
            # issued here; the page has one from loading the table).
            given = HTTPConnection(scope).cookies.get(PLAYER_COOKIE)
            signed = self.ids.verify(given)
            if signed is not None:
                scope.setdefault("state", {})["player"] = signed
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = Request(scope).cookies.get(PLAYER_COOKIE)
        player = self.ids.verify(given)
        issue = player is None
        if player is None:
            # An id from before ids were signed is kept if the database knew it then; any other
            # unsigned or forged one (e.g. planted to fix someone's session) is replaced.
            old = legacy_id(given)
            try:
                known = old is not None and await run_in_threadpool(
                    self.store.legacy_player, old, self.signing_since
                )
            except (SQLAlchemyError, DatabaseUnavailable) as e:
                await _database_error(e)(scope, receive, send)
                return
            player = old if known and old is not None else self.ids.issue()[0]
        scope.setdefault("state", {})["player"] = player  # read as request.state.player
        if not issue:
            await self.app(scope, receive, send)
            return
        header = _set_cookie(self.ids.cookie(player), self.https or scope.get("scheme") == "https")

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), header]}
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def _set_cookie(value: str, secure: bool) -> tuple[bytes, bytes]:
    """The ``Set-Cookie`` header giving the player id cookie, as Starlette writes it."""
    response = Response()
    response.set_cookie(
        PLAYER_COOKIE, value, max_age=COOKIE_AGE, httponly=True, samesite="lax", secure=secure
    )
    name, line = response.raw_headers[-1]
    assert name == b"set-cookie"
    return name, line


def _error(
    status: int, message: str, view: dict[str, Any] | None = None, code: str | None = None
) -> JSONResponse:
    body: dict[str, Any] = {"error": _clip(message)}
    if code is not None:
        body["code"] = code
    if view is not None:
        body["view"] = view
    return JSONResponse(body, status_code=status)


def _database_error(exc: Exception) -> JSONResponse:
    if isinstance(exc, DatabaseUnavailable):
        log.error("%s", exc)
        return _error(503, str(exc))
    # The driver's own words (e.g. "database or disk is full"), never the statement's values.
    cause = exc.orig if isinstance(exc, SQLAlchemyError) and hasattr(exc, "orig") else exc
    log.error("database failure: %s: %s", type(cause).__name__, cause)
    return _error(503, "the database is unavailable; nothing was changed, try again later")


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(SQLAlchemyError)
    async def database_error(request: Request, exc: SQLAlchemyError) -> JSONResponse:
        return _database_error(exc)

    @app.exception_handler(DatabaseUnavailable)
    async def database_gone(request: Request, exc: DatabaseUnavailable) -> JSONResponse:
        return _database_error(exc)

    @app.exception_handler(WebError)
    async def web_error(request: Request, exc: WebError) -> JSONResponse:
        return _error(exc.status, exc.message, exc.view, exc.code)

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


_LONG_QUOTE = re.compile(r"'([^']{24})[^']{8,}'")
MAX_MESSAGE = 300


def _clip(message: str) -> str:
    """A notation error quotes what was sent: keep a long value's start only, never echo it."""
    message = _LONG_QUOTE.sub(r"'\1…'", message)
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def _describe_validation(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors():
        if err.get("type") == "json_invalid":
            return "the request body is not valid JSON"
        where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
        msg = str(err.get("msg", "invalid"))
        parts.append(f"{where}: {msg}" if where else msg)
    return "malformed request: " + ("; ".join(parts) or "invalid body")


def warming_of(request: HTTPConnection) -> dict[str, float] | None:
    """``{"progress": share}`` while the expert's compiled search is being built (its computer
    players meanwhile decide with the pure-Python search), else None."""
    return warming(request.app.state.computers)


def with_warming(request: HTTPConnection, view: dict[str, Any]) -> dict[str, Any]:
    return add_warming(request.app.state.computers, view)


def with_links(request: Request, view: dict[str, Any]) -> dict[str, Any]:
    """An answer's invitation links (``invites``): on the public URL when one is set (else
    relative, opened at the page's own address); and when that address opens on this machine
    only (``localhost``, ``0.0.0.0``), ``"local": true`` with the same links on the machine's
    network addresses in ``instead`` (none when the server listens on this machine only)."""
    invites = view.get("invites")
    if not invites:
        return view
    state = request.app.state
    base = state.public_url or f"{request.url.scheme}://{request.headers.get('host', '')}"
    origin = addresses.origin_of(base)
    local = origin is not None and addresses.this_machine_only(origin.host)
    shared = addresses.shared_addresses(state.listen_host) if local else []
    for invite in invites:
        path = str(invite["url"])
        if state.public_url is not None:
            invite["url"] = state.public_url + path
        if local and origin is not None:
            invite["local"] = True
            invite["instead"] = [
                addresses.Origin(origin.scheme, host, origin.port).url() + path for host in shared
            ]
    return view


def _reserved_seats(reserved: dict[str, str] | None) -> dict[int, str] | None:
    """``{"1": "Camille"}`` as seat numbers; 400 ``bad_reservation`` for a key that is none."""
    if reserved is None:
        return None
    if any(not (key.isascii() and key.isdigit() and len(key) == 1) for key in reserved):
        raise BadRequest(
            'reserved maps a seat ("1", "2" or "3") to an account name', code="bad_reservation"
        )
    return {int(key): name for key, name in reserved.items()}


def _add_api(app: FastAPI) -> None:
    @app.get("/api/matches")
    def list_matches(request: Request) -> dict[str, Any]:
        return {"matches": tables_of(request).list(player_of(request))}

    @app.get("/api/computer-players")
    async def computer_players(request: Request) -> dict[str, Any]:
        await request.app.state.computers.refresh_warming()
        return {"warming": warming_of(request)}

    @app.post("/api/matches", status_code=201)
    def create_match(request: Request, body: NewMatch) -> dict[str, Any]:
        replay = None if body.replay_of is None else (body.replay_of.match, body.replay_of.deal)
        reserved = _reserved_seats(body.reserved)
        return with_links(request, with_warming(request, tables_of(request).create(
            player_of(request),
            deals=body.deals,
            level=body.level,
            seed=body.seed,
            replay_of=replay,
            learning=body.learning,
            seats=body.seats,
            turn_time=body.turn_time,
            hints=body.hints,
            reserved=reserved,
        )))  # fmt: skip

    @app.get("/api/matches/{match_id}")
    def get_match(request: Request, match_id: str) -> dict[str, Any]:
        return with_warming(request, tables_of(request).view(player_of(request), match_id))

    @app.post("/api/matches/{match_id}/actions")
    def act(request: Request, match_id: str, body: ActionBody) -> dict[str, Any]:
        view = tables_of(request).act(player_of(request), match_id, body.version, body.action)
        return with_warming(request, view)

    @app.post("/api/matches/{match_id}/step")
    async def step(request: Request, match_id: str, body: Versioned) -> JSONResponse:
        # Async: the decision is awaited on the event loop, no thread waits for it.
        status, view = await tables_of(request).step(player_of(request), match_id, body.version)
        await request.app.state.computers.refresh_warming()
        return JSONResponse(with_warming(request, view), status_code=status)

    @app.post("/api/matches/{match_id}/next-deal")
    def next_deal(request: Request, match_id: str, body: Versioned) -> dict[str, Any]:
        view = tables_of(request).next_deal(player_of(request), match_id, body.version)
        return with_warming(request, view)

    @app.get("/api/me")
    def me(request: Request) -> dict[str, Any]:
        return {**tables_of(request).me(player_of(request)), "account": account_of(request)}

    @app.post("/api/me")
    def set_name(request: Request, body: NameBody) -> dict[str, Any]:
        if signed_of(request) is not None:
            # A signed-in person's table name is their account's, the same on every device.
            raise Conflict(
                "signed in, your name at the table is your account's: change it with "
                "POST /api/account/name",
                code="name_is_account",
            )
        named = tables_of(request).set_name(player_of(request), body.name)
        return {**named, "account": account_of(request)}

    @app.post("/api/matches/{match_id}/phrase")
    def phrase(request: Request, match_id: str, body: PhraseBody) -> dict[str, Any]:
        hub = request.app.state.hub
        return say(tables_of(request), hub, player_of(request), match_id, body.phrase)

    @app.post("/api/matches/{match_id}/seats/{seat}/computer")
    def seat_computer(request: Request, match_id: str, seat: int) -> dict[str, Any]:
        view = tables_of(request).seat_computer(player_of(request), match_id, seat)
        return with_warming(request, view)

    @app.post("/api/matches/{match_id}/seats/{seat}/invite")
    def reinvite(request: Request, match_id: str, seat: int) -> dict[str, Any]:
        view = tables_of(request).reinvite(player_of(request), match_id, seat)
        return with_links(request, with_warming(request, view))

    @app.post("/api/matches/{match_id}/seats/{seat}/reserve")
    def reserve(request: Request, match_id: str, seat: int, body: NameBody) -> dict[str, Any]:
        view = tables_of(request).reserve(player_of(request), match_id, seat, body.name)
        return with_warming(request, view)

    @app.delete("/api/matches/{match_id}/seats/{seat}/reserve")
    def unreserve(request: Request, match_id: str, seat: int) -> dict[str, Any]:
        view = tables_of(request).reserve(player_of(request), match_id, seat, None)
        return with_warming(request, view)

    @app.post("/api/matches/{match_id}/seats/{seat}/free")
    def free_seat(request: Request, match_id: str, seat: int) -> dict[str, Any]:
        hub: TableHub = request.app.state.hub

        def away(at: int, since: float) -> float:
            return hub.absent_for(match_id, at, since)

        view = tables_of(request).free_seat(
            player_of(request), match_id, seat, away, hub.free_after
        )
        return with_warming(request, view)

    @app.post("/api/matches/{match_id}/leave")
    def leave(request: Request, match_id: str) -> dict[str, Any]:
        return tables_of(request).leave(player_of(request), match_id)

    @app.get("/api/join/{token}")
    def invitation(request: Request, token: str) -> dict[str, Any]:
        return tables_of(request).invitation(player_of(request), token)

    @app.post("/api/join/{token}")
    def join(request: Request, token: str) -> dict[str, Any]:
        return with_warming(request, tables_of(request).join(player_of(request), token))

    @app.get("/api/matches/{match_id}/record")
    def record(request: Request, match_id: str) -> JSONResponse:
        body = tables_of(request).record(player_of(request), match_id)
        return JSONResponse(
            body,
            headers={"Content-Disposition": f'attachment; filename="oudler-{match_id}.json"'},
        )


def _add_health(app: FastAPI) -> None:
    @app.get("/healthz", include_in_schema=False)
    async def healthz(request: Request) -> JSONResponse:
        """200 when the database and the computer players' queue answer; else 503. ``workers``
        (Redis queue) tells which lanes have no worker listening, without failing the check:
        the web process itself is fine, and more workers may be on their way."""
        checks: dict[str, str] = {}
        try:
            await run_in_threadpool(request.app.state.store.ping)
            checks["database"] = "ok"
        except (SQLAlchemyError, DatabaseUnavailable) as e:
            checks["database"] = f"unavailable ({type(e).__name__})"
        queue = await request.app.state.computers.health()
        checks["computer_players"] = queue["queue"]
        ok = all(v == "ok" for v in checks.values())
        details = {k: v for k, v in queue.items() if k != "queue"}
        return JSONResponse({"ok": ok, **checks, **details}, status_code=200 if ok else 503)

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        """Prometheus metrics of this process (docs/deploy.md)."""
        state = request.app.state
        try:
            for lane, n in (await state.computers.queue.waiting()).items():
                state.metrics.jobs_queued.labels(lane).set(n)
            await state.computers.observe()
        except Exception as e:  # the queue is down: the other metrics still count
            log.warning("metrics: the queue did not answer (%s)", type(e).__name__)
        return Response(state.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)


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

    @app.get("/link", include_in_schema=False)
    def link_page() -> FileResponse:
        # "Link a device": the token is after "#", read by the page; only its button signs in.
        return page("link.html")

    @app.get("/join/{token}", include_in_schema=False)
    def join_page(token: str) -> FileResponse:
        # The page reads the token from its address and asks /api/join/{token} about it.
        return page("join.html")

    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")
