"""The ``club`` level: good hand-written play, as a club player would teach it.

- Bidding: a point count of the hand (oudlers, trump length and height, Kings and honours, long
  suits and short ones) against thresholds, calibrated on simulated deals (docs/arena.md), and a
  little more needed to overcall.
- Discard: choose the suits to clear (voids to trump in later), bury the honours that would fall,
  keep Kings and long suits; forced trumps are the lowest.
- Chelem almost never (a hand with no possible loser); a poignée when the hand is strong enough to
  expect its side to win (the bonus goes to the winning side).
- Card play from what the seat knows (``knowledge.infer``): count trumps and oudlers; win cheaply
  and only when it is worth it; charge points on a partner's safe trick; lead to the declarer's
  voids in defence to shorten his trumps; cash Kings before they can be trumped; draw trumps when
  long; protect one's Petit and hunt the others'; try petit au bout when the trumps are drawn;
  keep the Excuse for a trick it saves, never for the last one.

The card-play estimates (``p_win``, ``keep_value``, ``certainly_safe``, ``p_void_and_trumps``,
``effective``, ``trick_value``) are public: the ``policy`` level's card facts read them too
(``cardmodel``).

Deterministic: the same observations give the same actions (``seed`` is only kept for the common
interface).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import product

from oudler.bots.knowledge import Knowledge, infer
from oudler.core import Action, Contract, Observation, Phase
from oudler.core import cards as C
from oudler.core.deal import DOG_SIZE
from oudler.core.tricks import LED_NONE, LED_TRUMP, TrickState

# ---------------------------------------------------------------------------- hand evaluation


def hand_points(hand: int) -> float:
    """A club player's count of an 18-card hand (about 40 is a Prise, 56 a Garde)."""
    trumps = hand & C.TRUMPS
    n = trumps.bit_count()
    pts = 0.0
    # Trumps: length, with the big ones worth more.
    pts += 2.0 * n
    pts += 1.0 * (trumps & ~((1 << 15) - 1) & ~(1 << C.MONDE)).bit_count()  # T16..T20
    if n >= 8:
        pts += 2.0 * (n - 7)
    # Oudlers.
    if hand >> C.MONDE & 1:
        pts += 10
    if hand & C.EXCUSE_BIT:
        pts += 8
    if hand & C.PETIT_BIT:
        pts += 8 if n >= 7 else 6 if n >= 5 else 2
    # Suits: honours, length, shortness.
    for s in range(4):
        suit = hand & C.SUIT_MASKS[s]
        length = suit.bit_count()
        king = bool(suit & C.KINGS)
        queen = bool(suit >> C.suit_card(s, 13) & 1)
        cav = bool(suit >> C.suit_card(s, 12) & 1)
        if king:
            pts += 6
        if queen:
            pts += 3 if king else 1
        if cav:
            pts += 2 if (king and queen) else 0.5
        if length >= 5:
            pts += 2.0 * (length - 4)
        if length == 0:
            pts += 5 if n >= 6 else 2
        elif length == 1 and not king:
            pts += 2.5 if n >= 6 else 1
    return pts


# Thresholds on hand_points, from simulations of club play (see docs/arena.md).
BID_THRESHOLDS = (
    (Contract.GARDE_CONTRE, 999.0),  # never: the dog's points go to the defence
    (Contract.GARDE_SANS, 72.0),
    (Contract.GARDE, 40.0),
    (Contract.PRISE, 34.0),
)
OVERCALL_MARGIN = 4.0  # an earlier bid says someone else is strong too


def club_bid(hand: int, legal: tuple[Contract | None, ...], bids_so_far: int) -> Contract | None:
    """The highest legal contract the count supports (None: pass)."""
    pts = hand_points(hand)
    margin = OVERCALL_MARGIN if bids_so_far else 0.0
    for contract, threshold in BID_THRESHOLDS:
        if pts >= threshold + margin and contract in legal:
            return contract
    return None


# ---------------------------------------------------------------------------- discard


