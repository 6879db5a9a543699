"""Bidding, discard, chelem and poignée by simulation.

Each decision samples the hidden cards consistently with what the seat knows (earlier calls
weight the worlds), plays every option out with the heuristic policy in the same worlds, and
keeps the option with the best mean score for the seat. A bid must beat passing by a margin
calibrated over duplicate deals; options clearly behind are dropped as the worlds come in.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

from oudler import kernel as K
from oudler.bots.discards import discard_candidates, quick_value, rule_discard
from oudler.core import cards as C
from oudler.core.deal import POIGNEE_BONUS, Contract
from oudler.core.observation import Observation

from .playout import PlayState, Table, playout
from .sampler import World, WorldSampler
from .search import (
    LEAF_WORLDS,
    Budget,
    Distinct,
    Leaf,
    Options,
    Value,
    draw,
    mean_se,
    public_state,
    race,
    seat_factor,
    settled,
    table_for,
    value_of,
    with_world,
)

BID_MARGIN = -40.0
"""A contract is bid when its expected gain over passing (3D, world by world) exceeds this.
Negative: the playouts undervalue the declarer, whose real play searches. Measured against the
club level over duplicate deals: -25 and -50 alike, -90 worse, 0 clearly worse (too few bids)."""

LEARNED_BID_MARGIN = 0.0
"""``BID_MARGIN`` when the learned playout policy plays the calls' playouts (``/la``): its fair
playouts do not undervalue the declarer. On 385 Prises and Gardes taken in the selfplay records,
the declarer's real score less the search's estimate was +36.5 on average with the heuristic
playouts and +1.0 with the learned ones (docs/arena.md, "Learned playouts")."""


def bid_margin(budget: Budget) -> float:
    """The margin a contract must beat with the playouts this budget plays."""
    return BID_MARGIN if budget.playout_net is None else LEARNED_BID_MARGIN


RISK = 0.0
"""Standard errors taken off each estimate before comparing. 0: the margin above is calibrated
as it is, whatever the number of worlds."""


def _gain(scores: list[float], passing: list[float]) -> tuple[float, float]:
    """Mean and standard error of a contract's gain over passing, world by world."""
    return mean_se([x - p for x, p in zip(scores, passing, strict=True)])


def finish_all(
    states: list[PlayState], table: Table, kernel: bool, net: K.PlayoutNet | None = None
) -> list[PlayState]:
    """Each state played to the end by the policy: on the kernel (one call for all; the states
    share their tally; by the learned policy with ``net``) or in Python. The finished states,
    in order; the inputs are left."""
    if kernel:
        from . import fast

        return fast.playout_all(states, table, net)
    ends = []
    for st in states:
        end = st.copy()
        playout(end, table)
        ends.append(end)
    return ends


def scored(
    starts: list[PlayState],
    table: Table,
    budget: Budget,
    sink: list[float],
    leaf: Leaf | None = None,
    option: int = 0,
) -> list[PlayState]:
    """The starts played out on the kernel (``finish_all``), each one's score for ``table``
    appended to ``sink``, and the first ``LEAF_WORLDS`` of ``sink`` given to ``leaf`` as
    ``option``'s; the finished states."""
    ends = finish_all(starts, table, True, budget.playout_net)
    for st, end in zip(starts, ends, strict=True):
        sink.append(end.score(table))
        if leaf is not None and len(sink) <= LEAF_WORLDS:
            leaf(option, st, end)
    return ends


# ---------------------------------------------------------------------- discard


