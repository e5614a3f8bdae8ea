"""Quiz questions the engine writes about one position of a search, with the answer and why.

The class quiz (server/classroom/quiz.py) asks them where the class stands; /watch's and
/lesson's practice mode asks the same kinds in the browser.  A question is about the
position a search reached after some of its events: its path (start first) and, for the
kinds that ask what the search does next, the events that follow (``ahead``).  Each
kind says whether it can be asked at a position and, if so, writes its answer (always a
small int, one of ``values``), what the question shows besides the position
(``subject``: public) and the reveal's explanation (``why``: kept back until the reveal).

Kinds (:data:`KINDS`):

``next``       where does the search go next?  A square: the next event, a move with a
               choice (the root move chooses nothing, a backtrack is no "where").
``onward``     how many onward moves does the subject square have?  Warnsdorff's number
               of one of the knight's unvisited neighbours: its own unvisited neighbours.
``pick``       which square does Warnsdorff's rule pick here, and how is a tie broken?
               The fewest onward moves, ties to the first in the move order (a stable
               sort, as the engine's ``warnsdorff`` ordering).  Asked where there are
               two candidates at least, or a little further on where a tie is broken.
``backtrack``  will the search step back from here, and how many steps?  The number of
               backtracks before its next move (0: it moves on).
``frame``      the knight is stuck: which frame of the call stack carries on?  The square
               of the frame the returns stop at, the one that makes the next move.
``possible``   can this path still become a tour?  1 or 0, by the exact hint search
               (:func:`~.hints.hint`): a witness or a proof, never a guess.
``obstacle``   why has this board no tour?  An index into :data:`OBSTACLES`, the
               verdict's named obstacle (:func:`~.verdict.decide`).

Nothing here knows a room, a clock or a browser: a caller hands over the position, a
random source (which square ``onward`` asks about) and a time budget.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from .board import Board
from .hints import hint
from .shape import MAX_SHAPE_SIDE, Puzzle, Shape
from .verdict import decide

KINDS = ("next", "onward", "pick", "backtrack", "frame", "possible", "obstacle")
# the verdict's named obstacles a student chooses between (server/engine/verdict.py)
OBSTACLES = ("unreachable", "split", "dead-ends", "colour", "start-colour", "theory", "exhausted")
MAX_ONWARD = 8  # a knight has at most eight moves
POSSIBLE_TRIES = 3  # positions the hint search may try before ``possible`` gives up
TIE_REACH = 16  # events ``pick`` looks on for a tie to break, past a position without one
MORE = object()  # a kind's answer needs events past the window: look further


@dataclass(frozen=True)
class Question:
    """One question: its ``kind``, the right ``answer`` (``0 <= answer < values``), what it
    shows besides the position (``subject``) and the reveal's ``why``."""

    kind: str
    answer: int
    values: int
    subject: dict = field(default_factory=dict)
    why: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Placed:
    """A question at the position after ``offset`` more events, whose path is ``path``."""

    offset: int
    path: tuple[int, ...]
    question: Question


@dataclass(frozen=True)
class Position:
    """What a kind reads: the board and the rules, the path, and the search's events from
    here on (``ahead[at:]``; ``ended``: they run to the search's end)."""

    board: Board
    closed: bool
    path: tuple[int, ...]
    ahead: Sequence
    at: int
    ended: bool

    def next_event(self, k: int = 0):
        """The event ``k`` after this position, None past the search's end, MORE past the
        window."""
        i = self.at + k
        if i < len(self.ahead):
            return self.ahead[i]
        return None if self.ended else MORE

    @property
    def knight(self) -> int:
        return self.path[-1]

    @cached_property
    def visited(self) -> frozenset[int]:
        return frozenset(self.path)

    def unvisited_neighbours(self, square: int) -> list[int]:
        seen = self.visited
        return [n for n in self.board.neighbours[square] if n not in seen]

    def backed_out(self, steps: int) -> list[int]:
        """The squares the next ``steps`` backtracks leave, the knight's first."""
        return list(reversed(self.path[len(self.path) - steps :]))


