"""server.classroom.lab_messages: what the code lab's messages accept, and how they refuse."""

from __future__ import annotations

import pytest

from server.classroom.lab_messages import (
    SOURCE_MAX,
    LabCheckedMessage,
    LabExerciseMessage,
    LabSubmitMessage,
)
from server.classroom.lab_presets import PRESETS
from server.engine.board import Board
from server.engine.search import solve
from tests.classroom.helpers import refused

BOARD = {"rows": 6, "cols": 6, "start": [0, 0], "closed": False}


def test_a_preset_decides_the_board_and_the_goal():
    stored = LabExerciseMessage.model_validate({"preset": "python-sort", "rows": 99}).stored()
    assert stored == {
        "preset": "python-sort",
        "example": "article-001",
        "title": "class.lab.preset.python-sort.title",
        "prompt": "class.lab.preset.python-sort.prompt",
        "rows": 8,
        "cols": 8,
        "start": [0, 0],
        "holes": [],
        "closed": False,
        "limit": 100,
    }
    custom = LabExerciseMessage.model_validate({**BOARD, "holes": [35], "limit": 5}).stored()
    assert custom["title"] == "class.lab.preset.custom.title" and custom["prompt"] is None
    assert (custom["holes"], custom["limit"], custom["example"]) == ([35], 5, None)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_can_be_passed_by_the_lessons_programs(preset):
    """The corrected programs reach each preset's goal: nobody is handed the impossible."""
    exercise = PRESETS[preset]
    board = Board(exercise.rows, exercise.cols)
    start = exercise.start[0] * exercise.cols + exercise.start[1]
    ordering = "seed" if exercise.limit is None else "warnsdorff"
    result = solve(board, start, ordering=ordering)
    assert result.status == "found"
    if exercise.limit is not None:
        assert result.nodes + result.backtracks <= exercise.limit


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"preset": "no-such"}, "bad-exercise"),
        ({"preset": "x" * 999}, "bad-exercise"),
        ({**BOARD, "rows": 31}, "bad-board"),
        ({**BOARD, "rows": 2}, "bad-board"),
        ({**BOARD, "start": [6, 0]}, "bad-board"),
        ({**BOARD, "rows": 4, "cols": 4}, "bad-board"),  # theory: no tour of 4x4
        ({**BOARD, "closed": True, "rows": 5, "cols": 5}, "bad-board"),  # odd: never closed
        ({**BOARD, "holes": [0]}, "bad-holes"),  # the start
        ({**BOARD, "holes": [36]}, "bad-holes"),
        ({**BOARD, "limit": 0}, "bad-request"),
        ({**BOARD, "limit": True}, "bad-request"),
        ({**BOARD, "closed": "yes"}, "bad-request"),
        ([1, 2], "bad-request"),
    ],
)
def test_an_exercise_that_cannot_be_set_is_refused(payload, code):
    assert refused(LabExerciseMessage.model_validate, payload) == code


@pytest.mark.parametrize(
    ("source", "code"),
    [
        ("", "bad-source"),
        (" \n\t", "bad-source"),
        ("x" * (SOURCE_MAX + 1), "bad-source"),
        ("print(1)\x00", "bad-source"),
        ("print('\ud800')", "bad-request"),  # a lone surrogate: not text
        (b"print(1)", "bad-request"),
        (12, "bad-request"),
        (None, "bad-request"),
    ],
)
def test_a_source_that_is_not_a_short_text_is_refused(source, code):
    assert refused(LabSubmitMessage.model_validate, {"exercise": 1, "source": source}) == code


def test_a_source_of_the_longest_length_in_any_script_is_taken():
    source = "马" * SOURCE_MAX
    assert LabSubmitMessage.model_validate({"exercise": 1, "source": source}).source == source
    assert refused(LabSubmitMessage.model_validate, {"source": "x"}) == "bad-request"


@pytest.mark.parametrize(
    "change",
    [
        {"id": 0},
        {"id": "1"},
        {"found": 1},
        {"moves": -1},
        {"backtracks": 2.0},
        {"path": [0, "1"]},
        {"path": list(range(901))},
        {"path": None},
    ],
)
def test_a_malformed_run_report_is_a_bad_request(change):
    run = {"id": 1, "found": True, "closed": False, "moves": 1, "backtracks": 0, "path": [0]}
    assert refused(LabCheckedMessage.model_validate, {**run, **change}) == "bad-request"
