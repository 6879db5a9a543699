"""A compiled search kernel (numba) for the play of the cards in sampled worlds.

What the expert's search spends its time on, compiled: legal cards, trick winners, the heuristic
playout policy (the same policy as ``bots.expert.playout``), playing a world to the end of the
deal, the deal score for the side, and an exact alpha-beta endgame solver with move ordering and
a transposition table. The pure Python core stays the reference; tests/test_kernel_*.py check
that the two agree.

The compiled code is cached on disk (``NUMBA_CACHE_DIR``, by default in the user's cache
directory), so only the first start after an install compiles; ``warm_up()`` loads or compiles
everything, for processes that should answer their first question quickly.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import platformdirs

# numba reads its cache directory once, at import: set it first (the user's choice wins).
os.environ.setdefault(
    "NUMBA_CACHE_DIR", os.path.join(platformdirs.user_cache_dir("oudler"), "numba")
)

import numpy as np
import numpy.typing as npt

from oudler.core.tricks import TrickState

from . import _jit, _learned, _worlds

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

T_BITS = 22
T_MASK = (1 << T_BITS) - 1
S_MASK = (1 << 56) - 1
NS = _jit.NS
INF = _jit.INF


def split(mask: int) -> tuple[int, int]:
    """A core card mask as the kernel's (T, S) words."""
    return mask & T_MASK, mask >> T_BITS


def join(t: int, s: int) -> int:
    """The kernel's (T, S) words as a core card mask."""
    return int(t) | (int(s) << T_BITS)


@dataclass
class Position:
    """One world's position for the kernel: the H and S arrays of ``_jit``."""

    H: U64
    S: I64

    def copy(self) -> Position:
        return Position(self.H.copy(), self.S.copy())


def position(
    hands: Sequence[int],
    *,
    leader: int,
    cards: Sequence[int] = (),
    n: int = 0,
    pile: int = 0,
    extra: int = 0,
    dtricks: int = 0,
    ex_trick: int = -1,
    ex_owner_decl: bool = False,
    ex_winner_decl: bool = False,
    petit17: bool = False,
    pab: int = 0,
) -> Position:
    """A position from core masks: the four hands now, the trick in progress (its leader and the
    cards played to it) and the tally of the ``n`` finished tricks (see bots.expert.PlayState)."""
    H = np.zeros(12, dtype=np.uint64)
    for seat in range(4):
        H[2 * seat], H[2 * seat + 1] = split(hands[seat])
    H[8], H[9] = split(pile)
    H[10], H[11] = split(extra)
    S = np.zeros(NS, dtype=np.int64)
    S[_jit.N] = n
    S[_jit.DTRICKS] = dtricks
    S[_jit.EX_TRICK] = ex_trick
    S[_jit.EX_OWNER] = int(ex_owner_decl)
    S[_jit.EX_WINNER] = int(ex_winner_decl)
    S[_jit.PETIT17] = int(petit17)
    S[_jit.PAB] = pab
    # the trick in progress from the core's own TrickState (no compiled call: warm_up then
    # compiles only what the search uses)
    t = TrickState(leader)
    for c in cards:
        t.add(c)
    S[_jit.LEADER] = leader
    S[_jit.K] = len(cards)
    S[_jit.C0 : _jit.C0 + len(cards)] = cards
    S[_jit.LED] = t.led
    S[_jit.HIGH] = t.high
    S[_jit.BEST] = t.best
    S[_jit.WINNER] = t.winner
    return Position(H, S)


@dataclass(frozen=True)
class Scoring:
    """How a deal is scored for one decision (``bots.expert.playout.Table``)."""

    declarer: int
    multiplier: int
    announced: bool
    poignee_bonus: int


class _Buffers:
    """Work arrays of the solver (per process: the kernel runs in one thread per process).

    The transposition table persists across solves: its keys include the scoring, and sibling
    candidates of one world, or nearby worlds, share many positions."""

    def __init__(self) -> None:
        self.moves = np.zeros((72, 24), dtype=np.int64)
        self.saves_h = np.zeros((72, 12), dtype=np.uint64)
        self.saves_s = np.zeros((72, NS), dtype=np.int64)
        size = 1 << _jit.TT_BITS
        self.tt = np.zeros((size, 2), dtype=np.uint64)  # (key, value|flag|move) a slot

    def clear(self) -> None:
        self.tt[:] = 0


