"""This process's class connections and the room feeds they follow.

What belongs to one Socket.IO connection lives here, in the process that accepted it
(a connection always talks to that process): its language, its client address, its
room and role, its message rate.  Everything about the room itself is in the database
(server/classroom/models.py, kept by the package's other modules).  Each room with
members here has one :class:`~server.classroom.feed.RoomFeed`, started with the first
member and stopped with the last.

**Seats.**  A student takes a seat in the process, under four caps (:class:`Seats`): the
process's, the client address's, the room's and the address's in that room, so one
address (a script, a prankster) can neither fill the server nor another room, while a
class of 200 behind one school NAT fits.  A room's teacher (a valid token) sits apart:
only the room's own teacher pages count against it, so nothing students or other rooms
do can keep the teacher out.

**Turns.**  The class's message handlers run a few at a time (:meth:`Hub.turn`), a
room's teacher first and one address's flood behind everyone else's messages.

**What students cause on the teacher's page** (``presence``, ``quiz_scores``,
``quiz_tally``, ``leaderboard``) goes through :class:`~server.classroom.throttle.Throttle`:
at most ``TEACHER_EVENTS_PER_SECOND`` of each a room, each the latest state.

No Flask here: the web layer passes how to emit to a Socket.IO room, how to start a
background task and how to run a function inside the app's context.
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..limits.bucket import TokenBucket
from ..limits.budget import Searches
from ..limits.gate import FairGate, GateBusy
from ..limits.memory import MemoryBudget
from . import clock, rooms
from .feed import RoomFeed
from .messages import ClassError
from .throttle import Throttle

MESSAGE_BURST, MESSAGE_RATE = 2000, 1000.0  # every message, per connection
COSTLY_BURST, COSTLY_RATE = 10, 2.0  # join, sync, solve: they read or write more
TEACHER_EVENTS_PER_SECOND = 2  # of each event students cause, per room (and process)
TURN_WAIT = 5.0  # seconds a message waits for a handler's turn, then "busy"
TURNS_QUEUED_PER_ADDRESS = 200  # messages of one address waiting for a turn


def room_name(code: str) -> str:
    return f"class:{code}"


def teacher_room(code: str) -> str:
    return f"class:{code}:teacher"


def student_room(code: str, student: str) -> str:
    """The connections of one student of the room (what is theirs alone: a lab result)."""
    return f"class:{code}:student:{student}"


@dataclass
class Member:
    sid: str
    lang: str
    messages: TokenBucket
    costly: TokenBucket
    address: str = ""  # the client's address (behind PROXY_FIX: the real client's)
    code: str | None = None
    role: str | None = None  # "teacher" | "student" once joined
    quiz_student: str | None = None  # the quiz student this connection answers as
    last_rate_error: float = float("-inf")

    def admit(self, *, costly: bool = False) -> None:
        """Count one message; ``rate-limited`` when the connection floods."""
        if not self.messages.take() or (costly and not self.costly.take()):
            raise ClassError("rate-limited", "watch.error.rate-limited")


@dataclass(frozen=True)
class Seats:
    """How many students a process seats: in all, per client address, per room, per
    address in a room; and how many pages a room's teacher may join."""

    students: int = 1000
    per_address: int = 600
    per_room: int = 400
    per_address_in_room: int = 250
    teacher_pages: int = 8


@dataclass
class _Taken:
    """The seats taken in this process (kept in step under the hub's lock)."""

    students: int = 0
    by_address: Counter = field(default_factory=Counter)
    by_room: Counter = field(default_factory=Counter)
    by_address_in_room: Counter = field(default_factory=Counter)  # (code, address): students
    teachers: Counter = field(default_factory=Counter)  # code: teacher pages
    teachers_from: Counter = field(default_factory=Counter)  # (code, address): teacher pages

    def change(self, member: Member, step: int) -> None:
        code, address = member.code, member.address
        if member.role == "teacher":
            _add(self.teachers, code, step)
            _add(self.teachers_from, (code, address), step)
            return
        self.students += step
        _add(self.by_address, address, step)
        _add(self.by_room, code, step)
        _add(self.by_address_in_room, (code, address), step)


def _add(counter: Counter, key, step: int) -> None:
    counter[key] += step
    if counter[key] <= 0:
        del counter[key]  # a counter of the seats taken, not of every address ever seen


