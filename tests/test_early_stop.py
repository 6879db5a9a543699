"""The expert's early stop (``Budget.stop``, level option ``/sX``): a search ends before its
budget once no option left can beat the best by the stop's margin beyond the noise of the
worlds played, and runs to its budget while two options are within that noise."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oudler.bots import LevelSpec, make_bot, parse_level
from oudler.bots.expert import ExpertBot, contract, search
from oudler.bots.expert.sampler import facts, sampler_for
from oudler.bots.expert.search import EXPERT_STOP, Budget, Distinct, race, settled
from oudler.core import Deal, Observation, Phase


def _noisy(seed: int, n: int, shift: float, spread: float) -> tuple[list[float], list[float]]:
    """Two options' values over the same ``n`` worlds: a heavy base (a deal's score) and the
    second one ``shift`` higher with paired noise of ``spread``."""
    rng = random.Random(seed)
    base = [rng.choice((-150.0, -60.0, 60.0, 150.0)) + rng.gauss(0, 20) for _ in range(n)]
    return base, [b + shift + rng.gauss(0, spread) for b in base]


def test_a_dominant_option_is_settled() -> None:
    first, second = _noisy(1, 200, -15.0, 10.0)
    assert settled([first, second], [0, 1], 1.0, 3.0)
    assert settled([second, first], [0, 1], 0.0, 3.0)  # separated: no margin needed


def test_a_near_tie_within_the_noise_is_not_settled_until_the_noise_is_small() -> None:
    first, second = _noisy(2, 200, 0.0, 40.0)  # the paired difference's se is about 2.8
    assert not settled([first, second], [0, 1], 1.0, 3.0)
    first, second = _noisy(3, 200, 0.0, 1.0)  # alike but for a little noise: a near-tie
    assert settled([first, second], [0, 1], 1.0, 3.0)
    assert not settled([first, second], [0, 1], 0.0, 3.0)  # no margin: a tie never settles


def test_the_stop_counts_a_world_drawn_many_times_once() -> None:
    """Inference resamples worlds: repeats make the paired difference look surer than it is,
    and the stop reads the distinct worlds (the race's ``keys``)."""
    first = _noisy(4, 40, 0.0, 0.0)[0]
    second = [x - 2.0 + (10.0 if i % 2 else -10.0) for i, x in enumerate(first)]
    repeated_a, repeated_b = first * 8, second * 8  # 2 points worse, paired noise sd 10
    keys = list(range(40)) * 8
    assert settled([repeated_a, repeated_b], [0, 1], 1.0, 3.0)
    assert not settled([repeated_a, repeated_b], [0, 1], 1.0, 3.0, keys)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 12), max_size=600), st.data())
def test_the_worlds_numbered_as_they_come_match_a_count_of_any_prefix(
    keys: list[int], data: st.DataObject
) -> None:
    """``Distinct`` numbers each world by its first draw, keeping the numbers from one reading
    to the next (the stop reads it after every batch): whenever it is read, the numbers of the
    first ``n`` worlds are those of a count over those alone."""

    def counted(n: int) -> list[int]:
        first: dict[int, int] = {}
        return [first.setdefault(k, len(first)) for k in keys[:n]]

    cut = data.draw(st.integers(0, len(keys)))
    seen = Distinct(keys[:cut])
    for i in range(cut, len(keys) + 1):
        if data.draw(st.booleans()):
            n = data.draw(st.integers(0, i))
            assert seen.codes(n).tolist() == counted(n)
        if i < len(keys):
            seen.append(keys[i])
    assert len(seen) == len(keys)
    assert seen.codes(len(keys)).tolist() == counted(len(keys))
    with pytest.raises(ValueError):
        seen.codes(len(keys) + 1)


def test_the_stop_and_the_race_read_the_same_from_keys_and_from_their_numbers() -> None:
    rng = random.Random(5)
    keys = [rng.randrange(60) for _ in range(400)]  # repeats, as inference resamples
    values = [[rng.gauss(0, 50) for _ in keys] for _ in range(3)]
    values[2] = [v + 6.0 for v in values[0]]
    seen = Distinct(keys)
    for n in (48, 200, 400):
        cut = [v[:n] for v in values]
        for delta in (0.5, 2.0, 8.0):
            assert settled(cut, [0, 1, 2], delta, 2.0, keys) == settled(
                cut, [0, 1, 2], delta, 2.0, seen
            )
        assert race(cut, [0, 1, 2], 2.0, keys) == race(cut, [0, 1, 2], 2.0, seen)


def _club_position(seed: int, dealer: int, phase: Phase, cards_played: int = 0) -> Observation:
    """The seat to move in a seeded deal played by club: its first bid, the discard, or the
    card after ``cards_played`` cards."""
    deal = Deal.from_seed(seed, dealer)
    bots = [make_bot("club", seed=100 + s) for s in range(4)]
    for s, bot in enumerate(bots):
        bot.begin_deal(s)
    while not (deal.phase is phase and len(deal.play_log) == cards_played):
        deal.act(bots[deal.to_move].act(deal.observation(deal.to_move)), deal.to_move)
    return deal.observation(deal.to_move)


WORLDS = 512


