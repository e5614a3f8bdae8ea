"""server/web/socket_guards.py: the checks, and the python-socketio / python-engineio hooks
they rely on (a library upgrade that removes one must fail here, not in production).

The behaviour over real connections is in tests/web/test_malformed_input.py and the
fuzz tests.
"""

from __future__ import annotations

import inspect
import math
import socket
import threading

import engineio
import pytest
from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI
from engineio.payload import Payload
from engineio.socket import Socket

from server.web import socket_guards
from server.web.socket_guards import (
    ClosedSafeSend,
    EventShapeCheck,
    FrameCheckedWebSocket,
    MessageGuard,
    PacketJson,
    PollingGuard,
    frame_problem,
    payload_problem,
)


@pytest.fixture
def server(app):
    return app.extensions["socketio_server"]


# -- the hooks ---------------------------------------------------------------------------


def test_every_guard_is_installed_on_the_apps_server(app, server):
    assert issubclass(server.packet_class, EventShapeCheck)
    assert server.packet_class.json is PacketJson
    assert issubclass(server.eio._async["websocket"], FrameCheckedWebSocket)
    assert isinstance(server.eio.handlers["message"], MessageGuard)
    assert isinstance(server.eio.send_packet, ClosedSafeSend)
    guards = []
    wsgi = app.wsgi_app
    while wsgi is not None:  # the middleware chain, outermost first
        guards.append(type(wsgi).__name__)
        wsgi = getattr(wsgi, "wsgi_app", None) or getattr(wsgi, "app", None)
    assert guards.index("PollingGuard") < guards.index("_SocketIOMiddleware"), guards
    socket_guards.install(server)  # idempotent
    assert server.packet_class.__mro__.count(EventShapeCheck) == 1
    assert isinstance(server.eio.handlers["message"].handler, type(server._handle_eio_message))


def test_python_socketio_decodes_client_packets_with_the_servers_packet_class(server):
    """The packet class (and so its ``json``) is what decodes every message."""
    decoded = []

    class Recording(server.packet_class):
        def decode(self, encoded_packet):
            attachments = super().decode(encoded_packet)
            decoded.append(self.data)
            return attachments

    server.packet_class = Recording
    big = "1" * 150
    server.eio.handlers["message"].handler("no-such-sid", f'2/nowhere,["x",{big}]')
    assert decoded == [["x", float(big)]]


def test_the_engineio_internals_the_guards_use_are_there(server):
    assert "websocket" in server.eio._async  # private: the websocket class of the async mode
    assert isinstance(server.eio.sockets, dict)
    assert callable(server.eio.on) and isinstance(server.eio.handlers, dict)
    close = inspect.signature(Socket.close).parameters
    assert {"wait", "abort"} <= close.keys()
    sock = Socket(server.eio, "sid")
    assert sock.closed is False and sock.upgraded is False
    assert isinstance(Payload.max_decode_packets, int)
    assert server.eio.max_http_buffer_size == 16 * 1024
    # Flask-SocketIO serves Engine.IO under the path PollingGuard watches
    assert socket_guards.ENGINEIO_PATH == "/socket.io/"
    assert engineio.__name__ == "engineio"


def test_the_polling_guard_only_looks_at_socketio_requests(server):
    seen = []

    def app(environ, start_response):
        seen.append(environ["PATH_INFO"])
        return [b""]

    guard = PollingGuard(app, server)
    for path in ("/api/games", "/socket.io", "/"):
        environ = {"REQUEST_METHOD": "POST", "PATH_INFO": path, "QUERY_STRING": "sid=x"}
        guard(environ, lambda *a: None)
    assert seen == ["/api/games", "/socket.io", "/"]


# -- the checks --------------------------------------------------------------------------


GOOD_FRAMES = ["1", "3", "2probe", "3probe", "5", "6", "40/watch,", '42/watch,1["stop",{}]']
GOOD_FRAMES += ["4222", "bAAEC", b"\x00\x01"]
BAD_FRAMES = ["", "x", "9", "7", "4", "4x", "4[1]", '4{"a":1}', "4" + "[" * 5000, "٤2", "2ping"]
BAD_FRAMES += ["1data", "b!!", "4 2"]
BAD_PACKETS = ["2", "2[]", "2[{}]", "2[1]", "2{}", '0{"a":1}x', "0[1]", '1"x"', "3", "3{}", "4{}"]
BAD_PACKETS += ['2["a"]x', "x", "٢[]", '2-1["a"]', "7[]"]
GOOD_PACKETS = ['2["a"]', '2/watch,7["a",{"b":null}]', "0", "0/watch,", '0/watch,{"t":1}']
GOOD_PACKETS += ["1/watch,", "3/watch,7[]", '3/watch,7[{"ok":true}]']
GOOD_PACKETS += ['51-/watch,["a",{"_placeholder":true,"num":0}]']


