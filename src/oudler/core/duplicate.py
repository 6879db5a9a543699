"""Duplicate tarot (docs/duplicate.md): the same boards for everyone, scored by matchpoints.

Pure parts only: a series' boards drawn from a secret, a match of fixed boards, and the
matchpoints of one board. Storing, ranking and the computer players are in ``oudler.tables``.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import random
from collections.abc import Iterator, Sequence

from oudler.core.deal import Deal
from oudler.core.errors import IllegalActionError
from oudler.core.match import Match
from oudler.core.terms import Contract

Board = tuple[int, int]
"""One board of a series: (dealer, deal seed)."""

Case = tuple[int, Contract]
"""An imposed-taker board's case: (declarer, contract); the bidding is not played."""

LONE_PERCENT = 50.0  # a board nobody else played yet: neither beaten nor beating anyone


def _hmac_int(secret: bytes, text: str) -> int:
    """63 bits of HMAC-SHA256(secret, text): seeds stored as signed 64-bit integers."""
    digest = hmac.new(secret, text.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def board_candidates(secret: bytes, key: str) -> Iterator[Board]:
    """The boards the series ``key`` draws from, in order, endless: a function of the server's
    secret and the key only (so every process makes the same ones, and nobody without the
    secret can). Seeds that deal a petit sec are skipped: such a deal is void before anyone
    acts, and a board is played once whatever happens."""
    for tried in itertools.count():
        value = _hmac_int(secret, f"oudler-board:{key}:{tried}")
        dealer, seed = value & 3, value >> 2
        if Deal.from_seed(seed, dealer).void is None:
            yield (dealer, seed)


def series_boards(secret: bytes, key: str, count: int) -> list[Board]:
    """The ``count`` boards of a free-bidding series ``key``: its first candidates."""
    return list(itertools.islice(board_candidates(secret, key), count))


def imposed_deal(board: Board, case: Case) -> Deal:
    """A board's deal at the start of the play of its case: the bidding skipped, the case's
    declarer to take the dog (Prise, Garde) or to answer the chelem question."""
    dealer, seed = board
    deal = Deal.from_seed(seed, dealer)
    deal.impose(*case)
    return deal


def series_bot_seed(secret: bytes, key: str) -> int:
    """The number every computer player's decision in the series is seeded from (with the
    board, the seat and the number of actions so far in the board)."""
    return _hmac_int(secret, f"oudler-bots:{key}")


class BoardMatch(Match):
    """A match of fixed boards, dealt in order. Unlike a free match, a board is played once
    whatever happens: a board where all four pass is over, scores 0 for everyone and counts.
    With ``cases`` (the imposed-taker form), each board starts after the bidding, with its
    case's declarer and contract (``Deal.impose``)."""

    def __init__(
        self, boards: Sequence[Board], seed: int = 0, cases: Sequence[Case] | None = None
    ) -> None:
        if not boards:
            raise IllegalActionError("a series has at least one board")
        if cases is not None and len(cases) != len(boards):
            raise IllegalActionError("an imposed-taker series has one case per board")
        self.cases = None if cases is None else list(cases)
        # Match.__init__ draws deals from its seed; a series' deals are its boards instead.
        self.boards = list(boards)
        self.length = len(self.boards)
        self.seed = seed
        self._rng = random.Random(seed)
        self.first_dealer = self.boards[0][0]
        self.deals: list[Deal] = []
        self._start(self.first_dealer)

    def _start(self, dealer: int) -> None:
        index = len(self.deals)
        if self.cases is not None:
            self.deals.append(imposed_deal(self.boards[index], self.cases[index]))
            return
        board_dealer, seed = self.boards[index]
        self.deals.append(Deal.from_seed(seed, board_dealer))

    @property
    def scored_deals(self) -> list[Deal]:
        return [d for d in self.deals if d.is_over]


def matchpoints(scores: Sequence[int]) -> list[int]:
    """Each player's matchpoints on one board: 2 for every other player whose score they beat,
    1 for every tie. Over n players they sum to n(n - 1)."""
    return [
        sum(2 if s > o else 1 if s == o else 0 for j, o in enumerate(scores) if j != i)
        for i, s in enumerate(scores)
    ]


def board_percent(points: int, players: int) -> float:
    """Matchpoints as a percentage of the most possible, 2(n - 1); a lone player gets 50."""
    if players <= 1:
        return LONE_PERCENT
    return 100.0 * points / (2 * (players - 1))


def percents(scores: Sequence[int]) -> list[float]:
    """Each player's percentage on one board."""
    return [board_percent(p, len(scores)) for p in matchpoints(scores)]


def series_percent(board_percents: Sequence[float]) -> float:
    """A series' result: the mean of its boards' percentages."""
    return sum(board_percents) / len(board_percents)
