"""A match of 2, 4 or 8 scored deals (RULES.md §10)."""

from __future__ import annotations

import random

from oudler.core.deal import Deal
from oudler.core.errors import IllegalActionError, NotationError

MATCH_LENGTHS = (2, 4, 8)


class Match:
    """Deals in turn, the deal passing to the right after every deal, void or not.

    The first dealer and each deal's seed come from the match seed, so a match is reproducible.
    Void deals (petit sec, all pass) are dealt again and do not count towards the length.
    """

    def __init__(self, length: int, seed: int, *, first_dealer: int | None = None) -> None:
        if length not in MATCH_LENGTHS:
            raise NotationError(f"a match is 2, 4 or 8 deals, not {length}")
        self.length = length
        self.seed = seed
        self._rng = random.Random(seed)
        self.first_dealer = self._rng.randrange(4) if first_dealer is None else first_dealer
        self.deals: list[Deal] = []
        self._start(self.first_dealer)

    def _start(self, dealer: int) -> None:
        self.deals.append(Deal.from_seed(self._rng.getrandbits(63), dealer))

    @property
    def current(self) -> Deal:
        return self.deals[-1]

    @property
    def scored_deals(self) -> list[Deal]:
        return [d for d in self.deals if d.is_over and d.void is None]

    @property
    def is_over(self) -> bool:
        return len(self.scored_deals) >= self.length

    @property
    def totals(self) -> list[int]:
        totals = [0, 0, 0, 0]
        for d in self.scored_deals:
            assert d.result is not None
            for i, s in enumerate(d.result.scores):
                totals[i] += s
        return totals

    def next_deal(self) -> Deal:
        """Deal the next deal once the current one is over (a void one is dealt again)."""
        if not self.current.is_over:
            raise IllegalActionError("the current deal is not over yet")
        if self.is_over:
            raise IllegalActionError("the match is over")
        self._start((self.current.dealer + 1) & 3)
        return self.current

    def advance(self) -> Deal:
        """Skip over void deals: deal again until the current deal needs a decision or the
        match is over."""
        while self.current.is_over and not self.is_over:
            self.next_deal()
            if self.current.void is None:
                break
        return self.current

    def winners(self) -> list[int]:
        """Seats with the highest total (ties share the win)."""
        t = self.totals
        best = max(t)
        return [i for i in range(4) if t[i] == best]
