"""The ``policy`` level: a small neural network trained on the expert's own decisions, no search.

The network reads the deciding seat's observation as ``oudler.encoding`` writes it (1,695
zeros and ones: the hand, the cards played by each seat, the bids...; seen from the seat, so
the same at every seat) and gives a score to each of the 89 action ids of that encoding (cards,
calls, chelem, poignée sizes). The bot plays the legal action of best score: the legal card,
the legal call, the six cards of the discard (the forced trumps among the allowed trumps, the
rest among the other allowed cards), announcing a chelem or not, the poignée size (showing
its smallest trumps, as the expert does).

Cards are played, and the discard chosen, by smaller networks when the file holds them
(``cardmodel``: one score per legal card, or per candidate discard, from a few dozen facts about
it, the same weights for every option); the whole-observation network decides the rest.

A few dense layers in numpy (ReLU between them), the weights in one ``.npz`` file: trained by
``scripts/train_policy.py`` on ``oudler selfplay`` records (docs/selfplay.md). The level
``policy`` reads the file shipped in the package (``oudler/bots/data/policy.npz``);
``policy@PATH`` reads another one.
"""

from __future__ import annotations

import functools
import itertools
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from oudler.bots.cardmodel import (
    DISCARD,
    FEATURES,
    RowNet,
    choose_card,
    choose_discard,
)
from oudler.core import Action, Observation, Phase
from oudler.core import cards as C
from oudler.core.deal import POIGNEE_SIZES
from oudler.core.tricks import TrickState
from oudler.encoding import (
    CHELEM_NO,
    CHELEM_YES,
    NUM_ACTIONS,
    OBS_SIZE,
    POIGNEE_NONE,
    POIGNEE_SIZE_BASE,
    bid_action,
    encode_observation,
)

F32 = npt.NDArray[np.float32]
FORMAT = "oudler-policy/1"
DEFAULT_WEIGHTS = Path(__file__).parent / "data" / "policy.npz"


class PolicyError(ValueError):
    """A weights file that cannot be read or does not fit the encoding."""


EXTRA = 4 * C.NUM_CARDS + 6
"""Facts derived from the observation, appended to the encoding (a small network learns them
badly from the raw planes): per card, legal now, winning the trick so far if played now, master
(no card above it in its suit, or trump, is still unseen by the seat), unseen; then whether the
seat declares, whether the trick so far goes to its side, and how many cards the trick holds
(one-hot 0..3)."""

FEATURE_SIZE = OBS_SIZE + EXTRA


def features(obs: Observation) -> F32:
    """The network's input for ``obs``: ``oudler.encoding``'s observation vector, then the
    derived facts of ``EXTRA``; everything from the seat's observation only."""
    out = np.zeros(FEATURE_SIZE, dtype=np.float32)
    encode_observation(obs, 0, 0, out)
    n = C.NUM_CARDS
    at = OBS_SIZE
    legal = obs.legal.cards if obs.phase is Phase.PLAY else 0
    me = obs.seat
    own = obs.own_discard or 0
    unseen = C.ALL_CARDS & ~obs.hand & ~obs.played & ~own
    t = TrickState(obs.trick_leader)
    for c in obs.trick_cards:
        t.add(c)
    decl = obs.declarer
    for c in C.iter_cards(legal):
        out[at + c] = 1
        u = t.copy()
        u.add(c)
        if u.winner == me:
            out[at + n + c] = 1
    for c in C.iter_cards(obs.hand):
        if c == C.EXCUSE:
            continue
        above = C.trumps_above(c) if c < C.TRUMP_COUNT else _above_in_suit(c)
        if not above & unseen:
            out[at + 2 * n + c] = 1
    for c in C.iter_cards(unseen):
        out[at + 3 * n + c] = 1
    at += 4 * n
    if decl is not None:
        out[at] = decl == me
        if obs.trick_cards and t.winner is not None and t.winner >= 0:
            out[at + 1] = (t.winner == decl) == (me == decl)
    out[at + 2 + min(len(obs.trick_cards), 3)] = 1
    return out


def _above_in_suit(card: int) -> int:
    """The cards of ``card``'s suit above it."""
    suit = C.SUIT_MASKS[C.suit_of(card)]
    return suit & ~((1 << (card + 1)) - 1)


