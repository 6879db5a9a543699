"""The expert's inference, measured and fitted offline on recorded deals (run by hand).

    .venv/bin/python bench/inference_fit.py record --players club --deals 300 --out club.jsonl.gz
    .venv/bin/python bench/inference_fit.py record --players expert --deals 40 --card-ms 150 \\
        --bid-ms 600 --out expert.jsonl.gz
    .venv/bin/python bench/inference_fit.py fit club.jsonl.gz expert.jsonl.gz
    .venv/bin/python bench/inference_fit.py posterior club.jsonl.gz --worlds 1500 --every 6

``record`` plays seeded deals with ``--players`` in all four seats and writes them as tarot-deal/1
records (one JSON line each, gzip), so that the same play can be measured under many models.

``fit`` reads how the recorded players actually play against the expert's models: for every card
a seat chose among two or more legal cards, whether the heuristic policy (``kernel.choose``, in
the true deal) would have played a card alike it, by situation (declarer or defender; a lead,
following the suit led, following trumps led, trumping, discarding); and for every call, the
hand model's strength of the hand that made it, with the thresholds that fit the calls best
(maximum likelihood over a grid).

``posterior`` takes positions of the recorded deals (every ``--every``-th card decision, the seat
to move looking), draws a pool of ``--worlds`` uniform worlds fitting the hard facts, and for each
likelihood model weighs the pool exactly (no resampling noise): the log-probability the weighted
worlds give each unseen card's true holder ((n p + 0.5) / (n + 1.5), n the pool), averaged per
position. Models are compared paired, position by position, with a 95 % interval, overall and by
part of the deal, by who looks (declarer, defender) and whose cards (declarer, partner,
defender, the dog or discard), and by the evidence used (calls, cards, both).
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from oudler import kernel as K
from oudler.bots import make_bot
from oudler.bots.discards import discard_candidates, quick_value
from oudler.bots.expert import handmodel
from oudler.bots.expert import sampler as sampling
from oudler.bots.expert.bot import ExpertBot
from oudler.bots.expert.playout import PlayState, advance
from oudler.bots.play import play_deal
from oudler.core import Deal, Phase
from oudler.core import cards as C
from oudler.core.records import Replayer, deal_to_record
from oudler.kernel import _worlds

KIND_NAMES = ("lead", "follow", "trump led", "ruff", "discard")
SITUATIONS = [f"{'declarer' if s >= 5 else 'defender'} {KIND_NAMES[s % 5]}" for s in range(10)]


def read_records(paths: list[str]) -> Iterator[dict[str, object]]:
    for path in paths:
        with gzip.open(path, "rt") as fh:
            for line in fh:
                rec = json.loads(line)
                if rec.get("play"):
                    yield rec


# ---------------------------------------------------------------------------------- record


def record(args: argparse.Namespace) -> None:
    started = time.perf_counter()
    n = 0
    with gzip.open(args.out, "wt") as fh:
        for i in range(args.deals):
            deal = Deal.from_seed(args.seed + i, i & 3)
            if deal.is_over:
                continue
            if args.players == "expert":
                bots = [
                    ExpertBot(4 * i + s, budget_card_ms=args.card_ms, budget_bid_ms=args.bid_ms)
                    for s in range(4)
                ]
            else:
                bots = [make_bot(args.players, seed=4 * i + s) for s in range(4)]
            play_deal(deal, bots)
            if deal.contract is None:
                continue
            fh.write(json.dumps(deal_to_record(deal)) + "\n")
            n += 1
    print(f"{n} played deals of {args.players} written to {args.out} "
          f"({time.perf_counter() - started:.0f} s, load {os.getloadavg()[0]:.2f})")  # fmt: skip


# ---------------------------------------------------------------------------------- positions


@dataclass
class Position:
    deal_no: int
    index: int
    """Cards played before it."""
    viewer_declares: bool
    truth: npt.NDArray[np.uint64]
    """The true world as a kernel row."""
    sampler: sampling.WorldSampler
    roles: dict[int, str]
    """Holder (0..3, 4 the dog or discard) -> its role for the viewer."""


def positions(paths: list[str], every: int, offset: int) -> Iterator[Position]:
    for d, rec in enumerate(read_records(paths)):
        rp = Replayer(rec)
        played = 0
        for step in rp:
            deal = rp.deal
            if deal.is_over or deal.phase is not Phase.PLAY:
                continue
            played = len(deal.play_log)
            if step.kind not in ("card", "chelem", "poignee") or (played + offset + d) % every:
                continue
            if step.kind == "poignee":
                continue
            seat = deal.to_move
            obs = deal.observation(seat)
            f = sampling.facts(obs)
            s = sampling.sampler_for(f)
            if s.facts is not f or not f.unseen:
                continue  # facts inconsistent (never expected): skip rather than mismeasure
            truth = np.zeros((1, 10), dtype=np.uint64)
            for h in range(4):
                truth[0, 2 * h], truth[0, 2 * h + 1] = K.split(deal.hands[h])
            truth[0, 8], truth[0, 9] = K.split(deal.discard if deal.discard else deal.dog)
            decl = deal.declarer
            roles = {4: "dog/discard"}
            for h in range(4):
                if h != seat:
                    roles[h] = (
                        "declarer" if h == decl else ("defender" if seat == decl else "partner")
                    )
            yield Position(d, played, seat == decl, truth, s, roles)


# ---------------------------------------------------------------------------------- models

Model = Callable[["Pool"], npt.NDArray[np.float64]]


@dataclass
class Pool:
    pos: Position
    rows: npt.NDArray[np.uint64]
    feats: npt.NDArray[np.int64]
    """kernel.play_features of the pool (worlds, plays, 4)."""
    fair: npt.NDArray[np.int64]
    """The same with the policy deciding from what the player sees."""
    strengths: npt.NDArray[np.float64]
    calls: list[tuple[int, int, int]]
    """(seat, call 0..4, lowest allowed) of the other seats."""
    truth: npt.NDArray[np.float64]
    """(worlds, unseen cards): 1 where the world puts the card with its true holder."""
    holders: list[str]
    """The role of each unseen card's true holder."""
    seats: npt.NDArray[np.int64]
    """Who played each card so far."""


