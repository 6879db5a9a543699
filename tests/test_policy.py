"""The ``policy`` level: trained on selfplay records end to end, reproducibly; plays legally."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest

from helpers import first_follow
from oudler.bots import UnknownLevelError, make_bot, parse_level
from oudler.bots.expert import ExpertBot
from oudler.bots.play import play_deal
from oudler.bots.policy import FEATURE_SIZE, PolicyBot, discard_by_scores, features
from oudler.core import Contract, Deal, Observation, Phase
from oudler.core import cards as C
from oudler.core.deal import deal_cards, discard_rule
from oudler.lab.arena import ArenaConfig, run_arena
from oudler.lab.policy_train import example, load_examples, train
from oudler.lab.selfplay import read_selfplay, run_selfplay

GARDE = Contract.GARDE


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("selfplay") / "tiny.jsonl"
    run_selfplay("expert@w8", 4, out, seed=3)
    return out


def test_training_on_a_tiny_data_set_end_to_end(records: Path, tmp_path: Path) -> None:
    ex = load_examples([records])
    assert len(ex) > 50 and ex.x.shape[1] == FEATURE_SIZE == 1695 + 318
    np.testing.assert_allclose(ex.target.sum(axis=1), 1.0, rtol=1e-5)
    assert not (ex.target * ~ex.mask).any()  # targets only on legal actions
    net, summary = train(ex, hidden=(32, 16), epochs=12, seed=7, held_out=0.2)
    history = summary["history"]
    assert history[-1]["train"]["loss"] < history[0]["train"]["loss"]
    assert summary["held_out_examples"] == int(len(ex) * 0.2)
    weights = tmp_path / "tiny.npz"
    net.save(weights)
    # the same data and seed give the same weights; another seed others
    again, _ = train(ex, hidden=(32, 16), epochs=12, seed=7, held_out=0.2)
    other, _ = train(ex, hidden=(32, 16), epochs=12, seed=8, held_out=0.2)
    for (w, b), (w2, b2) in zip(net.layers, again.layers, strict=True):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)
    assert not np.array_equal(net.layers[0][0], other.layers[0][0])
    # the saved level plays whole deals with legal actions only (the engine refuses others)
    level = f"policy@{weights}"
    assert parse_level(level).weights == str(weights)
    loaded = make_bot(level, seed=0)
    assert isinstance(loaded, PolicyBot) and loaded.level == level
    assert loaded.net.meta["hidden"] == [32, 16]
    phases: set[str] = set()
    for i in range(6):
        deal = Deal.from_seed(40 + i, i % 4)
        bots = [make_bot(level, seed=s) for s in range(4)]
        play_deal(deal, bots, on_decision=lambda seat, phase, dt: phases.add(phase.value))
        assert deal.is_over
    assert "bidding" in phases  # (a tiny network may pass every hand: play is checked below)
    # and in the arena, against club, with a fixed contract so that it discards too
    report = run_arena(
        ArenaConfig(tested=(level,), reference="club", deals=2, seed=1, fixed_contract=GARDE)
    )
    assert report["bots"][0]["bot"] == level
    assert report["bots"][0]["decision_time"]["discard"]["n"] > 0
    assert report["bots"][0]["decision_time"]["play"]["n"] > 0


def test_a_card_decision_s_target_prefers_the_better_candidates(records: Path) -> None:
    _, deals = read_selfplay(records)
    d = next(
        d
        for deal in deals
        for d in deal["decisions"]
        if d["phase"] == "play" and d["searched"] and len(d["candidates"]) >= 3
    )
    ex = example(d, temperature=10.0)
    assert ex is not None
    _, mask, target, phase = ex
    assert phase == "play"
    by_card = {C.CARD_NAMES.index(c["action"]): c["mean"] for c in d["candidates"]}
    ranked = sorted(by_card, key=lambda c: -by_card[c])
    assert target[ranked[0]] >= target[ranked[-1]]
    best, worst = by_card[ranked[0]], by_card[ranked[-1]]
    assert target[ranked[0]] / target[ranked[-1]] == pytest.approx(
        np.exp((best - worst) / 10.0), rel=1e-3
    )
    assert mask[list(by_card)].all()


def test_the_discard_takes_exactly_the_forced_trumps() -> None:
    for seed in range(200):
        deal = Deal.from_seed(seed, 0)
        hand = deal.hands[0] | deal.dog
        allowed, forced = discard_rule(hand)
        scores = np.random.default_rng(seed).normal(size=89).astype(np.float32)
        cards = discard_by_scores(scores, allowed, forced)
        mask = C.mask_of(cards)
        assert len(cards) == 6 and mask & ~allowed == 0
        assert (mask & C.TRUMPS).bit_count() == forced


def test_bad_weights_are_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "none.npz"
    with pytest.raises(UnknownLevelError, match="no policy weights"):
        make_bot(f"policy@{missing}", seed=0)
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(UnknownLevelError, match="cannot read the policy weights"):
        make_bot(f"policy@{junk}", seed=0)
    with pytest.raises(UnknownLevelError, match="needs the path"):
        make_bot("policy@", seed=0)


def test_derived_features_read_the_trick_and_the_seat_s_cards() -> None:
    # Seat 1 follows a spade lead by seat 0 (the 5 of spades) holding the King and 2 of spades:
    # the King wins the trick so far, the 2 does not; the King is master once nobody else can
    # hold a higher spade (none is higher); cards the seat sees are not unseen.
    deal, lead, card = first_follow()
    obs = deal.observation(deal.to_move)
    x = features(obs)
    base, n = 1695, 78
    legal = C.cards_of(obs.legal.cards)
    assert [c for c in range(n) if x[base + c]] == legal
    from oudler.core.tricks import TrickState

    for c in legal:
        t = TrickState(lead)
        t.add(card)
        t.add(c)
        assert x[base + n + c] == (t.winner == obs.seat)
    unseen = [c for c in range(n) if x[base + 3 * n + c]]
    assert card not in unseen and not set(unseen) & set(C.cards_of(obs.hand))
    assert len(unseen) == 78 - 18 - 1  # a Garde contre: the dog is unseen too
    if C.MONDE in C.cards_of(obs.hand):
        assert x[base + 2 * n + C.MONDE] == 1  # the 21 is always master
    assert x[base + 4 * n + 2 + 1] == 1  # one card in the trick


def test_the_packaged_policy_plays_a_deal() -> None:
    bot = make_bot("policy", seed=0)
    assert isinstance(bot, PolicyBot) and bot.level == "policy"
    assert bot.net.meta["hidden"] == [256, 128] and bot.net.meta["examples"] > 10_000
    deal = Deal.from_seed(5, 1)
    play_deal(deal, [make_bot("policy", seed=s) for s in range(4)])
    assert deal.is_over


def test_one_input_scores_as_in_a_batch_and_subnormal_weights_are_flushed(
    tmp_path: Path,
) -> None:
    from oudler.bots.policy import PolicyNet

    net = PolicyNet.init((16,), 3)
    net.layers[0][0][5, 2] = 1e-41  # a subnormal float32, as weight decay leaves them
    rng = np.random.default_rng(0)
    x = (rng.random((5, FEATURE_SIZE)) < 0.1).astype(np.float32)
    one = np.stack([net.scores(row) for row in x])
    np.testing.assert_allclose(one, net.scores(x), rtol=1e-5, atol=1e-5)
    path = tmp_path / "n.npz"
    net.save(path)
    back = PolicyNet.load(path)
    assert back.layers[0][0][5, 2] == 0.0
    assert np.array_equal(back.layers[1][0], net.layers[1][0])


def _card_positions(count: int) -> list[Observation]:
    """Card decisions with more than one legal card, from deals club plays."""
    out: list[Observation] = []
    seed = 0
    while len(out) < count:
        deal = Deal.from_seed(seed, seed % 4)
        bots = [make_bot("club", seed=s) for s in range(4)]
        for b in range(4):
            bots[b].begin_deal(b)
        while not deal.is_over:
            obs = deal.observation(deal.to_move)
            legal = obs.legal.cards
            if obs.phase is Phase.PLAY and legal & (legal - 1) and len(out) < count:
                out.append(obs)
            deal.act(bots[deal.to_move].act(obs), deal.to_move)
        seed += 1
    return out


def test_the_expert_s_prior_spreads_the_policy_over_its_candidates() -> None:
    """Each candidate stands for its run of equivalent cards: the prior's probabilities over
    the candidates are the policy's, summed by run, and add up to one."""
    from oudler.bots.expert.sampler import facts
    from oudler.bots.expert.search import candidates
    from oudler.bots.policy import card_log_probs, packaged_net

    merged_some = False
    for obs in _card_positions(40)[::3]:
        bot = ExpertBot(0, worlds=8, prior=2.0)
        prior = bot._card_prior(obs)
        assert prior is not None
        cands = candidates(obs, facts(obs))
        bonus = prior(cands)
        probs = [math.exp(b / 2.0) for b in bonus]
        assert math.isclose(sum(probs), 1.0, rel_tol=1e-4)
        logp = card_log_probs(packaged_net(), obs)
        legal = C.cards_of(obs.legal.cards)
        assert all(math.isfinite(logp[c]) for c in legal)
        assert all(logp[c] == -math.inf for c in range(C.NUM_CARDS) if c not in legal)
        for c, p in zip(cands, probs, strict=True):
            assert p >= math.exp(float(logp[c])) * (1 - 1e-4)  # its own card at least
        merged_some |= len(cands) < len(legal)
    assert merged_some


