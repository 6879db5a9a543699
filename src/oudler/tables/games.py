"""Matches of the web table: replayed from the store, cached in memory, one lock per match.

Every change follows the same path: take the match's lock, load it (from the cache, or by replaying
its stored actions through the engine), check the version and whose turn it is, apply the action to
the engine (which checks it and changes nothing when it is illegal), store it (committed), and only
then answer. If storing fails, the cached match is dropped so that memory never runs ahead of the
database.

One request is one step of the match and moves its ``version`` on by exactly one. A computer
player asked about a poignée answers and plays its first card in one step, stored in one
transaction: being asked proves 10+ trumps (RULES.md §11), so neither an extra step nor an extra
version may show that it happened, even when it declined. For the same reason, at a table with
people a person's own poignée answer moves the version on by none and does not restart the turn
clock: it is part of their first card's step.

A computer player's step is the exception to holding the lock throughout: its decision is a job on
the queue (``oudler.tables.jobs``), awaited with the lock released, and stored only if the log is
still where it was when the job was asked for (``Tables.step``).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime as dt
import hashlib
import logging
import secrets
import threading
import time
import unicodedata
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from starlette.concurrency import run_in_threadpool

from oudler.core import (
    MATCH_LENGTHS,
    Deal,
    IllegalActionError,
    Match,
    NotationError,
    OudlerError,
    Phase,
)
from oudler.core import cards as C
from oudler.core.deal import bid_name
from oudler.tables.clock import Clock
from oudler.tables.computer import (
    LEVELS,
    ComputerPlayers,
    DecisionTimeout,
    bot_seed,
    poignee_rest,
    think,
)
from oudler.tables.jobs import Job, Outcome
from oudler.tables.live import Driver, LocalBus
from oudler.tables.series_rows import SeriesLink, SeriesStore
from oudler.tables.store import (
    LEFT,
    NAME_LENGTH,
    OPEN,
    PERSON,
    POIGNEE,
    READY,
    DuplicateActionError,
    MatchInfo,
    Store,
    StoredAction,
    counts_in_version,
    poignee_steps,
    shown_name,
)
from oudler.tables.view import (
    SEAT_NAMES,
    build_view,
    players_of,
    seats_view,
    status_of,
    summary_of,
)

log = logging.getLogger("oudler.web")

MAX_SEED = 2**63  # seeds are stored as signed 64-bit integers
NEW_SEED = 2**53  # fresh match seeds stay exact in JavaScript numbers

PHASE_KIND = {
    Phase.BIDDING: "bid",
    Phase.DISCARD: "discard",
    Phase.CHELEM: "chelem",
    Phase.POIGNEE: "poignee",
    Phase.PLAY: "card",
}
NEXT_DEAL = "next_deal"
LEARNING_SEEDS = 1 << 40  # seed numbers of learning matches' positions: apart from action numbers
UNDO = "undo"  # the person takes back their last action of the deal: {"seq": its number}
NEW_MATCH_LIMIT = (20, 600.0)  # new matches per player, per that many seconds
STEP_WAIT = 10.0  # seconds a step request awaits a decision before answering 202 (long poll)


class WebError(Exception):
    """An error answered to the browser: ``status``, a plain-words message and, for refusals a
    program may want to tell apart, a stable ``code``."""

    status = 400

    def __init__(
        self, message: str, view: dict[str, Any] | None = None, code: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.view = view
        self.code = code


class BadRequest(WebError):
    status = 400


class MatchNotFound(WebError):
    status = 404


class Conflict(WebError):
    """Stale version, or not the person's (or a computer player's) turn: carries the view."""

    status = 409


class Unprocessable(WebError):
    status = 422


class Unavailable(WebError):
    status = 503


class TooManyRequests(WebError):
    status = 429


class Forbidden(WebError):
    status = 403


SEAT_KINDS = ("me", "computer", "person")
TURN_TIMES = (30, 60, 120)  # seconds a person may take per action at a table with friends
INVITE_PATH = "/join/"
INVITE_BYTES = 24  # a token of 32 URL-safe characters: 192 random bits


def clean_name(text: str) -> str:
    """A person's name as shown at the table: spaces collapsed, 1 to ``NAME_LENGTH``
    characters, no control or formatting characters (``BadRequest`` otherwise)."""
    name = " ".join(text.split())
    if not name or len(name) > NAME_LENGTH:
        raise BadRequest(f"a name is 1 to {NAME_LENGTH} characters")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise BadRequest("a name may not hold control characters")
    return name


def invite_hash(token: str) -> str:
    """What is stored of an invitation's token: its SHA-256, so that reading the database does
    not give anyone a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


Row = tuple[int | None, str, Any]
"""A stored action: (seat, kind, action in notation)."""

Away = Callable[[int, float], float]
"""Seconds the person at a seat has had no page open on the table, given when they sat (a
``time.time()``): ``TableHub.absent_for`` of the match."""


Maker = tuple[int, int, bool]
"""Who made an action: (seat, how many people had left that seat before, taken by a computer
player for a person out of time)."""


@dataclass
class DealBy:
    """The makers of a deal's calls (in order) and of its shown poignées (by seat)."""

    calls: list[Maker] = field(default_factory=list)
    poignees: dict[int, Maker] = field(default_factory=dict)


def note_maker(game: Game, row: Row, stand_in: bool) -> None:
    """Keep who made a stored row that a page names someone for: a call, a poignée shown, or a
    seat vacated. Only at a table with people (elsewhere a seat never changes hands)."""
    seat, kind, action = row
    if not game.info.shared or seat is None:
        return
    if kind == LEFT:
        game.left[seat].append(action.get("name") if isinstance(action, dict) else None)
        return
    while len(game.by) < len(game.match.deals):
        game.by.append(DealBy())
    maker = (seat, len(game.left[seat]), stand_in)
    if kind == "bid":
        game.by[-1].calls.append(maker)
    elif kind == POIGNEE and action:
        game.by[-1].poignees[seat] = maker


def maker_view(game: Game, maker: Maker) -> dict[str, Any]:
    """Who made an action, in the view and the record: the seat's occupant now (``"now":
    true``, as in ``players``), a person who has left it since (by the name they had), or
    a computer player that acted for a person out of time (``"stand_in"``)."""
    seat, before, stand_in = maker
    if stand_in:
        return {"kind": "stand_in", "level": game.info.level, "now": False}
    names = game.left[seat]
    if before < len(names):
        return {"kind": "person", "now": False} | shown_name(names[before])
    now = players_of(game.info)[seat]
    return {k: v for k, v in now.items() if k != "seat"} | {"now": True}


def by_view(
    game: Game, number: int, calls: int | None = None, shown: Iterable[str] = ()
) -> dict[str, Any]:
    """Who made deal ``number``'s (from 1) calls, its contract (``declarer``: the maker of
    the call that won the bidding) and its shown poignées. For a deal in play, only the first
    ``calls`` calls and the poignées in ``shown`` (what the viewer's observation shows)."""
    deal = game.match.deals[number - 1]
    by = game.by[number - 1] if number <= len(game.by) else DealBy()
    made = by.calls if calls is None else by.calls[:calls]
    declarer = None
    if deal.contract is not None and deal.contract in deal.bids:
        i = deal.bids.index(deal.contract)
        declarer = maker_view(game, made[i]) if i < len(made) else None
    keep = None if deal.is_over else {int(s) for s in shown}
    return {
        "calls": [maker_view(game, m) for m in made],
        "declarer": declarer,
        "poignees": {
            str(s): maker_view(game, m)
            for s, m in sorted(by.poignees.items())
            if keep is None or s in keep
        },
    }


