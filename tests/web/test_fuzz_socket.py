"""Socket fuzzing of /watch against a real ``knights-tour serve`` process over websockets.

At least 10,000 random and malformed messages:

* **events** through python-socketio clients: ``start``, ``credit``, ``stop`` and unknown
  event names (including the reserved ``connect``/``disconnect``/``error`` and ``*``), with valid
  payloads mutated field by field (missing fields, wrong types, huge and negative
  numbers, NaN and infinities, unicode, lone surrogates, binary attachments, nesting,
  several arguments, no argument) and plain random values; oversized payloads now
  and then (the transport closes that connection);
* **raw frames** through a bare websocket (websocket-client) speaking Engine.IO: malformed Socket.IO
  packets (broken JSON, deep nesting, integers too long to parse, bad packet types,
  bad ack ids and attachment counts, binary frames, other namespaces).

Every ``start``, ``credit`` and ``stop`` (and a ``connect`` or ``disconnect`` sent as an
event) asks for an acknowledgement and gets one, ``{"ok": true, ...}`` or ``{"ok": false,
"error": {...}}`` with a protocol error code, and every refusal also arrives as an
``error`` event with the same body.  Other unknown events are dropped by python-socketio,
and a message with an integer literal over 100 digits by python-engineio, without an
answer.  Afterwards the server is alive and still streams a run correctly, its stderr
holds no traceback, and its threads come back to the baseline (no stuck task).  The seed
is random unless ``FUZZ_SEED`` is set; a failure prints it.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import threading
import time
from dataclasses import dataclass, field

import pytest
import socketio
import websocket
from socketio.packet import EVENT, Packet

from benchmarks.bench_stream import WatchClient, start_payload
from tests.scale.servers import open_class_room, start_servers, tracebacks
from tests.support.follower import Follower
from tests.waiting import wait_until

NAMESPACE = "/watch"
EVENT_MESSAGES = int(os.environ.get("FUZZ_EVENTS", 9_000))  # through python-socketio clients
RAW_FRAMES = 1_500  # raw Engine.IO frames
PER_CONNECTION = 225  # well under the 2,000-message burst of the rate limit
STARTS_PER_CONNECTION = 8  # under the start burst of 10
WORKERS = 6
ACK_TIMEOUT = 10.0
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
}

pytestmark = pytest.mark.timeout(240)

SEED = int(os.environ.get("FUZZ_SEED") or random.SystemRandom().randrange(2**32))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    env = {"RATE_LIMIT_CLASS_ROOMS": "1000/minute"}  # the class fuzz opens many rooms
    (proc,) = start_servers(tmp_path_factory.mktemp("fuzz"), 1, env=env)
    yield proc
    proc.stop()


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
    "\ud800",  # a lone surrogate (json.dumps escapes it)
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
    10**300,
    -(10**300),
    0.5,
    5.0,
    -0.0,
    1e308,
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
ANSWERED = {"start", "credit", "stop", "connect", "disconnect"}


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
    elif roll < 0.6:
        event = "credit"
    elif roll < 0.85:
        event = "stop"
    elif roll < 0.95:
        event = rng.choice(UNKNOWN_EVENTS)
    else:
        event = "".join(chr(rng.randint(32, 0x2FFF)) for _ in range(rng.randint(1, 40)))
    shape = rng.random()
    if event in ("start", "credit", "stop") and shape < 0.7:
        payload = valid_for(event, rng)
        args = (mutate(payload, rng) if rng.random() < 0.9 else payload,)
    elif shape < 0.85:
        args = (random_value(rng),)
    elif shape < 0.95:
        args = tuple(random_value(rng) for _ in range(rng.randint(2, 4)))
    else:
        args = ()
    return event, args


# -- event fuzzing through python-socketio ---------------------------------------------------


def transport_drops(value) -> bool:
    """Whether python-engineio refuses to decode the packet: it parses no integer literal
    longer than 100 characters (a guard against slow big-int parsing), so the message
    never reaches the app and gets no answer (the server logs one line)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return len(str(value)) > 100
    if isinstance(value, list | tuple):
        return any(transport_drops(v) for v in value)
    if isinstance(value, dict):
        return any(transport_drops(v) for v in value.values())
    return False


