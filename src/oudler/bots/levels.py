"""The levels a bot can be made at, and how a level's name with its options is read."""

from __future__ import annotations

import re
from dataclasses import dataclass

LEVELS = ("random", "novice", "club", "expert", "expert-v1", "expert-noinf", "policy")
"""Every level a bot can be made at. ``expert-v1`` is the expert as it was before the compiled
kernel (the same search in pure Python, fewer worlds), kept to measure the kernel's gain;
``expert-noinf`` is the expert without inference from the other seats' calls and cards (worlds
uniform among those fitting the hard facts), kept to measure what inference adds. ``policy`` is
a network trained on the expert's own decisions, without search (``bots.policy``;
``policy@PATH`` reads its weights from PATH)."""

PLAYER_LEVELS = LEVELS[:4]
"""The levels offered to people at the table."""


SEARCH_LEVELS = ("expert", "expert-v1", "expert-noinf")
"""The levels that search, and so take a fixed-work budget (``expert@w200``)."""


MAX_ENDGAME = 8
"""The deepest exact endgame a level may ask (``/eN``): the kernel's solver takes about 1 ms a
world at 5 tricks, 7 at 6 and 11 at 7 (medians, every legal card of random positions), and
grows fast beyond."""


class UnknownLevelError(ValueError):
    """A level name that is not one of ``LEVELS``, or a level that is not available yet."""


_BUDGET = re.compile(
    r"(?:w(?P<worlds>[0-9]+)(?:/b(?P<bid>[0-9]+))?)?(?:(?:^|(?<=[0-9])/)p(?P<prior>[0-9]+(?:\.[0-9]+)?))?(?:(?:^|(?<=[0-9])/)(?P<learned>la?))?(?:(?:^|(?<=[0-9la])/)e(?P<endgame>[0-9]+))?(?:(?:^|(?<=[0-9la])/)d(?P<discard>[0-9]+(?:\.[0-9]+)?))?(?:(?:^|(?<=[0-9la])/)t(?P<tail>[0-9]+))?(?:(?:^|(?<=[0-9la])/)c(?P<ctail>[0-9]+))?(?:(?:^|(?<=[0-9la])/)s(?P<stop>[0-9]+(?:\.[0-9]+)?))?"
)


@dataclass(frozen=True)
class LevelSpec:
    """A level name read: the level, and for a searching level a fixed-work budget.

    ``expert@w200``: 200 sampled worlds for every decision (cards, bids, the discard, the
    chelem; half for the poignée) instead of a wall-time budget, so the bot plays the same
    whatever the machine's load. ``expert@w200/b800``: 200 worlds a card, 800 for a bid or a
    discard. The exact endgame solver's depth is fixed by the level (5 tricks on the kernel,
    3 in pure Python), never by time.

    ``/pX`` (``expert@w100/p2``, or ``expert@p2`` at the wall-time budget): the learned policy
    as a prior on the card chosen, X points of the seat's score per unit of the policy's log
    probability (``ExpertBot``'s ``prior``).

    ``/l`` (``expert@w100/l``, ``expert@l``): the card's search plays its playouts with the
    learned playout policy (``ExpertBot``'s ``learned``; the kernel's levels only); ``/la``:
    every decision's playouts (bids, discard, chelem and poignée too).

    ``/eN`` (``expert@w100/e6``, ``expert@e6``): the card's search solves exactly (the kernel's
    solver, every world) once the hands hold N cards or fewer, instead of the level's 5 (3 for
    ``expert-v1``); ``ExpertBot``'s ``endgame``.

    ``/dX`` (``expert@w100/d0.3``): a defender's inference reads the declarer's discard once
    the dog was shown, at weight X (``ExpertBot``'s ``discard_evidence``; ``/d0``: not at
    all).

    ``/tN`` (``expert@w100/t3``): the card search's playouts solve their last N tricks exactly
    (0 to ``MAX_ENDGAME``; ``ExpertBot``'s ``playout_tail``, whose default is 4 on the kernel:
    ``/t0`` is the expert before it, playouts played to the end by the policy).

    ``/cN`` (``expert@w100/c4``): the same for the playouts of the calls and the discard
    (``ExpertBot``'s ``contract_tail``; 0, none, by default).

    ``/sX`` (``expert@s1``, ``expert@w400/s1``): every search (cards, calls, discard) stops
    before its budget once no option left can beat the best by X points of the seat's score
    beyond the noise of the worlds played (``ExpertBot``'s ``stop``, whose default is 2 on the
    kernel since 0.10.0: ``/s0`` is the expert before it, every search run to its budget)."""

    level: str
    worlds: int | None = None
    bid_worlds: int | None = None
    weights: str | None = None
    """``policy@PATH``: the policy's weights file (the packaged one when None)."""
    prior: float | None = None
    learned: str = ""
    """"l": the learned playouts in the card's search, "la": in every search, "": none."""
    endgame: int | None = None
    """The exact solve's depth in tricks (None: the level's own)."""
    discard: float | None = None
    """The weight of the declarer's discard as evidence (None: the level's own)."""
    tail: int | None = None
    """The tricks the card search's playouts solve exactly at their end (None: the level's
    own)."""
    contract_tail: int | None = None
    """The same for the calls' and the discard's playouts (None: the level's own)."""
    stop: float | None = None
    """The early stop's margin in points (None: the level's own; 0: none, every search runs
    to its budget)."""

    @property
    def name(self) -> str:
        if self.weights is not None:
            return f"{self.level}@{self.weights}"
        parts = []
        if self.worlds is not None:
            parts.append(f"w{self.worlds}")
            if self.bid_worlds is not None:
                parts.append(f"b{self.bid_worlds}")
        if self.prior is not None:
            parts.append(f"p{self.prior:g}")
        if self.learned:
            parts.append(self.learned)
        if self.endgame is not None:
            parts.append(f"e{self.endgame}")
        if self.discard is not None:
            parts.append(f"d{self.discard:g}")
        if self.tail is not None:
            parts.append(f"t{self.tail}")
        if self.contract_tail is not None:
            parts.append(f"c{self.contract_tail}")
        if self.stop is not None:
            parts.append(f"s{self.stop:g}")
        return f"{self.level}@{'/'.join(parts)}" if parts else self.level