def discard_options(
    obs: Observation,
    sampler: WorldSampler,
    rng: random.Random,
    budget: Budget,
    extra: int = 0,
    leaf: Leaf | None = None,
) -> Options[int]:
    """The best few sensible discards (masks), and ``extra`` too when given (a discard to judge),
    each valued in the declarer's own score (3D)."""
    hand = obs.hand
    cands = discard_candidates(hand)
    cands.sort(key=lambda d: (-quick_value(hand, d), d))
    cands = cands[:8]
    if extra and extra not in cands:
        cands.append(extra)
    me = obs.seat
    assert obs.contract is not None
    table = Table(me, obs.contract.multiplier, False, 0, True)
    leader = (obs.dealer + 1) & 3
    totals: list[list[float]] = [[] for _ in cands]
    active = list(range(len(cands)))
    done = 0
    # Tail playouts return scores only (no played deal for a leaf) and use no learned policy.
    tail = budget.contract_tail if leaf is None and budget.playout_net is None else 0
    seen = Distinct()  # the worlds in the order of the values, for the stop
    while len(cands) > 1 and budget.more(done):
        worlds = draw(sampler, rng, budget.batch(done), budget)
        seen.extend(worlds)
        if budget.kernel and tail:
            from . import fast

            for i in active:
                starts = [_discarded(w, me, hand, cands[i], leader) for w in worlds]
                totals[i].extend(fast.tail_scores(starts, table, tail))
            done += len(worlds)
            worlds = []
        elif budget.kernel:  # a batch of worlds per call
            for i in active:
                starts = [_discarded(w, me, hand, cands[i], leader) for w in worlds]
                scored(starts, table, budget, totals[i], leaf, i)
            done += len(worlds)
            worlds = []
        for w in worlds:
            for i in active:
                st = _discarded(w, me, hand, cands[i], leader)
                start = st.copy() if leaf is not None else st
                totals[i].append(playout(st, table))
                if leaf is not None and len(totals[i]) <= LEAF_WORLDS:
                    leaf(i, start, st)
            done += 1
            if not budget.more(done):
                break
        if done >= budget.race_after:
            active = race(totals, active, budget.race_z)
            if len(active) == 1:
                break
            if budget.settles(done):  # totals are D, the margin is in the declarer's 3D
                assert budget.stop is not None
                if settled(totals, active, budget.stop / 3.0, budget.stop_z, seen):
                    break
    samples = [[3.0 * x for x in t] for t in totals]
    return Options(cands, [value_of(t, 3.0) for t in totals], active, done, samples)


def _discarded(w: World, me: int, hand: int, d: int, leader: int) -> PlayState:
    st = PlayState()
    st.hands = list(w.hands)
    st.hands[me] = hand & ~d
    st.leader = leader
    st.extra = d
    return st


def choose_discard(
    obs: Observation, sampler: WorldSampler, rng: random.Random, budget: Budget
) -> list[int]:
    opts = discard_options(obs, sampler, rng, budget)
    return C.cards_of(opts.actions[opts.best()])


# ---------------------------------------------------------------------- bidding


def _declare_all(
    worlds: list[World],
    seat: int,
    contract: Contract,
    leader: int,
    kernel: bool,
    net: K.PlayoutNet | None = None,
) -> list[PlayState]:
    """``_declare`` for each world, the playouts on the kernel or in Python."""
    if not kernel:
        return [_declare(w, seat, contract, leader) for w in worlds]
    table = Table(seat, contract.multiplier, False, 0, contract is not Contract.GARDE_CONTRE)
    return finish_all([_declared(w, seat, contract, leader) for w in worlds], table, True, net)


def _declare(w: World, seat: int, contract: Contract, leader: int) -> PlayState:
    """World ``w`` played out with ``seat`` declaring ``contract`` (a rule discard when the dog
    is taken)."""
    st = _declared(w, seat, contract, leader)
    playout(st, Table(seat, contract.multiplier, False, 0, contract is not Contract.GARDE_CONTRE))
    return st


