"""The ``policy`` level's card and discard networks (``bots.cardmodel``): the facts they read,
their training on selfplay records (reproducible from its seed), and the level playing with them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from helpers import first_follow
from oudler.bots import UnknownLevelError, make_bot
from oudler.bots.cardmodel import (
    CARD,
    CONTEXT,
    DISCARD,
    FEATURES,
    RowNet,
    card_features,
    choose_card,
    discard_choices,
    discard_features,
)
from oudler.bots.club import club_card
from oudler.bots.discards import quick_value
from oudler.bots.play import play_deal
from oudler.bots.policy import PolicyBot, PolicyNet
from oudler.core import Deal, Phase
from oudler.core import cards as C
from oudler.core.deal import discard_rule
from oudler.core.tricks import TrickState
from oudler.lab.policy_train import (
    CARD_BASELINE,
    DISCARD_BASELINE,
    load_row_examples,
    regret,
    train_rows,
)
from oudler.lab.selfplay import run_selfplay

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("selfplay") / "tiny.jsonl"
    run_selfplay("expert@w8", 4, out, seed=3)
    return out


def col(name: str) -> int:
    return len(CONTEXT) + CARD.index(name)


def test_card_facts_read_the_trick_the_seat_s_side_and_club_s_choice() -> None:
    # Seat 0 declares a Garde contre; the seat after the leader follows its first card.
    deal, lead, led = first_follow()
    obs = deal.observation(deal.to_move)
    legal, rows = card_features(obs)
    assert legal == C.cards_of(obs.legal.cards) and rows.shape == (len(legal), FEATURES)
    ctx = rows[:, : len(CONTEXT)]
    assert (ctx == ctx[0]).all()  # the position's facts are the same for every card
    assert ctx[0, CONTEXT.index("declarer")] == (obs.seat == 0)
    assert ctx[0, CONTEXT.index("down_1")] == 1 and ctx[0, CONTEXT.index("down_0")] == 0
    assert ctx[0, CONTEXT.index("multiplier")] == pytest.approx(1.0)  # garde contre: x6
    assert ctx[0, CONTEXT.index("dog_to_declarer")] == 0
    assert ctx[0, CONTEXT.index("hand_size")] == pytest.approx(18 / 18)
    pick = club_card(obs)
    assert [c for c, r in zip(legal, rows, strict=True) if r[col("club_pick")]] == [pick]
    for c, r in zip(legal, rows, strict=True):
        t = TrickState(lead)
        t.add(led)
        t.add(c)
        ours = t.winner == obs.seat or (obs.seat != 0 and t.winner not in (0, -1))
        assert r[col("wins_now")] == (c != C.EXCUSE and ours), C.card_name(c)
        assert r[col("trump")] == (c < C.TRUMP_COUNT)
        assert r[col("excuse")] == (c == C.EXCUSE)
        # the Excuse is told by its own fact only: it is never won nor lost like a card
        assert r[col("points")] == pytest.approx(0 if c == C.EXCUSE else C.HALF_POINTS[c] / 9)
        if c == C.MONDE:
            assert r[col("master")] == 1  # nothing is above the 21
        if c not in (C.EXCUSE,) and r[col("safe")]:
            assert r[col("wins_now")] and r[col("p_win")] == 1.0
        assert 0.0 <= r[col("p_win")] <= 1.0


def test_discard_facts_count_voids_bare_honours_and_buried_points() -> None:
    # 24 cards: the spades 1-4 (a short suit to void), no heart, the Cavalier, Jack and 5 of
    # diamonds without their King, the King and three small clubs, 12 trumps and the Excuse.
    hand = C.mask_of(
        [C.suit_card(0, r) for r in (1, 2, 3, 4)]
        + [C.suit_card(2, r) for r in (12, 11, 5)]
        + [C.suit_card(3, r) for r in (14, 2, 3, 4)]
        + [C.trump(n) for n in (1, 2, 3, 5, 8, 10, 13, 15, 17, 19, 20, 21)]
        + [C.EXCUSE]
    )
    assert hand.bit_count() == 24
    spades = C.mask_of([C.suit_card(0, r) for r in (1, 2, 3, 4)])
    void_spades = spades | C.mask_of([C.suit_card(3, 2), C.suit_card(3, 3)])
    honours = C.mask_of([C.suit_card(2, 12), C.suit_card(2, 11)]) | C.mask_of(
        [C.suit_card(0, r) for r in (1, 2, 3, 4)]
    )
    rows = discard_features(hand, [void_spades, honours])
    f = {name: i for i, name in enumerate(DISCARD)}
    a, b = rows
    assert a[f["voids"]] * 4 == 2  # spades gone, and hearts were never held
    assert b[f["voids"]] * 4 == 2
    assert a[f["bare_honours"]] * 6 == 2 and b[f["bare_honours"]] == 0  # the Queen, the Jack
    assert b[f["points"]] > a[f["points"]]  # the honours buried count
    assert a[f["from_king_suits"]] * 6 == 2 and b[f["from_king_suits"]] == 0
    assert a[f["trumps_discarded"]] == 0
    assert a[f["quick_value"]] * 30 == pytest.approx(quick_value(hand, void_spades))
    assert discard_rule(hand)[1] == 0


def test_the_row_networks_train_on_a_tiny_data_set_reproducibly(records: Path) -> None:
    cards = load_row_examples([records], "card")
    assert len(cards) > 30 and cards.x.shape[2] == FEATURES
    legal = ~np.isnan(cards.values)
    assert (legal.sum(axis=1) >= 2).all()  # only decisions with a choice
    assert regret(cards.values.copy(), cards.values) == 0.0  # the best option loses nothing
    net, summary = train_rows(cards, baseline_column=CARD_BASELINE, epochs=15, seed=5, held_out=0.5)
    again, _ = train_rows(cards, baseline_column=CARD_BASELINE, epochs=15, seed=5, held_out=0.5)
    other, _ = train_rows(cards, baseline_column=CARD_BASELINE, epochs=15, seed=6, held_out=0.5)
    for (w, b), (w2, b2) in zip(net.layers, again.layers, strict=True):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)
    assert not np.array_equal(net.layers[0][0], other.layers[0][0])
    history = summary["history"]
    assert len(history) == 15 and summary["baseline_held_out_regret"] is not None
    untrained = RowNet.init(FEATURES, (64, 32), 5)
    assert regret(net.scores(cards.x), cards.values) < regret(
        untrained.scores(cards.x), cards.values
    )
    discards = load_row_examples([records], "discard")
    assert discards.x.shape[2] == len(DISCARD)
    dnet, _ = train_rows(
        discards, baseline_column=DISCARD_BASELINE, hidden=(8,), epochs=3, held_out=0.0
    )
    assert dnet.scores(discards.x).shape == discards.values.shape


def test_the_training_script_adds_the_row_networks_to_a_policy_file(
    records: Path, tmp_path: Path
) -> None:
    out = tmp_path / "rows.npz"
    summary = tmp_path / "summary.json"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "train_policy.py"),
            str(records),
            "--base",
            str(ROOT / "src" / "oudler" / "bots" / "data" / "policy.npz"),
            "--out",
            str(out),
            "--card-epochs",
            "2",
            "--discard-epochs",
            "2",
            "--summary",
            str(summary),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    net = PolicyNet.load(out)
    assert net.cards is not None and net.discards is not None
    assert net.meta["card"]["epochs"] == 2 and net.meta["discard"]["epochs"] == 2
    assert json.loads(summary.read_text())["card"]["history"][-1]["epoch"] == 2
    bot = make_bot(f"policy@{out}", seed=0)
    assert isinstance(bot, PolicyBot)
    # it plays whole deals; its discards are legal ones among the candidates
    discards = 0
    for i in range(8):
        deal = Deal.from_seed(70 + i, i % 4)
        bots = [make_bot(f"policy@{out}", seed=s) for s in range(4)]
        for seat, b in enumerate(bots):
            b.begin_deal(seat)
        while not deal.is_over:
            seat = deal.to_move
            obs = deal.observation(seat)
            action = bots[seat].act(obs)
            if obs.phase is Phase.DISCARD:
                assert C.mask_of(action) in discard_choices(obs.hand)  # type: ignore[arg-type]
                discards += 1
            if obs.phase is Phase.PLAY and obs.legal.cards & (obs.legal.cards - 1):
                assert action == choose_card(net.cards, obs)
            deal.act(action, seat)
    assert discards > 0


def test_row_weights_of_the_wrong_shape_are_a_clear_error(tmp_path: Path) -> None:
    net = PolicyNet.load(ROOT / "src" / "oudler" / "bots" / "data" / "policy.npz")
    net.cards = RowNet.init(FEATURES, (4,), 1)
    net.cards.layers[0] = (np.zeros((FEATURES + 1, 4), np.float32), net.cards.layers[0][1])
    bad = tmp_path / "bad.npz"
    net.save(bad)
    with pytest.raises(UnknownLevelError, match="cannot read the policy weights"):
        make_bot(f"policy@{bad}", seed=0)


def test_the_packaged_policy_holds_the_card_and_discard_networks() -> None:
    bot = make_bot("policy", seed=0)
    assert isinstance(bot, PolicyBot)
    assert bot.net.cards is not None and bot.net.discards is not None
    assert bot.net.meta["card"]["examples"] > 10_000
    deal = Deal.from_seed(6, 2)
    play_deal(deal, [make_bot("policy", seed=s) for s in range(4)])
    assert deal.is_over
