"""Make tests/data/oudler-0.7.0.sql: a database made by Oudler 0.7.0, the last release before
migrations, for tests/test_web_migrations.py, and what 0.7.0 showed of each of its matches
(tests/data/oudler-0.7.0.json).

Run it with 0.7.0's code (commit ae417d5), from the root of this repository:

    mkdir /tmp/oudler-070 && git archive ae417d5 src tests | tar -x -C /tmp/oudler-070
    PYTHONPATH=/tmp/oudler-070/src:/tmp/oudler-070/tests \\
        .venv/bin/python scripts/make_070_database.py tests/data
    rm -r /tmp/oudler-070

It plays through the HTTP API, as a browser would: a finished match and an unfinished one for
one person, a match in learning mode with a hint and a deal's analysis, and a table with a
friend. The seeds are fixed, but the times and the player ids are not: the test compares each
match's views and record with those stored in the JSON file, made from the same database.
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import oudler
from oudler.tables.computer import ComputerPlayers
from oudler.tables.games import Tables
from oudler.tables.store import Store
from oudler.web.app import create_app
from test_web_support import advance, new_match  # 0.7.0's, from its tests folder

View = dict[str, Any]
WORLDS = 6  # the coach's worlds per decision: quick and reproducible


def play(client: TestClient, view: View, rng: random.Random, until: Any) -> View:
    for _ in range(3000):
        if until(view):
            return view
        view = advance(client, view, rng)
    raise AssertionError("the wanted position never came")


def make(folder: Path) -> None:
    assert oudler.__version__ == "0.7.0", f"run this with 0.7.0's code, not {oudler.__version__}"
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/oudler.sqlite3"
        rng = random.Random(70)
        app = create_app(url, coach_worlds=WORLDS, computer_pause=0.0)
        with TestClient(app) as me:
            finished = new_match(me, deals=2, level="club", seed=1)
            finished = play(me, finished, rng, lambda v: v["status"] == "match_over")
            unfinished = new_match(me, deals=2, level="random", seed=2)
            unfinished = play(
                me, unfinished, rng, lambda v: v["status"] == "your_turn" and v["deal_number"] == 2
            )
            learning = new_match(me, deals=2, level="novice", seed=3, learning=True)
            learning = play(me, learning, rng, lambda v: v["status"] == "your_turn")
            for _ in range(5):  # 503 while the expert's search kernel is still being built
                r = me.post(
                    f"/api/matches/{learning['id']}/hint", json={"version": learning["version"]}
                )
                if r.status_code != 503:
                    break
            assert r.status_code == 200, r.text
            learning = play(me, learning, rng, lambda v: v["status"] == "deal_over")
            while True:  # the analysis of deal 1 runs as a job: ask until it is done
                r = me.get(f"/api/matches/{learning['id']}/deals/1/analysis")
                assert r.status_code == 200, r.text
                if r.json()["status"] == "done":
                    break
            friends = new_match(me, deals=2, level="random", seed=4,
                                seats=["me", "person", "computer", "computer"])  # fmt: skip
            friend = TestClient(app)
            token = friends["invites"][0]["url"].removeprefix("/join/")
            assert friend.post(f"/api/join/{token}").status_code == 200
            matches = [finished, unfinished, learning, friends]
        store = Store(url)
        tables = Tables(store, ComputerPlayers())
        expected = []
        for view in matches:
            info = store.get_match(view["id"])
            assert info is not None
            people = [p for p in info.players if p]
            expected.append(
                {
                    "id": info.id,
                    "views": {p: tables.view(p, info.id) for p in people},
                    "record": tables.record(info.owner, info.id),
                    "hints": store.hints(info.id),
                    "analysis": store.analysis(info.id, 1),
                }
            )
        store.close()
        conn = sqlite3.connect(f"{tmp}/oudler.sqlite3")
        dump = "\n".join(conn.iterdump()) + "\n"
        conn.close()
    (folder / "oudler-0.7.0.sql").write_text(dump)
    text = json.dumps({"version": oudler.__version__, "matches": expected}, indent=1)
    (folder / "oudler-0.7.0.json").write_text(text + "\n")


if __name__ == "__main__":
    make(Path(sys.argv[1]))
