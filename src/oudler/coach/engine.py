"""Every legal action of one seat valued from that seat's observation, and nothing else.

The worlds are the expert's (``bots.expert.sampler``: exact sampling from what the seat knows), the
values the expert's search (``bots.expert.search`` and ``contract``: the same playouts and the same
worlds for every option, so the comparison is paired). While the options are played out, a meter
measures what happens in each world after each option (the Petit captured, the Excuse lost in the
last trick, the trick in progress won, the contract made...): the reasons come from there.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from oudler.bots.expert.contract import (
    bid_options,
    chelem_options,
    chelem_samples,
    contract_values,
    discard_options,
    poignee_options,
    poignee_samples,
)
from oudler.bots.expert.playout import LAST, PlayState, Table, advance, choose
from oudler.bots.expert.sampler import facts, sampler_for
from oudler.bots.expert.search import Budget, Options, card_options, mean_se
from oudler.core import cards as C
from oudler.core.deal import TRICKS, Phase, bid_name
from oudler.core.observation import Observation
from oudler.core.tricks import legal_mask

from .reasons import Reason, pick

KINDS = {
    Phase.BIDDING: "bid",
    Phase.DISCARD: "discard",
    Phase.CHELEM: "chelem",
    Phase.POIGNEE: "poignee",
    Phase.PLAY: "play",
}

MADE_WORTH_SAYING = 0.1
"""A reason adds how often the contract is made when the two actions differ by this much."""

NOT_GIVEN: Any = object()
"""No played action to value (``None`` is an action: showing no poignée)."""

RACE_AFTER = 256
"""The coach drops options clearly behind once this many worlds are in (the bot: 48), ..."""
RACE_Z = 3.0
"""... beaten by this many standard errors of the difference: dropped after 48 worlds, a card
worth 20 points more was lost in some positions (bench/coach_agreement.py)."""

CLOSE_Z = 2.0
"""An option is about equal to the choice when the choice's lead over it is within this many
standard errors of their difference, world by world (ranking them would be ranking noise)..."""
CLOSE_POINTS = 0.5
"""... or under this many points of expected score, too little to matter at the table."""
WIDE_POINTS = 10.0
"""Options within the noise are "about equal" only when that noise (``CLOSE_Z`` standard
errors of their difference) is at most this many points; wider (few worlds: a hint cut short
on a busy machine, the pure-Python search), the coach says it could not tell them apart."""


@dataclass(frozen=True)
class Option:
    """One action in record notation, the seat's expected deal score with it (and its standard
    error, over ``worlds`` worlds), and what was measured in those worlds (means)."""

    action: Any
    value: float
    se: float
    worlds: int
    stats: dict[str, float] = field(default_factory=dict)
    samples: tuple[float, ...] = ()  # the value world by world, the same worlds for every option
    diff_se: float = 0.0
    """Standard error of the choice's value minus this one's, world by world (0 for the choice)."""
    close: bool = False
    """About equal to the choice: within the estimate's noise (``CLOSE_Z``, ``CLOSE_POINTS``)."""


def paired_se(a: Option, b: Option) -> float:
    """Standard error of ``a``'s value minus ``b``'s, world by world over the worlds both were
    played in (the unpaired figure when there are too few)."""
    n = min(len(a.samples), len(b.samples))
    if n < 2:
        return math.hypot(a.se, b.se)
    return mean_se([x - y for x, y in zip(a.samples[:n], b.samples[:n], strict=True)])[1]


@dataclass(frozen=True)
class Evaluation:
    """Every option of one decision, the best first; ``played`` is the index of a given action."""

    kind: str
    seat: int
    side: str  # "declarer" or "defence" ("bidder" while bidding)
    options: list[Option]
    played: int | None
    forced: bool
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def close(self) -> list[Option]:
        """The options about equal to the choice (not the choice itself)."""
        return [o for o in self.options[1:] if o.close]


def position_key(obs: Observation) -> str:
    """The position as one seat sees it, in 32 hex digits: the same observation (the same
    decision met again, after an undo) gives the same key."""
    text = json.dumps(obs.to_dict(), sort_keys=True).encode()
    return hashlib.blake2b(text, digest_size=16).hexdigest()


