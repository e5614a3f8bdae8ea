"""The room's one search, as the database sees it: who runs it, how far it got, what of
it the class was sent.

A room's demo is computed once, by whichever process holds its *lease*
(:func:`acquire_lease`: an UPDATE that only one process wins; server/classroom/feed.py
renews it every second and the others take it over once it lapses).  The owner records
here what any other process needs to serve any index and to take the search over:
its progress and end (:func:`record_progress`, which every member's state reads) and
its checkpoints (:func:`save_checkpoints`, walker states every so many events).

Before anyone is sent events of the demo, the sender claims them (:func:`claim_sent`):
the class's high-water mark ``sent_upto`` moves on only up to an open quiz question's
index (``held_at``, set by server/classroom/quiz.py), in the same UPDATE, so nobody on
any process is ever sent an event past an open question.  The quiz reads the mark to
place a question where no member holds its answer.  No Flask here.
"""

from __future__ import annotations

import json

from sqlalchemy import delete, insert, or_, select, update

from ..db import db
from ..stream.timeline import state_from_json, state_to_json
from .models import ClassCheckpoint, ClassRoom


def acquire(code: str, owner: str, at: float, seconds: float) -> bool:
    """Take (or keep) the room's search for ``seconds``; False while another process holds it."""
    result = db.session.execute(
        update(ClassRoom)
        .where(
            ClassRoom.code == code,
            or_(
                ClassRoom.owner.is_(None),
                ClassRoom.owner == owner,
                ClassRoom.lease_until < at,
            ),
        )
        .values(owner=owner, lease_until=at + seconds),
        execution_options={"synchronize_session": False},
    )
    db.session.commit()
    return result.rowcount == 1


def release(code: str, owner: str) -> None:
    db.session.execute(
        update(ClassRoom)
        .where(ClassRoom.code == code, ClassRoom.owner == owner)
        .values(owner=None, lease_until=0.0),
        execution_options={"synchronize_session": False},
    )
    db.session.commit()


def record_progress(code: str, gen: int, frontier: int, outcome: dict | None) -> bool:
    """The room's search reached ``frontier`` events (and maybe its end); False if stale."""
    values = {"frontier": frontier}
    if outcome is not None:
        values["outcome"] = json.dumps(outcome)
        values["seq"] = ClassRoom.seq + 1  # the end is news: members take the new state
    result = db.session.execute(
        update(ClassRoom).where(ClassRoom.code == code, ClassRoom.gen == gen).values(values),
        execution_options={"synchronize_session": False},
    )
    db.session.commit()
    return result.rowcount == 1


def claim_sent(code: str, gen: int, upto: int) -> int:
    """Before members are sent the demo's events up to ``upto``: how far they may go.

    The class's high-water mark (``sent_upto``) moves on to ``upto`` in one UPDATE whose
    WHERE holds the quiz's hold (``held_at``), so a question asked at the same moment on
    another process either sees the new mark (and is asked there) or stops this send
    at its index: nobody is ever sent an event past an open question.  Answers ``upto``,
    or less while a question holds the demo (0 for a replaced demo).
    """
    for _ in range(2):
        result = db.session.execute(
            update(ClassRoom)
            .where(
                ClassRoom.code == code,
                ClassRoom.gen == gen,
                ClassRoom.sent_upto < upto,
                or_(ClassRoom.held_at.is_(None), ClassRoom.held_at >= upto),
            )
            .values(sent_upto=upto),
            execution_options={"synchronize_session": False},
        )
        db.session.commit()
        if result.rowcount == 1:
            return upto
        row = db.session.execute(
            select(ClassRoom.sent_upto, ClassRoom.held_at).where(
                ClassRoom.code == code, ClassRoom.gen == gen
            )
        ).first()
        if row is None:
            return 0
        sent, held = row
        if sent >= upto:
            return upto
        if held is None:  # the hold was lifted meanwhile: claim again
            continue
        upto = max(sent, held)  # as far as the question's position, not past it
    return sent


def save_checkpoints(code: str, gen: int, lane: int, states, spacing: int) -> None:
    """Store a lane's new checkpoints (those its spacing still keeps: a long slice may
    have thinned some of them already); drop those the thinned spacing no longer keeps."""
    kept = [state for state in states if state.index % spacing == 0]
    where = (ClassCheckpoint.code == code, ClassCheckpoint.gen == gen, ClassCheckpoint.lane == lane)
    if kept:
        indexes = [state.index for state in kept]
        # a takeover may store again what its owner had: replaced, in one statement each
        db.session.execute(delete(ClassCheckpoint).where(*where, ClassCheckpoint.idx.in_(indexes)))
        db.session.execute(
            insert(ClassCheckpoint),
            [
                {"code": code, "gen": gen, "lane": lane, "idx": state.index, "data": _dumps(state)}
                for state in kept
            ],
        )
    db.session.execute(delete(ClassCheckpoint).where(*where, ClassCheckpoint.idx % spacing != 0))
    db.session.commit()


def _dumps(state) -> str:
    return json.dumps(state_to_json(state), separators=(",", ":"))


def load_checkpoints(code: str, gen: int, lane: int = 0) -> list:
    where = (ClassCheckpoint.code == code, ClassCheckpoint.gen == gen, ClassCheckpoint.lane == lane)
    rows = db.session.scalars(
        select(ClassCheckpoint.data).where(*where).order_by(ClassCheckpoint.idx)
    )
    return [state_from_json(json.loads(data)) for data in rows]


def drop_old_checkpoints(code: str, gen: int) -> None:
    """Forget the checkpoints of the demos before generation ``gen`` (replaced by it)."""
    db.session.execute(
        delete(ClassCheckpoint).where(ClassCheckpoint.code == code, ClassCheckpoint.gen < gen)
    )
    db.session.commit()