def _suit_cards(mask: int, suit: int) -> list[int]:
    return C.cards_of(mask & C.SUIT_MASKS[suit])


def club_discard(hand: int, allowed: int, forced: int) -> list[int]:
    """Six cards: clear short suits, bury honours that would fall, keep Kings and long suits."""
    trumps = C.cards_of(allowed & C.TRUMPS)
    free = DOG_SIZE - forced
    if forced:
        # Every plain suit card goes; the lowest trumps make up the rest.
        return sorted(C.cards_of(allowed & ~C.TRUMPS) + trumps[:forced])
    n_trumps = (hand & C.TRUMPS).bit_count()
    per_suit = [_suit_cards(allowed, s) for s in range(4)]
    best: tuple[float, list[int]] | None = None
    for counts in product(*(range(min(len(cs), free) + 1) for cs in per_suit)):
        if sum(counts) != free:
            continue
        chosen: list[int] = []
        score = 0.0
        for s, k in enumerate(counts):
            cs = per_suit[s]
            if not k:
                continue
            king = bool(hand & C.SUIT_MASKS[s] & C.KINGS)
            # Bury the honours first (they would fall to the defence's Kings), small cards next.
            take = sorted(cs, key=lambda c: -C.HALF_POINTS[c])[:k]
            chosen += take
            left = len(cs) - k
            score += sum(C.HALF_POINTS[c] for c in take) * 0.6
            if left == 0 and not king:
                score += 9 if n_trumps >= 5 else 4  # a void: the suit will be trumped
            elif left == 0 and king:
                score += 4  # a bare King: cash it, then trump
            elif left == 1 and not king:
                score += 2
            if len(cs) + king >= 6 and n_trumps >= 9:
                score -= 3 * k  # a long suit may be run once trumps are drawn
        if best is None or score > best[0]:
            best = (score, chosen)
    assert best is not None
    return sorted(best[1])


# ---------------------------------------------------------------------------- chelem, poignée


def club_chelem(hand: int) -> bool:
    """Announce only with no possible loser: every suit card a King, the top trumps in sequence
    and at least 15 trumps with the Excuse to lead last."""
    if hand & C.SUIT_CARDS & ~C.KINGS or not hand & C.EXCUSE_BIT:
        return False
    trumps = hand & C.TRUMPS
    top = C.trumps_above(C.MONDE - 6) | (1 << (C.MONDE - 6))  # T15..T21
    return trumps.bit_count() >= 15 and trumps & top == top


def club_poignee(obs: Observation, strength: float) -> list[int]:
    """Show the biggest poignée the cards allow when the seat's side is expected to win; hide
    the Petit (a target) and the biggest trumps first."""
    legal = obs.legal
    me = obs.seat
    if obs.declarer == me:
        show = strength >= 70.0
    else:
        # A defender with 10+ trumps leaves the declarer short of them: the defence should win,
        # unless the declarer bid high.
        show = obs.contract is not None and obs.contract <= Contract.GARDE
    if not show:
        return []
    size = max(legal.poignee_sizes)
    trumps = C.cards_of(legal.poignee_cards & C.TRUMPS)
    if size > len(trumps):
        return [*trumps, C.EXCUSE]
    # Hide, in this order: the Petit, the 21, then the highest.
    order = [t for t in trumps if t not in (C.PETIT, C.MONDE)]
    order += [t for t in (C.MONDE, C.PETIT) if t in trumps]
    return sorted(order[:size])


# ---------------------------------------------------------------------------- card play


def effective(card: int) -> float:
    """What losing a card costs, in card points: oudlers also lower the points needed."""
    v = C.HALF_POINTS[card] / 2
    if card in (C.PETIT, C.MONDE, C.EXCUSE):
        v += 8.0
    return v


