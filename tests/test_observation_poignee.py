"""RULES.md §11: being asked about a poignée is private (it proves 10+ trumps)."""

from __future__ import annotations

from oudler.core import Contract, Deal, Phase


def _deal_at_poignee_question() -> Deal:
    for seed in range(5000):
        deal = Deal.from_seed(seed, 0)
        if deal.is_over:
            continue
        deal.bid(Contract.GARDE_SANS)
        for _ in range(3):
            deal.bid(None)
        deal.announce_chelem(False)
        if deal.phase is Phase.POIGNEE:
            return deal
    raise AssertionError("no seeded deal asks its first player about a poignée")


def test_poignee_question_is_seen_only_by_the_seat_asked() -> None:
    deal = _deal_at_poignee_question()
    asked = deal.to_move
    assert deal.observation(asked).phase is Phase.POIGNEE
    assert deal.observation(asked).legal.poignee_sizes
    for seat in range(4):
        if seat == asked:
            continue
        obs = deal.observation(seat)
        assert obs.phase is Phase.PLAY
        assert obs.to_move == asked
        assert "poignee" not in obs.to_dict()["phase"]
    # After the answer the others see the same thing as before: still a card due from that seat.
    before = deal.observation((asked + 1) & 3).to_dict()
    deal.declare_poignee([])
    assert deal.observation((asked + 1) & 3).to_dict() == before
