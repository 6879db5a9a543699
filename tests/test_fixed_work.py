"""Fixed-work levels (``expert@w200``): the same play whatever the machine's load."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

import pytest

from oudler.bots import LevelSpec, UnknownLevelError, make_bot, parse_level
from oudler.bots.base import Bot
from oudler.bots.expert import ExpertBot
from oudler.bots.play import play_deal
from oudler.core import Action, Deal, Observation
from oudler.lab.arena import ArenaError, parse_bot_specs


class _Recorder:
    """A bot that passes every decision on and writes it down."""

    def __init__(self, inner: Bot, out: list[tuple[int, str, str]]) -> None:
        self.inner = inner
        self.out = out
        self.level = inner.level

    def begin_deal(self, seat: int) -> None:
        self.inner.begin_deal(seat)

    def act(self, obs: Observation) -> Action:
        action = self.inner.act(obs)
        self.out.append((obs.seat, obs.phase.value, repr(action)))
        return action


def _actions(level: str, deal_seed: int) -> list[tuple[int, str, str]]:
    out: list[tuple[int, str, str]] = []
    bots = [_Recorder(make_bot(level, seed=100 + s), out) for s in range(4)]
    play_deal(Deal.from_seed(deal_seed, deal_seed % 4), bots)
    return out


def _racing_clock() -> Callable[[], float]:
    # A clock on which every reading is ten seconds after the last: every wall-time deadline is
    # already past, as on a machine loaded beyond measure.
    ticks = itertools.count()
    return lambda: 10.0 * next(ticks)


@pytest.mark.parametrize("level", ["expert@w24", "expert-noinf@w16/b32", "expert@w160/s2"])
def test_a_fixed_work_expert_plays_the_same_deal_the_same_on_a_slowed_clock(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    phases: set[str] = set()
    for deal_seed in (1, 3, 5):  # deals where the expert takes a contract
        calm = _actions(level, deal_seed)
        with monkeypatch.context() as m:
            m.setattr(time, "perf_counter", _racing_clock())
            loaded = _actions(level, deal_seed)
        assert calm == loaded
        phases |= {p for _, p, _ in calm}
    assert phases >= {"bidding", "discard", "play"}


def test_level_names_with_budgets() -> None:
    assert parse_level("expert") == LevelSpec("expert")
    assert parse_level(" Expert@W200 ") == LevelSpec("expert", 200)
    assert parse_level("expert-v1@w50/b400") == LevelSpec("expert-v1", 50, 400)
    assert parse_level("expert-noinf@w7").name == "expert-noinf@w7"
    bot = make_bot("expert@w200/b800", seed=1)
    assert isinstance(bot, ExpertBot)
    assert (bot.worlds, bot.bid_worlds, bot.kernel, bot.inference) == (200, 800, True, True)
    assert bot.level == "expert@w200/b800"
    v1 = make_bot("expert-v1@w30", seed=1)
    assert isinstance(v1, ExpertBot) and (v1.worlds, v1.kernel) == (30, False)
    assert isinstance(make_bot("expert", seed=1), ExpertBot)
    assert make_bot("expert", seed=1).worlds is None  # type: ignore[attr-defined]
    assert parse_level("expert@w100/p2") == LevelSpec("expert", 100, prior=2.0)
    assert parse_level("expert@w100/b400/p0.5").name == "expert@w100/b400/p0.5"
    assert parse_level("expert@p2") == LevelSpec("expert", prior=2.0)
    prior = make_bot("expert@w50/p1.5", seed=1)
    assert isinstance(prior, ExpertBot) and (prior.worlds, prior.prior) == (50, 1.5)
    assert prior.level == "expert@w50/p1.5"
    assert make_bot("expert@p2", seed=1).level == "expert@p2"
    assert parse_bot_specs(["club,EXPERT@w100", "expert@w100/b400"]) == [
        "club",
        "expert@w100",
        "expert@w100/b400",
    ]


@pytest.mark.parametrize(
    "level",
    [
        "expert",
        "expert-noinf@w7",
        "expert-v1@w50/b400",
        "expert@w100/b400/p0.5",
        "expert@p2",
        "expert@la",
        "expert@w100/p1/la/e6",
        "expert@w100/l/e6/d0.3/t3",
        "expert@d0.3/t4",
        "expert@w12/e7",
        "expert@w100/t0/c4",
        "expert@c3",
        "expert@s1",
        "expert@w400/t4/s0.5",
    ],
)
def test_a_bot_is_named_as_its_level_reads(level: str) -> None:
    """The bot's name is the level's spelling (``LevelSpec.name``), option by option, so that
    an arena log's names make the same bots again."""
    assert make_bot(level, seed=1).level == parse_level(level).name == level


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("expert@200", "unknown budget '200'"),
        ("expert@w", "unknown budget 'w'"),
        ("expert@t400ms", "unknown budget 't400ms'"),
        ("expert@w100/x3", "unknown budget 'w100/x3'"),
        ("expert@w100p2", "unknown budget 'w100p2'"),
        ("expert@w100/p", "unknown budget 'w100/p'"),
        ("expert@w100/s", "unknown budget 'w100/s'"),
        ("expert@/p2", "unknown budget '/p2'"),
        ("expert@w0", "at least one world"),
        ("club@w200", "does not search"),
        ("grandmaster@w200", "unknown level"),
    ],
)
def test_an_unknown_budget_spelling_is_a_clear_error(name: str, says: str) -> None:
    with pytest.raises(UnknownLevelError, match=says):
        make_bot(name, seed=1)
    with pytest.raises(ArenaError, match="unknown bot"):
        parse_bot_specs([name])


