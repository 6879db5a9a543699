"""Bidding, discard, chelem and poignée by simulation.

Each decision samples the hidden cards consistently with what the seat knows (earlier calls
weight the worlds), plays every option out with the heuristic policy in the same worlds, and
keeps the option with the best mean score for the seat. A bid must beat passing by a margin
calibrated over duplicate deals; options clearly behind are dropped as the worlds come in.
"""

from __future__ import annotations

import random
from dataclasses import replace

from oudler.core import cards as C
from oudler.core.deal import Contract, discard_rule
from oudler.core.observation import Observation

from .playout import PlayState, Table, playout
from .sampler import World, WorldSampler
from .search import RACE_AFTER, Budget, mean_se, public_state, race, table_for, with_world

HALF = C.HALF_POINTS

BID_MARGIN = -40.0
"""A contract is bid when its expected gain over passing (3D, world by world) exceeds this.
Negative: the playouts undervalue the declarer, whose real play searches. Measured against the
club level over duplicate deals: -25 and -50 alike, -90 worse, 0 clearly worse (too few bids)."""

RISK = 0.0
"""Standard errors taken off each estimate before comparing. 0: the margin above is calibrated
as it is, whatever the number of worlds."""


def _gain(scores: list[float], passing: list[float]) -> tuple[float, float]:
    """Mean and standard error of a contract's gain over passing, world by world."""
    return mean_se([x - p for x, p in zip(scores, passing, strict=True)])


# ---------------------------------------------------------------------- discard


def _take(cards: list[int], k: int) -> int:
    m = 0
    for c in cards[:k]:
        m |= 1 << c
    return m


def discard_candidates(hand: int) -> list[int]:
    """Sensible discards for a declarer's 24 cards: make voids in short suits, then bury the
    honours most likely to fall, or shorten another suit. Always legal (``discard_rule``)."""
    allowed, forced = discard_rule(hand)
    if forced:
        # every discardable suit card goes; the forced trumps are the smallest ones
        trumps = C.cards_of(allowed & C.TRUMPS)
        return [(allowed & C.SUIT_CARDS) | _take(trumps, forced)]
    suits = [allowed & C.SUIT_MASKS[s] for s in range(4)]
    kings = [bool(hand & C.KINGS & C.SUIT_MASKS[s]) for s in range(4)]
    out: list[int] = []
    for subset in range(16):
        voided = 0
        ok = True
        for s in range(4):
            if subset >> s & 1:
                if not suits[s]:
                    ok = False
                voided |= suits[s]
        if not ok or voided.bit_count() > 6:
            continue
        k = 6 - voided.bit_count()
        rest = C.cards_of(allowed & ~voided)
        # honours of suits without their King first (they would fall), the highest first
        by_value = sorted(rest, key=lambda c: (-HALF[c] - (0 if kings[C.suit_of(c)] else 4), -c))
        # or shorten the shortest suits, highest first
        length = [suits[s].bit_count() for s in range(4)]
        by_short = sorted(rest, key=lambda c: (length[C.suit_of(c)], -HALF[c], -c))
        for order in (by_value, by_short):
            d = voided | _take(order, k)
            if d not in out:
                out.append(d)
    return out


def quick_value(hand: int, discard: int) -> float:
    """A quick preference among discards: voids and short suits to trump, points saved."""
    kept = hand & ~discard
    v = C.half_points(discard) * 0.5
    trumps = (kept & C.TRUMPS).bit_count()
    for s in range(4):
        n = (kept & C.SUIT_MASKS[s]).bit_count()
        if n == 0:
            v += 6 + 0.5 * trumps
        elif n == 1 and kept & C.KINGS & C.SUIT_MASKS[s]:
            v += 3
        elif n == 1:
            v += 2
    return v


def rule_discard(hand: int) -> int:
    cands = discard_candidates(hand)
    return max(cands, key=lambda d: (quick_value(hand, d), -d))


def choose_discard(
    obs: Observation, sampler: WorldSampler, rng: random.Random, budget: Budget
) -> list[int]:
    hand = obs.hand
    cands = discard_candidates(hand)
    cands.sort(key=lambda d: (-quick_value(hand, d), d))
    cands = cands[:8]
    if len(cands) == 1:
        return C.cards_of(cands[0])
    me = obs.seat
    assert obs.contract is not None
    table = Table(me, obs.contract.multiplier, False, 0, True)
    leader = (obs.dealer + 1) & 3
    totals: list[list[float]] = [[] for _ in cands]
    active = list(range(len(cands)))
    done = 0
    while budget.more(done):
        for w in sampler.sample_weighted(rng, budget.batch(done)):
            for i in active:
                d = cands[i]
                st = PlayState()
                st.hands = list(w.hands)
                st.hands[me] = hand & ~d
                st.leader = leader
                st.extra = d
                totals[i].append(playout(st, table))
            done += 1
            if not budget.more(done):
                break
        if done >= RACE_AFTER:
            active = race(totals, active)
            if len(active) == 1:
                break
    scores = {i: mean_se(totals[i])[0] for i in active}
    best = max(active, key=lambda i: (scores[i], -i))
    return C.cards_of(cands[best])