@dataclass
class Game:
    info: MatchInfo
    match: Match
    seq: int  # number of stored actions: the next one's sequence number
    version: int  # number of steps, as the browser sees them (``counts_in_version``)
    # The current deal's actions that stand (taken-back ones left out), to rebuild it on an undo.
    deal_log: list[StoredAction] = field(default_factory=list)
    undos: int = 0  # undo rows in the match
    # At a table with people: the seats whose person closed the finished deal's breakdown
    # (``READY`` rows since the last next deal).
    ready: set[int] = field(default_factory=set)
    last_time: dt.datetime | None = None  # when the last stored action was stored (UTC)
    series: SeriesLink | None = None  # a duplicate series' match (docs/duplicate.md)
    # At a table with people, who made each deal's calls and shown poignées (``DealBy``), and
    # per seat the names of the people who left it, in order (``LEFT`` rows): what the view
    # names each action's maker by (``by_view``), so that a seat changing hands keeps them.
    by: list[DealBy] = field(default_factory=list)
    left: tuple[list[str | None], ...] = field(default_factory=lambda: ([], [], [], []))

    def seed_index(self, seq: int) -> int:
        """The number a computer player's seed is drawn from for the decision stored as action
        ``seq``: that number itself, or in learning mode the position in the deal (its actions
        that stand). An undo brings a position back, and the same position must get the same
        decision: otherwise taking back and playing the same card again could show another card
        of a computer player's hand each time."""
        if self.series is not None:
            # Counted from the board's start: tables that agree on a board so far get the
            # same decisions, whatever happened on the boards before.
            return len(self.deal_log) + seq - self.seq
        if not self.info.learning:
            return seq
        return LEARNING_SEEDS + len(self.deal_log) + seq - self.seq

    @property
    def bot_base(self) -> int:
        """What computer players' seeds are drawn from: the match seed, or in a series the
        series' own (the same at every table of the series, never shown)."""
        return self.series.bot_seed if self.series is not None else self.info.seed

    def view(self, seat: int) -> dict[str, Any]:
        """What the person at ``seat`` sees: built from that seat's observation only."""
        v = build_view(self.info, self.match, self.version, seat)
        if self.series is not None:
            v["series"] = self.series.view(self.match)
            v["level"] = v["level"].split("@")[0]  # the players' names and pictures: the level's
        v["learning"] = self.info.learning
        v["undo"] = self.info.learning and undo_refusal(self) is None
        if self.info.shared:
            v["turn_time"] = self.info.turn_time
            deadline = turn_deadline(self)
            # The same for every seat: whose turn is public, and so is when it runs out.
            v["turn"] = (
                None
                if deadline is None
                else {"seat": self.match.current.to_move, "deadline": deadline.isoformat()}
            )
            v["left"] = sorted(self.info.left)
            v["stood_in"] = stood_in(self, seat)
            # Each person closes the breakdown of a finished deal; the next one starts when all
            # have, or when the turn time runs out (public: who is still reading, and until when).
            at = next_deal_deadline(self)
            v["next_deal"] = (
                None
                if not self.match.current.is_over or self.match.is_over
                else {
                    "ready": sorted(self.ready),
                    "deadline": None if at is None else at.isoformat(),
                }
            )
            # At a table with people ``learning`` is the creator's choice of hints (and the
            # analyses of finished deals) for every person there; undo is off.
            v["hints"] = self.info.learning
            # Who made the calls and shown poignées: a seat may have changed hands since.
            o = v["observation"]
            number = len(self.match.deals)
            v["by"] = by_view(self, number, len(o["bids"]), o.get("poignees") or {})
            for row in v["sheet"]:
                row["by"] = by_view(self, row["deal"])
        return v


def stood_in(game: Game, seat: int) -> dict[str, Any]:
    """The current deal's actions a computer player took for people out of time, as a seat
    sees them: ``seats``, every seat that was played for (public: everyone saw the clock run
    out), and ``mine``, the kind of decision (``card``, ``bid``...) when the seat's own last
    action of the deal was taken for it, else None."""
    seats = sorted({a.seat for a in game.deal_log if a.stand_in and a.seat is not None})
    last = next((a for a in reversed(game.deal_log) if a.seat == seat), None)
    mine = None
    if last is not None and last.stand_in:
        joined = game.info.joined[seat]
        # Only an action taken for the person who sits there now: one taken before they took
        # the seat (its previous person ran out of time) was not theirs.
        if joined is None or last.created is None or last.created >= joined:
            mine = last.kind
    return {"seats": seats, "mine": mine}


def turn_deadline(game: Game) -> dt.datetime | None:
    """When the person to act runs out of time (then a computer player acts for them once):
    the table's turn time after the later of the last stored action and the moment the last
    seat was taken, both read from the database, so that any web process, started afresh or
    not, finds the same deadline. None when no person is to act or there is no turn time."""
    info = game.info
    deal = game.match.current
    if info.turn_time is None or not info.full or deal.is_over:
        return None
    if info.players[deal.to_move] is None:
        return None  # a computer player's turn
    starts = [t for t in (game.last_time, info.started) if t is not None]
    if not starts:
        return None
    return max(starts) + dt.timedelta(seconds=info.turn_time)


def next_deal_deadline(game: Game) -> dt.datetime | None:
    """When the next deal starts by itself at a table with people whose deal is over: the
    table's turn time after the deal's end (or the last seat taken). None without a turn time,
    during a deal, at the end of the match or at a table for one."""
    info = game.info
    if not info.shared or info.turn_time is None or not info.full:
        return None
    if not game.match.current.is_over or game.match.is_over:
        return None
    starts = [t for t in (game.last_time, info.started) if t is not None]
    if not starts:
        return None
    return max(starts) + dt.timedelta(seconds=info.turn_time)


def learner_seat(info: MatchInfo) -> int | None:
    """The seat of the one person at a table where learning mode may be on (hints, undo,
    analysis): None at a table with several people."""
    people = info.people
    return next(iter(people)) if len(people) == 1 else None


def undo_target(game: Game) -> StoredAction | None:
    """The person's last action of the current deal that still stands (at a table for one)."""
    seat = learner_seat(game.info)
    return next((a for a in reversed(game.deal_log) if a.seat == seat), None)


def undo_refusal(game: Game) -> tuple[str, str] | None:
    """Why the person may not take back their last action now, as (code, message); None when
    they may. The limits keep an undo from showing anything the person could not see anyway:
    a finished deal shows every hand, and a call taken back once the bidding is over could be
    made again knowing the dog (or that it stays hidden)."""
    if game.info.shared:
        # An action taken back would take back what the other people saw and did after it.
        return (
            "undo_with_people",
            "undo is off at a table with several people: what is played stands",
        )
    if not game.info.learning:
        return "learning_off", "undo is part of learning mode: turn learning on first"
    deal = game.match.current
    if deal.is_over:
        return (
            "undo_deal_over",
            "the deal is over: its cards are all shown, nothing can be taken back",
        )
    target = undo_target(game)
    if target is None:
        return "undo_nothing", "you have no action in this deal to take back"
    if target.kind == "bid" and deal.phase is not Phase.BIDDING:
        return "undo_bidding_over", "the bidding is over: a call can no longer be taken back"
    return None


