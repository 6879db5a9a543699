"""Duplicate deals between bots, to measure strength credibly (docs/arena.md).

Every deal is seeded. For each deal the reference bot first plays all four seats (the baseline);
then each tested bot takes each seat in turn, the reference holding the three others. The bots'
own randomness is seeded by (arena seed, deal, seat) only, so a seat's reference bot meets the same
dice in every table of a deal. A tested bot's figure for a deal is its mean score over the four
seats it took, minus the baseline's mean over the same seats (the duplicate difference); the mean
of these over the deals comes with a 95 % confidence interval.

Deals run in several processes (``jobs``); results do not depend on it. With a log file every
finished deal is written down at once, so a long run that stops (a crash, a closed session) goes on
from where it was when started again with the same log.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, as_completed, wait
from dataclasses import asdict, dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from oudler.bots import UnknownLevelError, make_bot, parse_level
from oudler.bots.base import Bot
from oudler.bots.club import hand_points
from oudler.bots.play import play_deal
from oudler.core import Contract, Deal, Phase, parse_bid
from oudler.lab.sprt import Sprt, SprtConfig, describe, t95

FORMAT = "oudler-arena/1"
LOG_FORMAT = "oudler-arena-log/1"
PHASES = (Phase.BIDDING, Phase.DISCARD, Phase.CHELEM, Phase.POIGNEE, Phase.PLAY)
CMD_PREFIX = "cmd:"
ORACLE_PREFIX = "oracle-"


class ArenaError(ValueError):
    """Arena settings that cannot work (unknown bot, too few deals...)."""


# ---------------------------------------------------------------------------- bots


def parse_bot_specs(values: Iterable[str]) -> list[str]:
    """Bot names from ``--bots`` values: levels separated by commas, or ``cmd:PROGRAM ARGS``
    (one per value, since a command may hold commas)."""
    specs: list[str] = []
    for value in values:
        value = value.strip()
        if value.startswith(CMD_PREFIX):
            if not value[len(CMD_PREFIX) :].strip():
                raise ArenaError("cmd: needs a program to run, as in cmd:python my_bot.py")
            specs.append(value)
            continue
        for part in value.split(","):
            if not part.strip():
                continue
            try:
                specs.append(_bot_name(part))
            except UnknownLevelError as err:
                raise ArenaError(
                    f"unknown bot {part.strip()!r}: {err} (or cmd:PROGRAM for an outside program)"
                ) from None
    return specs


def _bot_name(part: str) -> str:
    """A level's or a lab oracle's name, spelled as the arena writes it."""
    if part.strip().lower().startswith(ORACLE_PREFIX):
        from oudler.lab.oracle import oracle_name

        return oracle_name(part)
    return parse_level(part).name


class _Programs:
    """Outside programs of this process, one per (command, seat), kept between deals."""

    def __init__(self) -> None:
        self._bots: dict[tuple[str, int], Bot] = {}

    def get(self, command: str, seat: int, timeout: float) -> Bot:
        from oudler.bots.protocol import SubprocessBot

        key = (command, seat)
        if key not in self._bots:
            self._bots[key] = SubprocessBot(command, timeout=timeout)
        return self._bots[key]

    def close(self) -> None:
        for bot in self._bots.values():
            close = getattr(bot, "close", None)
            if callable(close):
                close()
        self._bots.clear()


_PROGRAMS = _Programs()


def build_bot(
    spec: str, *, seed: int, seat: int, timeout: float = 60.0, calls_imposed: bool = False
) -> Bot:
    """A bot for ``spec``: a fresh level bot seeded with ``seed``, or this process's running
    outside program for that seat (its own randomness is its business). ``calls_imposed``: the
    arena fixes the bidding (``--fixed-contract``), so a level bot must not read the bids as the
    players' choices (``make_bot``); an outside program is not told. An oracle
    (``oracle-cards@w100``, ``oudler.lab.oracle``) is the lab's alone: no level, ``make_bot``
    refuses it."""
    if spec.startswith(CMD_PREFIX):
        return _PROGRAMS.get(spec[len(CMD_PREFIX) :].strip(), seat, timeout)
    if spec.startswith(ORACLE_PREFIX):
        from oudler.lab.oracle import make_oracle

        return make_oracle(spec, seed=seed, calls_imposed=calls_imposed)
    return make_bot(spec, seed=seed, calls_imposed=calls_imposed)


def bot_seed(arena_seed: int, deal_index: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for one deal: the same in every table of the deal."""
    digest = hashlib.sha256(f"oudler-arena:{arena_seed}:{deal_index}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def deal_seeds(seed: int, count: int) -> list[tuple[int, int]]:
    """``count`` (deal seed, dealer) pairs from the arena seed; petit sec deals are skipped (they
    are void before anyone decides anything). Dealers rotate."""
    rng = random.Random(seed)
    out: list[tuple[int, int]] = []
    while len(out) < count:
        deal_seed = rng.getrandbits(63)
        dealer = len(out) % 4
        if not Deal.from_seed(deal_seed, dealer).is_over:
            out.append((deal_seed, dealer))
    return out


def fixed_declarer(deal: Deal) -> int:
    """For a fixed contract: the seat whose hand counts best (ties to the earliest speaker)."""
    order = [(deal.dealer + 1 + i) & 3 for i in range(4)]
    return max(order, key=lambda seat: (hand_points(deal.hands[seat]), -order.index(seat)))


# ---------------------------------------------------------------------------- one deal


@dataclass
class TableResult:
    """One table of one deal: who sat where and what came of it."""

    seats: tuple[str, str, str, str]
    scores: tuple[int, int, int, int]
    contract: str | None
    declarer: int | None
    won: bool | None
    petit_au_bout: str | None
    times: list[tuple[int, str, float]] = field(default_factory=list)  # (seat, phase, seconds)


@dataclass
class DealOutcome:
    index: int
    seed: int
    dealer: int
    baseline: TableResult
    tested: dict[str, list[TableResult]]  # bot -> the four tables, the bot in seat 0..3


@dataclass(frozen=True)
class ArenaConfig:
    tested: tuple[str, ...]
    reference: str
    deals: int = 200
    seed: int = 1
    jobs: int = 1
    fixed_contract: Contract | None = None
    program_timeout: float = 60.0  # seconds an outside program may take for one action
    sprt: SprtConfig | None = None
    """Stop once this test decides (one tested bot only); ``deals`` is then the most to play."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tested": list(self.tested),
            "reference": self.reference,
            "deals": self.deals,
            "seed": self.seed,
            "jobs": self.jobs,
            "fixed_contract": self.fixed_contract.notation if self.fixed_contract else None,
        }
        if self.sprt is not None:
            out["sprt"] = self.sprt.to_dict()
        return out


def play_table(
    config: ArenaConfig, index: int, deal_seed: int, dealer: int, seats: Sequence[str]
) -> TableResult:
    """Play one seeded deal with ``seats[i]`` in seat i."""
    deal = Deal.from_seed(deal_seed, dealer)
    bots = [
        build_bot(
            spec,
            seed=bot_seed(config.seed, index, s),
            seat=s,
            timeout=config.program_timeout,
            calls_imposed=config.fixed_contract is not None,
        )
        for s, spec in enumerate(seats)
    ]
    if config.fixed_contract is not None:
        deal.impose(fixed_declarer(deal), config.fixed_contract)
    if any(spec.startswith(ORACLE_PREFIX) for spec in seats):
        from oudler.lab.oracle import OracleBot

        for bot in bots:
            if isinstance(bot, OracleBot):
                bot.see_deal(deal)  # the live deal: it reads the real hands at its decisions
    times: list[tuple[int, str, float]] = []
    result = play_deal(
        deal,
        bots,
        on_decision=lambda seat, phase, dt: times.append((seat, phase.value, round(dt, 5))),
    )
    return TableResult(
        seats=(seats[0], seats[1], seats[2], seats[3]),
        scores=result.scores,
        contract=result.contract.notation if result.contract else None,
        declarer=result.declarer,
        won=result.won,
        petit_au_bout=result.petit_au_bout,
        times=times,
    )


def play_duplicate(config: ArenaConfig, index: int, deal_seed: int, dealer: int) -> DealOutcome:
    """The baseline table and, for each tested bot, its four seat rotations of one deal."""
    ref = config.reference
    baseline = play_table(config, index, deal_seed, dealer, [ref] * 4)
    tested: dict[str, list[TableResult]] = {}
    for bot in config.tested:
        tables = []
        for seat in range(4):
            seats = [ref] * 4
            seats[seat] = bot
            tables.append(play_table(config, index, deal_seed, dealer, seats))
        tested[bot] = tables
    return DealOutcome(index, deal_seed, dealer, baseline, tested)


def _play_chunk(config: ArenaConfig, chunk: list[tuple[int, int, int]]) -> list[DealOutcome]:
    # In a worker process: outside programs end with the chunk.
    try:
        return [play_duplicate(config, i, s, d) for i, s, d in chunk]
    finally:
        _PROGRAMS.close()


# ---------------------------------------------------------------------------- statistics


def mean_ci(values: Sequence[float]) -> dict[str, Any]:
    """Mean, standard deviation and 95 % confidence interval of the mean."""
    n = len(values)
    mean = statistics.fmean(values) if n else 0.0
    sd = statistics.stdev(values) if n > 1 else 0.0
    half = t95(n - 1) * sd / math.sqrt(n) if n > 1 else math.inf
    return {
        "mean": round(mean, 2),
        "ci95": [round(mean - half, 2), round(mean + half, 2)] if n > 1 else None,
        "half_width": round(half, 2) if n > 1 else None,
        "sd": round(sd, 2),
        "n": n,
    }


def percentiles(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0, "p50_ms": None, "p95_ms": None, "max_ms": None}
    xs = sorted(values)

    def q(p: float) -> float:
        return round(1000 * xs[min(len(xs) - 1, math.ceil(p * len(xs)) - 1)], 3)

    return {"n": len(xs), "p50_ms": q(0.50), "p95_ms": q(0.95), "max_ms": round(1000 * xs[-1], 3)}


@dataclass
class _Tally:
    """Counts for one bot over the seats it held."""

    seat_deals: int = 0
    taken: int = 0
    made: int = 0
    defended: int = 0
    defeated: int = 0
    pab_won: int = 0
    pab_lost: int = 0
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))

    def add(self, table: TableResult, seat: int) -> None:
        self.seat_deals += 1
        for s, phase, dt in table.times:
            if s == seat:
                self.times[phase].append(dt)
        if table.declarer is None:
            return
        if table.declarer == seat:
            self.taken += 1
            self.made += bool(table.won)
        else:
            self.defended += 1
            self.defeated += not table.won
        if table.petit_au_bout is not None:
            ours = "declarer" if table.declarer == seat else "defence"
            if table.petit_au_bout == ours:
                self.pab_won += 1
            else:
                self.pab_lost += 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat_deals": self.seat_deals,
            "contracts": {"taken": self.taken, "made": self.made},
            "defence": {"contracts": self.defended, "defeated": self.defeated},
            "petit_au_bout": {"won": self.pab_won, "lost": self.pab_lost},
            "decision_time": {p.value: percentiles(self.times.get(p.value, [])) for p in PHASES},
        }


def duplicate_difference(outcome: DealOutcome, bot: str) -> float:
    """``bot``'s figure for one deal: its mean score over the four seats it took, minus the
    baseline's over the same seats (points per deal per seat)."""
    tables = outcome.tested[bot]
    mine = [tables[s].scores[s] for s in range(4)]
    base = [outcome.baseline.scores[s] for s in range(4)]
    return sum(m - b for m, b in zip(mine, base, strict=True)) / 4


def summarize(config: ArenaConfig, outcomes: list[DealOutcome], seconds: float) -> dict[str, Any]:
    """The report as one JSON-ready object."""
    outcomes = sorted(outcomes, key=lambda o: o.index)
    bots: list[dict[str, Any]] = []
    for bot in config.tested:
        diffs: list[float] = []
        tally = _Tally()
        for o in outcomes:
            tables = o.tested[bot]
            diffs.append(duplicate_difference(o, bot))
            for s in range(4):
                tally.add(tables[s], s)
        bots.append({"bot": bot, "role": "tested", "score": mean_ci(diffs), **tally.to_dict()})
    ref = _Tally()
    for o in outcomes:
        for s in range(4):
            ref.add(o.baseline, s)
    zeros = [0.0] * len(outcomes)
    bots.append(
        {"bot": config.reference, "role": "reference", "score": mean_ci(zeros), **ref.to_dict()}
    )
    return {
        "format": FORMAT,
        "config": config.to_dict(),
        "deals": len(outcomes),
        "tables": len(outcomes) * (1 + 4 * len(config.tested)),
        "seconds": round(seconds, 2),
        "bots": bots,
    }


# ---------------------------------------------------------------------------- running


class _SequentialTest:
    """The SPRT fed with the deals in index order as they come in (they finish out of order in
    several processes): a deal counts once every deal before it has."""

    def __init__(self, config: SprtConfig, bot: str, status: Callable[[Sprt], None] | None):
        self.test = Sprt(config)
        self.bot = bot
        self.status = status
        self._waiting: dict[int, float] = {}
        self._next = 0

    def feed(self, outcomes: Iterable[DealOutcome], quiet: bool = False) -> None:
        for o in outcomes:
            self._waiting[o.index] = duplicate_difference(o, self.bot)
        while self._next in self._waiting and self.test.decision is None:
            self.test.add(self._waiting.pop(self._next))
            self._next += 1
            if self.status is not None and not quiet:
                self.status(self.test)


def run_arena(
    config: ArenaConfig,
    *,
    progress: Callable[[int, int], None] | None = None,
    log: Path | None = None,
    sprt_status: Callable[[Sprt], None] | None = None,
) -> dict[str, Any]:
    """Play every duplicate deal (in ``config.jobs`` processes) and summarize.

    With ``log``, the deals already in the log are taken from it and every new one is appended as
    soon as it is played (see :class:`ArenaLog`).

    With ``config.sprt``, the test reads the deals in index order and the run stops once it
    decides (deals already under way in other processes are finished and logged; the report
    covers every deal played, the test the ones it read); ``sprt_status`` is told after each
    deal it reads. The report's ``sprt`` holds the test's state and decision.
    """
    if config.deals < 1:
        raise ArenaError("the arena needs at least one deal")
    if config.jobs < 1:
        raise ArenaError("--jobs is at least 1")
    if config.sprt is not None and len(config.tested) != 1:
        raise ArenaError("the SPRT tests one bot against the reference: name exactly two bots")
    for spec in (*config.tested, config.reference):
        if not spec.startswith(CMD_PREFIX):
            build_bot(spec, seed=0, seat=0)  # an unavailable level fails here, before any start
    start = time.perf_counter()
    book = ArenaLog.open(log, config) if log is not None else None
    outcomes: list[DealOutcome] = list(book.outcomes.values()) if book else []
    done = {o.index for o in outcomes}
    work = [
        (i, s, d) for i, (s, d) in enumerate(deal_seeds(config.seed, config.deals)) if i not in done
    ]
    total = len(work) + len(outcomes)
    seq = (
        _SequentialTest(config.sprt, config.tested[0], sprt_status)
        if config.sprt is not None
        else None
    )
    if seq is not None:
        seq.feed(outcomes, quiet=True)
        if sprt_status is not None and seq.test.n:
            sprt_status(seq.test)  # where the log left it

    def decided() -> bool:
        return seq is not None and seq.test.decision is not None

    def finished(outcome: DealOutcome) -> None:
        outcomes.append(outcome)
        if book:
            book.append(outcome)
        if progress:
            progress(len(outcomes), total)
        if seq is not None:
            seq.feed([outcome])

    if config.jobs == 1:
        try:
            for i, s, d in work:
                if decided():
                    break
                finished(play_duplicate(config, i, s, d))
        finally:
            _PROGRAMS.close()
    elif work and not decided():
        # A few chunks per process balance the load; outside programs restart with each chunk.
        # A log, or a test that may stop the run, wants small chunks: little is lost or
        # played for nothing when the run stops.
        cap = 2 if book or seq else 50
        size = max(1, min(cap, math.ceil(len(work) / (config.jobs * 4))))
        chunks = [work[i : i + size] for i in range(0, len(work), size)]
        with ProcessPoolExecutor(max_workers=config.jobs) as pool:
            if seq is None:
                futures = [pool.submit(_play_chunk, config, chunk) for chunk in chunks]
                for future in as_completed(futures):
                    for outcome in future.result():
                        finished(outcome)
            else:
                # Two chunks per process at a time, handed out as they finish: once the test
                # decides, at most those few are finished, and nothing more is started.
                queue = iter(chunks)

                def submit(k: int) -> set[Future[list[DealOutcome]]]:
                    return {pool.submit(_play_chunk, config, c) for c in islice(queue, k)}

                running = submit(2 * config.jobs)
                while running:
                    ready, running = wait(running, return_when=FIRST_COMPLETED)
                    for future in ready:
                        for outcome in future.result():
                            finished(outcome)
                    if not decided():
                        running |= submit(len(ready))
    report = summarize(config, outcomes, time.perf_counter() - start)
    report["resumed"] = len(done)
    if seq is not None:
        report["sprt"] = seq.test.to_dict()
    return report


class ArenaLog:
    """A JSON-lines file of finished deals: a header naming the run, then one deal per line.

    The header holds what decides the deals' results (bots, reference, seed, fixed contract), not
    the number of deals or jobs: a log of 200 deals goes on to 1,000 with the same deals first.
    A fixed contract's header also says that the bots were told the calls were imposed
    (``"calls": "imposed"``): a log from before they were told is another run.
    """

    def __init__(self, path: Path, outcomes: dict[int, DealOutcome]) -> None:
        self.path = path
        self.outcomes = outcomes

    @staticmethod
    def header(config: ArenaConfig) -> dict[str, Any]:
        head: dict[str, Any] = {
            "format": LOG_FORMAT,
            "tested": list(config.tested),
            "reference": config.reference,
            "seed": config.seed,
            "fixed_contract": config.fixed_contract.notation if config.fixed_contract else None,
        }
        if config.fixed_contract is not None:
            head["calls"] = "imposed"
        return head

    @classmethod
    def open(cls, path: Path, config: ArenaConfig) -> ArenaLog:
        """Read the deals already in ``path`` (creating it with a header if it is new)."""
        try:
            return cls._open(path, config)
        except (OSError, UnicodeDecodeError) as err:
            raise ArenaError(f"cannot use {path} as the log: {err}") from None

    @classmethod
    def _open(cls, path: Path, config: ArenaConfig) -> ArenaLog:
        want = cls.header(config)
        if not path.exists() or path.stat().st_size == 0:
            path.write_text(json.dumps(want) + "\n", encoding="utf-8")
            return cls(path, {})
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        try:
            head = json.loads(lines[0])
        except (json.JSONDecodeError, IndexError):
            raise ArenaError(f"{path}: not an arena log (no header line)") from None
        if head != want:
            raise ArenaError(
                f"{path}: the log is of another run ({head}); this run is {want}. "
                "Use another log file."
            )
        every: dict[int, DealOutcome] = {}
        cut_short = not text.endswith("\n")
        for number, line in enumerate(lines[1:], start=2):
            try:
                outcome = outcome_from_dict(json.loads(line))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                if number == len(lines):
                    cut_short = True  # the run stopped while writing: that deal is played again
                    break
                raise ArenaError(f"{path}: line {number} is not a finished deal") from None
            every[outcome.index] = outcome
        if cut_short:
            body = [json.dumps(asdict(o)) for o in every.values()]
            path.write_text("\n".join([json.dumps(want), *body]) + "\n", encoding="utf-8")
        # Deals past this run's count stay in the file for a longer run, unused here.
        return cls(path, {i: o for i, o in every.items() if i < config.deals})

    def append(self, outcome: DealOutcome) -> None:
        self.outcomes[outcome.index] = outcome
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(asdict(outcome)) + "\n")