def rng_for(obs: Observation, seed: int) -> random.Random:
    """Randomness from the seed and the observation only: the same view gives the same worlds."""
    key = json.dumps(obs.to_dict(), sort_keys=True).encode()
    digest = hashlib.blake2b(key, digest_size=8, key=str(seed).encode()[:64]).digest()
    return random.Random(int.from_bytes(digest, "big"))


def budget_for(
    budget_ms: int,
    worlds: int | None,
    cancelled: Callable[[], bool] | None = None,
    cap_ms: int | None = None,
    race_after: int = RACE_AFTER,
    race_z: float = RACE_Z,
    kernel: bool = True,
) -> Budget:
    """``worlds`` worlds exactly (capped by ``cap_ms`` of wall time when given), else
    ``budget_ms`` of wall time."""
    now = time.perf_counter()
    if worlds is not None:
        cap = None if cap_ms is None else now + cap_ms / 1000.0
        return Budget(
            worlds=max(1, worlds),
            deadline=cap,
            cancelled=cancelled,
            race_after=race_after,
            race_z=race_z,
            kernel=kernel,
        )
    return Budget(
        deadline=now + budget_ms / 1000.0,
        cancelled=cancelled,
        race_after=race_after,
        race_z=race_z,
        kernel=kernel,
    )


# ------------------------------------------------------------------------------ the meter


class Meter:
    """Sums, per option, what happened in each world after it (see ``reasons.STATS``)."""

    def __init__(self, obs: Observation, kind: str) -> None:
        assert obs.declarer is not None and obs.contract is not None
        self.seat = obs.seat
        self.decl = obs.declarer
        self.ours = obs.seat == obs.declarer
        self.kind = kind
        self.own = obs.hand
        self.n0 = len(obs.tricks)
        self.trick_before = C.mask_of(obs.trick_cards)
        played = obs.played
        self.petit_mine = bool(obs.hand & C.PETIT_BIT)
        self.petit_seat: int | None = None  # who played the Petit in the trick in progress
        for j, c in enumerate(obs.trick_cards):
            if c == C.PETIT:
                self.petit_seat = (obs.trick_leader + j) & 3
        self.petit_live = not played & C.PETIT_BIT or self.petit_seat is not None
        self.excuse_mine = bool(obs.hand & C.EXCUSE_BIT)
        self.table = Table(self.decl, obs.contract.multiplier, False, 0, True)
        self.sums: dict[int, dict[str, float]] = {}
        self.counts: dict[int, int] = {}

    def _petit_side(self, start: PlayState) -> bool | None:
        """Is the Petit on the seat's side before the rest of the play (None: in no hand)?"""
        holder = self.petit_seat
        if holder is None:
            for s in range(4):
                if start.hands[s] & C.PETIT_BIT:
                    holder = s
        if holder is None and self.petit_mine:
            holder = self.seat  # just played by the seat
        if holder is None:
            return None
        return (holder == self.decl) == self.ours

    def __call__(self, i: int, start: PlayState, end: PlayState) -> None:
        decl_cards = end.pile | end.extra
        ours = self.ours
        s = self.sums.setdefault(i, {})
        self.counts[i] = self.counts.get(i, 0) + 1

        def add(name: str, x: float) -> None:
            s[name] = s.get(name, 0.0) + x

        add("made", float(end.score(self.table) > 0))
        petit_decl = bool(decl_cards & C.PETIT_BIT)
        if self.petit_live:
            side = self._petit_side(start)
            ends_ours = petit_decl == ours
            if self.petit_mine:
                add("petit_lost", float(not ends_ours))
            elif side is False:
                add("petit_won", float(ends_ours))
            else:
                add("petit_won", 0.0)
        if self.excuse_mine:
            add("excuse_lost", float(end.ex_trick == LAST and end.ex_winner_decl != ours))
        add("pab_ours", float(end.pab == (1 if ours else -1)))
        add("pab_theirs", float(end.pab == (-1 if ours else 1)))
        if ours:
            add("chelem", float(end.dtricks == TRICKS))
        # card points of the side (the Excuse where it ends: with its owner, or with the winner of
        # the last trick, or in the dog)
        if end.ex_trick == LAST:
            ex_decl = end.ex_winner_decl
        elif end.ex_trick >= 0:
            ex_decl = end.ex_owner_decl
        else:
            ex_decl = bool(decl_cards & C.EXCUSE_BIT)
        half = C.half_points(decl_cards & ~C.EXCUSE_BIT) + (9 if ex_decl else 0)
        add("points", (half if ours else 182 - half) / 2)
        theirs = ~decl_cards if ours else decl_cards
        add("own_lost", C.half_points(self.own & ~C.EXCUSE_BIT & theirs) / 2)
        if self.kind == "play":
            won, pts = self._trick(start)
            add("trick_ours", float(won))
            add("trick_points", pts if won else -pts)

    def _trick(self, start: PlayState) -> tuple[bool, float]:
        """The trick in progress played to its end by the policy: won by the seat's side, and
        its card points."""
        decl = self.decl
        cards = self.trick_before | C.mask_of(start.cards)
        if start.n > self.n0:  # the seat's card ended the trick
            winner = start.leader
            cards |= self.own & ~start.hands[self.seat]
        else:
            st = start.copy()
            cards |= self.own & ~st.hands[self.seat]
            while st.n == self.n0:
                seat = st.to_move
                t = st.trick()
                c = choose(
                    st.hands, seat, legal_mask(st.hands[seat], t.led, t.high), t, decl,
                    st.dtricks == st.n,
                )  # fmt: skip
                cards |= 1 << c
                advance(st, c, decl)
            winner = st.leader
        won = (winner == decl) == self.ours
        return won, C.half_points(cards & ~C.EXCUSE_BIT) / 2

    def stats(self, i: int) -> dict[str, float]:
        n = self.counts.get(i, 0)
        if not n:
            return {}
        return {k: v / n for k, v in self.sums[i].items()}


