"""One seat against three Oudler bots, as a Gymnasium environment (``TarotEnv``).

The agent plays ``seat`` (0 by default); the three other seats are bots of ``level`` (random,
novice, club or expert: ``oudler.bots.make_bot``), each given only its own seat's observation.
After each of the agent's actions the bots play until it is the agent's turn again or the deal is
over. One episode is one deal, drawn like the PettingZoo environment's (a petit sec is dealt
again, four passes end the episode with reward 0).

- Action space ``Discrete(89)``: the ids of ``oudler.encoding``.
- Observation ``{"observation": float32[1695], "action_mask": int8[89]}``; ``action_masks()``
  returns the mask too (the name maskable-policy libraries call).
- Reward: the seat's score for the deal (RULES.md §9), when the episode ends; 0 before.
- An illegal action raises ``IllegalAgentAction`` and changes nothing; with
  ``illegal_penalty=p`` it ends the episode instead, with reward ``p`` and
  ``info["illegal_action"]`` (for learners that sample outside the mask, and Gymnasium's
  ``check_env``, which does).
- ``info``: ``{"observation": Observation.to_dict(), ...}`` as in the PettingZoo environment; at
  the end ``info["result"]`` is the deal's result.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from oudler.bots import Bot, make_bot
from oudler.encoding import (
    NUM_ACTIONS,
    OBS_SIZE,
    IllegalAgentAction,
    MaskArray,
    Stepper,
    new_deal,
)

__all__ = ["IllegalAgentAction", "TarotEnv"]


class TarotEnv(gymnasium.Env):  # type: ignore[type-arg, misc, unused-ignore]
    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium reads it from the class

    def __init__(
        self,
        *,
        level: str = "novice",
        seat: int = 0,
        illegal_penalty: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        if seat not in range(4):
            raise ValueError(f"the agent's seat is 0..3, not {seat!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        make_bot(level, seed=0)  # an unknown level is refused here, not at the first reset
        self.level = level
        self.seat = seat
        self.illegal_penalty = illegal_penalty
        self._ended_illegally = False
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self._rng = random.Random()
        self._bots: list[Bot | None] = [None] * 4
        self.stepper: Stepper | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        deal = new_deal(self._rng, options)
        self.stepper = Stepper(deal)
        self._ended_illegally = False
        self._bots = [
            None if s == self.seat else make_bot(self.level, seed=self._rng.getrandbits(32))
            for s in range(4)
        ]
        for s, bot in enumerate(self._bots):
            if bot is not None:
                bot.begin_deal(s)
        self._bots_play()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        stepper = self.stepper
        assert stepper is not None, "call reset() first"
        if stepper.is_over or self._ended_illegally:
            raise RuntimeError("the episode is over: call reset()")
        try:
            stepper.step(action)  # an illegal action raises and changes nothing
        except IllegalAgentAction as err:
            if self.illegal_penalty is None:
                raise
            self._ended_illegally = True
            info = {**self._info(), "illegal_action": str(err)}
            return self._observe(), float(self.illegal_penalty), True, False, info
        self._bots_play()
        reward = 0.0
        info = self._info()
        if stepper.is_over:
            result = stepper.deal.result
            assert result is not None
            reward = float(result.scores[self.seat])
            info["result"] = result.to_dict()
        return self._observe(), reward, stepper.is_over, False, info

    def action_masks(self) -> MaskArray:
        assert self.stepper is not None, "call reset() first"
        if self.stepper.is_over or self._ended_illegally:
            return np.zeros(NUM_ACTIONS, dtype=np.int8)
        return self.stepper.legal_mask()

    def render(self) -> str | None:
        if self.stepper is None:
            return None
        from oudler.rl.text import describe

        return describe(self.stepper, self.seat)

    def _bots_play(self) -> None:
        stepper = self.stepper
        assert stepper is not None
        deal = stepper.deal
        while not deal.is_over and deal.to_move != self.seat:
            seat = deal.to_move
            bot = self._bots[seat]
            assert bot is not None
            deal.act(bot.act(deal.observation(seat)), seat)

    def _observe(self) -> dict[str, Any]:
        assert self.stepper is not None
        return {"observation": self.stepper.encode(self.seat), "action_mask": self.action_masks()}

    def _info(self) -> dict[str, Any]:
        assert self.stepper is not None
        return self.stepper.info(self.seat)
