"""Write the golden deal and match records of tests/golden/ from their seeds.

Each record is a seeded deal played by random legal actions (tests/helpers.py) and written by the
engine; the fft_example_N files are seeded deals steered into RULES.md's FFT scoring examples.
tests/test_records.py replays every golden file and checks that the engine still writes the same
records; when a change of the engine is intended, run this again and review the diff:

    .venv/bin/python tests/golden/regenerate.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from helpers import play_out, play_random_deal, random_action  # noqa: E402
from oudler.core import Contract, Deal, Match, Phase  # noqa: E402
from oudler.core import cards as C  # noqa: E402
from oudler.core.records import deal_to_record, match_to_record  # noqa: E402

# name -> seed; the random actions come from random.Random(seed). Chosen so that together they
# cover every contract, both void deals, the chelem, each Excuse settlement and petit au bout.
DEALS = {
    "prise": 0,
    "garde": 1,
    "garde_sans": 2,
    "garde_contre": 11,
    "all_pass": 8,
    "petit_sec": 934,
    "chelem_announced": 71,
    "defence_chelem": 78,
    "excuse_last_trick": 1172,
    "petit_au_bout_declarer": 136,
    "petit_au_bout_defence": 82,
    "poignee_with_excuse": 258,
}
UNFINISHED = (5, 40)  # seed, actions taken
MATCH = (4, 2025)  # length, seed: two all-pass deals on the way
MATCH_UNFINISHED = (2, 7, 25)  # length, seed, actions taken in its second deal


# RULES.md §9's FFT examples 1 to 4, found among seeded deals (see fft_example_deal):
# number -> (seed, dealer, declarer, contract, seat showing a single poignée, declarer keeps the
# Petit for the last trick, seed of the random actions).
FFT_EXAMPLES: dict[int, tuple[int, int, int, str, int | None, bool, int]] = {
    1: (2065, 0, 3, "garde", 3, True, 7),  # 49 points, 2 oudlers, declarer poignée and pab
    2: (1067, 0, 0, "garde_sans", None, False, 3),  # won by 4, defence petit au bout
    3: (659, 0, 3, "prise", 3, True, 0),  # lost by 7, declarer poignée and petit au bout
    4: (659, 0, 1, "garde", 3, False, 5),  # won by 11, a defender's poignée
}


def fft_example_deal(
    seed: int,
    dealer: int,
    declarer: int,
    contract: str,
    shower: int | None,
    keep_petit: bool,
    rng_seed: int,
) -> Deal:
    """A seeded deal where ``declarer`` bids ``contract`` and the others pass; ``shower`` shows a
    single poignée of its ten highest trumps; no chelem; the rest is random legal play, except
    that with ``keep_petit`` the declarer plays the Petit only when he must."""
    rng = random.Random(rng_seed)
    deal = Deal.from_seed(seed, dealer)
    while deal.phase is Phase.BIDDING:
        deal.bid(Contract[contract.upper()] if deal.to_move == declarer else None)
    while not deal.is_over:
        seat = deal.to_move
        if deal.phase is Phase.CHELEM:
            deal.announce_chelem(False)
        elif deal.phase is Phase.POIGNEE:
            trumps = C.cards_of(deal.poignee_cards(seat) & C.TRUMPS)
            deal.declare_poignee(trumps[-10:] if seat == shower and len(trumps) >= 10 else [])
        elif deal.phase is Phase.PLAY:
            legal = deal.legal_cards()
            if keep_petit and seat == declarer and legal & ~C.PETIT_BIT:
                legal &= ~C.PETIT_BIT
            deal.play(rng.choice(C.cards_of(legal)))
        else:
            deal.act(random_action(deal, rng))
    return deal


def golden_records() -> dict[str, dict[str, Any]]:
    """File name -> record, as this engine writes them today."""
    out: dict[str, dict[str, Any]] = {}
    for name, seed in DEALS.items():
        out[f"deal_{name}.json"] = deal_to_record(play_random_deal(seed, random.Random(seed)))
    seed, actions = UNFINISHED
    rng = random.Random(seed)
    deal = play_out(Deal.from_seed(seed, rng.randrange(4)), rng, stop_after=actions)
    out["deal_unfinished.json"] = deal_to_record(deal)
    length, seed = MATCH
    rng = random.Random(seed)
    match = Match(length, seed)
    while True:
        play_out(match.current, rng)
        if match.is_over:
            break
        match.next_deal()
    out["match.json"] = match_to_record(match)
    length, seed, actions = MATCH_UNFINISHED
    rng = random.Random(seed)
    match = Match(length, seed)
    play_out(match.advance(), rng)
    play_out(match.advance(), rng, stop_after=actions)
    out["match_unfinished.json"] = match_to_record(match)
    for number, args in FFT_EXAMPLES.items():
        out[f"fft_example_{number}.json"] = deal_to_record(fft_example_deal(*args))
    return out


def dumps(record: dict[str, Any]) -> str:
    """JSON with one top-level field per line (a match: one deal per line), for readable diffs."""
    lines = []
    for key, value in record.items():
        if key == "deals":
            deals = ",\n  ".join(json.dumps(d, ensure_ascii=False) for d in value)
            text = f"[\n  {deals}\n ]"
        else:
            text = json.dumps(value, ensure_ascii=False)
        lines.append(f" {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main() -> None:
    for name, record in golden_records().items():
        (HERE / name).write_text(dumps(record), encoding="utf-8")
        print(f"wrote tests/golden/{name}")


if __name__ == "__main__":
    main()
