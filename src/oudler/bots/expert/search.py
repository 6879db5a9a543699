"""Perfect-information Monte Carlo for the play of the cards.

For each candidate card (equivalent cards merged), the same sampled worlds are played to the end:
the card, then the heuristic policy for everyone (or the exact solver once few tricks are left),
and the leaf is the deal's actual score. The card with the best mean score for the seat's side
wins. Using the same worlds for every candidate makes the comparison paired.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt

from oudler import kernel as K
from oudler.core import cards as C
from oudler.core.deal import POIGNEE_BONUS, TRICKS, Contract
from oudler.core.observation import Observation

from .playout import PlayState, Table, advance, merged, playout, solve
from .sampler import Facts, World, WorldSampler, world_of

ENDGAME_TRICKS = 3
"""Solve exactly (alpha-beta on the deal score) when the hands hold at most this many cards."""

KERNEL_ENDGAME_TRICKS = 5
"""The same on the compiled kernel, whose solver (transposition table, move ordering) solves
5 tricks in about a millisecond (bench/search.py)."""

PLAYOUT_TAIL = 4
"""The tricks the expert's card search (the kernel's) solves exactly at the end of each of its
playouts (``ExpertBot``'s default ``playout_tail``). 4 passed two screens at 100 worlds (+1.95
and +1.97 points a deal, SPRT (0, 2)) and the run at the table's wall-time budget (+1.82
[+0.37, +3.27] after 919 deals, SPRT (0, 2) accepted H1; docs/arena.md, "Screens run so far"),
at 42 us a playout against 1.7 (bench/playout_tail.py). Levels that name ``/t0`` play without
it, as ``expert`` did before 0.7.0."""


STOP_Z = 2.0
"""The early stop's bound (``Budget.stop``): an option can beat the best by at most its mean
difference plus this many standard errors. Replayed on 80 card positions at 640 worlds
(``bench/early_stop.py replay``), z 2 used 25 % of the worlds at a margin of 1 (the race
alone 49 %, z 3 32 %) and chose no worse (regret -0.03 +- 0.02 points against the race's).
The race's bound (3) drops an option for good, whatever it was worth; a miss of the stop's
keeps a pick whose shortfall is likely little more than the margin, so a looser bound."""

EXPERT_STOP = 2.0
"""The expert's early stop by default (``ExpertBot``'s ``stop``, level option ``/s2``; ``/s0``
is the expert before 0.10.0, every search run to its budget). Non-inferior by SPRT against
that expert (H0 2 points a deal worse, H1 equal; fixed work about the table's budget,
docs/arena.md) for about a third of its CPU a deal."""

STOP_AFTER = 96
"""The stop is not asked before this many worlds: a deal's score is heavy-tailed and a
paired difference over fewer can look settled that is not (from 48 worlds, a margin of 2
cost +0.07 +- 0.05 points a card in the same replay, from 64 +0.01, from 96 +0.01 and from
160 0.00, using 17, 19, 20 and 25 % of the worlds)."""


class SearchCancelled(Exception):
    """The search was told to stop (``Budget.cancelled``) before its budget was spent."""


@dataclass
class Budget:
    """Stop by wall time (``deadline``, a ``perf_counter`` value) or after exactly ``worlds``
    worlds (reproducible; both: the worlds, unless the deadline comes first). ``kernel``: play
    the worlds on the compiled kernel (``oudler.kernel``, the same policy and scores, much
    faster) rather than in Python.
    ``cancelled``: asked between batches of worlds; once it returns true the search raises
    ``SearchCancelled`` (whoever asked for the decision no longer wants it)."""

    deadline: float | None = None
    worlds: int | None = None
    min_worlds: int = 8
    kernel: bool = True
    inference: bool = True
    """Weight the worlds by the other seats' calls and cards (on the kernel; off: uniform among
    the worlds fitting the hard facts). The pure-Python search weights by the calls only."""
    kernel_sampler: bool = True
    """With ``kernel``, draw the worlds on the kernel too; off: the Python sampler's worlds
    (weighted by the calls), so that the kernel's search can be checked against Python's on
    the very same worlds."""
    cancelled: Callable[[], bool] | None = None
    race_after: int = 48
    """Options clearly behind are dropped once this many worlds are in (``race``)..."""
    race_z: float = 3.0
    """... when beaten by the best by this many standard errors. A deal's score is heavy-tailed
    (a contract made or not swings it by 100 points and more): over few worlds a difference can
    look certain that is not, so the coach races later and more surely than the bot."""
    playout_net: K.PlayoutNet | None = None
    """The learned playout policy (``kernel.load_playout_net``) plays the kernel's playouts of
    the card's search instead of the heuristic one; the exact endgame is unchanged."""
    playout_tail: int = 0
    """The card search's playouts (the kernel's heuristic ones) solve their last this many
    tricks exactly (0: played to the end by the policy)."""
    contract_tail: int = 0
    """The same for the playouts of the calls and the discard (on the kernel, with the
    heuristic policy, and not for a coach's leaves, which need the finished deals)."""
    discard_evidence: float = 0.0
    """With ``inference``, a defender reads the declarer's discard too, once the dog was shown
    (``WorldSampler.evidence``'s ``discard``: this weight times how far a world's discard falls
    short of the best by the discard heuristic). 0: not read."""
    race_unique: bool = False
    """Race on the distinct worlds (the kernel's search): inference resamples the worlds by
    weight, so one world can be drawn several times (a median of 16 % of the draws of a
    decision of 100 worlds are repeats, bench/prior_regret.py --race-unique); its playouts are
    the same each time, so repeats add no evidence and the standard error the race reads is
    that of a weighted mean over the distinct worlds (``race``'s ``keys``). The means are
    unchanged. Off: it changed none of 744 choices at 100 worlds (docs/arena.md)."""

    endgame: int | None = None
    """Solve exactly once the hands hold this many cards or fewer (None: the search's own,
    ``KERNEL_ENDGAME_TRICKS`` or ``ENDGAME_TRICKS``)."""
    stop: float | None = None
    """Stop before the budget once the choice is settled (``settled``): no option left can beat
    the best by this many points of the deciding seat's score (``stop_z`` standard errors of
    the paired difference, over the distinct worlds), checked with the race from
    ``stop_after`` worlds on. Every search: the cards, the bids, the discard, the chelem and
    the poignée. None: the worlds or the deadline only."""
    stop_z: float = STOP_Z
    stop_after: int = STOP_AFTER

    def settles(self, done: int) -> bool:
        """Is the early stop asked for, and are enough worlds in for it?"""
        return self.stop is not None and done >= self.stop_after

    @property
    def endgame_tricks(self) -> int:
        if self.endgame is not None:
            return self.endgame
        return KERNEL_ENDGAME_TRICKS if self.kernel else ENDGAME_TRICKS

    def more(self, done: int) -> bool:
        """Another world? With both ``worlds`` and ``deadline``, the worlds unless the deadline
        comes first (a cap for a busy machine; past ``min_worlds``)."""
        if self.cancelled is not None and self.cancelled():
            raise SearchCancelled(f"stopped after {done} worlds")
        if self.worlds is not None and done >= self.worlds:
            return False
        if self.deadline is None:
            assert self.worlds is not None
            return True
        if done < self.min_worlds:
            return True
        return time.perf_counter() < self.deadline

    def batch(self, done: int) -> int:
        """How many worlds to draw next."""
        if self.worlds is not None:
            return max(0, min(16, self.worlds - done))
        return 32 if self.kernel else 16


