"""server.classroom.puzzle_messages: the teacher's ``puzzle`` and ``clear_attempts``, the
students' ``solve`` and ``solved``."""

from __future__ import annotations

from server.classroom.puzzle_messages import (
    ClearAttemptsMessage,
    PuzzleMessage,
    SolvedMessage,
    SolveMessage,
)
from tests.classroom.helpers import refused


def test_a_puzzle_code_decides_every_field():
    message = PuzzleMessage.model_validate({"puzzle": "6x6~IAAAAAA.c.a1", "rows": 3})
    assert message.stored() == {
        "rows": 6,
        "cols": 6,
        "closed": True,
        "start": [5, 0],
        "holes": [5],
        "code": "6x6~IAAAAAA.c.a1",
    }
    assert PuzzleMessage.model_validate({"puzzle": "5x5.o"}).stored()["start"] is None
    for code in ("zz", "5x5~AAAA.o", "99x99.o", "x" * 300):
        assert refused(PuzzleMessage.model_validate, {"puzzle": code}) == "bad-puzzle", code
    fields = {"rows": 5, "cols": 5, "closed": False, "start": None}
    assert refused(PuzzleMessage.model_validate, {**fields, "puzzle": 5}) == "bad-request"


def test_a_puzzle_by_its_fields_gets_its_canonical_code():
    fields = {"rows": 5, "cols": 5, "closed": False, "start": [4, 0]}
    assert PuzzleMessage.model_validate(fields).stored()["code"] == "5x5.o.a1"
    holed = PuzzleMessage.model_validate({**fields, "holes": [12]}).stored()
    assert holed["holes"] == [12] and holed["code"] != "5x5.o.a1"
    assert (
        PuzzleMessage.model_validate({"puzzle": holed["code"]}).stored() == holed
    )  # the code round-trips
    for bad, code in (
        ({"holes": [20]}, "bad-holes"),  # the start's square
        ({"holes": [12, 12]}, "bad-holes"),
        ({"holes": [25]}, "bad-holes"),
        ({"start": [5, 0]}, "bad-request"),
        ({"rows": 2}, "bad-puzzle"),
        ({"start": "a1"}, "bad-request"),
    ):
        assert refused(PuzzleMessage.model_validate, {**fields, **bad}) == code, bad
    no_start = {k: v for k, v in fields.items() if k != "start"}
    assert refused(PuzzleMessage.model_validate, no_start) == "bad-request"  # null, not absent


def test_solving_names_and_games_are_checked():
    assert SolveMessage.model_validate({}).name is None
    assert SolveMessage.model_validate({"name": "Ann"}).name == "Ann"
    for name in (5, ["Ann"]):  # not text: a bad request naming the field
        assert refused(SolveMessage.model_validate, {"name": name}) == "bad-request"
    assert SolvedMessage.model_validate({"game": "abc"}).game == "abc"
    for game in ("é", "x" * 65, 5, None):
        assert refused(SolvedMessage.model_validate, {"game": game}) == "bad-request", game


def test_attempts_are_given_back_to_one_student_or_all():
    assert ClearAttemptsMessage.model_validate({}).student is None
    assert ClearAttemptsMessage.model_validate({"student": "ab12"}).student == "ab12"
    for student in ("", "x" * 17, "é"):  # no student's id
        assert refused(ClearAttemptsMessage.model_validate, {"student": student}) == (
            "unknown-student"
        )
    assert refused(ClearAttemptsMessage.model_validate, {"student": 5}) == "bad-request"
