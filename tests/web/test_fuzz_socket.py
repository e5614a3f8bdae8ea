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

import pytest
import socketio
import websocket
from socketio.packet import EVENT, Packet

from benchmarks.bench_stream import WatchClient, start_payload
from tests.scale.servers import start_servers, tracebacks

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
    (proc,) = start_servers(tmp_path_factory.mktemp("fuzz"), 1)
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
    def __init__(self, url: str):
        self.lock = threading.Lock()
        self.acks: list = []
        self.errors: list[dict] = []
        self.sent: list = []
        self.answered: dict[int, tuple] = {}
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("error", self._on_error, namespace=NAMESPACE)
        self.sio.connect(url, namespaces=[NAMESPACE], transports=["websocket"], wait_timeout=5)

    def _on_error(self, data):
        with self.lock:
            self.errors.append(data)

    def send(self, event: str, args: tuple) -> bool:
        """Emit with an acknowledgement when an answer is due; whether it is."""
        index = len(self.sent)
        if transport_drops(args) or event not in ANSWERED:
            self.sio.emit(event, args if len(args) != 1 else args[0], NAMESPACE)
            return False
        self.sent.append((event, args))

        def on_ack(*answer):
            with self.lock:
                self.acks.append(answer)
                self.answered[index] = answer

        self.sio.emit(event, args if len(args) != 1 else args[0], NAMESPACE, on_ack)
        return True

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


def check_answers(conn: FuzzConnection) -> list[str]:
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
            if event not in ("start", "credit", "stop"):
                problems.append(f"{event!r} accepted: {body!r:.200}")
            continue
        error = body.get("error")
        if not isinstance(error, dict) or error.get("code") not in CODES:
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
    """A bare websocket (websocket-client) that opened /watch by hand."""

    def __init__(self, url: str):
        ws_url = url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"
        self.ws = websocket.create_connection(ws_url, timeout=5)
        opened = self.ws.recv()
        assert isinstance(opened, str) and opened.startswith("0"), opened
        self.ws.send("40/watch,")
        answer = self.ws.recv()
        assert isinstance(answer, str) and answer.startswith("40/watch,"), answer

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


def fuzz_raw(url: str, rng: random.Random, frames: int, stats: dict) -> None:
    conn = None
    try:
        for _, frame in zip(range(frames), raw_frames(rng), strict=False):
            if conn is None or not conn.connected:
                if conn is not None:
                    conn.close()
                    stats["raw_closed"] += 1
                conn = RawConnection(url)
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


# -- the test --------------------------------------------------------------------------------


def test_fuzz_watch_socket(server):
    print(f"FUZZ_SEED={SEED}")
    url = server.url
    # warm up and take the baseline of busy threads (see tests/scale/servers.py)
    WatchClient(url).close()
    baseline = previous = -1
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        baseline = server.busy_threads()
        if baseline == previous:
            break
        previous = baseline
        time.sleep(0.3)

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
    assert not problems, f"FUZZ_SEED={SEED}: {problems[:10]}"
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