class FuzzConnection:
    def __init__(self, url: str, namespace: str = NAMESPACE, answered=ANSWERED):
        self.namespace = namespace
        self.answered_events = answered
        self.lock = threading.Lock()
        self.acks: list = []
        self.errors: list[dict] = []
        self.sent: list = []
        self.answered: dict[int, tuple] = {}
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("error", self._on_error, namespace=namespace)
        self.sio.connect(url, namespaces=[namespace], transports=["websocket"], wait_timeout=5)

    def _on_error(self, data):
        with self.lock:
            self.errors.append(data)

    def send(self, event: str, args: tuple) -> bool:
        """Emit with an acknowledgement when an answer is due; whether it is."""
        index = len(self.sent)
        if transport_drops(args) or event not in self.answered_events:
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
        deadline = time.monotonic() + ACK_TIMEOUT
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.acks) >= count:
                    return True
            time.sleep(0.01)
        return False

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.sio.disconnect()


def check_answers(
    conn: FuzzConnection, accepted=("start", "credit", "stop"), codes=CODES
) -> list[str]:
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
    events = [e for e in conn.errors if e.get("code") != "rate-limited"]
    key = lambda e: json.dumps(e, sort_keys=True)  # noqa: E731
    if sorted(map(key, plain)) != sorted(map(key, events)):
        problems.append(f"{len(plain)} refusals but {len(events)} error events")
    return problems


def fuzz_events(url: str, rng: random.Random, messages: int, stats: dict) -> list[str]:
    problems: list[str] = []
    while stats["events"] < messages:
        conn = FuzzConnection(url)
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
    return problems


# -- raw frames ------------------------------------------------------------------------------


def raw_frames(rng: random.Random):
    """Malformed and odd Socket.IO packets, as Engine.IO text (or binary) frames."""
    good = json.dumps(start_payload("a1", rows=5, cols=5))
    fixed = [
        '42/watch,["start",' + "[" * 5000 + "]" * 5000 + "]",
        '42/watch,["start",' + '{"a":' * 3000 + "1" + "}" * 3000 + "]",
        '42/watch,["start",1e999]',
        '42/watch,["start",-1e999]',
        '42/watch,["start",NaN]',
        '42/watch,["credit",{"run":"a1","events":' + "9" * 5000 + "}]",
        '42/watch,["credit",{"run":"a1","events":' + "9" * 4000 + "}]",
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
        '45/watch,1-["start",{"_placeholder":true,"num":5}]',
        '45/watch,-1-["start",{"_placeholder":true,"num":0}]',
        '45/watch,99999-["start",{"_placeholder":true,"num":0}]',
        '45/watch,x-["start",{"_placeholder":true,"num":0}]',
        '46/watch,1-5[{"_placeholder":true,"num":0}]',
        "43/watch,5[1]",
        "43/watch,abc[1]",
        "44/watch,{}",
        "40/watch,{}",
        '40/watch,{"token":' + "[" * 2000 + "]" * 2000 + "}",
        "41/watch,",
        "41/nowhere,",
        '42/nowhere,["start",{}]',
        '42/watch/../,["start",{}]',
        '42/watch,17["start",' + good + "]",
        '42/watch,-1["stop",{"run":"a1"}]',
        '42/watch,99999999999999999999999["stop",{"run":"a1"}]',
        '42/watch,1.5["stop",{"run":"a1"}]',
        '42/watch,["\\ud800",{"run":"\\udfff"}]',
        '42/watch,["connect",{"token":1}]',
        '42/watch,["disconnect","io client disconnect"]',
        "4x",
        "4",
        "49",
        "9",
        "6",
        "5",
        "3probe",
        "2probe",
        "1",
        "0",
        "\x00",
        "4" + "2" * 100,
        b"\x00\x01\xff",
        b"",
        b"\xff" * 100,
    ]
    yield from fixed
    alphabet = '42/watch,["start{}:",]0123456789-eE.tfnul\\"x'
    while True:
        kind = rng.random()
        if kind < 0.4:  # a well-formed frame, then bytes flipped
            frame = list('42/watch,["start",' + good + "]")
            for _ in range(rng.randint(1, 6)):
                frame[rng.randrange(len(frame))] = rng.choice(alphabet)
            yield "".join(frame)
        elif kind < 0.7:
            event = rng.choice(["start", "credit", "stop", "nope"])
            body = json.dumps(random_value(rng), default=repr)
            yield f'42/watch,{rng.choice(["", "7"])}["{event}",{body}]'
        elif kind < 0.9:
            yield "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 60)))
        else:
            yield rng.randbytes(rng.randint(1, 64))


