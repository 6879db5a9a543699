"""A learned playout policy for the kernel: facts of each legal card, and a small dense network
over them (one hidden layer, ReLU) that picks the card of best score.

The facts are fair: each seat reads its own hand, the trick, and the cards it cannot see as one
set (the other hands, and the discard or dog unless it declares), never who holds which of
them. A playout plays one sampled world out with every hand known; the hand-written policy
(``_jit.choose``) uses that and plays as if it saw through the cards, which no player at the
table does. The declarer is taken to know the cards counting for it, which in a Garde sans are
the dog it has not seen: a small licence. The network is trained on the search's own values
(``oudler.lab.playout_train``). A first network whose facts read every hand gained nothing;
with fair facts one network won its screen and its retrained twin did not (docs/arena.md,
"Learned playouts").
"""

from typing import Any

import numpy as np
from numba import njit

from ._bits import ctz, popc
from ._jit import (
    _J,
    BEST,
    C0,
    EXB,
    HALF,
    HIGH,
    LEADER,
    LED,
    NS,
    ONE,
    PB,
    TR,
    TWO,
    WINNER,
    K,
    N,
    U,
    Z,
    card_suit,
    finish_trick,
    high_t,
    legal,
    load_world,
    play_card,
    remove,
    score,
    smask,
    trick_add,
)

FACTS = (
    # the decision (the same for every card)
    "declarer",
    "position",
    "tricks_left",
    "side_winning",
    "trick_points",
    "my_trumps",
    "unseen_trumps",
    "petit_unseen",
    "petit_mine",
    "excuse_mine",
    # the card
    "trump",
    "excuse",
    "petit",
    "trump_rank",
    "suit_rank",
    "points",
    "wins_now",
    "side_wins_now",
    "safe",
    "secured",
    "at_risk",
    "suit_length",
    "master",
    "few_unseen",
    "none_unseen",
    "unseen_length",
    "lowest",
    "highest",
)
WIDTH = len(FACTS)
MAX_LEGAL = 24  # more legal cards than any hand holds


@njit(**_J)
def facts(H: Any, S: Any, decl: int, cards: Any, out: Any) -> int:
    """The facts of every legal card of the seat to move, in card order: ``cards[j]`` the card,
    ``out[j]`` its facts (``FACTS``). Returns how many legal cards."""
    seat = (S[LEADER] + S[K]) & 3
    hT = H[2 * seat]
    hS = H[2 * seat + 1]
    lt, ls = legal(hT, hS, S[LED], S[HIGH])
    mine = seat == decl
    k = S[K]
    # what the seat cannot see: the other hands, and the discard or dog unless it declares
    uT = Z
    uS = Z
    for p in range(4):
        if p != seat:
            uT |= H[2 * p]
            uS |= H[2 * p + 1]
    if not mine:
        uT |= H[10]
        uS |= H[11]
    later_opp = False
    for j in range(k + 1, 4):
        if (((S[LEADER] + j) & 3) == decl) != mine:
            later_opp = True
    side_winning = k > 0 and S[WINNER] >= 0 and (S[WINNER] == decl) == mine
    tpts = 0
    for i in range(k):
        c = S[C0 + i]
        tpts += 9 if c == 21 else HALF[c]
    ctx0 = 1.0 if mine else 0.0
    ctx1 = k / 3.0
    ctx2 = (18 - S[N]) / 18.0
    ctx3 = 1.0 if side_winning else 0.0
    ctx4 = tpts / 20.0
    ctx5 = popc(hT & TR) / 10.0
    ctx6 = popc(uT & TR) / 10.0
    ctx7 = 1.0 if uT & PB else 0.0
    ctx8 = 1.0 if hT & PB else 0.0
    ctx9 = 1.0 if hT & EXB else 0.0
    S2 = np.empty(NS, dtype=np.int64)
    n = 0
    for word in range(2):
        m = lt if word == 0 else ls
        while m:
            b = ctz(m)
            m &= m - ONE
            c = b if word == 0 else 22 + b
            f = out[n]
            cards[n] = c
            f[0] = ctx0
            f[1] = ctx1
            f[2] = ctx2
            f[3] = ctx3
            f[4] = ctx4
            f[5] = ctx5
            f[6] = ctx6
            f[7] = ctx7
            f[8] = ctx8
            f[9] = ctx9
            s = card_suit(c)
            pts = 9 if c == 21 else HALF[c]
            f[10] = 1.0 if s == 4 else 0.0
            f[11] = 1.0 if s < 0 else 0.0
            f[12] = 1.0 if c == 0 else 0.0
            f[13] = (c + 1) / 21.0 if s == 4 else 0.0
            f[14] = ((c - 22) % 14 + 1) / 14.0 if s >= 0 and s < 4 else 0.0
            f[15] = pts / 9.0
            S2[:] = S
            trick_add(S2, c)
            wins = S2[WINNER] == seat
            side = S2[WINNER] >= 0 and (S2[WINNER] == decl) == mine
            if s < 0:  # the Excuse stays with its owner: neither won nor lost
                safe = True
            elif not side:
                safe = False
            elif not later_opp:
                safe = True
            elif S2[HIGH] >= 0:  # trumped: only a higher trump takes it
                safe = not (uT & TR & ~((TWO << U(S2[HIGH])) - ONE))
            else:  # no trump yet: a higher card of the suit, or any trump, may take it
                led_s = smask(S2[LED])
                safe = not (uS & led_s & ~((TWO << U(S2[BEST] - 22)) - ONE)) and not (uT & TR)
            f[16] = 1.0 if wins else 0.0
            f[17] = 1.0 if side else 0.0
            f[18] = 1.0 if safe else 0.0
            f[19] = (tpts + pts) / 20.0 if safe and s >= 0 else 0.0
            f[20] = pts / 9.0 if not safe else 0.0
            if s == 4:
                mineset = hT & TR
                higher = TR & ~((TWO << U(c)) - ONE)
                f[21] = popc(mineset) / 10.0
                f[22] = 0.0 if uT & higher else 1.0
                f[23] = 0.0
                f[24] = 0.0
                f[25] = popc(uT & TR) / 10.0
                low = lt & TR
                f[26] = 1.0 if low and c == ctz(low) else 0.0
                f[27] = 1.0 if low and c == high_t(low) else 0.0
            elif s < 0:
                f[21] = 0.0
                f[22] = 0.0
                f[23] = 0.0
                f[24] = 0.0
                f[25] = 0.0
                f[26] = 0.0
                f[27] = 0.0
            else:
                sm = smask(s)
                b22 = c - 22
                higher = sm & ~((TWO << U(b22)) - ONE)
                f[21] = popc(hS & sm) / 10.0
                f[22] = 0.0 if uS & higher else 1.0
                left = popc(uS & sm)
                f[23] = 1.0 if left <= 3 else 0.0  # a void likely among the others
                f[24] = 1.0 if left == 0 else 0.0
                f[25] = left / 10.0
                own = ls & sm
                f[26] = 1.0 if c == 22 + ctz(own) else 0.0
                f[27] = 1.0 if c == 22 + high_t(own) else 0.0
            n += 1
    return n


