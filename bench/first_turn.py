"""The person's first turn at an expert table, on a fresh install: seconds from starting the match
to the view saying it is the person's turn.

    python bench/first_turn.py --runs 5 [--venv .venv] [--repo .] [--rev HEAD] [--dealer-south]

What it does: clones ``--repo`` at ``--rev`` into a temporary directory (a new clone: nothing
compiled or cached from this checkout), then for each run starts ``oudler serve`` from that clone
with a fresh SQLite database and an empty ``NUMBA_CACHE_DIR`` (where numba caches the compiled
kernel; a new empty directory per run, as after an install), waits until the server answers
``/healthz``, creates a 2-deal expert match over HTTP as the page does (``POST /api/matches``,
cookie kept) and steps the computer players (``POST .../step``) until the view's status is
``your_turn``, with no pause between steps (the page's own pace, 700 ms by default, is waited
while a computer player thinks, not on top of it). Then the server is stopped.

``--venv``: an existing virtual environment with Oudler's dependencies, running the clone's sources
(``PYTHONPATH``); without it a venv is made in the temporary directory and the clone installed in
it (``pip install -c constraints.txt -e``; minutes, more with an empty pip cache). Computer
players bid before the person when the person is not first to speak: the first dealer comes from
the match seed, and with ``--dealer-south`` each run uses a seed whose first dealer is South, so
that East, North and West all bid first (the longest case: three expert bids of 1.5 s each).
``--filled`` also times later starts: the same runs again, each with the cache its empty run
filled, after letting that server's warm-up finish.

Prints one line per run (seconds to the first turn, computer actions before it, whether the views
said the computer players were getting ready, and the last progress shown), then the median
[min, max], and the load average before and after.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Client:
    """The page's side of the HTTP API: JSON bodies and the player cookie."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def call(self, method: str, path: str, body: Any = None, timeout: float = 60) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        with self.opener.open(req, timeout=timeout) as r:
            return json.loads(r.read())


def clone(repo: str, rev: str, into: Path) -> Path:
    target = into / "oudler"
    subprocess.run(["git", "clone", "--quiet", repo, str(target)], check=True)
    subprocess.run(["git", "-C", str(target), "checkout", "--quiet", rev], check=True)
    return target


def make_venv(source: Path, into: Path) -> Path:
    venv = into / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "pip"), "install", "--quiet"]
    subprocess.run([*pip, "-c", str(source / "constraints.txt"), "-e", str(source)], check=True)
    return venv


def south_dealer_seeds(source: Path, python: Path, n: int) -> list[int]:
    """``n`` match seeds whose first dealer is South (seat 0), from the clone's own rules."""
    code = (
        "import sys; from oudler.core import Match\n"
        "n = int(sys.argv[1]); out = []; s = 1\n"
        "while len(out) < n:\n"
        "    if Match(2, s).first_dealer == 0: out.append(s)\n"
        "    s += 1\n"
        "print(' '.join(map(str, out)))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(source / "src"))
    done = subprocess.run(
        [str(python), "-c", code, str(n)], env=env, capture_output=True, text=True, check=True
    )
    return [int(x) for x in done.stdout.split()]


def start_server(python: Path, source: Path, work: Path, cache: Path) -> tuple[Any, str, Path]:
    port = free_port()
    db = work / f"db-{port}.sqlite3"
    log = work / f"server-{port}.log"
    env = dict(os.environ, PYTHONPATH=str(source / "src"), NUMBA_CACHE_DIR=str(cache))
    cmd = [str(python), "-m", "oudler", "serve", "--port", str(port)]
    cmd += ["--database-url", f"sqlite:///{db}"]
    out = log.open("w")
    proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=work)
    return proc, f"http://127.0.0.1:{port}", log


def wait_healthy(base: str, proc: Any, limit: float = 120) -> float:
    started = time.monotonic()
    while time.monotonic() - started < limit:
        if proc.poll() is not None:
            raise RuntimeError(f"the server ended (exit code {proc.returncode})")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as r:
                if r.status == 200:
                    return time.monotonic() - started
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.05)
    raise RuntimeError("the server did not answer")


