"""Socket fuzzing of /watch and /class against a real ``knights-tour serve`` process.

Thousands of random and malformed messages on /watch and on /class (``FUZZ_EVENTS`` and
``FUZZ_CLASS_EVENTS`` for more than ``make test`` sends), on every
way in (docs/protocol.md, "Malformed input"):

* **events** through python-socketio clients over websockets: every event and unknown
  event names (including the reserved ``connect``/``disconnect``/``error`` and ``*``),
  with valid payloads mutated field by field (missing fields, wrong types, numbers of
  100+ digits and ±1e308, NaN and infinities, unicode, lone surrogates, binary
  attachments, nesting, several arguments, no argument) and plain random values;
  oversized payloads now and then (the transport closes that connection);
* **every field of every event** (:func:`sweep`): each lone surrogate (refused
  ``bad-request`` with its words) and each number too big for the field (refused);
* **raw websocket frames** (websocket-client) speaking Engine.IO by hand: the malformed
  ones of the protocol (each must close the connection), odd but well-formed ones, and
  random ones; after each frame a probe on the other namespace must be answered, or the
  connection must have been closed;
* **long-polling sessions** driven by hand (tests/support/wire.py): well-formed events
  (answered through the polls, some in chunked bodies), malformed bodies (the session
  ends: 400 ``bad-frame``, 413 ``too-large``), bodies that are not framed (400, the
  session goes on), sessions closed by the client and used again and unknown sessions
  (400 ``bad-session``); every answer below 500 with the security headers;
* **malformed headers** (``Origin``, ``Cookie``, ``Accept-Language``, ``X-Forwarded-*``
  with ``PROXY_FIX`` set) on handshakes and connections.

Every message of a known event asks for an acknowledgement and gets one, ``{"ok": true,
...}`` or ``{"ok": false, "error": {...}}`` with a protocol error code, and every
refusal also arrives as an ``error`` event with the same body.  The ``progress`` and
``snapshot`` messages the accepted seeks bring are checked for their shape (fields,
types, ``at + count == index``) and for belonging to a run the connection started.
Unknown events are dropped by python-socketio without an answer.  Afterwards the server
is alive, still streams a run correctly and answers a seek, its stderr holds no
traceback, and its threads come back to the baseline (no stuck task).  The seed is
random unless ``FUZZ_SEED`` is set; it is printed, and a failure repeats it.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import json
import os
import random
import re
import threading
import time
from dataclasses import dataclass, field

import pytest
import socketio
import websocket
from socketio.packet import EVENT, Packet

from server.extensions import MAX_MESSAGE_BYTES
from server.i18n import text
from server.web.security import HEADERS
from tests.support.follower import Follower
from tests.support.servers import open_class_room, tracebacks
from tests.support.waiting import wait_until
from tests.support.watch import WatchClient, start_payload
from tests.support.wire import ENGINEIO, PollingSession, exchange, quick_ack, request_bytes
from tests.web.serving import module_server

NAMESPACE = "/watch"
WATCH_EVENTS = ("start", "credit", "stop", "seek")
EVENT_MESSAGES = int(os.environ.get("FUZZ_EVENTS", 5_000))  # through python-socketio clients
RAW_FRAMES = 800  # raw Engine.IO frames over websockets, each followed by a probe
PER_CONNECTION = 225  # well under the 2,000-message burst of the rate limit
STARTS_PER_CONNECTION = 8  # under the start burst of 10
WORKERS = 6
# How long the server may stay silent (no new ack, no frame, no connect) before it counts
# as hung.  It bounds silence, not a whole exchange: a 2-core machine that also runs
# chromium and four other workers answers 225 messages in more than 10 s: slow, not hung.
ACK_TIMEOUT = 30.0
MAX_FRAME = 15_000  # the server accepts messages up to 16 KB (server/extensions.py)
CODES = {
    "bad-request",
    "unknown-algorithm",
    "bad-board",
    "bad-budget",
    "too-many-runs",
    "unknown-run",
    "unknown-game",
    "rate-limited",
    "busy",
}

pytestmark = pytest.mark.timeout(240)

SEED = int(os.environ.get("FUZZ_SEED") or random.SystemRandom().randrange(2**32))


# the class fuzz opens many rooms; X-Forwarded-* headers are believed (one proxy)
# the fuzzed joins' guesses come from one address: beyond RATE_LIMIT_CLASS_MISSES it
# would find no room it opens (tests/web/test_class_fair.py checks that limit)
server = module_server(
    RATE_LIMIT_CLASS_ROOMS="1000/minute",
    RATE_LIMIT_CLASS_ROOMS_DEVICE="1000/minute",
    RATE_LIMIT_CLASS_MISSES="0",
    PROXY_FIX="1",
)


# -- payload generators -------------------------------------------------------------------

STRINGS = [
    "",
    " ",
    "a1",
    "seed",
    "warnsdorff",
    "construct",
    "马踏棋盘",
    "🐴♞",
    "\u202eevil",
    "\u200b",
    "\x00",
    "\ud800",  # lone surrogates (json.dumps escapes them)
    "a\udfffb",
    "x\ud83d",
    "null",
    "' OR 1=1 --",
    "../../etc/passwd",
    "%s%n",
    "<script>",
    "a" * 17,
    "a" * 200,
    "Ω" * 1000,
]
NUMBERS = [
    0,
    1,
    -1,
    2,
    3,
    5,
    8,
    29,
    30,
    31,
    100,
    101,
    1000,
    20_000,
    20_001,
    2**31,
    -(2**31),
    2**53 + 1,
    2**63,
    2**64,
    10**30,
    10**99,  # 100 digits: the longest integer literal python-engineio reads
    10**100,  # longer ones are read as floats (server/web/socket_guards.py)
    -(10**100),
    10**300,
    -(10**300),
    0.5,
    5.0,
    -0.0,
    1e308,
    -1e308,
    1e-308,
    float("nan"),
    float("inf"),
    float("-inf"),
    True,
    False,
]


def random_scalar(rng: random.Random):
    kind = rng.random()
    if kind < 0.35:
        return rng.choice(NUMBERS)
    if kind < 0.55:
        return rng.choice(STRINGS)
    if kind < 0.65:
        return rng.randint(-(10**6), 10**6)
    if kind < 0.75:
        return "".join(chr(rng.randint(1, 0x2FFFF)) for _ in range(rng.randint(0, 12)))
    if kind < 0.85:
        return None
    if kind < 0.93:
        return rng.randbytes(rng.randint(0, 64))  # a binary attachment
    return rng.random() * 10 ** rng.randint(-5, 12)


def random_value(rng: random.Random, depth: int = 0):
    if depth > 3 or rng.random() < 0.6:
        return random_scalar(rng)
    if rng.random() < 0.5:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    return {
        str(random_scalar(rng))[:20]: random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))
    }


def nested(rng: random.Random, depth: int):
    value = random_scalar(rng)
    for _ in range(depth):
        value = [value] if rng.random() < 0.5 else {"run": value}
    return value


def valid_start(rng: random.Random) -> dict:
    payload = start_payload(
        rng.choice(["a1", "b2", "r-1", "x_9"]),
        rows=rng.randint(3, 8),
        cols=rng.randint(3, 8),
        start=[0, 0],
        algorithm=rng.choice(["seed", "warnsdorff", "construct"]),
        closed=rng.random() < 0.3,
        pruning=rng.random() < 0.5,
        window=rng.randint(1, 200),
        node_budget=rng.choice([None, rng.randint(1, 5000)]),
        time_limit=rng.choice([None, 0.5, 2]),
    )
    if rng.random() < 0.2:
        payload["game"] = rng.choice(["no-such-game", "x" * 64, "x" * 65, "' OR 1=1 --", "游戏"])
    return payload


def valid_for(event: str, rng: random.Random) -> dict:
    run = rng.choice(["a1", "b2", "r-1", "x_9", "nope"])
    if event == "start":
        return valid_start(rng)
    if event == "credit":
        return {"run": run, "events": rng.randint(1, 2000)}
    if event == "seek":  # the end, a step back, or far on (clamped to the search's end)
        index = rng.choice([None, rng.randint(0, 500), rng.randint(0, 600_000_000)])
        payload = {"run": run, "index": index}
        if rng.random() < 0.3:
            payload["window"] = rng.randint(1, 20_000)
        return payload
    return {"run": run}


def mutate(payload: dict, rng: random.Random) -> dict:
    payload = dict(payload)
    for _ in range(rng.randint(1, 3)):
        action = rng.random()
        keys = list(payload)
        if action < 0.25 and keys:
            payload.pop(rng.choice(keys))
        elif action < 0.75 and keys:
            payload[rng.choice(keys)] = random_value(rng)
        elif action < 0.9:
            payload[str(random_scalar(rng))[:30]] = random_value(rng)
        elif keys:
            payload[rng.choice(keys)] = nested(rng, rng.randint(5, 60))
    return payload


UNKNOWN_EVENTS = ["connect", "disconnect", "error", "batch", "done", "message", "json", "", "*"]
# Events that get an answer.  python-socketio drops events no handler knows without
# one; "connect" and "disconnect" sent as events reach the (dis)connect handlers, which
# refuse them (server/web/watch_socket.py).
ANSWERED = {*WATCH_EVENTS, "connect", "disconnect"}


def encoded_size(event: str, args: tuple) -> int:
    """Bytes on the wire of the largest frame of this event (as python-socketio sends it)."""
    encoded = Packet(EVENT, data=[event, *args], namespace=NAMESPACE).encode()
    frames = encoded if isinstance(encoded, list) else [encoded]
    return max(len(f.encode("utf-8", "surrogatepass") if isinstance(f, str) else f) for f in frames)


def random_message(rng: random.Random, starts_left: int) -> tuple[str, tuple]:
    """(event, args) of one fuzz message, small enough for the transport (16 KB)."""
    while True:
        event, args = any_message(rng, starts_left)
        if encoded_size(event, args) < MAX_FRAME:
            return event, args


def any_message(rng: random.Random, starts_left: int) -> tuple[str, tuple]:
    roll = rng.random()
    if roll < 0.3 and starts_left > 0:
        event = "start"
    elif roll < 0.55:
        event = "credit"
    elif roll < 0.75:
        event = "stop"
    elif roll < 0.87:
        event = "seek"
    elif roll < 0.95:
        event = rng.choice(UNKNOWN_EVENTS)
    else:
        event = random_event_name(rng)
    valid = functools.partial(valid_for, event, rng) if event in WATCH_EVENTS else None
    return event, message_args(rng, valid, mutated=0.9)


def random_event_name(rng: random.Random) -> str:
    return "".join(chr(rng.randint(32, 0x2FFF)) for _ in range(rng.randint(1, 40)))


def message_args(rng: random.Random, valid, mutated: float) -> tuple:
    """The arguments of a fuzz message: mostly (70 %) one payload ``valid()`` makes (None for
    an event the namespace does not know), a ``mutated`` share of the dicts mutated; else
    one random value, several or none."""
    shape = rng.random()
    if valid is not None and shape < 0.7:
        payload = valid()
        if isinstance(payload, dict) and rng.random() < mutated:
            payload = mutate(payload, rng)
        return (payload,)
    if shape < 0.85:
        return (random_value(rng),)
    if shape < 0.95:
        return tuple(random_value(rng) for _ in range(rng.randint(2, 4)))
    return ()


# -- event fuzzing through python-socketio ---------------------------------------------------


class FuzzConnection:
    def __init__(self, url: str, namespace: str = NAMESPACE, answered=ANSWERED, headers=None):
        self.namespace = namespace
        self.answered_events = answered
        self.lock = threading.Lock()
        self.acks: list = []
        self.errors: list[dict] = []
        self.sent: list = []
        self.answered: dict[int, tuple] = {}
        self.pushed: list[tuple[str, object]] = []  # a seek's progress and snapshot
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("error", self._on_error, namespace=namespace)
        for event in ("progress", "snapshot") if namespace == NAMESPACE else ():  # /class: its own
            self.sio.on(event, functools.partial(self._on_push, event), namespace=namespace)
        self.sio.connect(
            url,
            namespaces=[namespace],
            transports=["websocket"],
            wait_timeout=ACK_TIMEOUT,
            headers=headers or {},
        )

    def _on_error(self, data):
        with self.lock:
            self.errors.append(data)

    def _on_push(self, event, data):
        with self.lock:
            self.pushed.append((event, data))

    def send(self, event: str, args: tuple) -> bool:
        """Emit with an acknowledgement when an answer is due; whether it is."""
        index = len(self.sent)
        if event not in self.answered_events:
            self.sio.emit(event, args if len(args) != 1 else args[0], self.namespace)
            return False
        self.sent.append((event, args))

        def on_ack(*answer):
            with self.lock:
                self.acks.append(answer)
                self.answered[index] = answer

        self.sio.emit(event, args if len(args) != 1 else args[0], self.namespace, on_ack)
        return True

    def call(self, event: str, payload, timeout: float = ACK_TIMEOUT):
        """A set-up message (not counted): its answer, or None."""
        return self.sio.call(event, payload, namespace=self.namespace, timeout=timeout)

    def unanswered(self) -> list:
        with self.lock:
            return [m for i, m in enumerate(self.sent) if i not in self.answered]

    def wait_acks(self, count: int) -> bool:
        """Whether ``count`` acks came; False once ACK_TIMEOUT passes without a new one."""
        seen, deadline = -1, 0.0
        while True:
            with self.lock:
                got = len(self.acks)
            if got >= count:
                return True
            if got != seen:
                seen, deadline = got, time.monotonic() + ACK_TIMEOUT
            elif time.monotonic() > deadline:
                return False
            time.sleep(0.01)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.sio.disconnect()


def check_answers(conn: FuzzConnection, accepted=WATCH_EVENTS, codes=CODES) -> list[str]:
    """Problems with what one connection got back (empty when all is well)."""
    problems = []
    refusals = []
    for index, answer in sorted(conn.answered.items()):
        event = conn.sent[index][0]
        if len(answer) != 1 or not isinstance(answer[0], dict) or "ok" not in answer[0]:
            problems.append(f"odd answer {answer!r:.200} to {conn.sent[index]!r:.200}")
            continue
        body = answer[0]
        if body["ok"] is True:
            if event not in accepted:
                problems.append(f"{event!r} accepted: {body!r:.200}")
            continue
        error = body.get("error")
        if not isinstance(error, dict) or error.get("code") not in codes:
            problems.append(f"odd refusal {body!r:.200}")
            continue
        if not error.get("message"):
            problems.append(f"refusal without a message {body!r:.200}")
        refusals.append(error)
    # every refusal also came as an error event (rate-limited ones at most once a second)
    plain = [e for e in refusals if e["code"] != "rate-limited"]

    def plain_events() -> list[dict]:
        with conn.lock:
            return [e for e in conn.errors if e.get("code") != "rate-limited"]

    # python-engineio's client hands every message to a thread of its own, so the error
    # event sent before an ack can be handled after it: let the events catch up
    wait_until(lambda: len(plain_events()) >= len(plain), timeout=ACK_TIMEOUT)
    events = plain_events()
    key = lambda e: json.dumps(e, sort_keys=True)  # noqa: E731
    if sorted(map(key, plain)) != sorted(map(key, events)):
        problems.append(f"{len(plain)} refusals but {len(events)} error events")
    started = {args[0]["run"] for event, args in conn.sent if event == "start" and args
               and isinstance(args[0], dict) and isinstance(args[0].get("run"), str)}  # fmt: skip
    for event, message in conn.pushed:
        problems += [f"{event} {message!r:.200}: {p}" for p in push_problems(event, message)]
        if isinstance(message, dict) and message.get("run") not in started:
            problems.append(f"{event} for a run never started: {message!r:.200}")
    return problems


def is_count(value) -> bool:
    return type(value) is int and value >= 0


PROGRESS_KEYS = {"run", "target", "index", "nodes", "backtracks"}
SNAPSHOT_KEYS = {"run", "index", "at", "path", "nodes", "backtracks", "max_depth", "heat",
                 "chart", "events", "count", "end"}  # fmt: skip
CHART_KEYS = {"span", "length", "fill", "events", "min", "max"}


def push_problems(event: str, message) -> list[str]:
    """What is wrong with the shape of a ``progress`` or ``snapshot`` (docs/protocol.md)."""
    if not isinstance(message, dict):
        return ["not an object"]
    if event == "progress":
        if set(message) != PROGRESS_KEYS:
            return [f"keys {sorted(message)}"]
        target = message["target"]
        counts = [message[k] for k in ("index", "nodes", "backtracks")]
        if not (target is None or is_count(target)) or not all(map(is_count, counts)):
            return ["a field of the wrong type"]
        return [] if message["nodes"] + message["backtracks"] == message["index"] else ["counts"]
    if set(message) != SNAPSHOT_KEYS or not isinstance(message["chart"], dict):
        return [f"keys {sorted(message)}"]
    chart = message["chart"]
    problems = []
    if set(chart) != CHART_KEYS:
        problems.append(f"chart keys {sorted(chart)}")
    counts = [message[k] for k in ("index", "at", "nodes", "backtracks", "max_depth", "count")]
    if not all(map(is_count, counts)):
        problems.append("a count of the wrong type")
    elif message["at"] + message["count"] != message["index"]:
        problems.append("at + count is not the index")
    lists = (message["path"], message["heat"], message["events"])
    if not all(isinstance(v, list) and all(type(x) is int for x in v) for v in lists):
        problems.append("a list of the wrong type")
    end = message["end"]
    if end is not None and not (isinstance(end, dict) and is_count(end.get("total"))):
        problems.append("end")
    return problems


def fuzz_events(url: str, rng: random.Random, messages: int, stats: dict) -> list[str]:
    problems: list[str] = []
    while stats["events"] < messages:
        conn = FuzzConnection(url, headers=maybe_headers(rng, as_dict=True))
        sent: list = []
        try:
            starts_left = STARTS_PER_CONNECTION
            for _ in range(min(PER_CONNECTION, messages - stats["events"])):
                event, args = random_message(rng, starts_left)
                starts_left -= event == "start"
                if conn.send(event, args):
                    sent.append((event, args))
                else:
                    stats["dropped"] += 1
                stats["events"] += 1
            if not conn.wait_acks(len(sent)):
                missing = conn.unanswered()
                problems.append(f"{len(missing)} of {len(sent)} got no answer: {missing!r:.300}")
            if rng.random() < 0.15:  # an oversized message: the transport hangs up
                conn.sio.emit("start", {"run": "big", "pad": "x" * 20_000}, NAMESPACE)
                stats["oversized"] += 1
                deadline = time.monotonic() + 5
                while conn.sio.connected and time.monotonic() < deadline:
                    time.sleep(0.01)
                if conn.sio.connected:
                    problems.append("an oversized message did not close the connection")
            problems += check_answers(conn)
        finally:
            conn.close()
        stats["acks"] += len(conn.acks)
        stats["refused"] += sum(
            1 for a in conn.acks if a and isinstance(a[0], dict) and a[0].get("ok") is False
        )
        stats["error_events"] += len(conn.errors)
        stats["pushed"] += len(conn.pushed)
    return problems


# -- raw frames over a websocket ---------------------------------------------------------


@dataclass
class Frame:
    """One raw frame (``\\x1e`` separates frames sent in a row) and what it must get."""

    data: str | bytes
    ack: int | None = None  # a well-formed event's ack id: it must be answered
    closes: bool = False  # malformed by the protocol: the connection must be closed


# Frames that break the Engine.IO or Socket.IO protocol (docs/protocol.md, "Malformed
# input"): each must close the connection, over a websocket or long-polling.
MALFORMED = [
    '42/watch,["start",' + "[" * 5000 + "]" * 5000 + "]",  # nested too deep to decode
    '42/watch,["start",' + '{"a":' * 3000 + "1" + "}" * 3000 + "]",
    "42/watch,[",
    "42/watch,",
    "42/watch,[]",
    "42/watch,[1,2]",
    "42/watch,[null]",
    "42/watch,[true]",
    '42/watch,[{"a":1}]',
    '42/watch,["start"',
    '42/watch,"start"',
    '42/watch,{"a":1}',
    '42/watch,["start",{"run":"a1"}]garbage',
    '45/watch,-1-["start",{"_placeholder":true,"num":0}]',
    '45/watch,1-["start",{"_placeholder":true,"num":5}]\x1e42/watch,["stop",{"run":"a1"}]',
    '46/watch,1-5[{"_placeholder":true,"num":0}]\x1e42/watch,["stop",{"run":"a1"}]',
    "43/watch,abc[1]",
    '43/watch,1{"a":1}',
    "44/watch,{}",
    "40/watch,[1]",
    '40/watch,{"token":' + "[" * 2000 + "]" * 2000 + "}",
    '41/watch,"bye"',
    '42/watch,-1["stop",{"run":"a1"}]',
    "42/watch," + "9" * 101 + '["stop",{"run":"a1"}]',  # an ack id too long
    '42/watch,1.5["stop",{"run":"a1"}]',
    "47/watch,[]",
    "4x",
    "4",
    "4 2",
    "49",
    "4" + "2" * 100,
    "4[1]",
    '4{"a":1}',
    "4" + "[" * 5000,
    "9",
    "7",
    "x",
    "b!!",
    "\x00",
    b"\x00\x01\xff",
    b"",
]
# Odd but well-formed: answered (with an ack id) or dropped as documented; never closing.
ODD = [
    Frame('42/watch,["start",1e999]'),
    Frame('42/watch,["start",-1e999]'),
    Frame('42/watch,["start",NaN]'),
    Frame('42/watch,1001["credit",{"run":"a1","events":' + "9" * 5000 + "}]", ack=1001),
    Frame('42/watch,1002["credit",{"run":"a1","events":' + "9" * 101 + "}]", ack=1002),
    Frame('42/watch,1003["credit",{"run":"a1","events":-1e308}]', ack=1003),
    Frame('42/watch,1004["start",{"run":"a1","game":"\\ud800"}]', ack=1004),
    Frame('42/watch,1005["\\ud800",{"run":"\\udfff"}]'),  # an unknown event: dropped
    Frame('42/watch,1006["stop",{"run":"a1"}]', ack=1006),
    Frame('42/watch,1007["connect",{"token":1}]', ack=1007),
    Frame('42/watch,1008["disconnect","io client disconnect"]', ack=1008),
    Frame("43/watch,5[1]"),  # an ack for nothing: ignored
    Frame("40/watch,{}"),  # connect again: "Unable to connect", nothing else
    Frame("41/nowhere,"),
    Frame('42/nowhere,["start",{}]'),  # a namespace not joined: dropped
    Frame('42/watch/../,["start",{}]'),
    Frame("3"),
    Frame("2probe"),
    Frame("5"),
    Frame("6"),
    Frame("41/watch,"),  # leaves the namespace: joined again before the next frame
]


def raw_frames(rng: random.Random, namespace: str, events: tuple[str, ...], fixed: bool = True):
    """Malformed and odd Socket.IO frames (unless not ``fixed``), then random ones, for
    ``namespace``."""

    def aim(frame):
        return frame.replace(NAMESPACE, namespace) if isinstance(frame, str) else frame

    for frame in MALFORMED if fixed else ():
        yield Frame(aim(frame), closes=True)
    for frame in ODD if fixed else ():  # an event the namespace does not know gets no answer
        name = re.match(r'42/watch,\d+\["(\w+)"', frame.data)
        known = name is None or name[1] in (*events, "connect", "disconnect")
        yield Frame(aim(frame.data), frame.ack if known else None)
    good = aim('42/watch,["start",' + json.dumps(start_payload("a1", rows=5, cols=5)) + "]")
    alphabet = aim('42/watch,["start{}:",]0123456789-eE.tfnul\\"x')
    ack = 2000
    while True:
        kind = rng.random()
        if kind < 0.4:  # a well-formed frame, then bytes flipped
            frame = list(good)
            for _ in range(rng.randint(1, 6)):
                frame[rng.randrange(len(frame))] = rng.choice(alphabet)
            yield Frame("".join(frame))
        elif kind < 0.7:  # a well-formed event with a random payload: answered
            ack += 1
            event = rng.choice(events)
            body = json.dumps(random_value(rng), default=repr)
            frame = f'42{namespace},{ack}["{event}",{body}]'
            # a payload past the message limit (json.dumps writes ASCII) ends the connection
            yield Frame(frame, ack, closes=len(frame) > MAX_MESSAGE_BYTES)
        elif kind < 0.9:
            yield Frame("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 60))))
        else:  # a binary frame nobody announced
            yield Frame(rng.randbytes(rng.randint(1, 64)), closes=True)


ACK_FRAME = re.compile(r"43(/[a-z]+),(\d+)")


class RawConnection:
    """A bare websocket (websocket-client) that opened ``namespace`` and ``probe_on`` by
    hand, and reads the acks of both.

    Its probe asks to join ``probe_on`` again: python-socketio answers that with one
    packet ("44": already joined) and nothing else, in the order of the frames.
    """

    def __init__(self, url: str, namespace: str, probe_on: str, headers=None):
        ws_url = url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"
        self.ws = websocket.create_connection(ws_url, timeout=ACK_TIMEOUT, header=headers)
        self.namespace, self.probe_on = namespace, probe_on
        self.acks: dict[str, set[int]] = {namespace: set(), probe_on: set()}
        self.connects: dict[str, int] = {namespace: 0, probe_on: 0}
        self.closed = False
        opened = self.ws.recv()
        assert isinstance(opened, str) and opened.startswith("0"), opened
        for name in (namespace, probe_on):
            self.join(name)

    def join(self, namespace: str) -> bool:
        """(Re)join a namespace: answered "40" (joined) or "44" (already joined); False
        when the connection was closed instead."""
        before = self.connects[namespace]
        try:
            self.ws.send(f"40{namespace},")
        except (websocket.WebSocketConnectionClosedException, OSError):
            self.closed = True
            return False
        return self.read_until(lambda: self.connects[namespace] > before)

    def probe(self) -> bool:
        """Whether the connection still answers (False: it was closed)."""
        return self.join(self.probe_on)

    def send(self, data) -> None:
        if isinstance(data, bytes):
            self.ws.send_binary(data)
        else:
            for part in data.split("\x1e"):
                self.ws.send(part)

    def read_until(self, done) -> bool:
        """Read frames until ``done()``; False once the server hangs up.  A server that
        does neither within ACK_TIMEOUT raises TimeoutError."""
        while not done():
            quick_ack(self.ws.sock)
            try:
                data = self.ws.recv()
            except websocket.WebSocketTimeoutException:
                raise TimeoutError("no answer and no hang-up") from None
            except (websocket.WebSocketConnectionClosedException, OSError):
                self.closed = True
                return False
            if data in ("", "1"):  # Engine.IO close, then the websocket closes
                self.closed = True
                return False
            if data == "2":
                self.ws.send("3")
            elif isinstance(data, str) and (match := CONNECT_FRAME.match(data)):
                self.connects[match[1]] = self.connects.get(match[1], 0) + 1
            elif isinstance(data, str) and (match := ACK_FRAME.match(data)):
                self.acks.setdefault(match[1], set()).add(int(match[2]))
        return True

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close(timeout=1)


CONNECT_FRAME = re.compile(r"4[04](/[a-z]+),")


def fuzz_raw(
    url: str, rng: random.Random, frames: int, stats: dict, namespace: str = NAMESPACE
) -> list[str]:
    """Each frame is followed by a probe on the other namespace: the probe must be
    answered, or the connection closed; a malformed frame must close it; a well-formed
    event's ack id must be answered."""
    problems: list[str] = []
    events = WATCH_EVENTS if namespace == NAMESPACE else CLASS_EVENTS
    probe_on = CLASS if namespace == NAMESPACE else NAMESPACE
    conn = None
    try:
        for _, frame in zip(range(frames), raw_frames(rng, namespace, events), strict=False):
            if conn is None or conn.closed:
                if conn is not None:
                    conn.close()
                conn = RawConnection(url, namespace, probe_on, headers=maybe_headers(rng))
            label = repr(frame.data)[:120]
            try:
                conn.send(frame.data)
                stats["raw"] += 1
                answered = True
                if isinstance(frame.data, str) and frame.data.startswith(f"41{namespace},"):
                    answered = conn.join(namespace)  # it may have left the namespace
                answered = answered and conn.probe()
                if answered and frame.ack is not None:
                    acks, ack = conn.acks[namespace], frame.ack
                    answered = conn.read_until(lambda acks=acks, ack=ack: ack in acks)
            except (websocket.WebSocketConnectionClosedException, OSError):
                conn.closed = True
                answered = False
            except TimeoutError as err:
                problems.append(f"{err} after {label}")
                conn.closed = True
                continue
            if answered and frame.closes:
                problems.append(f"a malformed frame did not close the connection: {label}")
            if not answered:
                stats["raw_closed"] += 1
                if not frame.closes and frame.ack is not None:
                    problems.append(f"a well-formed event closed the connection: {label}")
    finally:
        if conn is not None:
            conn.close()
    return problems


