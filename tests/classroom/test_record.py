"""server.classroom.record: the teacher's record, line for line what the class did.

The lines are compared with what this test itself sent (answers in both votes, a puzzle
solved through the Play page's rules, lab runs checked), worded by a plain ``say`` that
shows the key and its params, so the layout is checked apart from the catalogues."""

from __future__ import annotations

from server.classroom import lab, puzzles, quiz, quiz_answers, quiz_peer, record, rooms
from server.classroom.models import QuizQuestion
from server.db import db
from server.engine.board import Board
from server.engine.search import solve
from tests.classroom.helpers import T0, play_through, room_with_demo, student
from tests.classroom.test_lab_checks import WARNSDORFF, check, run_of
from tests.classroom.test_quiz_answers import RIGHT, ask
from tests.classroom.test_quiz_peer import WRONG, vote


def say(key: str, **params) -> str:
    return key if not params else f"{key}{sorted(params.items())}"


def when(moment):
    return "" if moment is None else f"t+{moment - T0:g}"


def test_every_answer_of_both_votes_every_attempt_and_every_checked_run(ctx):
    room = room_with_demo()
    ada, bob = student(room, "Ada"), student(room, "=Bob")
    # question 1, asked once: Ada right, Bob wrong
    ask(room, 5)
    vote(room, ada, RIGHT)
    vote(room, bob, WRONG)
    quiz.reveal(room, 1, T0 + 1)
    # question 2, a peer question: Ada wrong then right, Bob only in the first vote
    second = ask(room, 7)
    second.mode, second.phase = "peer", "vote"
    db.session.commit()
    answer = quiz_answers.answer
    message = quiz_answers.QuizAnswerMessage
    answer(room, ada, message(question=2, square=WRONG), T0 + 2)
    answer(room, bob, message(question=2, square=RIGHT), T0 + 2)
    quiz_peer.set_phase(room, 2, "tally", T0 + 3)
    quiz_peer.set_phase(room, 2, "revote", T0 + 3)
    answer(room, ada, message(question=2, square=RIGHT), T0 + 4)
    # Ada solves the puzzle
    puzzles.set_puzzle(room, {"rows": 5, "cols": 5, "closed": False, "start": [0, 0]}, T0)
    game = puzzles.start_puzzle_game(room, ada, T0 + 6)["game"]
    play_through(game, list(solve(Board(5, 5), 0).tour), 5, at=T0 + 40)
    puzzles.record_solution(room, game, T0 + 41)
    # Bob's lab run passes, Ada's was not a tour
    lab.set_exercise(room, {"preset": "warnsdorff"}, T0)
    number = lab.exercise_of(room)["number"]
    bob_run = lab.submit(room, bob, {"exercise": number, "source": "# w"}, T0 + 50)["id"]
    ada_run = lab.submit(room, ada, {"exercise": number, "source": "# x"}, T0 + 51)["id"]
    check(room, bob_run, run_of(WARNSDORFF))
    check(room, ada_run, run_of(WARNSDORFF, path=list(WARNSDORFF.tour[:-1])))

    lines = list(record.rows(record.room_record(room), say, when))
    quiz_lines = [line for line in lines if line[0] == "class.record.quiz"]
    assert [line[1:4] for line in quiz_lines] == [
        ["1", "class.quiz.kind.next class.record.at-step[('step', 5)]", "Ada"],
        ["1", "class.quiz.kind.next class.record.at-step[('step', 5)]", "=Bob"],
        ["2", "class.quiz.kind.next class.record.at-step[('step', 7)] · class.record.peer", "Ada"],
        ["2", "class.quiz.kind.next class.record.at-step[('step', 7)] · class.record.peer", "=Bob"],
    ]
    name = Board(5, 5).name
    # vote 1, vote 2, the right answer (once revealed), right by the last vote, when
    assert [line[4:] for line in quiz_lines] == [
        [name(RIGHT), "", name(RIGHT), "class.record.yes", "", "t+0"],
        [name(WRONG), "", name(RIGHT), "class.record.no", "", "t+0"],
        [name(WRONG), name(RIGHT), "", "", "", "t+4"],  # question 2 is not revealed yet
        [name(RIGHT), "", "", "", "", "t+2"],
    ]
    quiz.reveal(room, 2, T0 + 60)
    lines = list(record.rows(record.room_record(room), say, when))
    second_lines = [line for line in lines if line[:2] == ["class.record.quiz", "2"]]
    assert [line[6:8] for line in second_lines] == [
        [name(RIGHT), "class.record.yes"],  # Ada, right the second time
        [name(RIGHT), "class.record.yes"],  # Bob, right the first time, and it stands
    ]
    puzzle_lines = [line for line in lines if line[0] == "class.record.puzzle"]
    assert len(puzzle_lines) == 1 and puzzle_lines[0][3] == "Ada"
    assert puzzle_lines[0][7] == "class.record.yes"
    # 24 moves after the placed start, in the 34 s from the handout to the last move
    assert puzzle_lines[0][8] == (
        "class.record.solved[('hints', 0), ('moves', 24), ('seconds', 34), ('undos', 0)]"
    )
    lab_lines = [line for line in lines if line[0] == "class.record.lab"]
    assert [(line[3], line[7]) for line in lab_lines] == [
        ("=Bob", "class.record.yes"),
        ("Ada", "class.record.no"),
    ]
    assert lab_lines[0][8] == "class.record.passed[('backtracks', 0), ('moves', 64)]"
    assert lab_lines[1][8] == "class.lab.fail.not-a-tour"


def test_answers_of_each_kind_read_as_the_teacher_reads_them(ctx):
    question = record.Question(
        number=1, kind="possible", mode="single", votes=1, index=3, asked_at=T0,
        revealed_at=None, answer=1, subject={}, rows=5, cols=5,
    )  # fmt: skip
    assert record.answer_text(question, 1, say) == "class.record.yes"
    assert record.answer_text(question, 0, say) == "class.record.no"
    assert record.answer_text(question, None, say) == ""
    obstacle = record.Question(**{**question.__dict__, "kind": "obstacle"})
    assert record.answer_text(obstacle, 3, say) == "class.quiz.obstacle.colour"
    onward = record.Question(**{**question.__dict__, "kind": "onward", "subject": {"square": 7}})
    assert record.answer_text(onward, 3, say) == "3"
    assert record.question_text(onward, say).startswith(
        "class.record.subject[('kind', 'class.quiz.kind.onward'), ('square', 'c4')] "
    )
    frame = record.Question(**{**question.__dict__, "kind": "frame"})
    assert record.answer_text(frame, 24, say) == "e1"


def test_the_record_goes_with_the_room(ctx):
    room = room_with_demo()
    ask(room, 5)
    vote(room, student(room, "Ada"), RIGHT)
    assert list(record.rows(record.room_record(room), say, when))
    code = room.code
    rooms.close_room(room)
    assert db.session.scalar(db.select(db.func.count()).select_from(QuizQuestion)) == 0
    assert db.session.get(type(room), code) is None
