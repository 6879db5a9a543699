"""Worlds: the hidden cards dealt consistently with everything one seat has seen.

``facts(obs)`` takes what the seat knows for certain from ``bots.knowledge.infer`` (the one reader
of hidden-card facts, shared with club: RULES.md §5-§7, §11; AI-NOTES "what a seat knows"): the
cards placed with each holder (its own hand, its own discard, shown trumps of the discard, poignée
cards, the dog's Kings, oudlers and trumps in the declarer's hand, and whatever counting proves),
how many cards each holder has (the three other seats, and the unseen dog or hidden part of the
discard as a fifth holder that never plays) and which cards each holder cannot have (voids and
trump ceilings shown in play, the discard rule, poignées showing the Excuse). It adds what the
sampler needs besides: the phase, the dealer, the shown dog and the calls of the bidding.

``WorldSampler`` draws worlds exactly uniformly among those consistent with these hard facts:
unseen cards are grouped by the set of holders that may have them, a dynamic programme counts the
ways to split each group between the holders, groups are split by those counts and dealt at random
within. A world whose dealt hands would have made a petit sec (then the deal would have been void)
is rejected. Bids are soft evidence: ``sample_weighted`` draws a pool and resamples it by the
likelihood of each seat's calls under ``handmodel``.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from oudler import kernel as K
from oudler.bots.knowledge import PILE, infer
from oudler.core import cards as C
from oudler.core.deal import Contract, Phase, is_petit_sec
from oudler.core.observation import Observation

from .handmodel import CALLS, CALLS_V1, CallModel, bid_likelihood, strength


@dataclass(frozen=True)
class Facts:
    """What one seat knows for certain about where the cards are (see the module docstring)."""

    seat: int
    dealer: int
    phase: Phase
    contract: Contract | None
    declarer: int | None
    hand: int
    played_by: tuple[int, int, int, int]
    sizes: tuple[int, int, int, int, int]
    """Cards each seat holds now; index PILE: cards in the dog or discard (0 when there is none)."""
    fixed: tuple[int, int, int, int, int]
    """Cards known to lie with each holder (the seat's own hand for itself)."""
    cannot: tuple[int, int, int, int, int]
    """Cards each holder surely does not have."""
    dog: int
    """The dog when it was shown (Prise, Garde), else 0."""
    calls: tuple[tuple[int, Contract | None, Contract | None], ...]
    """(seat, call, highest bid before it) for every call so far."""
    plays: tuple[int, ...] = ()
    """Every card played so far, in order (the trick in progress included)."""
    leader: int = 0
    """Who led the first trick."""

    @property
    def played(self) -> int:
        p = self.played_by
        return p[0] | p[1] | p[2] | p[3]

    @property
    def unseen(self) -> int:
        """Cards whose holder is not known: to be dealt by the sampler."""
        placed = self.played
        for f in self.fixed:
            placed |= f
        return C.ALL_CARDS & ~placed

    def need(self, holder: int) -> int:
        return self.sizes[holder] - self.fixed[holder].bit_count()

    def dealt_hand(self, seat: int, hand: int, pile: int) -> int:
        """The 18 cards ``seat`` was dealt, in a world where it holds ``hand`` now and the dog or
        discard is ``pile``."""
        dealt = hand | self.played_by[seat]
        if seat == self.declarer and self.dog:
            dealt = (dealt | (0 if self.phase is Phase.DISCARD else pile)) & ~self.dog
        return dealt


def facts(obs: Observation, *, calls_imposed: bool = False) -> Facts:
    """The seat's facts. ``calls_imposed``: the bids were not the players' choice (an arena's
    fixed contract), so they say nothing about the hands and are left out of ``calls``; the
    contract and the declarer stay, as hard facts."""
    k = infer(obs)
    me = obs.seat
    dog = obs.dog if obs.contract is not None and obs.contract.dog_shown and obs.dog else 0
    cannot = [C.ALL_CARDS & ~k.possible[h] for h in range(5)]
    calls = []
    high: Contract | None = None
    for i, b in enumerate(() if calls_imposed else obs.bids):
        calls.append(((obs.dealer + 1 + i) & 3, b, high))
        if b is not None:
            high = b
    return Facts(
        seat=me,
        dealer=obs.dealer,
        phase=obs.phase,
        contract=obs.contract,
        declarer=obs.declarer,
        hand=obs.hand,
        played_by=k.played_by,
        sizes=k.sizes,
        fixed=k.known,
        cannot=(cannot[0], cannot[1], cannot[2], cannot[3], cannot[4]),
        dog=dog,
        calls=tuple(calls),
        plays=tuple(c for t in obs.tricks for c in t.cards) + tuple(obs.trick_cards),
        leader=obs.tricks[0].leader if obs.tricks else obs.trick_leader,
    )


class Inconsistent(Exception):
    """No deal is consistent with the facts (a bug in inference, never a game situation)."""


@dataclass(frozen=True)
class World:
    """One way the hidden cards may lie: the four hands now, and the dog or whole discard."""

    hands: tuple[int, int, int, int]
    pile: int


_FACT = [math.factorial(n) * 1.0 for n in range(C.NUM_CARDS + 1)]


class WorldSampler:
    """Exact uniform sampling of the worlds consistent with ``Facts``."""

    MAX_NODES = 200_000

    def __init__(self, f: Facts) -> None:
        self.facts = f
        self.holders = [h for h in range(5) if h != f.seat and f.need(h) > 0]
        needs = [f.need(h) for h in self.holders]
        unseen = f.unseen
        groups: dict[int, list[int]] = {}
        for c in C.iter_cards(unseen):
            mask = 0
            for i, h in enumerate(self.holders):
                if not f.cannot[h] >> c & 1:
                    mask |= 1 << i
            if not mask:
                raise Inconsistent(f"no holder may have {C.CARD_NAMES[c]}")
            groups.setdefault(mask, []).append(c)
        if sum(needs) != unseen.bit_count() or any(n < 0 for n in needs):
            raise Inconsistent("hand sizes do not add up to the unseen cards")
        # Small, narrow groups first. The widest, largest group goes last, and before it the
        # largest group whose holders it includes: those two are split in closed form.
        order = sorted(groups.items(), key=lambda kv: (kv[0].bit_count(), len(kv[1])))
        self.pair = False
        if len(order) >= 2:
            wide = order.pop()
            subs = [i for i, (m, _) in enumerate(order) if m & ~wide[0] == 0]
            if subs:
                pen = max(subs, key=lambda i: (len(order[i][1]), -i))
                order.append(order.pop(pen))
                self.pair = True
            order.append(wide)
        self.masks = [m for m, _ in order]
        self.cards = [cs for _, cs in order]
        self.sizes = [len(cs) for cs in self.cards]
        k = len(order)
        nh = len(self.holders)
        self.caps = [[0] * nh for _ in range(k + 1)]
        for i in range(k - 1, -1, -1):
            for h in range(nh):
                self.caps[i][h] = self.caps[i + 1][h] + (
                    self.sizes[i] if self.masks[i] >> h & 1 else 0
                )
        self._memo: dict[tuple[int, tuple[int, ...]], tuple[list[float], list[tuple[int, ...]]]]
        self._memo = {}
        self.root = tuple(needs)
        if k and self._count(0, self.root) <= 0:
            raise Inconsistent("no deal fits the facts")
        self._deck: K.Deck | None = None

    # ------------------------------------------------------------------ counting

    def _allocs(self, i: int, r: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Ways to split group ``i`` between the holders that may have it, within their needs,
        leaving needs the later groups can still fill."""
        mask = self.masks[i]
        nh = len(r)
        caps = self.caps[i + 1]
        hs = [h for h in range(nh) if mask >> h & 1]
        a = [0] * nh
        for h in range(nh):
            if not mask >> h & 1 and r[h] > caps[h]:
                return
        out: list[tuple[int, ...]] = []

        def rec(j: int, left: int) -> None:
            h = hs[j]
            lo = max(0, r[h] - caps[h])
            if j == len(hs) - 1:
                if lo <= left <= r[h]:
                    a[h] = left
                    out.append(tuple(a))
                    a[h] = 0
                return
            for x in range(lo, min(left, r[h]) + 1):
                a[h] = x
                rec(j + 1, left - x)
            a[h] = 0

        rec(0, self.sizes[i])
        yield from out

    def _pair_count(self, r: tuple[int, ...]) -> float:
        """Ways to split the last two groups A, B (A's holders among B's) for needs ``r``:
        |A|! |B|! / prod(r_h!) times C(R, |A|), R the needs of A's holders (Vandermonde)."""
        last = len(self.sizes) - 1
        ma = self.masks[last - 1]
        mb = self.masks[last]
        na = self.sizes[last - 1]
        w = _FACT[na] * _FACT[self.sizes[last]]
        big_r = 0
        for h, n in enumerate(r):
            if n:
                if not mb >> h & 1:
                    return 0.0
                w /= _FACT[n]
                if ma >> h & 1:
                    big_r += n
        if big_r < na:
            return 0.0
        return w * _FACT[big_r] / (_FACT[na] * _FACT[big_r - na])

    def _count(self, i: int, r: tuple[int, ...]) -> float:
        last = len(self.sizes) - 1
        if self.pair and i == last - 1:
            return self._pair_count(r)
        if i == last:
            mask = self.masks[i]
            w = _FACT[self.sizes[i]]
            for h, n in enumerate(r):
                if n:
                    if not mask >> h & 1:
                        return 0.0
                    w /= _FACT[n]
            return w
        key = (i, r)
        hit = self._memo.get(key)
        if hit is not None:
            return hit[0][-1] if hit[0] else 0.0
        if len(self._memo) > self.MAX_NODES:
            raise Inconsistent("too many ways to split the unseen cards")
        cum: list[float] = []
        allocs: list[tuple[int, ...]] = []
        total = 0.0
        size_f = _FACT[self.sizes[i]]
        for a in self._allocs(i, r):
            rest = tuple(x - y for x, y in zip(r, a, strict=True))
            w = self._count(i + 1, rest)
            if w > 0:
                m = size_f
                for x in a:
                    m /= _FACT[x]
                total += m * w
                cum.append(total)
                allocs.append(a)
        self._memo[key] = (cum, allocs)
        return total

    # ------------------------------------------------------------------ drawing

    def sample_raw(self, rng: random.Random) -> World:
        """One world, uniformly among those fitting the hard facts (petit sec not checked)."""
        f = self.facts
        got = [0] * len(self.holders)
        r = self.root
        last = len(self.sizes) - 1
        for i in range(last + 1):
            if i == last:
                a = r
            elif self.pair and i == last - 1:
                # A's share: |A| draws without replacement from the needs of A's holders
                mask = self.masks[i]
                urn = [h for h, n in enumerate(r) if mask >> h & 1 for _ in range(n)]
                counts = [0] * len(r)
                for h in rng.sample(urn, self.sizes[i]):
                    counts[h] += 1
                a = tuple(counts)
                r = tuple(x - y for x, y in zip(r, a, strict=True))
            else:
                cum, allocs = self._memo[(i, r)]
                a = allocs[bisect.bisect_right(cum, rng.random() * cum[-1])]
                r = tuple(x - y for x, y in zip(r, a, strict=True))
            cards = self.cards[i]
            if len(a) and max(a) == len(cards):
                h = a.index(len(cards))
                for c in cards:
                    got[h] |= 1 << c
                continue
            deck = cards[:]
            rng.shuffle(deck)
            pos = 0
            for h, n in enumerate(a):
                for c in deck[pos : pos + n]:
                    got[h] |= 1 << c
                pos += n
        hands = list(f.fixed)
        for h, m in zip(self.holders, got, strict=True):
            hands[h] |= m
        return World((hands[0], hands[1], hands[2], hands[3]), hands[PILE])

    def petit_sec(self, w: World) -> bool:
        """Would a seat's dealt hand in ``w`` have been a petit sec (the deal would be void)?"""
        f = self.facts
        return any(
            s != f.seat and is_petit_sec(f.dealt_hand(s, w.hands[s], w.pile)) for s in range(4)
        )

    def sample(self, rng: random.Random) -> World:
        """One world, uniformly among those consistent with every hard fact."""
        for _ in range(1000):
            w = self.sample_raw(rng)
            if not self.petit_sec(w):
                return w
        raise Inconsistent("every world drawn holds a petit sec")

    def weight(self, w: World, model: CallModel = CALLS_V1) -> float:
        """Likelihood of the calls made so far by the other seats, in world ``w`` (by default
        under expert-v1's call model, as ``sample_weighted`` reads it)."""
        f = self.facts
        p = 1.0
        for seat, call, high in f.calls:
            if seat != f.seat:
                hand = f.dealt_hand(seat, w.hands[seat], w.pile)
                p *= bid_likelihood(strength(hand), call, high, model)
        return p

    def sample_weighted(self, rng: random.Random, n: int, pool_factor: int = 4) -> list[World]:
        """``n`` worlds drawn by importance resampling: a pool of uniform worlds, resampled by the
        likelihood of the calls under expert-v1's model (systematic resampling keeps the pool's
        spread). The pure-Python search of expert-v1 draws its worlds so."""
        f = self.facts
        if not any(seat != f.seat for seat, _, _ in f.calls):
            return [self.sample(rng) for _ in range(n)]
        pool = [self.sample(rng) for _ in range(n * pool_factor)]
        weights = [self.weight(w) for w in pool]
        total = sum(weights)
        step = total / n
        x = rng.random() * step
        out: list[World] = []
        acc = 0.0
        for w, wt in zip(pool, weights, strict=True):
            acc += wt
            while x < acc and len(out) < n:
                out.append(w)
                x += step
        while len(out) < n:  # rounding at the very end
            out.append(pool[-1])
        return out

    # ------------------------------------------------------------------ on the kernel

    def deck(self) -> K.Deck:
        """The sampler's groups and counts table, flattened for ``kernel.draw_worlds``."""
        if self._deck is None:
            f = self.facts
            items = sorted(
                (K.world_key(i, r), cum, allocs) for (i, r), (cum, allocs) in self._memo.items()
            )
            nh = len(self.holders)
            koff = [0]
            cums: list[float] = []
            rows: list[tuple[int, ...]] = []
            for _, cum, allocs in items:
                cums.extend(cum)
                rows.extend(allocs)
                koff.append(len(cums))
            fixed = np.zeros(10, dtype=np.uint64)
            for h in range(5):
                fixed[2 * h], fixed[2 * h + 1] = K.split(f.fixed[h])
            played = np.zeros(8, dtype=np.uint64)
            for seat in range(4):
                played[2 * seat], played[2 * seat + 1] = K.split(f.played_by[seat])
            coff = [0]
            for cs in self.cards:
                coff.append(coff[-1] + len(cs))
            self._deck = K.Deck(
                root=np.asarray(self.root, dtype=np.int64),
                sizes=np.asarray(self.sizes, dtype=np.int64),
                masks=np.asarray(self.masks, dtype=np.int64),
                cards=np.asarray([c for cs in self.cards for c in cs], dtype=np.int64),
                coff=np.asarray(coff, dtype=np.int64),
                pair=self.pair,
                keys=np.asarray([k for k, _, _ in items], dtype=np.int64),
                koff=np.asarray(koff, dtype=np.int64),
                cum=np.asarray(cums, dtype=np.float64),
                allocs=np.asarray(rows, dtype=np.int64).reshape(len(rows), nh),
                holder_ids=np.asarray(self.holders, dtype=np.int64),
                fixed=fixed,
                me=f.seat,
                played=played,
                declarer=-1 if f.declarer is None else f.declarer,
                dog=np.asarray(K.split(f.dog), dtype=np.uint64),
                add_pile=f.phase is not Phase.DISCARD,
            )
        return self._deck

    def evidence(self, discard: float = 0.0) -> K.Evidence | None:
        """The other seats' calls and cards, as ``kernel.log_weights`` reads them (None when
        they made none: every world is then as likely). ``discard`` > 0: for a defender once the
        dog was shown, the declarer's discard too (``kernel.Evidence.discard``)."""
        f = self.facts
        calls = [(s, c, h) for s, c, h in f.calls if s != f.seat]
        plays = f.plays if f.declarer is not None and f.phase is Phase.PLAY else ()
        if not (discard > 0 and f.declarer is not None and f.seat != f.declarer and f.dog):
            discard = 0.0
        if (
            not calls
            and not discard
            and not any((f.leader + i) & 3 != f.seat for i in range(len(plays)))
        ):
            return None
        return K.Evidence(
            call_seats=np.asarray([s for s, _, _ in calls], dtype=np.int64),
            calls=np.asarray([0 if c is None else int(c) for _, c, _ in calls], dtype=np.int64),
            lowests=np.asarray([1 if h is None else int(h) + 1 for _, _, h in calls], np.int64),
            thresholds=np.asarray(CALLS.thresholds, dtype=np.float64),
            softness=CALLS.softness,
            floor=CALLS.floor,
            plays=np.asarray(plays, dtype=np.int64),
            leader=f.leader,
            eps=np.asarray(PLAY_EPS, dtype=np.float64),
            fair=PLAY_FAIR,
            discard=discard,
        )

    def draw_rows(
        self,
        rng: random.Random,
        n: int,
        inference: bool = True,
        pool_factor: int = 4,
        discard: float = 0.0,
    ) -> npt.NDArray[np.uint64]:
        """``n`` worlds on the kernel, as rows of words (four hands, then the dog or discard).
        With ``inference``, a pool of ``pool_factor * n`` uniform worlds is resampled by the
        likelihood of the other seats' calls and cards, and with ``discard`` the declarer's
        discard (``evidence``; systematic resampling); without, the worlds are uniform among
        those fitting the hard facts."""
        ev = self.evidence(discard) if inference else None
        pool = n * pool_factor if ev is not None else n
        deck = self.deck()
        rows = K.draw_worlds(deck, pool, rng.getrandbits(32), 1000 * pool)
        if rows.shape[0] < pool:
            raise Inconsistent("every world drawn holds a petit sec")
        if ev is None:
            return rows
        return rows[resample(K.log_weights(deck, rows, ev), n, rng.random())]

    def draw(
        self, rng: random.Random, n: int, inference: bool = True, discard: float = 0.0
    ) -> list[World]:
        """``draw_rows`` as ``World`` values."""
        rows = self.draw_rows(rng, n, inference, discard=discard)
        return [world_of(r) for r in rows.tolist()]


def world_of(row: list[int]) -> World:
    """A kernel row (four hands, then the dog or discard, as words) as a ``World``."""
    hands = (K.join(row[0], row[1]), K.join(row[2], row[3]), K.join(row[4], row[5]),
             K.join(row[6], row[7]))  # fmt: skip
    return World(hands, K.join(row[8], row[9]))


PLAY_EPS: tuple[float, ...] = (0.25, 0.3, 0.05, 0.15, 0.5, 0.6, 1.0, 0.8, 0.2, 1.0)
"""The likelihood of a card the heuristic policy would not have played, relative to one it
would have, by situation (``kernel._worlds.kind_of``: a defender's lead, follow, trump led, ruff,
discard, then the declarer's): other players are not this policy, so a card off it is evidence,
not proof. Fitted to the play of the levels that sit at the table, club (590 deals) and the
expert (160), each weighing the same (``python bench/inference_fit.py tune``, README "Inference,
measured offline"): both follow the policy when trumps are led or when they ruff; the expert's
leads and the declarer's following often differ from it (1.0: such a card tells nothing)."""

PLAY_FAIR = True
"""The policy that explains a seat's cards decides from what that seat could see (its own hand
and the cards played), not from the whole world: a card then tells about its player's hand only."""

DISCARD_EVIDENCE = 0.0
"""The weight of the declarer's discard as a defender's evidence (``evidence``'s ``discard``):
0, not read, until an arena accepts it (level option ``/dX`` to measure it)."""


def resample(log_w: npt.NDArray[np.float64], n: int, u: float) -> npt.NDArray[np.intp]:
    """Indices of ``n`` draws from the weights ``exp(log_w)`` by systematic resampling (one
    uniform ``u`` in [0, 1)): each item is drawn about n times its share, never much more or
    less."""
    w = np.exp(log_w - log_w.max())
    cum = np.cumsum(w)
    pos = (u + np.arange(n)) * (cum[-1] / n)
    idx: npt.NDArray[np.intp] = np.minimum(np.searchsorted(cum, pos, side="right"), len(w) - 1)
    return idx


def normalized_weights(log_w: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The weights ``exp(log_w)`` scaled to sum to 1."""
    w: npt.NDArray[np.float64] = np.exp(log_w - log_w.max())
    out: npt.NDArray[np.float64] = w / w.sum()
    return out


def sampler_for(f: Facts) -> WorldSampler:
    """The exact sampler for ``f``; should the facts ever contradict each other (a bug in the
    inference) or be too costly to count, the hand sizes alone, so that a decision is still
    made (a world then may break a void or a trump ceiling, never a hand size)."""
    try:
        return WorldSampler(f)
    except Inconsistent:
        return WorldSampler(replace(f, cannot=(0, 0, 0, 0, 0), calls=()))