def _declared(w: World, seat: int, contract: Contract, leader: int) -> PlayState:
    """World ``w`` ready to play with ``seat`` declaring ``contract``."""
    st = PlayState()
    st.hands = list(w.hands)
    st.leader = leader
    dog = w.pile
    if contract.dog_shown:
        hand24 = w.hands[seat] | dog
        disc = rule_discard(hand24)
        st.hands[seat] = hand24 & ~disc
        st.extra = disc
    elif contract is Contract.GARDE_SANS:
        st.extra = dog
    return st


def contract_values(
    obs: Observation, sampler: WorldSampler, rng: random.Random, budget: Budget
) -> tuple[dict[Contract, list[float]], list[float]]:
    """The seat's score in each sampled world if it declares each contract (3D), and if it
    passes: 0 when nobody has bid yet, else its score defending the highest bid so far (later
    calls are not foreseen)."""
    me = obs.seat
    leader = (obs.dealer + 1) & 3
    scores: dict[Contract, list[float]] = {c: [] for c in Contract}
    passing: list[float] = []
    high: tuple[int, Contract] | None = None
    for i, b in enumerate(obs.bids):
        if b is not None:
            high = ((obs.dealer + 1 + i) & 3, b)
    base = Table(me, 1, False, 0, True)
    done = 0
    next_stop = budget.stop_after  # the early stop is asked every fifth more worlds
    seen = Distinct()
    while budget.more(done):
        worlds = draw(sampler, rng, budget.batch(done), budget)
        seen.extend(worlds)
        if not budget.kernel:  # world by world, the wall budget checked after each
            for i, w in enumerate(worlds):
                if i and not budget.more(done):
                    break
                _contract_scores([w], me, leader, high, base, scores, passing, False, None)
                done += 1
        elif budget.contract_tail and budget.playout_net is None:
            _tail_contract_scores(
                worlds, me, leader, high, base, scores, passing, budget.contract_tail
            )
            done += len(worlds)
        else:
            _contract_scores(
                worlds, me, leader, high, base, scores, passing, True, budget.playout_net
            )
            done += len(worlds)
        if done >= 96 and _clear_pass(obs, scores, passing, bid_margin(budget)):
            break
        if budget.settles(done) and done >= next_stop:
            next_stop = done + done // 5
            if _bid_settled(obs, scores, passing, budget, seen):
                break
    return scores, passing


def _bid_settled(
    obs: Observation,
    scores: dict[Contract, list[float]],
    passing: list[float],
    budget: Budget,
    seen: Distinct,
) -> bool:
    """``Budget.stop`` for the bid: the legal calls valued as ``bid_options`` does (passing,
    and each contract's score less the margin, world by world), none can beat the best by the
    stop's margin (over the distinct worlds ``seen``)."""
    assert budget.stop is not None
    margin = bid_margin(budget)
    calls: list[list[float]] = [passing]
    calls.extend([x - margin for x in scores[c]] for c in obs.legal.bids if c is not None)
    return settled(calls, list(range(len(calls))), budget.stop, budget.stop_z, seen)


def _contract_scores(
    worlds: list[World],
    me: int,
    leader: int,
    high: tuple[int, Contract] | None,
    base: Table,
    scores: dict[Contract, list[float]],
    passing: list[float],
    kernel: bool,
    net: K.PlayoutNet | None,
) -> None:
    """Append each world's score for every contract and for passing (see contract_values)."""
    for st in _declare_all(worlds, me, Contract.GARDE, leader, kernel, net):
        scores[Contract.PRISE].append(3 * st.score(base))
        scores[Contract.GARDE].append(3 * st.score(replace(base, multiplier=2)))
    for w, st in zip(
        worlds, _declare_all(worlds, me, Contract.GARDE_CONTRE, leader, kernel, net), strict=True
    ):
        scores[Contract.GARDE_CONTRE].append(3 * st.score(replace(base, multiplier=6)))
        st.extra = w.pile
        scores[Contract.GARDE_SANS].append(3 * st.score(replace(base, multiplier=4)))
    if high is None:
        passing.extend(0.0 for _ in worlds)
    else:
        seat, contract = high
        counts = contract is not Contract.GARDE_CONTRE
        table = Table(seat, contract.multiplier, False, 0, counts)
        passing.extend(
            -st.score(table) for st in _declare_all(worlds, seat, contract, leader, kernel, net)
        )


