"""The arena: duplicate deals, seat rotation, the same seeds for the bots, paired statistics."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from oudler.bots.club import hand_points
from oudler.bots.expert import ExpertBot
from oudler.cli import app
from oudler.core import Contract, Deal
from oudler.lab.arena import (
    ArenaConfig,
    ArenaError,
    bot_seed,
    build_bot,
    deal_seeds,
    fixed_declarer,
    mean_ci,
    parse_bot_specs,
    percentiles,
    play_table,
    run_arena,
)
from oudler.lab.sprt import t95


def _strip(report: dict[str, Any]) -> dict[str, Any]:
    """The report without wall-clock figures (decision times, seconds) or the job count."""
    out: dict[str, Any] = json.loads(json.dumps(report))
    out.pop("seconds")
    out["config"].pop("jobs")
    for b in out["bots"]:
        b.pop("decision_time")
    return out


def test_report_is_the_duplicate_difference_of_the_tables_played() -> None:
    config = ArenaConfig(tested=("club",), reference="novice", deals=5, seed=11)
    report = run_arena(config)
    diffs = []
    taken = made = 0
    for index, (seed, dealer) in enumerate(deal_seeds(11, 5)):
        base = play_table(config, index, seed, dealer, ["novice"] * 4)
        per_seat = []
        for seat in range(4):
            seats = ["novice"] * 4
            seats[seat] = "club"
            table = play_table(config, index, seed, dealer, seats)
            per_seat.append(table.scores[seat] - base.scores[seat])
            if table.declarer == seat:
                taken += 1
                made += bool(table.won)
        diffs.append(sum(per_seat) / 4)
    club = report["bots"][0]
    assert club["bot"] == "club" and club["role"] == "tested"
    assert club["score"]["mean"] == round(statistics.fmean(diffs), 2)
    assert club["score"]["sd"] == round(statistics.stdev(diffs), 2)
    assert club["contracts"] == {"taken": taken, "made": made}
    assert club["seat_deals"] == 20
    assert report["bots"][1]["role"] == "reference" and report["deals"] == 5
    assert report["tables"] == 25


@pytest.mark.parametrize("level", ["random", "club"])
def test_a_bot_against_itself_scores_exactly_zero(level: str) -> None:
    """Same deals and same seeds for the bots' randomness: every table plays identically."""
    report = run_arena(ArenaConfig(tested=(level,), reference=level, deals=4, seed=2))
    score = report["bots"][0]["score"]
    assert score["mean"] == 0.0 and score["sd"] == 0.0


def test_results_do_not_depend_on_the_number_of_processes() -> None:
    one = run_arena(ArenaConfig(tested=("novice",), reference="random", deals=6, seed=5, jobs=1))
    two = run_arena(ArenaConfig(tested=("novice",), reference="random", deals=6, seed=5, jobs=2))
    assert _strip(one) == _strip(two)
    assert one["bots"][0]["decision_time"]["play"]["n"] > 0


def test_fixed_contract_goes_to_the_strongest_hand() -> None:
    config = ArenaConfig(tested=("club",), reference="novice", fixed_contract=Contract.GARDE)
    for index, (seed, dealer) in enumerate(deal_seeds(3, 8)):
        deal = Deal.from_seed(seed, dealer)
        declarer = fixed_declarer(deal)
        assert hand_points(deal.hands[declarer]) == max(hand_points(h) for h in deal.hands)
        table = play_table(config, index, seed, dealer, ["club", "novice", "novice", "club"])
        assert table.contract == "garde" and table.declarer == declarer
        assert not any(phase == "bidding" for _, phase, _ in table.times)


def test_deal_and_bot_seeds_are_reproducible_and_skip_petit_sec() -> None:
    seeds = deal_seeds(9, 50)
    assert seeds == deal_seeds(9, 50) and seeds != deal_seeds(10, 50)
    assert [d for _, d in seeds] == [i % 4 for i in range(50)]
    assert all(not Deal.from_seed(s, d).is_over for s, d in seeds)
    assert bot_seed(1, 2, 3) == bot_seed(1, 2, 3) != bot_seed(1, 2, 0)


def test_bot_specs_read_levels_and_programs() -> None:
    assert parse_bot_specs(["club, Novice", "cmd:python my_bot.py --x=1,2"]) == [
        "club",
        "novice",
        "cmd:python my_bot.py --x=1,2",
    ]
    with pytest.raises(ArenaError, match="unknown bot 'grandmaster'"):
        parse_bot_specs(["club,grandmaster"])
    with pytest.raises(ArenaError, match="cmd: needs a program"):
        parse_bot_specs(["cmd:  "])


def test_confidence_interval_and_percentiles() -> None:
    values = [3.0, -1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]
    ci = mean_ci(values)
    half = t95(7) * statistics.stdev(values) / math.sqrt(8)
    assert ci["mean"] == round(statistics.fmean(values), 2)
    mean = statistics.fmean(values)
    assert ci["ci95"] == pytest.approx([mean - half, mean + half], abs=0.006)
    assert t95(7) > t95(30) > t95(1000) == 1.96
    times = [i / 1000 for i in range(1, 101)]  # 1..100 ms
    p = percentiles(times)
    assert (p["p50_ms"], p["p95_ms"], p["n"]) == (50.0, 95.0, 100)


