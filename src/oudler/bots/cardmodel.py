"""The ``policy`` level's card play and discard: small networks that score one option at a time.

The whole-observation network (``policy.PolicyNet``) must learn from the raw planes which card
does what; on the tens of thousands of card decisions the search can label on this machine it
learns that badly (it agreed with the search on 40 % of held-out card decisions where club, the
hand-written player, agrees on 57 %). This network instead reads a few dozen facts about one
card in its position (the same weights for every card, so what it learns of one suit holds for
the others) and gives the card a score; the bot plays the legal card of best score.

The facts come from the seat's observation only, through ``knowledge.infer`` (what the seat
knows for certain) and club's estimates of who holds what (``club.Odds``): the chance that the
seat's side takes the trick if the card is played, what the card is worth kept for later, whether
it is master, the suit's length and who is void in it, and whether club would play it. The
network learns when to follow those estimates and when not, from the search's values.

The discard network does the same for the candidate discards the expert's search weighs
(``discards.discard_candidates``), from facts about the hand each one leaves (``DISCARD``).
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt

from oudler.bots.club import (
    certainly_safe,
    club_choice,
    effective,
    keep_value,
    p_void_and_trumps,
    p_win,
    table_of,
    trick_value,
)
from oudler.bots.discards import discard_candidates, quick_value
from oudler.core import Observation
from oudler.core import cards as C
from oudler.core.deal import Contract
from oudler.core.tricks import LED_NONE, LED_TRUMP

F32 = npt.NDArray[np.float32]

CONTEXT = (
    "declarer",
    "down_0",
    "down_1",
    "down_2",
    "down_3",
    "trick_points",
    "side_winning",
    "led_trump",
    "led_suit",
    "hand_size",
    "trumps_out",
    "my_trumps",
    "petit_out",
    "multiplier",
    "dog_to_declarer",
    "declarer_points",
    "declarer_oudlers",
    "endgame",
)
"""The position's facts, the same for every card (see ``card_features``)."""

CARD = (
    "trump",
    "suit_card",
    "excuse",
    "petit",
    "monde",
    "rank",
    "points",
    "effective",
    "p_win",
    "wins_now",
    "safe",
    "keep_value",
    "follow_value",
    "master",
    "length",
    "unseen_in_suit",
    "higher_out",
    "opponent_cuts",
    "partner_cuts",
    "club_pick",
    "lowest_of_suit",
    "highest_of_suit",
    "singleton",
    "king",
    "honour",
    "follows_suit",
)
"""Facts about one legal card in the position."""

FEATURES = len(CONTEXT) + len(CARD)


def card_features(obs: Observation) -> tuple[list[int], F32]:
    """The legal cards of a card decision and one row of facts for each (``CONTEXT`` then
    ``CARD``, scaled to about 0..1), from ``obs`` alone."""
    assert obs.declarer is not None and obs.contract is not None
    tb = table_of(obs)
    legal, k, trick = tb.legal, tb.k, tb.trick
    n_down = len(obs.trick_cards)
    me, decl = obs.seat, obs.declarer
    hand = obs.hand

    ctx = np.zeros(len(CONTEXT), dtype=np.float32)
    ctx[0] = me == decl
    ctx[1 + min(n_down, 3)] = 1
    ctx[5] = tb.trick_points() / 20
    ctx[6] = n_down > 0 and trick.winner >= 0 and tb.mine(trick.winner)
    ctx[7] = trick.led == LED_TRUMP
    ctx[8] = trick.led not in (LED_NONE, LED_TRUMP)
    ctx[9] = hand.bit_count() / 18
    ctx[10] = k.trumps_out.bit_count() / 21
    ctx[11] = (hand & C.TRUMPS).bit_count() / 21
    ctx[12] = bool(k.outstanding & C.PETIT_BIT)
    ctx[13] = obs.contract.multiplier / 6
    ctx[14] = obs.contract is not Contract.GARDE_CONTRE
    won = 0
    for done in obs.tricks:
        if done.winner == decl:
            won |= C.mask_of(done.cards)
    ctx[15] = C.half_points(won) / 182
    ctx[16] = (won & C.OUDLERS).bit_count() / 3
    ctx[17] = hand.bit_count() <= 3

    pick = club_choice(tb) if len(legal) > 1 else legal[0]
    values = {}
    points = tb.trick_points()
    for c in legal:
        t = tb.with_card(c)
        values[c] = (t, p_win(tb, t))
    rows = np.zeros((len(legal), FEATURES), dtype=np.float32)
    base = len(CONTEXT)
    opponents = k.opponents
    partners = k.partners
    for i, c in enumerate(legal):
        r = rows[i]
        r[:base] = ctx
        f = r[base:]
        t, p = values[c]
        if c == C.EXCUSE:
            f[2] = 1
            f[8] = p_win(tb, trick) if n_down else 0.0
            f[19] = c == pick
            continue
        is_trump = c < C.TRUMP_COUNT
        f[0] = is_trump
        f[1] = not is_trump
        f[3] = c == C.PETIT
        f[4] = c == C.MONDE
        mask = C.TRUMPS if is_trump else C.SUIT_MASKS[C.suit_of(c)]
        f[5] = (c + 1) / 21 if is_trump else C.rank_of(c) / 14
        f[6] = C.HALF_POINTS[c] / 9
        f[7] = effective(c) / 12
        f[8] = p
        f[9] = t.winner >= 0 and tb.mine(t.winner)
        f[10] = f[9] and certainly_safe(tb, t)
        keep = keep_value(tb, c)
        f[11] = keep / 10
        f[12] = ((2.0 * p - 1.0) * (points + trick_value(c)) - keep) / 20
        f[13] = k.is_master(c)
        f[14] = (hand & mask).bit_count() / 14
        f[15] = (k.outstanding & mask).bit_count() / 14
        f[16] = (k.outstanding & mask & ~((1 << (c + 1)) - 1)).bit_count() / 14
        if not is_trump:
            s = C.suit_of(c)
            f[17] = max((p_void_and_trumps(tb.odds, q, s) for q in opponents), default=0.0)
            f[18] = max((p_void_and_trumps(tb.odds, q, s) for q in partners), default=0.0)
        f[19] = c == pick
        own = hand & mask
        f[20] = own & ((1 << c) - 1) == 0
        f[21] = own >> (c + 1) == 0
        f[22] = own.bit_count() == 1
        f[23] = bool(C.KINGS >> c & 1)
        f[24] = not is_trump and C.HALF_POINTS[c] > 1
        f[25] = trick.led >= 0 and trick.led != LED_TRUMP and not is_trump
    return legal, rows


