"""The bot protocol over standard input and output (docs/bot-protocol.md).

One JSON object per line goes to the bot: the observation of the seat to move,
``Observation.to_dict()`` with its ``legal`` actions, plus ``"deal"``, a number that changes when a
new deal begins. The bot answers with one line: the action as written in spec/notation.md
(``"garde"``, ``["S1", ...]``, ``true``, ``[]``, ``"T21"``).

``observation_from_dict`` reads an observation back, ``action_to_notation``/``action_from_notation``
write and read actions, ``serve`` is the bot side (``oudler bot --level L``) and ``SubprocessBot``
seats an outside program that speaks the protocol at any table.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import threading
from collections import deque
from collections.abc import Iterable, Mapping
from typing import IO, Any

from oudler.bots.base import Bot, BotError
from oudler.core import Action, Contract, DealResult, Observation, Phase, Trick
from oudler.core import cards as C
from oudler.core.deal import bid_name, parse_bid
from oudler.core.errors import NotationError
from oudler.core.observation import Legal

DEFAULT_TIMEOUT = 60.0
"""Seconds an outside program may think about one action before the table gives up on it."""


class ProtocolError(BotError):
    """An outside program broke the protocol: no answer, an unreadable one, or it stopped."""


# ---------------------------------------------------------------------------- reading observations


def _mask(names: Iterable[str] | None) -> int:
    return C.mask_of(C.parse_cards(names)) if names is not None else 0


def _opt_mask(names: Iterable[str] | None) -> int | None:
    return None if names is None else _mask(names)


def _contract(name: str | None) -> Contract | None:
    return None if name is None else parse_bid(name)


def _result(d: Mapping[str, Any] | None) -> DealResult | None:
    if d is None:
        return None
    s = d["scores"]
    return DealResult(
        void=d["void"],
        scores=(s[0], s[1], s[2], s[3]),
        contract=_contract(d["contract"]),
        declarer=d["declarer"],
        oudlers=d["oudlers"],
        points=d["points"],
        needed=d["needed"],
        won=d["won"],
        petit_au_bout=d["petit_au_bout"],
        chelem=d["chelem"],
        half_points=d.get("half_points"),
        diff=d.get("diff"),
        multiplier=d.get("multiplier"),
        poignee_bonus=d.get("poignee_bonus"),
        chelem_bonus=d.get("chelem_bonus"),
        chelem_announced=d.get("chelem_announced"),
        per_defender=d.get("per_defender"),
        excuse_exchange=d.get("excuse_exchange"),
    )


def _legal(d: Mapping[str, Any]) -> Legal:
    discard = d.get("discard") or {}
    poignee = d.get("poignee") or {}
    return Legal(
        bids=tuple(parse_bid(b) for b in d.get("bids", ())),
        discard_allowed=_mask(discard.get("allowed")),
        discard_forced_trumps=int(discard.get("forced_trumps", 0)),
        poignee_cards=_mask(poignee.get("cards")),
        poignee_sizes=tuple(poignee.get("sizes", ())),
        chelem=bool(d.get("chelem")),
        cards=_mask(d.get("cards")),
    )


def observation_from_dict(d: Mapping[str, Any]) -> Observation:
    """Read back what ``Observation.to_dict()`` wrote (extra keys, like ``deal``, are ignored).

    Raises ``NotationError`` (or ``KeyError``/``TypeError`` on a malformed object)."""
    trick = d["trick"]
    petit_sec = d.get("petit_sec")
    review = d.get("review")
    return Observation(
        seat=d["seat"],
        dealer=d["dealer"],
        phase=Phase(d["phase"]),
        to_move=d["to_move"],
        hand=_mask(d["hand"]),
        bids=tuple(parse_bid(b) for b in d["bids"]),
        contract=_contract(d["contract"]),
        declarer=d["declarer"],
        dog=_opt_mask(d["dog"]),
        own_discard=_opt_mask(d["discard"]),
        discard_trumps=_mask(d["discard_trumps"]),
        chelem=d["chelem"],
        poignees={int(s): _mask(cs) for s, cs in d["poignees"].items()},
        tricks=tuple(
            Trick(t["leader"], tuple(C.parse_cards(t["cards"])), t["winner"]) for t in d["tricks"]
        ),
        trick_leader=trick["leader"],
        trick_cards=tuple(C.parse_cards(trick["cards"])),
        excuse_pending=d["excuse_pending"],
        petit_sec=None if petit_sec is None else (petit_sec["seat"], _mask(petit_sec["hand"])),
        result=_result(d.get("result")),
        legal=_legal(d.get("legal") or {}),
        review_hands=None if review is None else tuple(_mask(h) for h in review["hands"]),
        review_dog=None if review is None else _opt_mask(review["dog"]),
        review_discard=None if review is None else _opt_mask(review["discard"]),
        trick_winner=trick.get("winner"),
    )


# ---------------------------------------------------------------------------- actions


def action_to_notation(phase: Phase, action: Action) -> Any:
    """A typed action as notation.md writes it (a JSON value)."""
    if phase is Phase.BIDDING:
        if action is not None and not isinstance(action, Contract):
            raise NotationError(f"a bid is a contract or a pass, not {action!r}")
        return bid_name(action)
    if phase in (Phase.DISCARD, Phase.POIGNEE):
        if not isinstance(action, list):
            raise NotationError(f"expected a list of cards, not {action!r}")
        return C.format_cards(action)
    if phase is Phase.CHELEM:
        if not isinstance(action, bool):
            raise NotationError(f"the chelem announcement is true or false, not {action!r}")
        return action
    if phase is Phase.PLAY:
        if isinstance(action, bool) or not isinstance(action, int):
            raise NotationError(f"a card is expected, not {action!r}")
        return C.card_name(action)
    raise NotationError(f"no action is taken in the {phase.value} phase")


def action_from_notation(phase: Phase, value: Any) -> Action:
    """Read an action written as in notation.md for ``phase``; raises ``NotationError``."""
    if phase is Phase.BIDDING:
        return parse_bid(value)
    if phase in (Phase.DISCARD, Phase.POIGNEE):
        if isinstance(value, str) or not isinstance(value, list):
            what = "discard" if phase is Phase.DISCARD else "poignée"
            raise NotationError(f"the {what} is a JSON list of cards, not {value!r}")
        return C.parse_cards(value)
    if phase is Phase.CHELEM:
        if not isinstance(value, bool):
            raise NotationError(f"the chelem announcement is true or false, not {value!r}")
        return value
    if phase is Phase.PLAY:
        return C.parse_card(value)
    raise NotationError(f"no action is taken in the {phase.value} phase")


def read_answer(line: str) -> Any:
    """One answer line: a JSON value; a bare word (``pass``, ``T21``) is read as that string."""
    text = line.strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        if text and not any(ch in text for ch in ' []{}",:'):
            return text
        raise NotationError(f"not a JSON value: {text!r}") from None


# ---------------------------------------------------------------------------- the bot side


def serve(bot: Bot, lines: Iterable[str], out: IO[str]) -> int:
    """Answer every observation line with one action line; return how many were answered.

    Stops at the end of input. A line that cannot be read raises ``NotationError`` naming it."""
    deal: object = None
    started = False
    answered = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            message = json.loads(line)
            obs = observation_from_dict(message)
        except KeyError as err:
            raise NotationError(f"input line {number} is not an observation: no {err}") from err
        except (json.JSONDecodeError, NotationError, TypeError, ValueError) as err:
            raise NotationError(f"input line {number} is not an observation: {err}") from err
        # A new deal: its number changed (without one, a bidding question starts a deal).
        new = message["deal"] != deal if "deal" in message else obs.phase is Phase.BIDDING
        if new or not started:
            deal = message.get("deal")
            started = True
            bot.begin_deal(obs.seat)
        action = bot.act(obs)
        out.write(json.dumps(action_to_notation(obs.phase, action)) + "\n")
        out.flush()
        answered += 1
    return answered


# ---------------------------------------------------------------------------- the table side


class SubprocessBot:
    """An outside program that speaks the protocol, seated like any bot.

    ``command`` is split like a shell would (no shell runs it). The program is started on first use
    and kept for the following deals; ``close`` ends it. A bad or late answer raises a
    ``ProtocolError`` that names the program and its output line; an illegal one is refused by the
    engine with the same naming (``last_answer``).
    """

    level = "program"

    def __init__(self, command: str, *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.command = command
        self.name = f"cmd:{command}"
        self.timeout = timeout
        self._argv = shlex.split(command)
        if not self._argv:
            raise ValueError("an empty command cannot be seated")
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=20)
        self._stderr_reader: threading.Thread | None = None
        self._line_no = 0
        self._deal = 0
        self.last_answer: str | None = None

    # -- process

    def _start(self) -> subprocess.Popen[str]:
        if self._proc is not None:
            return self._proc
        try:
            proc = subprocess.Popen(
                self._argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        except OSError as err:
            raise ProtocolError(
                f"program {self.command!r} could not be started: {err}", seat=-1, phase=Phase.DONE
            ) from err
        self._proc = proc
        threading.Thread(target=self._pump, args=(proc.stdout, self._lines), daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._drain, args=(proc.stderr,), daemon=True)
        self._stderr_reader.start()
        return proc

    def _exited(self, proc: subprocess.Popen[str]) -> str:
        """What to say of a program that has ended, once its error output is read to the end."""
        self._proc = None
        if self._stderr_reader is not None:
            self._stderr_reader.join(timeout=2)
        return f"exited (code {proc.returncode}) instead of answering"

    @staticmethod
    def _pump(stream: IO[str] | None, lines: queue.Queue[str | None]) -> None:
        assert stream is not None
        for line in stream:
            lines.put(line)
        lines.put(None)  # end of output

    def _drain(self, stream: IO[str] | None) -> None:
        assert stream is not None
        for line in stream:
            self._stderr.append(line.rstrip("\n"))

    def close(self) -> None:
        """End the program (closing its input first, so that it may exit by itself)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()

    def __del__(self) -> None:
        proc = getattr(self, "_proc", None)
        if proc is not None and proc.poll() is None:
            proc.kill()

    # -- the bot interface

    def begin_deal(self, seat: int) -> None:
        self._deal += 1

    def _fail(self, obs: Observation, what: str) -> ProtocolError:
        tail = "; ".join(self._stderr)
        extra = f" (its error output: {tail})" if tail else ""
        return ProtocolError(
            f"program {self.command!r}, seat {obs.seat}, {obs.phase.value} phase: {what}{extra}",
            seat=obs.seat,
            phase=obs.phase,
        )

    def act(self, obs: Observation) -> Action:
        proc = self._start()
        message = obs.to_dict()
        message["deal"] = self._deal
        try:
            assert proc.stdin is not None
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError) as err:
            # Usually the program has ended (its input closed with it): say so, with its error
            # output, as when it ends without answering; else it closed its input and runs on.
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                raise self._fail(obs, f"stopped reading its input ({err})") from err
            raise self._fail(obs, self._exited(proc)) from err
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise self._fail(obs, f"gave no answer within {self.timeout:g} s") from None
        if line is None:
            proc.wait()
            raise self._fail(obs, self._exited(proc))
        self._line_no += 1
        self.last_answer = f"program {self.command!r} output line {self._line_no}: {line.strip()!r}"
        try:
            return action_from_notation(obs.phase, read_answer(line))
        except NotationError as err:
            raise self._fail(
                obs, f"output line {self._line_no} {line.strip()!r} is not an action: {err}"
            ) from err
