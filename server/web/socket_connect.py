"""A client's first event on a namespace is never dropped for arriving too early.

python-socketio 5.18 answers a namespace's CONNECT and only then marks the connection
complete (``_handle_connect``: ``_send_packet(CONNECT)``, then ``manager.connect``).
Every Engine.IO message is handled in a thread of its own, so a client that emits as
soon as it reads CONNECT (socket.io-client does, and python-socketio's ``Client.connect``
then ``call``) can have that event handled in between: ``_handle_event`` finds the sid
"not connected", logs a warning nobody sees and drops it.  The client waits for an
acknowledgement that never comes (tests/web/test_churn.py met it once in a CI run of 500
connections; a phone joining a class could meet it the same way).

Here the connection is completed just before its CONNECT goes out, and upstream's own
``manager.connect`` just after it does nothing for a connection already complete.  The
connect handler still runs while the sid is only pre-connected (what
:func:`server.web.sockets.is_client_event` relies on).  The hooks, on the instances:
the server's ``_send_packet(eio_sid, pkt)`` and its manager's ``connect(sid, namespace)``
(pinned; checked by tests/web/test_socket_hooks.py, which also checks that upstream
still has the order this module corrects).
"""

from __future__ import annotations

from socketio import packet

MARK = "_knights_tour_connect_first"  # set on a server whose hooks are installed


def install(server) -> None:
    """Complete each namespace connection before its CONNECT is sent (idempotent)."""
    if getattr(server, MARK, False):
        return
    manager = server.manager
    upstream_send = server._send_packet
    upstream_connect = manager.connect

    def connect(sid, namespace):
        if manager.is_connected(sid, namespace):  # completed when its CONNECT went out
            return sid
        return upstream_connect(sid, namespace)

    def send_packet(eio_sid, pkt):
        if pkt.packet_type == packet.CONNECT and isinstance(pkt.data, dict):
            sid, namespace = pkt.data.get("sid"), pkt.namespace or "/"
            if manager.is_pre_connected(sid, namespace):
                upstream_connect(sid, namespace)
        upstream_send(eio_sid, pkt)

    manager.connect = connect
    server._send_packet = send_packet
    setattr(server, MARK, True)