class RawConnection:
    """A bare websocket (websocket-client) that opened /watch (or ``namespace``) by hand."""

    def __init__(self, url: str, namespace: str = NAMESPACE):
        ws_url = url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"
        self.ws = websocket.create_connection(ws_url, timeout=5)
        opened = self.ws.recv()
        assert isinstance(opened, str) and opened.startswith("0"), opened
        self.ws.send(f"40{namespace},")
        answer = self.ws.recv()
        assert isinstance(answer, str) and answer.startswith(f"40{namespace},"), answer

    @property
    def connected(self) -> bool:
        return self.ws.connected

    def send(self, frame) -> None:
        if isinstance(frame, bytes):
            self.ws.send_binary(frame)
        else:
            self.ws.send(frame)

    def drain(self, timeout: float = 0.005) -> None:
        """Read what the server sent (answers, pings) until it is quiet for ``timeout``."""
        self.ws.settimeout(timeout)
        try:
            while True:
                self.ws.recv()
        except websocket.WebSocketTimeoutException:
            pass
        except (websocket.WebSocketConnectionClosedException, OSError):
            self.ws.shutdown()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close(timeout=1)


def fuzz_raw(
    url: str, rng: random.Random, frames: int, stats: dict, namespace: str = NAMESPACE
) -> None:
    conn = None
    source = raw_frames(rng)
    if namespace != NAMESPACE:  # the same frames, aimed at the other namespace
        source = (f.replace(NAMESPACE, namespace) if isinstance(f, str) else f for f in source)
    try:
        for _, frame in zip(range(frames), source, strict=False):
            if conn is None or not conn.connected:
                if conn is not None:
                    conn.close()
                    stats["raw_closed"] += 1
                conn = RawConnection(url, namespace)
            try:
                conn.send(frame)
            except (websocket.WebSocketConnectionClosedException, OSError):
                conn.close()
                conn = None
                stats["raw_closed"] += 1
                continue
            stats["raw"] += 1
            conn.drain()
    finally:
        if conn is not None:
            conn.close()


# -- /class ----------------------------------------------------------------------------------

CLASS = "/class"
CLASS_MESSAGES = int(os.environ.get("FUZZ_CLASS_EVENTS", 4_000))
CLASS_RAW_FRAMES = 500
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
)
CLASS_ANSWERED = {*CLASS_EVENTS, "connect", "disconnect"}
CLASS_STARTS = {"join", "sync", "solve"}  # what counts against the costly-message burst
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
    return {}  # heartbeat, close


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
            event = "".join(chr(rng.randint(32, 0x2FFF)) for _ in range(rng.randint(1, 40)))
        shape = rng.random()
        if event in CLASS_EVENTS and shape < 0.7:
            payload = valid_class(event, rng, scene)
            if isinstance(payload, dict) and rng.random() < 0.6:
                payload = mutate(payload, rng)
            args = (payload,)
        elif shape < 0.85:
            args = (random_value(rng),)
        elif shape < 0.95:
            args = tuple(random_value(rng) for _ in range(rng.randint(2, 4)))
        else:
            args = ()
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


# -- the test --------------------------------------------------------------------------------