def take_back(game: Game, seq: int) -> None:
    """Rebuild the current deal from its actions before number ``seq`` (the person's action
    taken back, and everything after it, no longer stand)."""
    old = game.match.current
    assert old.seed is not None
    deal = Deal.from_seed(old.seed, old.dealer)
    keep = [a for a in game.deal_log if a.seq < seq]
    for a in keep:
        deal.apply(a.action, a.seat)
    game.match.deals[-1] = deal
    game.deal_log = keep


REPLAY_LENGTH = 1  # "play this deal again": a game of that one deal


class SingleDeal(Match):
    """A deal played again on its own ("play this deal again"): over when that deal is over, so
    trying a deal again never leaves a longer match unfinished. RULES.md matches are 2, 4 or 8
    deals; this is practice outside them, built on the same engine."""

    def __init__(self, seed: int, first_dealer: int | None) -> None:
        super().__init__(min(MATCH_LENGTHS), seed, first_dealer=first_dealer)
        self.length = REPLAY_LENGTH

    @property
    def is_over(self) -> bool:
        return self.deals[0].is_over


def new_match(info: MatchInfo, series: SeriesLink | None = None) -> Match:
    if series is not None:
        return series.new_match()
    if info.length == REPLAY_LENGTH:
        match: Match = SingleDeal(info.seed, info.first_dealer)
    else:
        match = Match(info.length, info.seed, first_dealer=info.first_dealer)
    if info.first_deal_seed is not None:
        # "Replay this deal": the first deal is the replayed one; later deals come from the seed.
        match.deals[0] = Deal.from_seed(info.first_deal_seed, match.first_dealer)
    return match


class ReplayError(RuntimeError):
    """Stored actions that the engine refuses: the database was changed by hand, or the rules
    changed. Its message names no card."""


def replay(info: MatchInfo, actions: list[StoredAction], series: SeriesLink | None = None) -> Game:
    game = Game(info, new_match(info, series), 0, 0, series=series)
    catch_up(game, actions)
    return game


def catch_up(game: Game, actions: list[StoredAction]) -> None:
    """Apply stored actions numbered from ``game.seq`` on (written by this process or another
    one sharing the database). On a ``ReplayError`` the game is left half-applied: drop it."""
    for a in actions:
        assert a.seq == game.seq, "stored actions are numbered without gaps"
        try:
            if a.kind == NEXT_DEAL:
                game.match.next_deal()
                game.deal_log = []
                game.ready = set()
            elif a.kind == READY:
                if a.seat is None or not game.match.current.is_over:
                    raise IllegalActionError("a breakdown closed during a deal")
                game.ready.add(a.seat)
            elif a.kind == LEFT:
                if a.seat is None:
                    raise IllegalActionError("a seat left without its number")
            elif a.kind == UNDO:
                target = undo_target(game)
                if target is None or a.action != {"seq": target.seq}:
                    raise IllegalActionError("an undo that does not take back the last action")
                take_back(game, target.seq)
                game.undos += 1
            else:
                game.match.current.apply(a.action, a.seat)
                game.deal_log.append(a)
            note_maker(game, (a.seat, a.kind, a.action), a.stand_in)
        except OudlerError as e:
            raise ReplayError(
                f"match {game.info.id}: stored action {a.seq} ({a.kind}) does not replay "
                f"({type(e).__name__})"
            ) from None
        game.seq += 1
        counted = counts_in_version(a.seat, a.kind, poignee_steps(game.info.shared))
        game.version += counted
        # A row that is no step of its own does not restart the turn clock either.
        if a.created is not None and counted:
            game.last_time = a.created


def notation_of_last(deal: Deal, kind: str, seat: int) -> Any:
    """The action just applied, in canonical notation, read back from the engine's state."""
    if kind == "bid":
        return bid_name(deal.bids[-1])
    if kind == "discard":
        return C.format_cards(deal.discard)
    if kind == "chelem":
        return deal.chelem
    if kind == "poignee":
        return C.format_cards(deal.poignees.get(seat, 0))
    return C.CARD_NAMES[deal.play_log[-1]]


@dataclass
class StepPlan:
    """A computer player's step as planned from the log at ``seq``: its ``first`` job, then
    (``kind``) nothing more ("one"), the first card after a ``pause`` job (``then``), or the
    first card decided after the ``poignee`` answer on ``deal``, a copy of the deal."""

    game: Game
    seat: int
    first: Job
    kind: str
    deal: Deal | None
    player: str  # who asked for the step (a person seated at the table)
    then: Job | None = None
    suffix: str = ""  # of the jobs' ids: a stand-in's are not a computer player's

    def __post_init__(self) -> None:
        # What the step needs of the game, read now, under the match's lock.
        self.match_id = self.game.info.id
        self.level = self.game.info.level
        self.match_seed = self.game.bot_base
        self.deal_index = len(self.game.match.deals) - 1
        self.seq = self.game.seq
        self.seed_base = self.game.seed_index(self.game.seq)
        self.calls_imposed = self.game.series is not None and self.game.series.imposed


def _log_bot_failure(plan: StepPlan, seat: int, what: str, error: str) -> None:
    # Only the error's type: its message might name the bot's cards.
    log.error(
        "match %s: the %s computer player at seat %d %s (%s); a random legal action stands in",
        plan.match_id,
        plan.level,
        seat,
        what,
        error,
    )


def _expert_available() -> bool:
    from oudler import bots

    available = getattr(bots, "expert_available", None)
    return True if available is None else bool(available())


