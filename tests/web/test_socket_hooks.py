"""The python-socketio / python-engineio internals the app patches, and their pins.

server/web/socket_guards.py, server/web/socket_packets.py and server/web/socket_limits.py
subclass, wrap or replace private parts of both libraries.  pyproject.toml pins each
library to the one minor release these were written against; this module fails when an
installed release drops a hook, renames it, or changes its shape (parameters,
attributes, who calls it), so an upgrade is a deliberate change of the pins and of this
test, never a surprise in production.
"""

from __future__ import annotations

import inspect
import json
import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import engineio
import engineio.json
import pytest
import simple_websocket
import socketio
from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI
from engineio.exceptions import SocketIsClosedError
from engineio.payload import Payload
from engineio.socket import Socket
from flask_socketio import Namespace, SocketIO
from packaging.requirements import Requirement
from packaging.version import Version
from socketio import packet as sio
from socketio.base_manager import BaseManager

from server.web import socket_connect, socket_limits
from server.web.socket_guards import MAX_INT_DIGITS

ROOT = Path(__file__).resolve().parents[2]
PATCHED = ("python-socketio", "python-engineio")


def pinned(name: str) -> Requirement:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for line in project["dependencies"]:
        requirement = Requirement(line)
        if requirement.name == name:
            return requirement
    raise AssertionError(f"{name} is not a dependency in pyproject.toml")


# -- the pins ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", PATCHED)
def test_each_patched_library_is_pinned_to_one_minor_release(name):
    specifier = pinned(name).specifier
    installed = Version(version(name))
    major, minor = installed.major, installed.minor
    assert installed in specifier, f"{name} {installed} is outside pyproject's {specifier}"
    assert Version(f"{major}.{minor}.0") in specifier
    assert Version(f"{major}.{minor + 1}.0") not in specifier, f"{name}: pin the minor"
    constraints = (ROOT / "constraints.txt").read_text(encoding="utf-8")
    exact = re.search(rf"^{re.escape(name)}==(\S+)$", constraints, re.M | re.I)
    assert exact and Version(exact[1]) == installed, f"constraints.txt: {name}=={installed}"


# -- the shapes --------------------------------------------------------------------------
# (owner, attribute, its parameters): every method the app overrides, wraps or calls
# outside the libraries' documented API, with the parameters it relies on
SIGNATURES = [
    (sio.Packet, "__init__", "self packet_type data namespace id binary encoded_packet"),
    (sio.Packet, "decode", "self encoded_packet"),  # EventShapeCheck.decode
    (sio.Packet, "add_attachment", "self attachment"),  # EventShapeCheck.add_attachment
    (sio.Packet, "data_is_binary", "data"),  # QuickBinaryCheck, a classmethod
    (socketio.Server, "_handle_eio_message", "self eio_sid data"),  # MessageGuard.handler
    (socketio.Server, "_handle_eio_connect", "self eio_sid environ"),  # CountedConnect
    (socketio.Server, "_handle_eio_disconnect", "self eio_sid reason"),  # CountedDisconnect
    (BaseManager, "is_connected", "self sid namespace"),  # server/web/sockets.py
    (BaseManager, "is_pre_connected", "self sid namespace"),  # socket_connect
    (BaseManager, "connect", "self sid namespace"),  # socket_connect: wrapped
    (socketio.Server, "_send_packet", "self eio_sid pkt"),  # socket_connect: wrapped
    (engineio.Server, "on", "self event handler"),
    (engineio.Server, "send_packet", "self sid pkt"),  # ClosedSafeSend
    (Socket, "__init__", "self server sid"),
    (Socket, "close", "self wait abort reason"),  # hang_up: close(wait=False, abort=False)
    (Socket, "send", "self pkt"),
    (Socket, "schedule_ping", "self"),  # replaced on the class: socket_limits.schedule_ping
    (Socket, "_send_ping", "self"),  # what the keeper does in its stead
    (SimpleWebSocketWSGI, "__init__", "self handler server kwargs"),  # FrameCheckedWebSocket
    (SimpleWebSocketWSGI, "wait", "self"),  # FrameCheckedWebSocket.wait
    (SimpleWebSocketWSGI, "close", "self"),  # FrameCheckedWebSocket.close
    (SimpleWebSocketWSGI, "__call__", "self environ start_response"),  # its __call__
    (Namespace, "trigger_event", "self event args"),  # AnsweringNamespace.trigger_event
]


@pytest.mark.parametrize(
    "owner, name, parameters", SIGNATURES, ids=[f"{o.__name__}.{n}" for o, n, _ in SIGNATURES]
)
def test_every_patched_method_keeps_its_parameters(owner, name, parameters):
    method = getattr(owner, name, None)
    assert callable(method), f"{owner.__module__}.{owner.__name__}.{name} is gone"
    found = list(inspect.signature(method).parameters)
    assert found == parameters.split(), f"{owner.__name__}.{name}{inspect.signature(method)}"