# ------------------------------------------------------------------------------ evaluation


def _sorted(
    opts: Options[Any],
    notation: Callable[[Any], Any],
    stats: Callable[[int], dict[str, float]],
    played: int | None,
) -> tuple[list[Option], int | None]:
    """Options in notation, the choice first, then by value. Every value is taken against the
    search's best (``Options.best``) on the worlds both were played in (``_paired_mean``), and
    the choice is the best of those values: an option dropped early against an option that later
    fell behind can end above the search's best (issue 19: the hint showed another card valued
    above its choice), and then it is the choice."""
    n = len(opts.actions)
    ref = opts.best()
    means = [_paired_mean(opts, i, ref) for i in range(n)]
    choice = max(range(n), key=lambda i: (means[i], i == ref, -i))
    order = sorted(range(n), key=lambda i: (i != choice, -means[i], i))
    out = [
        Option(
            notation(opts.actions[i]),
            means[i],
            opts.values[i].se,
            opts.values[i].worlds,
            stats(i),
            tuple(opts.samples[i]) if opts.samples else (),
        )
        for i in order
    ]
    out[1:] = [against(out[0], o) for o in out[1:]]
    return out, (None if played is None else order.index(played))


def against(best: Option, o: Option) -> Option:
    """``o`` with the standard error of its difference from the choice, and whether the two are
    about equal."""
    d = paired_se(best, o)
    gap = best.value - o.value
    return replace(o, diff_se=d, close=gap <= max(CLOSE_Z * d, CLOSE_POINTS))


def _paired_mean(opts: Options[Any], i: int, best: int) -> float:
    """Option ``i``'s value as shown beside the best one. An option dropped early was played in
    the first worlds only, and its plain mean there can exceed the best option's mean over all
    the worlds by luck of those few (the coach would then seem to advise a worse card): it is
    the best option's mean plus the difference of the two over the worlds both were played in."""
    mean = opts.values[i].mean
    if i == best or not opts.samples:
        return mean
    mine, theirs = opts.samples[i], opts.samples[best]
    n = len(mine)
    if n == 0 or n >= len(theirs):
        return mean
    return opts.values[best].mean + (sum(mine) - sum(theirs[:n])) / n