def _tail_contract_scores(
    worlds: list[World],
    me: int,
    leader: int,
    high: tuple[int, Contract] | None,
    base: Table,
    scores: dict[Contract, list[float]],
    passing: list[float],
    tail: int,
) -> None:
    """``_contract_scores`` with playouts whose last ``tail`` tricks are solved exactly. The
    solve plays for the contract's own score, so each contract is played out on its own: the
    Prise and the Garde (whose unmultiplied chelem weighs differently), and the Garde sans
    (the dog counting for the declarer) apart from the Garde contre."""
    from . import fast

    def played(seat: int, contract: Contract) -> list[int]:
        table = replace(
            base,
            declarer=seat,
            multiplier=contract.multiplier,
            pile_counts=contract is not Contract.GARDE_CONTRE,
        )
        starts = [_declared(w, seat, contract, leader) for w in worlds]
        return fast.tail_scores(starts, table, tail)

    for contract in Contract:
        scores[contract].extend(3.0 * d for d in played(me, contract))
    if high is None:
        passing.extend(0.0 for _ in worlds)
    else:
        passing.extend(-float(d) for d in played(*high))


def _clear_pass(
    obs: Observation, scores: dict[Contract, list[float]], passing: list[float], margin: float
) -> bool:
    """Every contract still open is far below the margin: no need to look further."""
    for c in obs.legal.bids:
        if c is not None:
            mean, se = _gain(scores[c], passing)
            if mean + 4 * se >= margin:
                return False
    return True


def bid_options(
    obs: Observation,
    scores: dict[Contract, list[float]],
    passing: list[float],
    margin: float = BID_MARGIN,
) -> Options[Contract | None]:
    """Every legal call (``None``: pass) valued in the seat's own score, from the samples of
    ``contract_values``. A contract's value is passing's plus its gain over passing (world by
    world, standard error of that gain) less ``margin`` (``bid_margin``): the heuristic
    playouts undervalue the declarer, whose real play searches, and the margin was calibrated
    for that."""
    actions = list(obs.legal.bids)
    pass_v = value_of(passing)
    values: list[Value] = []
    samples: list[list[float]] = []
    for c in actions:
        if c is None:
            values.append(pass_v)
            samples.append(list(passing))
        else:
            mean, se = _gain(scores[c], passing)
            values.append(Value(pass_v.mean + mean - RISK * se - margin, se, len(passing)))
            samples.append([x - margin for x in scores[c]])
    return Options(actions, values, list(range(len(actions))), len(passing), samples)


def choose_bid(
    obs: Observation, sampler: WorldSampler, rng: random.Random, budget: Budget
) -> Contract | None:
    """The contract with the best expected gain over passing, world by world, less ``RISK``
    standard errors, if that beats the margin (``bid_margin``)."""
    legal = [b for b in obs.legal.bids if b is not None]
    if not legal:
        return None
    scores, passing = contract_values(obs, sampler, rng, budget)
    best: Contract | None = None
    best_v = bid_margin(budget)
    for c in legal:
        mean, se = _gain(scores[c], passing)
        v = mean - RISK * se
        if v > best_v:
            best, best_v = c, v
    return best


# ---------------------------------------------------------------------- chelem and poignée


CHELEM_MADE = 0.8
"""A chelem is announced only when made in at least this share of the worlds."""


