"""A database written by release 0.1.0 upgrades with nothing lost, and play goes on.

The fixtures were written by the released code (tests/migrations/make_release_db.py):
games in progress, fresh, stuck and won, two leaderboard rows, a class room with a
demo, a puzzle and two entries.  Each test upgrades a copy, then plays on through the
app: resume the game in progress, undo, win it, read the leaderboard, and finish the
class puzzle's open entry.  Once on SQLite (upgraded by the app itself, as ``serve``
does) and once on a real PostgreSQL (upgraded by ``knights-tour db upgrade``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from sqlalchemy import func, inspect, select

from server.app import create_app
from server.classroom import clock, puzzles, quiz, quiz_answers, rooms, students
from server.classroom.models import QuizAnswer, QuizQuestion, QuizStudent
from server.classroom.quiz_messages import QuizAnswerMessage, QuizEnterMessage
from server.db import current_revision, db, head_revision, upgrade_schema
from server.engine.board import Board
from server.engine.search import solve
from server.engine.walker import Walker
from server.stream.timeline import Timeline

HERE = Path(__file__).resolve().parent
RELEASE = "release-0.1.0"
FOREVER = 10.0**10  # the fixture's class room was last active long ago: read it anyway


def make_app(database_url: str, tmp_path: Path):
    return create_app(
        {
            "TESTING": True,
            "DATABASE_URL": database_url,
            "INSTANCE_PATH": str(tmp_path / "instance"),
        }
    )


def play_on(app, manifest: dict) -> None:
    client = app.test_client()
    games = manifest["games"]

    # the game in progress resumes where it was: its path, its undo and hint counts
    progress = games["in_progress"]
    state = client.get(f"/api/games/{progress['id']}").get_json()
    cols = progress["cols"]
    assert [r * cols + c for r, c in state["path"]] == progress["path"]
    assert (state["status"], state["undos"], state["hints"]) == ("playing", 1, 1)
    answer = client.post(f"/api/games/{progress['id']}/undo", json={"count": 1})
    assert answer.status_code == 200 and answer.get_json()["undos"] == 2
    path = progress["path"][:-1]
    rest = solve(Board(6, 6), path[0], ordering="warnsdorff", prefix=path).tour[len(path) :]
    for sq in rest:
        answer = client.post(
            f"/api/games/{progress['id']}/moves", json={"row": sq // 6, "col": sq % 6}
        )
        assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["status"] == "won"
    answer = client.post(f"/api/games/{progress['id']}/score", json={"name": "升级后"})
    assert answer.status_code == 201, answer.get_json()

    # the other games are as they were left
    assert client.get(f"/api/games/{games['fresh']['id']}").get_json()["status"] == "new"
    assert client.get(f"/api/games/{games['stuck']['id']}").get_json()["status"] == "stuck"
    assert client.get(f"/api/games/{games['won']['id']}").get_json()["status"] == "won"

    # the leaderboards keep the old rows, and rank the new one among them
    five = client.get("/api/leaderboard?rows=5&cols=5").get_json()
    assert [e["name"] for e in five["unassisted"]] == [games["won"]["name"]]
    six = client.get("/api/leaderboard?rows=6&cols=6&closed=true").get_json()
    assert [e["name"] for e in six["assisted"]] == [games["won_assisted"]["name"]]
    six_open = client.get("/api/leaderboard?rows=6&cols=6").get_json()
    assert [e["name"] for e in six_open["assisted"]] == ["升级后"]

    # the class room: its demo, its puzzle, its leaderboard; the open entry can finish
    room_facts = manifest["room"]
    with app.app_context():
        room = rooms.find_room(room_facts["code"], ttl=FOREVER)
        assert rooms.token_matches(room, room_facts["token"])
        state = clock.public_state(room, rooms.now())
        assert state["settings"] == room_facts["settings"] and state["gen"] == 2
        board = puzzles.leaderboard(room)
        assert [e["name"] for e in board["entries"]] == [room_facts["solved"]["name"]]
        assert board["trying"] == 2
    trying = room_facts["trying"]["game"]
    tour = solve(Board(5, 5), 0).tour
    for sq in tour[1:]:
        answer = client.post(f"/api/games/{trying}/moves", json={"row": sq // 5, "col": sq % 5})
        assert answer.status_code == 200, answer.get_json()
    with app.app_context():
        room = rooms.find_room(room_facts["code"], ttl=FOREVER)
        puzzles.record_solution(room, trying, rooms.now())
        names = [e["name"] for e in puzzles.leaderboard(room)["entries"]]
        assert sorted(names) == sorted([room_facts["solved"]["name"], room_facts["trying"]["name"]])
    lesson_in(app, room_facts["code"])
    quiz_in(app, room_facts["code"])


def lesson_in(app, code: str) -> None:
    """The old room follows the guided lesson (0004): its demo and the step, kept."""
    with app.app_context():
        room = rooms.find_room(code, ttl=FOREVER)
        assert clock.public_state(room, rooms.now())["lesson"] is None
        seq = room.control_seq + 1
        state = clock.set_lesson(room, {"seq": seq, "chapter": "dfs", "step": 1}, rooms.now())
        assert state["lesson"] == {"chapter": "dfs", "step": 1} and state["index"] == 12
        db.session.expire_all()
        room = rooms.find_room(code, ttl=FOREVER)
        assert (room.lesson_chapter, room.lesson_step, room.idx) == ("dfs", 1, 12)
        assert clock.settings_of(room)["rows"] == 5


def quiz_in(app, code: str) -> None:
    """The old room runs a quiz in the new tables (0003), and closing it takes them along."""
    with app.app_context():
        room = rooms.find_room(code, ttl=FOREVER)
        demo = Timeline(clock.demo_of(room))
        demo.extend(40)
        index = next(i for i in range(1, 40) if len(walk(room, i + 1)) > len(walk(room, i)))
        room.idx, room.playing = index, False  # paused there
        db.session.commit()
        counts = demo.demo.counts

        def find(start: int, seconds: float, kind: str = "next") -> quiz.Found:
            snapshot = demo.snapshot(start, tail=0, ahead=40)
            return quiz.first_question(snapshot, counts, demo.board, kind)

        question = quiz.ask(room, rooms.now(), find).question
        assert question.idx == index and room.held_at == index
        student = students.enter(room, QuizEnterMessage(name="升级生"), rooms.now()).student
        request = QuizAnswerMessage(question=question.number, square=walk(room, index + 1)[-1])
        quiz_answers.answer(room, student, request, rooms.now())
        quiz.reveal(room, question.number, rooms.now())
        assert quiz_answers.scores(room)["scores"][0] | {"student": None} == {
            "student": None,
            "name": "升级生",
            "right": 1,
            "answered": 1,
        }
        rooms.close_room(room)
        for model in (QuizStudent, QuizQuestion, QuizAnswer):
            assert db.session.scalar(select(func.count()).select_from(model)) == 0


def walk(room, index: int) -> list[int]:
    """The path of the room's demo after ``index`` events, from the engine's walker."""
    settings = clock.settings_of(room)
    walker = Walker(
        Board(settings["rows"], settings["cols"]),
        settings["start"][0] * settings["cols"] + settings["start"][1],
        algorithm=settings["algorithm"],
        closed=settings["closed"],
    )
    walker.advance(index)
    return list(walker.path)


def check_schema(app) -> None:
    with app.app_context():
        assert current_revision() == head_revision()
        tables = set(inspect(db.engine).get_table_names())
        assert {"games", "scores", "class_rooms", "class_checkpoints"} <= tables
        assert {"class_quiz_students", "class_questions", "class_answers"} <= tables
        assert "class_lab_submissions" in tables


def test_a_release_sqlite_database_upgrades_when_the_app_starts(tmp_path):
    copy = tmp_path / "old.sqlite3"
    shutil.copyfile(HERE / f"{RELEASE}.sqlite3", copy)
    manifest = json.loads((HERE / f"{RELEASE}.json").read_text(encoding="utf-8"))
    app = make_app(f"sqlite:///{copy}", tmp_path)
    check_schema(app)
    play_on(app, manifest)
    # and again: an up-to-date database is left alone
    again = make_app(f"sqlite:///{copy}", tmp_path)
    with again.app_context():
        assert upgrade_schema()[0] == head_revision()


def test_a_release_postgresql_database_upgrades_with_the_command(
    postgres_cluster, postgres_url, tmp_path
):
    postgres_cluster.load(postgres_url, HERE / f"{RELEASE}.postgres.sql")
    manifest = json.loads((HERE / f"{RELEASE}.postgres.json").read_text(encoding="utf-8"))
    app = make_app(postgres_url, tmp_path)
    with app.app_context():
        assert current_revision() is None  # made before migrations: no version yet
        before, after = upgrade_schema()
        assert (before, after) == (None, head_revision())
    check_schema(app)
    play_on(app, manifest)


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_an_empty_database_gets_the_whole_schema(engine, request, tmp_path):
    url = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    if engine == "postgresql":
        url = request.getfixturevalue("postgres_url")
    app = make_app(url, tmp_path)
    with app.app_context():
        upgrade_schema()
    check_schema(app)


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_the_migrations_make_exactly_the_models_schema(engine, request, tmp_path):
    """Alembic's autogenerate finds nothing to add: models and migrations agree."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    url = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    if engine == "postgresql":
        url = request.getfixturevalue("postgres_url")
    app = make_app(url, tmp_path)
    with app.app_context():
        upgrade_schema()
        with db.engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(context, db.metadata) == []