@dataclass
class Table:
    """The decision at hand, seen from one seat (``table_of`` builds it)."""

    obs: Observation
    k: Knowledge
    me: int
    declarer: int
    legal: list[int]
    trick: TrickState
    after: list[int]  # seats still to play in this trick, after me
    odds: Odds

    @property
    def is_declarer(self) -> bool:
        return self.me == self.declarer

    @property
    def hand(self) -> int:
        return self.obs.hand

    def with_card(self, card: int) -> TrickState:
        t = TrickState(self.trick.leader)
        for c in self.trick.cards:
            t.add(c)
        t.add(card)
        return t

    def trick_points(self) -> float:
        return sum(C.HALF_POINTS[c] for c in self.trick.cards if c != C.EXCUSE) / 2

    def mine(self, seat: int) -> bool:
        return seat >= 0 and self.k.same_side(seat, self.me)


class Odds:
    """Rough chances of who holds which hidden card: each card is shared among the holders that
    may have it, in proportion to how many unknown cards each of them holds. Cards fall into at
    most 32 classes by their possible holders, so a chance is a few popcounts."""

    def __init__(self, k: Knowledge) -> None:
        self.known = k.known
        free = [k.sizes[h] - k.known[h].bit_count() for h in range(5)]
        placed = k.hand | k.played
        for h in range(5):
            if h != k.seat:
                placed |= k.known[h]
        classes = [(C.ALL_CARDS & ~placed, 0)]
        for h in range(5):
            if h == k.seat:
                continue
            split = []
            for m, sig in classes:
                if m & k.possible[h]:
                    split.append((m & k.possible[h], sig | 1 << h))
                if m & ~k.possible[h]:
                    split.append((m & ~k.possible[h], sig))
            classes = split
        self.shares: list[list[tuple[int, float]]] = [[] for _ in range(5)]
        for m, sig in classes:
            total = sum(free[h] for h in range(5) if sig >> h & 1)
            for h in range(5):
                if sig >> h & 1 and free[h] > 0:
                    self.shares[h].append((m, free[h] / total))

    def p_any(self, holder: int, mask: int) -> float:
        """The chance that ``holder`` has at least one card of ``mask``."""
        if mask & self.known[holder]:
            return 1.0
        miss = 1.0
        for m, q in self.shares[holder]:
            n = (mask & m).bit_count()
            if n:
                miss *= (1.0 - q) ** n
        return 1.0 - miss


def _p_beats(odds: Odds, seat: int, t: TrickState) -> float:
    """Chance that ``seat``, still to play, can take the trick ``t`` from its current winner."""
    if t.led == LED_NONE:
        return 1.0
    if t.led == LED_TRUMP:
        return odds.p_any(seat, C.trumps_above(t.high))
    suit = C.SUIT_MASKS[t.led]
    void = 1.0 - odds.p_any(seat, suit)
    if t.high >= 0:
        return void * odds.p_any(seat, C.trumps_above(t.high))
    higher = suit & ~((1 << (t.best + 1)) - 1)
    p_trump = odds.p_any(seat, C.TRUMPS)
    return 1.0 - (1.0 - odds.p_any(seat, higher)) * (1.0 - void * p_trump)


def _p_lost(tb: Table, t: TrickState) -> float:
    """Chance that an opponent still to play takes the trick ``t`` from our side (ignoring that a
    partner after him could take it back)."""
    keep = 1.0
    for p in tb.after:
        if not tb.mine(p):
            keep *= 1.0 - _p_beats(tb.odds, p, t)
    return 1.0 - keep


def certainly_safe(tb: Table, t: TrickState) -> bool:
    """Whether no opponent still to play can possibly take the trick ``t`` (for certain)."""
    for p in tb.after:
        if tb.mine(p):
            continue
        poss = tb.k.possible[p]
        if t.led == LED_TRUMP or (t.led >= 0 and not poss & C.SUIT_MASKS[t.led]):
            if poss & C.trumps_above(t.high):
                return False
            if t.high < 0 and t.led != LED_TRUMP and poss & C.TRUMPS:
                return False
        elif t.led >= 0:
            if t.high < 0 and poss & C.SUIT_MASKS[t.led] & ~((1 << (t.best + 1)) - 1):
                return False
            if t.high < 0 and poss & C.TRUMPS:
                return False  # it may be void in the suit and trump
            if t.high >= 0 and poss & C.trumps_above(t.high):
                return False
        else:
            return False
    return True