def test_fuzz_watch_socket(server):
    print(f"FUZZ_SEED={SEED}")
    url = server.url
    # warm up and take the baseline of busy threads (see tests/scale/servers.py)
    WatchClient(url).close()
    baseline = server.steady_busy_threads()

    stats = dict.fromkeys(
        ("events", "dropped", "acks", "refused", "error_events", "oversized", "raw", "raw_closed"),
        0,
    )
    problems: list[str] = []
    lock = threading.Lock()
    began = time.monotonic()

    def work(index: int) -> None:
        rng = random.Random(SEED * 100 + index)
        local = dict.fromkeys(stats, 0)
        try:
            if index == WORKERS:
                found = []
                fuzz_raw(url, rng, RAW_FRAMES, local)
            else:
                found = fuzz_events(url, rng, EVENT_MESSAGES // WORKERS, local)
        except Exception as err:  # reported with the seed below
            found = [f"worker {index}: {err!r}"]
        with lock:
            problems.extend(found)
            for key, value in local.items():
                stats[key] += value

    workers = [threading.Thread(target=work, args=(i,)) for i in range(WORKERS + 1)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join(200)
    seconds = time.monotonic() - began
    print(f"{stats} in {seconds:.1f} s")
    found = tracebacks(server.stderr())  # the server's side of an odd answer, if any
    assert not problems, f"FUZZ_SEED={SEED}: {problems[:10]}\n{found[:1]}"
    assert stats["events"] + stats["raw"] >= 10_000
    assert stats["acks"] == stats["events"] - stats["dropped"]

    # still responsive: a run streams the engine's search to its end
    client = WatchClient(url)
    try:
        ack = client.start(start_payload("after", rows=5, cols=5))
        assert ack["ok"], ack
        assert client.done_event.wait(30), "the run after the fuzzing did not finish"
        assert client.dones["after"]["status"] == "found"
    finally:
        client.close()

    # no stuck task: every run and connection thread has ended (engine.io's ping threads,
    # a 25 s sleep each, are left out: tests/web/test_churn.py waits for those too)
    busy = server.settle_threads(baseline, timeout=10, busy=True)
    assert busy <= baseline, f"FUZZ_SEED={SEED}: {busy} busy threads, baseline {baseline}"
    assert server.alive()
    found = tracebacks(server.stderr())
    assert not found, f"FUZZ_SEED={SEED}: {len(found)} tracebacks, the first:\n{found[0]}"


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

    keys = ("events", "dropped", "acks", "refused", "accepted", "error_events", "raw")
    stats = dict.fromkeys((*keys, "raw_closed"), 0)
    problems: list[str] = []
    lock = threading.Lock()
    began = time.monotonic()

    def work(index: int) -> None:
        rng = random.Random(SEED * 100 + 50 + index)
        local = dict.fromkeys(stats, 0)
        try:
            if index == CLASS_WORKERS:
                found = []
                fuzz_raw(url, rng, CLASS_RAW_FRAMES, local, CLASS)
            else:
                found = fuzz_class(url, rng, CLASS_MESSAGES // CLASS_WORKERS, local)
        except Exception as err:  # reported with the seed below
            found = [f"class worker {index}: {err!r}"]
        with lock:
            problems.extend(found)
            for key, value in local.items():
                stats[key] += value

    workers = [threading.Thread(target=work, args=(i,)) for i in range(CLASS_WORKERS + 1)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join(200)
    seconds = time.monotonic() - began
    print(f"{stats} in {seconds:.1f} s")
    found = tracebacks(server.stderr())  # the server's side of an odd answer, if any
    assert not problems, f"FUZZ_SEED={SEED}: {problems[:10]}\n{found[:1]}"
    assert stats["events"] >= CLASS_MESSAGES - CLASS_WORKERS
    assert stats["acks"] == stats["events"] - stats["dropped"]
    assert stats["accepted"] > 0  # the valid messages got through, not only refusals

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

    busy = server.settle_threads(baseline, timeout=10, busy=True)
    assert busy <= baseline, f"FUZZ_SEED={SEED}: {busy} busy threads, baseline {baseline}"
    assert server.alive()
    found = tracebacks(server.stderr())
    assert not found, f"FUZZ_SEED={SEED}: {len(found)} tracebacks, the first:\n{found[0]}"
