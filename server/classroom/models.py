"""Class rooms in the database: everything every server process needs to know.

Several server processes may serve one room (Socket.IO over a Redis message queue), and
each student's connection lives in whichever process accepted it, so the room's truth is
here, not in memory:

* ``class_rooms``: one row per room: its join code, the SHA-256 of the teacher's secret
  token (the token itself is never stored), the demo's settings and the teacher's
  control state (event index, playing, speed, when it was set), the guided lesson's
  chapter and step when the teacher runs it, the puzzle handed out, and the last
  activity (rooms expire after ``CLASS_ROOM_TTL`` seconds without any) and the client
  address that opened it (live rooms are counted per address);
* ``class_presence``: one row per Socket.IO connection in a room, refreshed by the
  client's heartbeat: the student count is the number of fresh student rows, so a
  process that died takes its connections off the count after the presence timeout;
* ``class_entries``: one row per student attempt at a puzzle, linked to the Play
  page's game (``games``) the student plays and to the student (``class_quiz_students``)
  who made it; the class leaderboard is the solved ones, one line per student;
* ``class_checkpoints``: the room's search every so many events (a walker state, see
  server/engine/walker.py), from which any process serves any index of the demo; per
  ``lane``, since a lesson's race runs two searches (server/stream/race.py);
* ``class_lab_submissions``: one row per program a student submitted for the room's code
  lab exercise (its source text, never run by the server) and the check of the run the
  teacher's page reported (server/classroom/lab.py).

Times are epoch seconds (floats), as in ``games``; processes that share a database
must keep their clocks in step (NTP), since the search's lease is timed by them.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..db import db


class ClassRoom(db.Model):
    __tablename__ = "class_rooms"

    code: Mapped[str] = mapped_column(String(8), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64))  # sha256 hex of the teacher's token
    created_at: Mapped[float] = mapped_column(Float)
    last_active: Mapped[float] = mapped_column(Float, index=True)
    # The client address that opened the room (NULL: opened before it was kept): one
    # address may have only so many live rooms, and pays for their demos' searches.
    address: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    # The demo: settings (JSON: rows, cols, start [r, c], algorithm, closed, pruning) and
    # their generation, bumped at every change (a run belongs to one generation).
    settings: Mapped[str] = mapped_column(Text)
    gen: Mapped[int] = mapped_column(Integer, default=1)
    # The teacher's control state: the event index, playing, events per second (None =
    # run to the end as fast as the search goes) and when it was set; ``control_seq`` is
    # the teacher page's number of the last control applied (only newer ones apply).
    idx: Mapped[int] = mapped_column(Integer, default=0)
    playing: Mapped[bool] = mapped_column(Boolean, default=False)
    speed: Mapped[float | None] = mapped_column(Float, nullable=True)
    state_at: Mapped[float] = mapped_column(Float)
    seq: Mapped[int] = mapped_column(Integer, default=0)  # bumped at every state change
    control_seq: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The room's one search: events computed so far, its end once reached (JSON: status,
    # total events, nodes, backtracks, limit), and the process that runs it (its lease).
    frontier: Mapped[int] = mapped_column(Integer, default=0)
    outcome: Mapped[str | None] = mapped_column(Text, nullable=True)
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_until: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    # The class puzzle (JSON: rows, cols, closed, start [r, c]) or None; ``puzzle_seq``
    # numbers the puzzles handed out in this room.
    puzzle: Mapped[str | None] = mapped_column(Text, nullable=True)
    puzzle_seq: Mapped[int] = mapped_column(Integer, default=0)
    # What the class holds of the demo (its generation's events [0, sent_upto) have been
    # sent to members, by the feed or in a snapshot) and, while a quiz question is open,
    # the index the demo is held at: nothing past it is sent until the reveal.
    sent_upto: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    held_at: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The guided lesson, while the teacher runs it in the room: the chapter's id and the
    # narration step (from 0) that go with the demo; None for a demo set up by hand.
    lesson_chapter: Mapped[str | None] = mapped_column(String(32), nullable=True)
    lesson_step: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The code lab's exercise (JSON: server/classroom/lab_messages.py) or None;
    # ``lab_seq`` numbers the exercises handed out in this room.
    lab: Mapped[str | None] = mapped_column(Text, nullable=True)
    lab_seq: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class ClassPresence(db.Model):
    __tablename__ = "class_presence"

    sid: Mapped[str] = mapped_column(String(64), primary_key=True)
    code: Mapped[str] = mapped_column(
        ForeignKey("class_rooms.code", ondelete="CASCADE"), index=True
    )
    role: Mapped[str] = mapped_column(String(8))  # "teacher" | "student"
    last_seen: Mapped[float] = mapped_column(Float)


class ClassEntry(db.Model):
    __tablename__ = "class_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(
        ForeignKey("class_rooms.code", ondelete="CASCADE"), index=True
    )
    puzzle_seq: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[str] = mapped_column(String(32), unique=True)  # a games.id
    # the student who made the attempt (NULL for attempts made before students were
    # kept: those are told apart by name); removing a student takes their attempts along
    student_id: Mapped[str | None] = mapped_column(
        ForeignKey(
            "class_quiz_students.id", name="fk_class_entries_student_id", ondelete="CASCADE"
        ),
        nullable=True,
        index=True,
    )
    name: Mapped[str] = mapped_column(String(24))  # plain text; rendered as text
    started_at: Mapped[float] = mapped_column(Float)  # when the puzzle's game was handed out
    solved_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    moves: Mapped[int | None] = mapped_column(Integer, nullable=True)
    hints: Mapped[int | None] = mapped_column(Integer, nullable=True)
    undos: Mapped[int | None] = mapped_column(Integer, nullable=True)


class ClassCheckpoint(db.Model):
    __tablename__ = "class_checkpoints"

    code: Mapped[str] = mapped_column(
        ForeignKey("class_rooms.code", ondelete="CASCADE"), primary_key=True
    )
    gen: Mapped[int] = mapped_column(Integer, primary_key=True)
    # the demo's lane: 0, or 1 for the second search of a race (server/stream/race.py)
    lane: Mapped[int] = mapped_column(Integer, primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)  # events before the state
    data: Mapped[str] = mapped_column(Text)  # JSON of a WalkerState


class QuizStudent(db.Model):
    """A student of the room (the quiz and the puzzle): a name the teacher reads, a key the
    page keeps, the browser's player id (one student per player in a room), and the
    attempts at the current puzzle."""

    __tablename__ = "class_quiz_students"
    __table_args__ = (
        UniqueConstraint("code", "name_key", name="uq_class_quiz_students_name"),
        UniqueConstraint("code", "player", name="uq_class_quiz_students_player"),
        Index("ix_class_quiz_students_address", "code", "address"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # public, random
    code: Mapped[str] = mapped_column(
        ForeignKey("class_rooms.code", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(24))  # plain text; rendered as text
    name_key: Mapped[str] = mapped_column(String(96))  # the name case-folded: one per room
    key_hash: Mapped[str] = mapped_column(String(64))  # sha256 hex of the page's key
    joined_at: Mapped[float] = mapped_column(Float)
    # the ``kt_player`` cookie of the browser that entered (NULL: it had none)
    player: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # the client address that entered the name (NULL: entered before it was kept)
    address: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # attempts at the room's puzzle number ``attempts_seq`` (another puzzle: none yet)
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    attempts_seq: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class QuizQuestion(db.Model):
    """A question of one kind (server/engine/questions.py) at one position of the room's
    demo, and its answer (kept back until ``revealed_at``); asked once, or as two votes
    with the class's first tally between them (``mode`` peer, its step in ``phase``)."""

    __tablename__ = "class_questions"
    __table_args__ = (UniqueConstraint("code", "number", name="uq_class_questions_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(
        ForeignKey("class_rooms.code", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)  # 1, 2, ... in the room
    gen: Mapped[int] = mapped_column(Integer)
    idx: Mapped[int] = mapped_column(Integer)  # the position: after this many events
    path: Mapped[str] = mapped_column(Text)  # JSON list of squares, start first
    # the kind (engine KINDS), what it shows besides the position (JSON), and how many
    # answers it takes: they are 0 .. answer_values - 1 (NULL: a square, asked before 0011)
    kind: Mapped[str] = mapped_column(String(16), default="next", server_default="next")
    subject: Mapped[str] = mapped_column(Text, default="{}", server_default="{}")
    answer_values: Mapped[int | None] = mapped_column(Integer, nullable=True)
    answer: Mapped[int] = mapped_column(Integer)  # the right answer's value
    why: Mapped[str] = mapped_column(Text)  # JSON: the kind's why, and the demo's algorithm
    # "single", or "peer": vote, tally, discuss, revote (``phase``), then the reveal
    mode: Mapped[str] = mapped_column(String(8), default="single", server_default="single")
    phase: Mapped[str | None] = mapped_column(String(8), nullable=True)
    asked_at: Mapped[float] = mapped_column(Float)
    revealed_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    why_shown: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class QuizAnswer(db.Model):
    """A student's answer to a question in one vote (``round`` 1, or 2 for a peer
    question's second vote), changeable until that vote closes."""

    __tablename__ = "class_answers"

    question_id: Mapped[int] = mapped_column(
        ForeignKey("class_questions.id", ondelete="CASCADE"), primary_key=True
    )
    student_id: Mapped[str] = mapped_column(
        ForeignKey("class_quiz_students.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    value: Mapped[int] = mapped_column(Integer)  # a square, a count, 1/0, a choice
    answered_at: Mapped[float] = mapped_column(Float)


class LabSubmission(db.Model):
    """A student's program for the room's lab exercise number ``exercise``, and the check
    of the run the teacher's page made of it (``passed`` None: not checked yet)."""

    __tablename__ = "class_lab_submissions"
    __table_args__ = (Index("ix_class_lab_submissions_exercise", "code", "exercise", "student_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)  # the teacher's handle
    # (indexed first in ix_class_lab_submissions_exercise)
    code: Mapped[str] = mapped_column(ForeignKey("class_rooms.code", ondelete="CASCADE"))
    exercise: Mapped[int] = mapped_column(Integer)  # the room's lab_seq it was sent for
    student_id: Mapped[str] = mapped_column(
        ForeignKey("class_quiz_students.id", ondelete="CASCADE"), index=True
    )
    source: Mapped[str] = mapped_column(Text)  # plain text, never run by the server
    submitted_at: Mapped[float] = mapped_column(Float)
    checked_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    passed: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    reason: Mapped[str | None] = mapped_column(String(32), nullable=True)  # why not passed
    moves: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    backtracks: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    closed: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
