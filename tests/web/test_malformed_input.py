"""Every malformed input answered (issue 10): what an outside fuzzer found, one test each.

Each test below failed before its fix.  Most run against a real ``knights-tour serve``
process (tests/support/servers.py), so the HTTP server, the Engine.IO transport and the
Socket.IO decoder are the ones deployed, and its stderr is checked for tracebacks.
The fuzz tests (test_fuzz_http.py, test_fuzz_socket.py) cover the same classes of input
at random, for every route and every event.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import socketio
import websocket

from server.app import create_app
from server.i18n import text
from server.web.security import HEADERS
from tests.support.servers import open_class_room, tracebacks
from tests.support.watch import start_payload
from tests.support.wire import PollingSession, exchange, http, request_bytes
from tests.web.serving import module_server

ROOT = Path(__file__).resolve().parents[2]


server = module_server(RATE_LIMIT_CLASS_ROOMS="1000/minute", RATE_LIMIT_CLASS_ROOMS_DEVICE="0")


@pytest.fixture(autouse=True)
def no_traceback(request):
    """A test that drove the real server leaves no traceback in its log."""
    yield
    if "server" in request.fixturenames:
        proc = request.getfixturevalue("server")
        found = tracebacks(proc.stderr())
        assert not found, f"{len(found)} tracebacks, the first:\n{found[0]}"


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance")})


@pytest.fixture
def client(app):
    return app.test_client()


def has_security_headers(headers) -> bool:
    lower = {name.lower(): value for name, value in dict(headers).items()}
    return all(lower.get(name.lower()) == value for name, value in HEADERS.items())


class Member:
    """A python-socketio client on /watch and /class that records ``error`` events."""

    def __init__(self, url: str, lang: str = "en") -> None:
        self.errors: dict[str, list] = {"/watch": [], "/class": []}
        self.sio = socketio.Client(reconnection=False)
        for namespace, got in self.errors.items():
            self.sio.on("error", got.append, namespace=namespace)
        self.sio.connect(
            f"{url}?lang={lang}", namespaces=list(self.errors), transports=["websocket"]
        )

    def call(self, namespace: str, event: str, payload):
        return self.sio.call(event, payload, namespace=namespace, timeout=10)

    def close(self) -> None:
        self.sio.disconnect()


@pytest.fixture
def member(server):
    opened = Member(server.url)
    yield opened
    opened.close()


# -- 1. a malformed Origin -----------------------------------------------------------------
@pytest.mark.parametrize("origin", ["http://[", "http://[::1", "http://[zz]", "http://[::1]:x"])
def test_1_a_malformed_origin_is_a_foreign_origin(client, origin):
    """urlsplit raised ValueError on these: a 500 and a traceback before the rate limit."""
    response = client.post("/class/new", headers={"Origin": origin})
    assert response.status_code == 403
    assert has_security_headers(response.headers)
    assert client.post("/class/new", headers={"Origin": "http://localhost"}).status_code == 303


# -- 2. a closed polling session used again -------------------------------------------------
def test_2_a_closed_polling_session_cannot_be_used_again(server):
    """engineio raised KeyError('Session is disconnected'): an HTML 500 and a traceback."""
    session = PollingSession(server.url)
    session.connect("/watch")
    assert session.post("1").status == 200  # the client closes it
    for answer in (session.post("40/watch,"), session.post("3"), session.poll()):
        assert answer.status == 400, answer
        assert answer.json()["code"] == "bad-session"
        assert has_security_headers(answer.headers)


# -- 3. and 4. lone surrogates --------------------------------------------------------------
@pytest.mark.parametrize("token", ["\ud800", "a\udfffb"])
def test_3_a_token_holding_a_lone_surrogate_is_refused_as_malformed(server, member, token):
    """hash_token raised UnicodeEncodeError: answered ``internal``."""
    code, _ = open_class_room(server.url)
    answer = member.call("/class", "join", {"code": code, "token": token})
    assert answer["ok"] is False
    assert answer["error"]["code"] == "bad-request"
    assert answer["error"]["message"] == text("error.bad-request.text", "en")
    assert member.sio.call("heartbeat", {}, namespace="/class", timeout=10)["error"]["code"] == (
        "not-joined"  # the join did not happen
    )


def test_4_a_game_id_holding_a_lone_surrogate_is_refused_as_malformed(server, member):
    """The SQLite bind failed: answered ``bad-request`` with the "server error" words."""
    payload = {**start_payload("a1", rows=5, cols=5), "game": "\ud800"}
    answer = member.call("/watch", "start", payload)
    assert answer["ok"] is False
    assert answer["error"] == {
        "run": "a1",
        "code": "bad-request",
        "message": text("error.bad-request.text", "en"),
    }
    assert member.errors["/watch"] == [answer["error"]]


def test_3_4_lone_surrogates_in_an_http_body_are_refused(client):
    """The same rule for the JSON API: 400 bad-request, in the request's language."""
    for path, body in (
        ("/api/games", b'{"rows": 5, "cols": 5, "x": "\\ud800"}'),
        ("/api/games/nope/score", b'{"name": "a\\udfffb"}'),
        ("/api/games/nope/moves", b'{"\\udc00": 1, "row": 0, "col": 0}'),
    ):
        response = client.post(path + "?lang=zh", data=body, content_type="application/json")
        assert response.status_code == 400, (path, response.get_json())
        assert response.get_json() == {
            "code": "bad-request",
            "error": text("error.bad-request.text", "zh"),
        }
    # a surrogate pair is one character, not two lone halves
    response = client.post(
        "/api/games",
        data=b'{"rows": 5, "cols": 5, "x": "\\ud83d\\ude00"}',
        content_type="application/json",
    )
    assert response.status_code == 201