# ---------------------------------------------------------------------- bidding


def _declare(w: World, seat: int, contract: Contract, leader: int) -> PlayState:
    """World ``w`` played out with ``seat`` declaring ``contract`` (a rule discard when the dog
    is taken)."""
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
    playout(st, Table(seat, contract.multiplier, False, 0, contract is not Contract.GARDE_CONTRE))
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
    while budget.more(done):
        for w in sampler.sample_weighted(rng, budget.batch(done)):
            st = _declare(w, me, Contract.GARDE, leader)
            scores[Contract.PRISE].append(3 * st.score(base))
            scores[Contract.GARDE].append(3 * st.score(replace(base, multiplier=2)))
            st = _declare(w, me, Contract.GARDE_CONTRE, leader)
            scores[Contract.GARDE_CONTRE].append(3 * st.score(replace(base, multiplier=6)))
            st.extra = w.pile
            scores[Contract.GARDE_SANS].append(3 * st.score(replace(base, multiplier=4)))
            if high is None:
                passing.append(0.0)
            else:
                seat, contract = high
                st = _declare(w, seat, contract, leader)
                counts = contract is not Contract.GARDE_CONTRE
                table = Table(seat, contract.multiplier, False, 0, counts)
                passing.append(-st.score(table))
            done += 1
            if not budget.more(done):
                break
        if done >= 96 and _clear_pass(obs, scores, passing):
            break
    return scores, passing


def _clear_pass(
    obs: Observation, scores: dict[Contract, list[float]], passing: list[float]
) -> bool:
    """Every contract still open is far below the margin: no need to look further."""
    for c in obs.legal.bids:
        if c is not None:
            mean, se = _gain(scores[c], passing)
            if mean + 4 * se >= BID_MARGIN:
                return False
    return True


def choose_bid(
    obs: Observation, sampler: WorldSampler, rng: random.Random, budget: Budget
) -> Contract | None:
    """The contract with the best expected gain over passing, world by world, less ``RISK``
    standard errors, if that beats ``BID_MARGIN``."""
    legal = [b for b in obs.legal.bids if b is not None]
    if not legal:
        return None
    scores, passing = contract_values(obs, sampler, rng, budget)
    best: Contract | None = None
    best_v = BID_MARGIN
    for c in legal:
        mean, se = _gain(scores[c], passing)
        v = mean - RISK * se
        if v > best_v:
            best, best_v = c, v
    return best


# ---------------------------------------------------------------------- chelem and poignée


def choose_chelem(
    obs: Observation, sampler: WorldSampler, rng: random.Random, budget: Budget
) -> bool:
    """Announce only when the simulation says the chelem is made nearly always."""
    hand = obs.hand
    if (hand & (C.TRUMPS | C.EXCUSE_BIT)).bit_count() < 11:
        return False  # no simulation needed: far from a chelem
    me = obs.seat
    table = table_for(obs)
    yes = replace(table, announced=True)
    base = public_state(obs)
    made = 0
    gain: list[float] = []
    done = 0
    while budget.more(done):
        for w in sampler.sample_weighted(rng, budget.batch(done)):
            st = with_world(base, w, table)
            st.leader = me
            playout(st, yes)
            made += st.dtricks == 18
            d_yes = st.score(yes)
            st = with_world(base, w, table)
            d_no = playout(st, table)
            gain.append(d_yes - d_no)
            done += 1
            if not budget.more(done):
                break
    mean, se = mean_se(gain)
    return made >= 0.8 * done and mean - RISK * se > 0


def choose_poignee(
    obs: Observation, sampler: WorldSampler, rng: random.Random, budget: Budget
) -> list[int]:
    """Show the largest poignée whose bonus the seat's side is expected to win: the bonus goes
    to the side that wins the contract, whoever showed it."""
    legal = obs.legal
    sizes = legal.poignee_sizes
    if not sizes:
        return []
    table = table_for(obs)
    me = obs.seat
    base = public_state(obs)
    wins = 0
    done = 0
    while budget.more(done):
        for w in sampler.sample_weighted(rng, budget.batch(done)):
            st = with_world(base, w, table)
            d = playout(st, table)
            wins += (d > 0) == (me == table.declarer)
            done += 1
            if not budget.more(done):
                break
    p = wins / max(done, 1)
    # a margin for what the shown trumps tell the others
    if p < 0.6:
        return []
    size = max(sizes)
    shown = legal.poignee_cards
    trumps = C.cards_of(shown & C.TRUMPS)
    if len(trumps) >= size:
        return trumps[:size]  # the smallest trumps: the big ones stay hidden
    return [*trumps, C.EXCUSE]
