"""The expert level: its fast scorer and playouts agree with the engine, its endgame solver is
exact, it only ever returns legal actions, and it is reproducible with a fixed number of worlds."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from oudler.bots.expert import ExpertBot
from oudler.bots.expert.contract import discard_candidates, rule_discard
from oudler.bots.expert.playout import PlayState, Table, advance, choose, playout, solve
from oudler.bots.expert.search import public_state, table_for
from oudler.core import Contract, Deal, Phase
from oudler.core import cards as C
from oudler.core.deal import TRICKS, discard_rule
from oudler.core.tricks import legal_mask
from test_sampler import biased_deal, random_action


def _policy_card(deal: Deal) -> int:
    """The playout policy's card for the seat to move (to make realistic finished deals)."""
    assert deal.declarer is not None
    d = deal.declarer
    all_won = all(t.winner == d for t in deal.tricks)
    return choose(deal.hands, deal.to_move, deal.legal_cards(), deal.trick, d, all_won)


def finished_deals(seed: int, count: int) -> list[Deal]:
    """Deals played to the end, by random actions or by the playout policy (which makes chelems
    with long trumps)."""
    rng = random.Random(seed)
    out: list[Deal] = []
    while len(out) < count:
        deal = biased_deal(rng)
        by_policy = rng.random() < 0.5
        strong_bids = rng.random() < 0.8
        while not deal.is_over:
            if by_policy and deal.phase is Phase.PLAY:
                deal.play(_policy_card(deal))
            else:
                deal.act(random_action(deal, rng, strong_bids))  # type: ignore[arg-type]
        if deal.void is None:
            out.append(deal)
    return out


def _tally(deal: Deal) -> tuple[PlayState, Table]:
    """The fast engine's tally of a finished deal, card by card."""
    assert deal.declarer is not None and deal.contract is not None
    d = deal.declarer
    st = PlayState()
    st.leader = deal.tricks[0].leader
    for t in deal.tricks:
        for c in t.cards:
            advance(st, c, d)
    if deal.contract.dog_shown:
        st.extra = deal.discard
    elif deal.contract is Contract.GARDE_SANS:
        st.extra = deal.dog
    table = Table(
        declarer=d,
        multiplier=deal.contract.multiplier,
        announced=bool(deal.chelem),
        poignee_bonus=sum({10: 20, 13: 30, 15: 40}[m.bit_count()] for m in deal.poignees.values()),
        pile_counts=deal.contract is not Contract.GARDE_CONTRE,
    )
    return st, table


def test_the_fast_scorer_equals_the_engines_scoring_on_thousands_of_deals() -> None:
    kinds: Counter[str] = Counter()
    for deal in finished_deals(1, 2500):
        st, table = _tally(deal)
        result = deal.result
        assert result is not None
        assert st.n == TRICKS
        assert st.score(table) == result.per_defender, result.to_dict()
        kinds[f"excuse {result.excuse_exchange}"] += 1
        kinds[f"pab {result.petit_au_bout}"] += 1
        kinds[f"chelem {result.chelem} {result.chelem_announced}"] += 1
        kinds[f"won {result.won}"] += 1
        kinds[result.contract.notation if result.contract else "-"] += 1
        kinds["poignee"] += bool(deal.poignees)
    # the deals covered every case of the scoring
    for k in ("excuse exchanged", "excuse same_side", "excuse last_trick", "excuse never"):
        assert kinds[k], kinds
    for k in ("pab declarer", "pab defence", "chelem declarer True", "chelem declarer False"):
        assert kinds[k], kinds
    for k in ("chelem None True", "won True", "won False", "garde_sans", "garde_contre"):
        assert kinds[k], kinds
    assert kinds["poignee"], kinds


