"""Training the ``policy`` level's network on ``oudler selfplay`` records (on the CPU, numpy).

Each recorded decision with a choice becomes one example: the deciding seat's observation
(``policy.features``), the legal action ids, and a target distribution over them:

- play, bidding, discard: the search's values turned into preferences, a softmax of each
  candidate's mean (the seat's expected score) over ``temperature`` points: the network learns
  how much better each option looked, not only which was best; a discard spreads each
  candidate discard's share over its six cards;
- chelem and poignée, and decisions made without search: the action chosen (the expert decides
  these by a rule on its samples, not by the best mean).

The loss is the cross-entropy of the network's softmax over the legal ids against the target,
minimized by Adam on minibatches; everything random (initial weights, order of the examples, the
held-out share, the suits' shuffles) comes from ``seed``, so a run is reproducible.

``augment``: the four suits play alike (RULES.md: same ranks, same points), so each minibatch
is shown with its suits renamed by one of the 24 permutations, drawn at random: the network
sees each position under many names and cannot learn a preference for one suit.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from oudler.bots.cardmodel import (
    CARD,
    CONTEXT,
    DISCARD,
    FEATURES,
    RowNet,
    card_features,
    discard_features,
)
from oudler.bots.policy import EXTRA, F32, FEATURE_SIZE, PolicyNet, features, legal_ids
from oudler.bots.protocol import action_from_notation, observation_from_dict
from oudler.core import Phase
from oudler.core import cards as C
from oudler.core.deal import POIGNEE_SIZES
from oudler.encoding import (
    CHELEM_NO,
    CHELEM_YES,
    NUM_ACTIONS,
    OBS_SIZE,
    OFFSET,
    POIGNEE_NONE,
    POIGNEE_SIZE_BASE,
    bid_action,
)
from oudler.lab.selfplay import read_selfplay

TEMPERATURE = 10.0
"""Points of expected score that make one option e times likelier than another in a target."""


@dataclass
class Examples:
    x: F32
    mask: npt.NDArray[np.bool_]
    target: F32
    phase: list[str]

    def __len__(self) -> int:
        return int(self.x.shape[0])


def _ids(phase: Phase, notation: Any) -> list[int]:
    action = action_from_notation(phase, notation)
    if phase is Phase.PLAY:
        return [int(action)]  # type: ignore[arg-type]
    if phase is Phase.BIDDING:
        return [bid_action(action)]  # type: ignore[arg-type]
    if phase is Phase.DISCARD:
        return list(action)  # type: ignore[arg-type]
    if phase is Phase.CHELEM:
        return [CHELEM_YES if action else CHELEM_NO]
    shown = list(action)  # type: ignore[arg-type]
    return [POIGNEE_NONE if not shown else POIGNEE_SIZE_BASE + POIGNEE_SIZES.index(len(shown))]


def example(decision: dict[str, Any], temperature: float = TEMPERATURE) -> tuple[Any, ...] | None:
    """(features, legal ids, target) of one recorded decision; None when there was no choice."""
    obs = observation_from_dict(decision["observation"])
    phase = obs.phase
    mask = legal_ids(obs)
    if phase is Phase.PLAY and mask.sum() < 2:
        return None
    target = np.zeros(NUM_ACTIONS, dtype=np.float32)
    cands = decision["candidates"]
    if decision["searched"] and phase in (Phase.PLAY, Phase.BIDDING, Phase.DISCARD) and cands:
        means = np.array([c["mean"] for c in cands], dtype=np.float64)
        p = np.exp((means - means.max()) / temperature)
        p /= p.sum()
        for share, c in zip(p, cands, strict=True):
            ids = _ids(phase, c["action"])
            for i in ids:
                target[i] += share / len(ids)
    else:
        ids = _ids(phase, decision["action"])
        for i in ids:
            target[i] += 1.0 / len(ids)
    if not (target[~mask] == 0).all():
        raise ValueError(f"a recorded option is not legal in its observation ({phase.value})")
    return features(obs), mask, target, phase.value


def load_examples(paths: Iterable[Path], temperature: float = TEMPERATURE) -> Examples:
    rows = []
    for path in paths:
        _, deals = read_selfplay(path)
        for deal in deals:
            for d in deal["decisions"]:
                ex = example(d, temperature)
                if ex is not None:
                    rows.append(ex)
    if not rows:
        raise ValueError("no decision with a choice in the records")
    return Examples(
        np.stack([r[0] for r in rows]),
        np.stack([r[1] for r in rows]),
        np.stack([r[2] for r in rows]),
        [r[3] for r in rows],
    )


def card_permutation(suits: tuple[int, ...]) -> npt.NDArray[np.intp]:
    """Card ids with the suits renamed: suit ``s`` becomes ``suits[s]``; trumps and the Excuse
    stay."""
    out = np.arange(C.NUM_CARDS)
    first = C.TRUMP_COUNT + 1  # the suits' cards follow the trumps and the Excuse
    for s, t in enumerate(suits):
        out[first + 14 * s : first + 14 * (s + 1)] = np.arange(first + 14 * t, first + 14 * t + 14)
    return out


def _card_blocks() -> list[int]:
    """Where each card-indexed block of 78 starts in the network's input."""
    n = C.NUM_CARDS
    obs_blocks = list(range(0, OFFSET["bids"], n))  # the card planes come first
    extra_blocks = [OBS_SIZE + k * n for k in range((EXTRA - 6) // n)]
    return obs_blocks + extra_blocks


def suit_shuffles() -> list[tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]]:
    """For each of the 24 renamings of the suits: (columns of the input, columns of the action
    ids) to read from, so that ``x[:, cols]`` is the input of the renamed position."""
    import itertools

    out = []
    for suits in itertools.permutations(range(4)):
        sigma = card_permutation(suits)
        src = np.empty(C.NUM_CARDS, dtype=np.intp)
        src[sigma] = np.arange(C.NUM_CARDS)  # the renamed card sigma[c] reads card c
        x_cols = np.arange(FEATURE_SIZE)
        for base in _card_blocks():
            x_cols[base : base + C.NUM_CARDS] = base + src
        a_cols = np.arange(NUM_ACTIONS)
        a_cols[: C.NUM_CARDS] = src
        out.append((x_cols, a_cols))
    return out


def _forward(layers: list[tuple[F32, F32]], x: F32) -> tuple[list[F32], F32]:
    """The dense layers' output for ``x`` (rows of any leading shape), and the input of each
    layer (for ``_backward``)."""
    acts = [x]
    h = x
    for i, (w, b) in enumerate(layers):
        h = h @ w + b
        if i < len(layers) - 1:
            h = np.maximum(h, 0.0)
            acts.append(h)
    return acts, h


def _backward(
    layers: list[tuple[F32, F32]], acts: list[F32], grad: F32, weight_decay: float
) -> list[F32]:
    """Each weight's and bias's gradient (in the layers' order, weight then bias) from
    ``grad``, the loss's gradient with respect to the last layer's output."""
    grads: list[F32] = []
    for i in range(len(layers) - 1, -1, -1):
        w, _ = layers[i]
        a = acts[i].reshape(-1, acts[i].shape[-1])
        g = grad.reshape(-1, grad.shape[-1])
        grads = [a.T @ g + weight_decay * w, g.sum(axis=0), *grads]
        if i:
            grad = (grad @ w.T) * (acts[i] > 0)
    return grads


class _Adam:
    """Adam on the layers' weights and biases, updated in place."""

    def __init__(self, layers: list[tuple[F32, F32]], lr: float) -> None:
        self.params = [p for layer in layers for p in layer]
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.lr = lr
        self.steps = 0

    def step(self, grads: list[F32]) -> None:
        b1, b2, eps = 0.9, 0.999, 1e-8
        self.steps += 1
        for k, (param, g) in enumerate(zip(self.params, grads, strict=True)):
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            mh = self.m[k] / (1 - b1**self.steps)
            vh = self.v[k] / (1 - b2**self.steps)
            param -= (self.lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)


def _log_softmax(z: F32, mask: npt.NDArray[np.bool_]) -> F32:
    z = np.where(mask, z, -1e9).astype(np.float32)
    z = z - z.max(axis=1, keepdims=True)
    out: F32 = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return out


def evaluate(net: PolicyNet, ex: Examples) -> dict[str, float]:
    """Mean cross-entropy against the targets, and how often the network's best legal action is
    the target's best."""
    if len(ex) == 0:
        return {"loss": math.nan, "agree": math.nan}
    _, z = _forward(net.layers, ex.x)
    logp = _log_softmax(z, ex.mask)
    loss = float(-(ex.target * np.where(ex.mask, logp, 0.0)).sum(axis=1).mean())
    agree = float((np.argmax(np.where(ex.mask, z, -np.inf), axis=1) == ex.target.argmax(1)).mean())
    return {"loss": round(loss, 4), "agree": round(agree, 4)}


def train(
    ex: Examples,
    *,
    hidden: tuple[int, ...] = (256, 128),
    epochs: int = 20,
    batch: int = 256,
    lr: float = 1e-3,
    weight_decay: float = 1e-5,
    held_out: float = 0.1,
    seed: int = 1,
    augment: bool = False,
    log: Any = None,
) -> tuple[PolicyNet, dict[str, Any]]:
    """A network trained on ``ex`` (a share ``held_out`` kept aside to measure it); the network
    and a summary (losses and agreement on the training and held-out examples)."""
    rng = np.random.default_rng(seed)
    n = len(ex)
    order = rng.permutation(n)
    n_test = int(n * held_out)
    test_idx, train_idx = order[:n_test], order[n_test:]

    def part(idx: npt.NDArray[np.intp]) -> Examples:
        return Examples(ex.x[idx], ex.mask[idx], ex.target[idx], [ex.phase[i] for i in idx])

    tr, te = part(train_idx), part(test_idx)
    net = PolicyNet.init(hidden, int(rng.integers(2**31)))
    adam = _Adam(net.layers, lr)
    history = []
    shuffles = suit_shuffles() if augment else []
    for epoch in range(epochs):
        perm = rng.permutation(len(tr))
        for start in range(0, len(tr), batch):
            idx = perm[start : start + batch]
            x, mask, t = tr.x[idx], tr.mask[idx], tr.target[idx]
            if shuffles:
                x_cols, a_cols = shuffles[int(rng.integers(len(shuffles)))]
                x, mask, t = x[:, x_cols], mask[:, a_cols], t[:, a_cols]
            acts, z = _forward(net.layers, x)
            p = np.exp(_log_softmax(z, mask))
            grad = ((p - t) * mask / len(idx)).astype(np.float32)  # d loss / d scores
            adam.step(_backward(net.layers, acts, grad, weight_decay))
        row = {"epoch": epoch + 1, "train": evaluate(net, tr), "held_out": evaluate(net, te)}
        history.append(row)
        if log is not None:
            log(row)
    summary = {
        "examples": n,
        "train_examples": len(tr),
        "held_out_examples": len(te),
        "hidden": list(hidden),
        "epochs": epochs,
        "batch": batch,
        "lr": lr,
        "seed": seed,
        "augment": augment,
        "history": history,
    }
    net.meta = {k: v for k, v in summary.items() if k != "history"} | {
        "final": history[-1] if history else None
    }
    return net, summary


# ------------------------------------------------------------ the card and discard networks

CARD_TEMPERATURE = 5.0
"""``TEMPERATURE`` for the card and discard networks' targets (the card network's held-out
regret on the 1,614 deals of expert@w100: 2.54 points a decision at 5, 2.6 at 10)."""


@dataclass
class RowExamples:
    """Decisions among options described by rows of facts (``cardmodel``): ``x[i, j]`` the
    facts of decision ``i``'s option ``j``, ``values[i, j]`` that option's value by the search
    (the mean of its candidate, in the seat's own score; NaN past the decision's options),
    ``deal`` each decision's deal in its records (the held-out share is taken by deals)."""

    x: F32
    values: F32
    deal: npt.NDArray[np.int64]
    baseline: F32 | None = None
    """A hand-written choice's scores of the options (its choice scored 1), for scale when it
    is not among the facts (``train_rows``'s ``baseline_column``)."""

    def __len__(self) -> int:
        return int(self.x.shape[0])

    def part(self, idx: npt.NDArray[np.intp]) -> RowExamples:
        base = None if self.baseline is None else self.baseline[idx]
        return RowExamples(self.x[idx], self.values[idx], self.deal[idx], base)


def card_example(decision: dict[str, Any]) -> tuple[F32, list[float]] | None:
    """(the facts of each legal card, each one's value) of one recorded card decision the search
    weighed; None for any other decision. A candidate stands for its run of equivalent cards
    (``search.candidates``): each card of the run takes its candidate's value."""
    if decision["phase"] != "play" or not decision["searched"]:
        return None
    cands = decision["candidates"]
    if len(cands) < 2:
        return None
    obs = observation_from_dict(decision["observation"])
    legal, rows = card_features(obs)
    means = {
        int(action_from_notation(Phase.PLAY, c["action"])): float(c["mean"])  # type: ignore[arg-type]
        for c in cands
    }
    reps = sorted(means)
    values = [means[reps[max(0, bisect.bisect_right(reps, c) - 1)]] for c in legal]
    return rows, values


def discard_example(decision: dict[str, Any]) -> tuple[F32, list[float]] | None:
    """(the facts of each candidate discard, each one's value) of one recorded discard the
    search weighed; None for any other decision."""
    if decision["phase"] != "discard" or not decision["searched"]:
        return None
    cands = decision["candidates"]
    if len(cands) < 2:
        return None
    obs = observation_from_dict(decision["observation"])
    masks = [C.mask_of(action_from_notation(Phase.DISCARD, c["action"])) for c in cands]  # type: ignore[arg-type]
    return discard_features(obs.hand, masks), [float(c["mean"]) for c in cands]


def load_row_examples(paths: Iterable[Path], kind: str) -> RowExamples:
    """The card (``kind`` "card") or discard ("discard") decisions of the records."""
    make = card_example if kind == "card" else discard_example
    width = FEATURES if kind == "card" else len(DISCARD)
    rows: list[tuple[F32, list[float], int]] = []
    for number, deal in numbered_deals(paths):
        for d in deal["decisions"]:
            ex = make(d)
            if ex is not None:
                rows.append((ex[0], ex[1], number))
    if not rows:
        raise ValueError(f"no {kind} decision with a choice in the records")
    return pack_rows(rows, width)


def numbered_deals(paths: Iterable[Path]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every deal of the selfplay records with a number of its own across the files (a file's
    deal numbers shifted past the previous files'), so that held-out splits by deal never put
    two files' deals of the same number together."""
    offset = 0
    for path in paths:
        _, deals = read_selfplay(path)
        last = 0
        for deal in deals:
            last = max(last, int(deal["deal"]))
            yield offset + int(deal["deal"]), deal
        offset += last + 1


def pack_rows(
    rows: Sequence[tuple[F32, Sequence[float], int]],
    width: int,
    picks: Sequence[int] | None = None,
) -> RowExamples:
    """Decisions as ``RowExamples``, padded to the most options of any: ``rows`` holds each
    one's facts (a row of ``width`` an option), its options' values and its deal; ``picks``,
    when given, the option a hand-written choice takes in each (scored 1 in ``baseline``)."""
    most = max(len(v) for _, v, _ in rows)
    x = np.zeros((len(rows), most, width), dtype=np.float32)
    values = np.full((len(rows), most), np.nan, dtype=np.float32)
    for i, (r, v, _) in enumerate(rows):
        x[i, : len(v)] = r
        values[i, : len(v)] = v
    deal_ids = np.array([d for _, _, d in rows], dtype=np.int64)
    if picks is None:
        return RowExamples(x, values, deal_ids)
    baseline = np.zeros((len(rows), most), dtype=np.float32)
    for i, pick in enumerate(picks):
        baseline[i, pick] = 1.0
    return RowExamples(x, values, deal_ids, baseline)


def regret(scores: F32, values: F32) -> float:
    """Mean points a decision lost against the search's best option by taking the option of
    best score (ties to the first)."""
    legal = ~np.isnan(values)
    pick = np.argmax(np.where(legal, scores, -np.inf), axis=1)
    best = np.nanmax(values, axis=1)
    return float(np.mean(best - values[np.arange(len(values)), pick]))


def train_rows(
    ex: RowExamples,
    *,
    baseline_column: int | None = None,
    hidden: tuple[int, ...] = (64, 32),
    epochs: int = 8,
    batch: int = 256,
    lr: float = 1e-3,
    weight_decay: float = 1e-5,
    temperature: float = CARD_TEMPERATURE,
    held_out: float = 0.1,
    seed: int = 1,
    log: Any = None,
) -> tuple[RowNet, dict[str, Any]]:
    """A network trained on ``ex`` by cross-entropy of its softmax over each decision's options
    against a softmax of the search's values over ``temperature``; a share ``held_out`` of the
    deals kept aside. The network and a summary: each epoch's ``regret`` on the training and
    held-out decisions, and the regret of the hand-written choice (the option of highest
    ``baseline_column``: club's card, the quick discard; else ``ex.baseline``'s choice) on the
    held-out ones, for scale."""
    rng = np.random.default_rng(seed)
    deals = np.unique(ex.deal)
    test_deals = rng.choice(deals, size=int(len(deals) * held_out), replace=False)
    is_test = np.isin(ex.deal, test_deals)
    tr, te = ex.part(np.flatnonzero(~is_test)), ex.part(np.flatnonzero(is_test))
    legal = ~np.isnan(tr.values)
    v = np.where(legal, tr.values, -np.inf)
    target = np.exp((v - v.max(axis=1, keepdims=True)) / temperature) * legal
    target = (target / target.sum(axis=1, keepdims=True)).astype(np.float32)
    net = RowNet.init(ex.x.shape[2], hidden, int(rng.integers(2**31)))
    adam = _Adam(net.layers, lr)
    base = te.x[..., baseline_column] if baseline_column is not None else te.baseline
    baseline = round(regret(base, te.values), 4) if len(te) and base is not None else None
    history = []
    for epoch in range(epochs):
        perm = rng.permutation(len(tr))
        for start in range(0, len(tr), batch):
            idx = perm[start : start + batch]
            x, mk, t = tr.x[idx], legal[idx], target[idx]
            acts, h = _forward(net.layers, x)
            z = np.where(mk, h[..., 0], -1e9)
            z = z - z.max(axis=1, keepdims=True)
            p = np.exp(z) * mk
            p /= p.sum(axis=1, keepdims=True)
            grad = ((p - t) * mk / len(idx)).astype(np.float32)[..., None]
            adam.step(_backward(net.layers, acts, grad, weight_decay))
        row = {
            "epoch": epoch + 1,
            "train_regret": round(regret(net.scores(tr.x), tr.values), 4),
            "held_out_regret": round(regret(net.scores(te.x), te.values), 4) if len(te) else None,
        }
        history.append(row)
        if log is not None:
            log(row)
    summary = {
        "examples": len(ex),
        "train_examples": len(tr),
        "held_out_examples": len(te),
        "hidden": list(hidden),
        "epochs": epochs,
        "temperature": temperature,
        "baseline_held_out_regret": baseline,
        "history": history,
    }
    return net, summary


CARD_BASELINE = len(CONTEXT) + CARD.index("club_pick")
DISCARD_BASELINE = DISCARD.index("quick_value")
