"""The expert's compiled search, built ahead of the first match that needs it.

After an install numba has nothing in its cache, and building the kernel takes 10 CPU seconds,
half a minute or more of wall time on a busy machine. ``oudler serve`` and ``oudler worker``
therefore start a ``Warmer`` at once: one process of its own compiles the kernel into numba's
disk cache, while the server answers and the computer players already play. Until it is done the
processes that think (``follow``) decide with the expert's pure-Python search (the level
``expert-v1``: the same search, fewer worlds; no compiled code), so the person's first turn does
not wait for the compiler. Once the warmer has filled the cache each of them loads the kernel
from it (under a second, in a background thread) and searches on it from the next decision on.

The warmer's state is two numbers in shared memory (its progress, and whether it is building,
built or failed), read by the web process for the table's "getting ready" message and by the
thinking processes to choose their search.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from oudler.tables.lifeline import spawn_context, tie_to_parent

log = logging.getLogger("oudler.warming")

BUILDING, BUILT, FAILED = 0.0, 1.0, -1.0
PROGRESS, STATUS = 0, 1  # the fields of the shared state
POLL = 0.1  # seconds between a thinking process's looks at the warmer's state
NICENESS = 10  # the warmer yields the CPU to the decisions being made meanwhile

WARM_UP = "oudler.kernel:warm_up"
"""What the warmer process runs: a function taking a ``progress`` callback (share done, 0-1)."""


def _resolve(target: str) -> Callable[..., Any]:
    module, _, attr = target.partition(":")
    fn: Callable[..., Any] = getattr(importlib.import_module(module), attr)
    return fn


def _build(parent: int, state: Any, target: str) -> None:
    """The warmer process: run ``target``, reporting its progress in ``state``. At a lower
    priority: on a busy machine the decisions of the tables in play come first (an idle core
    still builds at full speed). Tied to the process that started it (``lifeline``)."""
    tie_to_parent(parent)
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICENESS)

    def progress(share: float) -> None:
        state[PROGRESS] = min(1.0, max(state[PROGRESS], share))

    try:
        _resolve(target)(progress=progress)
    except BaseException:
        state[STATUS] = FAILED
        raise
    state[PROGRESS] = 1.0
    state[STATUS] = BUILT


class Warmer:
    """Builds (or loads) the compiled kernel in a process of its own, from ``start`` on. Give
    ``state`` to the processes that think (``follow``)."""

    def __init__(self, target: str = WARM_UP) -> None:
        ctx = spawn_context()  # the caller may run threads: no fork
        self.state: Any = ctx.RawArray("d", 2)
        self.target = target
        self._ctx = ctx
        self._process: Any = None
        self._stopped = False
        self.started = 0.0

    def start(self) -> None:
        if self._process is not None:
            return
        self.started = time.monotonic()
        self._process = self._ctx.Process(
            target=_build,
            args=(os.getpid(), self.state, self.target),
            name="oudler-warmer",
            daemon=True,
        )
        self._process.start()
        threading.Thread(target=self._watch, name="oudler-warmer-watch", daemon=True).start()

    def _watch(self) -> None:
        process = self._process
        process.join()
        if self._stopped:  # its server stopped: nothing failed
            return
        if self.state[STATUS] == BUILDING:  # ended without a word (killed): the thinkers build
            self.state[STATUS] = FAILED
        if self.state[STATUS] == FAILED:
            log.error(
                "building the compiled search failed (exit code %s); each thinking process "
                "builds it for itself, with the pure-Python search meanwhile",
                process.exitcode,
            )
        else:
            log.info(
                "the compiled search is ready (%.1f s after the start)",
                time.monotonic() - self.started,
            )

    def progress(self) -> float | None:
        """The share built (0 to 1) while the warmer is building, None once it is not."""
        if self._process is None or self.state[STATUS] != BUILDING:
            return None
        return float(self.state[PROGRESS])

    def stop(self) -> None:
        self._stopped = True
        process, self._process = self._process, None
        if process is not None and process.is_alive():
            process.terminate()
            process.join(5)


class _Follower:
    """A thinking process's side: whether its kernel is loaded, and the thread loading it."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.loaded = threading.Event()
        self.stopped = False

    def run(self) -> None:
        while self.state[STATUS] == BUILDING:
            if self.stopped:
                return
            time.sleep(POLL)
        if self.stopped:
            return
        from oudler import kernel

        try:
            seconds = kernel.warm_up()  # from the cache the warmer filled (else: compiles)
        except Exception:
            log.exception("the compiled search could not be loaded; the pure-Python one stays")
            return
        self.loaded.set()
        log.info("compiled search loaded in %.2f s: the expert searches on it", seconds)


_FOLLOWER: _Follower | None = None
_LOCK = threading.Lock()


def follow(state: Any) -> None:
    """In a process that thinks for the computer players: search in pure Python until the
    warmer with this ``state`` is done, then load the compiled kernel in a background thread."""
    global _FOLLOWER
    # The expert's modules now, not in its first decision (importing numba compiles nothing).
    importlib.import_module("oudler.bots.expert")
    follower = _Follower(state)
    with _LOCK:
        if _FOLLOWER is not None:
            _FOLLOWER.stopped = True
        _FOLLOWER = follower
    log.info("the expert decides with its pure-Python search until the compiled one is ready")
    threading.Thread(target=follower.run, name="oudler-kernel-load", daemon=True).start()


def unfollow() -> None:
    """Forget the warmer (its server stopped): the expert uses the kernel as it comes."""
    global _FOLLOWER
    with _LOCK:
        if _FOLLOWER is not None:
            _FOLLOWER.stopped = True
        _FOLLOWER = None


def compiled_ready() -> bool:
    """Whether the expert may search on the compiled kernel now without waiting for it to be
    built: true in a process that follows no warmer (it builds it when first used, as a
    script or a test does), else once the kernel is loaded here."""
    follower = _FOLLOWER
    return follower is None or follower.loaded.is_set()