def test_data_is_binary_is_a_classmethod():
    assert isinstance(inspect.getattr_static(sio.Packet, "data_is_binary"), classmethod)


def test_the_packet_module_keeps_its_types_and_json():
    assert (sio.CONNECT, sio.DISCONNECT, sio.EVENT, sio.ACK) == (0, 1, 2, 3)
    assert (sio.CONNECT_ERROR, sio.BINARY_EVENT, sio.BINARY_ACK) == (4, 5, 6)
    assert callable(sio.Packet.json.loads) and callable(sio.Packet.json.dumps)


def test_python_socketio_decodes_with_its_packet_class_and_its_json():
    """Replacing ``packet_class`` (and its ``json``) changes how every message is read."""
    server = socketio.Server(async_mode="threading")
    assert server.packet_class is sio.Packet
    assert server.eio.handlers["message"] == server._handle_eio_message
    read = []

    class Recording(sio.Packet):
        class json:  # the module python-socketio's packets call
            dumps = staticmethod(engineio.json.dumps)

            @staticmethod
            def loads(text, **kwargs):
                read.append(text)
                return engineio.json.loads(text, **kwargs)

    server.packet_class = Recording
    server._handle_eio_message("no-such-sid", '2/nowhere,["x",1]')
    assert read == ['["x",1]']
    assert Recording(sio.EVENT, data=["a", b"!"]).packet_type == sio.BINARY_EVENT


def test_engineio_keeps_the_state_the_guards_read_and_replace():
    server = engineio.Server(async_mode="threading", max_http_buffer_size=1234)
    assert server._async["websocket"] is SimpleWebSocketWSGI  # private: replaced by a subclass
    assert isinstance(server.sockets, dict) and isinstance(server.handlers, dict)
    assert server.max_http_buffer_size == 1234
    assert isinstance(Payload.max_decode_packets, int)
    sock = Socket(server, "sid")
    assert (sock.closed, sock.upgraded) == (False, False)
    sock.closed = True
    with pytest.raises(SocketIsClosedError):  # what ClosedSafeSend drops
        sock.send(engineio.packet.Packet(engineio.packet.NOOP))


def test_every_packet_to_a_client_goes_through_send_packet():
    """ClosedSafeSend wraps ``send_packet`` on the instance: ``send`` must look it up there."""
    server = engineio.Server(async_mode="threading")
    sent = []
    server.send_packet = lambda sid, pkt: sent.append((sid, pkt.data))
    server.send("sid", "hello")
    assert sent == [("sid", "hello")]


def test_the_websocket_class_is_made_through_the_async_table():
    """FrameCheckedWebSocket replaces the table's entry: the upgrade must read it there."""
    source = inspect.getsource(Socket._upgrade_websocket)
    assert "self.server._async['websocket'](" in source.replace('"', "'")


def test_engineio_json_still_refuses_integers_longer_than_the_guard_expects():
    """PacketJson reads them as floats because engine.io's JSON does not read them at all."""
    engineio.json.loads("1" * MAX_INT_DIGITS)
    with pytest.raises(ValueError):
        engineio.json.loads("1" * (MAX_INT_DIGITS + 1))


def test_flask_socketio_exposes_the_server_and_its_namespaces():
    assert {"server", "namespace_handlers"} <= set(vars(SocketIO()))


def test_engineio_pings_as_the_keeper_replays_it():
    """socket_limits.schedule_ping replaces the thread a ping waits in: upstream schedules
    one when a session opens and after each PONG, sleeps ``ping_interval``, then sets
    ``last_ping`` and sends a PING unless the socket is closing or closed."""
    scheduled = inspect.getsource(engineio.Server._handle_connect)
    assert "s.schedule_ping()" in scheduled
    assert "self.schedule_ping()" in inspect.getsource(Socket.receive)
    source = inspect.getsource(Socket._send_ping)
    assert "self.server.sleep(self.server.ping_interval)" in source
    assert "if not self.closing and not self.closed:" in source
    assert "self.last_ping = time.time()" in source
    assert "self.send(packet.Packet(packet.PING))" in source
    upstream = inspect.getsource(socket_limits._upstream_schedule_ping)  # before the swap
    assert "if self.last_ping:" in upstream and "self.last_ping = None" in upstream
    assert "self.server.start_background_task(self._send_ping)" in upstream


def test_python_socketio_hears_engineio_connects_and_disconnects():
    """socket_limits wraps these two handlers to count each address's sessions."""
    server = socketio.Server(async_mode="threading")
    assert server.eio.handlers["connect"] == server._handle_eio_connect
    assert server.eio.handlers["disconnect"] == server._handle_eio_disconnect
    engine = engineio.Server(async_mode="threading")
    events = []
    engine.on("connect", lambda sid, environ: events.append(("connect", sid)))
    engine.on("disconnect", lambda sid, reason: events.append(("disconnect", sid)))
    environ = {"REQUEST_METHOD": "GET", "QUERY_STRING": "EIO=4&transport=polling"}
    body = engine.handle_request(environ, lambda status, headers: None)
    sid = json.loads(body[0][1:])["sid"]
    engine.sockets[sid].close(wait=False)
    assert events == [("connect", sid), ("disconnect", sid)]
    assert isinstance(engine.sockets, dict)


