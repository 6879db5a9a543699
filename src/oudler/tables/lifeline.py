"""The first thing each process spawned to think (an expert worker, the warmer, the coach's
analysis worker, an ``oudler worker``'s thinking process) does: tie its life to its parent's.

- It ignores SIGINT. Ctrl+C in a terminal signals the whole process group; the parent stops its
  children itself (a pool's shutdown, the warmer's terminate), so a child that took the signal
  too would only print a ``KeyboardInterrupt`` traceback of its own. The signal is blocked from
  the child's birth (``spawn_context``: a blocked mask survives fork and exec), since starting
  Python and importing the expert takes seconds on a busy machine, and ignored once the child
  runs its own code (which drops one that came meanwhile).
- It ends when its parent dies, even by SIGKILL, when nobody is left to stop it: a thread polls
  the parent's pid and exits once the process has been handed to another parent. Not Linux's
  ``PR_SET_PDEATHSIG``: that signal fires when the *thread* that spawned the child ends, and a
  pool spawns its workers from whichever thread submits a job (a short-lived thread of the
  server's thread pool), which would kill healthy workers; it is Linux-only besides. A child
  busy in compiled code without releasing the GIL ends once it returns to Python.
"""

from __future__ import annotations

import multiprocessing.context
import os
import signal
import threading
import time
from multiprocessing import resource_tracker
from typing import Any

POLL = 0.5  # seconds between the looks at the parent


class _ChildProcess(multiprocessing.context.SpawnProcess):
    @staticmethod
    def _Popen(process_obj: Any) -> Any:
        blocks = hasattr(signal, "pthread_sigmask")  # not on Windows, where there is no group
        if blocks:
            # Its start unblocks SIGINT in this thread (where it had blocked it): before ours.
            resource_tracker.ensure_running()
        before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if blocks else None
        try:
            return multiprocessing.context.SpawnProcess._Popen(process_obj)
        finally:
            if before is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, before)


class _ChildContext(multiprocessing.context.SpawnContext):
    Process = _ChildProcess


def spawn_context() -> multiprocessing.context.SpawnContext:
    """multiprocessing's "spawn" (the caller may run threads: no fork), its children born with
    SIGINT blocked. They call ``tie_to_parent`` first."""
    return _ChildContext()


def tie_to_parent(parent: int) -> None:
    """Call first thing in a child process, with the pid of the process that spawned it (read
    there, before the spawn: a parent that died meanwhile is already seen as gone)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="oudler-lifeline", daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(POLL)
    os._exit(1)  # no cleanup: the work is for a parent that is gone
