"""The lab's oracles (issue 31, part 2): the expert searching on the real deal, for the ceilings.

They see hidden cards, so they must stay instruments of the lab (RULES.md §11): no level, no
``make_bot``, no web table.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oudler import kernel as K
from oudler.bots import UnknownLevelError, make_bot, parse_level
from oudler.bots.expert import contract as contract_mod
from oudler.bots.expert.sampler import World, WorldSampler, facts
from oudler.core import Contract, Deal, Phase
from oudler.lab.arena import ArenaConfig, ArenaError, parse_bot_specs, play_table, run_arena
from oudler.lab.oracle import (
    CALLS,
    CARDS,
    OracleBot,
    OracleError,
    TrueWorldSampler,
    make_oracle,
    oracle_name,
    true_world,
)
from oudler.tables.computer import LEVELS as TABLE_LEVELS


def _club_deal(seed: int, contract: Contract | None = None) -> list[tuple[Deal, int]]:
    """Every position of seed ``seed``'s deal played by club (``contract``: imposed on seat
    0), each as (a copy of the deal, the seat to move)."""
    deal = Deal.from_seed(seed, seed % 4)
    if contract is not None:
        for _ in range(4):
            deal.bid(contract if deal.to_move == 0 else None)
    bot = make_bot("club", seed=seed)
    out = []
    while not deal.is_over:
        out.append((deal.copy(), deal.to_move))
        deal.act(bot.act(deal.observation(deal.to_move)), deal.to_move)
    return out


@pytest.mark.parametrize(
    ("seed", "contract"),
    [
        (1, None),
        (2, Contract.GARDE_CONTRE),
        (3, Contract.GARDE),
        (4, Contract.GARDE_SANS),
        (5, Contract.PRISE),
    ],
)
def test_the_true_world_is_the_deal_and_fits_every_fact_its_seat_knows(
    seed: int, contract: Contract | None
) -> None:
    positions = _club_deal(seed, contract)
    assert len(positions) > 72
    for deal, seat in positions:
        obs = deal.observation(seat)
        f = facts(obs)
        w = true_world(deal, f)  # checks hand sizes, known cards and voids: raises if not
        assert w.hands == tuple(deal.hands)
        if deal.phase is Phase.BIDDING:
            assert w.pile == deal.dog
        elif deal.phase is Phase.DISCARD:
            assert w.pile == 0  # the dog is in the declarer's hand
        else:
            assert deal.contract is not None
            assert w.pile == (deal.discard if deal.contract.dog_shown else deal.dog)


def test_a_deal_that_is_not_the_seats_is_refused() -> None:
    (deal, seat), (other, _) = _club_deal(6)[0], _club_deal(7)[0]
    with pytest.raises(OracleError):
        true_world(other, facts(deal.observation(seat)))
    bot = make_oracle("oracle-calls@w4", seed=1)
    with pytest.raises(OracleError, match="none was given"):
        bot.act(deal.observation(seat))
    bot.see_deal(other)
    with pytest.raises(OracleError, match="another deal"):
        bot.act(deal.observation(seat))


def _position(phase: Phase, seed: int = 11) -> tuple[Deal, int]:
    """A position of ``phase`` (the dealer's first call; a card with 10 tricks played)."""
    for deal, seat in _club_deal(seed, None if phase is Phase.BIDDING else Contract.GARDE):
        if deal.phase is phase and (
            phase is not Phase.PLAY
            or (len(deal.tricks) >= 10 and deal.legal_cards().bit_count() > 2)
        ):
            return deal, seat
    raise AssertionError(f"no {phase.value} position")


def test_the_card_oracle_searches_the_real_world_only(monkeypatch: pytest.MonkeyPatch) -> None:
    deal, seat = _position(Phase.PLAY)
    obs = deal.observation(seat)
    real = K.world_rows([(tuple(deal.hands), true_world(deal, facts(obs)).pile)])
    seen: list[Any] = []
    card_values = K.card_values

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(args[1].copy())
        return card_values(*args, **kwargs)

    monkeypatch.setattr(K, "card_values", spy)
    bot = make_oracle("oracle-cards@w16", seed=3)
    bot.see_deal(deal)
    bot.begin_deal(seat)
    deal.act(bot.act(obs), seat)  # a legal card
    assert seen and all((rows == real).all() for rows in seen)
    assert sum(rows.shape[0] for rows in seen) >= 16  # the expert's budget, world for world
    # its calls are the expert's: sampled, not the real world
    other, who = _position(Phase.BIDDING)
    assert type(bot.worlds_for(other.observation(who))) is WorldSampler


def test_the_calls_oracle_values_calls_and_discard_on_the_real_world(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[Phase, list[World]]] = []
    draw = contract_mod.draw

    def spy(sampler: WorldSampler, rng: random.Random, n: int, budget: Any) -> list[World]:
        worlds = draw(sampler, rng, n, budget)
        seen.append((sampler.facts.phase, worlds))
        return worlds

    monkeypatch.setattr(contract_mod, "draw", spy)
    for phase in (Phase.BIDDING, Phase.DISCARD):
        deal, seat = _position(phase)
        obs = deal.observation(seat)
        real = true_world(deal, facts(obs))
        seen.clear()
        bot = make_oracle("oracle-calls@w16", seed=5)
        bot.see_deal(deal)
        bot.begin_deal(seat)
        deal.act(bot.act(obs), seat)  # a legal call or discard
        assert seen and all(p is phase and ws == [real] * len(ws) for p, ws in seen)
        assert sum(len(ws) for _, ws in seen) >= 16
    # its cards are the expert's
    other, who = _position(Phase.PLAY)
    assert type(bot.worlds_for(other.observation(who))) is WorldSampler


def test_one_real_world_values_every_option_as_many() -> None:
    """The playouts are deterministic: N copies of the real world give one value N times, so
    the expert's budget of N worlds chooses as one world does."""
    deal, seat = _position(Phase.PLAY)
    obs = deal.observation(seat)
    picks = []
    for worlds in (1, 16):
        bot = OracleBot(CARDS, seed=9, worlds=worlds)
        bot.see_deal(deal)
        bot.begin_deal(seat)
        action, opts = bot.decide(obs)
        assert opts is not None and opts.samples
        assert all(len(set(s)) == 1 for s in opts.samples if s)
        picks.append((action, [v.mean for v in opts.values]))
    assert picks[0] == picks[1]
    assert isinstance(bot.worlds_for(obs), TrueWorldSampler)


def test_both_oracles_play_a_whole_arena_deal_legally() -> None:
    config = ArenaConfig(tested=(CARDS + "@w8", CALLS + "@w8"), reference="expert@w8", seed=3)
    seats = ["oracle-cards@w8", "oracle-calls@w8", "expert@w8", "oracle-calls@w8"]
    table = play_table(config, 0, 1234, 2, seats)  # an illegal move would raise a BotError
    assert sum(table.scores) == 0 and len(table.times) > 18 * 4
    report = run_arena(
        ArenaConfig(tested=("oracle-cards@w4",), reference="expert@w4", deals=1, seed=8)
    )
    assert report["deals"] == 1 and report["bots"][0]["bot"] == "oracle-cards@w4"


def test_the_arena_reads_oracle_names_and_nothing_else_does(client: TestClient) -> None:
    assert parse_bot_specs(["Oracle-Cards@W16/t6,oracle-calls", "expert@w16"]) == [
        "oracle-cards@w16/t6",
        "oracle-calls",
        "expert@w16",
    ]
    assert oracle_name("oracle-calls@w100") == "oracle-calls@w100"
    assert make_oracle("oracle-cards@w100/t6", seed=0).level == "oracle-cards@w100/t6"
    with pytest.raises(ArenaError):
        parse_bot_specs(["oracle-hands@w16"])
    with pytest.raises(ArenaError):
        parse_bot_specs(["oracle-cards@q16"])
    for name in ("oracle-cards", "oracle-calls@w100", "oracle-cards@w16/t6"):
        # not a level: make_bot (the web tables' jobs, the bot protocol, the gym) refuses it
        with pytest.raises(UnknownLevelError):
            parse_level(name)
        with pytest.raises(UnknownLevelError):
            make_bot(name, seed=0)
        assert name not in TABLE_LEVELS
        r = client.post("/api/matches", json={"deals": 2, "level": name})
        assert r.status_code == 400, r.text
