"""French Tarot for four as an OpenSpiel Python game, registered as ``oudler_french_tarot``.

Importing this module registers the game; then ``pyspiel.load_game("oudler_french_tarot")``.

- Chance: the first chance node draws the dealer (4 outcomes), the next 78 deal the pack one card
  at a time, uniformly among the cards left: cards 1-18 to seat 0, 19-36 to seat 1, 37-54 to
  seat 2, 55-72 to seat 3, the last six to the dog. Every deal has the same probability as under
  the real dealing procedure (a uniform shuffle); ``Deal.from_seed`` is not used here.
- Players 0..3 then act with the 89 action ids of ``oudler.encoding`` (legal actions ascending).
- A petit sec, or four passes, is a void deal: terminal, every return 0 (RULES.md §3 deals again;
  that is the next game).
- Returns at the end: each seat's score for the deal (RULES.md §9), zero-sum.
- Observation tensor: the 1695-value vector of ``oudler.encoding``. Information-state tensor:
  the same vector, then the order of play: 72 x 78 one-hot (the k-th card played). The order of a
  seat's own discard or poignée picks is not in the tensor (only the set): it changes nothing
  that follows.
- Observation string: the seat's view now (``oudler.rl.text``). Information-state string: the seat,
  the dealer, its dealt hand, then every event it saw in order (calls, the dog when shown, its own
  picks, forced discard trumps, the chelem answer, poignées shown, every card): perfect recall.

Nothing a seat may not see (RULES.md §11) is in its strings or tensors: they are built from
``Deal.observation(seat)`` and from events whose visibility is decided where they happen.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from oudler.core import Deal, Phase
from oudler.core import cards as C
from oudler.core.deal import bid_name
from oudler.encoding import (
    NUM_ACTIONS,
    OBS_SIZE,
    POIGNEE_NONE,
    POIGNEE_SIZE_BASE,
    FloatArray,
    Stepper,
    action_name,
    encode_observation,
)
from oudler.rl.text import describe

GAME_NAME = "oudler_french_tarot"
NUM_PLAYERS = 4
DEALER_OUTCOMES = 4
PLAYS = 72
INFO_STATE_SIZE = OBS_SIZE + PLAYS * C.NUM_CARDS
# Player decisions at most: 4 calls, 6 discard picks, the chelem, a poignée size and 15 picks for
# each seat, 72 cards.
MAX_GAME_LENGTH = 4 + 6 + 1 + 4 * 16 + PLAYS
# A bound on any seat's score: the declarer wins 3 x D with D at most (25 + 55) x 6 + 60 + 40 + 400.
MAX_SCORE = 3000.0

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="French Tarot for four (Oudler, FFT free-play rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=NUM_PLAYERS,
    min_num_players=NUM_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={},
)
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=NUM_ACTIONS,
    max_chance_outcomes=C.NUM_CARDS,
    num_players=NUM_PLAYERS,
    min_utility=-MAX_SCORE,
    max_utility=MAX_SCORE,
    utility_sum=0.0,
    max_game_length=MAX_GAME_LENGTH,
)


class TarotGame(pyspiel.Game):  # type: ignore[misc, unused-ignore]
    """The game: four players, chance deals, the engine's rules."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_GAME_TYPE, _GAME_INFO, params or {})

    def new_initial_state(self) -> TarotState:
        return TarotState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TarotObserver:
        if params:
            raise ValueError(f"the observer takes no parameters, not {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return TarotObserver(perfect_recall=perfect_recall)


class TarotState(pyspiel.State):  # type: ignore[misc, unused-ignore]
    """A deal in progress: the chance deal, then a ``Stepper`` over the engine's ``Deal``."""

    def __init__(self, game: TarotGame) -> None:
        super().__init__(game)
        self.dealer = -1
        self.pack: list[int] = []  # cards in the order chance dealt them
        self.stepper: Stepper | None = None
        # What each seat saw happen, in order: (seat that may see it or None for all, text).
        self.events: list[tuple[int | None, str]] = []

    # ------------------------------------------------------------------ OpenSpiel API

    def current_player(self) -> int:
        if self.stepper is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.stepper.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.stepper.to_move

    def is_terminal(self) -> bool:
        return self.stepper is not None and self.stepper.is_over

    def _legal_actions(self, player: int) -> list[int]:
        assert self.stepper is not None
        if player != self.stepper.to_move or self.stepper.is_over:
            return []
        return self.stepper.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.stepper is None
        if self.dealer < 0:
            return [(d, 1.0 / DEALER_OUTCOMES) for d in range(DEALER_OUTCOMES)]
        left = sorted(set(range(C.NUM_CARDS)) - set(self.pack))
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.stepper is None:
            self._deal(action)
            return
        self._apply_player_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.dealer < 0:
                return f"dealer {action}"
            return f"deal {C.CARD_NAMES[action]}"
        return action_name(action)

    def returns(self) -> list[float]:
        if self.stepper is None or not self.stepper.is_over:
            return [0.0] * NUM_PLAYERS
        result = self.stepper.deal.result
        assert result is not None
        return [float(s) for s in result.scores]

    def __str__(self) -> str:
        if self.stepper is None:
            return f"dealer {self.dealer}, dealt {' '.join(C.CARD_NAMES[c] for c in self.pack)}"
        deal = self.stepper.deal
        hands = " | ".join(" ".join(C.format_cards(h)) for h in deal.hands)
        return f"{describe(self.stepper, deal.to_move)}\nhands: {hands}"

    # ------------------------------------------------------------------ the deal

    def _deal(self, action: int) -> None:
        if self.dealer < 0:
            self.dealer = action
            self.events.append((None, f"dealer {action}"))
            return
        self.pack.append(action)
        seat = len(self.pack) - 1
        if seat < PLAYS:
            self.events.append((seat // 18, f"dealt {C.CARD_NAMES[action]}"))
        if len(self.pack) < C.NUM_CARDS:
            return
        hands = [C.mask_of(self.pack[18 * s : 18 * s + 18]) for s in range(NUM_PLAYERS)]
        deal = Deal(hands, C.mask_of(self.pack[PLAYS:]), self.dealer)
        self.stepper = Stepper(deal)
        if deal.petit_sec_seat is not None:
            shown = " ".join(C.format_cards(deal.dealt[deal.petit_sec_seat]))
            self.events.append((None, f"petit sec {deal.petit_sec_seat}: {shown}"))

    def _apply_player_action(self, action: int) -> None:
        stepper = self.stepper
        assert stepper is not None
        deal = stepper.deal
        seat, phase = deal.to_move, deal.phase
        stepper.step(action)  # checks the action; an illegal one raises and changes nothing
        if phase is Phase.BIDDING:
            self.events.append((None, f"{seat} {bid_name(deal.bids[-1])}"))
            if deal.contract is not None and deal.contract.dog_shown:
                self.events.append((None, f"dog {' '.join(C.format_cards(deal.dog))}"))
        elif phase is Phase.DISCARD:
            self.events.append((seat, f"{seat} discards {C.CARD_NAMES[action]}"))
            if deal.phase is not Phase.DISCARD and deal.discard_trumps:
                shown = " ".join(C.format_cards(deal.discard_trumps))
                self.events.append((None, f"discard trumps {shown}"))
        elif phase is Phase.CHELEM:
            self.events.append((None, f"{seat} {action_name(action)}"))
        elif phase is Phase.POIGNEE:
            # Being asked proves 10 trumps: the question and the picks stay private to the seat.
            if action == POIGNEE_NONE or action >= POIGNEE_SIZE_BASE:
                self.events.append((seat, f"{seat} {action_name(action)}"))
            else:
                self.events.append((seat, f"{seat} shows {C.CARD_NAMES[action]}"))
            if seat in deal.poignees and deal.phase is not Phase.POIGNEE:
                shown = " ".join(C.format_cards(deal.poignees[seat]))
                self.events.append((None, f"{seat} poignee {shown}"))
        else:
            self.events.append((None, f"{seat} plays {C.CARD_NAMES[action]}"))

    # ------------------------------------------------------------------ views

    def info_state_string(self, player: int) -> str:
        lines = [f"seat {player}"]
        lines.extend(text for who, text in self.events if who is None or who == player)
        return "\n".join(lines)

    def observation_string_of(self, player: int) -> str:
        if self.stepper is None:
            dealt = [c for i, c in enumerate(self.pack) if i < PLAYS and i // 18 == player]
            return f"seat {player}, dealer {self.dealer}, dealing\nhand: {C.format_cards(dealt)}"
        return describe(self.stepper, player)

    def encode(self, player: int, out: FloatArray) -> None:
        """The observation vector of ``player`` into the zeroed ``out``."""
        if self.stepper is None:
            return  # nothing is known before the deal ends; chance nodes have no information
        picked, size = self.stepper.picked_by(player)
        encode_observation(self.stepper.observation(player), picked, size, out)


class TarotObserver:
    """OpenSpiel's observer: the vector of ``oudler.encoding``, and for the information state
    the order of play after it."""

    def __init__(self, *, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = INFO_STATE_SIZE if perfect_recall else OBS_SIZE
        self.tensor: FloatArray = np.zeros(size, np.float32)
        self.dict: dict[str, FloatArray] = {"observation": self.tensor[:OBS_SIZE]}
        if perfect_recall:
            self.dict["play_order"] = self.tensor[OBS_SIZE:].reshape(PLAYS, C.NUM_CARDS)

    def set_from(self, state: TarotState, player: int) -> None:
        self.tensor.fill(0)
        state.encode(player, self.tensor[:OBS_SIZE])
        if self.perfect_recall and state.stepper is not None:
            order = self.dict["play_order"]
            for k, card in enumerate(state.stepper.deal.play_log):
                order[k, card] = 1

    def string_from(self, state: TarotState, player: int) -> str:
        if self.perfect_recall:
            return state.info_state_string(player)
        return state.observation_string_of(player)


pyspiel.register_game(_GAME_TYPE, TarotGame)


def load() -> Any:
    """The registered game, loaded through pyspiel."""
    return pyspiel.load_game(GAME_NAME)