def _table_from_dict(data: dict[str, Any]) -> TableResult:
    seats = tuple(str(x) for x in data["seats"])
    scores = tuple(int(x) for x in data["scores"])
    if len(seats) != 4 or len(scores) != 4:
        raise ValueError("a table has four seats")
    return TableResult(
        seats=(seats[0], seats[1], seats[2], seats[3]),
        scores=(scores[0], scores[1], scores[2], scores[3]),
        contract=data["contract"],
        declarer=data["declarer"],
        won=data["won"],
        petit_au_bout=data["petit_au_bout"],
        times=[(int(s), str(p), float(t)) for s, p, t in data["times"]],
    )


def outcome_from_dict(data: dict[str, Any]) -> DealOutcome:
    """A deal read back from a log line (the inverse of ``dataclasses.asdict``)."""
    return DealOutcome(
        index=int(data["index"]),
        seed=int(data["seed"]),
        dealer=int(data["dealer"]),
        baseline=_table_from_dict(data["baseline"]),
        tested={
            str(bot): [_table_from_dict(t) for t in tables]
            for bot, tables in data["tested"].items()
        },
    )


def parse_contract(name: str | None) -> Contract | None:
    if name is None or not name.strip() or name.strip().lower() == "none":
        return None
    bid = parse_bid(name.replace("-", "_"))
    if bid is None:
        raise ArenaError("a fixed contract is prise, garde, garde_sans or garde_contre")
    return bid


