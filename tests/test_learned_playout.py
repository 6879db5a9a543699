"""The kernel's learned playout policy (``kernel._learned``): the facts it reads in a known world,
its playouts (legal cards, every deal ends, the batch values agree with card-by-card play), its
training on selfplay records (reproducible from its seed) and the ``/l`` level option."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from oudler import kernel as K
from oudler.bots import UnknownLevelError, make_bot, parse_level
from oudler.bots.cardmodel import RowNet
from oudler.bots.play import play_deal
from oudler.core import Deal
from oudler.core import cards as C
from oudler.lab.playout_train import kernel_weights, load_playout_examples
from oudler.lab.selfplay import run_selfplay

ROOT = Path(__file__).resolve().parent.parent
FACT = {name: i for i, name in enumerate(K.PLAYOUT_FACTS)}


def random_position(rng: random.Random) -> tuple[K.Position, int, int]:
    """(a position some random legal cards into a random deal, its declarer, the dog)."""
    deck = list(range(C.NUM_CARDS))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[18 * s : 18 * s + 18]) for s in range(4)]
    dog = sum(1 << c for c in deck[72:])
    declarer = rng.randrange(4)
    p = K.position(hands, leader=rng.randrange(4), extra=dog)
    for _ in range(rng.randrange(70)):
        seat = K.to_move(p)
        hand = K.join(int(p.H[2 * seat]), int(p.H[2 * seat + 1]))
        legal = K.legal(hand, int(p.S[13]), int(p.S[14]))
        K.play(p, rng.choice(C.cards_of(legal)), declarer)
    return p, declarer, dog


def hand_of(p: K.Position, seat: int) -> int:
    return K.join(int(p.H[2 * seat]), int(p.H[2 * seat + 1]))


def random_net(seed: int, hidden: int = 8) -> K.PlayoutNet:
    return kernel_weights(RowNet.init(K.PLAYOUT_WIDTH, (hidden,), seed))


@pytest.mark.parametrize("seed", range(40))
def test_facts_list_the_legal_cards_and_read_the_trick(seed: int) -> None:
    rng = random.Random(seed)
    p, declarer, _ = random_position(rng)
    seat = K.to_move(p)
    legal = K.legal(hand_of(p, seat), int(p.S[13]), int(p.S[14]))
    cards, rows = K.playout_facts(p, declarer)
    assert cards == C.cards_of(legal) and rows.shape == (len(cards), K.PLAYOUT_WIDTH)
    k = int(p.S[1])
    trick = [int(c) for c in p.S[2 : 2 + k]]
    leader = int(p.S[0])
    for c, r in zip(cards, rows, strict=True):
        assert r[FACT["declarer"]] == (seat == declarer)
        assert r[FACT["trump"]] == (c < C.EXCUSE) and r[FACT["excuse"]] == (c == C.EXCUSE)
        assert r[FACT["safe"]] >= r[FACT["secured"]] > -1  # secured points only when safe
        if k == 3 and c != C.EXCUSE:
            # the last card of a trick: the trick's taker is known, and "safe" says whether
            # the seat's side takes it
            taker = K.trick_winner(leader, [*trick, c])
            assert r[FACT["wins_now"]] == (taker == seat)
            assert r[FACT["safe"]] == ((taker == declarer) == (seat == declarer))


@pytest.mark.parametrize("seed", range(40))
def test_facts_are_fair_whoever_holds_the_unseen_cards(seed: int) -> None:
    # A seat's facts read the cards it cannot see as one set: dealing the other hands' cards
    # anew among them (each keeping its size) changes none of its facts.
    rng = random.Random(seed)
    p, declarer, _ = random_position(rng)
    seat = K.to_move(p)
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in C.cards_of(hand_of(p, s))]
    _, before = K.playout_facts(p, declarer)
    for _ in range(3):
        rng.shuffle(pool)
        q = p.copy()
        at = 0
        for s in others:
            size = hand_of(p, s).bit_count()
            q.H[2 * s], q.H[2 * s + 1] = K.split(C.mask_of(pool[at : at + size]))
            at += size
        _, after = K.playout_facts(q, declarer)
        assert np.array_equal(before, after)


def test_learned_playouts_play_legal_cards_until_every_deal_ends() -> None:
    net = random_net(1)
    for seed in range(30):
        rng = random.Random(seed)
        p, declarer, dog = random_position(rng)
        played = 0
        while int(p.S[6]) < 18:
            seat = K.to_move(p)
            legal = K.legal(hand_of(p, seat), int(p.S[13]), int(p.S[14]))
            card = K.learned_card(p, declarer, net)
            assert legal >> card & 1, (seed, card)
            K.play(p, card, declarer)
            played += 1
        assert not any(hand_of(p, s) for s in range(4)) and played <= 72
        # the whole deck is in the declarer's pile, the dog or the defence's tricks: the pile
        # and the dog never overlap
        pile = K.join(int(p.H[8]), int(p.H[9]))
        assert pile & dog == 0


def test_the_batch_values_are_card_by_card_learned_playouts() -> None:
    net = random_net(2)
    rng = random.Random(5)
    for _ in range(10):
        p, declarer, dog = random_position(rng)
        if int(p.S[6]) >= 17:
            continue
        seat = K.to_move(p)
        hands = [hand_of(p, s) for s in range(4)]
        cards, _ = K.playout_facts(p, declarer)
        sc = K.Scoring(declarer, 2, False, 0)
        rows = K.world_rows([(hands, dog)])
        batch = K.learned_card_values(p, rows, cards, sc, net)
        for i, c in enumerate(cards):
            q = p.copy()
            q.H[10], q.H[11] = K.split(dog)
            K.play(q, c, declarer)
            while int(q.S[6]) < 18:
                K.play(q, K.learned_card(q, declarer, net), declarer)
            # every card played: the heuristic playout only scores what is left
            assert batch[i, 0] == K.playout(q, sc), (seat, c)


def test_whole_playouts_by_the_network_end_as_card_by_card_play() -> None:
    # the bids', discard's, chelem's and poignée's playouts (``/la``): K.playouts_final
    net = random_net(4)
    rng = random.Random(8)
    for _ in range(8):
        p, declarer, dog = random_position(rng)
        hands = [hand_of(p, s) for s in range(4)]
        sc = K.Scoring(declarer, 4, False, 0)
        (final,) = K.playouts_final(p, K.world_rows([(hands, dog)]), sc, net)
        q = p.copy()
        q.H[10], q.H[11] = K.split(dog)
        while int(q.S[6]) < 18:
            K.play(q, K.learned_card(q, declarer, net), declarer)
        assert final.d == K.playout(q, sc)
        assert final.dtricks == K.declarer_tricks(q)


def test_a_playout_network_file_must_map_the_facts_to_one_score(tmp_path: Path) -> None:
    w1, b1, w2, b2 = random_net(3)
    good = tmp_path / "good.npz"
    np.savez(good, w1=w1, b1=b1, w2=w2, b2=b2)
    assert [a.shape for a in K.load_playout_net(good)] == [a.shape for a in (w1, b1, w2, b2)]
    short = tmp_path / "short.npz"
    np.savez(short, w1=w1[1:], b1=b1, w2=w2, b2=b2)
    with pytest.raises(ValueError, match="facts to one score"):
        K.load_playout_net(short)
    missing = tmp_path / "missing.npz"
    np.savez(missing, w1=w1, b1=b1)
    with pytest.raises(ValueError, match="not a playout network"):
        K.load_playout_net(missing)


def test_the_packaged_playout_network_loads() -> None:
    w1, _, _, _ = K.load_playout_net()
    assert w1.shape[0] == K.PLAYOUT_WIDTH


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("selfplay") / "tiny.jsonl"
    run_selfplay("expert@w8", 3, out, seed=4)
    return out


def test_examples_read_the_true_world_of_each_recorded_card(records: Path) -> None:
    ex = load_playout_examples([records])
    assert len(ex) > 20
    legal = ~np.isnan(ex.values)
    assert (legal.sum(axis=1) >= 2).all()
    # the hand-written policy's card, for scale: one of the legal cards of every decision
    assert ex.baseline is not None
    assert (np.where(legal, ex.baseline, 0).sum(axis=1) == 1).all()
    assert (np.where(legal, 0, ex.baseline) == 0).all()


def test_training_is_reproducible_and_its_weights_play(records: Path, tmp_path: Path) -> None:
    outs = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.npz"
        subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "train_playout.py"), str(records),
             "--out", str(out), "--hidden", "4", "--epochs", "2", "--seed", "9"],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        outs.append(K.load_playout_net(out))
    for x, y in zip(*outs, strict=True):
        assert np.array_equal(x, y)
    # --pad: more facts, always 0, during training only: the same shapes, other first weights
    padded = tmp_path / "padded.npz"
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "train_playout.py"), str(records),
         "--out", str(padded), "--hidden", "4", "--epochs", "2", "--seed", "9", "--pad", "1"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    pad = K.load_playout_net(padded)
    assert [a.shape for a in pad] == [a.shape for a in outs[0]]
    assert not np.array_equal(pad[2], outs[0][2])


def test_the_learned_option_is_a_level_of_the_kernel_expert() -> None:
    assert parse_level("expert@w100/l").learned
    assert parse_level("expert@l").name == "expert@l"
    assert parse_level("expert@w100/p1/l").name == "expert@w100/p1/l"
    assert not parse_level("expert@w100").learned
    with pytest.raises(UnknownLevelError, match="kernel"):
        parse_level("expert-v1@w100/l")
    assert parse_level("expert@w100/la").learned == "la"
    for level in ("expert@w8/l", "expert@w8/la"):
        bots = [make_bot(level, seed=s) for s in range(4)]
        assert bots[0].level == level  # type: ignore[attr-defined]
        result = play_deal(Deal.from_seed(12, 0), bots)
        assert sum(result.scores) == 0
