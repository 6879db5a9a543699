"""The OpenSpiel game ``oudler_french_tarot``: pyspiel's random simulation test, OpenSpiel's own API
checks on sampled states, returns equal to the deal's scores, and no hidden card in any seat's
strings or tensors (RULES.md §11)."""

from __future__ import annotations

import random

from rl_support import cards_in_text, may_know, need, random_legal

need("pyspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.integration_tests import api_test as openspiel_api  # noqa: E402

from oudler import encoding as E  # noqa: E402
from oudler.core import Phase  # noqa: E402
from oudler.core import cards as C  # noqa: E402
from oudler.rl import openspiel as O  # noqa: E402

GAME = O.load()


def test_the_game_is_registered_with_its_properties() -> None:
    assert O.GAME_NAME in pyspiel.registered_names()
    kind = GAME.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert GAME.num_players() == 4
    assert GAME.num_distinct_actions() == E.NUM_ACTIONS
    assert GAME.observation_tensor_size() == E.OBS_SIZE
    assert GAME.information_state_tensor_size() == O.INFO_STATE_SIZE


def test_pyspiel_random_simulations_pass() -> None:
    pyspiel.random_sim_test(GAME, num_sims=3, serialize=True, verbose=False)


class TestOpenSpielApiChecksOnSampledStates(openspiel_api.EnforceAPIOnPartialTreeBase):
    """OpenSpiel's own API checks (integration_tests/api_test.py), on 400 sampled states."""

    game_name = O.GAME_NAME
    game = GAME


def play(rng: random.Random, phases: set[Phase]) -> pyspiel.State:
    state = GAME.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
        else:
            check_honest(state)
            phases.add(state.stepper.deal.phase)
            state.apply_action(random_legal(state.legal_actions(), rng))
    return state


def check_honest(state: pyspiel.State) -> None:
    stepper = state.stepper
    deal = stepper.deal
    for seat in range(4):
        allowed = may_know(deal, seat)
        info = np.asarray(state.information_state_tensor(seat), dtype=np.float32)
        obs = np.asarray(state.observation_tensor(seat), dtype=np.float32)
        assert np.array_equal(info[: E.OBS_SIZE], obs)
        seen = E.cards_in_vector(obs)
        order = info[E.OBS_SIZE :].reshape(O.PLAYS, 78)
        seen |= C.mask_of(int(c) for c in np.flatnonzero(order.any(axis=0)))
        seen |= cards_in_text(state.information_state_string(seat))
        seen |= cards_in_text(state.observation_string(seat))
        leaked = seen & ~allowed
        assert not leaked, f"seat {seat} sees {C.format_cards(leaked)} in {deal.phase}"


def test_returns_are_the_deal_scores_and_no_hidden_card_reaches_a_seat() -> None:
    rng = random.Random(21)
    phases: set[Phase] = set()
    for _ in range(20):
        state = play(rng, phases)
        deal = state.stepper.deal
        assert deal.result is not None
        assert state.returns() == [float(s) for s in deal.result.scores]
    assert {Phase.BIDDING, Phase.DISCARD, Phase.CHELEM, Phase.PLAY} <= phases


def test_the_information_state_string_is_the_seats_history() -> None:
    rng = random.Random(4)
    state = GAME.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
    deal = state.stepper.deal
    seat = deal.to_move
    text = state.information_state_string(seat)
    assert text.splitlines()[:2] == ["seat " + str(seat), f"dealer {deal.dealer}"]
    assert cards_in_text(text) == deal.hands[seat]
    state.apply_action(E.BID_BASE)  # pass
    assert state.information_state_string(seat).endswith(f"{seat} pass")
    assert state.information_state_string((seat + 1) & 3).endswith(f"{seat} pass")