class ClubBot:
    """Hand-written play of a good club player; see the module docstring."""

    level = "club"

    def __init__(self, *, seed: int) -> None:
        self.seed = seed
        self._strength = 0.0

    def begin_deal(self, seat: int) -> None:
        self._strength = 0.0

    def act(self, obs: Observation) -> Action:
        if obs.phase is Phase.BIDDING:
            self._strength = hand_points(obs.hand)
            bids_made = sum(1 for b in obs.bids if b is not None)
            return club_bid(obs.hand, obs.legal.bids, bids_made)
        if obs.phase is Phase.DISCARD:
            legal = obs.legal
            return club_discard(obs.hand, legal.discard_allowed, legal.discard_forced_trumps)
        if obs.phase is Phase.CHELEM:
            return club_chelem(obs.hand)
        if obs.phase is Phase.POIGNEE:
            return club_poignee(obs, self._strength or hand_points(obs.hand))
        if obs.phase is Phase.PLAY:
            return club_card(obs)
        raise ValueError(f"nothing to decide in the {obs.phase.value} phase")


def club_card(obs: Observation) -> int:
    """The card a club player would play now."""
    legal = C.cards_of(obs.legal.cards)
    if len(legal) == 1:
        return legal[0]
    return club_choice(table_of(obs))


def table_of(obs: Observation) -> Table:
    """A card decision as club sees it: what the seat knows, the trick so far, who plays after
    it, the odds of who holds what (the policy's card facts read the same)."""
    k = infer(obs)
    assert obs.declarer is not None
    trick = TrickState(obs.trick_leader)
    for c in obs.trick_cards:
        trick.add(c)
    n_down = len(obs.trick_cards)
    after = [(obs.seat + i) & 3 for i in range(1, 4 - n_down)]
    legal = C.cards_of(obs.legal.cards)
    return Table(obs, k, obs.seat, obs.declarer, legal, trick, after, Odds(k))


def club_choice(tb: Table) -> int:
    """Club's card for a decision with several legal cards."""
    cards = [c for c in tb.legal if c != C.EXCUSE]
    if tb.trick.led == LED_NONE:
        return _lead(tb, cards)
    return _follow(tb, cards)


# ---------------------------------------------------------------------------- leading


def _lowest(cards: list[int]) -> int:
    return min(cards, key=lambda c: (C.HALF_POINTS[c], c))


def _lead(tb: Table, cards: list[int]) -> int:
    if C.EXCUSE in tb.legal:
        size = tb.hand.bit_count()
        chelem = tb.is_declarer and _chelem_on(tb)
        if (size == 1) or (size == 2 and not chelem):
            return C.EXCUSE  # never keep it for the last trick (but to lead it to a chelem)
    if not cards:
        return C.EXCUSE
    if tb.is_declarer:
        return _declarer_lead(tb, cards)
    return _defence_lead(tb, cards)


def _keep_petit_for_end(tb: Table) -> bool:
    """The declarer holds the Petit and can expect to hold the last trump: petit au bout."""
    k = tb.k
    if not tb.hand & C.PETIT_BIT:
        return False
    mine = (tb.hand & C.TRUMPS).bit_count() - 1
    out = k.trumps_out.bit_count()
    return out == 0 or mine >= out + 2