def make_pool(pos: Position, n: int, seed: int) -> Pool:
    s = pos.sampler
    f = s.facts
    rows = s.draw_rows(random.Random(seed), n, inference=False)
    plays = np.asarray(f.plays, dtype=np.int64)
    feats = K.play_features(s.deck(), rows, plays, f.leader, fair=False)
    fair = K.play_features(s.deck(), rows, plays, f.leader, fair=True)
    calls = [
        (seat, 0 if c is None else int(c), 1 if h is None else int(h) + 1)
        for seat, c, h in f.calls
        if seat != f.seat
    ]
    st = K.call_strengths(s.deck(), rows, np.asarray([c[0] for c in calls], dtype=np.int64))
    cols = []
    holders = []
    true_row = pos.truth[0]
    for c in C.iter_cards(f.unseen):
        word, bit = (0, c) if c < 22 else (1, c - 22)
        h = next(h for h in range(5) if int(true_row[2 * h + word]) >> bit & 1)
        cols.append((rows[:, 2 * h + word] >> np.uint64(bit)) & np.uint64(1))
        holders.append(pos.roles[h])
    truth = np.stack(cols, axis=1).astype(np.float64)
    st_ = PlayState()
    st_.hands = [0, 0, 0, 0]
    st_.leader = f.leader
    seats = []
    assert f.declarer is not None
    for c in f.plays:
        seats.append(st_.to_move)
        st_.hands[st_.to_move] |= 1 << c
        advance(st_, c, f.declarer)
    seat_arr = np.asarray(seats, dtype=np.int64)
    return Pool(pos, rows, feats, fair, st, calls, truth, holders, seat_arr)