def _representative(cands: list[int], card: int) -> int:
    """The candidate standing for ``card`` (equivalent cards are merged into the lowest of their
    run, and runs are contiguous among the legal cards)."""
    if card in cands:
        return cands.index(card)
    below = [i for i, c in enumerate(cands) if c <= card]
    return max(below, key=lambda i: cands[i])


def evaluate(
    obs: Observation,
    *,
    seed: int,
    budget_ms: int = 700,
    worlds: int | None = None,
    played: Any = NOT_GIVEN,
    cancelled: Callable[[], bool] | None = None,
    cap_ms: int | None = None,
    race_after: int = RACE_AFTER,
    race_z: float = RACE_Z,
    kernel: bool = True,
) -> Evaluation:
    """Value every legal action of the seat to move in ``obs`` (the seat's own observation).
    ``played``: an action in record notation to value too (a discard the search would not
    consider, a card merged with an equivalent one). ``cancelled``: asked between batches of
    worlds; once true, the search raises ``SearchCancelled``. ``cap_ms``: with ``worlds``, stop
    sooner when this much wall time has passed (a busy machine). ``race_after``, ``race_z``,
    ``kernel`` (False: the pure-Python search): see ``Budget``."""
    if not obs.my_turn:
        raise ValueError("it is not this seat's turn: nothing to advise")
    phase = obs.phase
    kind = KINDS.get(phase)
    if kind is None:
        raise ValueError(f"nothing to decide in the {phase.value} phase")
    rng = rng_for(obs, seed)
    sampler = sampler_for(facts(obs))
    legal = obs.legal
    side = "bidder" if kind == "bid" else ("declarer" if obs.seat == obs.declarer else "defence")
    budget = budget_for(budget_ms, worlds, cancelled, cap_ms, race_after, race_z, kernel)

    if kind == "bid":
        scores, passing = contract_values(obs, sampler, rng, budget)
        bopts = bid_options(obs, scores, passing)
        made = {
            i: {"made": sum(x > 0 for x in scores[c]) / max(len(scores[c]), 1)}
            for i, c in enumerate(bopts.actions)
            if c is not None
        }
        p_i = None if played is NOT_GIVEN else [bid_name(c) for c in bopts.actions].index(played)
        options, p = _sorted(bopts, bid_name, lambda i: made.get(i, {}), p_i)
        return Evaluation(kind, obs.seat, side, options, p, len(bopts.actions) == 1)

    meter = Meter(obs, kind)
    if kind == "play":
        if not legal.cards & (legal.cards - 1):
            # Nothing to compare, and a value from a few worlds would jump from card to card
            # with its noise unshown (issue 28): a forced card is not searched, nor valued.
            only = C.card_name(legal.cards.bit_length() - 1)
            return Evaluation(kind, obs.seat, side, [Option(only, 0.0, 0.0, 0)], 0, True)
        copts = card_options(obs, sampler, rng, budget, leaf=meter)
        p_i = None if played is NOT_GIVEN else _representative(copts.actions, C.parse_card(played))
        options, p = _sorted(copts, C.card_name, meter.stats, p_i)
        if played is not NOT_GIVEN and p is not None and options[p].action != played:
            # the played card was merged with an equivalent one: name it as played
            o = options[p]
            options[p] = replace(o, action=played)
        return Evaluation(kind, obs.seat, side, options, p, False)

    if kind == "discard":
        extra = 0 if played is NOT_GIVEN else C.parse_mask(played)
        dopts = discard_options(obs, sampler, rng, budget, extra, meter)
        p_i = None if played is NOT_GIVEN else dopts.actions.index(extra)
        options, p = _sorted(dopts, C.format_cards, meter.stats, p_i)
        return Evaluation(kind, obs.seat, side, options, p, len(dopts.actions) == 1)

    if kind == "chelem":
        d_no, d_yes, made_n = chelem_samples(obs, sampler, rng, budget, meter)
        chopts = chelem_options(d_no, d_yes)
        p_i = None if played is NOT_GIVEN else int(bool(played))
        options, p = _sorted(chopts, bool, meter.stats, p_i)
        extra_stats = {"chelem_made": made_n / max(len(d_yes), 1)}
        return Evaluation(kind, obs.seat, side, options, p, False, extra_stats)

    # the poignée question
    ds = poignee_samples(obs, sampler, rng, budget, meter)
    popts = poignee_options(obs, ds)
    p_i = None
    if played is not NOT_GIVEN:
        sizes = [None if a is None else len(a) for a in popts.actions]
        p_i = sizes.index(len(played) if played else None)
    options, p = _sorted(
        popts, lambda a: None if a is None else C.format_cards(a), meter.stats, p_i
    )
    if played is not NOT_GIVEN and played and p is not None and options[p].action != played:
        o = options[p]  # the same size with other cards: the same value
        options[p] = replace(o, action=list(played))
    mine = obs.seat == obs.declarer
    wins = sum((d > 0) == mine for d in ds) / max(len(ds), 1)
    return Evaluation(kind, obs.seat, side, options, p, False, {"side_wins": wins})