def draw(sampler: WorldSampler, rng: random.Random, n: int, budget: Budget) -> list[World]:
    """``n`` worlds for a decision: drawn and weighted on the kernel (the other seats' calls and
    cards, when ``budget.inference``) or, for the pure-Python search, in Python (calls only)."""
    if budget.kernel and budget.kernel_sampler:
        return sampler.draw(rng, n, budget.inference, budget.discard_evidence)
    return sampler.sample_weighted(rng, n)


def table_for(obs: Observation, extra_poignee: int = 0) -> Table:
    assert obs.declarer is not None and obs.contract is not None
    bonus = sum(POIGNEE_BONUS[m.bit_count()] for m in obs.poignees.values()) + extra_poignee
    return Table(
        declarer=obs.declarer,
        multiplier=obs.contract.multiplier,
        announced=bool(obs.chelem),
        poignee_bonus=bonus,
        pile_counts=obs.contract is not Contract.GARDE_CONTRE,
    )


def public_state(obs: Observation) -> PlayState:
    """The tally of the tricks played so far (hands left empty, to be filled per world)."""
    assert obs.declarer is not None
    st = PlayState()
    st.leader = obs.tricks[0].leader if obs.tricks else obs.trick_leader
    for t in obs.tricks:
        for c in t.cards:
            advance(st, c, obs.declarer)
    for c in obs.trick_cards:
        advance(st, c, obs.declarer)
    assert st.leader == obs.trick_leader
    return st