def where_next(knight: int, move, area: int) -> Question:
    """``next`` at a position whose next event is ``move`` (a move with candidates) from
    the knight's square, on a board of ``area`` squares."""
    candidates = list(move.candidates)
    why = {
        "from": knight,
        "candidates": candidates,
        "onward": list(move.onward) if move.onward is not None else None,
        "tried": candidates.index(move.square),  # the ones before it failed (or were cut)
    }
    return Question("next", move.square, area, {}, why)


def _next(pos: Position, rng: random.Random, seconds: float):
    event = pos.next_event()
    if event is MORE:
        return MORE
    if event is None or event.kind != "move" or not event.candidates:
        return None
    return where_next(pos.knight, event, pos.board.area)


def _onward(pos: Position, rng: random.Random, seconds: float):
    if len(pos.path) >= pos.board.size:
        return None
    candidates = pos.unvisited_neighbours(pos.knight)
    if not candidates:
        return None
    square = rng.choice(candidates)
    onward = pos.unvisited_neighbours(square)
    why = {"square": square, "onward": onward}
    return Question("onward", len(onward), MAX_ONWARD + 1, {"square": square}, why)


def warnsdorff_pick(pos: Position) -> dict | None:
    """Warnsdorff's rule at ``pos``: the candidates in the move order with their onward
    counts, the fewest, the ones tied there and the pick (the first of them)."""
    candidates = pos.unvisited_neighbours(pos.knight)
    if len(candidates) < 2:
        return None
    counts = [len(pos.unvisited_neighbours(c)) for c in candidates]
    fewest = min(counts)
    tied = [c for c, n in zip(candidates, counts, strict=True) if n == fewest]
    return {
        "from": pos.knight,
        "candidates": candidates,
        "onward": counts,
        "fewest": fewest,
        "tied": tied,
        "pick": tied[0],
    }


def _pick(pos: Position, rng: random.Random, seconds: float):
    why = warnsdorff_pick(pos)
    if why is None:
        return None
    return Question("pick", why["pick"], pos.board.area, {}, why)


def _returns(pos: Position):
    """(the backtracks from here, the event after them): MORE past the window."""
    steps = 0
    while True:
        event = pos.next_event(steps)
        if event is MORE:
            return MORE
        if event is None or event.kind == "move":
            return steps, event
        steps += 1


def _backtrack(pos: Position, rng: random.Random, seconds: float):
    if len(pos.path) >= pos.board.size:
        return None
    returns = _returns(pos)
    if returns is MORE:
        return MORE
    steps, after = returns
    if steps == 0 and after is None:
        return None  # the search ends here: nothing follows to ask about
    stays = pos.path[: len(pos.path) - steps]
    why = {
        "steps": steps,
        "left": pos.backed_out(steps),
        "to": stays[-1] if stays else None,
        "next": after.square if after is not None else None,
    }
    return Question("backtrack", steps, len(pos.path) + 1, {"max": len(pos.path)}, why)


def _frame(pos: Position, rng: random.Random, seconds: float):
    returns = _returns(pos)
    if returns is MORE:
        return MORE
    steps, after = returns
    if not steps or after is None or steps >= len(pos.path):
        return None  # it moves on (no return to ask about), or the search ends
    frame = pos.path[len(pos.path) - 1 - steps]
    why = {
        "returned": pos.backed_out(steps),
        "frame": frame,
        "depth": len(pos.path) - steps,  # the frame's step number (the start is 1)
        "next": after.square,
    }
    return Question("frame", frame, pos.board.area, {}, why)