def test_0006_gives_each_earlier_attempt_its_student_and_loses_none(tmp_path):
    """An attempt made under a student's name (``solve`` took the entered name) becomes that
    student's; one nobody holds the name of stays, told apart by its name as before."""
    from sqlalchemy import text

    from server.db import _alembic

    app = make_app(f"sqlite:///{tmp_path / 'fair.sqlite3'}", tmp_path)
    with app.app_context():
        code = rooms.open_room().code  # kept by the downgrades, as a release's would be
        _alembic("downgrade", "0005")  # the schema before students had attempts
        db.session.execute(
            text(
                "INSERT INTO class_quiz_students (id, code, name, name_key, key_hash, joined_at)"
                " VALUES ('s1', :code, 'Ann', 'ann', 'h1', 0), ('s2', :code, 'Bea', 'bea', 'h2', 0)"
            ),
            {"code": code},
        )
        db.session.execute(
            text(
                "INSERT INTO class_entries (code, puzzle_seq, game_id, name, started_at)"
                " VALUES (:code, 1, 'g1', 'ANN', 0), (:code, 1, 'g2', 'Zed', 0),"
                " (:code, 1, 'g3', 'Bea', 0)"
            ),
            {"code": code},
        )
        db.session.commit()
        assert upgrade_schema() == ("0005", head_revision())
        owners = dict(
            db.session.execute(text("SELECT game_id, student_id FROM class_entries")).all()
        )
        assert owners == {"g1": "s1", "g2": None, "g3": "s2"}
        students = db.session.execute(
            text("SELECT id, name, player, attempts, attempts_seq FROM class_quiz_students")
        ).all()
        assert sorted(students) == [("s1", "Ann", None, 0, 0), ("s2", "Bea", None, 0, 0)]
        _alembic("downgrade", "0005")  # and back: the attempts keep their names
        names = dict(db.session.execute(text("SELECT game_id, name FROM class_entries")).all())
        assert names == {"g1": "ANN", "g2": "Zed", "g3": "Bea"}