def test_level_names_with_an_exact_endgame() -> None:
    assert parse_level("expert@w100/e6") == LevelSpec("expert", 100, endgame=6)
    assert parse_level("expert@e7") == LevelSpec("expert", endgame=7)
    assert parse_level("expert@w100/p1/la/e6").name == "expert@w100/p1/la/e6"
    bot = make_bot("expert@w50/l/e6", seed=1)
    assert isinstance(bot, ExpertBot) and (bot.worlds, bot.endgame) == (50, 6)
    assert bot.level == "expert@w50/l/e6"
    assert make_bot("expert@e6", seed=1).level == "expert@e6"
    bad_names = (
        ("expert@e0", "1 to 8 tricks"),
        ("expert@w100/e9", "1 to 8 tricks"),
        ("expert@w100e6", "unknown budget"),
        ("expert@/e6", "unknown budget"),
    )
    for bad, says in bad_names:
        with pytest.raises(UnknownLevelError, match=says):
            make_bot(bad, seed=1)


def test_the_exact_endgame_starts_at_the_levels_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``/e6`` the card's search solves every world exactly once the hands hold 6 cards,
    where the plain level still plays them out (it solves from 5); at 7 cards neither does."""
    from oudler import kernel as K

    calls: list[bool] = []
    real = K.card_values

    def spy(
        base: K.Position, rows: object, cands: object, sc: K.Scoring, exact: bool, tail: int = 0
    ) -> object:
        calls.append(exact)
        return real(base, rows, cands, sc, exact, tail)  # type: ignore[arg-type]

    monkeypatch.setattr(K, "card_values", spy)
    club = make_bot("club", seed=3)
    seen = set()
    for seed in range(40):
        deal = Deal.from_seed(seed, seed % 4)
        while not deal.is_over and len(seen) < 2:
            obs = deal.observation(deal.to_move)
            size = obs.hand.bit_count()
            if obs.phase.value == "play" and size in (6, 7) and obs.legal.cards.bit_count() > 1:
                for level, solves in (("expert@w12/e6", size == 6), ("expert@w12", False)):
                    calls.clear()
                    make_bot(level, seed=1).act(obs)
                    assert calls and all(x is solves for x in calls), (level, size)
                seen.add(size)
            deal.act(club.act(obs), deal.to_move)
        if len(seen) == 2:
            break
    assert seen == {6, 7}


def test_level_names_with_the_discard_as_evidence() -> None:
    assert parse_level("expert@w100/d0.3") == LevelSpec("expert", 100, discard=0.3)
    assert parse_level("expert@w100/e7/d0.3").name == "expert@w100/e7/d0.3"
    bot = make_bot("expert@w40/d0.3", seed=1)
    assert isinstance(bot, ExpertBot) and bot.discard_evidence == 0.3
    assert bot.level == "expert@w40/d0.3"
    assert bot._budget(0.0, 400).discard_evidence == 0.3
    assert make_bot("expert", seed=1)._budget(0.0, 400).discard_evidence == 0.0  # type: ignore[attr-defined]
    with pytest.raises(UnknownLevelError, match="needs the kernel"):
        make_bot("expert-v1@w40/d0.3", seed=1)


def test_playouts_with_an_exact_tail() -> None:
    """``kernel.card_values(..., tail)``: a tail at least as long as the tricks left is the exact
    solve; a tail of one trick is the plain playout (the last trick is forced); a tail of 3
    changes some values. Level option ``/tN``."""
    import random

    from oudler import kernel as K
    from oudler.core import cards as C

    rng = random.Random(11)
    differ = 0
    for _ in range(30):
        deck = list(range(78))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[18 * s : 18 * s + 18]) for s in range(4)]
        decl = rng.randrange(4)
        p = K.position(hands, leader=rng.randrange(4), extra=sum(1 << c for c in deck[72:]))
        for _ in range(rng.randrange(36, 60)):
            seat = K.to_move(p)
            hand = K.join(int(p.H[2 * seat]), int(p.H[2 * seat + 1]))
            K.play(p, rng.choice(C.cards_of(K.legal(hand, int(p.S[13]), int(p.S[14])))), decl)
        seat = K.to_move(p)
        hs = [K.join(int(p.H[2 * s]), int(p.H[2 * s + 1])) for s in range(4)]
        rows = K.world_rows([(hs, K.join(int(p.H[10]), int(p.H[11])))])
        legal = C.cards_of(K.legal(hs[seat], int(p.S[13]), int(p.S[14])))
        sc = K.Scoring(decl, 1, False, 0)
        left = 18 - int(p.S[6])
        plain = K.card_values(p, rows, legal, sc, False)
        assert (
            K.card_values(p, rows, legal, sc, False, left)
            == K.card_values(p, rows, legal, sc, True)
        ).all()
        assert (K.card_values(p, rows, legal, sc, False, 1) == plain).all()
        three = K.card_values(p, rows, legal, sc, False, 3)
        differ += int((three != plain).any())
    assert differ > 0
    bot = make_bot("expert@w20/t3", seed=1)
    assert isinstance(bot, ExpertBot) and bot._card_budget(0.0).playout_tail == 3
    assert parse_level("expert@w100/t4") == LevelSpec("expert", 100, tail=4)


def test_the_experts_playout_tail_by_default_and_by_level(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``PLAYOUT_TAIL``: the kernel's experts' default tail (``/tN`` sets another; ``/t0``
    none); the pure-Python search has none. A level's name says a tail only when the level
    asked for one. (The default is set to 3 here, whatever it is, to see it used.)"""
    import oudler.bots.expert.bot as expert_bot

    monkeypatch.setattr(expert_bot, "PLAYOUT_TAIL", 3)
    for level, tail in (
        ("expert", 3),
        ("expert@w100", 3),
        ("expert-noinf@w100", 3),
        ("expert@w100/t0", 0),
        ("expert@t5", 5),
        ("expert@w100/t4", 4),
        ("expert-v1@w100", 0),
    ):
        bot = make_bot(level, seed=1)
        assert isinstance(bot, ExpertBot)
        assert bot._card_budget(0.0).playout_tail == tail, level
        assert bot.level == level
        assert parse_level(level).name == level
    assert parse_level("expert@w100/t0") == LevelSpec("expert", 100, tail=0)
    assert parse_level("expert@w100").tail is None
    with pytest.raises(UnknownLevelError, match="0 to 8 tricks"):
        parse_level("expert@w100/t9")
    with pytest.raises(UnknownLevelError, match="need the kernel"):
        parse_level("expert-v1@w100/t4")
    with pytest.raises(UnknownLevelError, match="need the kernel"):
        parse_level("expert-v1@w100/c4")
    calls = make_bot("expert@w40/c4", seed=1)
    assert isinstance(calls, ExpertBot)
    assert calls._budget(0.0, 1450, bid=True).contract_tail == 4
    assert make_bot("expert", seed=1)._budget(0.0, 1450).contract_tail == 0  # type: ignore[attr-defined]
