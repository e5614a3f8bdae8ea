"""Peer instruction (Mazur's, as Runestone runs it in class): a question asked twice.

The class votes; the teacher shows the tally without the answer; the students talk to
their neighbours; they vote again; then the reveal shows the answer and how the class
moved between the two votes.  A peer question (``class_questions.mode`` = ``peer``) goes
through ``phase``:

``vote``     the first vote is open (answers are round 1);
``tally``    the first vote is closed and its distribution is shown to everyone;
``discuss``  "talk to your neighbour": still closed, the tally still shown;
``revote``   the second vote is open (answers are round 2; a student who keeps their
             mind sends the same answer again, or nothing: the first vote stands).

Each step goes forward only, one at a time, except that the talk may be skipped
(``tally`` straight to ``revote``); the reveal may come at any step.  The demo stays held
at the question throughout (server/classroom/quiz.py).  No Flask here.
"""

from __future__ import annotations

from ..db import db
from .messages import ClassError
from .models import ClassRoom, QuizQuestion
from .quiz import find_question

PHASES = ("vote", "tally", "discuss", "revote")
NEXT = {"vote": ("tally",), "tally": ("discuss", "revote"), "discuss": ("revote",)}
# phases in which answers are taken, and the vote they count in
OPEN_ROUND = {None: 1, "vote": 1, "revote": 2}


def set_phase(room: ClassRoom, number: int, phase: str, at: float) -> QuizQuestion:
    """Step the open peer question ``number`` on to ``phase``; the same phase again is no
    change (a teacher's second page, a resent message)."""
    question = find_question(room, number)
    if question.revealed_at is not None:
        raise ClassError("revealed")
    if question.mode != "peer":
        raise ClassError("bad-phase", "class.error.bad-phase.single")
    if phase == question.phase:
        return question
    if phase not in NEXT.get(question.phase, ()):
        raise ClassError("bad-phase", "class.error.bad-phase.order", phase=phase)
    question.phase = phase
    room.last_active = at
    db.session.commit()
    return question


def voting_round(question: QuizQuestion) -> int:
    """The vote an answer sent now counts in; ``voting-closed`` between the two votes."""
    try:
        return OPEN_ROUND[question.phase]
    except KeyError:
        raise ClassError("voting-closed") from None


def rounds(question: QuizQuestion) -> int:
    """How many votes the question has had: 2 once its second vote opened."""
    return 2 if question.phase == "revote" else 1


def first_tally_shown(question: QuizQuestion) -> bool:
    """Whether everyone may see the first vote's distribution (it tells no answer)."""
    return question.mode == "peer" and (
        question.revealed_at is not None or question.phase in ("tally", "discuss", "revote")
    )