# One set of buffers per thread: the compiled functions release the GIL (``nogil``), and two
# searches at once on one transposition table and scratch (a series' par made in a web process's
# thread beside the expert's decisions in its threads) corrupted each other's values and made a
# fixed-work decision differ from the same one alone.
_LOCAL = threading.local()


def _buf() -> _Buffers:
    buf: _Buffers | None = getattr(_LOCAL, "buf", None)
    if buf is None:
        buf = _LOCAL.buf = _Buffers()
    return buf


def clear_table() -> None:
    """Empty the transposition table (for measurements of a cold solve)."""
    _buf().clear()


def legal(hand: int, led: int, high: int) -> int:
    """``core.tricks.legal_mask``, computed by the kernel."""
    ht, hs = split(hand)
    t, s = _jit.legal(np.uint64(ht), np.uint64(hs), led, high)
    return join(t, s)


def trick_winner(leader: int, cards: Sequence[int]) -> int:
    """The seat winning a complete trick (without the chelem Excuse exception)."""
    S = np.zeros(NS, dtype=np.int64)
    _jit.new_trick(S, leader)
    for c in cards:
        _jit.trick_add(S, c)
    return int(S[_jit.WINNER])


def to_move(p: Position) -> int:
    return int((p.S[_jit.LEADER] + p.S[_jit.K]) & 3)


def play(p: Position, card: int, declarer: int) -> None:
    """The seat to move plays ``card`` (gathering a complete trick)."""
    _jit.play_card(p.H, p.S, card, declarer)


def policy_card(p: Position, declarer: int) -> int:
    """The heuristic policy's card for the seat to move."""
    return int(_jit.policy_card(p.H, p.S, declarer))


def playout(p: Position, sc: Scoring) -> int:
    """D after a policy playout to the end of the deal; ``p`` is consumed."""
    return int(
        _jit.playout(p.H, p.S, sc.declarer, sc.multiplier, int(sc.announced), sc.poignee_bonus)
    )


def declarer_tricks(p: Position) -> int:
    return int(p.S[_jit.DTRICKS])


def solve(p: Position, sc: Scoring) -> int:
    """Exact D with perfect information; ``p`` is left as it was."""
    b = _buf()
    return int(
        _jit.solve(
            p.H,
            p.S,
            sc.declarer,
            sc.multiplier,
            int(sc.announced),
            sc.poignee_bonus,
            b.moves,
            b.saves_h,
            b.saves_s,
            b.tt,
        )
    )


def world_rows(worlds: Sequence[tuple[Sequence[int], int]]) -> U64:
    """Rows for the batch functions: the four hands and the pile that counts, as words."""
    rows = np.zeros((len(worlds), 10), dtype=np.uint64)
    for i, (hands, extra) in enumerate(worlds):
        for seat in range(4):
            rows[i, 2 * seat], rows[i, 2 * seat + 1] = split(hands[seat])
        rows[i, 8], rows[i, 9] = split(extra)
    return rows


def card_values(
    base: Position, rows: U64, cands: Sequence[int], sc: Scoring, exact: bool, tail: int = 0
) -> npt.NDArray[np.int64]:
    """D for each candidate card (rows of the result) in each world (columns), after a policy
    playout or, with ``exact``, an exact solve; ``tail`` > 0: the playout's last ``tail`` tricks
    solved exactly. ``base`` holds the tally; its hands are ignored."""
    b = _buf()
    out = np.zeros((len(cands), rows.shape[0]), dtype=np.int64)
    _jit.card_values(
        base.H, base.S, rows, np.asarray(cands, dtype=np.int64), sc.declarer, sc.multiplier,
        int(sc.announced), sc.poignee_bonus, exact, tail, out,
        b.moves, b.saves_h, b.saves_s, b.tt,
    )  # fmt: skip
    return out


PLAYOUT_FACTS = _learned.FACTS
"""The facts of a legal card the learned playout policy reads (``_learned.facts``)."""
PLAYOUT_WIDTH = _learned.WIDTH

F32 = npt.NDArray[np.float32]
PlayoutNet = tuple[F32, F32, F32, F32]
"""The learned playout policy's weights: (w1, b1, w2, b2), one hidden layer."""