# -- 5. garbage in a live polling session ----------------------------------------------------
@pytest.mark.parametrize(
    "garbage",
    [b"x", b"\x1e\x1e", b"4" + b"[" * 5000, b"9", b"4x", b"\xff\xfe", b"2", b"42/watch,[]"],
    ids=["x", "separators", "deep", "type-9", "4x", "not-utf8", "ping", "no-event-name"],
)
def test_5_garbage_posted_into_a_polling_session_closes_it(server, garbage):
    """It was answered 200 "OK" with a traceback in the log, and the session went on
    (``9`` and ``2`` hung the request thread: engineio waited for a poll to drain)."""
    session = PollingSession(server.url)
    session.connect("/watch")
    answer = session.post(garbage)
    assert answer.status in (200, 400), answer
    assert has_security_headers(answer.headers)
    if answer.status == 400:  # refused by the Engine.IO layer
        assert answer.json()["code"] == "bad-frame"
    assert session.closed()


# -- 6. integers too long for the decoder ---------------------------------------------------
def test_6_numbers_too_long_for_the_decoder_are_answered(server, member):
    """python-engineio's decoder refused them: the message was dropped without an answer."""
    big = 10**100
    refused = {
        ("/watch", "credit"): {"run": "a1", "events": big},
        ("/watch", "start"): {**start_payload("a1", rows=5, cols=5), "rows": 10**300},
        ("/watch", "stop"): {"run": "a1", "x": -big},
        ("/watch", "seek"): {"run": "a1", "index": big},
    }
    for (namespace, event), payload in refused.items():
        answer = member.call(namespace, event, payload)
        assert answer["ok"] is False and answer["error"]["code"] in ("bad-request", "unknown-run")
    code, token = open_class_room(server.url)
    assert member.call("/class", "join", {"code": code, "token": token})["ok"]
    for event, payload, expected in (
        ("settings", {"seq": big, "rows": 5, "cols": 5, "start": [0, 0]}, "bad-request"),
        ("control", {"seq": 1, "gen": 1, "index": big, "playing": True}, "bad-request"),
        ("puzzle", {"rows": big, "cols": 5, "closed": False, "start": [0, 0]}, "bad-puzzle"),
        ("sync", {"gen": 1, "index": -big}, "bad-request"),
    ):
        answer = member.call("/class", event, payload)
        assert answer["ok"] is False and answer["error"]["code"] in (expected, "bad-request"), (
            event,
            answer,
        )
    assert member.sio.connected
    assert member.call("/class", "heartbeat", {})["ok"]