def test_arena_command_prints_one_json_object() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["arena", "--bots", "novice,random", "-n", "3", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["format"] == "oudler-arena/1" and report["deals"] == 3
    assert [b["bot"] for b in report["bots"]] == ["novice", "random"]
    text = runner.invoke(app, ["arena", "--bots", "club", "-r", "novice", "-n", "2"])
    assert text.exit_code == 0 and "95% CI" in text.output and "decision time" in text.output


def test_arena_command_explains_bad_settings() -> None:
    runner = CliRunner()
    bad = runner.invoke(app, ["arena", "--bots", "club,grandmaster"])
    assert bad.exit_code == 2 and "unknown bot 'grandmaster'" in bad.output
    alone = runner.invoke(app, ["arena", "--bots", "club"])
    assert alone.exit_code == 2 and "nothing to test" in alone.output
    contract = runner.invoke(app, ["arena", "--bots", "club,novice", "--fixed-contract", "x"])
    assert contract.exit_code == 2 and "unknown bid" in contract.output


def test_a_logged_run_that_stops_goes_on_to_the_same_report(tmp_path: Path) -> None:
    """A run cut short (here: fewer deals, then a half-written last line) resumes from its log
    and reports exactly what one uninterrupted run reports."""
    log = tmp_path / "run.jsonl"
    whole = run_arena(ArenaConfig(tested=("novice",), reference="random", deals=6, seed=5))
    first = run_arena(ArenaConfig(tested=("novice",), reference="random", deals=4, seed=5), log=log)
    assert first["resumed"] == 0 and len(log.read_text().splitlines()) == 1 + 4
    with log.open("a") as out:
        out.write('{"index": 4, "seed": 1')  # the process died while writing deal 4
    second = run_arena(
        ArenaConfig(tested=("novice",), reference="random", deals=6, seed=5, jobs=2), log=log
    )
    assert second["resumed"] == 4
    assert _strip(second) == _strip(whole) | {"resumed": 4}
    lines = log.read_text().splitlines()
    assert len(lines) == 1 + 6
    assert sorted(json.loads(line)["index"] for line in lines[1:]) == list(range(6))
    # A shorter run reads only its own deals from a longer log, and writes nothing.
    short = run_arena(ArenaConfig(tested=("novice",), reference="random", deals=3, seed=5), log=log)
    assert short["deals"] == 3 and short["resumed"] == 3
    assert len(log.read_text().splitlines()) == 1 + 6


def test_a_log_of_another_run_is_refused_and_left_alone(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    run_arena(ArenaConfig(tested=("novice",), reference="random", deals=2, seed=5), log=log)
    before = log.read_bytes()
    for other in (
        ArenaConfig(tested=("novice",), reference="random", deals=2, seed=6),
        ArenaConfig(tested=("club",), reference="random", deals=2, seed=5),
    ):
        with pytest.raises(ArenaError, match="another run"):
            run_arena(other, log=log)
    assert log.read_bytes() == before
    garbage = tmp_path / "notes.txt"
    garbage.write_text("hello\nworld\n")
    with pytest.raises(ArenaError, match="not an arena log"):
        run_arena(ArenaConfig(tested=("novice",), reference="random", deals=2), log=garbage)
    assert garbage.read_text() == "hello\nworld\n"
    result = CliRunner().invoke(
        app, ["arena", "--bots", "novice,random", "-n", "2", "--seed", "7", "--log", str(log)]
    )
    assert result.exit_code == 2 and "another run" in result.output
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    missing = tmp_path / "no-such-folder" / "run.jsonl"
    for bad in (binary, missing):
        result = CliRunner().invoke(
            app, ["arena", "--bots", "novice,random", "-n", "2", "--log", str(bad)]
        )
        assert result.exit_code == 2 and "cannot use" in result.output
    assert binary.read_bytes() == b"\xff\xfe\x00" and not missing.parent.exists()


def test_a_fixed_contract_tells_the_experts_that_the_calls_were_imposed(tmp_path: Path) -> None:
    for level in ("expert", "expert-v1", "expert-noinf"):
        told = build_bot(level, seed=1, seat=0, calls_imposed=True)
        plain = build_bot(level, seed=1, seat=0)
        assert isinstance(told, ExpertBot) and isinstance(plain, ExpertBot)
        assert told.calls_imposed and not plain.calls_imposed and told.level == level
    # Its log says so; a fixed-contract log from before the bots were told is another run.
    garde = ArenaConfig(
        tested=("novice",), reference="random", deals=2, seed=5, fixed_contract=Contract.GARDE
    )
    log = tmp_path / "garde.jsonl"
    run_arena(garde, log=log)
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    assert head["calls"] == "imposed"
    del head["calls"]
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    before = old.read_bytes()
    with pytest.raises(ArenaError, match="another run"):
        run_arena(garde, log=old)
    assert old.read_bytes() == before
    bid = tmp_path / "bid.jsonl"
    run_arena(ArenaConfig(tested=("novice",), reference="random", deals=1), log=bid)
    assert "calls" not in json.loads(bid.read_text().splitlines()[0])