def _declarer_lead(tb: Table, cards: list[int]) -> int:
    k = tb.k
    hand = tb.hand
    trumps = [c for c in cards if c < C.TRUMP_COUNT]
    plain = [c for c in cards if c >= C.TRUMP_COUNT]
    out = k.trumps_out
    n_out = out.bit_count()
    defenders = k.opponents
    non_petit = [t for t in trumps if t != C.PETIT]

    # Petit au bout: with no trump left outside, the Petit waits for the last trick.
    if hand & C.PETIT_BIT and n_out == 0 and len(cards) > 1:
        rest = [c for c in cards if c != C.PETIT]
        masters = [c for c in rest if k.is_master(c)]
        return max(masters, key=lambda c: C.HALF_POINTS[c]) if masters else _lowest(rest)

    # Draw trumps when long: from the top while the top is master, else to push them out.
    if n_out and len(non_petit) >= n_out and len(non_petit) >= 3:
        top = max(non_petit)
        if k.is_master(top) or len(non_petit) >= n_out + 4:
            return top
    # Hunt the Petit: it is out and the declarer has trump control.
    if out & C.PETIT_BIT and non_petit and len(non_petit) >= n_out:
        top = max(non_petit)
        if k.is_master(top):
            return top

    # Cash Kings (and other masters) while no defender is known to be void in the suit.
    safe_masters = []
    for c in plain:
        s = C.suit_of(c)
        if not k.is_master(c):
            continue
        risk = 1.0 - math.prod(1.0 - p_void_and_trumps(tb.odds, p, s) for p in defenders)
        if risk < 0.5:
            safe_masters.append((risk, -C.HALF_POINTS[c], c))
    if safe_masters:
        return min(safe_masters)[2]

    # Otherwise a small card from the shortest suit, to trump it later.
    if plain:
        by_suit: dict[int, list[int]] = {}
        for c in plain:
            by_suit.setdefault(C.suit_of(c), []).append(c)
        short = min(by_suit.values(), key=lambda cs: (len(cs), C.HALF_POINTS[cs[0]]))
        return _lowest(short)
    # Only trumps: the top one if master, else the smallest that is not the Petit.
    top = max(trumps)
    if k.is_master(top):
        return top
    return min(non_petit) if non_petit else top


def p_void_and_trumps(odds: Odds, seat: int, suit: int) -> float:
    """Chance that ``seat`` is void in ``suit`` and holds a trump (it can cut that suit)."""
    return (1.0 - odds.p_any(seat, C.SUIT_MASKS[suit])) * odds.p_any(seat, C.TRUMPS)


def _defence_lead(tb: Table, cards: list[int]) -> int:
    k = tb.k
    d = tb.declarer
    plain = [c for c in cards if c >= C.TRUMP_COUNT]
    trumps = [c for c in cards if c < C.TRUMP_COUNT]
    decl_trumps = k.possible[d] & C.TRUMPS
    by_suit: dict[int, list[int]] = {}
    for c in plain:
        by_suit.setdefault(C.suit_of(c), []).append(c)

    # Lead the declarer's voids: he must trump, shortening his trumps, while we play small.
    if decl_trumps:
        voids = [s for s in by_suit if k.is_void(d, s)]
        if voids:
            s = max(voids, key=lambda s: len(by_suit[s]))
            return _lowest(by_suit[s])

    # Cash a King while the declarer may still follow the suit.
    kings = []
    for s, cs in by_suit.items():
        top = max(cs)
        if k.is_master(top) and C.HALF_POINTS[top] >= 5:
            risk = p_void_and_trumps(tb.odds, d, s)
            if risk < 0.4:
                kings.append((risk, -C.HALF_POINTS[top], top))
    if kings:
        return min(kings)[2]

    # Give the lead to a partner void in a suit where the declarer still follows.
    for s, cs in sorted(by_suit.items(), key=lambda kv: len(kv[1])):
        partner_trumps = any(k.is_void(p, s) and k.possible[p] & C.TRUMPS for p in k.partners)
        if partner_trumps and not k.is_void(d, s):
            return _lowest(cs)

    # Otherwise the longest suit, small (the declarer is likely short there and must trump).
    if plain:
        longest = max(by_suit.values(), key=lambda cs: (len(cs), -C.HALF_POINTS[min(cs)]))
        low = [c for c in longest if C.HALF_POINTS[c] <= 3] or longest
        return _lowest(low)
    non_petit = [t for t in trumps if t != C.PETIT]
    return min(non_petit) if non_petit else trumps[0]


# ---------------------------------------------------------------------------- following