def playout_facts(p: Position, declarer: int) -> tuple[list[int], F32]:
    """(the legal cards of the seat to move, in card order; their facts, one row each)."""
    cards = np.zeros(_learned.MAX_LEGAL, dtype=np.int64)
    rows = np.zeros((_learned.MAX_LEGAL, _learned.WIDTH), dtype=np.float32)
    n = _learned.facts(p.H, p.S, declarer, cards, rows)
    return [int(c) for c in cards[:n]], rows[:n].copy()


def learned_card(p: Position, declarer: int, net: PlayoutNet) -> int:
    """The learned policy's card for the seat to move."""
    cards = np.zeros(_learned.MAX_LEGAL, dtype=np.int64)
    rows = np.zeros((_learned.MAX_LEGAL, net[0].shape[0]), dtype=np.float32)
    return int(_learned.pick(p.H, p.S, declarer, *net, cards, rows))


PLAYOUT_WEIGHTS = os.path.join(
    os.path.dirname(os.path.dirname(__file__)), "bots", "data", "playout.npz"
)
"""The packaged learned playout policy (scripts/train_playout.py writes it)."""


def load_playout_net(path: str | os.PathLike[str] = PLAYOUT_WEIGHTS) -> PlayoutNet:
    """The learned playout policy's weights from an ``.npz`` file (keys w1, b1, w2, b2); a
    file that does not hold one hidden layer of matching sizes is a ``ValueError``."""
    with np.load(path) as z:
        try:
            net = tuple(
                np.ascontiguousarray(z[k], dtype=np.float32) for k in ("w1", "b1", "w2", "b2")
            )
        except KeyError as err:
            raise ValueError(f"{path}: not a playout network ({err})") from None
    w1, b1, w2, b2 = net
    if (
        w1.shape != (_learned.WIDTH, b1.shape[0])
        or w2.shape != (b1.shape[0], 1)
        or b2.shape != (1,)
    ):
        raise ValueError(f"{path}: the layers do not map {_learned.WIDTH} facts to one score")
    return w1, b1, w2, b2


def learned_card_values(
    base: Position, rows: U64, cands: Sequence[int], sc: Scoring, net: PlayoutNet
) -> npt.NDArray[np.int64]:
    """``card_values`` with the playouts played by the learned policy (never exact)."""
    out = np.zeros((len(cands), rows.shape[0]), dtype=np.int64)
    _learned.card_values(
        base.H, base.S, rows, np.asarray(cands, dtype=np.int64), sc.declarer, sc.multiplier,
        int(sc.announced), sc.poignee_bonus, out, *net,
    )  # fmt: skip
    return out


def playouts(base: Position, rows: U64, sc: Scoring) -> tuple[I64, I64]:
    """(D, the declarer's tricks) after a policy playout of each world from ``base``."""
    out = np.zeros(rows.shape[0], dtype=np.int64)
    dt = np.zeros(rows.shape[0], dtype=np.int64)
    _jit.playouts(
        base.H, base.S, rows, sc.declarer, sc.multiplier, int(sc.announced), sc.poignee_bonus,
        out, dt,
    )  # fmt: skip
    return out, dt


def tail_playouts(base: Position, rows: U64, sc: Scoring, tail: int) -> I64:
    """D after a policy playout of each world from ``base`` whose last ``tail`` tricks are
    solved exactly (``tail`` at least the tricks left: the exact solve)."""
    b = _buf()
    out = np.zeros(rows.shape[0], dtype=np.int64)
    _jit.tail_playouts(
        base.H, base.S, rows, sc.declarer, sc.multiplier, int(sc.announced), sc.poignee_bonus,
        tail, out, b.moves, b.saves_h, b.saves_s, b.tt,
    )  # fmt: skip
    return out


@dataclass
class Final:
    """A world played to the end: its D and the tally of the deal (core masks)."""

    d: int
    pile: int
    dtricks: int
    ex_trick: int
    ex_owner_decl: bool
    ex_winner_decl: bool
    petit17: bool
    pab: int


