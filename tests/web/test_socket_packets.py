"""The quick binary check of outgoing Socket.IO packets answers as python-socketio's own."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from socketio.packet import Packet

from server.extensions import socketio
from server.web.socket_packets import QuickBinaryCheck, data_is_binary

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=3)
)
values = st.recursive(
    st.one_of(scalars, st.binary(max_size=2), st.builds(bytearray, st.binary(max_size=2))),
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.dictionaries(st.text(max_size=2), inner, max_size=4),
        st.tuples(inner, inner),  # not looked into, as upstream
    ),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(values)
def test_same_answer_as_python_socketio(data):
    assert data_is_binary(data) is Packet.data_is_binary(data)


def test_a_batch_is_not_binary_and_bytes_anywhere_are():
    batch = ["batch", {"run": "a1", "seq": 0, "events": list(range(-40, 5000)), "nodes": 1}]
    assert not data_is_binary(batch)
    assert data_is_binary(["x", {"a": [1, 2, {"b": [3, bytearray(b"!")]}]}])


def test_the_apps_server_uses_it(app):
    assert issubclass(socketio.server.packet_class, QuickBinaryCheck)
    assert issubclass(socketio.server.packet_class, Packet)