@dataclass(eq=False, kw_only=True)
class Hub:
    emit: Callable[..., None]  # (event, data, Socket.IO room, sid to skip)
    start_task: Callable[..., object]
    in_context: Callable[[Callable[[], object]], object]
    ttl: float
    presence_timeout: float
    heartbeat: float
    seats: Seats = field(default_factory=Seats)
    handler_slots: int = 4
    searches: Searches | None = None  # the process's search slots and budgets: feeds take them
    memory: MemoryBudget | None = None  # where the feeds' timelines are counted

    def __post_init__(self) -> None:
        # who holds a room's lease: unique per process, readable in the database
        self.process = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.members: dict[str, Member] = {}
        self.feeds: dict[str, RoomFeed] = {}
        self._taken = _Taken()
        self._lock = threading.Lock()
        self.gate = FairGate(self.handler_slots, wait=TURN_WAIT, per_key=TURNS_QUEUED_PER_ADDRESS)
        self.throttle = Throttle(
            1.0 / TEACHER_EVENTS_PER_SECOND, self.start_task, run=self.in_context
        )

    @contextmanager
    def turn(self, member: Member) -> Iterator[None]:
        """One of the process's ``handler_slots`` turns at handling a message: a room's
        teacher first, then the address that holds the fewest (:class:`FairGate`), so one
        address's flood waits behind itself; ``busy`` when no turn comes in time."""
        try:
            self.gate.acquire(member.address, 1 if member.role == "teacher" else 0)
        except GateBusy:
            raise ClassError("busy") from None
        try:
            yield
        finally:
            self.gate.release(member.address)

    # -- connections ---------------------------------------------------------------------------
    def connect(self, sid: str, lang: str, address: str = "") -> Member:
        member = Member(
            sid,
            lang,
            TokenBucket(MESSAGE_BURST, MESSAGE_RATE, time.monotonic),
            TokenBucket(COSTLY_BURST, COSTLY_RATE, time.monotonic),
            address=address,
        )
        with self._lock:
            self.members[sid] = member
        return member

    def member(self, sid: str) -> Member | None:
        return self.members.get(sid)

    def disconnect(self, sid: str) -> Member | None:
        with self._lock:
            member = self.members.pop(sid, None)
            if member is not None and member.code is not None:
                self._taken.change(member, -1)
                self._forget_feed_if_unused(member.code)
        return member

    def join(self, member: Member, code: str, role: str) -> RoomFeed:
        """``member`` is now in room ``code``: the room's feed runs here while it is.
        ``full`` (the message says which cap) when its seat is not there."""
        with self._lock:
            self._check_seat(member.address, code, role)
            member.code, member.role = code, role
            self._taken.change(member, +1)
            feed = self.feeds.get(code)
            if feed is None or feed.stopped:
                feed = self.feeds[code] = RoomFeed(self, code)
            return feed

    def _check_seat(self, address: str, code: str, role: str) -> None:
        seats, taken = self.seats, self._taken
        if role == "teacher":
            if taken.teachers[code] >= seats.teacher_pages:
                raise ClassError("full", "class.error.full.teacher", max=seats.teacher_pages)
            return
        caps = (
            (taken.students, seats.students, "server"),
            (taken.by_address[address], seats.per_address, "address"),
            (taken.by_room[code], seats.per_room, "room"),
            (taken.by_address_in_room[code, address], seats.per_address_in_room, "room-address"),
        )
        for used, cap, which in caps:
            if used >= cap:
                raise ClassError("full", f"class.error.full.{which}", max=cap)

    def has_member_from(self, code: str, address: str) -> bool:
        """Whether a member of room ``code`` (a student or its teacher) came from ``address``:
        the room is no secret to that address."""
        with self._lock:
            taken = self._taken
            return bool(
                taken.by_address_in_room[code, address] or taken.teachers_from[code, address]
            )

    def _forget_feed_if_unused(self, code: str) -> None:
        if any(m.code == code for m in self.members.values()):
            return
        feed = self.feeds.pop(code, None)
        if feed is not None:
            feed.stop()

    def feed(self, code: str) -> RoomFeed | None:
        return self.feeds.get(code)

    def wake(self, code: str) -> None:
        """The room's state changed here: its feed should look now, not at its next tick."""
        feed = self.feeds.get(code)
        if feed is not None:
            feed.wake()

    def room_closed(self, code: str) -> None:
        with self._lock:
            for member in self.members.values():
                if member.code == code:
                    self._taken.change(member, -1)
                    member.code = member.role = None
                    member.quiz_student = None
            feed = self.feeds.pop(code, None)
        if feed is not None:
            feed.stop()
        self.throttle.forget(lambda key: key[0] == code)

    # -- output ----------------------------------------------------------------------------------
    def broadcast(self, event: str, data: dict, code: str, skip_sid: str | None = None) -> None:
        self.emit(event, data, room_name(code), skip_sid)

    def to_teacher(self, event: str, data: dict, code: str, skip_sid: str | None = None) -> None:
        self.emit(event, data, teacher_room(code), skip_sid)

    def to_student(self, event: str, data: dict, code: str, student: str) -> None:
        self.emit(event, data, student_room(code, student), None)

    def to_teacher_latest(self, event: str, code: str, read: Callable[[], dict | None]) -> None:
        """The teacher's pages get ``event`` with ``read()`` (None: nothing to send), now or
        at the end of the room's interval for it, read then (see the module docstring)."""

        def send() -> None:
            data = read()
            if data is not None:
                self.to_teacher(event, data, code)

        self.throttle.request((code, event), send)

    def broadcast_state(self, code: str) -> None:
        """Everyone gets the room's state as the database has it now."""
        at = rooms.now()
        room = rooms.find_room(code, at, self.ttl)
        self.broadcast("state", clock.public_state(room, at), code)

    # -- introspection (tests, benchmarks) ---------------------------------------------------------
    def live_feeds(self) -> list[RoomFeed]:
        with self._lock:
            return [feed for feed in self.feeds.values() if not feed.stopped]
