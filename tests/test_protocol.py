"""The bot protocol: observations and actions as JSON lines, spoken by real subprocesses."""

from __future__ import annotations

import io
import json
import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from oudler.bots import make_bot
from oudler.bots.base import Bot, BotError
from oudler.bots.play import play_deal
from oudler.bots.protocol import (
    ProtocolError,
    SubprocessBot,
    action_from_notation,
    action_to_notation,
    observation_from_dict,
    read_answer,
    serve,
)
from oudler.core import Contract, Deal, NotationError, Phase
from oudler.core import cards as C
from oudler.lab.arena import ArenaConfig, run_arena

# ``oudler`` as a command line, from this interpreter (no reliance on PATH).
OUDLER = f"{shlex.quote(sys.executable)} -c 'from oudler.cli import main; main()'"


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(body)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}"


def test_observations_round_trip_through_json() -> None:
    rng = random.Random(8)
    seen = set()
    for i in range(60):
        deal = Deal.from_seed(i, i % 4)
        bots = [make_bot("random" if (i + s) % 2 else "club", seed=s) for s in range(4)]
        while True:
            for seat in range(4):
                obs = deal.observation(seat)
                back = observation_from_dict(json.loads(json.dumps(obs.to_dict())))
                assert back == obs
                seen.add(obs.phase)
            if deal.is_over:
                break
            seat = deal.to_move
            deal.act(bots[seat].act(deal.observation(seat)), seat)
        rng.random()
    assert seen == set(Phase)


def test_actions_are_written_and_read_in_notation() -> None:
    cases = [
        (Phase.BIDDING, None, "pass"),
        (Phase.BIDDING, Contract.GARDE_SANS, "garde_sans"),
        (Phase.DISCARD, C.parse_cards("S2 S1 H3 C4 D5 T2"), ["T2", "S1", "S2", "H3", "D5", "C4"]),
        (Phase.CHELEM, True, True),
        (Phase.POIGNEE, [], []),
        (Phase.PLAY, C.parse_card("T21"), "T21"),
    ]
    for phase, action, written in cases:
        assert action_to_notation(phase, action) == written
        back = action_from_notation(phase, json.loads(json.dumps(written)))
        assert back == action or sorted(back) == sorted(action)  # type: ignore[arg-type]
    assert read_answer(' "T21" \n') == "T21" and read_answer("t21") == "t21"
    assert read_answer("[]") == [] and read_answer("true") is True
    with pytest.raises(NotationError):
        read_answer("[S1, S2")
    with pytest.raises(NotationError, match="true or false"):
        action_from_notation(Phase.CHELEM, "yes")
    with pytest.raises(NotationError, match="list of cards"):
        action_from_notation(Phase.DISCARD, "S1 S2")


def test_serve_answers_every_observation_with_a_legal_action() -> None:
    deal = Deal.from_seed(21, 2)
    bot = make_bot("club", seed=1)
    out = io.StringIO()
    while not deal.is_over:
        seat = deal.to_move
        line = json.dumps({**deal.observation(seat).to_dict(), "deal": 1}) + "\n"
        start = out.tell()
        assert serve(bot, [line], out) == 1
        answer = out.getvalue()[start:]
        assert answer.endswith("\n") and answer.count("\n") == 1
        deal.apply(json.loads(answer), seat)  # the engine reads it as notation and accepts it
    with pytest.raises(NotationError, match="input line 2 is not an observation"):
        serve(bot, ["\n", '{"seat": 0}\n'], io.StringIO())


def _table(first: Bot, seed: int = 4) -> Deal:
    deal = Deal.from_seed(seed, 0)
    bots = [first] + [make_bot("club", seed=s) for s in (1, 2, 3)]
    play_deal(deal, bots)
    return deal


def test_a_subprocess_speaking_the_protocol_plays_like_the_bot_itself() -> None:
    program = SubprocessBot(f"{OUDLER} bot --level club --seed 0")
    try:
        for seed in (4, 5):
            remote = _table(program, seed)
            local = _table(make_bot("club", seed=0), seed)
            assert remote.result is not None and remote.bids == local.bids
            assert remote.play_log == local.play_log and remote.result == local.result
    finally:
        program.close()
    assert program.last_answer is not None and "output line" in program.last_answer


