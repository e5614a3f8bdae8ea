"""Class rooms: a teacher drives a demo the whole class watches, asks the class where the
knight goes next, and hands out a puzzle.

A room's truth is in the database (``models.py``), so any server process can serve any
member; what belongs to one connection is in the process that holds it (``hub.py``).
One module per job:

* ``rooms.py``: opening, finding, expiring and closing rooms; the teacher's token;
* ``clock.py``: the demo's settings and the control clock (where the class is);
* ``lease.py``: the room's one search in the database: its lease, progress, checkpoints,
  and how far the class was sent (never past an open question);
* ``feed.py``: this process's part in a room's search: running it and streaming it,
  paced as ``pacing.py`` says;
* ``presence.py``: who is connected, counted by heartbeats;
* ``puzzles.py``: the class puzzle, its attempts and its leaderboard;
* ``students.py``: the room's students, one name each (the quiz and the puzzle);
* ``quiz.py``: the quiz's questions (asking, the hold, the reveal); ``quiz_answers.py``:
  the answers, tallies, scores and what each member sees of the quiz;
* ``hub.py``: this process's connections, their seats and the room feeds they follow;
  ``throttle.py``: what students cause on the teacher's page, at most so often;
* ``messages.py``: the protocol: every message (their models in ``room_messages.py``,
  ``puzzle_messages.py``, ``quiz_messages.py``) and every refusal (``ClassError``).

No Flask and no ``server.web`` here: the web layer (``server/web/class_*.py``) calls these
inside an app context.
"""