def playouts_final(
    base: Position, rows: U64, sc: Scoring, net: PlayoutNet | None = None
) -> list[Final]:
    """A policy playout of each world from ``base``, with what the finished deal holds; with
    ``net``, played by the learned playout policy instead of the heuristic one."""
    n = rows.shape[0]
    out = np.zeros(n, dtype=np.int64)
    out_h = np.zeros((n, 12), dtype=np.uint64)
    out_s = np.zeros((n, NS), dtype=np.int64)
    if net is None:
        _jit.playouts_final(
            base.H, base.S, rows, sc.declarer, sc.multiplier, int(sc.announced),
            sc.poignee_bonus, out, out_h, out_s,
        )  # fmt: skip
    else:
        _learned.playouts_final(
            base.H, base.S, rows, sc.declarer, sc.multiplier, int(sc.announced),
            sc.poignee_bonus, out, out_h, out_s, *net,
        )  # fmt: skip
    j = _jit
    return [
        Final(
            int(out[w]),
            join(out_h[w, 8], out_h[w, 9]),
            int(out_s[w, j.DTRICKS]),
            int(out_s[w, j.EX_TRICK]),
            bool(out_s[w, j.EX_OWNER]),
            bool(out_s[w, j.EX_WINNER]),
            bool(out_s[w, j.PETIT17]),
            int(out_s[w, j.PAB]),
        )
        for w in range(n)
    ]


@dataclass
class RandomRecord:
    """What ``random_playouts`` did: per deal, the 72 cards, the legal set each was chosen from
    (core masks), the 18 tricks' takers and D."""

    plays: I64
    legals: list[list[int]]
    winners: I64
    scores: I64


def random_playouts(
    deals: Sequence[tuple[Sequence[int], int]],
    leaders: Sequence[int],
    scorings: Sequence[Scoring],
    seed: int,
) -> RandomRecord:
    """Uniformly random legal play of whole deals (hands of 18, the pile that counts)."""
    n = len(deals)
    rows = world_rows(deals)
    plays = np.zeros((n, 72), dtype=np.int64)
    legals = np.zeros((n, 72, 2), dtype=np.uint64)
    winners = np.zeros((n, 18), dtype=np.int64)
    scores = np.zeros(n, dtype=np.int64)
    _jit.random_playouts(
        np.ascontiguousarray(rows[:, 0:8]), np.ascontiguousarray(rows[:, 8:10]),
        np.asarray(leaders, dtype=np.int64),
        np.asarray([s.declarer for s in scorings], dtype=np.int64),
        np.asarray([s.multiplier for s in scorings], dtype=np.int64),
        np.asarray([int(s.announced) for s in scorings], dtype=np.int64),
        np.asarray([s.poignee_bonus for s in scorings], dtype=np.int64),
        seed, plays, legals, winners, scores,
    )  # fmt: skip
    lg = [[join(legals[d, p, 0], legals[d, p, 1]) for p in range(72)] for d in range(n)]
    return RandomRecord(plays, lg, winners, scores)


@dataclass(frozen=True)
class Deck:
    """What ``draw_worlds`` deals from: the sampler's groups of unseen cards and its table of
    class counts, flattened (see ``bots.expert.sampler.WorldSampler``), and the facts the petit
    sec check reads. Card sets are (T, S) words."""

    root: I64
    sizes: I64
    masks: I64
    cards: I64
    coff: I64
    pair: bool
    keys: I64
    koff: I64
    cum: npt.NDArray[np.float64]
    allocs: I64
    holder_ids: I64
    fixed: U64
    """The 10 words of a row every world starts from (cards placed for sure)."""
    me: int
    played: U64
    """Cards each seat has played (8 words)."""
    declarer: int
    dog: U64
    add_pile: bool


def world_key(i: int, needs: Sequence[int]) -> int:
    """The key of group ``i`` and the holders' needs in ``Deck.keys`` (as ``_worlds._key``)."""
    code = i
    for x in needs:
        code = (code << _worlds.KEY_BITS) | x
    return code


def draw_worlds(deck: Deck, n: int, seed: int, max_tries: int) -> U64:
    """Up to ``n`` worlds, rows of 10 words (fewer only if ``max_tries`` draws all failed)."""
    out = np.zeros((n, 10), dtype=np.uint64)
    done = _worlds.draw_worlds(
        n, seed, deck.root, deck.sizes, deck.masks, deck.cards, deck.coff, deck.pair, deck.keys,
        deck.koff, deck.cum, deck.allocs, deck.holder_ids, deck.fixed, deck.me, deck.played,
        deck.declarer, deck.dog, deck.add_pile, max_tries, out,
    )  # fmt: skip
    return out[:done]


