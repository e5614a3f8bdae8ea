"""The compact event encoding of a ``batch`` (docs/protocol.md).

A batch's ``events`` is one flat list of ints:

* a move is ``sq, k, c1..ck`` and, when the run carries counts (Warnsdorff),
  ``n1..nk`` after the candidates;
* a backtrack from ``sq`` is ``-1 - sq`` (always negative, so it needs no tag).

:func:`encode_batch` is on the hot path (millions of events per run): a search from
the compiled core encodes a whole batch in C, any other stream goes through
:func:`encode_into` event by event.  :func:`decode` is the inverse, for tests,
benchmarks and any Python viewer.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from ..engine.events import END_OF_STREAM

MOVE = "move"
BACKTRACK = "backtrack"


class DecodedMove(NamedTuple):
    square: int
    candidates: tuple[int, ...]
    onward: tuple[int, ...] | None
    kind = MOVE


class DecodedBacktrack(NamedTuple):
    square: int
    kind = BACKTRACK


def encode_move(out: list[int], square: int, candidates: Sequence[int], onward, counts: bool):
    """Append one move to ``out``; ``onward`` is written only when ``counts``."""
    out.append(square)
    out.append(len(candidates))
    out.extend(candidates)
    if counts and candidates:  # the root move has no candidates, hence no counts
        if onward is None or len(onward) != len(candidates):
            raise ValueError("a counted move needs one onward count per candidate")
        out.extend(onward)


def encode_backtrack(out: list[int], square: int) -> None:
    out.append(-1 - square)


def encode_into(out: list[int], event, counts: bool) -> bool:
    """Append a Move or Backtrack event to ``out``; False (nothing appended) for others."""
    kind = event.kind
    if kind == MOVE:
        encode_move(out, event.square, event.candidates, event.onward, counts)
        return True
    if kind == BACKTRACK:
        out.append(-1 - event.square)
        return True
    return False


def encode_batch(events, room: int, out: list[int], counts: bool) -> tuple[int, int, object]:
    """Encode up to ``room`` Move/Backtrack events of the iterator ``events`` into ``out``.

    Returns ``(taken, moves, terminal)``: ``terminal`` is the final event (Found,
    Exhausted, Budget) once reached, :data:`END_OF_STREAM` when the stream ended
    without one, else None.
    """
    if room <= 0:
        return 0, 0, None
    whole = getattr(events, "encode_batch", None)  # the compiled core's search
    if whole is not None:
        return whole(room, out, counts)
    taken = moves = 0
    for event in events:
        if not encode_into(out, event, counts):
            return taken, moves, event
        moves += event.kind == MOVE
        taken += 1
        if taken >= room:
            return taken, moves, None
    return taken, moves, END_OF_STREAM


def encode(events, counts: bool) -> list[int]:
    """Encode a sequence of Move/Backtrack events into one flat list."""
    out: list[int] = []
    for event in events:
        if not encode_into(out, event, counts):
            raise ValueError(f"{event.kind!r} events are not part of a batch")
    return out


def decode(ints: Sequence[int], counts: bool) -> Iterator[DecodedMove | DecodedBacktrack]:
    """The events of one batch, in order; ValueError on a malformed list."""
    i, n = 0, len(ints)
    while i < n:
        head = ints[i]
        if head < 0:
            yield DecodedBacktrack(-1 - head)
            i += 1
            continue
        if i + 1 >= n:
            raise ValueError(f"move at index {i} has no candidate count")
        k = ints[i + 1]
        width = 2 * k if counts else k
        if k < 0 or i + 2 + width > n:
            raise ValueError(f"move at index {i} runs past the end of the batch")
        candidates = tuple(ints[i + 2 : i + 2 + k])
        onward = tuple(ints[i + 2 + k : i + 2 + width]) if counts else None
        yield DecodedMove(head, candidates, onward)
        i += 2 + width


def count_events(ints: Sequence[int], counts: bool) -> int:
    """How many events a batch holds (what a viewer grants back as credit), without decoding."""
    i, n, events = 0, len(ints), 0
    step = 2 if counts else 1
    while i < n:
        head = ints[i]
        i += 1 if head < 0 else 2 + step * ints[i + 1]
        events += 1
    if i != n:
        raise ValueError("the last move runs past the end of the batch")
    return events