# ---------------------------------------------------------------------------- text report


def format_report(report: dict[str, Any]) -> str:
    cfg = report["config"]
    fixed = cfg["fixed_contract"]
    lines = [
        f"{report['deals']} duplicate deals (seed {cfg['seed']}), reference {cfg['reference']}"
        + (f", fixed contract {fixed} for the strongest hand" if fixed else "")
        + f"; {report['tables']} tables in {report['seconds']} s with {cfg['jobs']} job(s)",
        "",
        "score: mean points per deal per seat against the reference, 95 % CI",
    ]
    for b in report["bots"]:
        s = b["score"]
        ci = s["ci95"]
        if b["role"] == "reference":
            head = f"{b['bot']:<14} (reference: 0 by construction)"
        else:
            ci_text = f"[{ci[0]:+.1f}, {ci[1]:+.1f}]" if ci else "[n/a]"
            head = f"{b['bot']:<14} {s['mean']:+8.1f}  95% CI {ci_text}  sd {s['sd']:.1f}"
        c, d, p = b["contracts"], b["defence"], b["petit_au_bout"]
        made = f"{100 * c['made'] / c['taken']:.0f}%" if c["taken"] else "-"
        lines.append(head)
        lines.append(
            f"{'':<14} contracts taken {c['taken']} made {c['made']} ({made}) "
            f"over {b['seat_deals']} seat-deals; defended {d['contracts']}, "
            f"defeated {d['defeated']}; petit au bout won {p['won']} lost {p['lost']}"
        )
        parts = []
        for phase, t in b["decision_time"].items():
            if t["n"]:
                parts.append(f"{phase} p50 {t['p50_ms']:.2f} / p95 {t['p95_ms']:.2f} ms")
        lines.append(f"{'':<14} decision time: " + ("; ".join(parts) or "none"))
    if "sprt" in report:
        lines += ["", describe(report["sprt"])]
    return "\n".join(lines)