def _search(obs: Observation, stop: float | None) -> search.Options[object]:
    """The decision's search at a fixed work of ``WORLDS`` worlds (the same seeded worlds with
    and without the stop), on the kernel as the expert plays it."""
    budget = Budget(worlds=WORLDS, stop=stop)
    sampler = sampler_for(facts(obs))
    rng = random.Random(5)
    if obs.phase is Phase.PLAY:
        budget.playout_tail = search.PLAYOUT_TAIL
        return search.card_options(obs, sampler, rng, budget)  # type: ignore[return-value]
    if obs.phase is Phase.DISCARD:
        return contract.discard_options(obs, sampler, rng, budget)  # type: ignore[return-value]
    scores, passing = contract.contract_values(obs, sampler, rng, budget)
    margin = contract.bid_margin(budget)
    return contract.bid_options(obs, scores, passing, margin)  # type: ignore[return-value]


def _paired_gap(opts: search.Options[object]) -> tuple[float, float]:
    """The best kept option's lead over the second and its standard error, world by world."""
    best = opts.best()
    second = max((i for i in opts.kept if i != best), key=lambda i: opts.values[i].mean)
    diff = [a - b for a, b in zip(opts.samples[best], opts.samples[second], strict=True)]
    return search.mean_se(diff)


@pytest.mark.parametrize(
    ("seed", "dealer", "phase", "cards"),
    [
        (602, 2, Phase.PLAY, 29),  # one card: the race alone drops the others after 352 worlds
        (600, 0, Phase.BIDDING, 0),  # a Garde far ahead (the bid does not race)
        (600, 0, Phase.DISCARD, 0),
    ],
)
def test_a_dominant_option_stops_early_with_the_full_searchs_choice(
    seed: int, dealer: int, phase: Phase, cards: int
) -> None:
    obs = _club_position(seed, dealer, phase, cards)
    full = _search(obs, None)
    early = _search(obs, 1.0)
    assert early.actions[early.best()] == full.actions[full.best()]
    assert early.worlds < full.worlds <= WORLDS
    assert early.worlds <= WORLDS // 2


@pytest.mark.parametrize(
    ("seed", "dealer", "phase", "cards"),
    [
        (607, 3, Phase.PLAY, 14),  # two cards 1.6 points apart, with a wide paired spread
        (627, 1, Phase.BIDDING, 0),  # a Prise or a Garde, half a point apart
        (608, 0, Phase.DISCARD, 0),
    ],
)
def test_two_options_within_the_noise_keep_the_full_budget(
    seed: int, dealer: int, phase: Phase, cards: int
) -> None:
    obs = _club_position(seed, dealer, phase, cards)
    early = _search(obs, 1.0)
    assert early.worlds == WORLDS and len(early.kept) >= 2
    lead, se = _paired_gap(early)
    assert 0.0 <= lead < 2.0 * se  # the two are within the noise of all the worlds
    full = _search(obs, None)
    assert early.actions[early.best()] == full.actions[full.best()]


def test_the_level_option_reaches_every_budget() -> None:
    assert parse_level("expert@w100/s1.5") == LevelSpec("expert", 100, stop=1.5)
    assert parse_level("expert@w100").stop is None
    bot = make_bot("expert@w100/s1.5", seed=1)
    assert isinstance(bot, ExpertBot)
    assert bot._card_budget(0.0).stop == 1.5
    assert bot._budget(0.0, 1450, bid=True).stop == 1.5
    timed = make_bot("expert@s2", seed=1)
    assert isinstance(timed, ExpertBot) and timed._card_budget(0.0).stop == 2.0
    plain = make_bot("expert", seed=1)  # the stop is the expert's own since 0.10.0
    assert isinstance(plain, ExpertBot) and plain._card_budget(0.0).stop == EXPERT_STOP == 2.0
    assert plain._budget(0.0, 1450, bid=True).stop == EXPERT_STOP
    assert parse_level("expert@s0") == LevelSpec("expert", stop=0.0)
    full = make_bot("expert@s0", seed=1)  # every search to its budget, as before 0.10.0
    assert isinstance(full, ExpertBot) and full._card_budget(0.0).stop is None
    assert full._budget(0.0, 1450, bid=True).stop is None and full.level == "expert@s0"
    python = make_bot("expert-v1", seed=1)  # the pure-Python expert keeps its full budget
    assert isinstance(python, ExpertBot) and python._card_budget(0.0).stop is None


def test_the_chelem_and_the_poignee_stop_once_clear() -> None:
    """A chelem never made is not announced after 96 worlds as after 512; a poignée whose side
    wins in every world is shown after 96 worlds as after 512."""
    from test_kernel_expert import positions

    chelem = positions(Phase.CHELEM, 1)[0]
    for stop, worlds in ((None, WORLDS), (2.0, 96)):
        budget = Budget(worlds=WORLDS, stop=stop)
        d_no, _, made = contract.chelem_samples(
            chelem, sampler_for(facts(chelem)), random.Random(5), budget
        )
        assert (len(d_no), made) == (worlds, 0)
    poignee = positions(Phase.POIGNEE, 1)[0]
    chosen = []
    for stop, worlds in ((None, WORLDS), (2.0, 96)):
        budget = Budget(worlds=WORLDS, stop=stop)
        ds = contract.poignee_samples(
            poignee, sampler_for(facts(poignee)), random.Random(5), budget
        )
        assert len(ds) == worlds
        opts = contract.poignee_options(poignee, ds)
        chosen.append(opts.actions[opts.best()])
    assert chosen[0] == chosen[1] is not None  # shown