class _Decided:
    """The last answers a search decided (a hint, a verdict), by their question: the same
    position is asked twice (the class quiz computes before it locks the room, and again
    under the lock with less time), and a decided answer never changes."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.answers: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key, compute, decided):
        with self.lock:
            if key in self.answers:
                self.answers.move_to_end(key)
                return self.answers[key]
        answer = compute()
        if decided(answer):
            with self.lock:
                self.answers[key] = answer
                while len(self.answers) > self.size:
                    self.answers.popitem(last=False)
        return answer


_HINTS = _Decided(256)
_VERDICTS = _Decided(64)


def _possible(pos: Position, rng: random.Random, seconds: float):
    if len(pos.path) >= pos.board.size:
        return None
    answer = _HINTS.get(
        (pos.board, pos.path, pos.closed),
        lambda: hint(pos.board, pos.path, closed=pos.closed, time_limit=seconds),
        lambda found: found.verdict != "unknown",
    )
    if answer.verdict == "unknown":
        return None
    why = {
        "verdict": answer.verdict,
        "witness": list(answer.witness) if answer.witness is not None else None,
        "code": answer.code,
        "params": answer.params,
        "reason": answer.reason,
    }
    return Question("possible", int(answer.verdict == "completable"), 2, {}, why)


def board_verdict(board: Board, closed: bool, start: int | None, seconds: float):
    """The editor's verdict for the board and its start (kept once decided: it is the
    board's, and a proof by search may take seconds); None for a board past the editor's
    size."""
    if board.rows > MAX_SHAPE_SIDE or board.cols > MAX_SHAPE_SIDE:
        return None
    shape = Shape(board.rows, board.cols, board.blocked)
    return _VERDICTS.get(
        (board, closed, start),
        lambda: decide(Puzzle(shape, closed, start), time_limit=seconds),
        lambda verdict: verdict.tour is not None,
    )


def _obstacle(pos: Position, rng: random.Random, seconds: float):
    start = pos.path[0] if pos.path else None
    verdict = board_verdict(pos.board, pos.closed, start, seconds)
    if verdict is None or verdict.tour is not False or verdict.code not in OBSTACLES:
        return None
    why = {
        "code": verdict.code,
        "params": verdict.params,
        "squares": list(verdict.squares),
        "reason": verdict.reason,
    }
    subject = {"choices": list(OBSTACLES)}
    return Question("obstacle", OBSTACLES.index(verdict.code), len(OBSTACLES), subject, why)


_KIND = {
    "next": _next,
    "onward": _onward,
    "pick": _pick,
    "backtrack": _backtrack,
    "frame": _frame,
    "possible": _possible,
    "obstacle": _obstacle,
}
# kinds that a position with the knight not yet placed (the root) can be asked about
_AT_ROOT = frozenset({"obstacle"})


def first(
    kind: str,
    board: Board,
    path: Sequence[int],
    ahead: Sequence,
    *,
    closed: bool = False,
    ended: bool = False,
    rng: random.Random | None = None,
    seconds: float = 0.5,
) -> Placed | object | None:
    """The first position, from ``path`` on through the events ``ahead`` (engine or decoded
    events: ``kind`` "move" with ``square``, ``candidates`` and ``onward``, or "backtrack"),
    where a question of ``kind`` can be asked; None when there is none, :data:`MORE` when
    the answer runs past the window and later events are needed.

    ``obstacle`` is the board's and is asked where the path stands; ``possible`` tries at
    most :data:`POSSIBLE_TRIES` positions, each for at most ``seconds``.
    """
    write = _KIND[kind]
    rng = rng or random.Random(0)
    walked = list(path)
    tries = 0
    fallback: Placed | None = None  # a pick without a tie, while a tie may come
    for at in range(len(ahead) + 1):
        if walked or kind in _AT_ROOT:
            pos = Position(board, closed, tuple(walked), ahead, at, ended)
            question = write(pos, rng, seconds)
            if question is MORE:
                return fallback if fallback is not None else MORE
            if question is not None:
                placed = Placed(at, pos.path, question)
                if kind != "pick" or len(question.why["tied"]) > 1:
                    return placed
                fallback = fallback or placed
            if fallback is not None and at - fallback.offset >= TIE_REACH:
                break
            if kind == "possible":
                tries += 1
                if tries >= POSSIBLE_TRIES:
                    break
            if kind == "obstacle":
                break
        if at < len(ahead):
            event = ahead[at]
            if event.kind == "move":
                walked.append(event.square)
            elif walked:
                walked.pop()
    return fallback
