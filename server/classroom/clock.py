"""The class's control clock: which demo the room shows, and where in it the class is.

The demo is synchronised by *index*.  The room's row says where the class is: the
teacher's last control (an event index, playing or not, at what speed, when) from which
the index *now* follows (:func:`room_index`), so a late joiner lands where the class
is, on any process, without anyone sending ticks.  The teacher's page numbers its
controls and one only applies if it is newer (:func:`set_control`: a compare-and-set
in one UPDATE, so no thread or process puts an older control back); new settings or a
lesson's chapter start a new *generation* of the demo, and everything computed for an
older one is dropped.  The index stops at the search's end once known
(server/classroom/lease.py records it) and at an open quiz question (``held_at``,
server/classroom/quiz.py), where :func:`stop_at_hold` pauses a class that played on
to it.

No Flask here; the teacher's messages are validated here
(server/classroom/room_messages.py): a ``ValidationError`` or a
:class:`~server.classroom.messages.ClassError` refuses one.
"""

from __future__ import annotations

import json
from dataclasses import replace

from sqlalchemy import update

from ..db import db
from ..lesson.chapters import CHAPTERS
from ..stream.fields import MAX_NODE_BUDGET
from ..stream.race import public_end
from ..stream.timeline import Demo
from . import lease
from .messages import ClassError
from .models import ClassRoom
from .room_messages import MAX_INDEX, ControlMessage, LessonMessage, SettingsMessage

NODE_BUDGET = MAX_NODE_BUDGET  # the room's one search: /watch's cap (the lesson's 8x8 needs
# 252 M nodes) and 600 s of computing (8x8 plain to its end: about 10 s with the core)
TIME_LIMIT = 600.0


def settings_of(room: ClassRoom) -> dict:
    return json.loads(room.settings)


def demo_of(room: ClassRoom) -> Demo:
    """The room's current demo as a timeline runs it."""
    settings = settings_of(room)
    row, col = settings["start"]
    return Demo(
        rows=settings["rows"],
        cols=settings["cols"],
        start=row * settings["cols"] + col,
        algorithm=settings["algorithm"],
        closed=settings["closed"],
        pruning=settings["pruning"],
        holes=frozenset(settings.get("holes", ())),
        node_budget=NODE_BUDGET,
        time_limit=TIME_LIMIT,
    )


def demos_of(room: ClassRoom) -> list[Demo]:
    """The lanes of the room's demo: its search, and a lesson's race's second one
    (settings ``race``: its algorithm, on the same board from the same start)."""
    demo = demo_of(room)
    race = settings_of(room).get("race")
    return [demo] if not race else [demo, replace(demo, algorithm=race)]


def _apply(room: ClassRoom, seq: int, at: float, values: dict, *, gen: int | None = None) -> None:
    """Compare-and-set: apply ``values`` only if ``seq`` is newer than the last one applied.

    One UPDATE whose WHERE holds the comparison, so neither two threads nor two
    processes can put an older state back (the database serialises the writes and
    re-checks the condition).  Refusals: ``superseded`` when a newer control was applied
    already, else ``stale`` when the demo changed under the message (``gen``); both
    carry the room's current state.
    """
    conditions = [ClassRoom.code == room.code, ClassRoom.control_seq < seq]
    if gen is not None:
        conditions.append(ClassRoom.gen == gen)
    values = {**values, "control_seq": seq, "seq": ClassRoom.seq + 1, "last_active": at}
    result = db.session.execute(
        update(ClassRoom).where(*conditions).values(values),
        execution_options={"synchronize_session": False},
    )
    db.session.commit()  # expires ``room``: the next read sees the row as it is now
    if result.rowcount != 1:
        if db.session.get(ClassRoom, room.code) is None:
            raise ClassError("unknown-room")
        state = public_state(room, at)
        if gen is not None and room.gen != gen and room.control_seq < seq:
            raise ClassError("stale", gen=room.gen, state=state)
        raise ClassError("superseded", state=state)  # a newer message came first


def set_settings(room: ClassRoom, payload, at: float) -> dict:
    """New demo settings (a :class:`SettingsMessage`): a new generation, index 0, paused.

    ``payload`` is validated first: a ``ValidationError`` refuses it.
    """
    message = SettingsMessage.model_validate(payload)
    values = _new_demo(message.settings(), at)
    _apply(room, message.seq, at, {**values, "lesson_chapter": None, "lesson_step": None})
    lease.drop_old_checkpoints(room.code, room.gen)
    return public_state(room, at)


def _new_demo(settings: dict, at: float) -> dict:
    """The columns of a new demo generation: at index 0, paused, nothing computed."""
    return {
        "settings": json.dumps(settings),
        "gen": ClassRoom.gen + 1,
        "idx": 0,
        "sent_upto": 0,
        "frontier": 0,
        "outcome": None,
        "playing": False,
        "state_at": at,
    }


LESSON_ATTEMPTS = (
    8  # a lesson message re-reads the room this often if an older one changed the demo under it
)


