"""``oudler replay [--json] FILE...`` (src/oudler/replay.py, docs/replay.md)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from helpers import play_random_deal
from oudler.cli import app
from oudler.core.records import deal_to_record

GOLDEN = Path(__file__).parent / "golden"
runner = CliRunner()


def record_of(seed: int) -> dict[str, Any]:
    return deal_to_record(play_random_deal(seed, random.Random(seed)))


def played_records(count: int) -> list[dict[str, Any]]:
    out = []
    seed = 0
    while len(out) < count:
        record = record_of(seed)
        if record["result"]["void"] is None:
            out.append(record)
        seed += 1
    return out


def with_illegal_card(record: dict[str, Any]) -> dict[str, Any]:
    """The first two cards swapped: the second seat's card is not in the leader's hand."""
    broken = json.loads(json.dumps(record))
    broken["play"][0], broken["play"][1] = broken["play"][1], broken["play"][0]
    return broken


def json_lines(output: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in output.splitlines()]


def test_one_deal_record_prints_its_result_and_exits_zero(tmp_path: Path) -> None:
    record = record_of(1)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record, indent=2))
    out = runner.invoke(app, ["replay", "--json", str(path)])
    assert out.exit_code == 0, out.output
    assert json_lines(out.stdout) == [{"ok": True, "result": record["result"]}]


def test_a_json_list_gives_one_object_per_record_in_order_and_exit_one(tmp_path: Path) -> None:
    good, other = played_records(2)
    bad = with_illegal_card(other)
    first = len(bad["bids"]) + ("discard" in bad) + 1
    path = tmp_path / "list.json"
    path.write_text(json.dumps([good, bad, {"format": "tarot-deal/1"}]))
    out = runner.invoke(app, ["replay", "--json", str(path)])
    assert out.exit_code == 1
    lines = json_lines(out.stdout)
    assert lines[0] == {"ok": True, "result": good["result"]}
    assert lines[1]["ok"] is False and lines[1]["index"] == first
    assert "you do not hold" in lines[1]["error"]
    assert lines[2] == {
        "ok": False,
        "code": "malformed",
        "field": "dealer",
        "index": None,
        "error": "the record has no 'dealer' field",
    }


def test_json_lines_files_are_read_line_by_line(tmp_path: Path) -> None:
    a, b = played_records(2)
    path = tmp_path / "deals.jsonl"
    path.write_text(f"{json.dumps(a)}\n\n{json.dumps(b)}\n{{not json\n")
    out = runner.invoke(app, ["replay", "--json", str(path)])
    assert out.exit_code == 1
    lines = json_lines(out.stdout)
    assert [line["ok"] for line in lines] == [True, True, False]
    assert lines[2]["index"] is None and "line 4 is not JSON" in lines[2]["error"]


def test_a_match_record_is_one_record(tmp_path: Path) -> None:
    match = json.loads((GOLDEN / "match.json").read_text())
    path = tmp_path / "match.json"
    path.write_text(json.dumps(match))
    out = runner.invoke(app, ["replay", "--json", str(path)])
    assert out.exit_code == 0
    [line] = json_lines(out.stdout)
    assert line["ok"] is True and line["result"]["totals"] == match["totals"]
    assert len(line["result"]["deals"]) == len(match["deals"])


def test_a_mismatch_fails(tmp_path: Path) -> None:
    record = record_of(1)
    record["result"]["won"] = not record["result"]["won"]
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    out = runner.invoke(app, ["replay", "--json", str(path)])
    assert out.exit_code == 1
    assert json_lines(out.stdout) == [
        {
            "ok": False,
            "code": "mismatch",
            "fields": ["won"],
            "mismatch": {
                "won": {"stored": record["result"]["won"], "replayed": not record["result"]["won"]}
            },
        }
    ]


def test_an_unfinished_deal_is_ok(tmp_path: Path) -> None:
    path = GOLDEN / "deal_unfinished.json"
    out = runner.invoke(app, ["replay", "--json", str(path)])
    assert out.exit_code == 0
    assert json_lines(out.stdout) == [
        {"ok": True, "result": None, "unfinished": True, "phase": "play", "next_index": 40}
    ]


def test_several_files_and_standard_input(tmp_path: Path) -> None:
    good, other = played_records(2)
    path = tmp_path / "good.json"
    path.write_text(json.dumps(good))
    out = runner.invoke(
        app, ["replay", "--json", str(path), "-"], input=json.dumps(with_illegal_card(other))
    )
    assert out.exit_code == 1
    assert [line["ok"] for line in json_lines(out.stdout)] == [True, False]


def test_a_missing_or_broken_file_is_a_failed_record(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "format": "tarot-deal/1",\n  "dealer": \n}\n')
    out = runner.invoke(app, ["replay", "--json", str(tmp_path / "missing.json"), str(broken)])
    assert out.exit_code == 1
    missing, bad = json_lines(out.stdout)
    assert missing["index"] is None and "cannot read" in missing["error"]
    assert bad["index"] is None and bad["error"].startswith("not JSON")


def test_readable_output_has_one_line_per_record_and_a_summary(tmp_path: Path) -> None:
    good, other = played_records(2)
    path = tmp_path / "list.json"
    path.write_text(json.dumps([good, with_illegal_card(other)]))
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 1
    lines = out.stdout.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("ok") and f"{path}#1" in lines[0]
    assert good["result"]["contract"].replace("_", " ") in lines[0]
    assert lines[1].startswith("ILLEGAL") and f"{path}#2" in lines[1]
    assert "you do not hold" in lines[1]
    assert lines[2] == "2 record(s): 1 ok, 1 failed"


def test_every_golden_file_replays_through_the_installed_command() -> None:
    files = sorted(str(p) for p in GOLDEN.glob("*.json"))
    oudler = Path(sys.executable).with_name("oudler")
    done = subprocess.run(
        [str(oudler), "replay", "--json", *files], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = json_lines(done.stdout)
    assert len(lines) == len(files) and all(line["ok"] for line in lines)


def test_the_installed_command_exits_one_on_an_illegal_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(with_illegal_card(played_records(1)[0])))
    oudler = Path(sys.executable).with_name("oudler")
    done = subprocess.run([str(oudler), "replay", str(path)], capture_output=True, text=True)
    assert done.returncode == 1
    assert "ILLEGAL" in done.stdout
