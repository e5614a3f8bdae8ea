"""The browser's practice questions (static/js/practice/questions.js) against the engine's.

The practice on /watch and /lesson writes its questions in the browser, from the events a
lane's player holds; the class quiz's are the engine's (server.engine.questions).  Both
must say the same.  Real searches (the compiled core's, on boards with and without holes,
the lesson's orderings and an article's, open and closed) are encoded as the watch
protocol sends them; at a few hundred positions, with a window of events held after each
(sometimes too few for the answer), node runs the browser's writer through
tests/js/support/practice-oracle.js on a real Player, and every question it writes, or
declines, is compared with :func:`server.engine.questions.first` at the same position.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

from server.engine.article_orders import carries_onward
from server.engine.board import Board
from server.engine.questions import MORE, first
from server.stream.encode import decode, encode
from tests.engine.steps import first_steps

ROOT = Path(__file__).resolve().parents[2]
ORACLE = ROOT / "tests" / "js" / "support" / "practice-oracle.js"
NODE = shutil.which("node")
KINDS = ("next", "onward", "pick", "backtrack", "frame")
EVENTS = 3000  # of each search
BATCH = 97  # events per batch: the windows end at a batch's edge, as a player holds them
POSITIONS = 400
SEARCHES = [
    # rows, cols, holes, ordering, closed, start square
    (5, 5, (), "seed", False, 0),
    (5, 5, (), "warnsdorff", False, 12),
    (6, 6, (), "seed", False, 0),
    (6, 6, (), "seed", True, 0),
    (6, 6, (14, 21), "seed", False, 0),
    (6, 6, (), "warnsdorff", True, 8),
    (6, 6, (), "a000-java", False, 0),
    (5, 5, (), "a001-python", False, 12),
    (8, 8, (), "seed", False, 0),
]

MORE_SEEN = dict.fromkeys(KINDS, 0)  # positions whose answer runs past the events held

pytestmark = pytest.mark.skipif(NODE is None, reason="node runs the browser's writer")


@cache
def search(index: int) -> dict:
    """The search's first events: engine events, their encoding in batches, and whether
    they run to the search's end."""
    rows, cols, holes, ordering, closed, start = SEARCHES[index]
    board = Board(rows, cols, holes)
    counts = carries_onward(ordering)
    steps, ended = first_steps(board, start, EVENTS, ordering=ordering, closed=closed)
    encoded = [encode(steps[i : i + BATCH], counts) for i in range(0, len(steps), BATCH)]
    # the engine's questions read the events as the server's class quiz does: decoded
    decoded = [event for ints in encoded for event in decode(ints, counts)]
    assert len(decoded) == len(steps)
    return {
        "board": board,
        "closed": closed,
        "events": decoded,
        "ended": ended,
        "json": {
            "rows": rows,
            "cols": cols,
            "holes": list(holes),
            "counts": counts,
            "prefix": [],
            "encoded": encoded,
        },
    }


def path_at(events, at: int) -> list[int]:
    path: list[int] = []
    for event in events[:at]:
        if event.kind == "move":
            path.append(event.square)
        else:
            assert path.pop() == event.square
    return path


def as_json(question) -> dict:
    """The engine's Question as the browser writes it (tuples are lists in JSON)."""
    return json.loads(
        json.dumps(
            {
                "kind": question.kind,
                "answer": question.answer,
                "values": question.values,
                "subject": question.subject,
                "why": question.why,
            }
        )
    )


def engine_question(kind: str, found: dict, path: list[int], at: int, held: int, ended: bool):
    """The engine's question of ``kind`` at exactly this position, or None when it asks
    none here (none at all, a later position, or MORE: the answer past the window)."""
    board, closed, events = found["board"], found["closed"], found["events"]
    rng = random.Random(f"{at}:{kind}")
    # pick and onward read the position alone: no window, so a pick is not moved on to a tie
    ahead = [] if kind in ("pick", "onward") else events[at:held]
    placed = first(kind, board, path, ahead, closed=closed, ended=ended, rng=rng)
    if placed is MORE:
        MORE_SEEN[kind] += 1
        return None
    if placed is None or placed.offset != 0:
        return None
    assert list(placed.path) == path
    return placed.question


def positions():
    rng = random.Random("practice")
    out = []
    for n in range(POSITIONS):
        index = n % len(SEARCHES)
        found = search(index)
        total = len(found["events"])
        # the player holds whole batches; the position is up to 40 events before their end,
        # where a long run of steps back may not be in yet
        batches = rng.randrange(1, len(found["json"]["encoded"]) + 1)
        held = min(total, batches * BATCH)
        at = max(1, held - rng.randrange(0, 40))
        out.append((index, at, batches, held, found["ended"] and held == total))
    return out


def test_every_practice_question_is_the_engines_at_the_same_position():
    cases = positions()
    expected, onward = [], []
    for index, at, _batches, held, ended in cases:
        found = search(index)
        path = path_at(found["events"], at)
        questions = {k: engine_question(k, found, path, at, held, ended) for k in KINDS}
        expected.append((path, questions))
        onward.append(questions["onward"].subject["square"] if questions["onward"] else -1)
    stdin = {
        "searches": [search(i)["json"] for i in range(len(SEARCHES))],
        "positions": [
            {"search": index, "at": at, "batches": batches, "done": ended, "onward": square}
            for (index, at, batches, _held, ended), square in zip(cases, onward, strict=True)
        ],
    }
    run = subprocess.run(
        [NODE, str(ORACLE)],
        input=json.dumps(stdin),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    answers = json.loads(run.stdout)
    assert len(answers) == len(cases)
    asked = {kind: 0 for kind in KINDS}
    for case, (path, questions), browser in zip(cases, expected, answers, strict=True):
        for kind in KINDS:
            engine, written = questions[kind], browser[kind]
            if engine is None:
                assert written is None, (case, kind, written)
                continue
            asked[kind] += 1
            assert written is not None, (case, kind, as_json(engine))
            assert (written.pop("path"), written.pop("index")) == (path, case[1]), (case, kind)
            assert written == as_json(engine), (case, kind)
    # every kind is compared where it is asked, and often; the browser declined too where
    # the engine needs events the player does not hold yet
    assert min(asked.values()) > POSITIONS // 10, asked
    assert asked["frame"] < asked["backtrack"] < POSITIONS, asked
    assert min(MORE_SEEN[kind] for kind in ("next", "backtrack", "frame")) > 0, MORE_SEEN