def stop_server(proc: Any) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def first_turn(base: str, seed: int | None) -> dict[str, Any]:
    client = Client(base)
    body: dict[str, Any] = {"deals": 2, "level": "expert"}
    if seed is not None:
        body["seed"] = seed
    started = time.monotonic()
    view = client.call("POST", "/api/matches", body)
    warned = "warming" in view
    progress = view.get("warming", {}).get("progress")
    actions = 0
    steps = [time.monotonic() - started]
    while view["status"] == "computer_turn":
        before = view["version"]
        view = client.call("POST", f"/api/matches/{view['id']}/step", {"version": before})
        actions += view["version"] != before
        steps.append(time.monotonic() - started)
        if "warming" in view:
            warned = True
            progress = view["warming"]["progress"]
    took = time.monotonic() - started
    assert view["status"] == "your_turn", view["status"]
    return {
        "seconds": took,
        "actions": actions,
        "warming": warned,
        "progress": progress,
        "steps": " ".join(f"{x:.2f}" for x in steps),
    }


def wait_warm(base: str, limit: float = 300) -> float:
    """Seconds until the server no longer says the computer players are getting ready."""
    client = Client(base)
    started = time.monotonic()
    while time.monotonic() - started < limit:
        if client.call("GET", "/api/computer-players")["warming"] is None:
            return time.monotonic() - started
        time.sleep(0.5)
    raise RuntimeError("the compiled search was still being built")


def run_once(
    python: Path, source: Path, work: Path, cache: Path, seed: int | None, settle: bool
) -> dict[str, Any]:
    proc, base, log = start_server(python, source, work, cache)
    try:
        answered = wait_healthy(base, proc)
        got = first_turn(base, seed)
        got["answered"] = answered
        if settle:  # let the warm-up fill the cache, for the later-start runs
            got["warm"] = wait_warm(base)
    except BaseException:
        print(log.read_text()[-3000:], file=sys.stderr)
        raise
    finally:
        stop_server(proc)
    return got


def summary(name: str, rows: list[dict[str, Any]]) -> None:
    xs = [r["seconds"] for r in rows]
    print(
        f"{name}: first turn median {statistics.median(xs):.2f} s "
        f"[{min(xs):.2f}, {max(xs):.2f}] over {len(xs)} runs"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    here = Path(__file__).resolve().parent.parent
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--repo", default=str(here), help="repository to clone (default: this one)")
    p.add_argument("--rev", default="HEAD", help="revision to check out in the clone")
    p.add_argument("--venv", type=Path, default=None, help="reuse this venv (its dependencies)")
    p.add_argument("--dealer-south", action="store_true", help="three computer bids first")
    p.add_argument("--filled", action="store_true", help="also time starts with a filled cache")
    args = p.parse_args()

    work = Path(tempfile.mkdtemp(prefix="oudler-first-turn-"))
    try:
        rev = subprocess.run(
            ["git", "-C", args.repo, "rev-parse", args.rev], capture_output=True, text=True
        ).stdout.strip()
        source = clone(args.repo, rev or args.rev, work)
        venv = args.venv.resolve() if args.venv else make_venv(source, work)
        python = venv / "bin" / "python"
        seeds: list[int | None] = [None] * args.runs
        if args.dealer_south:
            seeds = list(south_dealer_seeds(source, python, args.runs))
        load_before = os.getloadavg()
        print(f"clone of {args.repo} at {rev[:12]} in {source}; python {python}", flush=True)
        empty: list[dict[str, Any]] = []
        filled: list[dict[str, Any]] = []
        for i, seed in enumerate(seeds):
            cache = work / f"numba-{i}"
            cache.mkdir()
            got = run_once(python, source, work, cache, seed, args.filled)
            empty.append(got)
            print(
                f"run {i + 1} (empty cache, seed {seed}): first turn {got['seconds']:.2f} s after "
                f"{got['actions']} computer actions; server answered {got['answered']:.2f} s "
                f"after launch; 'getting ready' shown: {got['warming']} (last progress "
                f"{got['progress']}); answers at {got['steps']} s"
                + (f"; warm-up done {got['warm']:.1f} s later" if "warm" in got else ""),
                flush=True,
            )
            if args.filled:
                again = run_once(python, source, work, cache, seed, False)
                filled.append(again)
                print(
                    f"run {i + 1} (filled cache): first turn {again['seconds']:.2f} s after "
                    f"{again['actions']} computer actions; 'getting ready' shown: "
                    f"{again['warming']}",
                    flush=True,
                )
        load_after = os.getloadavg()
        summary("empty cache (a fresh install)", empty)
        if filled:
            summary("filled cache (later starts)", filled)
        print("load average (1, 5, 15 min) before: {:.2f} {:.2f} {:.2f}".format(*load_before))
        print("load average (1, 5, 15 min) after:  {:.2f} {:.2f} {:.2f}".format(*load_after))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