def student_with_an_entry(code: str) -> None:
    """Student ``s1`` (Ann) in room ``code`` with attempt ``g1``, as rows of the 0006 schema
    on (written in SQL: the models may be newer than the schema under test)."""
    from sqlalchemy import text

    db.session.execute(
        text(
            "INSERT INTO class_quiz_students (id, code, name, name_key, key_hash, joined_at)"
            " VALUES ('s1', :code, 'Ann', 'ann', 'h1', 0)"
        ),
        {"code": code},
    )
    db.session.execute(
        text(
            "INSERT INTO class_entries (code, puzzle_seq, game_id, name, started_at,"
            " student_id) VALUES (:code, 1, 'g1', 'Ann', 0, 's1')"
        ),
        {"code": code},
    )
    db.session.commit()


def test_0007_keeps_every_student_and_entry_both_ways(tmp_path):
    """The address column goes in and out in place: a copied table would take the room's
    entries with it (their foreign key cascades), on the way up or down."""
    from sqlalchemy import text

    from server.db import _alembic

    app = make_app(f"sqlite:///{tmp_path / 'names.sqlite3'}", tmp_path)
    with app.app_context():
        code = rooms.open_room().code
        _alembic("downgrade", "0006")
        student_with_an_entry(code)
        entries = "SELECT game_id, student_id FROM class_entries"
        assert upgrade_schema() == ("0006", head_revision())
        assert db.session.execute(text(entries)).all() == [("g1", "s1")]
        assert db.session.execute(text("SELECT id, address FROM class_quiz_students")).all() == [
            ("s1", None)
        ]
        _alembic("downgrade", "0006")
        assert db.session.execute(text(entries)).all() == [("g1", "s1")]


