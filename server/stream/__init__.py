"""Streaming the engine's search to a live viewer (docs/protocol.md).

* :mod:`.encode` turns engine events into the protocol's flat int lists and back;
* :mod:`.spec` validates a ``start`` payload into a :class:`~.spec.RunSpec`;
* :mod:`.source` opens the engine event stream a spec asks for;
* :mod:`.runs` runs each stream in its own background task, at the viewer's pace.

Nothing here imports Flask: the Socket.IO handlers in ``server/web/watch_socket.py``
translate messages to these calls and back.
"""