# -- long-polling ------------------------------------------------------------------------


def polling_payload(namespace: str, event: str, args: tuple, ack: int | None) -> str:
    """What socket.io-client POSTs for one event: the Socket.IO packet, then its binary
    attachments as base64 Engine.IO packets."""
    packet = Packet(EVENT, data=[event, *args], namespace=namespace, id=ack)
    encoded = packet.encode()
    if isinstance(encoded, str):
        return "4" + encoded
    first, *attachments = encoded
    return "\x1e".join(["4" + first] + ["b" + base64.b64encode(a).decode() for a in attachments])


def check_http(answer, label: str, problems: list[str], stats: dict) -> None:
    """Every answer of the transport: no 5xx, the security headers, JSON refusals."""
    stats["http"] += 1
    if answer is None:
        problems.append(f"no answer to {label}")
        return
    if answer.status >= 500:
        problems.append(f"{answer.status} for {label}: {answer.body[:200]!r}")
    missing = [name for name in HEADERS if name.lower() not in answer.headers]
    if missing:
        problems.append(f"{answer.status} without {missing} for {label}")
    if answer.status >= 400:
        try:
            answer.json()
        except ValueError:
            problems.append(f"a non-JSON {answer.status} for {label}: {answer.body[:100]!r}")


class PollingFuzz:
    """One long-polling session driven by hand, checking every answer."""

    def __init__(self, url: str, namespace: str, rng: random.Random, problems, stats):
        self.url, self.namespace, self.problems, self.stats = url, namespace, problems, stats
        self.session = PollingSession(url, headers=dict(maybe_headers(rng, as_dict=True)))
        self.session.connect(namespace)
        self.ack = 10**6  # above the ack ids of the frames it is sent
        self.acks: set[int] = set()

    def post(self, payload, label: str, **kwargs):
        try:
            answer = self.session.post(payload, **kwargs)
        except OSError as err:
            self.problems.append(f"{err!r} for {label}")
            return None
        check_http(answer, label, self.problems, self.stats)
        return answer

    def wait_ack(self, ack: int, label: str) -> bool:
        """Poll until ``ack`` is answered; False when the session ended instead."""
        while ack not in self.acks:
            try:
                answer = self.session.poll()
            except OSError as err:  # a poll waits at most ping_interval: never this long
                self.problems.append(f"{err!r} waiting for the answer to {label}")
                return False
            check_http(answer, f"a poll after {label}", self.problems, self.stats)
            if answer.status != 200:
                return False
            for packet in self.session.packets(answer):
                if packet == "1":
                    return False
                if packet == "2":
                    self.session.post("3")
                elif match := ACK_FRAME.match(packet):
                    self.acks.add(int(match[2]))
        return True

    def event(self, event: str, args: tuple, answered: bool, probe=False, **kwargs) -> bool:
        """A well-formed event; whether the session is still open (a ``probe`` may find it
        closed: 400 ``bad-session``)."""
        self.ack += 1
        payload = polling_payload(self.namespace, event, args, self.ack if answered else None)
        label = f"{payload[:120]!r}"
        answer = self.post(payload, label, **kwargs)
        if answer is None:
            return False
        if len(payload.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
            if answer.status != 413:  # the transport's limit: the session ends
                self.problems.append(f"{answer.status} for an oversized body {label}")
            return not self.check_closed(label)
        if probe and answer.status == 400 and answer.json().get("code") == "bad-session":
            return False
        if answer.status != 200:
            self.problems.append(f"{answer.status} for a well-formed event {label}")
            return False
        self.stats["polling_events"] += 1
        if answered:
            if not self.wait_ack(self.ack, label):
                self.problems.append(f"the session ended instead of answering {label}")
                return False
            self.stats["polling_acks"] += 1
        return True

    def check_closed(self, label: str) -> bool:
        answer = self.post("3", f"a pong after {label}")
        if answer is not None and answer.status == 400:
            if answer.json().get("code") != "bad-session":
                self.problems.append(f"refused with {answer.body[:100]!r} after {label}")
            return True
        return False


def fuzz_polling(
    url: str,
    rng: random.Random,
    posts: int,
    stats: dict,
    namespace: str = NAMESPACE,
    message=None,
    opening=None,
) -> list[str]:
    """Long-polling sessions: well-formed events (answered through the polls), malformed
    bodies (the session ends, 400 ``bad-frame`` or 413 ``too-large``), bodies that are not
    framed (400, the session goes on), chunked bodies, and sessions closed by the client
    and used again (400 ``bad-session``)."""
    problems: list[str] = []
    message = message or (lambda rng: random_message(rng, 2))
    answered = ANSWERED if namespace == NAMESPACE else CLASS_ANSWERED
    events = WATCH_EVENTS if namespace == NAMESPACE else CLASS_EVENTS
    source = raw_frames(rng, namespace, events, fixed=False)
    fuzz = None
    while stats["polling"] < posts:
        if fuzz is None:
            fuzz = PollingFuzz(url, namespace, rng, problems, stats)
            stats["polling_sessions"] += 1
            if opening is not None:
                opening(fuzz)
        stats["polling"] += 1
        roll = rng.random()
        if roll < 0.45:  # a well-formed event, sometimes in a chunked body
            event, args = message(rng)
            chunked = rng.random() < 0.1
            if not fuzz.event(event, args, event in answered, chunked=chunked):
                fuzz = None
        elif roll < 0.75:  # a malformed body: the session ends
            frame = rng.choice(MALFORMED)
            data = frame.replace(NAMESPACE, namespace) if isinstance(frame, str) else frame
            data = data if data else b"\xff\xfe"  # an empty binary frame: not UTF-8 instead
            answer = fuzz.post(data, f"malformed {data[:80]!r}")
            if answer is not None and answer.status not in (200, 400, 413):
                problems.append(f"{answer.status} for a malformed body {data[:80]!r}")
            if not fuzz.check_closed(f"malformed {data[:80]!r}"):
                problems.append(f"a malformed body did not end the session: {data[:80]!r}")
            fuzz = None
        elif roll < 0.85:  # a random frame, then a probe: answered or the session ended
            frame = next(source)
            while isinstance(frame.data, str) and frame.data.startswith("41"):
                frame = next(source)  # leaving the namespace: covered over websockets
            data = frame.data if frame.data else b"\xff"
            fuzz.post(data, f"random {data[:80]!r}")
            probe = "stop" if namespace == NAMESPACE else "heartbeat"
            if not fuzz.event(probe, ({},), True, probe=True):
                fuzz = None
        elif roll < 0.9:  # closed by the client, then used again
            fuzz.post("1", "a close")
            for answer in (fuzz.post("3", "a pong after a close"), fuzz.session.poll()):
                check_http(answer, "a request after a close", problems, stats)
                if answer.status != 400 or answer.json().get("code") != "bad-session":
                    problems.append(f"{answer.status} {answer.body[:80]!r} after a close")
            fuzz = None
        elif roll < 0.95:  # a body that is not framed: refused, the session goes on
            raw = request_bytes("POST", fuzz.session.target, {"Content-Length": "abc"}, None)
            if rng.random() < 0.5:
                raw = request_bytes("POST", fuzz.session.target, {"Transfer-Encoding": "chunked"})
                raw += b"zz\r\nxx\r\n0\r\n\r\n"
            answer = exchange(url, raw)
            check_http(answer, "an unframed body", problems, stats)
            if answer is not None and answer.status != 400:
                problems.append(f"{answer.status} for an unframed body")
            if fuzz.check_closed("an unframed body"):
                problems.append("an unframed body (refused before the session) ended it")
                fuzz = None
        else:  # a session id that does not exist
            answer = exchange(url, request_bytes("GET", ENGINEIO + "&sid=" + rng.choice(SIDS)))
            check_http(answer, "an unknown session", problems, stats)
            if answer is not None and answer.status != 400:
                problems.append(f"{answer.status} for an unknown session")
    if fuzz is not None:  # leave no member behind (its room's feed would go on)
        fuzz.post("1", "the last close")
    return problems


SIDS = ["nope", "x" * 5000, "%00", "AAAAAAAAAAAAAAAAAAAA", "%E9%A9%AC", "'--"]


# -- malformed headers -------------------------------------------------------------------

HEADER_VALUES = {
    "Origin": [
        "http://evil.example",
        "http://[",
        "http://[::1",
        "http://[zz]",
        "null",
        "",
        "x" * 3000,
        "http://127.0.0.1:1",
    ],
    "Cookie": [
        "lang=en",
        "lang=zh",
        "lang=xx",
        'lang="\\355\\240\\200"',
        "lang=en; lang=zh",
        ";;;=;",
        "a" * 4000,
        "lang",
        "io=abc; lang=%ff",
    ],
    "Accept-Language": ["en", "zh-CN,zh;q=0.9", "fr;q=abc", ";;;,", "*", "en;q=-1", "x" * 3000],
    "X-Forwarded-For": [
        "203.0.113.7",
        "garbage",
        "",
        "1.2.3.4, 5.6.7.8",
        "[::1]",
        ",,,",
        "x" * 3000,
        "999.999.999.999",
    ],
    "X-Forwarded-Proto": ["https", "javascript", "", "http, https", "x" * 100],
    "X-Forwarded-Host": ["evil.example", "[", "a b", "127.0.0.1:99999", "", "x" * 300],
}


def maybe_headers(rng: random.Random, as_dict: bool = False, chance: float = 0.3):
    """Random malformed ``Cookie``, ``Accept-Language`` and ``X-Forwarded-For`` headers
    (``PROXY_FIX`` is set: the last address is believed), often none; as websocket-client's
    list of lines, or a dict.  (websocket-client sends an ``Origin``: a forwarded scheme or
    host would make it a foreign one, refused; :func:`fuzz_handshakes` covers those.)"""
    chosen = {}
    if rng.random() < chance:
        for name in rng.sample(SESSION_HEADERS, rng.randint(1, len(SESSION_HEADERS))):
            chosen[name] = rng.choice(HEADER_VALUES[name])
    if as_dict:
        return chosen
    return [f"{name}: {value}" for name, value in chosen.items()] or None


SESSION_HEADERS = ["Cookie", "Accept-Language", "X-Forwarded-For"]


def fuzz_handshakes(url: str, rng: random.Random, count: int, stats: dict) -> list[str]:
    """Engine.IO handshakes (polling and websocket) with malformed headers: accepted or
    refused with a 4xx carrying the security headers; an accepted one answers an event in
    one of the two languages."""
    problems: list[str] = []
    key = "watch.error.bad-request.missing"
    words = {text(key, lang, {"field": "run"}) for lang in ("en", "zh")}
    for _ in range(count):
        headers = {}
        for name in rng.sample(sorted(HEADER_VALUES), rng.randint(1, 4)):
            headers[name] = rng.choice(HEADER_VALUES[name])
        stats["handshakes"] += 1
        label = f"headers {headers!r:.200}"
        answer = exchange(url, request_bytes("GET", ENGINEIO, headers))
        check_http(answer, label, problems, stats)
        if answer is not None and answer.status == 200:
            sid = json.loads(answer.body[1:].split(b"\x1e")[0])["sid"]
            target = f"{ENGINEIO}&sid={sid}"
            for body in (b"40/watch,", b'42/watch,1["stop",{}]'):
                posted = exchange(url, request_bytes("POST", target, headers, body))
                check_http(posted, label, problems, stats)
            got = b""
            while b"43/watch,1" not in got:
                polled = exchange(url, request_bytes("GET", target, headers))
                check_http(polled, label, problems, stats)
                if polled is None or polled.status != 200:
                    problems.append(f"no answer through the polls with {label}")
                    break
                got += polled.body
            else:
                answer_json = json.loads(got[got.index(b"43/watch,1") + 10 :].split(b"\x1e")[0])
                if answer_json[0]["error"]["message"] not in words:
                    problems.append(f"an answer in no language: {answer_json!r:.200} ({label})")
            exchange(url, request_bytes("POST", target, headers, b"1"))
        try:
            ws = websocket.create_connection(
                url.replace("http://", "ws://") + ENGINEIO.replace("polling", "websocket"),
                timeout=ACK_TIMEOUT,
                header=[f"{name}: {value}" for name, value in headers.items()],
            )
        except websocket.WebSocketBadStatusException as err:
            if err.status_code >= 500:
                problems.append(f"{err.status_code} for a websocket with {label}")
        else:
            ws.close()
    return problems


# -- /class ----------------------------------------------------------------------------------

CLASS = "/class"
CLASS_MESSAGES = int(os.environ.get("FUZZ_CLASS_EVENTS", 2_500))
CLASS_RAW_FRAMES = 300
CLASS_PER_CONNECTION = 150
CLASS_WORKERS = 4
CLASS_EVENTS = (
    "join",
    "heartbeat",
    "settings",
    "control",
    "puzzle",
    "close",
    "solve",
    "solved",
    "sync",
    "quiz_enter",
    "quiz_answer",
    "quiz_ask",
    "quiz_reveal",
    "quiz_why",
    "quiz_state",
    "quiz_remove",
    "clear_attempts",
    "lab_exercise",
    "lab_submit",
    "lab_checked",
    "lab_source",
    "lab_state",
)
CLASS_ANSWERED = {*CLASS_EVENTS, "connect", "disconnect"}
# what counts against the costly-message burst
CLASS_STARTS = {"join", "sync", "solve", "quiz_enter", "lab_submit"}
# /watch's codes plus the class ones; "internal" (a handler that raised) is a bug
CLASS_CODES = CODES | {
    "unknown-room",
    "expired",
    "bad-token",
    "not-joined",
    "not-teacher",
    "stale",
    "superseded",
    "bad-puzzle",
    "no-puzzle",
    "bad-name",
    "full",
    "unknown-entry",
    "not-solved",
    "busy",  # the database was held too long by another writer (a loaded machine)
    # the class quiz
    "name-taken",
    "not-entered",
    "not-student",
    "not-yours",
    "no-question",
    "revealed",
    "bad-square",
    "question-open",
    "cannot-ask",
    "not-revealed",
    # one student per connection and browser; the teacher's removals and clearings
    "already-entered",
    "unknown-student",
    # the code lab
    "bad-exercise",
    "bad-source",
    "no-exercise",
    "old-exercise",
    "unknown-submission",
}


@dataclass
class ClassScene:
    """What one fuzz connection knows: its room, token and the ids it has seen."""

    code: str
    token: str
    games: list = field(default_factory=list)
    gen: int = 1
    seq: int = 0

    def next_seq(self, rng: random.Random) -> int:
        """Mostly the next number, sometimes an old one (refused as superseded)."""
        if rng.random() < 0.8:
            self.seq += 1
            return self.seq
        return rng.randint(0, self.seq + 1)


def valid_class(event: str, rng: random.Random, scene: ClassScene):
    if event == "join":
        token = rng.choice(
            [scene.token, scene.token, None, scene.token[:-1] + "A", "", "x" * 129, 7]
        )
        code = rng.choice([scene.code] * 4 + [scene.code.lower(), " " + scene.code, "ZZZZZZ"])
        return {"code": code} if token is None else {"code": code, "token": token}
    if event == "settings":
        return {
            "seq": scene.next_seq(rng),
            "rows": rng.randint(3, 8),
            "cols": rng.randint(3, 8),
            "start": [rng.randint(0, 2), rng.randint(0, 2)],
            "algorithm": rng.choice(["seed", "warnsdorff", "construct"]),
            "closed": rng.random() < 0.3,
            "pruning": rng.random() < 0.5,
        }
    if event == "control":
        return {
            "seq": scene.next_seq(rng),
            "gen": rng.choice([scene.gen, scene.gen, scene.gen + 1, 0]),
            "index": rng.choice([rng.randint(0, 500), rng.randint(0, 50_000_000)]),
            "playing": rng.random() < 0.5,
            "speed": rng.choice([None, 1, 60, 1000, 10_000]),
        }
    if event == "sync":
        return {
            "gen": rng.choice([scene.gen, scene.gen, scene.gen + 1, 0]),
            "index": rng.choice([rng.randint(0, 500), rng.randint(0, 50_000_000)]),
        }
    if event == "puzzle":
        if rng.random() < 0.1:
            return None
        return {
            "rows": rng.randint(3, 20),
            "cols": rng.randint(3, 20),
            "closed": rng.random() < 0.3,
            "start": [rng.randint(0, 3), rng.randint(0, 3)],
        }
    if event == "solve":
        return {"name": rng.choice(["Ann", "李雷", "x" * 24, "x" * 25, "", " ", "🐴"])}
    if event == "solved":
        return {"game": rng.choice([*scene.games, "no-such-game", "x" * 65])}
    if event == "quiz_enter":
        return {"name": rng.choice(["Ann", "李雷", "x" * 25, ""]), "key": rng.choice([None, "k"])}
    if event in ("quiz_remove", "clear_attempts"):
        return {"student": rng.choice(["0123456789abcdef", "someone", "x" * 17, ""])}
    if event == "quiz_answer":
        return {
            "question": rng.choice([1, 2, 0, 2**40]),
            "square": rng.choice([0, 5, -1, 400, 10**30]),
            "student": rng.choice([None, "someone-else"]),
        }
    if event in ("quiz_reveal", "quiz_why"):
        return {"question": rng.choice([1, 2, 0, -5])}
    return valid_lab(event, rng)


def valid_lab(event: str, rng: random.Random):
    if event == "lab_exercise":
        if rng.random() < 0.1:
            return None
        if rng.random() < 0.5:
            return {"preset": rng.choice(["python-sort", "plain-dfs", "warnsdorff", "nope"])}
        side = rng.randint(3, 8)
        return {"rows": side, "cols": side, "start": [0, 0], "closed": rng.random() < 0.3}
    if event == "lab_submit":
        source = rng.choice(["print(1)", "", "马" * 5000, "x" * 8001, "a\x00b", " "])
        return {"exercise": rng.choice([1, 2, 0]), "source": source}
    if event == "lab_checked":
        path = rng.choice([[], [0, 17, 34], list(range(64)), [10**9]])
        counts = rng.choice([0, 3, 2**53, -1])
        return {
            "id": rng.choice([1, 2, 0, 2**40]),
            "found": rng.random() < 0.8,
            "closed": rng.random() < 0.3,
            "moves": counts,
            "backtracks": rng.choice([0, counts]),
            "path": path,
        }
    if event == "lab_source":
        return {"id": rng.choice([1, 2, 0, -1])}
    return {}  # heartbeat, close, quiz_ask, quiz_state, lab_state


def class_message(rng: random.Random, scene: ClassScene, starts_left: int) -> tuple[str, tuple]:
    while True:
        roll = rng.random()
        if roll < 0.88:
            event = rng.choice(CLASS_EVENTS)
            if event in CLASS_STARTS and starts_left <= 0:
                event = "heartbeat"
            if event == "close" and rng.random() < 0.8:  # rare: it ends the room
                event = "heartbeat"
        elif roll < 0.96:
            event = rng.choice(UNKNOWN_EVENTS)
        else:
            event = random_event_name(rng)
        valid = functools.partial(valid_class, event, rng, scene) if event in CLASS_EVENTS else None
        args = message_args(rng, valid, mutated=0.6)
        if encoded_size(event, args) < MAX_FRAME:
            return event, args


def class_connection(url: str, rng: random.Random) -> tuple[FuzzConnection, ClassScene]:
    """A /class connection as a teacher, a student, a wrong token or not joined at all."""
    code, token = open_class_room(url)
    scene = ClassScene(code, token)
    lang = rng.choice(["", "?lang=en", "?lang=zh", "?lang=xx"])
    conn = FuzzConnection(url + lang, CLASS, CLASS_ANSWERED)
    return conn, scene


def fuzz_class(url: str, rng: random.Random, messages: int, stats: dict) -> list[str]:
    problems: list[str] = []
    while stats["events"] < messages:
        conn, scene = class_connection(url, rng)
        sent: list = []
        try:
            starts_left = STARTS_PER_CONNECTION
            role = rng.random()
            if role < 0.85:  # joined first: teacher, student or a wrong token
                token = scene.token if role < 0.45 else None if role < 0.75 else "wrong"
                payload = (
                    {"code": scene.code} if token is None else {"code": scene.code, "token": token}
                )
                conn.send("join", (payload,))
                sent.append(("join", payload))
                starts_left -= 1
                stats["events"] += 1
                if not conn.wait_acks(1):
                    problems.append("a join got no answer")
            if role < 0.45 and rng.random() < 0.7:  # a puzzle, so solve / solved go further
                conn.send("puzzle", ({"rows": 5, "cols": 5, "closed": False, "start": [0, 0]},))
                sent.append(("puzzle", None))
                stats["events"] += 1
            for _ in range(min(CLASS_PER_CONNECTION, messages - stats["events"])):
                event, args = class_message(rng, scene, starts_left)
                starts_left -= event in CLASS_STARTS
                if conn.send(event, args):
                    sent.append((event, args))
                else:
                    stats["dropped"] += 1
                stats["events"] += 1
                if event in ("solve", "settings") and rng.random() < 0.5:
                    conn.wait_acks(len(sent))  # learn the game id / generation
                    with conn.lock:
                        for answer in conn.answered.values():
                            body = answer[0] if answer and isinstance(answer[0], dict) else {}
                            if isinstance(body.get("game"), str):
                                scene.games.append(body["game"])
                            state = body.get("state")
                            if isinstance(state, dict) and isinstance(state.get("gen"), int):
                                scene.gen = max(scene.gen, state["gen"])
            if not conn.wait_acks(len(sent)):
                missing = conn.unanswered()
                problems.append(
                    f"/class: {len(missing)} of {len(sent)} got no answer: {missing!r:.300}"
                )
            problems += [f"/class: {p}" for p in check_answers(conn, CLASS_EVENTS, CLASS_CODES)]
        finally:
            conn.close()
        stats["acks"] += len(conn.acks)
        stats["refused"] += sum(
            1 for a in conn.acks if a and isinstance(a[0], dict) and a[0].get("ok") is False
        )
        stats["accepted"] += sum(
            1 for a in conn.acks if a and isinstance(a[0], dict) and a[0].get("ok") is True
        )
        stats["error_events"] += len(conn.errors)
    return problems


# -- every field of every event ----------------------------------------------------------

LONE_SURROGATES = ["\ud800", "a\udfffb", "\udc00\udc00", "x\ud83d"]
BIG_NUMBERS = [10**100, -(10**100), 10**1000, 1e308, -1e308, 10**99]
# the type of each field (docs/protocol.md); "square" is [row, col]
SEARCH_FIELDS = {  # a search's settings, the same on /watch and /class
    "rows": "int",
    "cols": "int",
    "start": "square",
    "algorithm": "str",
    "closed": "bool",
    "pruning": "bool",
}
WATCH_FIELDS = {
    "start": {
        "run": "str",
        **SEARCH_FIELDS,
        "window": "int",
        "node_budget": "int",
        "time_limit": "number",
        "game": "str",
    },
    "credit": {"run": "str", "events": "int"},
    "stop": {"run": "str"},
    "seek": {"run": "str", "index": "int", "window": "int"},
}
CLASS_FIELDS = {
    "join": {"code": "str", "token": "str"},
    "heartbeat": {},
    "sync": {"gen": "int", "index": "int"},
    "settings": {"seq": "int", **SEARCH_FIELDS},
    "control": {"seq": "int", "gen": "int", "index": "int", "playing": "bool", "speed": "number"},
    "puzzle": {"rows": "int", "cols": "int", "closed": "bool", "start": "square"},
    "close": {},
    "solve": {"name": "str"},
    "solved": {"game": "str"},
    "quiz_enter": {"name": "str", "key": "str"},
    "quiz_answer": {"question": "int", "square": "int", "student": "str"},
    "quiz_reveal": {"question": "int"},
    "quiz_why": {"question": "int"},
    "quiz_remove": {"student": "str"},
    "clear_attempts": {"student": "str"},
}
TEACHER_EVENTS = {
    "settings",
    "control",
    "puzzle",
    "close",
    "quiz_ask",
    "quiz_reveal",
    "quiz_why",
    "quiz_remove",
    "clear_attempts",
}


def sweep_messages(namespace: str, scene: ClassScene | None):
    """(event, payload, expected) for every field of every event: each lone surrogate
    (refused ``bad-request`` with the words for it, whatever the field), and each number
    too big for its field (refused).  Also a surrogate in a key and in a field the event
    does not know, and a big number there (ignored: answered as the payload would be)."""
    fields = WATCH_FIELDS if namespace == NAMESPACE else CLASS_FIELDS
    for event, types in fields.items():
        if namespace == NAMESPACE:
            base = valid_for(event, random.Random(0))
            base.pop("game", None)
        else:
            base = valid_class(event, random.Random(0), scene) or {}
        for name, kind in types.items():
            for bad in LONE_SURROGATES:
                value = [bad, 0] if kind == "square" else bad
                yield event, {**base, name: value}, "text"
            if event == "close":
                continue
            for big in BIG_NUMBERS:
                value = [big, 0] if kind == "square" else big
                yield event, {**base, name: value}, "refused"
        yield event, {**base, "\udc00": 1}, "text"
        yield event, {**base, "note": "\ud800"}, "text"
        if event not in ("close", "join"):
            yield event, {**base, "note": 10**1000}, "answered"


def sweep_connection(url, namespace, answered, scene, role, attempts: int = 20):
    """(a fresh connection for a batch of the sweep, joined to the scene's room as `role`;
    the join's refusal, or None).  A join answered ``busy`` (the fuzz's other writers held
    the database longer than it waits: "try again", docs/protocol.md) is tried again on a
    new connection, so that the refusal's error event is not counted as the batch's."""
    if role == "none":
        return FuzzConnection(url + "?lang=en", namespace, answered), None
    joined = {"code": scene.code, **({"token": scene.token} if role == "teacher" else {})}
    for attempt in range(1, attempts + 1):
        conn = FuzzConnection(url + "?lang=en", namespace, answered)
        answer = conn.call("join", joined)
        refused = None if answer["ok"] else answer["error"]["code"]
        if refused != "busy" or attempt == attempts:
            return conn, refused
        conn.close()


def sweep(url: str, namespace: str, stats: dict) -> list[str]:
    """:func:`sweep_messages` from fresh connections (within the costly-message bursts):
    on /class, ``join`` before joining, ``solve`` / ``solved`` as a student of a room with
    a puzzle, the others as its teacher."""
    problems: list[str] = []
    scene = ClassScene(*open_class_room(url)) if namespace == CLASS else None
    answered = ANSWERED if namespace == NAMESPACE else CLASS_ANSWERED
    codes = CODES if namespace == NAMESPACE else CLASS_CODES
    accepted = WATCH_EVENTS if namespace == NAMESPACE else CLASS_EVENTS
    words = text("error.bad-request.text", "en")
    groups: dict[str, list] = {}
    for message in sweep_messages(namespace, scene):
        event = message[0]
        role = (
            "none"
            if scene is None or event == "join"
            else "student"
            if event in ("solve", "solved")
            else "teacher"
        )
        groups.setdefault(role, []).append(message)
    if scene is not None:
        puzzle = {"rows": 5, "cols": 5, "closed": False, "start": [0, 0]}
        teacher = FuzzConnection(url, namespace, answered)
        assert teacher.call("join", {"code": scene.code, "token": scene.token})["ok"]
        assert teacher.call("puzzle", puzzle)["ok"]
        teacher.close()
    costly = {"start"} if namespace == NAMESPACE else CLASS_STARTS
    for role, messages in groups.items():
        batches, batch, spent = [], [], 1  # the join is costly too
        for message in messages:  # within the costly-message burst of a connection
            if spent + (message[0] in costly) >= STARTS_PER_CONNECTION or len(batch) >= 60:
                batches.append(batch)
                batch, spent = [], 1
            batch.append(message)
            spent += message[0] in costly
        batches.append(batch)
        for batch in batches:
            conn, refused = sweep_connection(url, namespace, answered, scene, role)
            try:
                if refused is not None:
                    problems.append(f"{namespace}: the sweep could not join as {role}: {refused}")
                for event, payload, _ in batch:
                    conn.send(event, (payload,))
                    stats["sweep"] += 1
                if not conn.wait_acks(len(conn.sent)):
                    missing = conn.unanswered()
                    problems.append(f"{namespace}: sweep: no answer to {missing!r:.300}")
                found = check_answers(conn, accepted, codes)
                problems += [f"{namespace}: sweep: {p}" for p in found]
                for index, answer in conn.answered.items():
                    event, (payload,) = conn.sent[index]
                    expected = next(e for ev, p, e in batch if ev == event and p is payload)
                    body = answer[0] if answer and isinstance(answer[0], dict) else {}
                    error = body.get("error") or {}
                    label = f"{namespace} {event} {payload!r:.100}"
                    if expected == "text" and (
                        error.get("code") != "bad-request" or error.get("message") != words
                    ):
                        problems.append(f"{label} answered {body!r:.200}")
                    if expected == "refused" and body.get("ok") is not False:
                        problems.append(f"{label} accepted: {body!r:.200}")
            finally:
                conn.close()
    return problems


# -- the tests -------------------------------------------------------------------------------

STAT_KEYS = (
    "events",  # messages from python-socketio clients
    "dropped",  # of which unknown events (no answer due)
    "acks",
    "refused",
    "accepted",
    "error_events",
    "oversized",
    "pushed",  # progress and snapshot messages of the seeks, their shapes checked
    "sweep",  # every field of every event
    "raw",  # raw websocket frames
    "raw_closed",  # connections they closed
    "polling",  # long-polling requests of the fuzz
    "polling_sessions",
    "polling_events",
    "polling_acks",
    "http",  # HTTP answers checked (polling, handshakes)
    "handshakes",
)
POLLING_POSTS = int(os.environ.get("FUZZ_POLLING", 300))
CLASS_POLLING_POSTS = 120
HANDSHAKES = 20


def run_jobs(jobs: dict) -> tuple[dict, list[str], float]:
    """Run each ``name: job(stats) -> problems`` in its own thread; the summed stats, the
    problems and the seconds it took."""
    stats = dict.fromkeys(STAT_KEYS, 0)
    problems: list[str] = []
    lock = threading.Lock()
    began = time.monotonic()

    def work(name: str, job) -> None:
        local = dict.fromkeys(STAT_KEYS, 0)
        began = time.monotonic()
        try:
            found = job(local)
        except Exception as err:  # reported with the seed
            found = [f"{name}: {err!r}"]
        print(f"{name}: {time.monotonic() - began:.1f} s")
        with lock:
            problems.extend(found)
            for key, value in local.items():
                stats[key] += value

    threads = [threading.Thread(target=work, args=item) for item in jobs.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(200)
    return stats, problems, time.monotonic() - began


def fuzz(server, jobs: dict) -> dict:
    """:func:`run_jobs`, then a report; fails on any problem the jobs found, with the
    server's side of it (its first traceback), if any. The summed stats."""
    stats, problems, seconds = run_jobs(jobs)
    found = tracebacks(server.stderr())
    print(f"{stats} in {seconds:.1f} s; tracebacks in the server's log: {len(found)}")
    assert not problems, f"FUZZ_SEED={SEED}: {problems[:10]}\n{found[:1]}"
    return stats


def assert_recovered(server, baseline: int) -> None:
    """No stuck task: every run and connection thread has ended (threads in a plain sleep
    are left out: tests/web/test_churn.py waits for every thread too); the server is alive
    and its log holds no traceback."""
    server.assert_settled(baseline, timeout=10, busy=True)
    assert server.alive()
    found = tracebacks(server.stderr())
    assert not found, f"FUZZ_SEED={SEED}: {len(found)} tracebacks, the first:\n{found[0]}"


def test_fuzz_watch_socket(server):
    print(f"FUZZ_SEED={SEED}")
    url = server.url
    # warm up and take the baseline of busy threads (see tests/support/servers.py)
    WatchClient(url).close()
    baseline = server.steady_busy_threads()

    def rng(index: int) -> random.Random:
        return random.Random(SEED * 100 + index)

    jobs = {
        f"events {i}": (
            lambda stats, i=i: fuzz_events(url, rng(i), EVENT_MESSAGES // WORKERS, stats)
        )
        for i in range(WORKERS)
    }
    jobs["raw frames"] = lambda stats: fuzz_raw(url, rng(WORKERS), RAW_FRAMES, stats)
    jobs["long-polling"] = lambda stats: fuzz_polling(url, rng(WORKERS + 1), POLLING_POSTS, stats)
    jobs["headers and fields"] = lambda stats: (
        fuzz_handshakes(url, rng(WORKERS + 2), HANDSHAKES, stats) + sweep(url, NAMESPACE, stats)
    )
    stats = fuzz(server, jobs)
    sent = stats["events"] + stats["raw"] + stats["polling"] + stats["sweep"]
    assert sent >= EVENT_MESSAGES // WORKERS * WORKERS + RAW_FRAMES  # every job ran to its end
    assert stats["acks"] == stats["events"] - stats["dropped"]
    assert stats["polling_acks"] > 0 and stats["sweep"] > 100
    assert stats["pushed"] > 0  # some seeks were accepted and answered

    # still responsive: a run streams the engine's search to its end
    client = WatchClient(url)
    try:
        ack = client.start(start_payload("after", rows=5, cols=5))
        assert ack["ok"], ack
        assert client.done_event.wait(30), "the run after the fuzzing did not finish"
        assert client.dones["after"]["status"] == "found"
    finally:
        client.close()
    # ... and a seek to the end of one is answered with a well-formed snapshot
    jumper = FuzzConnection(url)
    try:
        assert jumper.call("start", start_payload("jump", rows=5, cols=5, window=10))["ok"]
        assert jumper.call("seek", {"run": "jump", "index": None})["ok"]
        assert wait_until(lambda: any(e == "snapshot" for e, _ in jumper.pushed), 30)
        [snapshot] = [m for e, m in jumper.pushed if e == "snapshot"]
        assert not push_problems("snapshot", snapshot)
        end = snapshot["end"]
        assert end["status"] == "found" and snapshot["index"] == end["total"]
    finally:
        jumper.close()

    assert_recovered(server, baseline)


def class_polling(url: str, rng: random.Random, posts: int, stats: dict) -> list[str]:
    """:func:`fuzz_polling` on /class: each session joins one of a few rooms (as its
    teacher, a student, or not at all), then sends class messages."""
    scenes = [ClassScene(*open_class_room(url)) for _ in range(3)]
    current: list[ClassScene] = []

    def opening(fuzz: PollingFuzz) -> None:
        current[:] = [rng.choice(scenes)]
        role = rng.random()
        if role < 0.8:
            joined = {"code": current[0].code}
            if role < 0.5:
                joined["token"] = current[0].token
            fuzz.event("join", (joined,), True)

    def message(rng: random.Random):
        return class_message(rng, current[0], STARTS_PER_CONNECTION // 2)

    return fuzz_polling(url, rng, posts, stats, CLASS, message, opening)


def test_fuzz_class_socket(server):
    """Every /class event (docs/protocol.md "Class rooms") from teachers, students, wrong
    tokens and connections that never joined: the same checks as on /watch."""
    print(f"FUZZ_SEED={SEED}")
    url = server.url
    # warm up (a room, a joined teacher) and take the baseline of busy threads
    warm, scene = class_connection(url, random.Random(SEED))
    warm.send("join", ({"code": scene.code, "token": scene.token},))
    assert warm.wait_acks(1) and warm.acks[0][0]["ok"], warm.acks
    warm.close()
    baseline = server.steady_busy_threads()

    def rng(index: int) -> random.Random:
        return random.Random(SEED * 100 + 50 + index)

    jobs = {
        f"class events {i}": (
            lambda stats, i=i: fuzz_class(url, rng(i), CLASS_MESSAGES // CLASS_WORKERS, stats)
        )
        for i in range(CLASS_WORKERS)
    }
    jobs["class raw frames"] = lambda stats: fuzz_raw(
        url, rng(CLASS_WORKERS), CLASS_RAW_FRAMES, stats, CLASS
    )
    jobs["class long-polling"] = lambda stats: class_polling(
        url, rng(CLASS_WORKERS + 1), CLASS_POLLING_POSTS, stats
    )
    jobs["class fields"] = lambda stats: sweep(url, CLASS, stats)
    stats = fuzz(server, jobs)
    assert stats["events"] >= CLASS_MESSAGES - CLASS_WORKERS
    assert stats["acks"] == stats["events"] - stats["dropped"]
    assert stats["accepted"] > 0  # the valid messages got through, not only refusals
    assert stats["polling_acks"] > 0 and stats["sweep"] > 100
    # still responsive: a teacher joins a new room, its demo runs to the end and a
    # student who joins then is shown the end
    code, token = open_class_room(url)
    teacher, student = Follower(url), None
    try:
        joined = teacher.join(code, token)
        assert joined["ok"] and joined["role"] == "teacher", joined
        settings = {"seq": 1, "rows": 5, "cols": 5, "start": [0, 0], "algorithm": "warnsdorff"}
        settings |= {"closed": False, "pruning": True}
        gen = teacher.call("settings", settings)["state"]["gen"]
        control = {"seq": 2, "gen": gen, "index": 0, "playing": True, "speed": None}
        assert teacher.call("control", control)["ok"]
        assert wait_until(lambda: any(s["end"] for s in teacher.got("state")), 30)
        student = Follower(url)
        end = student.join(code)["state"]["end"]
        assert end["status"] == "found", end
        assert student.shows(end["total"]) is not None
    finally:
        teacher.close()
        if student is not None:
            student.close()

    assert_recovered(server, baseline)
