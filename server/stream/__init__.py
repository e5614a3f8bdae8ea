"""Streaming the engine's search to a live viewer (docs/protocol.md).

The messages:

* :mod:`.fields` holds the messages' fields, their bounds and refusals (shared with the
  class room's demo settings);
* :mod:`.spec` validates a ``start`` payload into a :class:`~.spec.RunSpec`, and the
  other client messages;
* :mod:`.encode` turns engine events into the protocol's flat int lists and back.

The events:

* :mod:`.source` opens the engine event stream a spec asks for;
* :mod:`.timeline` computes a demo's events once and serves them at any index (a seek,
  a class room's late joiner);
* :mod:`.frame` draws a position at one index on the server (a class page's first frame).

The runs:

* :mod:`.admission` decides what a connection may start and send (rates, run limits,
  the search budget);
* :mod:`.flow` is what the handler threads hand a run's task: credit, stop, a seek;
* :mod:`.run` runs one stream in its own background task, at the viewer's pace;
* :mod:`.runs` is the registry of every connection's runs.

Nothing here imports Flask: the Socket.IO handlers in ``server/web/watch_socket.py``
translate messages to these calls and back.
"""