def test_0008_keeps_every_room_and_what_belongs_to_it_both_ways(tmp_path):
    """The opener's address goes in and out of ``class_rooms`` in place: a copied table
    would take every student, entry and checkpoint of its rooms with it (ON DELETE
    CASCADE), on the way up or down."""
    from sqlalchemy import text

    from server.db import _alembic

    app = make_app(f"sqlite:///{tmp_path / 'rooms.sqlite3'}", tmp_path)
    with app.app_context():
        code = rooms.open_room(address="10.0.0.7").code
        _alembic("downgrade", "0007")
        student_with_an_entry(code)
        belonging = (
            "SELECT r.code, s.id, e.game_id FROM class_rooms r"
            " JOIN class_quiz_students s ON s.code = r.code JOIN class_entries e ON e.code = r.code"
        )
        assert db.session.execute(text(belonging)).all() == [(code, "s1", "g1")]
        assert upgrade_schema() == ("0007", head_revision())
        assert db.session.execute(text(belonging)).all() == [(code, "s1", "g1")]
        assert db.session.execute(text("SELECT code, address FROM class_rooms")).all() == [
            (code, None)  # opened before addresses were kept: it counts against none
        ]
        _alembic("downgrade", "0007")
        assert db.session.execute(text(belonging)).all() == [(code, "s1", "g1")]
        assert "address" not in {c["name"] for c in inspect(db.engine).get_columns("class_rooms")}


def test_0009_keeps_every_checkpoint_as_the_first_lane_both_ways(tmp_path):
    """The checkpoints' key gains the lane: the table is made anew, each stored checkpoint
    copied as lane 0 (a running demo resumes from them), and copied back on the way down."""
    from sqlalchemy import text

    from server.classroom import lease
    from server.db import _alembic

    app = make_app(f"sqlite:///{tmp_path / 'lanes.sqlite3'}", tmp_path)
    with app.app_context():
        code = rooms.open_room().code
        _alembic("downgrade", "0008")
        for idx in (20_000, 40_000):
            db.session.execute(
                text(
                    "INSERT INTO class_checkpoints (code, gen, idx, data)"
                    " VALUES (:code, 2, :idx, :data)"
                ),
                {"code": code, "idx": idx, "data": json.dumps([idx, [0], None, 1, 0, 1, [], []])},
            )
        db.session.commit()
        assert upgrade_schema() == ("0008", head_revision())
        stored = "SELECT code, gen, lane, idx FROM class_checkpoints ORDER BY idx"
        assert db.session.execute(text(stored)).all() == [
            (code, 2, 0, 20_000),
            (code, 2, 0, 40_000),
        ]
        _alembic("downgrade", "0008")
        kept = "SELECT code, gen, idx, data FROM class_checkpoints ORDER BY idx"
        rows = db.session.execute(text(kept)).all()
        assert [(c, g, i) for c, g, i, _data in rows] == [(code, 2, 20_000), (code, 2, 40_000)]
        assert json.loads(rows[0][3])[0] == 20_000
        upgrade_schema()
        assert lease.load_checkpoints(code, 2, 1) == []  # the second lane: none stored


