"""``oudler selfplay``: the expert's own decisions and the value of every option it weighed.

Four bots of one searching level play seeded deals; every decision of every seat is recorded with
what that seat could see (its observation, as the bot protocol writes it) and the values the
search gave each option, and once the deal is over its result. The file is JSON lines: a header,
then one line per deal (schema and meaning in docs/selfplay.md). Nothing else of the deal is
written: not its seed, nor the other hands, nor the dog or discard unseen by the deciding seat.

A run writes each deal as soon as it is played; started again with the same settings and file it
plays only the deals the file lacks (a line cut short by a stopped run is dropped and played
again), as the arena's log does.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from oudler.bots import SEARCH_LEVELS, make_bot, parse_level
from oudler.bots.decisions import FORMAT, deal_line, decision_line
from oudler.bots.expert import ExpertBot
from oudler.bots.expert.search import Options
from oudler.bots.protocol import action_to_notation
from oudler.core import Action, Deal, Phase
from oudler.lab.arena import bot_seed, deal_seeds


class SelfplayError(ValueError):
    """Settings that cannot work (a level that does not search, a file of another run)."""


def _candidates(phase: Phase, opts: Options[Any]) -> list[dict[str, Any]]:
    out = []
    for i, (action, value) in enumerate(zip(opts.actions, opts.values, strict=True)):
        if phase is Phase.POIGNEE and action is None:
            action = []  # showing nothing, as the protocol writes it
        out.append(
            {
                "action": action_to_notation(phase, action),
                "mean": round(value.mean, 3),
                "se": round(value.se, 3),
                "worlds": value.worlds,
                "kept": i in opts.kept,
            }
        )
    return out


def play_recorded(bots: list[ExpertBot], deal: Deal, index: int) -> dict[str, Any]:
    """Play ``deal`` with ``bots``, recording every decision; the deal's line."""
    for seat, bot in enumerate(bots):
        bot.begin_deal(seat)
    decisions: list[dict[str, Any]] = []
    while not deal.is_over:
        seat = deal.to_move
        obs = deal.observation(seat)
        action: Action
        action, opts = bots[seat].decide(obs)
        deal.act(action, seat)
        decisions.append(
            decision_line(
                obs,
                action_to_notation(obs.phase, action),
                worlds=opts.worlds if opts is not None else 0,
                candidates=_candidates(obs.phase, opts) if opts is not None else None,
            )
        )
    assert deal.result is not None
    return deal_line(index, deal.result.to_dict(), decisions)


def header(level: str, seed: int) -> dict[str, Any]:
    return {"format": FORMAT, "level": level, "seed": seed}


def run_selfplay(
    level: str,
    deals: int,
    out: Path,
    *,
    seed: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play ``deals`` seeded deals with four bots of ``level`` and write them to ``out``; a
    summary (deals, decisions, how many taken from the file)."""
    spec = parse_level(level)
    if spec.level not in SEARCH_LEVELS:
        raise SelfplayError(
            f"selfplay records a search's values: the level is one of {', '.join(SEARCH_LEVELS)} "
            f"(as expert@w200), not {level!r}"
        )
    if deals < 1:
        raise SelfplayError("selfplay needs at least one deal")
    want = header(spec.name, seed)
    done = _read(out, want)
    seeds = deal_seeds(seed, deals)
    played = 0
    decisions = sum(n for i, n in done.items() if i < deals)
    with out.open("a", encoding="utf-8") as fh:
        for index, (deal_seed, dealer) in enumerate(seeds):
            if index in done:
                continue
            bots = []
            for s in range(4):
                bot = make_bot(spec.name, seed=bot_seed(seed, index, s))
                assert isinstance(bot, ExpertBot)
                bots.append(bot)
            line = play_recorded(bots, Deal.from_seed(deal_seed, dealer), index)
            fh.write(json.dumps(line, separators=(",", ":")) + "\n")
            fh.flush()
            played += 1
            decisions += len(line["decisions"])
            if progress is not None:
                progress(index + 1, deals)
    return {
        "format": FORMAT,
        "level": spec.name,
        "seed": seed,
        "deals": deals,
        "played": played,
        "resumed": sum(1 for i in done if i < deals),
        "decisions": decisions,
        "out": str(out),
    }


def _read(path: Path, want: dict[str, Any]) -> dict[int, int]:
    """The deals already in ``path`` (index: number of decisions), creating it if new; a file of
    another run is refused, a last line cut short is dropped."""
    try:
        if not path.exists() or path.stat().st_size == 0:
            path.write_text(json.dumps(want) + "\n", encoding="utf-8")
            return {}
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise SelfplayError(f"cannot use {path}: {err}") from None
    lines = text.splitlines()
    try:
        head = json.loads(lines[0])
    except (json.JSONDecodeError, IndexError):
        raise SelfplayError(f"{path}: not a selfplay file (no header line)") from None
    if head != want:
        raise SelfplayError(f"{path} is of another run ({head}); this run is {want}")
    done: dict[int, int] = {}
    kept = [lines[0]]
    for number, line in enumerate(lines[1:], start=2):
        try:
            data = json.loads(line)
            done[int(data["deal"])] = len(data["decisions"])
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            if number == len(lines):
                break  # cut short by a stopped run: that deal is played again
            raise SelfplayError(f"{path}: line {number} is not a recorded deal") from None
        kept.append(line)
    if len(kept) != len(lines) or not text.endswith("\n"):
        path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return done


def read_selfplay(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(header, deals) of a selfplay file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    if head.get("format") != FORMAT:
        raise SelfplayError(f"{path}: not a selfplay file ({head.get('format')!r})")
    return head, [json.loads(line) for line in lines[1:] if line.strip()]
