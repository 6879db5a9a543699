"""Build the wheel and the sdist, install only the wheel into a fresh venv, serve and play.

    python scripts/check_package.py            (CI runs it; about a minute with a warm pip cache)

1. ``python -m build`` makes both archives; each must hold the web page (index.html, rules.html,
   the scripts, the style sheets) and everything ``oudler serve`` loads.
2. A new venv outside the checkout installs the wheel alone (its dependencies pinned by
   constraints.txt) and runs ``oudler --version`` and ``oudler serve`` on a free local port, from
   a directory with no source tree in it, on a fresh SQLite file.
3. Through the served HTTP API, a whole 2-deal match against random players is played to its end,
   the page and a script are fetched, and the finished match's record is downloaded; then
   ``oudler db current`` finds the database migrated to the newest revision.

Exits non-zero, saying what failed, at the first problem.
"""

from __future__ import annotations

import http.cookiejar
import json
import random
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGE_FILES = (
    "oudler/web/static/index.html",
    "oudler/web/static/rules.html",
    "oudler/web/static/favicon.svg",
    "oudler/web/static/js/app.js",
    "oudler/web/static/css/table.css",
    "oudler/py.typed",
    # the database's migrations, which ``oudler serve`` applies at its start
    "oudler/tables/migrations/env.py",
    "oudler/tables/migrations/versions/0001_schema_of_0_7_0.py",
    "oudler/tables/migrations/versions/0003_duplicate.py",
    "oudler/tables/migrations/script.py.mako",
)


def fail(message: str) -> None:
    print(f"check_package: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def build(out: Path) -> tuple[Path, Path]:
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    wheels, sdists = list(out.glob("*.whl")), list(out.glob("*.tar.gz"))
    if len(wheels) != 1 or len(sdists) != 1:
        fail(f"expected one wheel and one sdist in {out}, found {wheels + sdists}")
    with zipfile.ZipFile(wheels[0]) as wheel:
        wheel_names = set(wheel.namelist())
    with tarfile.open(sdists[0]) as sdist:
        sdist_names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    for name in PAGE_FILES:
        if name not in wheel_names:
            fail(f"the wheel lacks {name}")
        if f"src/{name}" not in sdist_names:
            fail(f"the sdist lacks src/{name}")
    for name in ("CHANGELOG.md", "LICENSE", "constraints.txt", "docs/api.md"):
        if name not in sdist_names:
            fail(f"the sdist lacks {name}")
    print(f"built {wheels[0].name} ({len(wheel_names)} files), {sdists[0].name}")
    return wheels[0], sdists[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Client:
    def __init__(self, base: str) -> None:
        self.base = base
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def get(self, path: str) -> tuple[int, bytes]:
        with self.opener.open(self.base + path, timeout=30) as r:
            return r.status, r.read()

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            with self.opener.open(request, timeout=60) as r:
                view: dict[str, Any] = json.loads(r.read())
                return view
        except urllib.error.HTTPError as err:
            fail(f"POST {path} {body} answered {err.code}: {err.read()[:300]!r}")
            raise


def random_action(legal: dict[str, Any], rng: random.Random) -> Any:
    if "bids" in legal:
        return rng.choice(legal["bids"])
    if "discard" in legal:
        allowed, forced = legal["discard"]["allowed"], legal["discard"]["forced_trumps"]
        trumps = [c for c in allowed if c.startswith("T")]
        plain = [c for c in allowed if not c.startswith("T")]
        return rng.sample(trumps, forced) + rng.sample(plain, 6 - forced)
    if "chelem" in legal:
        return False
    if "poignee" in legal:
        return []
    return rng.choice(legal["cards"])


def play_match(client: Client) -> int:
    """A 2-deal match against random players, to its end; returns the requests it took."""
    rng = random.Random(5)
    view = client.post("/api/matches", {"deals": 2, "level": "random", "seed": 42})
    match = f"/api/matches/{view['id']}"
    for requests in range(1, 3000):
        status = view["status"]
        if status == "match_over":
            if sum(view["totals"]) != 0 or len(view["sheet"]) < 2:
                fail(f"a finished match with totals {view['totals']} and sheet {view['sheet']}")
            return requests
        body: dict[str, Any] = {"version": view["version"]}
        if status == "your_turn":
            body["action"] = random_action(view["observation"]["legal"], rng)
            view = client.post(f"{match}/actions", body)
        elif status == "computer_turn":
            view = client.post(f"{match}/step", body)
        elif status == "deal_over":
            view = client.post(f"{match}/next-deal", body)
        else:
            fail(f"unknown status {status!r}")
    fail("the match did not end in 3000 requests")
    return 0


def serve_and_play(venv: Path, work: Path) -> None:
    oudler = venv / "bin" / "oudler"
    version = subprocess.run(
        [str(oudler), "--version"], check=True, capture_output=True, text=True, cwd=work
    ).stdout.strip()
    print(f"installed: {version}")
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import oudler; print(oudler.__file__)"],
        check=True,
        capture_output=True,
        text=True,
        cwd=work,
    ).stdout.strip()
    if str(ROOT) in where or str(venv) not in where:
        fail(f"oudler was imported from {where}, not from the fresh venv")
    port = free_port()
    server = subprocess.Popen(
        [str(oudler), "serve", "--port", str(port), "--database-url", f"sqlite:///{work}/t.db"],
        cwd=work,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        client = Client(f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 60
        while True:
            try:
                status, page = client.get("/")
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    output = server.stdout.read().decode() if server.stdout else ""
                    fail(f"oudler serve did not start:\n{output}")
                time.sleep(0.3)
        if status != 200 or b"<html" not in page.lower():
            fail(f"GET / answered {status} without the page")
        status, script = client.get("/static/js/app.js")
        if status != 200 or not script:
            fail("GET /static/js/app.js did not serve the script")
        requests = play_match(client)
        views = json.loads(client.get("/api/matches")[1])["matches"]
        status, record = client.get(f"/api/matches/{views[0]['id']}/record")
        if json.loads(record)["format"] != "tarot-match/1":
            fail("the record is not a tarot-match/1 record")
        print(f"served and played a 2-deal match through the API ({requests} requests)")
        current = subprocess.run(
            [str(oudler), "db", "current", "--database-url", f"sqlite:///{work}/t.db"],
            capture_output=True,
            text=True,
            cwd=work,
        )
        if current.returncode != 0 or "(the newest)" not in current.stdout:
            fail(f"oudler db current: {current.stdout}{current.stderr}")
        print(f"oudler db current: {current.stdout.strip()}")
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="oudler-package-") as tmp:
        base = Path(tmp)
        wheel, _ = build(base / "dist")
        venv = base / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [
                str(venv / "bin" / "pip"),
                "install",
                "-q",
                "--disable-pip-version-check",
                "-c",
                str(ROOT / "constraints.txt"),
                str(wheel),
            ],
            check=True,
        )
        work = base / "work"
        work.mkdir()
        serve_and_play(venv, work)
    print("check_package: OK")


if __name__ == "__main__":
    main()
