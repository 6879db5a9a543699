"""Duplicate tarot (docs/duplicate.md): the same boards for everyone, scored by matchpoints.

Pure parts only: a series' boards drawn from a secret, a match of fixed boards, and the
matchpoints of one board. Storing, ranking and the computer players are in ``oudler.tables``.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

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


def points_by_score(scores: Iterable[int]) -> dict[int, int]:
    """The matchpoints of each score on one board played with these scores: 2 for every other
    player whose score it beats, 1 for every tie (2 * below + ties - 1). In one sort, so a board
    of 10,000 players costs milliseconds, not a comparison of every pair."""
    counts = Counter(scores)
    out: dict[int, int] = {}
    below = 0
    for score in sorted(counts):
        out[score] = 2 * below + counts[score] - 1
        below += counts[score]
    return out


def matchpoints(scores: Sequence[int]) -> list[int]:
    """Each player's matchpoints on one board: 2 for every other player whose score they beat,
    1 for every tie. Over n players they sum to n(n - 1)."""
    table = points_by_score(scores)
    return [table[s] for s in scores]


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


@dataclass(frozen=True)
class Standing:
    """One ranked line of a series: a person who finished it."""

    player: str
    rank: int  # from 1; equal percentages (to 0.01) share a rank
    percent: float  # the series result, rounded to 0.01
    scores: tuple[int, ...]  # each board's score


def standings(results: Iterable[tuple[str, int, int, bool]], boards: int) -> list[Standing]:
    """The ranking of a series from its board results (player, board, score, entry finished):
    every result counts in the matchpoints, finished entries only are ranked, best first (by
    percentage, then by player id so that the order is stable)."""
    rows = list(results)
    by_board: list[list[int]] = [[] for _ in range(boards)]
    for _, board, score, _ in rows:
        by_board[board].append(score)
    tables = [points_by_score(b) for b in by_board]
    players = [len(b) for b in by_board]
    people: dict[str, tuple[list[int], list[float]]] = {}
    for who, board, score, finished in rows:
        if not finished:
            continue
        scores, board_percents = people.setdefault(who, ([0] * boards, [0.0] * boards))
        scores[board] = score
        board_percents[board] = board_percent(tables[board][score], players[board])
    lines = sorted(
        ((round(series_percent(bp), 2), who, sc) for who, (sc, bp) in people.items()),
        key=lambda line: (-line[0], line[1]),
    )
    out: list[Standing] = []
    for i, (percent, who, sc) in enumerate(lines):
        rank = out[-1].rank if out and out[-1].percent == percent else i + 1
        out.append(Standing(who, rank, percent, tuple(sc)))
    return out
