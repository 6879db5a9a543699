"""``oudler analyze FILE [--seat S]... [--json] [--lang en|zh|fr]``: where the points went.

FILE holds a ``tarot-deal/1`` record or a ``tarot-match/1`` (each of its deals is analysed); ``-``
reads standard input. A record that does not replay exits 2 with the replay's error. See
docs/analyze.md.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

FORMAT = "oudler-analysis/1"


def _fail(message: str) -> typer.Exit:
    typer.echo(f"oudler analyze: {message}", err=True)
    return typer.Exit(2)


def _deals(text: str, name: str) -> list[dict[str, Any]]:
    """The deal records of a file, each checked by the replay (``typer.Exit(2)`` otherwise)."""
    from oudler.core.records import record_format, replay_record
    from oudler.replay import describe

    try:
        record = json.loads(text)
    except json.JSONDecodeError as e:
        raise _fail(f"{name}: not JSON ({e.msg}, line {e.lineno} column {e.colno})") from None
    outcome = replay_record(record)
    if not outcome.ok:
        raise _fail(f"{name}: {describe(outcome)}")
    if record_format(record) == "tarot-match/1":
        return list(record["deals"])
    return [record]


def _table(analyses: list[dict[str, Any]], lang: str) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(highlight=False)
    for n, a in enumerate(analyses, 1):
        contract = a["contract"] or "void deal"
        title = f"deal {n}: {contract}" + (
            f" by seat {a['declarer']}" if a["declarer"] is not None else ""
        )
        if a["scores"] is not None:
            title += f", scores {' '.join(f'{s:+d}' for s in a['scores'])}"
        table = Table(title=title, title_justify="left", show_lines=False)
        for col in ("where", "seat", "played", "best", "loss", "± se"):
            table.add_column(col, justify="right" if col in ("loss", "± se", "seat") else "left")
        table.add_column("why", ratio=1)
        costly = sorted(a["decisions"], key=lambda d: (-d["loss"], d["index"]))
        for d in costly:
            if d["loss"] <= 0 or d.get("close"):
                continue  # as good as the best, or about equal to it: counted below

            def show(action: Any) -> str:
                if action is None:
                    return "none"
                if isinstance(action, list):
                    return " ".join(action)
                return str(action).lower() if isinstance(action, bool) else str(action)

            table.add_row(
                d["where"],
                str(d["seat"]),
                show(d["played"]),
                show(d["best"]),
                f"{d['loss']:.1f}",
                f"{d['se']:.1f}",
                Text(d["reasons"][lang]),
            )
        console.print(table)
        exact = sum(1 for d in a["decisions"] if d["loss"] <= 0)
        close = sum(1 for d in a["decisions"] if d["loss"] > 0 and d.get("close"))
        totals = ", ".join(f"seat {s}: {v:.1f}" for s, v in sorted(a["total_loss"].items()))
        console.print(
            Text(
                f"{exact} decision(s) as good as the best found, {close} about equal to it "
                f"(within the estimate's noise; not listed); lost: {totals}"
            )
        )


def analyze(
    file: Annotated[
        str, typer.Argument(help="A tarot-deal/1 or tarot-match/1 record; - for stdin.")
    ],
    seats: Annotated[
        list[int] | None,
        typer.Option("--seat", help="A seat to analyse (0..3); repeat for more. Default: all."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help=f"Print one {FORMAT} JSON object.")
    ] = False,
    lang: Annotated[
        str, typer.Option("--lang", help="Language of the reasons: en, zh or fr.")
    ] = "en",
    budget_ms: Annotated[
        int | None, typer.Option("--budget-ms", help="Search per decision (default 900 ms).")
    ] = None,
    worlds: Annotated[
        int | None,
        typer.Option("--worlds", help="Exactly this many worlds per decision (reproducible)."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sampled worlds.")] = 0,
) -> None:
    """Judge every decision of a finished deal from what its seat could see then: the coach's
    choice, what the played action cost in expected score, and why."""
    from oudler.coach.analysis import analyze_deal
    from oudler.coach.reasons import LANGS

    if lang not in LANGS:
        raise _fail(f"--lang must be one of {', '.join(LANGS)}, not {lang!r}")
    chosen = sorted(set(seats)) if seats else [0, 1, 2, 3]
    if any(s not in range(4) for s in chosen):
        raise _fail("a seat is 0..3")
    if (budget_ms is not None and budget_ms <= 0) or (worlds is not None and worlds <= 0):
        raise _fail("--budget-ms and --worlds must be positive")
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise _fail(f"cannot read {file}: {e}") from None
    deals = _deals(text, "<stdin>" if file == "-" else file)
    analyses: list[dict[str, Any]] = []
    live = not as_json and sys.stderr.isatty()
    if live:
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            for n, record in enumerate(deals, 1):
                task = bar.add_task(f"deal {n}/{len(deals)}", total=None)

                def tick(done: int, total: int, task: Any = task) -> None:
                    bar.update(task, completed=done, total=total)

                analyses.append(
                    analyze_deal(record, chosen, seed=seed, budget_ms=budget_ms,
                                 worlds=worlds, lang=lang, progress=tick)
                )  # fmt: skip
    else:
        for record in deals:
            analyses.append(
                analyze_deal(record, chosen, seed=seed, budget_ms=budget_ms, worlds=worlds,
                             lang=lang)
            )  # fmt: skip
    if as_json:
        typer.echo(json.dumps({"format": FORMAT, "deals": analyses}, ensure_ascii=False))
    else:
        _table(analyses, lang)


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze)