@pytest.mark.parametrize("frame", GOOD_FRAMES)
def test_frames_a_client_may_send(frame):
    assert frame_problem(frame) is None


@pytest.mark.parametrize("frame", BAD_FRAMES)
def test_frames_that_are_malformed(frame):
    assert frame_problem(frame) is not None


def test_long_polling_takes_close_pong_and_messages_only():
    assert payload_problem("3\x1e40/watch,\x1e1") is None
    assert payload_problem("d=40%2Fwatch%2C") is None  # JSONP
    for bad in ("2", "5", "6", "0", "3\x1e\x1e3", "d=", "3\x1e" * 16 + "3", "\x1e"):
        assert payload_problem(bad) is not None, bad


@pytest.mark.parametrize("encoded", BAD_PACKETS)
def test_socketio_packets_that_are_malformed(server, encoded):
    """(An empty message never gets here: frame_problem refuses "4" alone.)"""
    with pytest.raises(ValueError):
        server.packet_class(encoded_packet=encoded)


@pytest.mark.parametrize("encoded", GOOD_PACKETS)
def test_socketio_packets_a_client_may_send(server, encoded):
    server.packet_class(encoded_packet=encoded)


def test_integer_literals_too_long_for_the_decoder_are_read_as_floats():
    assert PacketJson.loads('{"a": ' + "9" * 100 + "}") == {"a": int("9" * 100)}
    assert PacketJson.loads("[" + "9" * 101 + "]") == [float("9" * 101)]
    assert PacketJson.loads("[-" + "1" * 5000 + "]") == [-math.inf]
    assert PacketJson.dumps([1, "x"]) == '[1, "x"]'


def test_a_binary_packet_takes_binary_attachments_only(server):
    packet = server.packet_class(encoded_packet='51-/watch,["a",{"_placeholder":true,"num":0}]')
    with pytest.raises(ValueError):
        packet.add_attachment('42/watch,1["stop",{"run":"a1"}]')
    assert packet.add_attachment(b"\x00") is True
    assert packet.data == ["a", b"\x00"]


def test_a_packet_for_a_session_that_closes_on_its_way_is_dropped(server):
    """Every send goes through ``eio.send_packet`` (python-socketio's emits and acks), and
    a session that closed after the look-up is not an error in the sending thread."""
    sock = Socket(server.eio, "sid")
    server.eio.sockets["sid"] = sock
    real_get = server.eio._get_socket

    def get_then_close(sid):
        found = real_get(sid)
        found.closed = True  # closed by another thread right after the look-up
        return found

    server.eio._get_socket = get_then_close
    try:
        server.eio.send("sid", '42/watch,["x"]')  # engineio.Server.send -> send_packet
        assert sock.queue.empty()
    finally:
        server.eio._get_socket = real_get
        server.eio.sockets.pop("sid", None)


class ClosedUnderfoot:
    """A simple-websocket connection whose reader thread closed the socket after the
    writer saw it connected: sending the close frame fails."""

    connected = True

    def close(self):
        raise OSError(9, "Bad file descriptor")


def test_closing_a_websocket_closed_meanwhile_is_not_an_error(server):
    """python-engineio's writer thread closes the websocket last; it raised out of the
    thread (a traceback in the log) when the reader thread had just closed the socket."""
    websocket = server.eio._async["websocket"](lambda ws: [], server.eio)
    websocket.ws = ClosedUnderfoot()
    websocket.close()  # nothing left to close
    upstream = SimpleWebSocketWSGI(lambda ws: [], server.eio)
    upstream.ws = ClosedUnderfoot()
    with pytest.raises(OSError):
        upstream.close()


def test_a_websocket_that_ends_wakes_its_reader_before_the_socket_is_closed():
    """The HTTP server closes the socket once the websocket's app returns; a reader
    thread still waiting on it was not woken by that (and could go on to wait on the
    next connection that got the same descriptor).  The socket is shut down first and
    the reader waited for."""
    ours, theirs = socket.socketpair()

    class Connection:  # what simple-websocket keeps: the socket and its reader thread
        def __init__(self) -> None:
            self.sock = ours
            self.thread = threading.Thread(target=ours.recv, args=(10,))  # the client's close
            self.thread.start()

    class Upstream:  # SimpleWebSocketWSGI under werkzeug: it ends by raising
        def __call__(self, environ, start_response):
            self.ws = Connection()
            raise ConnectionError

    checked = type("Checked", (FrameCheckedWebSocket, Upstream), {})()
    try:
        with pytest.raises(ConnectionError):
            checked({}, None)
        assert not checked.ws.thread.is_alive()
    finally:
        ours.close()
        theirs.close()