# -- 7. chunked bodies ----------------------------------------------------------------------
def test_7_a_chunked_body_is_capped_like_any_other(server):
    """A chunked body holding 70,000 spaces after the JSON created a game (201); the same
    bytes with a Content-Length got 413."""
    body = b'{"rows":5,"cols":5}' + b" " * 70_000 + b"garbage"
    for chunked in (False, True):
        answer = http(
            server.url,
            "POST",
            "/api/games?lang=en",
            body,
            headers={"Content-Type": "application/json"},
            chunked=chunked,
        )
        assert answer.status == 413, (chunked, answer)
        assert answer.json() == {"code": "too-large", "error": text("error.too-large", "en")}
        assert has_security_headers(answer.headers)
    json_type = {"Content-Type": "application/json"}
    small = http(
        server.url, "POST", "/api/games", b'{"rows":5,"cols":5}', headers=json_type, chunked=True
    )
    assert small.status == 201, small
    broken = exchange(
        server.url,
        request_bytes("POST", "/api/games", {"Transfer-Encoding": "chunked"}) + b"zz\r\nxx\r\n",
    )
    assert broken is not None and broken.status == 400, broken
    assert broken.json()["code"] == "bad-request"


# -- 8. malformed Socket.IO and Engine.IO frames ---------------------------------------------
MALFORMED_FRAMES = [
    '42/watch,1["start",',
    "42/watch,[]",
    "42/watch,[{}]",
    '42/watch,-1["stop",{}]',
    "40/watch,[1]",
    "9",
    "4x",
    "4",
    "47/watch,[]",
    '41/watch,"x"',
    '43/watch,1{"a":1}',
    "44/watch,{}",
    # a binary event, then a text frame where its binary attachment should be
    '451-/watch,["start",{"_placeholder":true,"num":0}]\x1e42/watch,["stop",{"run":"a1"}]',
    "4" + "[" * 5000,
    '42/watch,["start",' + "[" * 5000,
]


@pytest.mark.parametrize("frame", MALFORMED_FRAMES, ids=range(len(MALFORMED_FRAMES)))
def test_8_a_malformed_frame_closes_the_websocket(server, frame):
    """22 of 26 such frames were dropped and the connection went on.  (A frame holding
    "\\x1e" is sent as one websocket frame per part, as long-polling packets are.)"""
    ws = websocket.create_connection(
        server.url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket",
        timeout=10,
    )
    try:
        assert ws.recv().startswith("0")
        ws.send("40/watch,")
        assert ws.recv().startswith("40/watch,")
        for part in frame.split("\x1e"):
            ws.send(part)
        received = []
        with pytest.raises(websocket.WebSocketConnectionClosedException):
            while True:  # until the server hangs up (a ping would come after 25 s)
                received.append(ws.recv())
                assert received[-1] in ("1", ""), received
    finally:
        ws.close()


def test_8_a_malformed_frame_closes_a_polling_session_too(server):
    for frame in MALFORMED_FRAMES:
        session = PollingSession(server.url)
        session.connect("/watch")
        session.post(frame)
        assert session.closed(), frame