@njit(**_J)
def pick(
    H: Any, S: Any, decl: int, w1: Any, b1: Any, w2: Any, b2: Any, cards: Any, rows: Any
) -> int:
    """The legal card of best score by the network (w1, b1: facts to hidden; w2, b2: hidden to
    one score; the first card on a tie); a lone legal card without asking it."""
    n = facts(H, S, decl, cards, rows)
    if n == 1:
        return cards[0]
    hidden = w1.shape[1]
    best = -1
    bv = -np.inf
    for j in range(n):
        f = rows[j]
        v = b2[0]
        for h in range(hidden):
            a = b1[h]
            for i in range(f.shape[0]):
                a += f[i] * w1[i, h]
            if a > 0.0:
                v += a * w2[h, 0]
        if v > bv:
            bv = v
            best = cards[j]
    return best


@njit(**_J)
def playout(H: Any, S: Any, decl: int, mult: int, announced: int, pbonus: int,
            w1: Any, b1: Any, w2: Any, b2: Any, cards: Any, rows: Any) -> int:  # fmt: skip
    """_jit.playout with the network's card for every seat; D. H and S are consumed."""
    while S[N] < 18:
        while S[K] < 4:
            seat = (S[LEADER] + S[K]) & 3
            c = pick(H, S, decl, w1, b1, w2, b2, cards, rows)
            remove(H, seat, c)
            trick_add(S, c)
        finish_trick(H, S, decl)
    return score(H, S, mult, announced, pbonus)


@njit(**_J)
def card_values(
    H0: Any,
    S0: Any,
    worlds: Any,
    cands: Any,
    decl: int,
    mult: int,
    announced: int,
    pbonus: int,
    out: Any,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
) -> None:
    """_jit.card_values's playouts (``exact`` false) played by the network."""
    H = H0.copy()
    S = S0.copy()
    cards = np.empty(MAX_LEGAL, dtype=np.int64)
    rows = np.empty((MAX_LEGAL, w1.shape[0]), dtype=np.float32)
    for w in range(worlds.shape[0]):
        for i in range(cands.shape[0]):
            load_world(H, S, H0, S0, worlds[w])
            play_card(H, S, cands[i], decl)
            out[i, w] = playout(H, S, decl, mult, announced, pbonus, w1, b1, w2, b2, cards, rows)


@njit(**_J)
def playouts_final(H0: Any, S0: Any, worlds: Any, decl: int, mult: int, announced: int,
                   pbonus: int, out: Any, out_h: Any, out_s: Any,
                   w1: Any, b1: Any, w2: Any, b2: Any) -> None:  # fmt: skip
    """_jit.playouts_final played by the network."""
    H = H0.copy()
    S = S0.copy()
    cards = np.empty(MAX_LEGAL, dtype=np.int64)
    rows = np.empty((MAX_LEGAL, w1.shape[0]), dtype=np.float32)
    for w in range(worlds.shape[0]):
        load_world(H, S, H0, S0, worlds[w])
        out[w] = playout(H, S, decl, mult, announced, pbonus, w1, b1, w2, b2, cards, rows)
        out_h[w, :] = H
        out_s[w, :] = S


__all__ = [
    "FACTS",
    "MAX_LEGAL",
    "WIDTH",
    "card_values",
    "facts",
    "pick",
    "playout",
    "playouts_final",
]
