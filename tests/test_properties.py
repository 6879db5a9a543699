"""Properties of every deal, checked over random deals and random legal actions.

- cards are conserved (78, each in exactly one place) at every step;
- the 182 half points are split between the sides as RULES.md §7-§9 say (a second, naive count
  here), 181 when an Excuse was never exchanged;
- scores sum to zero, the declarer scoring three times what each defender pays;
- every deal ends within its number of actions;
- an illegal action raises and leaves the whole state as it was;
- the legal queries agree with the ``why_*_illegal`` reasons, and with the naive rules.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import naive_rules
from handbuilt import random_action
from oudler.core import (
    Contract,
    Deal,
    DealResult,
    IllegalActionError,
    NotationError,
    Phase,
)
from oudler.core import cards as C
from oudler.core.tricks import TrickState

RANDOM_DEALS = 10_000
MAX_ACTIONS = 4 + 1 + 1 + 4 + 72  # bids, discard, chelem, poignées, cards


# ------------------------------------------------------------------------------ naive count


def naive_piles(deal: Deal) -> tuple[int, int, bool]:
    """(declarer's half points, defence's half points, Excuse never exchanged), counted from
    the finished tricks by RULES.md §7-§9 read plainly."""
    d = deal.declarer
    assert d is not None and deal.contract is not None
    declarer = defence = 0
    for t in deal.tricks:
        for c in t.cards:
            if t.winner == d:
                declarer |= 1 << c
            else:
                defence |= 1 << c
    if deal.contract in (Contract.PRISE, Contract.GARDE):
        declarer |= deal.discard
    elif deal.contract is Contract.GARDE_SANS:
        declarer |= deal.dog
    else:
        defence |= deal.dog
    halves = [C.half_points(declarer & ~C.EXCUSE_BIT), C.half_points(defence & ~C.EXCUSE_BIT)]
    never = False
    excuse_trick = [i for i, t in enumerate(deal.tricks) if C.EXCUSE in t.cards]
    if not excuse_trick:  # in the dog: counts for whoever has the dog
        halves[0 if declarer & C.EXCUSE_BIT else 1] += 9
    else:
        i = excuse_trick[0]
        t = deal.tricks[i]
        owner_side = 0 if t.seat_of(t.cards.index(C.EXCUSE)) == d else 1
        taker_side = 0 if t.winner == d else 1
        owner_won_a_trick = any((u.winner == d) == (owner_side == 0) for u in deal.tricks)
        if i == 17 or owner_side == taker_side:
            halves[taker_side] += 9
        elif owner_won_a_trick:
            halves[owner_side] += 8
            halves[taker_side] += 1
        else:
            halves[owner_side] += 8
            never = True
    return halves[0], halves[1], never


def check_result(deal: Deal) -> DealResult:
    result = deal.result
    assert result is not None and deal.phase is Phase.DONE
    assert sum(result.scores) == 0
    if result.void is not None:
        assert result.scores == (0, 0, 0, 0)
        return result
    d = result.declarer
    assert d is not None and result.per_defender is not None
    assert result.scores[d] == 3 * result.per_defender
    assert len(deal.tricks) == 18 and len(deal.play_log) == 72
    declarer, defence, never = naive_piles(deal)
    assert declarer == result.half_points
    assert declarer + defence == (181 if never else 182)
    assert never == (result.excuse_exchange == "never")
    # Points after the half-point rule (RULES.md §9).
    assert result.points is not None and result.needed is not None
    if declarer % 2 == 0:
        assert result.points == declarer // 2
    else:
        assert result.points == (declarer + 1) // 2 if result.won else (declarer - 1) // 2
    assert result.won == (2 * result.points >= 2 * result.needed)
    return result


def accounted(deal: Deal) -> tuple[int, int]:
    """(union, total count) of the cards in hands, played, and set aside (dog or discard)."""
    played = C.mask_of(deal.play_log)
    aside = deal.dog
    if deal.contract is not None and deal.contract.dog_shown:
        aside = 0 if deal.phase is Phase.DISCARD else deal.discard
    places = [*deal.hands, played, aside]
    union = 0
    for m in places:
        union |= m
    return union, sum(m.bit_count() for m in places)


# ------------------------------------------------------------------------------ the big loop


def test_random_deals_conserve_cards_split_points_and_sum_to_zero() -> None:
    rng = random.Random(78_91)
    contracts: dict[Any, int] = {}
    kinds: dict[str | None, int] = {}
    for n in range(RANDOM_DEALS):
        deal = Deal.from_seed(rng.getrandbits(40), n & 3)
        actions = 0
        while deal.phase is not Phase.DONE:
            union, total = accounted(deal)
            assert union == C.ALL_CARDS and total == 78
            deal.act(random_action(deal, rng, pass_rate=0.55))
            actions += 1
            assert actions <= MAX_ACTIONS  # every deal ends
        union, total = accounted(deal)
        assert union == C.ALL_CARDS and total == 78
        result = check_result(deal)
        key = result.void or result.contract
        contracts[key] = contracts.get(key, 0) + 1
        kinds[result.excuse_exchange] = kinds.get(result.excuse_exchange, 0) + 1
    # The sample really went through every kind of deal.
    assert set(contracts) >= {"all_pass", *Contract}
    assert set(kinds) >= {None, "same_side", "exchanged", "last_trick"}


def test_random_deals_agree_with_the_naive_rules_at_every_card() -> None:
    rng = random.Random(4242)
    for n in range(1500):
        deal = Deal.from_seed(rng.getrandbits(40), n & 3)
        while deal.phase is not Phase.DONE:
            if deal.phase is Phase.PLAY:
                hand = set(C.format_cards(deal.hands[deal.to_move]))
                down = [C.CARD_NAMES[c] for c in deal.trick.cards]
                engine = set(C.format_cards(deal.legal_cards()))
                assert engine == naive_rules.legal_cards(hand, down)
                before = len(deal.tricks)
                leader = deal.trick.leader
                deal.act(random_action(deal, rng, pass_rate=0.3))
                if len(deal.tricks) > before:
                    t = deal.tricks[-1]
                    names = [C.CARD_NAMES[c] for c in t.cards]
                    winner = naive_rules.trick_winner(leader, names)
                    chelem_excuse = (
                        len(deal.tricks) == 18
                        and names[0] == "EX"
                        and all(u.winner == t.leader == deal.declarer for u in deal.tricks[:17])
                    )
                    if chelem_excuse:
                        winner = t.leader  # the chelem exception (RULES.md §8)
                    assert t.winner == winner
            else:
                deal.act(random_action(deal, rng, pass_rate=0.3))


def test_deal_play_keeps_the_trick_as_trickstate_add_does() -> None:
    """``Deal.play`` updates the running trick inline (its hot path); ``TrickState.add`` is the
    rule's reference. After every card the two hold the same led suit, highest trump, best card
    and winner, and every finished trick went to the reference's winner (but for the last trick's
    Excuse and chelem exceptions, which ``trick_taker`` settles for both)."""
    rng = random.Random(977)
    for n in range(600):
        deal = Deal.from_seed(rng.getrandbits(40), n & 3)
        reference: TrickState | None = None
        while deal.phase is not Phase.DONE:
            if deal.phase is not Phase.PLAY:
                deal.act(random_action(deal, rng, pass_rate=0.3))
                continue
            if reference is None or len(reference.cards) == 4:
                reference = TrickState(deal.trick.leader)
            card = random_action(deal, rng, pass_rate=0.3)
            reference.add(card)
            done = len(deal.tricks)
            deal.play(card)
            if len(deal.tricks) > done:
                if done < 17:
                    assert deal.tricks[-1].winner == reference.winner
                continue
            t = deal.trick
            assert (t.led, t.high, t.best, t.winner, t.cards) == (
                reference.led,
                reference.high,
                reference.best,
                reference.winner,
                reference.cards,
            )


# ------------------------------------------------------------------ illegal actions, snapshots


def freeze(value: object) -> object:
    if isinstance(value, TrickState):
        return ("trick", *(freeze(getattr(value, s)) for s in TrickState.__slots__))
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    return value


def snapshot(deal: Deal) -> object:
    """Everything the deal holds, and what every seat sees."""
    state = dict(vars(deal))
    del state["_legal"]  # a memo of legal_cards() for play(), not part of the deal
    return (
        freeze(state),
        tuple(str(deal.observation(s).to_dict()) for s in range(4)),
    )


def illegal_actions(deal: Deal, rng: random.Random) -> list[tuple[Any, int | None]]:
    """Actions (typed, with the seat taking them) that the rules forbid right now."""
    to_move = deal.to_move
    other = (to_move + 1 + rng.randrange(3)) & 3
    out: list[tuple[Any, int | None]] = []
    phase = deal.phase
    if phase is Phase.BIDDING:
        out.append((Contract.GARDE, other))
        high = deal.highest_bid
        if high is not None:
            out.extend((c, None) for c in Contract if c <= high)
        out.append((5, None))
    elif phase is Phase.DISCARD:
        hand = deal.hands[to_move]
        allowed, forced = deal.discard_info()
        out.append((C.cards_of(allowed)[:5], None))
        out.append((C.cards_of(hand & (C.KINGS | C.OUDLERS))[:1] + C.cards_of(allowed)[:5], None))
        out.append((C.cards_of(C.ALL_CARDS & ~hand)[:6], None))
        if forced == 0 and hand & C.TRUMPS & ~C.OUDLERS:
            trump = C.cards_of(hand & C.TRUMPS & ~C.OUDLERS)[0]
            out.append(([trump, *C.cards_of(allowed)[:5]], None))
        out.append((C.cards_of(allowed)[:6], other))
    elif phase is Phase.CHELEM:
        out.append((True, other))
        out.append(("yes", None))
    elif phase is Phase.POIGNEE:
        shown = C.cards_of(deal.poignee_cards(to_move))
        if len(shown) >= 11:
            out.append((shown[:11], None))  # not a poignée size
        out.append((shown[:9], None))
        out.append((C.cards_of(deal.hands[to_move])[0], None))  # a card before answering
        if C.EXCUSE in shown and len(shown) >= 11:
            # The Excuse while a trump in hand stays hidden (the highest one held).
            kept = C.highest_trump(deal.hands[to_move])
            others = [c for c in shown if c not in (C.EXCUSE, kept)]
            out.append(([C.EXCUSE, *others[:9]], None))
    elif phase is Phase.PLAY:
        hand = deal.hands[to_move]
        legal = deal.legal_cards()
        if hand & ~legal:
            out.append((rng.choice(C.cards_of(hand & ~legal)), None))
        out.append((rng.choice(C.cards_of(C.ALL_CARDS & ~hand)), None))
        out.append((rng.choice(C.cards_of(legal)), other))
        out.append(([], None))
    else:
        out.append((C.cards_of(deal.hands[0] or C.ALL_CARDS)[0], None))
        out.append((None, None))
    return out


def check_consistency(deal: Deal, rng: random.Random) -> None:
    """The legal queries agree with the why_*_illegal reasons."""
    phase = deal.phase
    seat = deal.to_move
    if phase is Phase.BIDDING:
        legal_bids = deal.legal_bids()
        for bid in [None, *Contract]:
            assert (bid in legal_bids) == (deal.why_bid_illegal(bid) is None)
        assert deal.legal_actions() == ["pass" if b is None else b.notation for b in legal_bids]
    elif phase is Phase.DISCARD:
        hand = deal.hands[seat]
        allowed, forced = deal.discard_info()
        candidates = [rng.sample(C.cards_of(hand), 6) for _ in range(20)]
        trumps, plain = C.cards_of(allowed & C.TRUMPS), C.cards_of(allowed & ~C.TRUMPS)
        candidates.append(rng.sample(trumps, forced) + rng.sample(plain, 6 - forced))
        for k in range(7):
            if k <= len(trumps) and 6 - k <= len(plain):
                candidates.append(trumps[:k] + plain[: 6 - k])
        for cards in candidates:
            m = C.mask_of(cards)
            ok = m & ~allowed == 0 and (m & C.TRUMPS).bit_count() == forced
            assert (deal.why_discard_illegal(cards) is None) == ok, C.format_cards(m)
    elif phase is Phase.POIGNEE:
        own = deal.poignee_cards(seat)
        sizes = deal.poignee_sizes(seat)
        assert sizes == [s for s in (10, 13, 15) if s <= own.bit_count()]
        assert deal.why_poignee_illegal(seat, []) is None
        cards = C.cards_of(own)
        for size in (9, 10, 11, 13, 15):
            if size > len(cards):
                continue
            for _ in range(5):
                shown = rng.sample(cards, size)
                m = C.mask_of(shown)
                hides_trump = bool(deal.hands[seat] & C.TRUMPS & ~m)  # forced ones are public
                ok = size in sizes and not (m & C.EXCUSE_BIT and hides_trump)
                assert (deal.why_poignee_illegal(seat, shown) is None) == ok
    elif phase is Phase.PLAY:
        legal = deal.legal_cards()
        assert legal and legal & ~deal.hands[seat] == 0
        for card in range(78):
            assert (legal >> card & 1 == 1) == (deal.why_card_illegal(card) is None)
        assert deal.legal_actions() == C.format_cards(legal)


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**40), dealer=st.integers(0, 3), rng=st.randoms(use_true_random=False))
def test_illegal_actions_leave_the_state_unchanged(
    seed: int, dealer: int, rng: random.Random
) -> None:
    deal = Deal.from_seed(seed, dealer)
    for _ in range(MAX_ACTIONS + 1):
        if rng.random() < 0.15 or deal.phase is not Phase.PLAY:
            before = snapshot(deal)
            for action, seat in illegal_actions(deal, rng):
                try:
                    deal.act(action, seat)
                except (IllegalActionError, NotationError) as e:
                    assert str(e)  # a reason in words
                else:
                    raise AssertionError(f"accepted {action!r} by {seat} in {deal.phase}")
                assert snapshot(deal) == before
        if deal.phase is Phase.DONE:
            break
        deal.act(random_action(deal, rng, pass_rate=0.4))
    assert deal.phase is Phase.DONE


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**40), dealer=st.integers(0, 3), rng=st.randoms(use_true_random=False))
def test_legal_queries_agree_with_why_illegal(seed: int, dealer: int, rng: random.Random) -> None:
    deal = Deal.from_seed(seed, dealer)
    while deal.phase is not Phase.DONE:
        check_consistency(deal, rng)
        deal.act(random_action(deal, rng, pass_rate=0.4))
    assert deal.legal_actions() == [] and deal.legal_cards() == 0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**40), rng=st.randoms(use_true_random=False))
def test_copy_is_independent_and_plays_on_identically(seed: int, rng: random.Random) -> None:
    deal = Deal.from_seed(seed, 0)
    copies: list[tuple[Deal, object]] = []
    while deal.phase is not Phase.DONE:
        if rng.random() < 0.1:
            copies.append((deal.copy(), snapshot(deal)))
        deal.act(random_action(deal, rng, pass_rate=0.3))
    for copy, taken in copies:
        assert snapshot(copy) == taken  # untouched by the original playing on
    if copies and deal.void is None:
        # Replaying the original's remaining actions on a copy gives the same result.
        copy, _ = copies[0]
        for card in deal.play_log[len(copy.play_log) :]:
            while copy.phase is not Phase.PLAY:
                seat = copy.to_move
                copy.act(_same_answer(deal, copy, seat))
            copy.play(card)
        assert copy.result == deal.result


def _same_answer(original: Deal, copy: Deal, seat: int) -> Any:
    """The answer the original gave in the copy's current (non-play) phase."""
    phase = copy.phase
    if phase is Phase.BIDDING:
        return original.bids[len(copy.bids)]
    if phase is Phase.DISCARD:
        return C.cards_of(original.discard)
    if phase is Phase.CHELEM:
        return original.chelem
    assert phase is Phase.POIGNEE
    return C.cards_of(original.poignees.get(seat, 0))
