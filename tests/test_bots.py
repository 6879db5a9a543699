"""The bot levels: every level decides at every phase, only legally, seeing only observations;
the shared knowledge never contradicts the real deal; club behaves as a club player should."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from oudler.bots import LEVELS, UnknownLevelError, expert_available, make_bot
from oudler.bots.base import Bot, BotError
from oudler.bots.club import club_bid, club_card, club_discard, hand_points
from oudler.bots.knowledge import PILE, VOID_TRUMPS, infer
from oudler.bots.play import play_deal, play_match
from oudler.core import Action, Contract, Deal, Match, Observation, Phase
from oudler.core import cards as C
from oudler.core.tricks import LED_TRUMP

FAST_LEVELS = ("random", "novice", "club")
DEALS = 2000  # per fast level: thousands of deals, a few seconds each


def mask(text: str) -> int:
    return C.mask_of(C.parse_cards(text))


class Spy:
    """Wraps a bot: counts its phases and (``check``) compares what it is given with its seat's
    observation."""

    def __init__(
        self, bot: Bot, deal_ref: list[Deal], phases: Counter[Phase], *, check: bool
    ) -> None:
        self.bot = bot
        self.level = bot.level
        self.deal_ref = deal_ref
        self.phases = phases
        self.check = check
        self.seat = -1

    def begin_deal(self, seat: int) -> None:
        self.seat = seat
        self.bot.begin_deal(seat)

    def act(self, obs: Observation) -> Action:
        assert type(obs) is Observation
        deal = self.deal_ref[0]
        assert obs.seat == self.seat == deal.to_move
        if self.check:
            assert obs == deal.observation(self.seat)
        self.phases[obs.phase] += 1
        return self.bot.act(obs)


def _start(index: int) -> Deal:
    """Deal ``index`` of the test run: most are bid freely; some have a Garde sans or a Garde
    contre fixed, so that the play without a dog is exercised at every level."""
    while True:
        deal = Deal.from_seed(10_000 + index, index % 4)
        if not deal.is_over:
            break
        index += 100_000
    forced = {3: Contract.GARDE_SANS, 4: Contract.GARDE_CONTRE}.get(index % 7)
    if forced is not None:
        declarer = (index // 7) % 4
        for _ in range(4):
            deal.bid(forced if deal.to_move == declarer else None)
    return deal


@pytest.mark.parametrize("level", FAST_LEVELS)
def test_level_acts_legally_at_every_phase_over_thousands_of_deals(level: str) -> None:
    phases: Counter[Phase] = Counter()
    contracts: Counter[str] = Counter()
    ref: list[Deal] = []
    for i in range(DEALS):
        deal = _start(i)
        ref[:] = [deal]
        bots = [Spy(make_bot(level, seed=i * 4 + s), ref, phases, check=i < 100) for s in range(4)]
        result = play_deal(deal, bots)  # raises BotError on an illegal action
        assert sum(result.scores) == 0
        if result.contract is not None:
            contracts[result.contract.notation] += 1
    for phase in (Phase.BIDDING, Phase.DISCARD, Phase.CHELEM, Phase.POIGNEE, Phase.PLAY):
        assert phases[phase] > 0, f"{level} never decided in the {phase.value} phase"
    assert contracts["garde_sans"] and contracts["garde_contre"] and contracts["prise"]


def test_mixed_tables_play_complete_matches() -> None:
    for m in range(40):
        levels = [FAST_LEVELS[(m + s) % 3] for s in range(4)]
        match = Match(4, seed=m)
        bots = [make_bot(levels[s], seed=m * 10 + s) for s in range(4)]
        totals = play_match(match, bots)
        assert match.is_over and len(match.scored_deals) == 4
        assert sum(totals) == 0


@pytest.mark.parametrize("level", FAST_LEVELS)
def test_same_seed_and_deal_give_the_same_play(level: str) -> None:
    logs = []
    for _ in range(2):
        deal = Deal.from_seed(77, 1)
        play_deal(deal, [make_bot(level, seed=5 + s) for s in range(4)])
        logs.append((deal.bids, deal.discard, deal.poignees, deal.play_log))
    assert logs[0] == logs[1]


def test_make_bot_knows_the_levels() -> None:
    assert LEVELS == (
        "random",
        "novice",
        "club",
        "expert",
        "expert-v1",
        "expert-noinf",
        "policy",
    )
    for level in FAST_LEVELS:
        assert make_bot(level, seed=1).level == level
    assert make_bot(" Club ", seed=1).level == "club"
    with pytest.raises(UnknownLevelError, match="unknown level 'grandmaster'"):
        make_bot("grandmaster", seed=1)
    if expert_available():
        assert make_bot("expert", seed=1).level == "expert"
        assert make_bot("Expert-V1", seed=1).level == "expert-v1"
        assert make_bot("expert-noinf", seed=1).level == "expert-noinf"
    else:
        with pytest.raises(UnknownLevelError, match="expert level is not available"):
            make_bot("expert", seed=1)


class Cheater:
    """Plays a card it does not hold."""

    level = "cheater"

    def begin_deal(self, seat: int) -> None:
        pass

    def act(self, obs: Observation) -> Action:
        if obs.phase is Phase.PLAY:
            return C.cards_of(C.ALL_CARDS & ~obs.hand & ~obs.played)[0]
        return make_bot("novice", seed=0).act(obs)


def test_an_illegal_action_is_refused_and_names_the_bot() -> None:
    deal = Deal.from_seed(3, 0)
    bots: list[Bot] = [make_bot("novice", seed=s) for s in range(3)]
    bots.append(Cheater())
    with pytest.raises(BotError, match=r"bot 'cheater' at seat 3, play phase: illegal action"):
        play_deal(deal, bots)
    assert deal.phase is Phase.PLAY and deal.to_move == 3  # the deal is unchanged


# ---------------------------------------------------------------------------- knowledge


def _pile(deal: Deal) -> int:
    """The cards lying in the dog or the discard now."""
    if deal.phase is Phase.BIDDING or deal.contract is None or not deal.contract.dog_shown:
        return deal.dog
    return 0 if deal.phase is Phase.DISCARD else deal.discard


def test_knowledge_never_contradicts_the_real_deal() -> None:
    rng = random.Random(4)
    for i in range(150):
        deal = _start(i)
        bots = [make_bot("random" if (i + s) % 2 else "club", seed=s) for s in range(4)]
        for s, b in enumerate(bots):
            b.begin_deal(s)
        while not deal.is_over:
            viewer = rng.randrange(4)
            k = infer(deal.observation(viewer))
            holdings = [*deal.hands, _pile(deal)]
            for h in range(5):
                assert holdings[h] & ~k.possible[h] == 0, (i, viewer, h)
                assert k.known[h] & ~holdings[h] == 0, (i, viewer, h)
                assert k.sizes[h] == holdings[h].bit_count()
            for p in range(4):
                for suit in range(4):
                    if k.voids[p] >> suit & 1:
                        assert not deal.hands[p] & C.SUIT_MASKS[suit]
                if k.voids[p] & VOID_TRUMPS:
                    assert not deal.hands[p] & C.TRUMPS and k.is_void(p, LED_TRUMP)
                assert not deal.hands[p] & C.trumps_above(k.trump_ceiling[p])
            seat = deal.to_move
            deal.act(bots[seat].act(deal.observation(seat)), seat)


def _play_cards(deal: Deal, cards: str) -> None:
    for c in C.parse_cards(cards):
        deal.play(c)


def _bid(deal: Deal, contract: Contract, declarer: int) -> None:
    for _ in range(4):
        deal.bid(contract if deal.to_move == declarer else None)


# Seat 0 takes a Garde and discards the dog (all plain clubs); seat 2 is void in spades.
CHARGE_HANDS = [
    "T12 T13 T14 T15 T16 T17 T18 T19 T21 S2 SJ SC SK HQ HK DQ DK CK",
    "T2 T3 T4 T5 S1 S3 S4 S5 S6 S8 S9 S10 H1 H2 H3 H4 D1 C1",
    "T6 T7 T8 T20 EX H5 H6 H7 H8 H9 D2 D3 D4 D5 C2 C3 C4 C5",
    "T1 T9 T10 T11 S7 SQ H10 HJ HC D6 D7 D8 D9 D10 DJ DC C6 C7",
]
# The same, but seat 3 is void in spades too (its spades went to seat 1, for a diamond and a club).
PETIT_HANDS = [
    CHARGE_HANDS[0],
    "T2 T3 T4 T5 S1 S3 S4 S5 S6 S7 S8 S9 S10 SQ H1 H2 H3 H4",
    CHARGE_HANDS[2],
    "T1 T9 T10 T11 H10 HJ HC D1 D6 D7 D8 D9 D10 DJ DC C1 C6 C7",
]
CLUB_DOG = "C8 C9 C10 CJ CC CQ"


def _garde_by_seat_0(hands: list[str]) -> Deal:
    deal = Deal([mask(h) for h in hands], mask(CLUB_DOG), dealer=3)
    _bid(deal, Contract.GARDE, 0)
    deal.discard_cards(C.parse_cards(CLUB_DOG))
    deal.announce_chelem(False)
    return deal


def test_knowledge_reads_voids_undertrumps_and_the_shown_dog() -> None:
    deal = _garde_by_seat_0(CHARGE_HANDS)
    _play_cards(deal, "S2 S1 T20 SQ")  # seat 2 shows no spade, and trumps
    k = infer(deal.observation(1))
    assert k.voids[2] == 1 << 0 and not k.possible[2] & C.SUIT_MASKS[0]
    assert k.possible[PILE] & ~(C.SUIT_CARDS & ~C.KINGS) == 0  # no King, oudler or trump
    assert not k.possible[2] & mask(CLUB_DOG)  # the shown dog is the declarer's or discarded
    assert k.sizes == (17, 17, 17, 17, 6)
    # Seat 2 leads a trump; the declarer overtrumps; seat 1 cannot and plays T2 below.
    _play_cards(deal, "T8 T11 T13 T2")
    k = infer(deal.observation(3))
    assert k.trump_ceiling[1] == C.trump(12)  # nothing above T13 (T12 is the highest it may have)
    assert not k.possible[1] & C.trumps_above(C.trump(12))
    assert k.trumps_out == mask("T3 T4 T5 T6 T7 T12 T14 T15 T16 T17 T18 T19 T21")
    assert k.oudlers_out == mask("T21 EX")  # seat 3 holds the Petit
    assert k.holders(C.parse_card("T21")) == [0, 2]  # not seat 1 (ceiling), nor the discard
    assert not k.is_master(C.parse_card("T10"))
    assert infer(deal.observation(0)).is_master(C.parse_card("T21"))


def test_knowledge_counts_forced_discard_trumps() -> None:
    hands = [
        "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 SK HK DK CK S1 S2",
        "T1 T20 T21 EX S3 S4 S5 S6 S7 S8 S9 S10 SJ SC SQ H1 H2 H3",
        "H4 H5 H6 H7 H8 H9 H10 HJ HC HQ D1 D2 D3 D4 D5 D6 D7 D8",
        "D9 D10 DJ DC DQ C1 C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ CC CQ",
    ]
    dog = "T14 T15 T16 T17 T18 T19"
    deal = Deal([mask(h) for h in hands], mask(dog), dealer=3)
    _bid(deal, Contract.PRISE, 0)
    assert deal.discard_info()[1] == 4  # two plain cards only: four trumps must go
    deal.discard_cards(C.parse_cards("S1 S2 T2 T3 T4 T5"))
    k = infer(deal.observation(2))
    assert k.known[PILE] == mask("T2 T3 T4 T5")
    assert not k.possible[0] & C.SUIT_CARDS & ~C.KINGS  # every plain card went to the discard
    assert k.known[0] & mask(dog) == mask(dog)  # the dog's trumps stayed in his hand


def test_knowledge_reads_a_poignee_showing_the_excuse() -> None:
    hands = [
        "T1 T2 T3 T4 T5 T6 T7 T8 T9 EX S1 S2 S3 S4 S5 S6 S7 S8",
        "T10 T11 T12 T13 T14 T15 T16 T17 T18 H1 H2 H3 H4 H5 H6 H7 H8 H9",
        "T19 T20 T21 D1 D2 D3 D4 D5 D6 D7 D8 D9 D10 DJ DC DQ DK H10",
        "S9 S10 SJ SC SQ SK HJ HC HQ HK C1 C2 C3 C4 C5 C6 C7 C8",
    ]
    deal = Deal([mask(h) for h in hands], mask("C9 C10 CJ CC CQ CK"), dealer=3)
    _bid(deal, Contract.GARDE_SANS, 1)
    deal.announce_chelem(False)
    assert deal.phase is Phase.POIGNEE and deal.to_move == 0
    deal.declare_poignee(C.parse_cards("T1 T2 T3 T4 T5 T6 T7 T8 T9 EX"))
    k = infer(deal.observation(2))
    assert k.possible[0] & C.TRUMPS == mask("T1 T2 T3 T4 T5 T6 T7 T8 T9")  # no trump hidden
    assert k.known[0] & mask("T1 EX") == mask("T1 EX")
    assert k.sizes[PILE] == 6 and k.possible[PILE] & C.KINGS  # the unseen dog may hold Kings
    assert k.possible[3] & C.TRUMPS == mask("T10 T11 T12 T13 T14 T15 T16 T17 T18")


# ---------------------------------------------------------------------------- club


def test_club_bids_by_its_hand_count() -> None:
    weak = mask("T2 T5 T9 S1 S3 S5 S7 H2 H4 H6 D1 D3 D5 D7 C2 C4 C6 C8")
    strong = mask("T21 T20 T19 T18 T16 T14 T12 T10 T7 T3 T1 EX SK SQ HK D2 C3 C5")
    every = (None, Contract.PRISE, Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE)
    assert hand_points(strong) > hand_points(weak)
    assert club_bid(weak, every, 0) is None
    assert club_bid(strong, every, 0) in (Contract.GARDE, Contract.GARDE_SANS)
    # It only ever answers with a legal call.
    assert club_bid(strong, (None, Contract.GARDE_CONTRE), 1) is None


def test_club_discard_builds_a_void_and_keeps_kings() -> None:
    # 24 cards after the dog: one short suit without King (clubs) can be cleared.
    hand = mask("T1 T4 T6 T8 T10 T12 T14 T16 T18 T20 EX SK SQ S3 S2 HK H9 H5 H4 DK D8 D6 C7 C4")
    from oudler.core.deal import discard_rule

    allowed, forced = discard_rule(hand)
    chosen = club_discard(hand, allowed, forced)
    assert len(chosen) == 6 and not C.mask_of(chosen) & (C.KINGS | C.OUDLERS | C.TRUMPS)
    kept = hand & ~C.mask_of(chosen)
    assert not kept & C.SUIT_MASKS[3], "clubs (no King, two cards) should be cleared"


def test_club_defender_saves_the_petit_on_a_partners_safe_trick() -> None:
    deal = _garde_by_seat_0(PETIT_HANDS)
    _play_cards(deal, "S2 S1 T20")  # the declarer led; a partner trumps with T20
    obs = deal.observation(3)
    assert obs.legal.cards == mask("T1 T9 T10 T11")
    assert club_card(obs) == C.PETIT


def test_club_keeps_the_petit_back_when_the_declarer_plays_after() -> None:
    deal = _garde_by_seat_0(PETIT_HANDS)
    _play_cards(deal, "S2 S1 T20 T9")  # seat 2 wins and leads: seat 3 then the declarer
    _play_cards(deal, "H5 H10 HK H1")  # the declarer wins and leads a trump
    _play_cards(deal, "T12")
    _play_cards(deal, "T3")  # seat 1 cannot overtrump
    _play_cards(deal, "EX")  # seat 2 plays the Excuse
    obs = deal.observation(3)
    assert obs.legal.cards == mask("T1 T10 T11")  # must overtrump T12 if it can: it cannot
    assert club_card(obs) != C.PETIT  # the declarer has won the trick: never throw the Petit


def test_club_charges_points_on_a_partners_safe_trick() -> None:
    deal = _garde_by_seat_0(CHARGE_HANDS)
    _play_cards(deal, "S2 S1 T20")  # the declarer has played; a partner's T20 wins
    obs = deal.observation(3)
    assert obs.legal.cards == mask("S7 SQ")
    assert club_card(obs) == C.parse_card("SQ")


def test_club_plays_small_when_the_declarer_takes_the_trick() -> None:
    deal = _garde_by_seat_0(CHARGE_HANDS)
    _play_cards(deal, "HK H1 H5")  # the declarer's master King is winning
    obs = deal.observation(3)
    assert obs.legal.cards == mask("H10 HJ HC")
    assert club_card(obs) == C.parse_card("H10")


def test_club_never_keeps_the_excuse_for_the_last_trick() -> None:
    kept = 0
    for i in range(300):
        deal = _start(i)
        play_deal(deal, [make_bot("club", seed=s) for s in range(4)])
        if deal.void is not None:
            continue
        last = deal.tricks[-1]
        if C.EXCUSE in last.cards:
            owner = last.seat_of(last.cards.index(C.EXCUSE))
            chelem_lead = owner == deal.declarer and last.leader == owner
            kept += not chelem_lead
    assert kept == 0
