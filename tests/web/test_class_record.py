"""The teacher's record over HTTP (server/web/class_record.py): the CSV and the printable
page open with the teacher's token only; a student, with or without the room's code, reads
no one else's answers at any URL the app has."""

from __future__ import annotations

import csv
import io
import re

import pytest

from server.app import create_app
from server.classroom import quiz, rooms
from server.i18n import text
from tests.classroom.helpers import T0, room_with_demo, student
from tests.classroom.test_quiz_answers import RIGHT, ask
from tests.classroom.test_quiz_peer import WRONG, vote

SECRET_NAME = "Zed-4471"  # a classmate whose answers nobody but the teacher may read


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance")})


@pytest.fixture
def lesson(app):
    """A room with a revealed question: Ada right, Zed wrong, "=cmd" (a formula) right."""
    with app.app_context():
        room = room_with_demo(at=rooms.now())
        token = rooms.open_room().token  # another room's token, for the refusals
        code = room.code
        ask(room, 5)
        vote(room, student(room, "Ada"), RIGHT)
        vote(room, student(room, SECRET_NAME), WRONG)
        vote(room, student(room, "=cmd"), RIGHT)
        quiz.reveal(room, 1, T0 + 1)
    return code, room_token(app, code), token


def room_token(app, code: str) -> str:
    """The room's token: rooms keep only its hash, so the test room is given a known one."""
    from server.classroom.models import ClassRoom
    from server.db import db

    with app.app_context():
        token = "t" * 32
        db.session.get(ClassRoom, code).token_hash = rooms.hash_token(token)
        db.session.commit()
    return token


def post(client, code, path="record.csv", **form):
    return client.post(f"/class/{code}/{path}?lang=en", data=form)


def test_the_teacher_downloads_the_record_as_csv_and_as_a_page(app, lesson):
    code, token, _other = lesson
    client = app.test_client()
    response = post(client, code, token=token, offset="480")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == f'attachment; filename="class-{code}.csv"'
    assert response.headers["Cache-Control"] == "no-store"
    body = response.get_data(as_text=True)
    assert body.startswith("\ufeff")  # a spreadsheet reads it as UTF-8
    table = list(csv.reader(io.StringIO(body[1:])))
    columns = ["section", "number", "item", "student", "first", "second", "right", "correct"]
    assert table[0] == [
        text(f"class.record.column.{name}", "en") for name in [*columns, "detail", "at"]
    ]
    lines = {row[3]: row for row in table[1:]}
    assert set(lines) == {"Ada", SECRET_NAME, "'=cmd"}  # a formula is kept as text
    assert [lines["Ada"][i] for i in (0, 1, 4, 6, 7)] == ["quiz", "1", "b3", "b3", "yes"]
    assert [lines[SECRET_NAME][i] for i in (4, 7)] == ["e3", "no"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", lines["Ada"][9])
    page = post(client, code, "record", token=token)
    assert page.status_code == 200 and "text/html" in page.content_type
    html = page.get_data(as_text=True)
    assert SECRET_NAME in html and "<td>=cmd</td>" in html and 'id="record-table"' in html
    zh = client.post(f"/class/{code}/record.csv?lang=zh", data={"token": token})
    assert "学生" in zh.get_data(as_text=True).splitlines()[0]


@pytest.mark.parametrize(
    "form",
    [{}, {"token": ""}, {"token": "t" * 31}, {"token": "x" * 5000}, {"token": "other"}],
)
@pytest.mark.parametrize("path", ["record.csv", "record"])
def test_without_the_rooms_token_nothing_is_read(app, lesson, form, path):
    code, _token, other = lesson
    form = {"token": other} if form.get("token") == "other" else form
    response = post(app.test_client(), code, path, **form)
    assert response.status_code == 403 and response.is_json
    assert response.get_json()["code"] == "bad-token"
    assert SECRET_NAME not in response.get_data(as_text=True)


def test_a_link_another_site_or_a_closed_room_reads_nothing(app, lesson):
    code, token, _other = lesson
    client = app.test_client()
    for path in ("record.csv", "record"):
        got = client.get(f"/class/{code}/{path}?token={token}")
        assert got.status_code == 405 and got.get_json()["code"] == "post-only"
        crossed = client.post(
            f"/class/{code}/{path}",
            data={"token": token},
            headers={"Origin": "https://evil.example"},
        )
        assert crossed.status_code == 403 and crossed.get_json()["code"] == "cross-origin"
    with app.app_context():
        rooms.close_room(rooms.find_room(code, ttl=10**10))
    gone = post(client, code, token=token)
    assert gone.status_code == 404 and gone.get_json()["code"] == "unknown-room"


def urls_of(app, code: str):
    """Every route of the app, its variables filled with the room's code (or a plain value)."""
    for rule in app.url_map.iter_rules():
        url = rule.rule
        for name in rule.arguments:
            url = re.sub(rf"<(?:[a-z]+:)?{name}>", code if name == "code" else "1", url)
        for method in sorted(rule.methods & {"GET", "POST"}):
            yield method, url


def test_a_student_reads_no_classmates_answer_at_any_url(app, lesson):
    code, _token, _other = lesson
    client = app.test_client()
    assert client.get(f"/class/{code}").status_code == 200  # a student's page, its cookie
    seen = 0
    for method, url in urls_of(app, code):
        if url.startswith("/static"):
            continue
        for query in ("", f"?code={code}&lang=en"):
            response = client.open(url + query, method=method, data={"code": code})
            seen += 1
            assert response.status_code < 500, (method, url)
            assert SECRET_NAME not in response.get_data(as_text=True), (method, url)
    assert seen > 60  # every route was tried