def call_loglik(
    pool: Pool, thresholds: tuple[float, ...], soft: float, floor: float
) -> npt.NDArray[np.float64]:
    out = np.zeros(pool.rows.shape[0])
    th = np.asarray(thresholds, dtype=np.float64)
    for j, (_, call, lowest) in enumerate(pool.calls):
        if lowest > 4:
            continue
        v = pool.strengths[:, j]
        if call == 0:
            p = 1.0 - _sig((v - th[lowest - 1]) / soft)
        else:
            p = _sig((v - th[call - 1]) / soft)
            if call < 4:
                p = p - _sig((v - th[call]) / soft)
        out += np.log(np.maximum(p, 0.0) + floor)
    return out


def _sig(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    out: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-np.clip(x, -30, 30)))
    return out


def play_loglik(
    pool: Pool,
    keep: npt.NDArray[np.float64],
    normalized: bool,
    upto: int | None = None,
    alike_count: bool = True,
    fair: bool = False,
) -> npt.NDArray[np.float64]:
    """Card log-likelihood: ``keep[s]`` the chance a seat in situation ``s`` plays alike the
    policy. Binary (``normalized`` False): an off-policy card keeps (1 - q) / q. Normalized: a
    card alike the policy's has q / (cards alike), any other (1 - q) / (other legal cards)."""
    f = pool.fair if fair else pool.feats
    f = f if upto is None else f[:, :upto]
    sit = f[..., 0]
    valid = sit >= 0
    q = keep[np.where(valid, sit, 0)]
    on = f[..., 1] == 1
    if normalized:
        na = np.maximum(f[..., 2], 1) if alike_count else np.ones_like(f[..., 2])
        other = np.maximum(f[..., 3] - f[..., 2], 1)
        lp = np.where(on, np.log(q / na), np.log((1 - q) / other))
    else:
        lp = np.where(on, 0.0, np.log((1 - q) / q))
    out: npt.NDArray[np.float64] = np.where(valid, lp, 0.0).sum(axis=1)
    return out


def mixture_loglik(
    pool: Pool, keeps: list[npt.NDArray[np.float64]], prior: list[float]
) -> npt.NDArray[np.float64]:
    """Card log-likelihood when each other seat plays like one of several players (``keeps``,
    binary model on the player's view), not knowing which: per seat, a mixture with ``prior``."""
    f = pool.fair
    sit = f[..., 0]
    valid = sit >= 0
    on = f[..., 1] == 1
    out = np.zeros(pool.rows.shape[0])
    for seat in range(4):
        mine = valid & (pool.seats == seat)[None, :]
        if not mine.any():
            continue
        parts = []
        for keep, pr in zip(keeps, prior, strict=True):
            q = keep[np.where(valid, sit, 0)]
            lp = np.where(on, 0.0, np.log((1 - q) / q))
            parts.append(math.log(pr) + np.where(mine, lp, 0.0).sum(axis=1))
        out += np.logaddexp.reduce(np.stack(parts), axis=0)
    return out


def discard_evidence(pool: Pool) -> npt.NDArray[np.float64]:
    """Per world, for a defender who saw the dog: how far the world's discard falls short of the
    declarer's best by the discard heuristic (``bots.discards.quick_value`` among
    ``discard_candidates`` of the 24 cards the world gives him), 0 or less; 0 elsewhere."""
    f = pool.pos.sampler.facts
    out = np.zeros(pool.rows.shape[0])
    if f.declarer is None or f.seat == f.declarer or not f.dog or f.phase is not Phase.PLAY:
        return out
    d = f.declarer
    for w, r in enumerate(pool.rows.tolist()):
        discard = K.join(r[8], r[9])
        hand = K.join(r[2 * d], r[2 * d + 1]) | f.played_by[d] | discard
        best = max(quick_value(hand, c) for c in discard_candidates(hand))
        out[w] = min(0.0, quick_value(hand, discard) - best)
    return out