DISCARD = (
    "points",
    "voids",
    "singletons",
    "singleton_kings",
    "doubletons",
    "bare_honours",
    "bare_honour_points",
    "shortest",
    "second",
    "third",
    "longest",
    "trumps_discarded",
    "quick_value",
    "voids_times_trumps",
    "from_king_suits",
)
"""Facts about one candidate discard (see ``discard_features``)."""


def discard_features(hand: int, candidates: list[int]) -> F32:
    """One row of facts for each candidate discard (a mask of six cards) of the declarer's
    ``hand`` (24 cards): the points it buries, the voids and short suits it leaves, the honours
    left without their King, the suits' lengths, and ``discards.quick_value``."""
    rows = np.zeros((len(candidates), len(DISCARD)), dtype=np.float32)
    kings = [bool(hand & C.KINGS & C.SUIT_MASKS[s]) for s in range(4)]
    for i, d in enumerate(candidates):
        kept = hand & ~d
        r = rows[i]
        lengths = []
        for s in range(4):
            m = kept & C.SUIT_MASKS[s]
            n = m.bit_count()
            lengths.append(n)
            r[1] += n == 0
            r[2] += n == 1 and not kings[s]
            r[3] += n == 1 and kings[s]
            r[4] += n == 2
            if not kings[s]:
                bare = [c for c in C.iter_cards(m) if C.HALF_POINTS[c] > 1]
                r[5] += len(bare)
                r[6] += sum(C.HALF_POINTS[c] for c in bare)
            if kings[s]:
                r[14] += (d & C.SUIT_MASKS[s]).bit_count()
        r[0] = C.half_points(d) / 30
        r[1:5] /= 4
        r[5] /= 6
        r[6] /= 20
        r[7:11] = [x / 14 for x in sorted(lengths)]
        r[11] = (d & C.TRUMPS).bit_count() / 6
        r[12] = quick_value(hand, d) / 30
        r[13] = r[1] * (kept & C.TRUMPS).bit_count() / 21
        r[14] /= 6
    return rows


class RowNet:
    """Dense layers from one row of facts (a card, a discard) to its score, ReLU between them;
    the same weights for every option of a decision."""

    def __init__(self, layers: list[tuple[F32, F32]], inputs: int) -> None:
        if not layers or layers[0][0].shape[0] != inputs or layers[-1][0].shape[1] != 1:
            raise ValueError(f"this network maps {inputs} facts to one score")
        self.layers = layers

    @classmethod
    def init(cls, inputs: int, hidden: tuple[int, ...], seed: int) -> RowNet:
        """Random weights (He initialization) from ``seed``."""
        rng = np.random.default_rng(seed)
        sizes = (inputs, *hidden, 1)
        layers = []
        for n_in, n_out in itertools.pairwise(sizes):
            w = rng.normal(0.0, np.sqrt(2.0 / n_in), (n_in, n_out)).astype(np.float32)
            layers.append((w, np.zeros(n_out, dtype=np.float32)))
        return cls(layers, inputs)

    def scores(self, rows: F32) -> F32:
        """One score per row; any leading shape."""
        h = rows
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        out: F32 = h[..., 0]
        return out


def choose_card(net: RowNet, obs: Observation) -> int:
    """The legal card of best score (the first on a tie)."""
    legal, rows = card_features(obs)
    return legal[int(np.argmax(net.scores(rows)))]


def discard_choices(hand: int) -> list[int]:
    """The candidate discards the network chooses among: the expert's (``discards``), the
    eight best by ``quick_value`` as its search takes them."""
    cands = discard_candidates(hand)
    cands.sort(key=lambda d: (-quick_value(hand, d), d))
    return cands[:8]


def choose_discard(net: RowNet, hand: int) -> list[int]:
    """The candidate discard of best score (the first on a tie), as six cards."""
    cands = discard_choices(hand)
    best = cands[int(np.argmax(net.scores(discard_features(hand, cands))))]
    return C.cards_of(best)
