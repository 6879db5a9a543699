"""French Tarot for four as a PettingZoo AEC environment (``env()``, ``raw_env()``).

Agents ``seat_0`` .. ``seat_3``. One episode is one deal: ``reset(seed=...)`` seeds the
environment's own generator, which draws each deal (the engine's real dealing procedure) and its
dealer; a petit sec is dealt again by the next dealer, as the rules say (RULES.md §3), since
nobody has anything to decide. Four passes end the episode with every reward 0 (a void deal).
``reset(options={"deal_seed": s, "dealer": d})`` plays exactly ``Deal.from_seed(s, d)``.

Each agent observes ``{"observation": vector, "action_mask": mask}``: the vector of
``oudler.encoding`` (1695 float32 values, what the seat may know and nothing else) and a mask of
the 89 action ids (all zero unless it is the agent's turn). ``infos[agent]["observation"]`` is the
same view as JSON (``Observation.to_dict()``), refreshed for every agent at every step; with
``json_infos=False`` the infos stay empty, which makes a step about three times faster.

Rewards come once, when the deal ends: each seat's score for the deal (the declarer 3 x D, each
defender -D; RULES.md §9). An illegal action raises ``IllegalAgentAction`` and changes nothing.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from oudler.encoding import NUM_ACTIONS, OBS_SIZE, IllegalAgentAction, Stepper, new_deal

AGENTS = ("seat_0", "seat_1", "seat_2", "seat_3")

__all__ = ["AGENTS", "IllegalAgentAction", "env", "raw_env"]


def env(render_mode: str | None = None, *, json_infos: bool = True) -> Any:
    """The environment with PettingZoo's usual checks (order enforcement, bounded actions)."""
    e: Any = raw_env(render_mode=render_mode, json_infos=json_infos)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # type: ignore[misc, unused-ignore]  # PettingZoo's name
    metadata = {  # noqa: RUF012 - PettingZoo reads it from the class
        "name": "oudler_french_tarot_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(self, render_mode: str | None = None, *, json_infos: bool = True) -> None:
        super().__init__()
        self.json_infos = json_infos
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode is None, 'human' or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self._rng = random.Random()
        self.stepper: Stepper | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        deal = new_deal(self._rng, options)
        self.stepper = Stepper(deal)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: deal.is_over for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self._refresh_infos()
        self.agent_selection = AGENTS[deal.to_move]

    def _refresh_infos(self) -> None:
        assert self.stepper is not None
        if not self.json_infos:
            return
        for i, a in enumerate(self.agents):
            self.infos[a] = self.stepper.info(i)

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.stepper is not None, "call reset() first"
        seat = AGENTS.index(agent)
        if seat == self.stepper.to_move and not self.stepper.is_over:
            mask = self.stepper.legal_mask()
        else:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": self.stepper.encode(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        assert self.stepper is not None
        agent = self.agent_selection
        self.stepper.step(action)
        self._cumulative_rewards[agent] = 0.0
        deal = self.stepper.deal
        if deal.is_over:
            assert deal.result is not None
            for i, a in enumerate(AGENTS):
                self.rewards[a] = float(deal.result.scores[i])
                self.terminations[a] = True
        else:
            self.agent_selection = AGENTS[deal.to_move]
        self._refresh_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.stepper is None:
            return None
        from oudler.rl.text import describe

        seat = self.stepper.to_move
        text = describe(self.stepper, seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