def test_the_arena_seats_an_outside_program() -> None:
    spec = f"cmd:{OUDLER} bot --level novice"
    report = run_arena(ArenaConfig(tested=(spec,), reference="novice", deals=3, seed=4))
    program = report["bots"][0]
    assert program["bot"] == spec and program["seat_deals"] == 12
    assert program["score"]["mean"] == 0.0 and program["score"]["sd"] == 0.0


def _forced_garde_by_seat_0() -> Deal:
    deal = Deal.from_seed(6, 3)
    for bid in (Contract.GARDE, None, None, None):
        deal.bid(bid)
    return deal


def _seat_2(program: SubprocessBot) -> list[Bot]:
    novices = [make_bot("novice", seed=s) for s in range(3)]
    return [novices[0], novices[1], program, novices[2]]


ILLEGAL = """
import json, sys
names = [f"T{i}" for i in range(1, 22)] + ["EX"] + [
    s + r for s in "SHDC" for r in "1 2 3 4 5 6 7 8 9 10 J C Q K".split()]
for line in sys.stdin:
    obs = json.loads(line)
    if obs["phase"] == "play":
        print(json.dumps(next(n for n in names if n not in obs["hand"])), flush=True)
    else:
        print("[]" if obs["phase"] == "poignee" else '"pass"', flush=True)
"""


def test_an_illegal_answer_names_the_program_its_line_and_the_rule(tmp_path: Path) -> None:
    program = SubprocessBot(_script(tmp_path, "illegal.py", ILLEGAL))
    try:
        with pytest.raises(BotError) as err:
            play_deal(_forced_garde_by_seat_0(), _seat_2(program))
    finally:
        program.close()
    message = str(err.value)
    assert "illegal.py" in message and "seat 2, play phase" in message
    assert "output line 1" in message and "you do not hold" in message


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("import sys\nfor line in sys.stdin:\n    print('hello world', flush=True)\n",
         r"output line 1 'hello world' is not an action"),
        ("import sys\nfor line in sys.stdin:\n    print('\"T99\"', flush=True)\n",
         r"output line 1 '\"T99\"' is not an action: unknown card"),
        ("import sys\nsys.stderr.write('boom\\n')\n", r"exited \(code 0\).*boom"),
        ("import sys, time\nfor line in sys.stdin:\n    time.sleep(30)\n",
         r"gave no answer within 0.5 s"),
    ],
)  # fmt: skip
def test_a_bad_answer_names_the_program_and_what_went_wrong(
    tmp_path: Path, body: str, expected: str
) -> None:
    program = SubprocessBot(_script(tmp_path, "bad_bot.py", body), timeout=0.5)
    try:
        with pytest.raises(ProtocolError, match=expected) as err:
            play_deal(_forced_garde_by_seat_0(), _seat_2(program))
    finally:
        program.close()
    assert "bad_bot.py" in str(err.value) and "seat 2" in str(err.value)


def test_a_program_that_ended_before_its_question_is_named_as_ended_with_its_output(
    tmp_path: Path,
) -> None:
    """The question written to a program already gone fails on a broken pipe: the error says
    that it ended, with its code and error output, as when it ends without answering."""
    program = SubprocessBot(
        _script(tmp_path, "gone.py", "import sys\nsys.stderr.write('boom\\n')\n")
    )
    program._start().wait()  # it has ended before the first question
    try:
        with pytest.raises(ProtocolError, match=r"exited \(code 0\) instead of answering.*boom"):
            play_deal(_forced_garde_by_seat_0(), _seat_2(program))
    finally:
        program.close()


def test_a_missing_program_is_a_clear_error() -> None:
    program = SubprocessBot("/nonexistent/oudler-bot-xyz")
    with pytest.raises(ProtocolError, match="could not be started"):
        play_deal(_forced_garde_by_seat_0(), _seat_2(program))


def test_oudler_bot_refuses_a_line_that_is_not_an_observation() -> None:
    argv = [*shlex.split(OUDLER), "bot", "--level", "novice"]
    done = subprocess.run(argv, input="not json\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "input line 1 is not an observation" in done.stderr
    unknown = subprocess.run(
        [*shlex.split(OUDLER), "bot", "--level", "wizard"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert unknown.returncode == 2 and "unknown level 'wizard'" in unknown.stderr
