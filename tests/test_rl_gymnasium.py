"""The Gymnasium wrapper: one seat against three bots. Gymnasium's own checker, rewards equal to
the seat's score, the bots' turns taken between the agent's, illegal actions, and the example
(examples/bidding_policy.py) run on a small budget."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from rl_support import need, random_legal

need("gymnasium")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from oudler import encoding as E  # noqa: E402
from oudler.bots import UnknownLevelError  # noqa: E402
from oudler.core import Deal, Phase  # noqa: E402
from oudler.rl.gymnasium import TarotEnv  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "bidding_policy.py"


def test_gymnasium_check_env_passes() -> None:
    check_env(TarotEnv(level="random", illegal_penalty=-100.0), skip_render_check=True)


@pytest.mark.parametrize("level", ["random", "novice", "club"])
def test_a_deal_against_bots_ends_with_the_seats_score(level: str) -> None:
    rng = random.Random(2)
    env = TarotEnv(level=level, seat=2)
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        assert env.stepper is not None
        done, reward = False, 0.0
        while not done:
            assert env.stepper.deal.to_move == 2  # the bots moved until the agent's turn
            legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
            assert legal == env.stepper.legal_actions()
            assert info["observation"]["seat"] == 2
            obs, reward, done, truncated, info = env.step(random_legal(legal, rng))
            assert not truncated
        result = env.stepper.deal.result
        assert result is not None
        assert reward == float(result.scores[2])
        assert info["result"]["scores"] == list(result.scores)
        assert not obs["action_mask"].any()


def test_an_illegal_action_raises_or_ends_the_episode_with_the_penalty() -> None:
    env = TarotEnv(level="novice")
    env.reset(options={"deal_seed": 5, "dealer": 3})
    with pytest.raises(E.IllegalAgentAction):
        env.step(E.CHELEM_YES)
    assert env.stepper is not None and env.stepper.deal.phase is Phase.BIDDING
    penalised = TarotEnv(level="novice", illegal_penalty=-50.0)
    penalised.reset(options={"deal_seed": 5, "dealer": 3})
    obs, reward, done, _, info = penalised.step(E.CHELEM_YES)
    assert (reward, done) == (-50.0, True) and "not legal" in info["illegal_action"]
    assert not obs["action_mask"].any()


def test_unknown_level_and_seat_are_refused() -> None:
    with pytest.raises(UnknownLevelError):
        TarotEnv(level="grandmaster")
    with pytest.raises(ValueError, match=r"seat is 0\.\.3"):
        TarotEnv(seat=4)


def test_typed_actions_become_legal_action_ids() -> None:
    # A bot's typed actions, turned into ids, are always legal picks and make the same deal.
    rng = random.Random(8)
    from oudler.bots import make_bot

    for n in range(30):
        deal = Deal.from_seed(rng.getrandbits(40), n & 3)
        twin = deal.copy()
        stepper = E.Stepper(twin)
        bots = [make_bot("random", seed=n * 4 + s) for s in range(4)]
        while not deal.is_over:
            seat = deal.to_move
            action = bots[seat].act(deal.observation(seat))
            for a in E.action_ids(deal.phase, action):
                assert a in stepper.legal_actions()
                stepper.step(a)
            deal.act(action)
        assert twin.result == deal.result


def load_example():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bidding_policy", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bidding_example_trains_and_evaluates_on_a_small_budget() -> None:
    report = load_example().main(["--episodes", "150", "--eval", "40", "--seed", "3"])
    assert report["episodes"] == 150 and report["evaluations"] == 40
    assert report["pairs_seen"] > 20  # the table learnt values for many (state, call) pairs
    low, high = report["difference"]["ci95"]
    assert low <= report["difference"]["mean"] <= high