def test_a_heavy_prior_plays_the_policy_s_card_among_those_the_search_kept() -> None:
    heavy = ExpertBot(0, worlds=16, prior=1e6)
    plain = ExpertBot(0, worlds=16)
    differ = 0
    for obs in _card_positions(12):
        action, opts = heavy.decide(obs)
        assert opts is not None and action == heavy.act(obs)
        prior = heavy._card_prior(obs)
        assert prior is not None
        bonus = prior(opts.actions)
        assert action == opts.actions[max(opts.kept, key=lambda i: bonus[i])]
        plain_action, plain_opts = plain.decide(obs)
        assert plain_opts is not None and plain_action == plain_opts.actions[plain_opts.best()]
        differ += plain_action != action
    assert differ  # the prior does change some choices


def _renamed(action: object, sigma: np.ndarray, phase: Phase) -> object:
    if phase is Phase.PLAY:
        return int(sigma[action])  # type: ignore[index]
    if phase in (Phase.DISCARD, Phase.POIGNEE):
        return sorted(int(sigma[c]) for c in action)  # type: ignore[attr-defined]
    return action


def test_a_suit_shuffle_gives_the_input_of_the_deal_with_its_suits_renamed() -> None:
    """The augmentation's columns are right: the same deal dealt with its suits renamed (and
    the same actions, renamed, played) gives at every decision the shuffled input and ids."""
    from oudler.bots.policy import legal_ids
    from oudler.lab.policy_train import card_permutation, suit_shuffles

    shuffles = suit_shuffles()
    assert len(shuffles) == 24
    suits = (2, 0, 3, 1)
    k = sorted(itertools.permutations(range(4))).index(suits)
    x_cols, a_cols = shuffles[k]
    sigma = card_permutation(suits)
    assert sorted(sigma.tolist()) == list(range(78)) and sigma[C.EXCUSE] == C.EXCUSE
    checked: set[Phase] = set()
    for seed in range(1, 30):
        if {Phase.DISCARD, Phase.PLAY} <= checked:
            break
        deal = Deal.from_seed(seed, seed % 4)
        dealt, dog = deal_cards(seed, seed % 4)
        hands = [C.mask_of(int(sigma[c]) for c in C.cards_of(h)) for h in dealt]
        renamed = Deal(hands, C.mask_of(int(sigma[c]) for c in C.cards_of(dog)), seed % 4)
        bots = [make_bot("club", seed=s) for s in range(4)]
        for s, b in enumerate(bots):
            b.begin_deal(s)
        while not deal.is_over:
            seat = deal.to_move
            obs, obs2 = deal.observation(seat), renamed.observation(seat)
            np.testing.assert_array_equal(features(obs2), features(obs)[x_cols])
            np.testing.assert_array_equal(legal_ids(obs2), legal_ids(obs)[a_cols])
            checked.add(obs.phase)
            action = bots[seat].act(obs)
            deal.act(action, seat)
            renamed.act(_renamed(action, sigma, obs.phase), seat)  # type: ignore[arg-type]
        assert renamed.result.scores == deal.result.scores
    assert {Phase.BIDDING, Phase.DISCARD, Phase.PLAY} <= checked


def test_training_with_suit_shuffles_is_reproducible_and_learns(records: Path) -> None:
    ex = load_examples([records])
    net, summary = train(ex, hidden=(32,), epochs=6, seed=7, held_out=0.2, augment=True)
    again, _ = train(ex, hidden=(32,), epochs=6, seed=7, held_out=0.2, augment=True)
    plain, _ = train(ex, hidden=(32,), epochs=6, seed=7, held_out=0.2)
    assert summary["augment"] is True and net.meta["augment"] is True
    assert np.array_equal(net.layers[0][0], again.layers[0][0])
    assert not np.array_equal(net.layers[0][0], plain.layers[0][0])
    history = summary["history"]
    assert history[-1]["train"]["loss"] < history[0]["train"]["loss"]
