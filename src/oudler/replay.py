"""``oudler replay [--json] FILE...``: check deal and match records against the rules.

A FILE holds one record (a ``tarot-deal/1`` or ``tarot-match/1`` object), a JSON list of records,
or JSON Lines (one record per line); ``-`` reads standard input. Every record is replayed by the
engine (``oudler.core.records``); see docs/replay.md for the outputs.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from oudler.core.errors import RecordError
from oudler.core.records import ReplayOutcome, replay_record


@dataclass(frozen=True)
class Checked:
    """One record of a file and what its replay gave; ``source`` names it for people."""

    source: str
    outcome: ReplayOutcome


def _unreadable(source: str, why: str) -> Checked:
    return Checked(source, ReplayOutcome.malformed(RecordError(why, field="record")))


def check_text(text: str, name: str) -> list[Checked]:
    """Replay every record of one file's text, in order."""
    try:
        whole = json.loads(text)
    except json.JSONDecodeError as e:
        return _check_lines(text, name, e)
    if isinstance(whole, list):
        return [Checked(f"{name}#{i + 1}", replay_record(r)) for i, r in enumerate(whole)]
    return [Checked(name, replay_record(whole))]


def _check_lines(text: str, name: str, whole_error: json.JSONDecodeError) -> list[Checked]:
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        return [_unreadable(name, "the file holds no record")]
    out: list[Checked] = []
    for n, line in lines:
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            if not out:  # not JSON Lines either: report the file as one broken document
                where = f"line {whole_error.lineno} column {whole_error.colno}"
                return [_unreadable(name, f"not JSON ({whole_error.msg}, {where})")]
            out.append(_unreadable(f"{name}:{n}", f"line {n} is not JSON ({e.msg})"))
            continue
        out.append(Checked(f"{name}:{n}", replay_record(record)))
    return out


def check_file(path: str) -> list[Checked]:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        return [_unreadable(path, f"cannot read {path}: {e}")]
    return check_text(text, "<stdin>" if path == "-" else path)


# ---------------------------------------------------------------------------------- human output


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def _deal_summary(result: dict[str, Any]) -> str:
    if result.get("void"):
        return {"petit_sec": "void deal: petit sec", "all_pass": "void deal: all passed"}.get(
            str(result["void"]), f"void deal: {result['void']}"
        )
    contract = str(result["contract"]).replace("_", " ")
    outcome = "won" if result["won"] else "lost"
    extras = []
    if result.get("petit_au_bout"):
        extras.append(f"petit au bout to the {result['petit_au_bout']}")
    if result.get("chelem"):
        extras.append(f"chelem by the {result['chelem']}")
    scores = " ".join(_signed(s) for s in result["scores"])
    text = (
        f"{contract} by seat {result['declarer']}: {result['points']} points with "
        f"{result['oudlers']} oudler(s), {result['needed']} needed, {outcome}"
    )
    return f"{text}{'; ' + ', '.join(extras) if extras else ''}; scores {scores}"


def describe(outcome: ReplayOutcome) -> str:
    """One readable line about a replay outcome (without the record's name)."""
    where = "" if outcome.deal is None else f"deal {outcome.deal}, "
    if outcome.kind == "illegal":
        return f"{where}action {outcome.index} ({outcome.code}): {outcome.error}"
    if outcome.kind == "malformed":
        return f"{where}malformed ({outcome.field}): {outcome.error}"
    if outcome.kind == "mismatch":
        fields = "; ".join(
            f"{name} stored {json.dumps(v['stored'])}, replayed {json.dumps(v['replayed'])}"
            for name, v in outcome.mismatch.items()
        )
        return f"{where}stored result differs: {fields}"
    result = outcome.result
    if result is not None and "totals" in result:  # a match
        deals = result["deals"]
        void = sum(1 for r in deals if r is not None and r.get("void"))
        totals = " ".join(_signed(t) for t in result["totals"])
        text = f"match of {len(deals)} deal(s) ({void} void): totals {totals}"
        return text + ("; the last deal is unfinished" if outcome.kind == "unfinished" else "")
    if outcome.kind == "unfinished":
        return f"unfinished deal, stops in the {outcome.phase} phase"
    assert result is not None
    return _deal_summary(result)


_LABELS = {
    "ok": ("ok", "green"),
    "unfinished": ("ok", "yellow"),
    "illegal": ("ILLEGAL", "bold red"),
    "malformed": ("MALFORMED", "bold red"),
    "mismatch": ("MISMATCH", "bold red"),
}


def _print_human(checked: list[Checked]) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    for c in checked:
        label, style = _LABELS[c.outcome.kind]
        line = Text()
        line.append(f"{label:<9}", style=style)
        line.append(f" {c.source}: ", style="bold")
        line.append(describe(c.outcome))  # Text.append: card names like [S1] are not markup
        console.print(line)
    failed = sum(1 for c in checked if not c.outcome.ok)
    summary = f"{len(checked)} record(s): {len(checked) - failed} ok, {failed} failed"
    console.print(Text(summary, style="bold red" if failed else "bold green"))


# ---------------------------------------------------------------------------------- command


def replay(
    files: Annotated[
        list[str], typer.Argument(help="Record files (JSON or JSON Lines); - for stdin.")
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object per record, in order.")
    ] = False,
) -> None:
    """Check every action of every deal or match record, and its stored result.

    Exit status 1 when any record is illegal, malformed or has a result that differs.
    """
    checked = [c for path in files for c in check_file(path)]
    if as_json:
        for c in checked:
            typer.echo(json.dumps(c.outcome.to_dict(), ensure_ascii=False))
    else:
        _print_human(checked)
    if any(not c.outcome.ok for c in checked):
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
