"""This process's class connections and the room feeds they follow.

What belongs to one Socket.IO connection lives here, in the process that accepted it
(a connection always talks to that process): its language, its room and role, its
message rate.  Everything about the room itself is in the database
(:mod:`server.classroom.service`).  Each room with members here has one
:class:`~server.classroom.feed.RoomFeed`, started with the first member and stopped
with the last.

No Flask here: the web layer passes how to emit to a Socket.IO room, how to start a
background task and how to run a function inside the app's context.
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..stream.runs import TokenBucket
from . import service
from .feed import RoomFeed
from .service import ClassError

MESSAGE_BURST, MESSAGE_RATE = 2000, 1000.0  # every message, per connection
COSTLY_BURST, COSTLY_RATE = 10, 2.0  # join, sync, solve: they read or write more


def room_name(code: str) -> str:
    return f"class:{code}"


def teacher_room(code: str) -> str:
    return f"class:{code}:teacher"


@dataclass
class Member:
    sid: str
    lang: str
    messages: TokenBucket
    costly: TokenBucket
    code: str | None = None
    role: str | None = None  # "teacher" | "student" once joined
    puzzle_games: dict[int, int] = field(default_factory=dict)  # puzzle seq -> games opened
    quiz_student: str | None = None  # the quiz student this connection answers as
    last_rate_error: float = float("-inf")

    def admit(self, *, costly: bool = False) -> None:
        """Count one message; ``rate-limited`` when the connection floods."""
        if not self.messages.take() or (costly and not self.costly.take()):
            raise ClassError("rate-limited", "watch.error.rate-limited")


class Hub:
    def __init__(
        self,
        *,
        emit: Callable[..., None],
        start_task: Callable[[Callable[[], None]], object],
        in_context: Callable[[Callable[[], object]], object],
        ttl: float,
        presence_timeout: float,
        heartbeat: float,
        max_members: int,
    ) -> None:
        self._emit = emit
        self.start_task = start_task
        self.in_context = in_context
        self.ttl = ttl
        self.presence_timeout = presence_timeout
        self.heartbeat = heartbeat
        self.max_members = max_members
        # who holds a room's lease: unique per process, readable in the database
        self.process = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.members: dict[str, Member] = {}
        self.feeds: dict[str, RoomFeed] = {}
        self._lock = threading.Lock()

    # -- connections ---------------------------------------------------------------------------
    def connect(self, sid: str, lang: str) -> Member:
        member = Member(
            sid,
            lang,
            TokenBucket(MESSAGE_BURST, MESSAGE_RATE, time.monotonic),
            TokenBucket(COSTLY_BURST, COSTLY_RATE, time.monotonic),
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
                self._forget_feed_if_unused(member.code)
        return member

    def join(self, member: Member, code: str, role: str) -> RoomFeed:
        """``member`` is now in room ``code``: the room's feed runs here while it is."""
        with self._lock:
            joined = sum(1 for m in self.members.values() if m.code is not None)
            if joined >= self.max_members:
                raise ClassError("full", "class.error.full.server", max=self.max_members)
            member.code, member.role = code, role
            feed = self.feeds.get(code)
            if feed is None or feed.stopped:
                feed = self.feeds[code] = RoomFeed(self, code)
            return feed

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
                    member.code = member.role = None
            feed = self.feeds.pop(code, None)
        if feed is not None:
            feed.stop()

    # -- output ----------------------------------------------------------------------------------
    def broadcast(self, event: str, data: dict, code: str, skip_sid: str | None = None) -> None:
        self._emit(event, data, room_name(code), skip_sid)

    def to_teacher(self, event: str, data: dict, code: str, skip_sid: str | None = None) -> None:
        self._emit(event, data, teacher_room(code), skip_sid)

    def broadcast_state(self, code: str) -> None:
        """Everyone gets the room's state as the database has it now."""
        at = service.now()
        room = service.find_room(code, at, self.ttl)
        self.broadcast("state", service.public_state(room, at), code)

    # -- introspection (tests, benchmarks) ---------------------------------------------------------
    def live_feeds(self) -> list[RoomFeed]:
        with self._lock:
            return [feed for feed in self.feeds.values() if not feed.stopped]
