"""Training the kernel's learned playout policy (``oudler.kernel._learned``) on self-play records.

Each recorded card decision the search weighed becomes one example: the deal's true hands at
that moment (every seat's hand at its first card, less the cards it has played since), the
kernel's facts of each legal card in that world, and each card's value by the search (the mean
of its candidate, in the seat's own score). The network learns to score the cards as the
search valued them (``policy_train.train_rows``); inside a playout it then plays every seat,
every hand known, as the heuristic policy does.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from oudler import kernel as K
from oudler.bots.cardmodel import RowNet
from oudler.bots.expert.fast import position_of
from oudler.bots.expert.search import public_state
from oudler.bots.policy import F32
from oudler.bots.protocol import action_from_notation, observation_from_dict
from oudler.core import Phase
from oudler.core import cards as C
from oudler.lab.policy_train import RowExamples, numbered_deals, pack_rows


def first_hands(deal: dict[str, Any]) -> list[int] | None:
    """Every seat's hand as the play began (its observation at its first card); None for a
    deal without play (all passed)."""
    hands: list[int | None] = [None] * 4
    for d in deal["decisions"]:
        if d["phase"] == "play" and hands[d["seat"]] is None:
            hands[d["seat"]] = C.parse_mask(d["observation"]["hand"])
    if any(h is None for h in hands):
        return None
    return [h for h in hands if h is not None]


def playout_example(
    decision: dict[str, Any], start: list[int]
) -> tuple[F32, list[float], list[int], int] | None:
    """(the facts of each legal card in the true world, each one's value, the cards, the
    hand-written policy's card in that world) of one recorded card decision the search
    weighed; None for any other decision. A candidate stands for its run of equivalent cards
    (``search.candidates``): each card of the run takes its candidate's value."""
    if decision["phase"] != "play" or not decision["searched"]:
        return None
    cands = decision["candidates"]
    if len(cands) < 2:
        return None
    obs = observation_from_dict(decision["observation"])
    hands = list(start)
    for t in (*obs.tricks, None):
        leader = obs.trick_leader if t is None else t.leader
        for i, c in enumerate(obs.trick_cards if t is None else t.cards):
            hands[(leader + i) % 4] &= ~(1 << c)
    if hands[obs.seat] != obs.hand:
        raise ValueError("the record's hands do not follow from its first cards")
    st = public_state(obs)
    st.hands = hands
    pos = position_of(st)
    declarer = obs.declarer if obs.declarer is not None else 0
    cards, rows = K.playout_facts(pos, declarer)
    heuristic = K.policy_card(pos, declarer)
    means = {
        int(action_from_notation(Phase.PLAY, c["action"])): float(c["mean"])  # type: ignore[arg-type]
        for c in cands
    }
    reps = sorted(means)
    values = [means[reps[max(0, bisect.bisect_right(reps, c) - 1)]] for c in cards]
    return rows, values, cards, heuristic


def load_playout_examples(paths: Iterable[Path]) -> RowExamples:
    """The card decisions of the records, as ``policy_train.RowExamples`` (``baseline``: the
    hand-written policy's card, which reads every hand)."""
    rows: list[tuple[F32, list[float], int]] = []
    picks: list[int] = []
    for number, deal in numbered_deals(paths):
        start = first_hands(deal)
        if start is None:
            continue
        for d in deal["decisions"]:
            ex = playout_example(d, start)
            if ex is not None:
                rows.append((ex[0], ex[1], number))
                picks.append(ex[2].index(ex[3]))
    if not rows:
        raise ValueError("no card decision with a choice in the records")
    return pack_rows(rows, K.PLAYOUT_WIDTH, picks)


def kernel_weights(net: RowNet) -> tuple[F32, F32, F32, F32]:
    """The network as the kernel reads it: one hidden layer (w1, b1, w2, b2)."""
    if len(net.layers) != 2:
        raise ValueError("the kernel's playout network has exactly one hidden layer")
    (w1, b1), (w2, b2) = net.layers
    return (
        np.ascontiguousarray(w1, dtype=np.float32),
        np.ascontiguousarray(b1, dtype=np.float32),
        np.ascontiguousarray(w2, dtype=np.float32),
        np.ascontiguousarray(b2, dtype=np.float32),
    )