def _world_deals(seed: int, count: int) -> list[Deal]:
    """Deals stopped at a random point of the play."""
    rng = random.Random(seed)
    out: list[Deal] = []
    while len(out) < count:
        deal = biased_deal(rng)
        stop = rng.randrange(0, 72)
        while not deal.is_over and not (deal.phase is Phase.PLAY and len(deal.play_log) >= stop):
            deal.act(random_action(deal, rng, True))  # type: ignore[arg-type]
        if not deal.is_over:
            out.append(deal)
    return out


def _with_hidden(deal: Deal) -> tuple[PlayState, Table]:
    """The fast engine's state of a deal in play, with every card where it really is."""
    obs = deal.observation(deal.to_move)
    table = table_for(obs)
    st = public_state(obs)
    st.hands = list(deal.hands)
    if deal.contract is not None and deal.contract.dog_shown:
        st.extra = deal.discard
    elif deal.contract is Contract.GARDE_SANS:
        st.extra = deal.dog
    return st, table


def test_playouts_play_legal_cards_and_score_as_the_engine() -> None:
    # The fast engine plays the policy to the end; the real Deal follows it card by card.
    for deal in _world_deals(2, 400):
        base, table = _with_hidden(deal)
        fast = playout(base.copy(), table)
        st = base.copy()
        mirror = deal.copy()
        d = table.declarer
        while not mirror.is_over:
            if mirror.phase is Phase.POIGNEE:
                mirror.declare_poignee([])  # the playouts show no further poignée
                continue
            seat = st.to_move
            assert seat == mirror.to_move
            t = st.trick()
            legal = legal_mask(st.hands[seat], t.led, t.high)
            card = choose(st.hands, seat, legal, t, d, st.dtricks == st.n)
            mirror.play(card)  # raises if the card were illegal
            advance(st, card, d)
        assert mirror.result is not None
        assert st.score(table) == mirror.result.per_defender == fast


def _minimax(deal: Deal) -> int:
    """Exact value D by brute force through the engine (no pruning, no merging)."""
    if deal.is_over:
        assert deal.result is not None and deal.result.per_defender is not None
        return deal.result.per_defender
    if deal.phase is Phase.POIGNEE:
        nxt = deal.copy()
        nxt.declare_poignee([])
        return _minimax(nxt)
    values = []
    for c in C.cards_of(deal.legal_cards()):
        nxt = deal.copy()
        nxt.play(c)
        values.append(_minimax(nxt))
    return max(values) if deal.to_move == deal.declarer else min(values)


def test_the_endgame_solver_is_exact() -> None:
    rng = random.Random(3)
    checked = 0
    for deal in _world_deals(3, 2000):
        if len(deal.tricks) < 15 or deal.poignees or deal.phase is not Phase.PLAY:
            continue
        if rng.random() < 0.5 and len(deal.tricks) == 15 and deal.trick.cards:
            continue
        st, table = _with_hidden(deal)
        assert solve(st, table) == _minimax(deal)
        checked += 1
        if checked == 40:
            break
    assert checked == 40


def test_discard_candidates_are_legal_discards() -> None:
    rng = random.Random(4)
    for _ in range(500):
        deal = biased_deal(rng)
        hand = deal.hands[0] | deal.dog
        allowed, forced = discard_rule(hand)
        cands = discard_candidates(hand)
        assert cands and rule_discard(hand) in cands
        for d in cands:
            assert d.bit_count() == 6 and d & ~allowed == 0
            assert (d & C.TRUMPS).bit_count() == forced