def keep_value(tb: Table, card: int) -> float:
    """What a card is worth to its side if kept for later, beyond being played now."""
    k = tb.k
    if card < C.TRUMP_COUNT:
        if card == C.PETIT:
            if not k.trumps_out:
                return 20.0 if tb.is_declarer else 3.0  # safe: petit au bout later
            if tb.is_declarer and _keep_petit_for_end(tb):
                return 6.0
            # At risk while kept, the more so with few trumps to shield it.
            shield = (tb.hand & C.TRUMPS).bit_count() - 1
            out = k.trumps_out.bit_count()
            if tb.is_declarer:
                return 2.0 if shield * 2 >= out else -3.0
            return 0.0 if shield >= 4 else -4.0
        # Big trumps win tricks and keep control; the declarer's more so.
        return 0.3 + card * (0.16 if tb.is_declarer else 0.08)
    suit = C.suit_of(card)
    length = (tb.hand & C.SUIT_MASKS[suit]).bit_count()
    value = effective(card)
    if k.is_master(card):
        return (2.5 if tb.is_declarer else 1.2) + 0.3 * value
    keep = -0.3 * value if value >= 1.5 else 0.0  # an honour that will likely fall
    if length <= 2:
        keep -= 0.15  # shorten: a void lets us trump sooner
    return keep


def trick_value(card: int) -> float:
    """Points a card brings to the trick's winner (the 21 cannot be lost: it counts nothing)."""
    return 0.0 if card == C.MONDE else effective(card)


def p_win(tb: Table, t: TrickState) -> float:
    """Chance that our side takes the trick ``t`` in the end."""
    if tb.mine(t.winner):
        return 1.0 if certainly_safe(tb, t) else 1.0 - _p_lost(tb, t)
    chance = 0.0
    for i, p in enumerate(tb.after):
        if tb.mine(p):
            beat = _p_beats(tb.odds, p, t)
            later_opp = any(not tb.mine(q) for q in tb.after[i + 1 :])
            chance = max(chance, beat * (0.5 if later_opp else 1.0))
    return chance


PETIT_RISK = 30.0
"""Weight of the chance of losing the Petit when it is played (its points, the oudler that
moves the threshold, petit au bout chances)."""


def _follow_values(tb: Table, cards: list[int]) -> list[tuple[float, int]]:
    """Each card's expected worth to our side on this trick, minus what keeping it is worth."""
    points = tb.trick_points()
    out = []
    for c in cards:
        t = tb.with_card(c)
        p = p_win(tb, t)
        value = (2.0 * p - 1.0) * (points + trick_value(c)) - keep_value(tb, c)
        if c == C.PETIT and p < 1.0 and tb.k.trumps_out:
            value -= PETIT_RISK * (1.0 - p)  # never risk the Petit
        out.append((value, c))
    return out


def _follow(tb: Table, cards: list[int]) -> int:
    values = _follow_values(tb, cards)
    best_value, best = max(values, key=lambda vc: (vc[0], -vc[1]))
    if C.EXCUSE in tb.legal and _excuse_instead(tb, best_value):
        return C.EXCUSE
    return best


EXCUSE_KEEP = 1.5
"""What keeping the Excuse for a later trick is worth (it may save a King or the Petit)."""


def _excuse_instead(tb: Table, best_value: float) -> bool:
    """The Excuse leaves the trick to whoever wins it and comes back for a half-point card; play
    it when the best other card is worth less than that by more than the Excuse's later use, and
    always before the last trick."""
    if tb.is_declarer and _chelem_on(tb):
        return False  # it will be led to the last trick
    if tb.hand.bit_count() <= 2:
        return True
    p = p_win(tb, tb.trick)
    excuse_value = (2.0 * p - 1.0) * tb.trick_points() - 0.5 - EXCUSE_KEEP
    return excuse_value > best_value


def _chelem_on(tb: Table) -> bool:
    """The declarer has taken every trick so far (he may lead the Excuse to the last one)."""
    return bool(tb.obs.tricks) and all(t.winner == tb.me for t in tb.obs.tricks)