@dataclass(frozen=True)
class Evidence:
    """What ``log_weights`` scores a world by: the other seats' calls (seat, call 0 for a pass
    or 1..4, lowest contract then allowed, 5 when none) with the hand model's parameters, and
    every card played so far from the first trick's leader, each other seat's choice having
    likelihood 1 when the policy would have made it and ``eps[situation]`` when not (the
    situations of ``_worlds.kind_of``: 5 kinds for a defender, then 5 for the declarer).
    ``fair``: the policy decides from what the player could see (``_worlds.fair_view``).
    ``net``: a learned card policy whose probability of each card is its likelihood instead
    (``card_likelihood``; always on the fair view), or ``NO_NET``."""

    call_seats: I64
    calls: I64
    lowests: I64
    thresholds: npt.NDArray[np.float64]
    softness: float
    floor: float
    plays: I64
    leader: int
    eps: npt.NDArray[np.float64]
    fair: bool = True
    net: NetLik = _worlds.NO_NET
    discard: float = 0.0
    """For a defender once the dog was shown, the declarer's discard as evidence: this many
    times ``_worlds.discard_gap`` (how far the world's discard falls short of the best by the
    discard heuristic, in its points) is added to each world's log-likelihood; 0: not read."""


NetLik = _worlds.NetLik
NO_NET = _worlds.NO_NET


def card_likelihood(net: PlayoutNet, beta: float = 1.0, mix: float = 0.0) -> NetLik:
    """The learned playout policy ``net`` as the likelihood of the other seats' cards: a card's
    probability is the softmax of the network's scores of the legal cards times ``beta``,
    mixed with the uniform choice at weight ``mix`` (so that no card is ruled out)."""
    if not (beta > 0 and 0 <= mix <= 1):
        raise ValueError(f"card likelihood needs beta > 0 and 0 <= mix <= 1, not {beta}, {mix}")
    return NetLik(*net, float(beta), float(mix))


def log_weights(deck: Deck, rows: U64, ev: Evidence) -> npt.NDArray[np.float64]:
    """The log-likelihood of the evidence in each world (rows of ``draw_worlds``)."""
    out = np.zeros(rows.shape[0], dtype=np.float64)
    _worlds.log_weights(
        rows, deck.me, deck.played, deck.declarer, deck.dog, deck.add_pile, ev.call_seats,
        ev.calls, ev.lowests, ev.thresholds, ev.softness, ev.floor, ev.plays, ev.leader,
        np.log(ev.eps), ev.fair, ev.net, ev.discard, out,
    )  # fmt: skip
    return out


def play_features(deck: Deck, rows: U64, plays: I64, leader: int, fair: bool = True) -> I64:
    """Per world and card played so far (from ``leader``'s first lead): the situation (-1 for
    the deciding seat's own or forced cards), whether the card is alike the heuristic policy's,
    how many legal cards are, and how many legal cards there were; shape (worlds, plays, 4).
    For measuring and fitting the card likelihood (bench/inference_fit.py)."""
    out = np.zeros((rows.shape[0], len(plays), 4), dtype=np.int64)
    lp = np.zeros((rows.shape[0], len(plays)), dtype=np.float64)
    _worlds.play_features(
        rows, deck.me, deck.played, deck.declarer, deck.dog, deck.add_pile, plays, leader, fair,
        _worlds.NO_NET, out, lp,
    )  # fmt: skip
    return out


def play_logliks(deck: Deck, rows: U64, plays: I64, leader: int, net: NetLik) -> F64:
    """Per world and card played so far: the log-probability ``net`` gives the card (0 for the
    deciding seat's own or forced cards); shape (worlds, plays). For measuring."""
    out = np.zeros((rows.shape[0], len(plays), 4), dtype=np.int64)
    lp = np.zeros((rows.shape[0], len(plays)), dtype=np.float64)
    _worlds.play_features(
        rows, deck.me, deck.played, deck.declarer, deck.dog, deck.add_pile, plays, leader, True,
        net, out, lp,
    )  # fmt: skip
    return lp


def call_strengths(deck: Deck, rows: U64, call_seats: I64) -> npt.NDArray[np.float64]:
    """The hand-model strength of each calling seat's dealt hand in each world (worlds, calls)."""
    out = np.zeros((rows.shape[0], len(call_seats)), dtype=np.float64)
    _worlds.call_strengths(
        rows, deck.played, deck.declarer, deck.dog, deck.add_pile, call_seats, out
    )
    return out