def _candidates_by_the_rule(hand: int) -> list[int]:
    """The candidate discards as their rule says, plainly: for each set of suits voided, the
    rest filled from the cards left, sorted each of the two ways (the reference that
    ``discard_candidates``, which sorts once, must match)."""
    allowed, forced = discard_rule(hand)
    if forced:
        trumps = sorted(C.cards_of(allowed & C.TRUMPS))[:forced]
        return [(allowed & C.SUIT_CARDS) | sum(1 << c for c in trumps)]
    suits = [allowed & C.SUIT_MASKS[s] for s in range(4)]
    kings = [bool(hand & C.KINGS & C.SUIT_MASKS[s]) for s in range(4)]
    out: list[int] = []
    for subset in range(16):
        chosen = [s for s in range(4) if subset >> s & 1]
        if any(not suits[s] for s in chosen):
            continue
        voided = sum(suits[s] for s in chosen)
        if voided.bit_count() > 6:
            continue
        rest = C.cards_of(allowed & ~voided)
        by_value = sorted(
            rest, key=lambda c: (-C.HALF_POINTS[c] - (0 if kings[C.suit_of(c)] else 4), -c)
        )
        by_short = sorted(
            rest, key=lambda c: (suits[C.suit_of(c)].bit_count(), -C.HALF_POINTS[c], -c)
        )
        for order in (by_value, by_short):
            d = voided | sum(1 << c for c in order[: 6 - voided.bit_count()])
            if d not in out:
                out.append(d)
    return out


def test_discard_candidates_are_those_of_their_rule() -> None:
    """Both orders are sorted once, not once for each set of voids: the same candidates, in the
    same order, as the rule written plainly."""
    rng = random.Random(9)
    for i in range(800):
        if i % 2:
            deal = biased_deal(rng)
            hand = deal.hands[0] | deal.dog
        else:
            hand = sum(1 << c for c in rng.sample(range(78), 24))
        assert discard_candidates(hand) == _candidates_by_the_rule(hand)


def _play(deal: Deal, bots: list[ExpertBot]) -> Counter[str]:
    seen: Counter[str] = Counter()
    for seat, bot in enumerate(bots):
        bot.begin_deal(seat)
    while not deal.is_over:
        seat = deal.to_move
        seen[deal.phase.value] += 1
        deal.act(bots[seat].act(deal.observation(seat)), seat)  # raises if illegal
    return seen


def test_the_expert_only_returns_legal_actions() -> None:
    rng = random.Random(5)
    phases: Counter[str] = Counter()
    for i in range(24):
        deal = biased_deal(rng)
        phases += _play(deal, [ExpertBot(100 * i + s, worlds=3) for s in range(4)])
    for phase in ("bidding", "discard", "chelem", "play"):
        assert phases[phase], phases


def test_same_seed_and_observation_give_the_same_decision() -> None:
    for deal in _world_deals(6, 12):
        obs = deal.observation(deal.to_move)
        a = ExpertBot(7, worlds=6).act(obs)
        b = ExpertBot(7, worlds=6).act(obs)
        assert a == b


@pytest.mark.parametrize("seed", [1, 2])
def test_bids_and_discards_are_reproducible(seed: int) -> None:
    deal = Deal.from_seed(seed, 0)
    obs = deal.observation(deal.to_move)
    assert ExpertBot(3, worlds=20).act(obs) == ExpertBot(3, worlds=20).act(obs)


def test_the_policy_never_keeps_the_excuse_for_the_last_trick_but_for_a_chelem() -> None:
    # In the last trick the Excuse goes to the winners: the policy spends it before, except for
    # a declarer who has won every trick so far when he is down to two cards (he keeps it to
    # lead it to the last trick, if he takes the 17th).
    rng = random.Random(8)
    seen = Counter[str]()
    for _ in range(400):
        deal = biased_deal(rng)
        while not deal.is_over:
            if deal.phase is Phase.PLAY:
                deal.play(_policy_card(deal))
            else:
                deal.act(random_action(deal, rng, True))  # type: ignore[arg-type]
        if deal.void is not None:
            continue
        last = deal.tricks[-1]
        played_before = any(C.EXCUSE in t.cards for t in deal.tricks[:-1])
        seen["excuse played before the last trick"] += played_before
        if C.EXCUSE in last.cards:
            owner = last.seat_of(last.cards.index(C.EXCUSE))
            assert owner == deal.declarer
            assert all(t.winner == deal.declarer for t in deal.tricks[:-2])
    assert seen["excuse played before the last trick"] > 100