def test_simple_websocket_keeps_its_socket_and_reader_thread():
    """FrameCheckedWebSocket.__call__ shuts ``ws.sock`` down and joins ``ws.thread``, the
    reader, which closes the socket itself on its way out."""
    source = inspect.getsource(simple_websocket.ws.Base.__init__)
    assert "self.sock = sock" in source
    assert "self.thread = thread_class(target=self._thread)" in source
    reader = inspect.getsource(simple_websocket.ws.Base._thread)
    assert reader.rstrip().endswith("self.sock.close()")
    assert "self.ws = simple_websocket.Server(environ" in inspect.getsource(
        SimpleWebSocketWSGI.__call__
    )


def test_python_socketio_sends_no_acknowledgement_for_an_event_not_handled():
    """AnsweringNamespace answers ``server.not_handled`` for an event it has no handler
    for; python-socketio then sends nothing back (docs/protocol.md: dropped)."""
    server = socketio.Server(async_handlers=False)
    sent = []
    server._send_packet = lambda eio_sid, pkt: sent.append(pkt)

    class Quiet(socketio.Namespace):
        def trigger_event(self, event, *args):
            return self.server.not_handled

    class Polite(socketio.Namespace):
        def trigger_event(self, event, *args):
            return None  # what Flask-SocketIO's namespace answers an unknown event

    server.register_namespace(Quiet("/quiet"))
    server.register_namespace(Polite("/polite"))
    server._handle_event_internal(server, "sid", "eio-sid", ["nonsense", {}], "/quiet", 7)
    assert sent == []
    server._handle_event_internal(server, "sid", "eio-sid", ["nonsense", {}], "/polite", 8)
    assert [(pkt.packet_type, pkt.id, pkt.data) for pkt in sent] == [(sio.ACK, 8, [])]


# -- a first event right after CONNECT (server/web/socket_connect.py) --------------------
def test_python_socketio_still_answers_connect_before_it_completes_the_connection():
    """The order socket_connect corrects: when upstream completes the connection first,
    the hook is no longer needed (and this test says so)."""
    source = inspect.getsource(socketio.Server._handle_connect)
    branch = source[source.index("elif not self.always_connect:") :]
    assert branch.index("packet.CONNECT, {'sid': sid}") < branch.index(
        "self.manager.connect(sid, namespace)"
    )
    assert "self.manager.is_connected(sid, namespace)" in inspect.getsource(
        socketio.Server._handle_event
    )


def eager_client(server, namespace: str):
    """A fake Engine.IO session whose client emits ``hello`` (id 1) the moment it reads
    its namespace's CONNECT: the event is handled before ``_handle_connect`` goes on, as
    the thread of the event's message may be scheduled first. Returns what was sent."""
    sent: list[str] = []
    eio_sid = "eio-sid"

    def send(sid, data):
        sent.append(data)
        if data.startswith(f"0{namespace},"):
            server._handle_eio_message(eio_sid, f'2{namespace},1["hello"]')

    server.eio.send = send
    server._handle_eio_connect(eio_sid, {"REMOTE_ADDR": "127.0.0.1"})
    server._handle_eio_message(eio_sid, f"0{namespace},")
    return sent


class Greeter(socketio.Namespace):
    def on_hello(self, sid):
        return "hi"


@pytest.mark.parametrize("hooked", [False, True])
def test_an_event_sent_as_soon_as_connect_arrives_is_answered_once_hooked(hooked):
    server = socketio.Server(async_mode="threading", async_handlers=False)
    server.register_namespace(Greeter("/ns"))
    if hooked:
        socket_connect.install(server)
        socket_connect.install(server)  # idempotent
    sent = eager_client(server, "/ns")
    assert sent[0].startswith("0/ns,")  # CONNECT
    answered = '3/ns,1["hi"]' in sent
    assert answered is hooked, sent  # upstream alone drops it: the race the hook closes
    sid = server.manager.sid_from_eio_sid("eio-sid", "/ns")
    assert server.manager.is_connected(sid, "/ns")
    assert list(server.manager.get_participants("/ns", None)) == [(sid, "eio-sid")]


def test_a_refused_connect_stays_refused_once_hooked():
    class Refusing(socketio.Namespace):
        def on_connect(self, sid, environ):
            return False

    server = socketio.Server(async_mode="threading", async_handlers=False)
    server.register_namespace(Refusing("/no"))
    socket_connect.install(server)
    sent = eager_client(server, "/no")
    assert [data[:4] for data in sent] == ["4/no"]  # CONNECT_ERROR, no event handled
    assert server.manager.sid_from_eio_sid("eio-sid", "/no") is None


def test_the_app_installs_the_connect_hook(app):
    server = app.extensions["socketio_server"]
    assert getattr(server, socket_connect.MARK) is True
