"""A class member that follows the room's demo the way a phone does, over python-socketio.

It keeps the last snapshot it was given (the join acknowledgement's, a ``sync``'s or a
broadcast one) and the ``feed`` events after it, and can say where it stands at any
index it holds: the path and the counters, replayed from the snapshot by this module's
own decoder (not the server's).  :func:`reference` gives the same from the engine's
walker, so a test compares what a student would draw with the truth.

Used by tests/web/test_class_socket.py, tests/scale/ and benchmarks/loadtest.py.
"""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import dataclass

import socketio

from server.classroom.clock import lesson_settings
from server.engine.article_orders import carries_onward
from server.engine.board import Board
from server.engine.walker import Walker
from server.lesson.chapters import CHAPTERS

from .lean_socket import LeanSocket, Reader
from .waiting import wait_until

NAMESPACE = "/class"


def lesson_demo(chapter_id: str) -> dict:
    """A chapter's demo of the guided lesson (server/lesson/chapters.json) as the teacher's
    ``settings`` sends it and a room stores it."""
    return lesson_settings(next(c for c in CHAPTERS if c["id"] == chapter_id))


# The lesson's demos: the plain search in the articles' order from the top-left corner.
SIX_BY_SIX = lesson_demo("explode6")
EIGHT_BY_EIGHT = lesson_demo("explode8")
SIX_BY_SIX_EVENTS = 354_060  # to its first tour: 177,048 nodes and 177,012 backtracks


class Gap(Exception):
    """A feed message starts after the last event held: a sync is needed."""


def decode(ints: list[int], counts: bool) -> list[int]:
    """The events of an encoded list, each as its square (a move) or ``-1 - square``."""
    out, i, n = [], 0, len(ints)
    step = 2 if counts else 1
    while i < n:
        head = ints[i]
        if head < 0:
            out.append(head)
            i += 1
        else:
            k = ints[i + 1]
            out.append(head)
            i += 2 + step * k
    if i != n:
        raise ValueError("a move runs past the end of the events")
    return out


@dataclass
class Standing:
    index: int
    path: list[int]
    nodes: int
    backtracks: int


class Position:
    """A snapshot and the events after it: what a viewer can show without asking again."""

    def __init__(self, snapshot: dict, counts: bool) -> None:
        self.gen = snapshot["gen"]
        self.counts = counts
        self.at = snapshot["at"]
        self.path = list(snapshot["path"])
        self.nodes = snapshot["nodes"]
        self.backtracks = snapshot["backtracks"]
        self.heat = list(snapshot["heat"])
        self.keyframe = snapshot.get("keyframe", False)
        self.target = snapshot["index"]
        self.events = decode(snapshot["events"], counts)
        if len(self.events) != snapshot["count"]:
            raise ValueError("the snapshot's count does not match its events")

    @property
    def received(self) -> int:
        return self.at + len(self.events)

    def add(self, at: int, ints: list[int]) -> None:
        """Append a feed message's events; overlapping ones are dropped; Gap after a hole."""
        if at > self.received:
            raise Gap(f"feed at {at}, holding up to {self.received}")
        events = decode(ints, self.counts)
        skip = self.received - at
        self.events.extend(events[skip:])

    def holds(self, index: int) -> bool:
        return self.at <= index <= self.received

    def standing(self, index: int) -> Standing:
        if not self.holds(index):
            raise IndexError(f"index {index} is outside {self.at}..{self.received}")
        path = list(self.path)
        nodes, backtracks = self.nodes, self.backtracks
        for event in self.events[: index - self.at]:
            if event >= 0:
                path.append(event)
                nodes += 1
            else:
                assert path.pop() == -1 - event, "a backtrack from a square that is not the head"
                backtracks += 1
        return Standing(index, path, nodes, backtracks)


def reference(settings: dict, index: int) -> Standing:
    """Where the room's demo stands after ``index`` events, from the engine's walker."""
    rows, cols = settings["rows"], settings["cols"]
    row, col = settings["start"]
    walker = Walker(
        Board(rows, cols, settings.get("holes", ())),
        row * cols + col,
        algorithm=settings["algorithm"],
        closed=settings["closed"],
        pruning=("dead-ends", "parity", "connectivity") if settings["pruning"] else (),
    )
    walker.advance(index)
    return Standing(walker.index, list(walker.path), walker.nodes, walker.backtracks)


def next_event(settings: dict, index: int) -> int:
    """The engine's event after ``index`` events: a square moved to, or ``-1 - square``."""
    here, after = reference(settings, index).path, reference(settings, index + 1).path
    return after[-1] if len(after) > len(here) else -1 - here[-1]