def with_world(base: PlayState, w: World, table: Table) -> PlayState:
    st = base.copy()
    st.hands = list(w.hands)
    st.extra = w.pile if table.pile_counts else 0
    return st


A = TypeVar("A")

Prior = Callable[[list[int]], list[float]]
"""A bonus for each candidate card, in points of the deciding seat's score: the learned
policy's prior (``ExpertBot.prior``), added to the search's means to choose among the cards it
kept."""

Leaf = Callable[[int, PlayState, PlayState], None]
"""Called, when given, for every option ``i`` played out in each of its first ``LEAF_WORLDS``
worlds: (i, the state just after the option, the finished deal). The coach measures its reasons
there; the search itself ignores it."""

LEAF_WORLDS = 64
"""The leaf sees each option's first this many worlds only: the coach's reasons are shares and
means that need no more, and measuring every world cost more than the search (85 % of a card
hint's time at 512 worlds; the leaf's states are played out again, in Python)."""


@dataclass(frozen=True)
class Value:
    """An option's expected deal score for the deciding seat (its own entry in the deal's
    ``scores``: 3D for the declarer, -D for a defender) over ``worlds`` sampled worlds, and the
    standard error of that mean."""

    mean: float
    se: float
    worlds: int


@dataclass(frozen=True)
class Options(Generic[A]):
    """Every option of one decision with its value. ``kept``: the options still in the race at
    the end (the others were dropped as clearly worse, on fewer worlds); the choice is among
    them."""

    actions: list[A]
    values: list[Value]
    kept: list[int]
    worlds: int
    samples: list[list[float]] = field(default_factory=list)
    """Each option's values world by world (the seat's score), when kept: the worlds are the same
    for every option, in the same order (a dropped option has the first ones), so differences
    can be taken world by world."""

    def best(self, bonus: list[float] | None = None) -> int:
        """Index of the kept option with the best mean (the first one on a tie); with
        ``bonus`` (one per option, in the values' points), of the best mean plus bonus."""
        if bonus is None:
            return max(self.kept, key=lambda i: (self.values[i].mean, -i))
        return max(self.kept, key=lambda i: (self.values[i].mean + bonus[i], -i))


def seat_factor(seat: int, declarer: int) -> int:
    """The seat's score is this times D (RULES.md §9)."""
    return 3 if seat == declarer else -1


def value_of(xs: list[float], scale: float = 1.0) -> Value:
    """Mean and standard error of ``scale`` times the samples ``xs``."""
    m, se = mean_se(xs)
    return Value(m * scale, se * abs(scale), len(xs))


def candidates(obs: Observation, f: Facts) -> list[int]:
    """Legal cards with equivalent ones merged: cards of one suit and value with no card between
    them that another player could still play or that lies in the trick."""
    live = f.unseen
    for s in range(4):
        if s != f.seat:
            live |= f.fixed[s]
    return merged(obs.legal.cards, live | obs.hand | C.mask_of(obs.trick_cards))