# ------------------------------------------------------------------------------ reasons


CLOSE_NAMED = 3
"""At most this many options about equal to the choice are named beside it."""


def explain(ev: Evaluation, other: int | None = None) -> Reason:
    """Why the best option beats option ``other`` (by default the runner-up), from what was
    measured after each; or, when they are about equal (for a hint: any option about equal to
    the choice), that they are, and within how many points."""
    best = ev.best
    base: dict[str, Any] = {"kind": ev.kind, "best": best.action}
    if ev.forced:
        return Reason("forced", base)  # no value: a forced card is not valued
    if len(ev.options) == 1:
        return Reason("alone", {**base, "a": round(best.value, 1)})
    close = ev.close if other is None or other == 0 else [ev.options[other]]
    close = [o for o in close if o.close]
    if close:
        gap = max(best.value - o.value for o in close)
        params = {
            **base,
            "others": [o.action for o in close[:CLOSE_NAMED]],
            "more": max(0, len(close) - CLOSE_NAMED),
            "gap": round(gap, 1),
        }
        noise = max(CLOSE_Z * o.diff_se for o in close)
        if noise > WIDE_POINTS:
            # Within a wide noise, "about equal" would claim more than was measured.
            worlds = min(min(o.worlds for o in close), best.worlds)
            return Reason("unclear", {**params, "noise": round(noise, 1), "worlds": worlds})
        return Reason("close", params)
    if other is None or other == 0:
        other = 1
    alt = ev.options[other]
    base["other"] = alt.action
    scores = {"a": round(best.value, 1), "b": round(alt.value, 1)}
    if ev.kind == "bid":
        if best.action != "pass":
            made = best.stats.get("made", 0.0)
            return Reason("bid_made", {**base, **scores, "c": round(made, 3)})
        made = alt.stats.get("made", 0.0)
        return Reason("bid_down", {**base, **scores, "c": round(made, 3)})
    if ev.kind == "chelem":
        return Reason("chelem", {**base, **scores, "c": round(ev.extra["chelem_made"], 3)})
    if ev.kind == "poignee":
        return Reason("poignee", {**base, **scores, "c": round(ev.extra["side_wins"], 3)})
    side = "declarer" if ev.side == "declarer" else "defence"
    found = pick(best.stats, alt.stats, side=side)
    if found is None:
        return Reason("score", {**base, **scores})
    name, a, b = found
    params = {**base, "a": round(a, 3), "b": round(b, 3)}
    ma, mb = best.stats.get("made"), alt.stats.get("made")
    if ma is not None and mb is not None and abs(ma - mb) >= MADE_WORTH_SAYING:
        params["made_a"], params["made_b"] = round(ma, 3), round(mb, 3)
    return Reason(name, params)