def chelem_samples(
    obs: Observation,
    sampler: WorldSampler,
    rng: random.Random,
    budget: Budget,
    leaf: Leaf | None = None,
) -> tuple[list[float], list[float], int]:
    """D world by world without announcing and with (the declarer then leads), and in how many
    worlds the chelem is made when announced. ``leaf`` options: 0 no, 1 announce."""
    me = obs.seat
    table = table_for(obs)
    yes = replace(table, announced=True)
    base = public_state(obs)
    made = 0
    d_no: list[float] = []
    d_yes: list[float] = []
    done = 0
    seen = Distinct()
    next_stop = budget.stop_after

    def clear() -> bool:
        """``Budget.stop``, every fifth more worlds."""
        nonlocal next_stop
        if not budget.settles(done) or done < next_stop:
            return False
        next_stop = done + done // 5
        return _chelem_settled(d_no, d_yes, made, budget, seen)

    while budget.kernel and budget.more(done):
        worlds = draw(sampler, rng, budget.batch(done), budget)
        seen.extend(worlds)
        starts = [with_world(base, w, table) for w in worlds]
        for st in starts:
            st.leader = me
        made += sum(end.dtricks == 18 for end in scored(starts, yes, budget, d_yes, leaf, 1))
        scored([with_world(base, w, table) for w in worlds], table, budget, d_no, leaf, 0)
        done += len(worlds)
        if clear():
            break
    while not budget.kernel and budget.more(done) and not clear():
        worlds = draw(sampler, rng, budget.batch(done), budget)
        seen.extend(worlds)
        for w in worlds:
            st = with_world(base, w, table)
            st.leader = me
            start = st.copy() if leaf is not None else st
            playout(st, yes)
            made += st.dtricks == 18
            d_yes.append(st.score(yes))
            if leaf is not None and len(d_yes) <= LEAF_WORLDS:
                leaf(1, start, st)
            st = with_world(base, w, table)
            start = st.copy() if leaf is not None else st
            d_no.append(playout(st, table))
            if leaf is not None and len(d_no) <= LEAF_WORLDS:
                leaf(0, start, st)
            done += 1
            if not budget.more(done):
                break
    return d_no, d_yes, made


def _chelem_settled(
    d_no: list[float], d_yes: list[float], made: int, budget: Budget, seen: Distinct
) -> bool:
    """``Budget.stop`` for the chelem: announcing needs the chelem made in ``CHELEM_MADE`` of
    the worlds, so it is settled once that share is clearly below, or clearly above with the
    two means settled too (D; the margin is in the declarer's 3D)."""
    assert budget.stop is not None
    n = len(d_no)
    p = made / n
    # a share of 0 or 1 over n worlds is not certain: at least the spread of one world in n
    se = math.sqrt(max(p * (1.0 - p), 1.0 / n) / n)
    if p + budget.stop_z * se < CHELEM_MADE:
        return True
    if p - budget.stop_z * se < CHELEM_MADE:
        return False
    return settled([d_no, d_yes], [0, 1], budget.stop / 3.0, budget.stop_z, seen)


def chelem_options(d_no: list[float], d_yes: list[float]) -> Options[bool]:
    """Not announcing and announcing, valued in the declarer's own score (3D)."""
    values = [value_of(d_no, 3.0), value_of(d_yes, 3.0)]
    samples = [[3.0 * x for x in d_no], [3.0 * x for x in d_yes]]
    return Options([False, True], values, [0, 1], len(d_no), samples)


def choose_chelem(
    obs: Observation, sampler: WorldSampler, rng: random.Random, budget: Budget
) -> bool:
    """Announce only when the simulation says the chelem is made nearly always."""
    hand = obs.hand
    if (hand & (C.TRUMPS | C.EXCUSE_BIT)).bit_count() < 11:
        return False  # no simulation needed: far from a chelem
    d_no, d_yes, made = chelem_samples(obs, sampler, rng, budget)
    done = len(d_no)
    mean, se = mean_se([y - n for y, n in zip(d_yes, d_no, strict=True)])
    return made >= CHELEM_MADE * done and mean - RISK * se > 0