def legal_ids(obs: Observation) -> npt.NDArray[np.bool_]:
    """Which of the 89 action ids stand for a legal action of ``obs``'s decision (for the
    discard: the cards that may go to it)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    legal = obs.legal
    if obs.phase is Phase.PLAY:
        mask[C.cards_of(legal.cards)] = True
    elif obs.phase is Phase.BIDDING:
        mask[[bid_action(b) for b in legal.bids]] = True
    elif obs.phase is Phase.DISCARD:
        mask[C.cards_of(legal.discard_allowed)] = True
    elif obs.phase is Phase.CHELEM:
        mask[[CHELEM_NO, CHELEM_YES]] = True
    elif obs.phase is Phase.POIGNEE:
        mask[POIGNEE_NONE] = True
        for size in legal.poignee_sizes:
            mask[POIGNEE_SIZE_BASE + POIGNEE_SIZES.index(size)] = True
    return mask


class PolicyNet:
    """Dense layers: ``x @ W + b``, ReLU between layers; the last gives the 89 scores."""

    def __init__(
        self,
        layers: list[tuple[F32, F32]],
        meta: dict[str, Any] | None = None,
        cards: RowNet | None = None,
        discards: RowNet | None = None,
    ):
        if (
            not layers
            or layers[0][0].shape[0] != FEATURE_SIZE
            or layers[-1][0].shape[1] != NUM_ACTIONS
        ):
            raise PolicyError(f"a policy maps {FEATURE_SIZE} inputs to {NUM_ACTIONS} action scores")
        self.layers = layers
        self.meta = meta or {}
        self.cards = cards
        """The card network (``cardmodel``): plays the cards when present."""
        self.discards = discards
        """The discard network (``cardmodel``): chooses the discard when present."""

    @classmethod
    def init(cls, hidden: tuple[int, ...], seed: int) -> PolicyNet:
        """Random weights (He initialization) from ``seed``."""
        rng = np.random.default_rng(seed)
        sizes = (FEATURE_SIZE, *hidden, NUM_ACTIONS)
        layers = []
        for n_in, n_out in itertools.pairwise(sizes):
            w = rng.normal(0.0, np.sqrt(2.0 / n_in), (n_in, n_out)).astype(np.float32)
            layers.append((w, np.zeros(n_out, dtype=np.float32)))
        return cls(layers)

    def scores(self, x: F32) -> F32:
        """Action scores (logits) for a batch of inputs (rows) or one input."""
        h = x
        for i, (w, b) in enumerate(self.layers):
            # one input: its nonzero entries only (a few hundred of 2,013), far cheaper than a
            # product with the whole first matrix, which a multi-threaded BLAS makes slower
            # still on a busy machine
            h = _sparse_product(h, w) + b if i == 0 and x.ndim == 1 else h @ w + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return h

    def save(self, path: Path) -> None:
        arrays: dict[str, Any] = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"] = w.astype(np.float32)
            arrays[f"b{i}"] = b.astype(np.float32)
        for prefix, sub in (("card_", self.cards), ("discard_", self.discards)):
            for i, (w, b) in enumerate(sub.layers if sub is not None else []):
                arrays[f"{prefix}w{i}"] = w.astype(np.float32)
                arrays[f"{prefix}b{i}"] = b.astype(np.float32)
        import json

        arrays["meta"] = np.array(json.dumps({"format": FORMAT, **self.meta}))
        with path.open("wb") as fh:
            np.savez_compressed(fh, **arrays)

    @classmethod
    def load(cls, path: Path) -> PolicyNet:
        import json

        try:
            with np.load(path) as data:
                meta = json.loads(str(data["meta"]))
                if meta.get("format") != FORMAT:
                    raise PolicyError(f"{path}: not a policy file ({meta.get('format')!r})")
                count = sum(1 for k in data.files if k.startswith("w"))
                layers = [(_flushed(data[f"w{i}"]), _flushed(data[f"b{i}"])) for i in range(count)]
                subs: list[RowNet | None] = []
                for prefix, inputs in (("card_", FEATURES), ("discard_", len(DISCARD))):
                    n_sub = sum(1 for k in data.files if k.startswith(f"{prefix}w"))
                    sub = [
                        (_flushed(data[f"{prefix}w{i}"]), _flushed(data[f"{prefix}b{i}"]))
                        for i in range(n_sub)
                    ]
                    subs.append(RowNet(sub, inputs) if sub else None)
        except (OSError, KeyError, ValueError) as err:
            raise PolicyError(f"cannot read the policy weights {path}: {err}") from None
        return cls(layers, meta, subs[0], subs[1])


def _sparse_product(x: F32, w: F32) -> F32:
    """``x @ w`` for one mostly-zero input ``x``."""
    nz = np.flatnonzero(x)
    out: F32 = x[nz] @ w[nz]
    return out


def _flushed(a: npt.NDArray[Any]) -> F32:
    """``a`` as float32 with subnormal values set to 0: weight decay leaves many weights of
    inputs seldom seen at such values, and arithmetic on them is many times slower."""
    out = a.astype(np.float32)
    out[np.abs(out) < np.finfo(np.float32).tiny] = 0.0
    return out


class PolicyBot:
    """Plays the legal action the network scores best; no search, no randomness."""

    def __init__(self, net: PolicyNet, level: str = "policy") -> None:
        self.net = net
        self.level = level
        self.seat = -1

    def begin_deal(self, seat: int) -> None:
        self.seat = seat

    def act(self, obs: Observation) -> Action:
        from oudler.bots.expert.contract import poignee_shown

        legal = obs.legal
        phase = obs.phase
        if phase is Phase.PLAY and not legal.cards & (legal.cards - 1):
            return C.cards_of(legal.cards)[0]
        if phase is Phase.PLAY and self.net.cards is not None:
            return choose_card(self.net.cards, obs)
        if phase is Phase.DISCARD and self.net.discards is not None:
            return choose_discard(self.net.discards, obs.hand)
        s = self.net.scores(features(obs))
        mask = legal_ids(obs)
        if phase is Phase.DISCARD:
            return discard_by_scores(s, legal.discard_allowed, legal.discard_forced_trumps)
        best = int(np.argmax(np.where(mask, s, -np.inf)))
        if phase is Phase.PLAY:
            return best
        if phase is Phase.BIDDING:
            return next(b for b in legal.bids if bid_action(b) == best)
        if phase is Phase.CHELEM:
            return best == CHELEM_YES
        if phase is Phase.POIGNEE:
            if best == POIGNEE_NONE:
                return []
            return poignee_shown(obs, POIGNEE_SIZES[best - POIGNEE_SIZE_BASE])
        raise ValueError(f"nothing to decide in the {phase.value} phase")


def discard_by_scores(s: F32, allowed: int, forced_trumps: int) -> list[int]:
    """Six cards: the ``forced_trumps`` best-scored allowed trumps, the rest the best-scored
    allowed cards that are not trumps (trumps go to the discard only when forced)."""
    trumps = C.cards_of(allowed & C.TRUMPS)
    others = C.cards_of(allowed & ~C.TRUMPS)
    pick_t = sorted(trumps, key=lambda c: (-float(s[c]), c))[:forced_trumps]
    pick_o = sorted(others, key=lambda c: (-float(s[c]), c))[: 6 - len(pick_t)]
    return sorted(pick_t + pick_o)


def card_log_probs(net: PolicyNet, obs: Observation) -> F32:
    """The network's log probability of each legal card of ``obs`` (a card decision), indexed by
    card (78 entries; ``-inf`` for the cards not legal): a log-softmax over the legal cards."""
    s = net.scores(features(obs))[: C.NUM_CARDS].astype(np.float64)
    legal = np.zeros(C.NUM_CARDS, dtype=np.bool_)
    legal[C.cards_of(obs.legal.cards)] = True
    z = np.where(legal, s, -np.inf)
    top = z.max()
    out: F32 = (z - top - np.log(np.exp(z - top).sum())).astype(np.float32)
    return out


@functools.cache
def packaged_net() -> PolicyNet:
    """The weights shipped in the package, read once per process (the expert's prior)."""
    if not DEFAULT_WEIGHTS.exists():
        raise PolicyError(f"no policy weights at {DEFAULT_WEIGHTS}")
    return PolicyNet.load(DEFAULT_WEIGHTS)


def make_policy_bot(path: Path | None = None, level: str = "policy") -> PolicyBot:
    """A ``PolicyBot`` with the weights of ``path`` (the packaged ones by default)."""
    where = path or DEFAULT_WEIGHTS
    if not where.exists():
        raise PolicyError(
            f"no policy weights at {where}: train them with scripts/train_policy.py "
            "(docs/selfplay.md)"
        )
    return PolicyBot(PolicyNet.load(where), level)
