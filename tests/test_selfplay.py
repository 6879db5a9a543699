"""``oudler selfplay``: the expert's decisions with the values of its options, seat's view only."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oudler.bots.expert import ExpertBot
from oudler.bots.protocol import action_from_notation, observation_from_dict
from oudler.cli import app
from oudler.core import Deal, Phase
from oudler.core import cards as C
from oudler.lab.arena import deal_seeds
from oudler.lab.selfplay import FORMAT, read_selfplay

DECISION_KEYS = {"seat", "phase", "observation", "action", "searched", "worlds", "candidates"}
CANDIDATE_KEYS = {"action", "mean", "se", "worlds", "kept"}


@pytest.mark.parametrize(("kernel", "prior"), [(True, 0.0), (False, 0.0), (True, 3.0)])
def test_decide_gives_act_s_decision(kernel: bool, prior: float) -> None:
    rng = random.Random(4)
    seen: Counter[str] = Counter()
    for i in range(4 if kernel and not prior else 1):
        deal = Deal.from_seed(rng.getrandbits(63), i % 4)
        bots = [ExpertBot(10 * i + s, worlds=12, kernel=kernel, prior=prior) for s in range(4)]
        while not deal.is_over:
            seat = deal.to_move
            obs = deal.observation(seat)
            action, opts = bots[seat].decide(obs)
            assert action == bots[seat].act(obs), (obs.phase, obs.seat)
            if opts is not None:
                seen[obs.phase.value] += 1
                assert (opts.kept and opts.worlds == 12) or obs.phase is not Phase.PLAY
            deal.act(action, seat)
    assert seen["bidding"] and seen["play"]


def test_selfplay_file_reads_back_and_shows_only_the_deciding_seat_s_view(
    tmp_path: Path,
) -> None:
    out = tmp_path / "self.jsonl"
    runner = CliRunner()
    done = runner.invoke(
        app, ["selfplay", "--deals", "4", "--level", "expert@w16", "--out", str(out), "-s", "2"]
    )
    assert done.exit_code == 0, done.output
    summary = json.loads(done.stdout)
    head, deals = read_selfplay(out)
    assert head == {"format": FORMAT, "level": "expert@w16", "seed": 2}
    assert [d["deal"] for d in deals] == [0, 1, 2, 3]
    assert summary["decisions"] == sum(len(d["decisions"]) for d in deals)
    phases: Counter[str] = Counter()
    # Replay each deal from its seed (which the file does not hold): every recorded observation
    # is exactly what the engine shows that seat, and every chosen action is legal there.
    for (seed, dealer), line in zip(deal_seeds(2, 4), deals, strict=True):
        assert set(line) == {"deal", "result", "decisions"}
        deal = Deal.from_seed(seed, dealer)
        for d in line["decisions"]:
            assert set(d) == DECISION_KEYS | {"score"}
            seat = d["seat"]
            assert deal.to_move == seat
            assert d["observation"] == deal.observation(seat).to_dict()
            obs = observation_from_dict(d["observation"])
            phase = Phase(d["phase"])
            assert phase is obs.phase
            action = action_from_notation(phase, d["action"])
            if phase is Phase.PLAY:
                assert action in C.cards_of(obs.legal.cards)
            elif phase is Phase.BIDDING:
                assert action in obs.legal.bids
            deal.act(action, seat)  # the engine refuses an illegal action
            if d["searched"]:
                phases[d["phase"]] += 1
                assert d["worlds"] > 0 and d["candidates"]
                for c in d["candidates"]:
                    assert set(c) == CANDIDATE_KEYS
                    assert c["se"] >= 0 and 0 < c["worlds"] <= d["worlds"]
                assert any(c["action"] == d["action"] for c in d["candidates"])
            else:
                assert d["candidates"] == [] and d["worlds"] == 0
        assert deal.is_over and deal.result is not None
        assert line["result"] == deal.result.to_dict()
        assert [d["score"] for d in line["decisions"]] == [
            deal.result.scores[d["seat"]] for d in line["decisions"]
        ]
    assert phases["bidding"] and phases["play"]
    # nothing of the deal beyond the seat's view: no seed, no review of the hands
    assert "seed" not in json.dumps(deals)
    assert all(d["observation"]["review"] is None for x in deals for d in x["decisions"])


def test_a_stopped_run_goes_on_to_the_same_file(tmp_path: Path) -> None:
    runner = CliRunner()
    whole = tmp_path / "whole.jsonl"
    part = tmp_path / "part.jsonl"
    args = ["selfplay", "--level", "expert@w8", "-s", "5"]
    assert runner.invoke(app, [*args, "-n", "3", "--out", str(whole)]).exit_code == 0
    assert runner.invoke(app, [*args, "-n", "2", "--out", str(part)]).exit_code == 0
    with part.open("a") as fh:
        fh.write('{"deal": 2, "result": {')  # the process died while writing deal 2
    again = runner.invoke(app, [*args, "-n", "3", "--out", str(part)])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["resumed"] == 2
    assert part.read_text() == whole.read_text()
    other = runner.invoke(app, ["selfplay", "--level", "expert@w9", "-n", "3", "--out", str(part)])
    assert other.exit_code == 2 and "another run" in other.stderr
    assert part.read_text() == whole.read_text()


def test_selfplay_refuses_a_level_that_does_not_search(tmp_path: Path) -> None:
    out = tmp_path / "x.jsonl"
    bad = CliRunner().invoke(app, ["selfplay", "-n", "1", "--level", "club", "--out", str(out)])
    assert bad.exit_code == 2 and "expert@w200" in bad.stderr
    assert not out.exists()
