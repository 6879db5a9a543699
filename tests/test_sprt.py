"""The arena's sequential test (SPRT) on simulated differences of known mean, and on real runs."""

from __future__ import annotations

import json
import math
import random
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oudler.cli import app
from oudler.lab.arena import ArenaConfig, run_arena
from oudler.lab.cli import SPRT_MAX_DEALS
from oudler.lab.sprt import Sprt, SprtConfig, SprtError, parse_bounds


def _run(mean: float, low: float, high: float, seed: int, sd: float = 30.0) -> Sprt:
    """A test fed with normal differences of ``mean`` and ``sd`` until it decides."""
    rng = random.Random(seed)
    test = Sprt(SprtConfig(low, high))
    while test.decision is None and test.n < 100_000:
        test.add(rng.gauss(mean, sd))
    return test


def test_a_clear_gain_is_accepted_and_a_clear_loss_rejected() -> None:
    gains = [_run(10.0, 0.0, 5.0, seed) for seed in range(40)]
    losses = [_run(-5.0, 0.0, 5.0, seed) for seed in range(40)]
    assert all(t.decision == "H1" for t in gains)
    assert all(t.decision == "H0" for t in losses)
    # and the estimate it stops with is near the truth
    assert abs(statistics.fmean(t.mean for t in gains) - 10.0) < 3.0


def test_error_rates_are_near_alpha_and_beta_at_the_hypotheses() -> None:
    runs = 300
    false_gain = sum(_run(0.0, 0.0, 5.0, 1000 + s).decision == "H1" for s in range(runs))
    false_loss = sum(_run(5.0, 0.0, 5.0, 2000 + s).decision == "H0" for s in range(runs))
    # alpha = beta = 0.05: with the variance estimated, a little over is expected; far over is a
    # wrong LLR or wrong bounds (a sign error gives about 95 %)
    assert false_gain / runs < 0.09
    assert false_loss / runs < 0.09


def test_it_needs_more_deals_when_the_hypotheses_are_close() -> None:
    def median_deals(mean: float, low: float, high: float) -> float:
        return statistics.median(_run(mean, low, high, seed).n for seed in range(60))

    far = median_deals(10.0, 0.0, 10.0)
    near = median_deals(2.5, 0.0, 2.5)
    # the expected length grows as 1 / (B - A)²: 16 times here
    assert near > 6 * far
    # and, for the same hypotheses, when the truth lies between them rather than beyond
    assert median_deals(2.5, 0.0, 5.0) > 2 * median_deals(10.0, 0.0, 5.0)


def test_llr_is_the_normal_likelihood_ratio_with_the_sample_variance() -> None:
    xs = [3.0, -7.5, 12.0, 4.25, 0.0, 9.0, -1.0]
    test = Sprt(SprtConfig(-2.0, 6.0, min_deals=100))
    for x in xs:
        test.add(x)
    var = statistics.variance(xs)

    def loglik(mu: float) -> float:
        return sum(-((x - mu) ** 2) / (2 * var) for x in xs)

    assert test.llr == pytest.approx(loglik(6.0) - loglik(-2.0))
    assert test.mean == pytest.approx(statistics.fmean(xs))
    cfg = test.config
    assert (cfg.lower, cfg.upper) == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))


def test_no_decision_before_the_minimum_and_none_changes_after() -> None:
    test = Sprt(SprtConfig(0.0, 5.0, min_deals=16, min_differing=1))
    for _ in range(15):
        assert test.add(-1.0) is None  # every deal alike: LLR -inf, but too few deals
    assert test.add(-1.0) == "H0" and test.decided_at == 16
    assert test.add(1000.0) == "H0" and test.n == 16