def card_samples(
    obs: Observation,
    sampler: WorldSampler,
    rng: random.Random,
    budget: Budget,
    leaf: Leaf | None = None,
) -> tuple[list[int], list[list[float]], list[int], int]:
    """(candidate cards, each one's value for the seat's side world by world, the candidates
    still in the race, worlds used). A value is D seen from the seat's side (+D for the
    declarer, -D for a defender)."""
    f = sampler.facts
    cands = candidates(obs, f)
    table = table_for(obs)
    decl = table.declarer
    sign = 1 if obs.seat == decl else -1
    base = public_state(obs)
    exact = obs.hand.bit_count() <= budget.endgame_tricks
    if budget.kernel:
        return _card_samples_kernel(cands, base, table, sign, exact, sampler, rng, budget, leaf)
    values: list[list[float]] = [[] for _ in cands]
    active = list(range(len(cands)))
    done = 0
    while budget.more(done):
        for w in sampler.sample_weighted(rng, budget.batch(done)):
            root = with_world(base, w, table)
            for i in active:
                st = root.copy()
                advance(st, cands[i], decl)
                start = st.copy() if leaf is not None else st
                if st.n == TRICKS:  # the deal's last card
                    v = st.score(table)
                else:
                    v = solve(st, table) if exact else playout(st, table)
                values[i].append(sign * v)
                if leaf is not None and len(values[i]) <= LEAF_WORLDS:
                    if exact and st.n < TRICKS:  # the solver leaves the state as it was
                        st = start.copy()
                        playout(st, table)  # finished by the policy, to be measured
                    leaf(i, start, st)
            done += 1
            if not budget.more(done):
                break
        if done >= budget.race_after:
            active = race(values, active, budget.race_z)
            if len(active) == 1 or _card_settled(values, active, sign, budget, done, None):
                break
    return cands, values, active, done


def _card_settled(
    values: list[list[float]],
    active: list[int],
    sign: int,
    budget: Budget,
    done: int,
    keys: Keys | None,
) -> bool:
    """``Budget.stop`` for the card: the values are D for the seat's side, the margin is in
    the seat's score (3D declaring)."""
    if not budget.settles(done):
        return False
    assert budget.stop is not None
    scale = 3.0 if sign == 1 else 1.0
    return settled(values, active, budget.stop / scale, budget.stop_z, keys)