class Tables:
    """The matches being played, shared by all requests (``app.state.tables``)."""

    def __init__(
        self,
        store: Store,
        computers: ComputerPlayers,
        cache_size: int = 256,
        new_match_limit: tuple[int, float] = NEW_MATCH_LIMIT,
        step_wait: float = STEP_WAIT,
    ) -> None:
        self.store = store
        self.computers = computers
        self.cache_size = cache_size
        self.new_match_limit = new_match_limit
        self.step_wait = step_wait
        self._cache: OrderedDict[str, Game] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._locks: weakref.WeakValueDictionary[str, threading.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._locks_lock = threading.Lock()
        # Live tables (``oudler.tables.live``), set by the server: who is told of each change,
        # and who drives the computer players of tables with people.
        self.bus: LocalBus | None = None
        self.driver: Driver | None = None
        self.clock: Clock | None = None  # the turn clock (``oudler.tables.clock``)
        self.series = SeriesStore(store)  # duplicate series (``oudler.tables.series``)

    # ------------------------------------------------------------------ plumbing

    def _changed(self, game: Game) -> None:
        """Tell the match's listeners that it changed; at a table with people, drive the
        computer player whose turn it now is."""
        if self.bus is not None:
            self.bus.publish(game.info.id)
        self._drive(game)

    def _drive(self, game: Game) -> None:
        if not game.info.shared or not game.info.full:
            return
        deal = game.match.current
        if self.driver is not None and not deal.is_over and game.info.players[deal.to_move] is None:
            self.driver.kick(game.info.id)
        deadline = turn_deadline(game) or next_deal_deadline(game)
        if deadline is not None and self.clock is not None:
            self.clock.arm(game.info.id, deadline)

    async def stand_in(self, match_id: str) -> None:
        """The turn clock rang (``Clock``): if the person to act is still out of time, a computer
        player of the table's level decides for their seat, from that seat's observation, one
        action, stored like theirs. The action is stored only if the log is still where it was
        when the decision was asked for: of two processes (or the person, back in time) acting
        at once, one stores and the other gets a conflict, never a second action."""
        plan = await run_in_threadpool(self._plan_stand_in, match_id)
        if plan is None:
            return
        outcomes = await self._decide(plan, time.monotonic() + self.computers.timeout)
        if outcomes is None:  # not decided in time: the next load of the table arms the clock
            return
        with contextlib.suppress(Conflict, MatchNotFound):
            await run_in_threadpool(self._finish_step, plan, outcomes, True)

    def _plan_stand_in(self, match_id: str) -> StepPlan | None:
        with self.lock(match_id):
            info = self.store.get_match(match_id)
            if info is None or not info.shared:
                return None
            game = self._load(match_id, info.owner)
            if game.match.current.is_over:
                self._deal_on(game)
                return None
            deadline = turn_deadline(game)
            if deadline is None:
                return None
            if deadline > dt.datetime.now(dt.UTC):
                if self.clock is not None:
                    self.clock.arm(match_id, deadline)  # the turn moved on meanwhile
                return None
            seat = game.match.current.to_move
            who = game.info.players[seat]
            assert who, "turn_deadline is for a person's turn"
            # Planned as a computer player's step: a poignée's answer with the first card, and
            # a first card without the question after as long a pause, so that neither the
            # version nor the wait tells the others whether that seat was asked.
            return self._plan(game, seat, who, ":stand-in")

    def _deal_on(self, game: Game) -> None:
        """The turn time ran out while people read a finished deal's breakdown: the next deal
        starts without those still reading. Call with the match's lock held."""
        at = next_deal_deadline(game)
        if at is None:
            return
        if at > dt.datetime.now(dt.UTC):
            if self.clock is not None:
                self.clock.arm(game.info.id, at)  # someone closed theirs meanwhile
            return
        game.match.next_deal()
        log.info("match %s: the turn time ran out: the next deal starts", game.info.id)
        with contextlib.suppress(Conflict):  # another process dealt it first
            self._store(game, [(None, NEXT_DEAL, None)], PERSON)

    async def drive_step(self, match_id: str) -> bool:
        """One computer player's step at a table with people, asked by the server itself (the
        ``Driver``); False once no computer player is to act."""
        info = await run_in_threadpool(self.store.get_match, match_id)
        if info is None or not info.shared:
            return False
        view = await run_in_threadpool(self.view, info.owner, match_id)
        if view["status"] != "computer_turn":
            return False
        # A conflict: stored meanwhile by another process or a page; look again.
        with contextlib.suppress(Conflict):
            await self.step(info.owner, match_id, view["version"])
        return True

    def lock(self, match_id: str) -> threading.Lock:
        with self._locks_lock:
            lock = self._locks.get(match_id)
            if lock is None:
                lock = threading.Lock()
                self._locks[match_id] = lock
            return lock

    def _cached(self, match_id: str) -> Game | None:
        with self._cache_lock:
            game = self._cache.get(match_id)
            if game is not None:
                self._cache.move_to_end(match_id)
            return game

    def _remember(self, game: Game) -> None:
        with self._cache_lock:
            self._cache[game.info.id] = game
            self._cache.move_to_end(game.info.id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def forget(self, match_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(match_id, None)

    def _load(self, match_id: str, player: str) -> Game:
        """The match, for the people seated at it only (anyone else is told it does not exist).
        Call with the match's lock held."""
        game = self._load_match(match_id)
        if game.info.seat_of(player) is None:
            raise MatchNotFound(f"no match {match_id!r}")
        return game

    def _creators(self, match_id: str, player: str, doing: str) -> tuple[Game, int]:
        """The match and the creator's seat, for what only the table's creator may do
        (``doing``, as in "may free a seat"); 403 ``not_creator`` for anyone else seated. Call
        with the match's lock held."""
        game = self._load(match_id, player)
        me = self.seat(game, player)
        if game.info.owner != player:
            raise Forbidden(f"only the table's creator may {doing}", code="not_creator")
        return game, me

    def _load_match(self, match_id: str) -> Game:
        """The match as the stored log has it now, whoever asks. Call with its lock held."""
        game = self._cached(match_id)
        if game is not None:
            # Other server processes may share the database, and its log is the authority: one
            # statement reads the match's row (its learning switch may have been turned
            # elsewhere) and the end of its log, and only newer actions are applied.
            info, stored = self.store.match_state(match_id)
            # A log shorter than ours: the database was restored from a copy. Other people's
            # seats: the version counts a poignée row by who sits where.
            # A series match whose owner changed (a guest's, brought to an account at sign-in)
            # is read again with its entry's new player.
            moved = (
                game.series is not None and info is not None and info.owner != game.series.player
            )
            if info is None or stored < game.seq or info.people != game.info.people or moved:
                self.forget(match_id)
                game = None
            else:
                game.info = info
                if stored > game.seq:
                    try:
                        catch_up(game, self.store.actions(match_id, game.seq))
                    except BaseException:
                        self.forget(match_id)
                        raise
        if game is None:
            info = self.store.get_match(match_id)
            if info is None:
                raise MatchNotFound(f"no match {match_id!r}")
            game = replay(info, self.store.actions(match_id), self.series.link(match_id))
            self._remember(game)
        return game

    @staticmethod
    def seat(game: Game, player: str) -> int:
        """The seat of ``player`` at a game loaded for them (``load``)."""
        seat = game.info.seat_of(player)
        assert seat is not None, "loaded for a player who sits there"
        return seat

    def load(self, match_id: str, player: str) -> Game:
        """The player's match (``MatchNotFound`` for anyone else's). Call with its lock held."""
        return self._load(match_id, player)

    def _check_version(self, game: Game, version: int, seat: int) -> None:
        """The request was made from the current table, and the table has started."""
        if not game.info.full:
            raise Conflict(
                "the table waits until every seat is taken", game.view(seat), "table_not_full"
            )
        if version != game.version:
            raise Conflict(
                f"this page is out of date (version {version}, the match is at "
                f"{game.version}): here is the current table",
                game.view(seat),
                "stale_version",  # the page says it in its own words, without the numbers
            )

    def _stale(self, game: Game, seat: int) -> Conflict:
        """Another server process wrote first: our copy is dropped, and the refusal carries the
        current table as ``seat`` sees it."""
        self.forget(game.info.id)
        fresh = self._load(game.info.id, game.info.owner)
        return Conflict(
            "the match changed meanwhile: here is the current table",
            fresh.view(seat),
            "stale_version",
        )

    def _store(self, game: Game, rows: list[Row], seat: int, stand_in: bool = False) -> None:
        """Store one step's rows (committed together) and move the version on by one. ``seat``:
        the seat of the person whose request this is (a conflict answers their view);
        ``stand_in``: the rows were decided by a computer player for a person out of time."""
        counts = poignee_steps(game.info.shared)
        step = sum(counts_in_version(s, kind, counts) for s, kind, _ in rows)
        # A person's poignée answer at a table with people is no step of its own: it belongs
        # to their first card's, as a computer player's does (RULES.md §11); nor is a person's
        # closing of a breakdown.
        kinds = [kind for _, kind, _ in rows]
        assert step == 1 or (step == 0 and kinds in ([PHASE_KIND[Phase.POIGNEE]], [READY]))
        finished = list(game.match.totals) if game.match.is_over else None
        try:
            stored = self.store.append_actions(
                game.info.id, game.seq, rows, finished_totals=finished, stand_in=stand_in
            )
        except DuplicateActionError:
            # Another server process wrote first: our copy is stale.
            raise self._stale(game, seat) from None
        except BaseException:
            self.forget(game.info.id)
            raise
        for i, (who, kind, action) in enumerate(rows):
            if kind == NEXT_DEAL:
                game.deal_log = []
                game.ready = set()
            elif kind == READY:
                assert who is not None
                game.ready.add(who)
            elif kind == UNDO:
                game.undos += 1  # already applied by ``take_back``
            else:
                game.deal_log.append(
                    StoredAction(game.seq + i, who, kind, action, stored, stand_in)
                )
            note_maker(game, (who, kind, action), stand_in)
        game.seq += len(rows)
        game.version += step
        if step:
            game.last_time = stored  # the turn clock restarts with each step only
        if game.series is not None and game.match.current.is_over:
            self.series.record(game.series, game.match)  # the board's result, once
        # Announced even when no step: the person's own other pages show the question answered
        # (the others' views are unchanged, so their sockets send nothing).
        self._changed(game)

    # ------------------------------------------------------------------ requests

    def create(
        self,
        player: str,
        *,
        deals: int,
        level: str,
        seed: int | None = None,
        replay_of: tuple[str, int] | None = None,
        learning: bool = False,
        seats: list[str] | None = None,
        turn_time: int | None = None,
        hints: bool = False,
        reserved: dict[int, str] | None = None,
    ) -> dict[str, Any]:
        """A new match. ``seats``: four entries in seat order, ``"me"`` first (the creator's
        seat), each other ``"computer"`` or ``"person"`` (kept open for a person, who sits by the
        invitation returned in ``invites``); without it, the creator and three computers.
        ``turn_time``: seconds each person has per action at a table with friends (one of
        ``TURN_TIMES``; None: no limit).
        ``hints``: at a table with people, each of them may ask the coach's hint for their own
        decisions and see the analysis of their decisions in each finished deal (stored as the
        match's learning switch, which nobody may turn at such a table; undo stays off).
        ``reserved``: seat -> account name, some of the seats kept for people, each for that
        account only (``reserve``)."""
        people = self._check_seats(seats)
        kept = self._check_reserved(player, people, reserved or {})
        if turn_time is not None and turn_time not in TURN_TIMES:
            raise BadRequest(
                "a turn time is 30, 60 or 120 seconds (or none: leave turn_time out)",
                code="bad_turn_time",
            )
        if turn_time is not None and not people:
            raise BadRequest(
                "a turn time is for a table with friends: nobody waits for you at a table for one",
                code="bad_turn_time",
            )
        if people and learning:
            raise BadRequest("learning mode is for a table with one person")
        if hints and not people:
            raise BadRequest(
                "hints are a choice of tables with friends; a table for one has learning mode"
            )
        if people and replay_of is not None:
            raise BadRequest("a deal is played again alone (its creator has seen every hand)")
        if deals == REPLAY_LENGTH and replay_of is None:
            raise BadRequest("a single deal is only for replaying one: give replay_of")
        if deals not in MATCH_LENGTHS and deals != REPLAY_LENGTH:
            raise BadRequest(f"a match is 2, 4 or 8 deals (1 to replay a deal), not {deals}")
        if level not in LEVELS:
            raise BadRequest(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")
        if seed is not None and not 0 <= seed < MAX_SEED:
            raise BadRequest(f"a seed is an integer from 0 to {MAX_SEED - 1}")
        if level == "expert" and not _expert_available():
            raise Unprocessable("the expert level is not available yet; choose another level")
        most, seconds = self.new_match_limit
        since = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=seconds)
        # Counted in the database, so that the limit holds across server processes.
        if self.store.matches_created_since(player, since) >= most:
            raise TooManyRequests(
                f"at most {most} new matches every {seconds / 60:g} minutes; "
                "finish one of yours or try again later"
            )
        first_dealer: int | None = None
        first_deal_seed: int | None = None
        if replay_of is not None:
            first_deal_seed, first_dealer = self._deal_to_replay(player, *replay_of)
        tokens = {seat: secrets.token_urlsafe(INVITE_BYTES) for seat in people}
        table: list[str | None] | None = None
        if people:
            assert seats is not None
            table = [player, *(OPEN if kind == "person" else None for kind in seats[1:])]
        info = self.store.create_match(
            match_id=secrets.token_hex(6),
            owner=player,
            length=deals,
            level=level,
            seed=secrets.randbelow(NEW_SEED) if seed is None else seed,
            first_dealer=first_dealer,
            first_deal_seed=first_deal_seed,
            learning=learning or hints,
            seats=table,
            invites={seat: invite_hash(t) for seat, t in tokens.items()},
            turn_time=turn_time,
            reserved=kept,
        )
        if kept:  # read back with the accounts' names
            info = self.store.get_match(info.id) or info
        game = Game(info, new_match(info), 0, 0)
        self._remember(game)
        log.info("match %s created: %d deals, level %s", info.id, deals, level)
        view = game.view(PERSON)
        if table is not None:
            # The tokens are given once, here: only their hashes are stored.
            view["invites"] = [
                {"seat": seat, "url": INVITE_PATH + token} for seat, token in tokens.items()
            ]
        return view

    @staticmethod
    def _check_seats(seats: list[str] | None) -> list[int]:
        """The seats kept open for people (empty: a table for one)."""
        if seats is None:
            return []
        if len(seats) != 4 or seats[0] != "me" or any(k not in SEAT_KINDS[1:] for k in seats[1:]):
            raise BadRequest(
                'seats are four entries in seat order: "me" first, then "computer" or "person"'
            )
        return [seat for seat, kind in enumerate(seats) if kind == "person"]

    def _account(self, player: str, name: str) -> str:
        """The player id of the account called ``name``: 422 ``no_such_account`` for an
        unknown name, ``reserved_for_you`` for the creator's own."""
        found = self.store.account_player(name[:96])
        if found is None:
            raise Unprocessable(
                f"there is no account called {name[:NAME_LENGTH]!r}: check the name",
                code="no_such_account",
            )
        if found[0] == player:
            raise Unprocessable(
                "you sit at this table already: keep the seat for someone else",
                code="reserved_for_you",
            )
        return found[0]

    def _check_reserved(
        self, player: str, people: list[int], reserved: dict[int, str]
    ) -> dict[int, str]:
        """Seat -> player id of the account each reserved seat is kept for."""
        if any(seat not in people for seat in reserved):
            raise BadRequest(
                'only a seat kept for a person ("person") may be reserved for an account',
                code="bad_reservation",
            )
        kept = {seat: self._account(player, name) for seat, name in reserved.items()}
        if len(set(kept.values())) < len(kept):
            raise Unprocessable(
                "one account may hold one seat of a table: it is named twice",
                code="reserved_twice",
            )
        return kept

    # ------------------------------------------------------------------ invitations

    def _invited(self, token: str) -> tuple[str, int]:
        found = self.store.invite(invite_hash(token)) if 16 <= len(token) <= 64 else None
        if found is None:
            raise MatchNotFound("no such invitation: check the link", code="no_such_invite")
        return found

    def invitation(self, player: str, token: str) -> dict[str, Any]:
        """What an invitation shows before sitting: the table, the seat and who is there (no
        card, no player id)."""
        match_id, seat = self._invited(token)
        info = self.store.get_match(match_id)
        assert info is not None
        who = info.players[seat]
        kept = info.reserved[seat] if who == OPEN else None
        return {
            "match": match_id,
            "seat": seat,
            "length": info.length,
            "level": info.level,
            "seats": [
                {**s, "you": info.players[s["seat"]] == player} for s in seats_view(info, -1)
            ],
            "open": who == OPEN,
            "yours": who == player,
            "started": info.full,
            "turn_time": info.turn_time,
            # Kept for an account: its name, and whether this browser is signed in to it.
            "reserved": None if kept is None else info.reserved_names[seat],
            "reserved_for_you": kept is not None and kept == player,
        }

    def join(self, player: str, token: str) -> dict[str, Any]:
        """Seat ``player`` by an invitation; their view of the table. Sitting again at one's own
        seat answers the view; a taken seat 409 ``seat_taken``; another seat at the same table
        409 ``already_seated``."""
        match_id, seat = self._invited(token)
        with self.lock(match_id):
            outcome = self.store.take_seat(match_id, seat, player)
            info, _ = self.store.match_state(match_id)
            assert info is not None
            if outcome == "already_seated" and info.players[seat] != player:
                raise Conflict("you already sit at this table", code="already_seated")
            if outcome == "taken":
                raise Conflict("someone already sat at this seat", code="seat_taken")
            if outcome == "reserved":
                name = info.reserved_names[seat] or "another account"
                raise Forbidden(
                    f"this seat is kept for {name}: sign in as {name} to sit there",
                    code="seat_reserved",
                )
            log.info("match %s: a person sat at seat %d", match_id, seat)
            game = self._load(match_id, player)
            if outcome == "seated":
                self._changed(game)
            return game.view(seat)

    def seat_computer(self, player: str, match_id: str, seat: int) -> dict[str, Any]:
        """The creator gives a seat still open to a computer player of the table's level."""
        with self.lock(match_id):
            game, me = self._creators(match_id, player, "seat a computer player")
            if not 0 <= seat < 4 or game.info.players[seat] != OPEN:
                raise Conflict("this seat is not open", game.view(me), "seat_taken")
            if not self.store.seat_computer(match_id, seat):
                self.forget(match_id)
                fresh = self._load(match_id, player)
                raise Conflict("someone already sat at this seat", fresh.view(me), "seat_taken")
            game = self._load(match_id, player)
            self._changed(game)
            return game.view(me)

    def leave(self, player: str, match_id: str) -> dict[str, Any]:
        """The person leaves the table: their seat is open again and the table waits, until the
        creator gives the seat a new invitation (``reinvite``) or a computer player
        (``seat_computer``). The creator stays: the table is theirs."""
        with self.lock(match_id):
            game = self._load(match_id, player)
            seat = self.seat(game, player)
            if not game.info.shared or game.info.owner == player:
                raise Unprocessable(
                    "the table's creator cannot leave it (a table waits for its creator)",
                    game.view(seat),
                    "creator_stays",
                )
            if game.match.is_over:
                raise Unprocessable(
                    "the match is over: there is nothing left to leave",
                    game.view(seat),
                    "match_over",
                )
            if not self._vacate(game, seat, player, seat):
                self.forget(match_id)  # gone meanwhile, through another request
                raise MatchNotFound(f"no match {match_id!r}")
            log.info("match %s: the person at seat %d left", match_id, seat)
            game = self._load(match_id, game.info.owner)
            self._changed(game)
            return {"left": match_id, "seat": seat}

    def _vacate(self, game: Game, seat: int, player: str, me: int) -> bool:
        """Open the seat of ``player``, storing with it a ``LEFT`` row with the name they had
        (their calls stay theirs: ``by_view``). False if they no longer sat there; a conflict
        (``me``'s view) if another process stored an action meanwhile."""
        name = game.info.names[seat]
        try:
            return self.store.leave_seat(game.info.id, seat, player, game.seq, name)
        except DuplicateActionError:
            raise self._stale(game, me) from None

    def free_seat(
        self, player: str, match_id: str, seat: int, away: Away, free_after: float
    ) -> dict[str, Any]:
        """The creator frees the seat of a person who has had no page open on the table for
        ``free_after`` seconds (``away``), as if they had left: someone who lost their cookie
        (another browser, a closed private window) can never come back to it by themselves.
        The creator then chooses, as after a leave: a new link, or a computer player. The
        creator's view; 403 ``not_creator``; 409 ``seat_not_taken`` (no other person sits
        there), ``seat_in_use`` (they were there less than ``free_after`` seconds ago); 422
        ``match_over``."""
        with self.lock(match_id):
            game, me = self._creators(match_id, player, "free a seat")
            info = game.info
            who = info.players[seat] if 0 <= seat < 4 else None
            if not who or seat == me:
                raise Conflict("no other person sits at this seat", game.view(me), "seat_not_taken")
            if game.match.is_over:
                raise Unprocessable(
                    "the match is over: there is nothing left to free", game.view(me), "match_over"
                )
            joined = info.joined[seat]
            if away(seat, 0.0 if joined is None else joined.timestamp()) < free_after:
                raise Conflict(
                    f"the person at {SEAT_NAMES[seat]} had the table open less than "
                    f"{free_after:g} seconds ago: they may be coming back",
                    game.view(me),
                    "seat_in_use",
                )
            if not self._vacate(game, seat, who, me):
                self.forget(match_id)  # they left meanwhile, through another request
                fresh = self._load(match_id, player)
                raise Conflict(
                    "no other person sits at this seat", fresh.view(me), "seat_not_taken"
                )
            log.info("match %s: the creator freed seat %d, away", match_id, seat)
            game = self._load(match_id, player)
            self._changed(game)
            return game.view(me)

    def reinvite(self, player: str, match_id: str, seat: int) -> dict[str, Any]:
        """The creator waits for a person at an open seat (one left, or never taken): a new
        invitation link for it, answered once in ``invites`` (the seat's earlier link no longer
        seats anyone)."""
        with self.lock(match_id):
            game, me = self._creators(match_id, player, "invite someone")
            if not 0 <= seat < 4 or game.info.players[seat] != OPEN:
                raise Conflict("this seat is not open", game.view(me), "seat_taken")
            token = secrets.token_urlsafe(INVITE_BYTES)
            if not self.store.reinvite(match_id, seat, invite_hash(token)):
                self.forget(match_id)
                fresh = self._load(match_id, player)
                raise Conflict("someone already sat at this seat", fresh.view(me), "seat_taken")
            game = self._load(match_id, player)
            self._changed(game)
            view = game.view(me)
            view["invites"] = [{"seat": seat, "url": INVITE_PATH + token}]
            return view

    def reserve(self, player: str, match_id: str, seat: int, name: str | None) -> dict[str, Any]:
        """The creator keeps an open seat for the account called ``name`` (None: for anyone
        with the seat's link again). Its link stays the same. The creator's view; 403
        ``not_creator``; 409 ``seat_taken`` (not open); 422 ``no_such_account``,
        ``reserved_for_you``, ``reserved_twice`` (the account sits at the table, or another
        seat is kept for it)."""
        with self.lock(match_id):
            game, me = self._creators(match_id, player, "keep a seat")
            info = game.info
            if not 0 <= seat < 4 or info.players[seat] != OPEN:
                raise Conflict("this seat is not open", game.view(me), "seat_taken")
            kept = None if name is None else self._account(player, name)
            if kept is not None and any(
                kept in (info.players[s], info.reserved[s]) for s in range(4) if s != seat
            ):
                raise Unprocessable(
                    "one account may hold one seat of a table: this one sits here already, "
                    "or another seat is kept for it",
                    game.view(me),
                    "reserved_twice",
                )
            if not self.store.reserve_seat(match_id, seat, kept):
                self.forget(match_id)
                fresh = self._load(match_id, player)
                raise Conflict("someone already sat at this seat", fresh.view(me), "seat_taken")
            log.info("match %s: seat %d %s", match_id, seat, "kept" if kept else "no longer kept")
            game = self._load(match_id, player)
            self._changed(game)
            return game.view(me)

    def _deal_to_replay(self, player: str, match_id: str, number: int) -> tuple[int, int]:
        """The seed and the dealer of the player's deal ``number`` of a match, played again at
        a table for one, from their own seat."""
        with self.lock(match_id):
            game = self._load(match_id, player)
            deals = game.match.deals
            if not 1 <= number <= len(deals):
                raise BadRequest(f"match {match_id} has no deal {number}")
            if game.series is not None:
                raise Unprocessable(
                    "a deal of a series is played once: it cannot be played again",
                    code="series_match",
                )
            deal = deals[number - 1]
            # Replaying a deal still in play would let its hidden cards be seen in the new match.
            if not deal.is_over:
                raise Unprocessable("only a finished deal can be replayed")
            assert deal.seed is not None
            # The replay seats its person at seat 0. The cards go round from the dealer's
            # right, so a dealer turned back by the person's seat deals them their own hand
            # there (and every other seat its hand, in the same order round the table).
            return deal.seed, (deal.dealer - self.seat(game, player)) % 4

    def view(self, player: str, match_id: str) -> dict[str, Any]:
        with self.lock(match_id):
            game = self._load(match_id, player)  # its row read afresh by ``_load``
            self._drive(game)  # a driver lost with its process: this one takes over
            return game.view(self.seat(game, player))

    def views(
        self, match_id: str, players: Iterable[str], cached: bool = False
    ) -> dict[str, dict[str, Any] | WebError]:
        """Each player's view of the match (as ``view`` answers it), from one load of the
        match: what the live sockets push after a change, each person's view built once
        however many sockets they have open. A player who does not sit there gets
        ``MatchNotFound`` (as ``view`` raises it); a failed load raises.

        ``cached``: the match in memory is known to be as current as the change announced
        (every change is made by this process, which updates its copy from the database before
        it changes anything and announces the change after): no read of the database."""
        with self.lock(match_id):
            game = self._cached(match_id) if cached else None
            try:
                game = game or self._load_match(match_id)
            except MatchNotFound as e:
                return dict.fromkeys(players, e)
            self._drive(game)  # a driver lost with its process: this one takes over
            out: dict[str, dict[str, Any] | WebError] = {}
            for player in players:
                seat = game.info.seat_of(player)
                out[player] = (
                    MatchNotFound(f"no match {match_id!r}") if seat is None else game.view(seat)
                )
            return out

    def act(self, player: str, match_id: str, version: int, action: Any) -> dict[str, Any]:
        """The person's action for their own seat, written as in notation.md."""
        with self.lock(match_id):
            game = self._load(match_id, player)
            seat = self.seat(game, player)
            self._check_version(game, version, seat)
            deal = game.match.current
            if deal.is_over or deal.to_move != seat:
                who = "nobody: the deal is over" if deal.is_over else SEAT_NAMES[deal.to_move]
                raise Conflict(
                    f"it is not your turn (to act: {who})", game.view(seat), "not_your_turn"
                )
            kind = PHASE_KIND[deal.phase]
            deal.apply(action, seat)  # checks everything; an error changes nothing
            self._store(game, [(seat, kind, notation_of_last(deal, kind, seat))], seat)
            return game.view(seat)

    async def step(self, player: str, match_id: str, version: int) -> tuple[int, dict[str, Any]]:
        """One computer player acts: one action, or, when it is asked about a poignée, its answer
        and its first card together. Answers ``(200, view)`` once the action is stored, or
        ``(202, view)`` (the view unchanged) if the decision is not made within ``step_wait``
        seconds: asking again waits for the same decision, which goes on meanwhile.

        The match's lock is held only to plan and to store, never while a decision is awaited;
        the decision is used only if the stored log is still where it was when it was asked for
        (a late or duplicate one is discarded, answered 409 with the current view)."""
        plan = await run_in_threadpool(self._plan_step, player, match_id, version)
        try:
            outcomes = await self._decide(plan, time.monotonic() + self.step_wait)
        except DecisionTimeout:
            raise Unavailable("the computer player took too long; try again") from None
        if outcomes is None:
            return 202, await run_in_threadpool(self.view, player, match_id)
        return 200, await run_in_threadpool(self._finish_step, plan, outcomes)

    async def _decide(self, plan: StepPlan, deadline: float) -> list[Outcome] | None:
        """The outcomes of the plan's jobs, run one after the other; None if one is not decided
        by ``deadline`` (``time.monotonic``): it goes on, and asking again awaits it."""
        outcomes: list[Outcome] = []
        job: Job | None = plan.first
        while job is not None:
            level = plan.level if job.function == "think" else None
            outcome = await self.computers.run(job, deadline - time.monotonic(), level)
            if outcome is None:
                return None
            outcomes.append(outcome)
            if plan.kind in ("pause", "poignee") and len(outcomes) == 1:
                # The poignée question, or the pause standing for it: the first card waits
                # until the question's time is up either way (RULES.md §11), here rather than
                # in the worker, whose lane takes the next decision meanwhile.
                rest = poignee_rest(plan.level, outcome)
                left = deadline - time.monotonic()
                if rest > left:
                    await asyncio.sleep(max(0.0, left))
                    return None  # asking again finds the same outcome, and the same end
                if rest > 0:
                    await asyncio.sleep(rest)
            job = self._next_job(plan, outcomes)
        return outcomes

    def _plan_step(self, player: str, match_id: str, version: int) -> StepPlan:
        """The step's first job, from the stored log as it is now."""
        with self.lock(match_id):
            game = self._load(match_id, player)
            me = self.seat(game, player)
            self._check_version(game, version, me)
            deal = game.match.current
            if deal.is_over or game.info.players[deal.to_move] is not None:
                status = status_of(game.match, me, game.info).replace("_", " ")
                raise Conflict(f"no computer player is to act ({status})", game.view(me))
            return self._plan(game, deal.to_move, player)

    def _plan(self, game: Game, seat: int, player: str, suffix: str = "") -> StepPlan:
        """The jobs of the step of a computer player acting at ``seat``, from the log as it is."""
        deal = game.match.current
        decide = self._think_job(game, seat, game.seq, deal, suffix)
        if deal.phase is Phase.POIGNEE:
            # Its first card is decided after the answer, seeing it: on a copy of the deal.
            return StepPlan(
                game, seat, decide, "poignee", copy.deepcopy(deal), player, suffix=suffix
            )
        if deal.phase is Phase.PLAY and not deal.tricks:
            # A first card without the question: a pause job queued on the question's lane,
            # then (``_decide``) as long a wait, then the card (RULES.md §11: the wait must not
            # tell).
            key = f"{game.info.id}:{game.seq}{suffix}:pause"
            pause = self.computers.pause_job(key, game.info.level)
            return StepPlan(game, seat, pause, "pause", None, player, then=decide, suffix=suffix)
        return StepPlan(game, seat, decide, "one", None, player, suffix=suffix)

    def _think_job(self, game: Game, seat: int, seq: int, deal: Deal, suffix: str = "") -> Job:
        seed = bot_seed(game.bot_base, len(game.match.deals) - 1, seat, game.seed_index(seq))
        return self.computers.think_job(
            f"{game.info.id}:{seq}{suffix}",
            game.info.level,
            seed,
            seat,
            deal.observation(seat),
            game.series is not None and game.series.imposed,
        )

    def _next_job(self, plan: StepPlan, outcomes: list[Outcome]) -> Job | None:
        if plan.kind == "one" or len(outcomes) == 2:
            return None
        if plan.kind == "pause":
            return plan.then
        assert plan.deal is not None
        seq = plan.seq + 1
        seed = bot_seed(plan.match_seed, plan.deal_index, plan.seat, plan.seed_base)
        self._apply_outcome(plan.deal, plan, plan.seat, seed, outcomes[0])
        return self.computers.think_job(
            f"{plan.match_id}:{seq}{plan.suffix}",
            plan.level,
            bot_seed(plan.match_seed, plan.deal_index, plan.seat, plan.seed_base + 1),
            plan.seat,
            plan.deal.observation(plan.seat),
            plan.calls_imposed,
        )

    def _finish_step(
        self, plan: StepPlan, outcomes: list[Outcome], stand_in: bool = False
    ) -> dict[str, Any]:
        with self.lock(plan.match_id):
            game = self._load(plan.match_id, plan.player)
            me = self.seat(game, plan.player)
            if game.seq != plan.seq:
                # Another request (this process or another) stored this step first.
                raise Conflict(
                    "the match changed meanwhile: here is the current table",
                    game.view(me),
                    "stale_version",
                )
            if stand_in:
                deadline = turn_deadline(game)
                # The seat was left, or filled again, since: its new clock decides.
                if deadline is None or deadline > dt.datetime.now(dt.UTC) or me != plan.seat:
                    raise Conflict("the turn is no longer out of time", game.view(me))
                log.info(
                    "match %s: seat %d ran out of time; a computer player acted for it",
                    plan.match_id,
                    plan.seat,
                )
            deal = game.match.current
            decisions = outcomes[1:] if plan.kind == "pause" else outcomes
            rows: list[Row] = []
            try:
                for outcome in decisions:
                    seq = game.seq + len(rows)
                    index = game.seed_index(seq)
                    seed = bot_seed(game.bot_base, len(game.match.deals) - 1, plan.seat, index)
                    kind = PHASE_KIND[deal.phase]
                    self._apply_outcome(deal, plan, plan.seat, seed, outcome)
                    rows.append((plan.seat, kind, notation_of_last(deal, kind, plan.seat)))
            except BaseException:
                self.forget(game.info.id)  # applied in memory only: replay from the database
                raise
            self._store(game, rows, me, stand_in)
            return game.view(me)

    def _apply_outcome(
        self, deal: Deal, plan: StepPlan, seat: int, seed: int, outcome: Outcome
    ) -> None:
        """Apply a computer player's decision; if it failed or is illegal, a random legal action
        stands in (the fault is logged, never the cards)."""
        if outcome.ok:
            try:
                deal.act(outcome.value, seat)
                return
            except (IllegalActionError, NotationError) as e:
                _log_bot_failure(plan, seat, "chose an illegal action", type(e).__name__)
        else:
            _log_bot_failure(plan, seat, "failed", outcome.error or "lost")
        deal.act(think("random", seed, seat, deal.observation(seat)), seat)

    def next_deal(self, player: str, match_id: str, version: int) -> dict[str, Any]:
        with self.lock(match_id):
            game = self._load(match_id, player)
            seat = self.seat(game, player)
            self._check_version(game, version, seat)
            if game.match.is_over:
                raise Unprocessable("the match is over", game.view(seat), "match_over")
            if not game.match.current.is_over:
                # Not its time, as an action for another's turn: a page behind the table.
                raise Conflict("the current deal is not over yet", game.view(seat), "out_of_turn")
            if game.series is not None and game.series.closed():
                # The deal in hand may be finished across the close; no new one is dealt.
                raise Unprocessable(
                    "this series has closed: its next deal can no longer be played",
                    game.view(seat),
                    "series_closed",
                )
            if game.info.shared and game.info.people - game.ready - {seat}:
                # Others still read the breakdown: this person closed theirs (once), the deal
                # waits for the others or the turn time (``next_deal_deadline``).
                if seat not in game.ready:
                    self._store(game, [(seat, READY, None)], seat)
                return game.view(seat)
            game.match.next_deal()
            self._store(game, [(None, NEXT_DEAL, None)], seat)
            return game.view(seat)

    def undo(self, player: str, match_id: str, version: int) -> dict[str, Any]:
        """Learning mode: take back the person's last action of the deal (and whatever the
        computer players did after it); stored as an action of its own, nothing is deleted."""
        with self.lock(match_id):
            game = self._load(match_id, player)
            seat = self.seat(game, player)
            self._check_version(game, version, seat)
            refused = undo_refusal(game)
            if refused is not None:
                code, message = refused
                raise Unprocessable(message, game.view(seat), code)
            target = undo_target(game)
            assert target is not None
            try:
                take_back(game, target.seq)
            except BaseException:
                self.forget(match_id)
                raise
            self._store(game, [(seat, UNDO, {"seq": target.seq})], seat)
            return game.view(seat)

    def record(self, player: str, match_id: str) -> dict[str, Any]:
        """The ``tarot-match/1`` record of the finished deals (a deal in play would show every
        hand, so it is left out)."""
        from oudler.core.records import MATCH_FORMAT, deal_to_record

        with self.lock(match_id):
            game = self._load(match_id, player)
            players = players_of(game.info)
            if not game.info.shared:  # the creator's name is read with seat rows only
                players[0]["name"] = self.store.player_name(game.info.owner)
            out: dict[str, Any] = {
                "format": MATCH_FORMAT,
                "deals": [
                    deal_to_record(d) | ({"by": by_view(game, n)} if game.info.shared else {})
                    for n, d in enumerate(game.match.deals, start=1)
                    if d.is_over
                ],
                "totals": list(game.match.totals),
                "players": players,
            }
            coach = self._coach_record(game, self.seat(game, player))
            if coach is not None:
                out["coach"] = coach
            return out

    def _coach_record(self, game: Game, seat: int) -> dict[str, Any] | None:
        """What the person at ``seat`` used of the coach (hints asked, actions taken back), for
        the record; None for a match that never had learning mode on. At a table with people,
        the hints of that seat's decisions only: another's would tell of their cards."""
        hints = self.store.hints(game.info.id)
        if game.info.shared:
            actions = self.store.actions(game.info.id)
            deal = game.match.current
            # A hint's decision was stored as action ``seq``, or is the one now at hand.
            to_move = None if deal.is_over else deal.to_move
            hints = [
                h for h in hints if (actions[h[0]].seat if h[0] < len(actions) else to_move) == seat
            ]
        undos = []
        if game.undos:
            deal_number = 1
            stored = self.store.actions(game.info.id)
            for a in stored:
                deal_number += a.kind == NEXT_DEAL
                if a.kind == UNDO:
                    # The person's own action taken back (what the computer players did after it
                    # stays out: a poignée they were asked about would tell of 10+ trumps).
                    back = stored[a.action["seq"]]
                    undos.append(
                        {
                            "deal": deal_number,
                            "seq": a.seq,
                            "took_back": back.seq,
                            "kind": back.kind,
                            "action": back.action,
                        }
                    )
        if not (game.info.learning or hints or undos):
            return None
        return {
            "learning": game.info.learning,
            "hints": [
                {"deal": deal, "seq": seq, "kind": h["kind"], "best": h["best"]}
                for seq, deal, h in hints
            ],
            "undos": undos,
        }

    def me(self, player: str) -> dict[str, Any]:
        return {"name": self.store.player_name(player)}

    def set_name(self, player: str, text: str) -> dict[str, Any]:
        """The name the person shows at tables with friends (theirs, and the next views)."""
        self.store.set_player_name(player, clean_name(text))
        return self.me(player)

    def list(self, player: str) -> list[dict[str, Any]]:
        return [
            summary_of(info, n, info.seat_of(player) or 0)
            for info, n in self.store.list_matches(player)
        ]
