"""The ``policy`` level: trained on selfplay records end to end, reproducibly; plays legally."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from oudler.bots import UnknownLevelError, make_bot, parse_level
from oudler.bots.arena import ArenaConfig, run_arena
from oudler.bots.play import play_deal
from oudler.bots.policy import FEATURE_SIZE, PolicyBot, discard_by_scores, features
from oudler.bots.policy_train import example, load_examples, train
from oudler.bots.selfplay import read_selfplay, run_selfplay
from oudler.core import Contract, Deal, Phase
from oudler.core import cards as C
from oudler.core.deal import discard_rule

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
    deal = Deal.from_seed(11, 3)
    for _ in range(4):
        deal.bid(Contract.GARDE_CONTRE if deal.to_move == 0 else None)
    while deal.phase is not Phase.PLAY:
        deal.act(make_bot("club", seed=0).act(deal.observation(deal.to_move)), deal.to_move)
    lead = deal.to_move
    obs0 = deal.observation(lead)
    card = min(C.cards_of(obs0.legal.cards))
    deal.play(card)
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
