"""The web table served from a background thread, for tests, scripts and programs that embed it."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from fastapi import FastAPI

from oudler.web.serving import uvicorn_config


@contextmanager
def serve_in_thread(
    app: FastAPI, *, timeout: float = 30.0, host: str = "127.0.0.1", **options: Any
) -> Iterator[str]:
    """Serve ``app`` with uvicorn on a free port of ``host`` (an IPv4 address: by default the
    loopback one; ``0.0.0.0`` for all) until the block ends; yields the base URL
    (``http://127.0.0.1:PORT``). Raises ``RuntimeError`` if it has not started in ``timeout``
    seconds. ``options`` go to ``uvicorn_config``."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((host, 0))  # an already bound socket: no race for the port
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn_config(app, log_level="warning", lifespan="on", **options))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    try:
        while not srv.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the web server did not start")
            time.sleep(0.02)
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(timeout=15)
        sock.close()