POIGNEE_WIN = 0.6
"""A poignée is shown when the seat's side wins in at least this share of the worlds: a margin
for what the shown trumps tell the others."""


def poignee_shown(obs: Observation, size: int) -> list[int]:
    """The cards shown for a poignée of ``size``: the smallest trumps (the big ones stay hidden),
    the Excuse only when the trumps are too few."""
    trumps = C.cards_of(obs.legal.poignee_cards & C.TRUMPS)
    if len(trumps) >= size:
        return trumps[:size]
    return [*trumps, C.EXCUSE]


def poignee_samples(
    obs: Observation,
    sampler: WorldSampler,
    rng: random.Random,
    budget: Budget,
    leaf: Leaf | None = None,
) -> list[float]:
    """D world by world, before this poignée's bonus (the playouts do not depend on it)."""
    table = table_for(obs)
    base = public_state(obs)
    ds: list[float] = []
    done = 0
    seen = Distinct()
    next_stop = budget.stop_after

    def clear() -> bool:
        """``Budget.stop`` on the options' values (``poignee_options``), every fifth more
        worlds."""
        nonlocal next_stop
        if not budget.settles(done) or done < next_stop:
            return False
        next_stop = done + done // 5
        assert budget.stop is not None
        opts = poignee_options(obs, ds)
        return settled(opts.samples, opts.kept, budget.stop, budget.stop_z, seen)

    while budget.kernel and budget.more(done):
        worlds = draw(sampler, rng, budget.batch(done), budget)
        seen.extend(worlds)
        starts = [with_world(base, w, table) for w in worlds]
        scored(starts, table, budget, ds, leaf)
        done += len(starts)
        if clear():
            break
    while not budget.kernel and budget.more(done) and not clear():
        worlds = draw(sampler, rng, budget.batch(done), budget)
        seen.extend(worlds)
        for w in worlds:
            st = with_world(base, w, table)
            start = st.copy() if leaf is not None else st
            ds.append(playout(st, table))
            if leaf is not None and len(ds) <= LEAF_WORLDS:
                leaf(0, start, st)
            done += 1
            if not budget.more(done):
                break
    return ds


def poignee_options(obs: Observation, ds: list[float]) -> Options[list[int] | None]:
    """Showing nothing (``None``) and each legal size (its shown cards), valued in the seat's own
    score: the bonus goes to the side that wins the contract, whoever showed it, less a cost for
    what the shown trumps tell the others (``POIGNEE_WIN``: showing pays only above it)."""
    assert obs.declarer is not None
    k = seat_factor(obs.seat, obs.declarer)
    actions: list[list[int] | None] = [None]
    values = [value_of(ds, k)]
    samples = [[k * d for d in ds]]
    for size in obs.legal.poignee_sizes:
        bonus = POIGNEE_BONUS[size]
        with_bonus = [d + bonus if d > 0 else d - bonus for d in ds]
        cost = (2 * POIGNEE_WIN - 1) * bonus * abs(k)
        v = value_of(with_bonus, k)
        actions.append(poignee_shown(obs, size))
        values.append(Value(v.mean - cost, v.se, v.worlds))
        samples.append([k * d - cost for d in with_bonus])
    return Options(actions, values, list(range(len(actions))), len(ds), samples)


def choose_poignee(
    obs: Observation, sampler: WorldSampler, rng: random.Random, budget: Budget
) -> list[int]:
    """Show the largest poignée whose bonus the seat's side is expected to win: the bonus goes
    to the side that wins the contract, whoever showed it."""
    sizes = obs.legal.poignee_sizes
    if not sizes:
        return []
    assert obs.declarer is not None
    ds = poignee_samples(obs, sampler, rng, budget)
    mine = obs.seat == obs.declarer
    wins = sum((d > 0) == mine for d in ds)
    p = wins / max(len(ds), 1)
    if p < POIGNEE_WIN:
        return []
    return poignee_shown(obs, max(sizes))