def discard_gap(hand: int, discard: int) -> float:
    """``_worlds.discard_gap``: how far ``discard`` falls short of the best discard of the
    declarer's 24 cards ``hand`` by the discard heuristic (0 or less)."""
    hT, hS = split(hand)
    dT, dS = split(discard)
    u = np.uint64
    return float(_worlds.discard_gap(u(hT), u(hS), u(dT), u(dS)))


def strength(hand: int) -> float:
    """The compiled hand-strength count (``bots.expert.handmodel.strength``), for the tests."""
    t, s = split(hand)
    return float(_worlds.strength(np.uint64(t), np.uint64(s)))


COMPILES = 132
"""Functions numba compiles in ``warm_up`` with an empty cache (its helpers' included, counted
with numba's compile events): what ``warm_up``'s progress is counted against."""


class _Compiles:
    """Counts numba's compile events while registered, reporting the share of ``COMPILES`` done
    (an estimate: the functions differ in cost; never 1 before the end)."""

    def __init__(self, progress: Callable[[float], None]) -> None:
        from numba.core import event

        self.event = event
        self.progress = progress
        self.done = 0
        outer = self

        class Listener(event.Listener):
            def on_start(self, ev: Any) -> None:
                pass

            def on_end(self, ev: Any) -> None:
                outer.done += 1
                outer.progress(min(0.99, outer.done / COMPILES))

        self.listener = Listener()

    def __enter__(self) -> None:
        self.event.register("numba:compile", self.listener)  # type: ignore[no-untyped-call]

    def __exit__(self, *exc: object) -> None:
        self.event.unregister("numba:compile", self.listener)  # type: ignore[no-untyped-call]


def warm_up(progress: Callable[[float], None] | None = None) -> float:
    """Load (or, after an install, compile) the kernel functions the expert's search uses;
    seconds it took. ``progress`` is called with the share done so far (0 to 1) as numba
    compiles them, and with 1 at the end."""
    start = time.perf_counter()
    if progress is None:
        _warm_up()
    else:
        with _Compiles(progress):
            _warm_up()
        progress(1.0)
    return time.perf_counter() - start


def _warm_up() -> None:
    deck = list(range(78))
    hands = [sum(1 << c for c in deck[18 * i : 18 * i + 18]) for i in range(4)]
    extra = sum(1 << c for c in deck[72:])
    sc = Scoring(0, 1, False, 0)
    p = position(hands, leader=1, extra=extra)
    rows = world_rows([(hands, extra)])
    card_values(p, rows, [18], sc, False)
    # the solver on a last trick (one card each), not a whole deal
    late = [(1 << 18 * i) for i in range(4)]
    card_values(position(late, leader=0, n=17), world_rows([(late, 0)]), [0], sc, True)
    playouts_final(p, rows, sc)
    tail_playouts(p, rows, sc, 1)
    # the world sampler and its weights: seat 0's hand known, one group of the 60 other cards
    i64 = np.int64
    others = [1, 2, 3, 4]
    wdeck = Deck(
        root=np.array([18, 18, 18, 6], i64), sizes=np.array([60], i64),
        masks=np.array([15], i64), cards=np.arange(18, 78, dtype=i64),
        coff=np.array([0, 60], i64), pair=False, keys=np.zeros(0, i64),
        koff=np.zeros(1, i64), cum=np.zeros(0), allocs=np.zeros((0, 4), i64),
        holder_ids=np.array(others, i64), fixed=np.array([*split(hands[0])] + [0] * 8, np.uint64),
        me=0, played=np.zeros(8, np.uint64), declarer=1, dog=np.zeros(2, np.uint64),
        add_pile=True,
    )  # fmt: skip
    drawn = draw_worlds(wdeck, 2, 1, 2000)
    ev = Evidence(
        call_seats=np.array([1], i64), calls=np.array([2], i64), lowests=np.array([1], i64),
        thresholds=np.array([41.0, 56.0, 71.0, 81.0]), softness=5.0, floor=0.02,
        plays=np.array([18], i64), leader=1, eps=np.full(10, 0.5),
    )  # fmt: skip
    log_weights(wdeck, drawn, ev)
