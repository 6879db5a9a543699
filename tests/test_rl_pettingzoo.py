"""The PettingZoo environment: PettingZoo's own API and seed tests, masks for every phase,
rewards equal to the deal's scores, illegal actions refused, and no hidden card in any seat's
vector, JSON info or text (RULES.md §11)."""

from __future__ import annotations

import random

import pytest

from rl_support import cards_in_json, cards_in_text, may_know, need, random_legal

need("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from oudler import encoding as E  # noqa: E402
from oudler.core import Deal, Phase  # noqa: E402
from oudler.core import cards as C  # noqa: E402
from oudler.rl.pettingzoo import AGENTS, env, raw_env  # noqa: E402
from oudler.rl.text import describe  # noqa: E402


def test_pettingzoo_api_test_passes() -> None:
    api_test(env(), num_cycles=3000)


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(env, num_cycles=500)


def run_episode(e: raw_env, seed: int, rng: random.Random) -> list[tuple[str, int]]:
    e.reset(seed=seed)
    taken: list[tuple[str, int]] = []
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        action = random_legal([int(a) for a in np.flatnonzero(obs["action_mask"])], rng)
        taken.append((agent, action))
        e.step(action)
    return taken


def test_rewards_are_the_deal_scores_and_every_phase_is_reached() -> None:
    rng = random.Random(5)
    e = raw_env()
    phases: set[Phase] = set()
    scored = 0
    for seed in range(60):
        e.reset(seed=seed)
        stepper = e.stepper
        assert stepper is not None
        totals = dict.fromkeys(AGENTS, 0.0)
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            totals[agent] += reward
            if term or trunc:
                e.step(None)
                continue
            phases.add(stepper.deal.phase)
            assert agent == AGENTS[stepper.deal.to_move]
            mask = obs["action_mask"]
            assert [int(a) for a in np.flatnonzero(mask)] == stepper.legal_actions()
            e.step(random_legal(stepper.legal_actions(), rng))
        result = stepper.deal.result
        assert result is not None
        assert [totals[a] for a in AGENTS] == [float(s) for s in result.scores]
        scored += result.void is None
    assert phases == {Phase.BIDDING, Phase.DISCARD, Phase.CHELEM, Phase.POIGNEE, Phase.PLAY}
    assert scored > 25


def test_the_same_seed_plays_the_same_deal() -> None:
    a, b = raw_env(), raw_env()
    assert run_episode(a, 7, random.Random(1)) == run_episode(b, 7, random.Random(1))
    assert a.stepper is not None and b.stepper is not None
    assert a.stepper.deal.dealt == b.stepper.deal.dealt


def test_reset_options_play_the_given_deal() -> None:
    e = raw_env()
    e.reset(options={"deal_seed": 1234, "dealer": 2})
    assert e.stepper is not None
    assert e.stepper.deal.dealt == Deal.from_seed(1234, 2).dealt
    assert e.agent_selection == "seat_3"  # the player on the dealer's right speaks first


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    e = raw_env()
    e.reset(seed=3)
    agent = e.agent_selection
    before = e.observe(agent)["observation"].copy()
    with pytest.raises(E.IllegalAgentAction, match="not legal in the bidding phase"):
        e.step(E.CHELEM_YES)
    with pytest.raises(E.IllegalAgentAction, match="no action 200"):
        e.step(200)
    assert e.agent_selection == agent
    assert np.array_equal(e.observe(agent)["observation"], before)


def test_only_the_agent_to_move_gets_a_mask() -> None:
    e = raw_env()
    e.reset(seed=11)
    for agent in AGENTS:
        mask = e.observe(agent)["action_mask"]
        assert mask.any() == (agent == e.agent_selection)
    assert e.infos[e.agent_selection]["observation"]["legal"]["bids"][0] == "pass"


def check_honest(stepper: E.Stepper, seat: int) -> None:
    deal = stepper.deal
    allowed = may_know(deal, seat)
    vector = stepper.encode(seat)
    leaked = E.cards_in_vector(vector) & ~allowed
    assert not leaked, f"seat {seat}'s vector shows {C.format_cards(leaked)} in {deal.phase}"
    leaked = cards_in_json(stepper.info(seat)) & ~allowed
    assert not leaked, f"seat {seat}'s info shows {C.format_cards(leaked)} in {deal.phase}"
    leaked = cards_in_text(describe(stepper, seat)) & ~allowed
    assert not leaked, f"seat {seat}'s text shows {C.format_cards(leaked)} in {deal.phase}"


def test_no_hidden_card_reaches_any_seat_vector_info_or_text() -> None:
    rng = random.Random(77)
    phases: set[Phase] = set()
    for n in range(50):
        stepper = E.Stepper(Deal.from_seed(rng.getrandbits(40), n & 3))
        while not stepper.is_over:
            phases.add(stepper.deal.phase)
            for seat in range(4):
                check_honest(stepper, seat)
            stepper.step(random_legal(stepper.legal_actions(), rng))
    assert {Phase.DISCARD, Phase.POIGNEE, Phase.PLAY} <= phases


def test_a_hidden_card_in_a_vector_would_be_caught() -> None:
    stepper = E.Stepper(Deal.from_seed(3, 0))
    vector = stepper.encode(1)
    card = C.cards_of(stepper.deal.hands[0])[0]
    vector[E.OFFSET["trick"] + 78 * 2 + card] = 1  # seat 0's card, as if played
    assert E.cards_in_vector(vector) & ~may_know(stepper.deal, 1)


def test_without_json_infos_the_game_is_the_same_and_infos_stay_empty() -> None:
    full, lean = raw_env(), raw_env(json_infos=False)
    assert run_episode(full, 9, random.Random(2)) == run_episode(lean, 9, random.Random(2))
    lean.reset(seed=9)
    lean.step(int(np.flatnonzero(lean.observe(lean.agent_selection)["action_mask"])[0]))
    assert lean.infos == {a: {} for a in AGENTS}