# -- 9. security headers everywhere ----------------------------------------------------------
def test_9_engineio_answers_carry_the_security_headers(server):
    session = PollingSession(server.url)
    answers = [
        http(server.url, "GET", "/socket.io/?EIO=4&transport=polling"),  # 200, open
        session.post("40/watch,"),  # 200 "ok"
        session.poll(),  # 200, packets
        http(server.url, "GET", "/socket.io/?EIO=3&transport=polling"),  # 400
        http(server.url, "GET", "/socket.io/?EIO=4&transport=polling&sid=nope"),  # 400
        http(server.url, "PUT", "/socket.io/?EIO=4&transport=polling", b""),  # 405
        http(server.url, "OPTIONS", "/socket.io/?EIO=4&transport=polling"),  # 200
    ]
    assert [a.status for a in answers] == [200, 200, 200, 400, 400, 405, 200]
    for answer in answers:
        assert has_security_headers(answer.headers), answer


@pytest.mark.parametrize(
    "request_line, headers, status",
    [
        ("GET /" + "a" * 70_000 + " HTTP/1.1", "", 414),
        ("GET / HTTP/1.1", "X-Long: " + "a" * 70_000 + "\r\n", 431),
        ("GET / HTTP/1.1", "".join(f"X-{i}: {i}\r\n" for i in range(150)), 431),
    ],
    ids=["uri-too-long", "header-too-long", "too-many-headers"],
)
def test_9_the_http_servers_own_refusals_carry_the_security_headers(
    server, request_line, headers, status
):
    """(A request line the server cannot parse at all is answered the HTTP/0.9 way: a
    bare page, no status line and no headers; nothing can carry them there.)"""
    raw = f"{request_line}\r\nHost: x\r\n{headers}\r\n".encode("latin-1")
    answer = exchange(server.url, raw)
    assert answer is not None and answer.status == status, answer
    assert has_security_headers(answer.headers), answer.headers


@pytest.mark.parametrize("count, status", [(99, 200), (100, 431)])
def test_9_a_request_of_100_headers_or_more_is_refused(server, count, status):
    """Host and 98 more are served; one more is refused (docs/api.md: at most 99).
    Python's parser counts the blank line that ends the headers among its 100."""
    headers = "Host: x\r\n" + "".join(f"X-{i}: {i}\r\n" for i in range(count - 1))
    answer = exchange(server.url, f"GET /api/daily HTTP/1.1\r\n{headers}\r\n".encode())
    assert answer is not None and answer.status == status, answer


# -- 10. empty path segments -----------------------------------------------------------------
def test_10_empty_path_segments_are_not_redirected(client):
    """They answered a 308 redirect with an HTML body."""
    game = client.post("/api/games", json={"rows": 5, "cols": 5}).get_json()["id"]
    for method, path in (
        ("GET", "/api/games//moves"),
        ("POST", f"/api/games/{game}//undo"),
        ("POST", "/api//games"),
        ("GET", f"/api/games/{game}/"),
    ):
        response = client.open(path, method=method, json={})
        assert response.status_code in (404, 405), (path, response.status_code)
        assert response.get_json()["code"] in ("not-found", "method-not-allowed")


# -- 11. 404 and 405 in the request's language -----------------------------------------------
def test_11_not_found_and_wrong_method_speak_the_requests_language(client):
    """They were always English (werkzeug's descriptions)."""
    cases = (
        ("GET", "/api/nope", 404, "not-found"),
        ("DELETE", "/api/games", 405, "method-not-allowed"),
        ("GET", "/api/games//moves", 404, "not-found"),
    )
    for method, path, status, code in cases:
        for lang, headers in (("zh", {}), ("en", {"Accept-Language": "en"})):
            target = path + ("?lang=zh" if lang == "zh" else "")
            response = client.open(target, method=method, headers=headers)
            assert response.status_code == status
            assert response.get_json() == {"code": code, "error": text(f"error.{code}", lang)}


# -- 12. RATE_LIMIT_GAMES=0 ----------------------------------------------------------------
CLASS_ROOM_LIMITS = ("RATE_LIMIT_CLASS_ROOMS", "RATE_LIMIT_CLASS_ROOMS_DEVICE")


