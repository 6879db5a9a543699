"""Environment steps per second with random agents (run by hand: ``python bench/envs.py``).

Each figure is the median of several runs, in CPU seconds of this process. A step is one agent
action (a call, one discard pick, the chelem answer, a poignée size or pick, a card); whole deals
are counted too, void deals included.

1. PettingZoo (``oudler.rl.pettingzoo.raw_env``): ``last()`` (the observation vector and the mask)
   then ``step`` with a random legal action, the way an agent loop drives it; with the four
   infos' JSON observations refreshed at every step (the default), and without (``json_infos``).
2. OpenSpiel (``oudler_french_tarot`` through ``pyspiel``): random chance outcomes and random legal
   actions by ``apply_action``; figures with and without reading the acting seat's
   information-state tensor at every step.
3. The bare ``Stepper`` (``oudler.encoding``): legal action ids and ``step``, no observation.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np
import pyspiel

from oudler.core import Deal
from oudler.encoding import Stepper
from oudler.rl import openspiel
from oudler.rl.pettingzoo import raw_env


def timed(one: Callable[[], int], seconds: float) -> tuple[float, float]:
    """Runs ``one()`` (one episode, returning its steps) until ``seconds`` of CPU time have passed;
    returns (steps per CPU second, episodes per CPU second)."""
    steps = episodes = 0
    start = time.process_time()
    while True:
        steps += one()
        episodes += 1
        now = time.process_time()
        if now - start >= seconds:
            return steps / (now - start), episodes / (now - start)


def pettingzoo_episode(env: raw_env, rng: random.Random) -> int:
    env.reset(seed=rng.getrandbits(32))
    steps = 0
    for _ in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[int(rng.random() * len(legal))]))
        steps += 1
    return steps


def openspiel_episode(game: pyspiel.Game, rng: random.Random, tensor: bool) -> int:
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            continue
        if tensor:
            state.information_state_tensor(state.current_player())
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
        steps += 1
    return steps


def stepper_episode(rng: random.Random) -> int:
    deal = Deal.from_seed(rng.getrandbits(40), rng.randrange(4))
    stepper = Stepper(deal)
    steps = 0
    while not stepper.is_over:
        legal = stepper.legal_actions()
        stepper.step(legal[int(rng.random() * len(legal))])
        steps += 1
    return steps


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per run")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median reported)")
    args = parser.parse_args(argv)

    rng = random.Random(7)
    env = raw_env()
    lean_env = raw_env(json_infos=False)
    game = openspiel.load()
    measures: dict[str, Callable[[], int]] = {
        "PettingZoo AEC (last + step)": lambda: pettingzoo_episode(env, rng),
        "PettingZoo AEC, json_infos=False": lambda: pettingzoo_episode(lean_env, rng),
        "OpenSpiel (apply_action)": lambda: openspiel_episode(game, rng, tensor=False),
        "OpenSpiel (+ information_state_tensor)": lambda: openspiel_episode(game, rng, True),
        "bare Stepper (legal_actions + step)": lambda: stepper_episode(rng),
    }
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in measures}
    for _ in range(args.runs):  # interleaved, so a noisy moment hits every figure alike
        for name, one in measures.items():
            figures[name].append(timed(one, args.seconds))

    print(f"Python {sys.version.split()[0]}, {args.runs} runs of {args.seconds:g} CPU s each")
    for name, runs in figures.items():
        steps = statistics.median(s for s, _ in runs)
        deals = statistics.median(d for _, d in runs)
        spread = ", ".join(f"{s:,.0f}" for s, _ in sorted(runs))
        print(f"{name}: {steps:,.0f} steps/s, {deals:,.1f} deals/s (steps/s runs: {spread})")


if __name__ == "__main__":
    main()