def test_no_decision_while_few_deals_differ() -> None:
    """A change that alters few deals: its differences are mostly 0 and the others small so far,
    so the LLR is far below H0's bound after 16 deals; the test waits for 30 deals that differ
    (``MIN_DIFFERING``): a few large differences among them would show the real spread."""
    test = Sprt(SprtConfig(0.0, 3.0))
    assert test.config.min_differing == 30
    small = [0.5, -0.75, 1.0, 0.25]
    for i in range(16):
        assert test.add(small[i // 4] if i % 4 == 0 else 0.0) is None
    assert test.llr < 10 * test.config.lower and test.differing == 4
    for _ in range(25):
        assert test.add(0.5) is None  # 29 differing: still too few
    assert test.differing == 29 and test.llr < test.config.lower
    assert test.add(0.5) == "H0" and test.decided_at == 42
    assert test.to_dict()["differing"] == 30


def test_a_bot_against_itself_never_decides() -> None:
    """Every difference 0 (the bots never differ): no deal tells the spread, so no decision."""
    test = Sprt(SprtConfig(0.0, 3.0))
    assert all(test.add(0.0) is None for _ in range(500))


def test_bad_settings_are_refused() -> None:
    with pytest.raises(SprtError, match="A < B"):
        SprtConfig(5.0, 5.0)
    with pytest.raises(SprtError, match="alpha"):
        SprtConfig(0.0, 5.0, alpha=0.0)
    with pytest.raises(SprtError, match="two numbers"):
        parse_bounds("5")
    assert parse_bounds("-2.5,4") == (-2.5, 4.0)
    runner = CliRunner()
    one = runner.invoke(app, ["arena", "-b", "novice,club,random", "--sprt", "0,5"])
    assert one.exit_code == 2 and "exactly two bots" in one.stderr
    bad = runner.invoke(app, ["arena", "-b", "novice,random", "--sprt", "5,0"])
    assert bad.exit_code == 2 and "A < B" in bad.stderr
    lone = runner.invoke(app, ["arena", "-b", "novice,random", "--alpha", "0.1"])
    assert lone.exit_code == 2 and "give --sprt" in lone.stderr


def test_the_arena_stops_on_the_decision_the_same_with_two_jobs_and_from_its_log(
    tmp_path: Path,
) -> None:
    runner = CliRunner()
    args = ["arena", "-b", "novice,random", "--sprt", "0,5", "--seed", "3", "--json"]
    whole = runner.invoke(app, [*args, "--jobs", "2"])
    assert whole.exit_code == 0, whole.output
    report = json.loads(whole.stdout)
    test = report["sprt"]
    assert test["decision"] == "H1" and test["h0"] == 0 and test["h1"] == 5
    assert test["llr"] >= test["upper"] and test["deals"] >= 16
    # It stopped once decided, far short of its most: the deals already handed out are
    # finished, and the chunks that went on while a slow earlier one held the test in deal order
    # (CI once saw 46 deals played for a decision on deal 29), never the whole run.
    assert test["deals"] <= report["deals"] <= test["deals"] + 40 < SPRT_MAX_DEALS
    # one status line per deal read: estimate, interval, LLR and bounds
    status = whole.stderr.strip().splitlines()
    assert len(status) == test["deals"]
    assert status[-1].startswith(f"deal {test['deals']}: ") and "accepts H1" in status[-1]
    assert "(-2.94, +2.94)" in status[-1]

    # Cut short by --deals before any decision, then resumed from its log: the same decision
    # on the same deal.
    log = tmp_path / "sprt.jsonl"
    short = runner.invoke(app, [*args, "--deals", "10", "--log", str(log)])
    assert short.exit_code == 0, short.output
    assert json.loads(short.stdout)["sprt"]["decision"] is None
    again = runner.invoke(app, [*args, "--jobs", "2", "--log", str(log)])
    resumed = json.loads(again.stdout)
    assert resumed["resumed"] == 10 and resumed["sprt"] == test
    # once decided, the log alone gives the decision: nothing is played
    last = json.loads(runner.invoke(app, [*args, "--log", str(log)]).stdout)
    assert last["sprt"] == test and last["resumed"] == last["deals"]
    text = runner.invoke(app, ["arena", "-b", "novice,random", "--sprt", "0,5", "-s", "3"])
    assert f"accepts H1 (a gain of +5 rather than +0) after {test['deals']} deals" in text.stdout


def test_the_test_reads_the_arena_s_duplicate_differences() -> None:
    cfg = SprtConfig(0.0, 5.0, min_deals=100)  # no decision in 6 deals
    report = run_arena(ArenaConfig(("club",), "novice", deals=6, seed=2, sprt=cfg))
    plain = run_arena(ArenaConfig(("club",), "novice", deals=6, seed=2))
    assert report["sprt"]["mean"] == plain["bots"][0]["score"]["mean"]
    assert report["sprt"]["deals"] == 6 and report["sprt"]["decision"] is None