def test_0010_adds_the_lab_in_place_and_drops_only_its_own_both_ways(tmp_path):
    """The exercise's columns go in and out of ``class_rooms`` in place (a copied table
    would take every student and entry with it, ON DELETE CASCADE); the submissions'
    table comes and goes, and a submission goes with its room."""
    from sqlalchemy import text

    from server.classroom import lab
    from server.db import _alembic

    app = make_app(f"sqlite:///{tmp_path / 'lab.sqlite3'}", tmp_path)
    with app.app_context():
        code = rooms.open_room().code
        _alembic("downgrade", "0009")
        assert "class_lab_submissions" not in inspect(db.engine).get_table_names()
        student_with_an_entry(code)
        belonging = (
            "SELECT r.code, s.id, e.game_id FROM class_rooms r"
            " JOIN class_quiz_students s ON s.code = r.code JOIN class_entries e ON e.code = r.code"
        )
        assert upgrade_schema() == ("0009", head_revision())
        assert db.session.execute(text(belonging)).all() == [(code, "s1", "g1")]
        room = rooms.find_room(code, ttl=FOREVER)
        assert lab.exercise_of(room) is None and room.lab_seq == 0
        lab.set_exercise(room, {"preset": "plain-dfs"}, rooms.now())
        ann = students.student_in(code, "s1")
        lab.submit(room, ann, {"exercise": 1, "source": "# 升级"}, rooms.now())
        _alembic("downgrade", "0009")
        assert db.session.execute(text(belonging)).all() == [(code, "s1", "g1")]
        columns = {c["name"] for c in inspect(db.engine).get_columns("class_rooms")}
        assert not {"lab", "lab_seq"} & columns
        upgrade_schema()
        count = "SELECT COUNT(*) FROM class_lab_submissions"
        assert db.session.execute(text(count)).scalar() == 0  # dropped with its table
        room = rooms.find_room(code, ttl=FOREVER)
        lab.set_exercise(room, {"preset": "plain-dfs"}, rooms.now())
        lab.submit(room, ann, {"exercise": 1, "source": "# again"}, rooms.now())
        rooms.close_room(room)
        assert db.session.execute(text(count)).scalar() == 0


def test_0011_keeps_every_answer_as_the_first_vote_both_ways(tmp_path):
    """The answers' key gains the vote: the table is made anew and each stored answer
    copied as round 1, its square as its value; the questions keep their rows, as
    questions of the one kind there was; on the way down each student's last vote stays."""
    from sqlalchemy import text

    from server.db import _alembic

    app = make_app(f"sqlite:///{tmp_path / 'votes.sqlite3'}", tmp_path)
    with app.app_context():
        code = rooms.open_room().code
        _alembic("downgrade", "0010")
        student_with_an_entry(code)
        db.session.execute(
            text(
                "INSERT INTO class_questions (id, code, number, gen, idx, path, answer, why,"
                " asked_at, revealed_at, why_shown) VALUES"
                " (1, :code, 1, 2, 5, '[0, 7]', 14, '{}', 0, 1, 0),"
                " (2, :code, 2, 2, 9, '[0, 7, 4]', 13, '{}', 2, NULL, 0)"
            ),
            {"code": code},
        )
        db.session.execute(
            text(
                "INSERT INTO class_answers (question_id, student_id, square, answered_at)"
                " VALUES (1, 's1', 14, 0.5), (2, 's1', 3, 2.5)"
            )
        )
        db.session.commit()
        assert upgrade_schema() == ("0010", head_revision())
        answers = "SELECT question_id, student_id, round, value, answered_at FROM class_answers"
        assert sorted(db.session.execute(text(answers)).all()) == [
            (1, "s1", 1, 14, 0.5),
            (2, "s1", 1, 3, 2.5),
        ]
        kinds = "SELECT number, kind, subject, answer_values, mode, phase FROM class_questions"
        assert sorted(db.session.execute(text(kinds)).all()) == [
            (1, "next", "{}", None, "single", None),
            (2, "next", "{}", None, "single", None),
        ]
        room = rooms.find_room(code, ttl=FOREVER)
        assert quiz_answers.scores(room)["scores"][0]["right"] == 1  # question 1, revealed
        # a second vote on the open question, then down again: the last vote stays
        db.session.execute(
            text(
                "INSERT INTO class_answers (question_id, student_id, round, value, answered_at)"
                " VALUES (2, 's1', 2, 13, 3.5)"
            )
        )
        db.session.commit()
        _alembic("downgrade", "0010")
        kept = "SELECT question_id, student_id, square, answered_at FROM class_answers"
        assert sorted(db.session.execute(text(kept)).all()) == [
            (1, "s1", 14, 0.5),
            (2, "s1", 13, 3.5),
        ]
        columns = {c["name"] for c in inspect(db.engine).get_columns("class_questions")}
        assert not {"kind", "subject", "answer_values", "mode", "phase"} & columns
        belonging = "SELECT s.id, e.game_id FROM class_quiz_students s JOIN class_entries e"
        assert db.session.execute(text(belonging + " ON e.student_id = s.id")).all() == [
            ("s1", "g1")
        ]