def _card_samples_kernel(
    cands: list[int],
    base: PlayState,
    table: Table,
    sign: int,
    exact: bool,
    sampler: WorldSampler,
    rng: random.Random,
    budget: Budget,
    leaf: Leaf | None,
) -> tuple[list[int], list[list[float]], list[int], int]:
    """``card_samples`` on the kernel: a batch of worlds per call when playing out; world by
    world when solving, so that the wall budget is kept."""
    from . import fast

    decl = table.declarer
    kbase = fast.position_of(base)
    sc = fast.scoring_of(table)
    values: list[list[float]] = [[] for _ in cands]
    active = list(range(len(cands)))
    done = 0
    next_race = budget.race_after
    keys = Distinct()  # each world's cards, in the order of the values
    while budget.more(done):
        if budget.kernel_sampler:
            rows = sampler.draw_rows(
                rng, budget.batch(done), budget.inference, discard=budget.discard_evidence
            )
        else:
            rows = K.world_rows(
                [(w.hands, w.pile) for w in draw(sampler, rng, budget.batch(done), budget)]
            )
        if not table.pile_counts:
            rows[:, 8:10] = 0
        # Resampling by inference draws some worlds more than once; a world's solve is the same
        # each time, so it is done once. (Playouts are cheap: finding the repeats in a batch,
        # np.unique, cost more than it saved, bench/expert_timing.py worlds.)
        if exact:  # one world at a time: a solve can take milliseconds
            taken = 0
            solved: dict[bytes, npt.NDArray[np.int64]] = {}
            while taken < rows.shape[0] and budget.more(done):
                key = rows[taken].tobytes()
                vals = solved.get(key)
                if vals is None:
                    vals = K.card_values(
                        kbase, rows[taken : taken + 1], [cands[i] for i in active], sc, True
                    )
                    solved[key] = vals
                for j, i in enumerate(active):
                    values[i].append(float(sign * vals[j, 0]))
                keys.append(key)
                taken += 1
                done += 1
        else:
            taken = rows.shape[0]
            now = [cands[i] for i in active]
            if budget.playout_net is not None:
                vals = K.learned_card_values(kbase, rows, now, sc, budget.playout_net)
            else:
                vals = K.card_values(kbase, rows, now, sc, False, budget.playout_tail)
            for j, i in enumerate(active):
                values[i].extend(float(sign * v) for v in vals[j].tolist())
            if budget.race_unique or budget.stop is not None:
                keys.extend(r.tobytes() for r in rows)
            done += taken
        if leaf is not None:
            # the finished deals for the leaf: policy playouts after the card (as after a solve)
            for i in active:
                seen = len(values[i]) - taken  # worlds before this batch
                if seen >= LEAF_WORLDS:
                    continue
                starts = []
                for w in map(world_of, rows[: min(taken, LEAF_WORLDS - seen)].tolist()):
                    st = with_world(base, w, table)
                    advance(st, cands[i], decl)
                    starts.append(st)
                for st, end in zip(starts, fast.playout_all(starts, table), strict=True):
                    leaf(i, st, end)
        if done >= next_race:
            # every fifth more worlds: a race reads all the values so far
            next_race = max(budget.race_after, done + done // 5)
            active = race(values, active, budget.race_z, keys if budget.race_unique else None)
            # the stop always reads the distinct worlds: repeats would shrink its bound
            if len(active) == 1 or _card_settled(values, active, sign, budget, done, keys):
                break
    return cands, values, active, done


def card_values(
    obs: Observation,
    sampler: WorldSampler,
    rng: random.Random,
    budget: Budget,
) -> tuple[list[int], list[float], int]:
    """(candidate cards, their mean value for the seat, worlds used)."""
    cands, values, active, done = card_samples(obs, sampler, rng, budget)
    means = [sum(v) / len(v) if v else -math.inf for v in values]
    return cands, [means[i] if i in active else -math.inf for i in range(len(cands))], done


def card_options(
    obs: Observation,
    sampler: WorldSampler,
    rng: random.Random,
    budget: Budget,
    leaf: Leaf | None = None,
) -> Options[int]:
    """Every candidate card (equivalent cards merged) valued in the seat's own score."""
    cands, values, active, done = card_samples(obs, sampler, rng, budget, leaf)
    assert obs.declarer is not None
    scale = 3.0 if obs.seat == obs.declarer else 1.0  # the samples already carry the side's sign
    samples = [[x * scale for x in v] for v in values]
    return Options(cands, [value_of(v, scale) for v in values], active, done, samples)


Stats = Callable[[npt.NDArray[np.float64]], tuple[float, float]]
"""The mean of a paired difference, world by world, and its standard error."""


class Distinct:
    """The worlds of a search in the order of their values, each numbered among the distinct
    ones (0, 1, 2... by first draw). The numbers are kept from one reading to the next, each
    world coded once: the stop reads them after every batch of the discard's thousands of
    worlds, and hashing every world again each time cost more than the playouts (a discard of
    3.5 s at ``/s1``, bench/early_stop.py). Nothing is coded until it is read."""

    __slots__ = ("_first", "_keys", "_n", "_where")

    def __init__(self, keys: Iterable[Hashable] = ()) -> None:
        self._keys: list[Hashable] = list(keys)
        self._first: dict[Hashable, int] = {}
        self._where = np.empty(256, dtype=np.intp)
        self._n = 0  # the worlds coded so far

    def append(self, key: Hashable) -> None:
        self._keys.append(key)

    def extend(self, keys: Iterable[Hashable]) -> None:
        self._keys.extend(keys)

    def __len__(self) -> int:
        return len(self._keys)

    def codes(self, n: int) -> npt.NDArray[np.intp]:
        """The first ``n`` worlds' numbers (a view: later worlds do not change it)."""
        if n > len(self._keys):
            raise ValueError(f"{n} worlds asked for, {len(self._keys)} known")
        if n > len(self._where):
            grown = np.empty(max(n, 2 * len(self._where)), dtype=np.intp)
            grown[: self._n] = self._where[: self._n]
            self._where = grown
        first = self._first
        for i in range(self._n, n):
            self._where[i] = first.setdefault(self._keys[i], len(first))
        self._n = max(self._n, n)
        return self._where[:n]


Keys = Sequence[Hashable] | Distinct
"""Each world's identity, in the order of the values: keys, or their numbers (``Distinct``)."""


def race(
    values: list[list[float]],
    active: list[int],
    z: float = 3.0,
    keys: Keys | None = None,
) -> list[int]:
    """The options of ``active`` not beaten by the best one by ``z`` standard errors, world by
    world (all of them have values for the same worlds). Options equal to the best in every
    world so far are dropped too: they are alike.

    ``keys``: each world's identity (at least as many as the values); a world drawn more than
    once then counts once in the standard error, weighted by its draws in the mean (the
    same means; the effective number of worlds is (sum of draws)² / sum of draws²)."""
    arr, stats = _paired(values, active, keys)
    return _not_beaten(arr, active, z, stats)


def settled(
    values: list[list[float]],
    active: list[int],
    delta: float,
    z: float = STOP_Z,
    keys: Keys | None = None,
) -> bool:
    """True when more worlds are not worth playing: no option of ``active`` can beat the best
    one (by mean) by ``delta`` or more, i.e. for every other option the mean of its value less
    the best's, world by world, plus ``z`` standard errors, is below ``delta``. An option
    clearly worse passes (that alone is the race's separation); so does one within ``delta``
    of the best either way (a near-tie that more worlds would split for less than ``delta``).
    ``keys``: as for ``race``."""
    if len(active) < 2:
        return True
    arr, stats = _paired(values, active, keys)
    means = {i: float(arr[i].mean()) for i in active}
    best = max(active, key=lambda i: (means[i], -i))
    for j in active:
        if j != best:
            m, se = stats(arr[j] - arr[best])
            if m + z * se >= delta:
                return False
    return True


def _paired(
    values: list[list[float]], active: list[int], keys: Keys | None
) -> tuple[dict[int, npt.NDArray[np.float64]], Stats]:
    """The values of ``active`` as arrays over their first common worlds, and the statistics of
    a difference of two of them: plain, or over the distinct worlds (``keys``, see ``race``)."""
    n = min(len(values[i]) for i in active)
    arr = {i: np.asarray(values[i][:n], dtype=np.float64) for i in active}
    if keys is not None:
        where = (keys if isinstance(keys, Distinct) else Distinct(keys[:n])).codes(n)
        draws = np.bincount(where).astype(np.float64)
        if len(draws) < n:  # repeats: the distinct worlds, weighted by their draws
            return arr, _weighted(draws, where)

    def plain(d: npt.NDArray[np.float64]) -> tuple[float, float]:
        se = float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0
        return float(d.mean()), se

    return arr, plain


def _weighted(draws: npt.NDArray[np.float64], where: npt.NDArray[np.intp]) -> Stats:
    """The statistics over distinct worlds: world ``j`` was drawn ``draws[j]`` times, draw
    ``t`` is world ``where[t]``."""
    total = draws.sum()
    n_eff = total * total / float((draws * draws).sum())
    first = np.zeros(len(draws), dtype=np.intp)
    first[where[::-1]] = np.arange(len(where))[::-1]  # one draw of each world

    def weighted(diff: npt.NDArray[np.float64]) -> tuple[float, float]:
        d = diff[first]
        m = float((draws * d).sum() / total)
        var = float((draws * (d - m) ** 2).sum() / total) * n_eff / max(n_eff - 1.0, 1e-9)
        se = math.sqrt(var / n_eff) if n_eff > 1.0 else 0.0
        return m, se

    return weighted


def _not_beaten(
    arr: dict[int, npt.NDArray[np.float64]],
    active: list[int],
    z: float,
    stats: Stats,
) -> list[int]:
    """``race``'s rule: the option of best mean, and those whose difference from it (world by
    world) has a mean of at most ``z`` standard errors; ``stats`` gives that mean and standard
    error. An option whose difference is nil is alike, and dropped."""
    means = {i: float(arr[i].mean()) for i in active}
    best = max(active, key=lambda i: (means[i], -i))
    keep = [best]
    for j in active:
        if j == best:
            continue
        m, se = stats(arr[best] - arr[j])
        if se == 0.0 and m == 0.0:
            continue
        if m <= z * se:
            keep.append(j)
    return sorted(keep)


def mean_se(xs: list[float]) -> tuple[float, float]:
    """Mean and standard error (0 for fewer than two values)."""
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def choose_card(
    obs: Observation,
    sampler: WorldSampler,
    rng: random.Random,
    budget: Budget,
    prior: Prior | None = None,
) -> int:
    legal = obs.legal.cards
    if not legal & (legal - 1):
        return C.cards_of(legal)[0]
    cands, values, _ = card_values(obs, sampler, rng, budget)
    if len(cands) == 1:
        return cands[0]
    if prior is not None and sum(v > -math.inf for v in values) > 1:
        # the values are D for the seat's side; the bonus is in the seat's score (3D declaring)
        assert obs.declarer is not None
        scale = 3.0 if obs.seat == obs.declarer else 1.0
        bonus = prior(cands)
        values = [v + b / scale for v, b in zip(values, bonus, strict=True)]
    best = max(range(len(cands)), key=lambda i: (values[i], -i))
    return cands[best]