def parse_level(level: str) -> LevelSpec:
    """``level`` read as a ``LevelSpec``; an unknown level or budget spelling is an
    ``UnknownLevelError`` saying what is expected."""
    base, at, budget = level.strip().partition("@")
    base = base.lower()
    if base == "policy" and at:
        if not budget:
            raise UnknownLevelError("policy@PATH needs the path of a weights file")
        return LevelSpec(base, weights=budget)
    budget = budget.lower()
    if base not in LEVELS:
        raise UnknownLevelError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")
    if not at:
        return LevelSpec(base)
    if base not in SEARCH_LEVELS:
        raise UnknownLevelError(
            f"level {base!r} does not search, so it takes no budget ({level!r}); "
            f"only {', '.join(SEARCH_LEVELS)} do"
        )
    m = _BUDGET.fullmatch(budget)
    if m is None or not budget:
        raise UnknownLevelError(
            f"unknown budget {budget!r} in {level!r}: write {base}@wN (N worlds a decision) "
            f"or {base}@wN/bM (M worlds a bid or discard), as in {base}@w200, and /pX for "
            f"the policy's prior ({base}@w200/p2, {base}@p2), /l or /la for the learned "
            f"playouts, /eN for an exact endgame of N tricks ({base}@w200/e6), /dX for the discard "
            f"as evidence ({base}@w200/d0.3), /tN for playouts whose last N tricks are solved "
            f"exactly ({base}@w200/t0: none), /cN the same for the calls and the discard, /sX to "
            f"stop a search once no option can beat the best by X points ({base}@s1; /s0: "
            f"never)"
        )
    worlds = int(m["worlds"]) if m["worlds"] is not None else None
    bid = int(m["bid"]) if m["bid"] is not None else None
    prior = float(m["prior"]) if m["prior"] is not None else None
    learned = m["learned"] or ""
    endgame = int(m["endgame"]) if m["endgame"] is not None else None
    discard = float(m["discard"]) if m["discard"] is not None else None
    tail = int(m["tail"]) if m["tail"] is not None else None
    if tail is not None and not 0 <= tail <= MAX_ENDGAME:
        raise UnknownLevelError(
            f"playouts solved exactly over 0 to {MAX_ENDGAME} tricks, not {tail} ({level!r})"
        )
    ctail = int(m["ctail"]) if m["ctail"] is not None else None
    if ctail is not None and not 0 <= ctail <= MAX_ENDGAME:
        raise UnknownLevelError(
            f"calls' playouts solved exactly over 0 to {MAX_ENDGAME} tricks, not {ctail} "
            f"({level!r})"
        )
    stop = float(m["stop"]) if m["stop"] is not None else None
    if (tail or ctail) and base == "expert-v1":
        raise UnknownLevelError(f"exact playout ends need the kernel: not {base} ({level!r})")
    if discard is not None and base == "expert-v1":
        raise UnknownLevelError(f"the discard as evidence needs the kernel: not {base} ({level!r})")
    if endgame is not None and not 1 <= endgame <= MAX_ENDGAME:
        raise UnknownLevelError(
            f"an exact endgame of 1 to {MAX_ENDGAME} tricks, not {endgame} ({level!r})"
        )
    if learned and base == "expert-v1":
        raise UnknownLevelError(f"the learned playouts need the kernel: not {base} ({level!r})")
    if (worlds is not None and worlds < 1) or (bid is not None and bid < 1):
        raise UnknownLevelError(f"a budget needs at least one world ({level!r})")
    return LevelSpec(
        base,
        worlds,
        bid,
        prior=prior,
        learned=learned,
        endgame=endgame,
        discard=discard,
        tail=tail,
        contract_tail=ctail,
        stop=stop,
    )