def holder_logprob(pool: Pool, logw: npt.NDArray[np.float64]) -> dict[str, list[float]]:
    """Per role of the true holder: the log-probability of the true holder of each unseen card."""
    out: dict[str, list[float]] = defaultdict(list)
    for role, x in zip(pool.holders, card_logprob(pool, logw).tolist(), strict=True):
        out[role].append(x)
    return out


def card_logprob(pool: Pool, logw: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The log-probability of each unseen card's true holder under the weights ``exp(logw)``."""
    w = np.exp(logw - logw.max())
    w /= w.sum()
    n = pool.rows.shape[0]
    out: npt.NDArray[np.float64] = np.log((n * (w @ pool.truth) + 0.5) / (n + 1.5))
    return out


# ---------------------------------------------------------------------------------- fit


def fit(args: argparse.Namespace) -> None:
    keeps = []
    all_bids = []
    for path in args.records:
        on = np.zeros(10)
        tot = np.zeros(10)
        alike_n = np.zeros(10)
        legal_n = np.zeros(10)
        by_trick: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        bids: list[tuple[float, int, int]] = []
        deals = 0
        for rec in read_records([path]):
            deals += 1
            rp = Replayer(rec)
            deal = rp.run()
            hands = deal.dealt
            high = None
            for i, b in enumerate(deal.bids):
                seat = (deal.dealer + 1 + i) & 3
                lowest = 1 if high is None else int(high) + 1
                if lowest <= 4:
                    bids.append(
                        (handmodel.strength(hands[seat]), 0 if b is None else int(b), lowest)
                    )
                if b is not None:
                    high = b
            # every seat's cards, in the true deal, as seen by nobody in particular (me = -1)
            decl = deal.declarer
            assert decl is not None
            row = np.zeros((1, 10), dtype=np.uint64)
            start = [0] * 4
            for t in deal.tricks:
                for k, c in enumerate(t.cards):
                    start[(t.leader + k) & 3] |= 1 << c
            played = np.zeros(8, dtype=np.uint64)
            for s in range(4):
                played[2 * s], played[2 * s + 1] = K.split(start[s])
            plays = np.asarray(deal.play_log, dtype=np.int64)
            feats = np.zeros((1, len(plays), 4), dtype=np.int64)
            dog = np.zeros(2, dtype=np.uint64)
            if deal.contract is not None and deal.contract.dog_shown:
                dog[0], dog[1] = K.split(deal.dog)
                row[0, 8], row[0, 9] = K.split(deal.discard)
            _worlds.play_features(
                row, -1, played, decl, dog, True, plays, deal.tricks[0].leader, args.fair, feats
            )
            for p in range(len(plays)):
                s, o, a, n_ = feats[0, p]
                if s < 0:
                    continue
                tot[s] += 1
                on[s] += o
                alike_n[s] += a
                legal_n[s] += n_
                by_trick[p // 4][0] += o
                by_trick[p // 4][1] += 1
        print(f"{path}: {deals} deals; cards chosen among two or more legal cards")
        print(f"  {'situation':<20} {'n':>6} {'alike policy':>13} {'alike cards':>12} {'legal':>6}")
        for s in range(10):
            if tot[s]:
                print(f"  {SITUATIONS[s]:<20} {int(tot[s]):>6} {on[s] / tot[s]:>13.3f} "
                      f"{alike_n[s] / tot[s]:>12.2f} {legal_n[s] / tot[s]:>6.2f}")  # fmt: skip
        print(f"  all                  {int(tot.sum()):>6} {on.sum() / tot.sum():>13.3f}")
        print("  by trick: " + " ".join(
            f"{t + 1}:{v[0] / v[1]:.2f}" for t, v in sorted(by_trick.items()) if v[1]))  # fmt: skip
        keep = np.where(tot > 0, (on + 1) / (tot + 2), 0.5)
        print("  keep = [" + ", ".join(f"{x:.3f}" for x in keep) + "]")
        eps = ((1 - keep) / keep) ** args.temperature
        print(f"  eps = ((1 - keep) / keep) ** {args.temperature} = ["
              + ", ".join(f"{x:.3f}" for x in eps) + "]")  # fmt: skip
        fit_calls([bids])
        keeps.append(keep)
        all_bids.append(bids)
    if len(keeps) > 1:
        # every file (a level of player) counts as much, however many deals it holds
        keep = np.mean(keeps, axis=0)
        eps = np.minimum(((1 - keep) / keep) ** args.temperature, 1.0)
        print("all files, each weighing the same:")
        print("  keep = [" + ", ".join(f"{x:.3f}" for x in keep) + "]")
        print(f"  eps = min(1, ((1 - keep) / keep) ** {args.temperature}) = ["
              + ", ".join(f"{x:.3f}" for x in eps) + "]")  # fmt: skip
        fit_calls(all_bids)


def fit_calls(groups: list[list[tuple[float, int, int]]]) -> None:
    """The hand model's thresholds, softness and floor that give the calls of each group the
    best mean log-likelihood (the groups weighing the same), by coordinate search."""
    data = []
    for bids in groups:
        v = np.asarray([b[0] for b in bids])
        call = np.asarray([b[1] for b in bids])
        lowest = np.asarray([b[2] for b in bids])
        data.append((v, call, lowest))

    def ll1(v, call, lowest, th: tuple[float, ...], soft: float, floor: float) -> float:  # type: ignore[no-untyped-def]
        t = np.asarray(th)
        p_pass = 1.0 - _sig((v - t[lowest - 1]) / soft)
        c = np.maximum(call, 1)
        upper = np.where(c < 4, _sig((v - t[np.minimum(c, 3)]) / soft), 0.0)
        p_call = _sig((v - t[c - 1]) / soft) - upper
        p = np.where(call == 0, p_pass, p_call)
        # the model's probabilities plus the floor, normalized over the calls still allowed
        allowed = 1 + 4 - lowest + 1
        return float(np.mean(np.log((np.maximum(p, 0) + floor) / (1 + floor * allowed))))

    def ll(th: tuple[float, ...], soft: float, floor: float) -> float:
        return statistics.fmean(ll1(*d, th, soft, floor) for d in data)

    c0 = handmodel.CALLS_V1
    base = (c0.thresholds, c0.softness, c0.floor)
    calls = np.concatenate([d[1] for d in data])
    counts = {k: int((calls == k).sum()) for k in range(5)}
    print(f"  calls: {len(calls)} ({counts}); mean log-lik per call with the hand model "
          f"{ll(*base):.4f}")  # fmt: skip
    best = (ll(*base), base)
    th = list(c0.thresholds)
    soft, floor = c0.softness, c0.floor
    for _ in range(3):  # coordinate search
        for i in range(4):
            for x in np.arange(th[i] - 15, th[i] + 45.1, 1.0):
                cand = th[:]
                cand[i] = float(x)
                if cand != sorted(cand):
                    continue
                v_ = ll(tuple(cand), soft, floor)
                if v_ > best[0]:
                    best = (v_, (tuple(cand), soft, floor))
            th = list(best[1][0])
        for s in np.arange(1.0, 12.1, 0.5):
            v_ = ll(tuple(th), float(s), floor)
            if v_ > best[0]:
                best = (v_, (tuple(th), float(s), floor))
        soft = best[1][1]
        for fl in (0.002, 0.005, 0.01, 0.02, 0.05):
            v_ = ll(tuple(th), soft, fl)
            if v_ > best[0]:
                best = (v_, (tuple(th), soft, fl))
        floor = best[1][2]
    print(f"  best fit: thresholds {best[1][0]}, softness {best[1][1]}, floor {best[1][2]}: "
          f"{best[0]:.4f}")  # fmt: skip


# ---------------------------------------------------------------------------------- posterior


def parse_keep(text: str) -> npt.NDArray[np.float64]:
    xs = [float(x) for x in text.split(",")]
    if len(xs) == 1:
        xs = xs * 10
    return np.asarray(xs, dtype=np.float64)


def posterior(args: argparse.Namespace) -> None:
    started = time.perf_counter()

    def cm(model: handmodel.CallModel) -> tuple[tuple[float, ...], float, float]:
        return (model.thresholds, model.softness, model.floor)

    v1 = cm(handmodel.CALLS_V1)
    now = cm(handmodel.CALLS)
    flat = np.full(10, 1 / 1.4)  # an off-policy card keeps 0.4 = (1 - q) / q
    keep_now = 1.0 / (1.0 + np.asarray(sampling.PLAY_EPS))
    trial_keep = 1.0 / (1.0 + parse_keep(args.eps)) if args.eps else keep_now
    trial_calls = now
    if args.thresholds:
        a = [float(x) for x in args.thresholds.split(",")]
        trial_calls = (tuple(a[:4]), a[4], a[5])

    def m(calls: object, keep: npt.NDArray[np.float64] | None, fair: bool, norm: bool = False,
          temp: float = 1.0) -> Model:  # fmt: skip
        def run(pool: Pool) -> npt.NDArray[np.float64]:
            lw = np.zeros(pool.rows.shape[0])
            if calls is not None:
                lw += call_loglik(pool, *calls)  # type: ignore[misc]
            if keep is not None:
                lw += temp * play_loglik(pool, keep, norm, fair=fair)
            return lw

        return run

    models: dict[str, Model] = {
        "none": lambda pool: np.zeros(pool.rows.shape[0]),
        "before": m(v1, flat, False),
        "before, calls": m(v1, None, False),
        "before, cards": m(None, flat, False),
        "fair view, eps 0.4": m(v1, flat, True),
        "now": m(now, keep_now, True),
        "now, calls": m(now, None, True),
        "now, cards": m(None, keep_now, True),
        "now, normalized": m(now, keep_now, True, norm=True),
        "trial": m(trial_calls, trial_keep, True),
    }
    if args.mixture:
        ks = [1.0 / (1.0 + parse_keep(x)) for x in args.mixture]
        for pr in (0.5,):
            prior = [pr, 1 - pr] if len(ks) == 2 else [1 / len(ks)] * len(ks)

            def mix(pool: Pool, prior: list[float] = prior) -> npt.NDArray[np.float64]:
                return call_loglik(pool, *now) + mixture_loglik(pool, ks, prior)

            models[f"mixture {pr}"] = mix
    for t in args.temps:
        models[f"trial T{t}"] = m(trial_calls, trial_keep, True, temp=t)
    if args.learned:
        net = K.load_playout_net(args.net) if args.net else K.load_playout_net()
        for spec in args.learned:
            beta, mix = (float(x) for x in spec.split(","))
            lik = K.card_likelihood(net, beta, mix)

            def learned(pool: Pool, lik: K.NetLik = lik) -> npt.NDArray[np.float64]:
                f = pool.pos.sampler.facts
                plays = np.asarray(f.plays, dtype=np.int64)
                lp = K.play_logliks(pool.pos.sampler.deck(), pool.rows, plays, f.leader, lik)
                out: npt.NDArray[np.float64] = call_loglik(pool, *now) + lp.sum(axis=1)
                return out

            models[f"learned {beta:g},{mix:g}"] = learned
    for lam in args.discard:

        def disc(pool: Pool, lam: float = lam) -> npt.NDArray[np.float64]:
            lw = m(now, keep_now, True)(pool)
            return lw + lam * discard_evidence(pool)

        models[f"discard {lam:g}"] = disc
    base = "none"
    per: dict[str, list[float]] = defaultdict(list)  # model -> per-position mean
    keys: list[dict[str, object]] = []
    parts: dict[tuple[str, str], list[float]] = defaultdict(list)
    for k, pos in enumerate(positions(args.records, args.every, args.offset)):
        if k >= args.positions:
            break
        pool = make_pool(pos, args.worlds, k)
        trick = pos.index // 4 + 1
        phase = "tricks 1-3" if trick <= 3 else ("tricks 4-9" if trick <= 9 else "tricks 10-18")
        view = "declarer looks" if pos.viewer_declares else "defender looks"
        keys.append({"phase": phase, "view": view, "deal": pos.deal_no})
        for name, model in models.items():
            lp = holder_logprob(pool, model(pool))
            allv = [x for xs in lp.values() for x in xs]
            per[name].append(statistics.fmean(allv))
            for role, xs in lp.items():
                parts[(name, f"{view}, {role}'s cards")].append(statistics.fmean(xs))
            # pairing for roles needs the same positions: record a NaN where a role is absent
            for role in ("declarer", "defender", "partner", "dog/discard"):
                if role not in lp:
                    parts[(name, f"{view}, {role}'s cards")].append(math.nan)
    n = len(per[base])
    print(f"posterior log-probability of the true holder per unseen card: {n} positions of "
          f"{', '.join(args.records)}, {args.worlds} uniform worlds weighed per position "
          f"({time.perf_counter() - started:.0f} s, load {os.getloadavg()[0]:.2f})")  # fmt: skip
    print(f"  now: eps {list(sampling.PLAY_EPS)}, calls {now}; before: eps 0.4, calls {v1}")
    print(
        f"  trial: eps {np.round((1 - trial_keep) / trial_keep, 3).tolist()}, calls {trial_calls}"
    )

    def paired(a: list[float], b: list[float]) -> str:
        d = [x - y for x, y in zip(a, b, strict=True) if not (math.isnan(x) or math.isnan(y))]
        if len(d) < 2:
            return "n/a"
        half = 1.96 * statistics.stdev(d) / math.sqrt(len(d))
        return f"{statistics.fmean(d):+.4f} +- {half:.4f} (n={len(d)})"

    def by_deal(a: list[float], b: list[float]) -> str:
        """The paired difference with its interval over deals (a deal's positions averaged
        first: they are not independent)."""
        per_deal: dict[object, list[float]] = defaultdict(list)
        for k, x, y in zip(keys, a, b, strict=True):
            per_deal[k["deal"]].append(x - y)
        d = [statistics.fmean(v) for v in per_deal.values()]
        half = 1.96 * statistics.stdev(d) / math.sqrt(len(d))
        return f"{statistics.fmean(d):+.4f} +- {half:.4f} ({len(d)} deals)"

    print(f"  {'model':<18} {'mean':>8}   vs none                      vs before"
          f"                    vs before, by deal")  # fmt: skip
    for name in models:
        a, b, c = per[name], per[base], per["before"]
        print(f"  {name:<18} {statistics.fmean(a):>8.4f}   {paired(a, b):<28} "
              f"{paired(a, c):<28} {by_deal(a, c)}")  # fmt: skip
    for group in ("phase", "view"):
        for val in sorted({str(k[group]) for k in keys}):
            idx = [i for i, k in enumerate(keys) if k[group] == val]
            print(f"  {val} ({len(idx)} positions):")
            for name in args.show:
                a = [per[name][i] for i in idx]
                b = [per[base][i] for i in idx]
                c = [per["before"][i] for i in idx]
                print(f"    {name:<16} vs none {paired(a, b):<28} vs before {paired(a, c)}")
    labels = sorted({lab for (_, lab) in parts})
    for lab in labels:
        print(f"  {lab}:")
        for name in args.show:
            a, b, c = parts[(name, lab)], parts[(base, lab)], parts[("before", lab)]
            print(f"    {name:<16} vs none {paired(a, b):<28} vs before {paired(a, c)}")


def tune(args: argparse.Namespace) -> None:
    """Coordinate search of the card model's eps per situation that maximizes the mean
    log-probability of the true holders on these records (each file weighing the same)."""
    started = time.perf_counter()
    c0 = handmodel.CALLS
    ct = (c0.thresholds, c0.softness, c0.floor)
    if args.thresholds:
        a = [float(x) for x in args.thresholds.split(",")]
        ct = (tuple(a[:4]), a[4], a[5])
    sets = []
    for path in args.records:
        pools = []
        for k, pos in enumerate(positions([path], args.every, args.offset)):
            if k >= args.positions:
                break
            pools.append(make_pool(pos, args.worlds, k))
        sets.append([(p, call_loglik(p, *ct)) for p in pools])  # type: ignore[misc]

    def score(eps: npt.NDArray[np.float64]) -> float:
        keep = 1.0 / (1.0 + eps)  # binary model: an off-policy card keeps eps = (1 - q) / q
        return statistics.fmean(
            statistics.fmean(
                float(card_logprob(p, c + play_loglik(p, keep, False, fair=args.fair)).mean())
                for p, c in pools
            )
            for pools in sets
        )

    eps = parse_keep(args.start) if args.start else np.full(10, 0.4)
    best = score(eps)
    print(f"{[len(x) for x in sets]} positions; eps [{', '.join(f'{x:.2f}' for x in eps)}]: "
          f"{best:.4f}")  # fmt: skip
    grid = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0)
    for _ in range(2):
        for s_ in range(10):
            for x in grid:
                trial = eps.copy()
                trial[s_] = x
                v = score(trial)
                if v > best + 1e-6:
                    best, eps = v, trial
        print(f"  eps [{', '.join(f'{x:.2f}' for x in eps)}]: {best:.4f}")
    print(f"({time.perf_counter() - started:.0f} s, load {os.getloadavg()[0]:.2f})")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--players", default="club")
    r.add_argument("--deals", type=int, default=300)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--card-ms", type=int, default=400)
    r.add_argument("--bid-ms", type=int, default=1500)
    r.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("records", nargs="+")
    f.add_argument("--fair", action="store_true", help="the policy decides from what it sees")
    f.add_argument("--temperature", type=float, default=0.5)
    q = sub.add_parser("posterior")
    q.add_argument("records", nargs="+")
    q.add_argument("--worlds", type=int, default=1500)
    q.add_argument("--every", type=int, default=6)
    q.add_argument("--offset", type=int, default=0)
    q.add_argument("--positions", type=int, default=200)
    q.add_argument("--eps", default=None, help="trial: eps per situation (10 values, or one)")
    q.add_argument("--thresholds", default=None, help="trial calls: t1,t2,t3,t4,softness,floor")
    q.add_argument("--mixture", nargs="*", default=[], help="eps lists of player kinds")
    q.add_argument("--temps", type=float, nargs="*", default=[])
    q.add_argument("--learned", nargs="*", default=[],
                   help="BETA,MIX: the learned playout policy as the card likelihood")  # fmt: skip
    q.add_argument("--discard", type=float, nargs="*", default=[],
                   help="LAMBDA: the declarer's discard as evidence (with 'now')")  # fmt: skip
    q.add_argument("--net", default=None, help="the learned network (default: the packaged one)")
    q.add_argument("--show", nargs="*", default=["before", "fair view, eps 0.4", "now"])
    t = sub.add_parser("tune")
    t.add_argument("records", nargs="+")
    t.add_argument("--worlds", type=int, default=1000)
    t.add_argument("--every", type=int, default=9)
    t.add_argument("--offset", type=int, default=0)
    t.add_argument("--positions", type=int, default=300)
    t.add_argument("--thresholds", default=None, help="t1,t2,t3,t4,softness,floor")
    t.add_argument("--whole-world", dest="fair", action="store_false")
    t.add_argument("--start", default=None, help="eps per situation to start from")
    args = p.parse_args()
    {"record": record, "fit": fit, "posterior": posterior, "tune": tune}[args.cmd](args)


if __name__ == "__main__":
    main()