def first_index(settings: dict, wanted, start: int = 1) -> int:
    """The first index from ``start`` whose next event satisfies ``wanted``."""
    index = start
    while not wanted(next_event(settings, index)):
        index += 1
    return index


def events_held(received, counts: bool, gen: int | None = None) -> int:
    """How far into the demo (generation ``gen``, default any) the events this client was
    sent reach."""
    held = 0
    for name, data in received:
        if gen is not None and isinstance(data, dict) and data.get("gen", gen) != gen:
            continue
        snapshots = []
        if name == "snapshot":
            snapshots.append(data)
        elif isinstance(data, dict) and isinstance(data.get("snapshot"), dict):
            snapshots.append(data["snapshot"])
        for snapshot in snapshots:
            held = max(held, snapshot["at"] + snapshot["count"])
        if name == "feed":
            held = max(held, data["at"] + len(decode(data["events"], counts)))
    return held


class Following:
    """What a member makes of what it is sent: the room's state and what it can show.

    The transport (:class:`Follower`, :class:`LeanFollower`) calls ``_on_<event>`` for
    every message; the reading methods are safe from any thread.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.messages: list[tuple[float, str, object]] = []
        self.state: dict | None = None
        self.state_at = 0.0
        self.position: Position | None = None
        self.gaps = 0
        self.snapshots = 0

    HANDLED = ("state", "feed", "snapshot")

    def _on_event(self, name: str, data) -> None:
        """Any event of the room: kept (``got``); the demo's also followed."""
        if name in self.HANDLED:
            getattr(self, f"_on_{name}")(data)
        else:
            self._record(name, data)

    # -- input ---------------------------------------------------------------------------------
    def _record(self, name: str, data) -> None:
        with self.lock:
            self.messages.append((time.perf_counter(), name, data))

    def _adopt_state(self, state: dict | None) -> None:
        if state is None:
            return
        with self.lock:
            old = self.state
            if old is not None and (state["gen"], state["seq"]) < (old["gen"], old["seq"]):
                return
            self.state = state
            self.state_at = time.perf_counter()

    def _adopt_snapshot(self, snapshot: dict | None) -> None:
        if snapshot is None:
            return
        with self.lock:
            gen = self.state["gen"] if self.state else snapshot["gen"]
            if snapshot["gen"] < gen:
                return
            # a snapshot names its demo: it may come before that demo's state
            counts = carries_onward(snapshot["settings"]["algorithm"])
            self.position = Position(snapshot, counts)
            self.snapshots += 1

    def _on_state(self, data) -> None:
        self._record("state", data)
        self._adopt_state(data)

    def _on_snapshot(self, data) -> None:
        self._record("snapshot", data)
        self._adopt_snapshot(data)

    def _on_feed(self, data) -> None:
        self._record("feed", data)
        with self.lock:
            position = self.position
            if position is None or position.gen != data["gen"]:
                return
            try:
                position.add(data["at"], data["events"])
            except Gap:
                self.gaps += 1

    def call(self, event: str, payload=None, timeout: float = 10):  # pragma: no cover
        raise NotImplementedError

    # -- output --------------------------------------------------------------------------------
    def join(self, code: str, token: str | None = None) -> dict:
        payload = {"code": code} if token is None else {"code": code, "token": token}
        ack = self.call("join", payload)
        if ack.get("ok"):
            self._adopt_state(ack["state"])
            self._adopt_snapshot(ack.get("snapshot"))
        return ack

    def sync(self, index: int | None = None) -> dict:
        with self.lock:
            state = self.state
        ack = self.call(
            "sync", {"gen": state["gen"], "index": state["index"] if index is None else index}
        )
        if ack.get("ok"):
            self._adopt_state(ack["state"])
            self._adopt_snapshot(ack["snapshot"])
        return ack

    # -- reading -------------------------------------------------------------------------------
    def got(self, name: str) -> list:
        with self.lock:
            return [data for _at, kind, data in self.messages if kind == name]

    def messages_as_pairs(self) -> list[tuple[str, object]]:
        """Every event this member got, as (name, data), in order."""
        with self.lock:
            return [(name, data) for _at, name, data in self.messages]

    def target(self) -> int:
        """The index the room's state points at now (extrapolated while it plays)."""
        with self.lock:
            state, at = self.state, self.state_at
        index = state["index"]
        if state["playing"] and state["speed"]:
            index += int(state["speed"] * (time.perf_counter() - at))
        if state["end"] is not None:
            index = min(index, state["end"]["total"])
        if state.get("hold") is not None:  # an open question holds the class there
            index = min(index, state["hold"])
        return index

    def holds(self, index: int | None = None) -> bool:
        """Whether this member could show ``index`` (default: the state's) now; cheap."""
        with self.lock:
            state, position = self.state, self.position
            if state is None or position is None or position.gen != state["gen"]:
                return False
            return position.holds(state["index"] if index is None else index)

    def shows(self, index: int | None = None) -> Standing | None:
        """Where this member stands at ``index`` (default: the state's), None if it can't."""
        with self.lock:
            state, position = self.state, self.position
            if state is None or position is None or position.gen != state["gen"]:
                return None
            index = state["index"] if index is None else index
            if not position.holds(index):
                return None
            return position.standing(index)

    def shows_truth(self, index: int, settings: dict = SIX_BY_SIX, timeout: float = 15) -> bool:
        """This member shows the engine's own position at ``index`` of the demo ``settings``
        (its path, nodes and backtracks) within ``timeout`` seconds."""
        if not wait_until(lambda: self.shows(index) is not None, timeout):
            return False
        shown, truth = self.shows(index), reference(settings, index)
        return (shown.path, shown.nodes, shown.backtracks) == (
            truth.path,
            truth.nodes,
            truth.backtracks,
        )


