"""How uvicorn serves the web table: the connection limits shared by ``oudler serve`` and
``serve_in_thread``.

uvicorn closes an idle keep-alive connection after ``timeout_keep_alive`` seconds, but it has no
limit on how long a client may take to send a request's headers: a connection opened and left
silent, or fed a header byte at a time, would stay open for ever, and the headers' size is not
limited either. ``HeaderTimeoutProtocol`` closes such a connection after ``HEADER_TIMEOUT``
seconds, or once its headers pass ``MAX_HEADER_BYTES`` (answering 431). Only the bytes up to the
end of the headers are counted: a large body that arrives in the same read as its headers is the
body limit's business (``Hardening``: 413 ``body_too_large``), not a header problem.

The live tables' WebSocket carries the server's views out and nothing that matters in (pings,
and whatever the browser sends is ignored): an inbound message may be ``WS_MAX_SIZE`` bytes at
most, so that a frame announcing more is refused at its header (close 1009) instead of being
buffered, up to uvicorn's 16 MiB default, per socket (issue 28). ``QuietWebSocketProtocol``
closes a text message that is not UTF-8 with 1007, as uvicorn does, but without logging an
error and a traceback each time any client sends one.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

log = logging.getLogger("oudler.web")

KEEP_ALIVE_TIMEOUT = 5  # seconds an idle keep-alive connection stays open
HEADER_TIMEOUT = 10.0  # seconds from a request's first byte (or the connection) to its last header
MAX_HEADER_BYTES = 32 * 1024  # the request line and headers, cookies included
WS_MAX_SIZE = 4 * 1024  # an inbound WebSocket message (the browser sends nothing that matters)
INVALID_UTF8 = 1007
TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
    b'content-length: 46\r\nconnection: close\r\n\r\n{"error": "the request headers are too large"}'
)


class HeaderTimeoutProtocol(HttpToolsProtocol):
    header_timeout = HEADER_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._header_bytes = 0
        self._tail = b""  # the last bytes of the headers so far: their end may span two reads

    def _arm(self) -> None:
        if self._header_timer is None:
            self._header_bytes = 0
            self._tail = b""
            self._header_timer = self.loop.call_later(self.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _expired(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self.cycle is None or self.cycle.response_complete:
            self._arm()  # a new request begins: its headers are due in time
        if self._header_timer is not None:
            seen = self._tail + data
            end = seen.find(b"\r\n\r\n")
            if end >= 0:  # the headers end in this read: what follows is body
                self._header_bytes += end + 4 - len(self._tail)
            else:
                self._header_bytes += len(data)
                self._tail = seen[-3:]
            if self._header_bytes > MAX_HEADER_BYTES:
                self._disarm()
                self.transport.write(TOO_LARGE)
                self.transport.close()
                return
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


class QuietWebSocketProtocol(WebSocketsSansIOProtocol):
    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:  # the client's fault: no traceback in the log
                self.frames = []
                log.debug("a WebSocket client sent a text message that is not UTF-8")
                self.conn.send_close(INVALID_UTF8)
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()


def uvicorn_config(
    app: Any, *, header_timeout: float = HEADER_TIMEOUT, **options: Any
) -> uvicorn.Config:
    """uvicorn's settings for the web table; ``options`` are passed on (host, port...)."""
    options.setdefault("timeout_keep_alive", KEEP_ALIVE_TIMEOUT)
    options.setdefault("ws", QuietWebSocketProtocol)
    options.setdefault("ws_max_size", WS_MAX_SIZE)
    protocol = type(
        "HeaderTimeoutProtocol", (HeaderTimeoutProtocol,), {"header_timeout": header_timeout}
    )
    return uvicorn.Config(app, http=protocol, **options)