def test_12_the_docs_say_how_to_switch_each_rate_limit_off(tmp_path):
    """``RATE_LIMIT_GAMES=0`` switches the limit off, but neither README nor deploy.md said so."""
    deploy = (ROOT / "docs/deploy.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in (
        "RATE_LIMIT_GAMES",
        "RATE_LIMIT_CLASS_ROOMS_DEVICE",
        "RATE_LIMIT_CLASS_ROOMS",
        "RATE_LIMIT_CLASS_NAMES",
        "RATE_LIMIT_CLASS_MISSES",
    ):
        row = next(line for line in deploy.splitlines() if line.startswith(f"| `{name}`"))
        assert re.search(r"`0`.*\boff\b", row), row
        assert re.search(rf"`{name}=0`|`{name}`[^.]*`0`[^.]*off", readme), name
    for name in ("RATE_LIMIT_GAMES", "RATE_LIMIT_CLASS_ROOMS"):
        off = {name: "0"} if name == "RATE_LIMIT_GAMES" else dict.fromkeys(CLASS_ROOM_LIMITS, "0")
        app = create_app({"INSTANCE_PATH": str(tmp_path / name), **off})
        client = app.test_client()
        if name == "RATE_LIMIT_GAMES":
            statuses = {client.post("/api/games", json={"rows": 5, "cols": 5}).status_code}
        else:
            statuses = {client.post("/class/new").status_code}
        for _ in range(70):
            if name == "RATE_LIMIT_GAMES":
                statuses.add(client.post("/api/games", json={"rows": 5, "cols": 5}).status_code)
            else:
                statuses.add(client.post("/class/new").status_code)
        assert statuses == ({201} if name == "RATE_LIMIT_GAMES" else {303}), (name, statuses)


# -- 13. a seek (jump to any index) refuses what the other events refuse --------------------
SEEK_REFUSALS = [
    ({"run": "a1", "index": 10**100}, None),  # the longest literal the decoder reads
    ({"run": "a1", "index": -(10**300)}, None),  # read as a float
    ({"run": "a1", "index": 1e308}, None),
    ({"run": "a1", "index": 5, "window": 10**99}, None),
    ({"run": "a1", "index": [5]}, None),
    ({"run": "a1", "index": {"at": 5}}, None),
    ({"run": "a1", "index": False}, None),
    ({"run": "a1", "index": 5, "window": 2.5}, None),
    ({"run": 7, "index": 5}, None),
    ({"run": "\ud800", "index": 5}, "error.bad-request.text"),
    ({"run": "a1", "index": "a\udfffb"}, "error.bad-request.text"),
    ({"run": "a1", "index": None, "\udc00": 1}, "error.bad-request.text"),
    (["a1", None], None),
    ("a1", None),
    (None, None),
]


@pytest.mark.parametrize(("payload", "words"), SEEK_REFUSALS, ids=range(len(SEEK_REFUSALS)))
def test_13_a_malformed_seek_is_answered_with_an_error(server, member, payload, words):
    """Big ints, lone surrogates, wrong types: a ``bad-request`` acknowledgement and the
    same ``error`` event, nothing computed, and the run streams on."""
    assert member.call("/watch", "start", start_payload("a1", rows=5, cols=5, window=10))["ok"]
    answer = member.call("/watch", "seek", payload)
    assert answer["ok"] is False and answer["error"]["code"] == "bad-request", answer
    assert answer["error"]["message"]
    if words is not None:
        assert answer["error"]["message"] == text(words, "en")
    assert member.errors["/watch"] == [answer["error"]]
    assert member.call("/watch", "credit", {"run": "a1", "events": 10})["ok"]


def test_the_frames_json_is_what_a_python_client_sends():
    """The socket tests above rely on python-socketio writing big ints as integer literals."""
    assert json.dumps({"n": 10**100}) == '{"n": 1' + "0" * 100 + "}"
