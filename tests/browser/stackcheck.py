"""An independent rebuild of the call-stack panel's frames from the engine's event stream.

Each Move lists its parent's candidates in the order tried (with onward counts under
Warnsdorff), so the stack after ``n`` events follows from the events alone: a move pushes a
frame and marks the candidate it tries, a backtrack pops one and marks its square failed
in the frame below. The innermost frame's candidates are those the next event carries when
it moves on from it, none when it backtracks at once.
"""

from __future__ import annotations

from itertools import islice

from server.engine.board import Board
from server.engine.search import search_events


def engine_events(rows: int, cols: int, start: int, ordering: str, count: int) -> list:
    """The first ``count`` Move/Backtrack events of the engine's search."""
    events = search_events(Board(rows, cols), start, ordering=ordering)
    return [e for e in islice(events, count) if e.kind in ("move", "backtrack")]


def rebuild(events: list, n: int) -> list[dict]:
    """[{square, candidates: [(square, state, count or None)]}], innermost first."""
    frames: list[dict] = []
    for event in events[:n]:
        if event.kind == "move":
            if frames:
                top = frames[-1]
                top["list"] = (event.candidates, event.onward)
                top["trying"] = event.candidates.index(event.square)
            frames.append({"square": event.square, "list": None, "trying": -1, "failed": -1})
        else:
            frames.pop()
            parent = frames[-1]
            parent["failed"] = parent["list"][0].index(event.square)
            parent["trying"] = -1
    if frames and frames[-1]["list"] is None:
        nxt = events[n] if n < len(events) else None
        frames[-1]["list"] = (
            (nxt.candidates, nxt.onward) if nxt is not None and nxt.kind == "move" else ((), None)
        )
    shown = []
    for frame in reversed(frames):
        squares, onward = frame["list"]
        candidates = []
        for i, sq in enumerate(squares):
            if i == frame["trying"]:
                state = "trying"
            elif i < frame["trying"] or i <= frame["failed"]:
                state = "failed"
            else:
                state = "waiting"
            candidates.append((sq, state, onward[i] if onward else None))
        shown.append({"square": frame["square"], "candidates": candidates})
    return shown


READ_ROWS = """(root) => {
  const panel = document.querySelector(root + ' [data-role=stack]');
  const rows = [...panel.querySelectorAll('.st-row:not([hidden])')]
    .map((row) => ({
      frame: +row.dataset.frame,
      top: row.getBoundingClientRect().top,
      bottom: row.getBoundingClientRect().bottom,
      square: +row.dataset.square,
      candidates: [...row.querySelectorAll('.st-cand:not([hidden])')].map((chip) => [
        +chip.dataset.square, chip.dataset.state,
        chip.dataset.count === undefined ? null : +chip.dataset.count]),
    }));
  const box = panel.querySelector('[data-role=stack-rows]').getBoundingClientRect();
  return {depth: +panel.dataset.depth,
          rows: rows.filter((r) => r.bottom > box.top + 1 && r.top < box.bottom - 1)
                    .sort((a, b) => a.top - b.top)};
}"""


def shown_stack(page, root: str = "[data-side=a]") -> dict:
    """The panel's depth and its rows on screen, top to bottom."""
    return page.evaluate(READ_ROWS, root)


def check_panel(page, expected: list[dict], root: str = "[data-side=a]") -> int:
    """The rows on screen are the expected frames from the top; returns how many were seen."""
    seen = shown_stack(page, root)
    assert seen["depth"] == len(expected)
    assert seen["rows"], "no row on screen"
    depth = len(expected)
    for row in seen["rows"]:
        slot = depth - 1 - row["frame"]  # innermost on top
        want = expected[slot]
        assert row["square"] == want["square"], (row, want)
        assert [tuple(c) for c in row["candidates"]] == want["candidates"], (row, want)
    return len(seen["rows"])
