"""Guards on the shared Socket.IO server against malformed client traffic.

They act below every namespace (/watch and /class alike), so they are installed once
on the server ``socketio.init_app`` made, by :func:`install`.
"""

from __future__ import annotations

import logging
import traceback
from pathlib import Path

from socketio.packet import BINARY_EVENT, EVENT

log = logging.getLogger(__name__)


def install(server) -> None:
    """Add the guards to a python-socketio ``server`` (idempotent)."""
    logger = server.eio.logger
    if not any(isinstance(f, MalformedPacketFilter) for f in logger.filters):
        logger.addFilter(MalformedPacketFilter())
    if not issubclass(server.packet_class, EventShapeCheck):
        name = "Checked" + server.packet_class.__name__
        server.packet_class = type(name, (EventShapeCheck, server.packet_class), {})
    websocket = server.eio._async.get("websocket")
    if websocket is not None and not issubclass(websocket, FrameCheckedWebSocket):
        checked = type("FrameChecked" + websocket.__name__, (FrameCheckedWebSocket, websocket), {})
        server.eio._async = {**server.eio._async, "websocket": checked}


class EventShapeCheck:
    """Mixed into python-socketio's packet class: an event must name itself.

    python-socketio takes ``data[0]`` of an event packet as the event name without
    looking: ``42/watch,`` or ``42/watch,[]`` fail while it logs, ``42/watch,[{}]`` fails
    in its handler thread (a traceback on stderr per message, none of it rate-limited).
    Refusing them while decoding makes them malformed packets like any other: dropped,
    one log line (:class:`MalformedPacketFilter`).
    """

    def decode(self, encoded_packet):
        attachments = super().decode(encoded_packet)
        if self.packet_type in (EVENT, BINARY_EVENT) and not (
            isinstance(self.data, list) and self.data and isinstance(self.data[0], str)
        ):
            raise ValueError("an event packet must be a list that starts with the event name")
        return attachments


class FrameCheckedWebSocket:
    """Mixed into python-engineio's websocket class: a malformed frame ends the connection.

    python-engineio (4.x) decodes each websocket frame outside its error handling: a text
    frame that is empty or does not start with a packet type ("a", "", "b!") raises out
    of the connection's loop, skipping its cleanup, so the Socket.IO disconnect handler
    only runs when the ping timeout notices the dead connection, about a minute later:
    until then its runs keep their threads and their slots, and werkzeug logs a
    traceback.  Reporting such a frame as the end of the connection (``None``) takes
    engine.io's normal close path: the disconnect handler stops the runs at once.
    """

    def wait(self):
        data = super().wait()
        if isinstance(data, str) and not data[:1].isdigit():
            from engineio.packet import Packet

            try:
                Packet(encoded_packet=data)  # rare: base64 binary ("b...") or garbage
            except Exception as err:
                log.warning("closing a websocket after a malformed Engine.IO frame (%r)", err)
                return None
        return data


class MalformedPacketFilter(logging.Filter):
    """One log line, not a traceback, for a client's malformed Socket.IO packet.

    python-engineio logs any exception raised while python-socketio decodes and
    dispatches a message as "message handler error" with a traceback, and carries on:
    broken JSON, JSON nested too deep, an integer literal too long to parse, a packet
    without an event name all land there.  Those are the client's doing, and one
    traceback per frame is a way to flood the log.  A traceback that passes through
    this app's code is kept whole: that would be a bug here.
    """

    APP_DIR = str(Path(__file__).resolve().parent.parent)

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if record.msg != "message handler error" or exc is None:
            return True
        frames = traceback.extract_tb(record.exc_info[2])
        if any(
            frame.filename.startswith(self.APP_DIR)
            and not (frame.filename == __file__ and frame.name == "decode")  # EventShapeCheck
            for frame in frames
        ):
            return True
        record.msg = "dropped a malformed Socket.IO packet (%s: %.200s)"
        record.args = (type(exc).__name__, exc)
        record.exc_info = record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