class Follower(Following):
    """One member on /class over python-socketio (a thread per incoming message)."""

    def __init__(
        self,
        url: str,
        *,
        lang: str = "en",
        transports=("websocket",),
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("*", lambda name, data=None: self._on_event(name, data), NAMESPACE)
        self.sio.connect(
            f"{url}?lang={lang}",
            headers=headers or {},
            namespaces=[NAMESPACE],
            transports=list(transports),
            wait_timeout=10,
        )

    def call(self, event: str, payload=None, timeout: float = 10):
        return self.sio.call(event, payload, namespace=NAMESPACE, timeout=timeout)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.sio.disconnect()


class LeanFollower(Following):
    """One member on a bare websocket (tests/support/lean_socket.py), read by a
    :class:`Reader` with many others: a student of the load test costs its client process
    little, so the figures are the server's, not the test clients'."""

    def __init__(
        self,
        url: str,
        reader: Reader,
        *,
        lang: str = "en",
        source: str | None = None,
        timeout: float = 30,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.socket = LeanSocket(
            url,
            NAMESPACE,
            reader,
            self._on_event,
            lang=lang,
            source=source,
            timeout=timeout,
            headers=headers,
        )

    @property
    def lost(self) -> bool:
        """Whether the server closed it."""
        return self.socket.lost

    def call(self, event: str, payload=None, timeout: float = 10):
        return self.socket.call(event, payload, timeout)

    def close(self) -> None:
        self.socket.close()


class Teacher:
    """A teacher's connection that numbers its controls as the teacher's page does.

    ``seq`` starts from the ``control_seq`` its join returned; ``settings`` and
    ``control`` answer the acknowledgement (the caller checks ``ok``) and adopt the
    state it carries.
    """

    def __init__(self, member: Following, joined: dict) -> None:
        self.member = member
        self.joined = joined
        self.seq = joined["state"]["control_seq"]
        self.gen = joined["state"]["gen"]

    @classmethod
    def join(cls, url: str, code: str, token: str, **options) -> Teacher:
        member = Follower(url, **options)
        ack = member.join(code, token)
        if not ack.get("ok"):
            member.close()
            raise RuntimeError(f"the teacher could not join: {ack}")
        return cls(member, ack)

    def settings(self, settings: dict = SIX_BY_SIX) -> dict:
        self.seq += 1
        ack = self.member.call("settings", {**settings, "seq": self.seq})
        if ack.get("ok"):
            self.gen = ack["state"]["gen"]
            self.member._adopt_state(ack["state"])
        return ack

    def control(self, index: int, playing: bool = False, speed: float | None = 10.0) -> dict:
        self.seq += 1
        payload = {"seq": self.seq, "gen": self.gen, "index": index}
        ack = self.member.call("control", {**payload, "playing": playing, "speed": speed})
        if ack.get("ok"):
            self.member._adopt_state(ack["state"])
        return ack

    def lesson(self, chapter: str, step: int) -> dict:
        """Take the class to ``step`` of the guided lesson's ``chapter`` (its demo with it)."""
        self.seq += 1
        ack = self.member.call("lesson", {"seq": self.seq, "chapter": chapter, "step": step})
        if ack.get("ok"):
            self.gen = ack["state"]["gen"]
            self.member._adopt_state(ack["state"])
        return ack

    def wait_end(self, timeout: float = 120) -> dict:
        """The room's state once its search has ended (RuntimeError if it does not)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ended = [s for s in self.member.got("state") if s["end"]]
            if ended:
                return ended[-1]
            time.sleep(0.01)
        raise RuntimeError("the demo never ended")

    def close(self) -> None:
        self.member.close()