def lesson_settings(chapter: dict) -> dict:
    """A chapter's demo as a room stores it; a race's second search as ``race``."""
    settings = chapter["settings"]
    stored = {
        "algorithm": settings["algorithm"],
        "pruning": settings.get("pruning", False),
        "rows": settings["rows"],
        "cols": settings["cols"],
        "closed": settings["closed"],
        "start": list(settings["start"]),
    }
    if settings.get("race"):
        stored["race"] = settings["algorithm_b"]
    return stored


def _lesson_position(step: dict, index: int) -> dict:
    """Where a step puts the class: paused at its event, or playing from ``index`` to the
    end (at its speed, or as fast as the search goes when it has none)."""
    if step["at"] == "end":
        return {"idx": index, "playing": True, "speed": step.get("speed")}
    return {"idx": step["at"], "playing": False}


def set_lesson(room: ClassRoom, payload, at: float) -> dict:
    """The teacher takes the class to ``{seq, chapter, step}`` of the guided lesson.

    A new chapter is a new demo (its settings, a new generation); a step of the same
    chapter moves the same demo.  Both in one compare-and-set, numbered with the
    controls' ``seq``; if the demo changed between the read and the write (another
    message of the teacher's), the room is read again so the two never disagree.
    """
    message = LessonMessage.model_validate(payload)
    chapter = next(c for c in CHAPTERS if c["id"] == message.chapter)
    step = chapter["steps"][message.step]
    settings = lesson_settings(chapter)
    for attempt in range(LESSON_ATTEMPTS):
        same_demo = room.gen > 1 and room.lesson_chapter == chapter["id"]
        same_demo = same_demo and settings_of(room) == settings
        values = {} if same_demo else _new_demo(settings, at)
        index = room_index(room, at) if same_demo else 0
        values |= _lesson_position(step, index)
        values |= {"state_at": at, "lesson_chapter": chapter["id"], "lesson_step": message.step}
        try:
            _apply(room, message.seq, at, values, gen=room.gen)
        except ClassError as err:
            if err.code != "stale" or attempt == LESSON_ATTEMPTS - 1:
                raise
            continue  # ``room`` was expired by the commit: the loop reads it again
        break
    if not same_demo:
        lease.drop_old_checkpoints(room.code, room.gen)
    return public_state(room, at)


def set_control(room: ClassRoom, payload, at: float) -> dict:
    """The teacher's clock ``{seq, gen, index, playing, speed}``, applied only if newer.

    ``speed`` is events per second, or None: run to the end as fast as the search goes.
    """
    message = ControlMessage.model_validate(payload)  # a ValidationError refuses it
    values = {"idx": message.index, "playing": message.playing, "speed": message.speed}
    _apply(room, message.seq, at, {**values, "state_at": at}, gen=message.gen)
    return public_state(room, at)


def outcome_of(room: ClassRoom) -> dict | None:
    return json.loads(room.outcome) if room.outcome else None


def room_index(room: ClassRoom, at: float, *, held: bool = True) -> int:
    """The demo's index at ``at``: where the class is.

    Playing at a speed, the index moves on from the last control by itself (a late
    joiner lands where the class is, not where it was); playing with no speed, it is
    as far as the search has got.  Never past the search's end once that is known, nor
    past an open question (``held_at``: a class playing on to its question stops there).
    """
    index = room.idx
    if room.playing:
        if room.speed is None:
            index = max(index, room.frontier)
        else:
            index += int(room.speed * max(0.0, at - room.state_at))
    outcome = outcome_of(room)
    if outcome is not None:
        index = min(index, outcome["total"])
    if held and room.held_at is not None:
        index = min(index, room.held_at)
    return min(index, MAX_INDEX)


def public_state(room: ClassRoom, at: float) -> dict:
    """What every member needs to follow: settings, generation, the index *now*, the end."""
    outcome = public_end(outcome_of(room))  # the path it found stays on the server
    return {
        "gen": room.gen,
        "settings": json.loads(room.settings),
        "index": room_index(room, at),
        "playing": room.playing,
        "speed": room.speed,
        "frontier": room.frontier,
        "end": outcome,
        "hold": room.held_at,  # an open question's index: the class goes no further
        "seq": room.seq,
        "control_seq": room.control_seq,
        "lesson": lesson_of(room),
    }


def lesson_of(room: ClassRoom) -> dict | None:
    """Where the guided lesson stands in the room (``{chapter, step}``), or None."""
    if room.lesson_chapter is None:
        return None
    return {"chapter": room.lesson_chapter, "step": room.lesson_step}


def stop_at_hold(code: str, gen: int, at: float) -> bool:
    """A class that played on to its open question stands there, paused: its state says
    so (a new ``seq``), so no page goes on showing it as playing.  False when it is not
    there yet (or was stopped already)."""
    room = db.session.get(ClassRoom, code, populate_existing=True)
    if room is None or room.gen != gen or room.held_at is None or not room.playing:
        return False
    if room_index(room, at) < room.held_at:
        return False
    result = db.session.execute(
        update(ClassRoom)
        .where(
            ClassRoom.code == code,
            ClassRoom.gen == gen,
            ClassRoom.held_at == room.held_at,
            ClassRoom.playing,
        )
        .values(idx=room.held_at, playing=False, state_at=at, seq=ClassRoom.seq + 1),
        execution_options={"synchronize_session": False},
    )
    db.session.commit()
    return result.rowcount == 1
