"""server.classroom.puzzles: the class puzzle, the students' attempts, the leaderboard."""

from __future__ import annotations

import json

import pytest

from server.classroom import puzzles
from server.classroom.messages import ClassError
from server.classroom.models import ClassEntry
from server.db import db
from server.engine.board import Board
from server.engine.search import solve
from server.game import rules
from server.game import service as games
from server.game.models import Game
from tests.classroom.helpers import T0, new_room, play_through, refused, student

FIVE = {"rows": 5, "cols": 5, "closed": False, "start": [4, 0]}


def test_the_class_puzzle_and_its_leaderboard(ctx):
    room = new_room()
    ann_student = student(room, " <b>Ann</b> ")
    with pytest.raises(ClassError) as err:
        puzzles.start_puzzle_game(room, ann_student, T0)
    assert err.value.code == "no-puzzle"
    puzzle = puzzles.set_puzzle(room, FIVE, T0)
    assert puzzle == {**FIVE, "holes": [], "code": "5x5.o.a1", "seq": 1}
    assert puzzles.puzzle_of(room) == puzzle
    ann = puzzles.start_puzzle_game(room, ann_student, T0 + 1)
    bob = puzzles.start_puzzle_game(room, student(room, "Bob"), T0 + 2)
    assert ann["name"] == "<b>Ann</b>" and ann["puzzle"] == puzzle  # kept as text, trimmed
    state = games.load(ann["game"]).state
    assert state.path == [20] and (state.rows, state.cols, state.closed) == (5, 5, False)
    with pytest.raises(ClassError) as err:  # claimed too early
        puzzles.record_solution(room, ann["game"], T0 + 3)
    assert err.value.code == "not-solved"
    assert puzzles.leaderboard(room)["trying"] == 2

    tour = solve(Board(5, 5), 20).tour
    play_through(ann["game"], tour, 5)
    entry = puzzles.record_solution(room, ann["game"], T0 + 31)
    assert entry["seconds"] == 29.0 and entry["moves"] == 24 and entry["name"] == "<b>Ann</b>"
    assert puzzles.record_solution(room, ann["game"], T0 + 99) == entry  # once
    board = puzzles.leaderboard(room)
    assert (board["solved"], board["trying"]) == (1, 2)
    assert board["entries"] == [{"rank": 1, **entry}] and board["puzzle"] == puzzle

    # a game of the right board but not handed out in this room does not count
    stray = games.create_game(5, 5, False).id
    with pytest.raises(ClassError) as err:
        puzzles.record_solution(room, stray, T0)
    assert err.value.code == "unknown-entry"
    with pytest.raises(ClassError) as err:
        puzzles.record_solution(room, "no-such-game", T0)
    assert err.value.code == "unknown-entry"
    # neither does an attempt at an earlier puzzle
    puzzles.set_puzzle(room, {"rows": 6, "cols": 6, "closed": True, "start": [0, 1]}, T0 + 40)
    board = puzzles.leaderboard(room)
    assert (board["solved"], board["trying"], board["puzzle"]["seq"]) == (0, 0, 2)
    play_through(bob["game"], tour, 5)
    for game in (bob["game"], ann["game"]):
        with pytest.raises(ClassError) as err:
            puzzles.record_solution(room, game, T0 + 41)
        assert err.value.code == "unknown-entry"
    assert puzzles.leaderboard(room)["entries"] == []


def test_unaided_solutions_rank_before_hinted_ones(ctx):
    """A quick run that followed hints does not beat a slower one that did not."""
    room = new_room()
    puzzles.set_puzzle(room, FIVE, T0)
    tour = solve(Board(5, 5), 20).tour
    players = {
        name: puzzles.start_puzzle_game(room, student(room, name), T0)
        for name in ("Hal", "Una", "Ida")
    }
    games.change(players["Hal"]["game"], lambda state: rules.ask_hint(state))  # one hint
    for _ in range(2):
        games.change(players["Ida"]["game"], lambda state: rules.ask_hint(state))
    for name, finished in (("Hal", T0 + 10), ("Ida", T0 + 5), ("Una", T0 + 50)):
        play_through(players[name]["game"], tour, 5, finished)
        puzzles.record_solution(room, players[name]["game"], finished + 1)
    entries = puzzles.leaderboard(room)["entries"]
    assert [(e["rank"], e["name"], e["seconds"], e["hints"]) for e in entries] == [
        (1, "Una", 50.0, 0),  # the slowest, but unaided
        (2, "Ida", 5.0, 2),  # then the hinted runs, fastest first
        (3, "Hal", 10.0, 1),
    ]


def test_a_student_has_one_line_their_best(ctx):
    room = new_room()
    puzzles.set_puzzle(room, FIVE, T0)
    tour = solve(Board(5, 5), 20).tour
    ann = student(room, "Ann")
    slow = puzzles.start_puzzle_game(room, ann, T0)
    fast = puzzles.start_puzzle_game(room, ann, T0 + 100)
    play_through(slow["game"], tour, 5, T0 + 60)
    play_through(fast["game"], tour, 5, T0 + 110)
    puzzles.record_solution(room, slow["game"], T0 + 61)
    puzzles.record_solution(room, fast["game"], T0 + 111)
    board = puzzles.leaderboard(room)
    assert [(e["name"], e["seconds"]) for e in board["entries"]] == [("Ann", 10.0)]
    assert (board["solved"], board["trying"]) == (1, 2)
    assert puzzles.solver_key(db.session.get(ClassEntry, 1)) == f"student:{ann.id}"


def test_the_leaderboard_shows_the_first_fifty(ctx):
    """Attempts made before students were kept have a name only: told apart by it."""
    room = new_room()
    puzzles.set_puzzle(room, FIVE, T0)
    for n in range(puzzles.LEADERBOARD_SIZE + 2):
        db.session.add(
            ClassEntry(
                code=room.code, puzzle_seq=1, game_id=f"g{n}", student_id=None,
                name=f"Old {n}", started_at=T0, solved_at=T0 + n, seconds=float(n), moves=24,
                hints=0, undos=0,
            )
        )  # fmt: skip
    db.session.add(
        ClassEntry(
            code=room.code, puzzle_seq=1, game_id="again", student_id=None, name="OLD 0",
            started_at=T0, solved_at=T0 + 99, seconds=99.0, moves=24, hints=0, undos=0,
        )
    )  # fmt: skip
    db.session.commit()
    board = puzzles.leaderboard(room)
    assert board["solved"] == puzzles.LEADERBOARD_SIZE + 2 and board["trying"] == 53
    assert len(board["entries"]) == puzzles.LEADERBOARD_SIZE
    assert [e["name"] for e in board["entries"][:2]] == ["Old 0", "Old 1"]
    assert board["entries"][-1]["rank"] == puzzles.LEADERBOARD_SIZE


def test_a_puzzle_with_a_free_start_and_holes(ctx):
    room = new_room()
    puzzle = puzzles.set_puzzle(room, {"puzzle": "5x5~AAAAAA.o"}, T0)
    assert puzzle["start"] is None and puzzle["holes"] == [] and puzzle["code"] == "5x5.o"
    holed = {"rows": 5, "cols": 5, "closed": False, "start": None, "holes": [12]}
    puzzle = puzzles.set_puzzle(room, holed, T0)
    assert puzzle["holes"] == [12] and puzzle["seq"] == 2
    game = puzzles.start_puzzle_game(room, student(room, "Ann"), T0)
    state = games.load(game["game"]).state
    assert state.path == [] and state.holes == frozenset({12})  # each student picks the start
    tour = solve(Board(5, 5, (12,)), 4).tour  # from a square of the student's own choosing
    games.change(game["game"], lambda s: rules.move(s, 0, 4, T0 + 1))
    play_through(game["game"], tour[:-1], 5)
    with pytest.raises(ClassError) as err:  # one square left
        puzzles.record_solution(room, game["game"], T0 + 31)
    assert err.value.code == "not-solved"
    play_through(game["game"], tour[-2:], 5)
    entry = puzzles.record_solution(room, game["game"], T0 + 31)
    assert entry["moves"] == games.load(game["game"]).state.moves


def test_puzzle_input_is_checked(ctx):
    room = new_room()
    good = {"rows": 6, "cols": 6, "closed": True, "start": [0, 1]}
    for bad in (
        {"rows": 2},
        {"cols": 21},
        {"rows": True},
        {"closed": 1},
        {"start": [6, 0]},
        {"start": [0]},
        {"start": "b1"},
        {"start": [0, True]},
    ):
        code = refused(puzzles.set_puzzle, room, {**good, **bad}, T0)
        assert code == ("bad-puzzle" if bad in ({"rows": 2}, {"cols": 21}) else "bad-request")
    assert puzzles.puzzle_of(room) is None  # nothing was handed out
    assert puzzles.set_puzzle(room, good, T0)["seq"] == 1
    assert puzzles.set_puzzle(room, None, T0) is None
    assert puzzles.leaderboard(room) == {"puzzle": None, "entries": [], "trying": 0, "solved": 0}


def refused_game():
    raise ClassError("rate-limited", "class.error.rate-limited.games", seconds=9)


def test_attempts_are_a_students_until_the_teacher_clears_them(ctx):
    room = new_room()
    puzzles.set_puzzle(room, {"rows": 5, "cols": 5, "closed": False, "start": [0, 0]}, T0)
    ann, bob = student(room, "Ann"), student(room, "Bob")
    for _ in range(2):
        puzzles.start_puzzle_game(room, ann, T0, max_attempts=2)
    with pytest.raises(ClassError) as err:
        puzzles.start_puzzle_game(room, ann, T0, max_attempts=2)
    assert (err.value.code, err.value.key) == ("full", "class.error.full.attempts")
    assert err.value.params == {"max": 2}
    assert db.session.query(ClassEntry).count() == 2
    puzzles.start_puzzle_game(room, bob, T0, max_attempts=2)  # his own
    # refused by the game limits: the attempt is not counted
    with pytest.raises(ClassError) as err:
        puzzles.start_puzzle_game(room, bob, T0, max_attempts=2, admit=refused_game)
    assert err.value.code == "rate-limited"
    puzzles.start_puzzle_game(room, bob, T0, max_attempts=2)
    assert puzzles.clear_attempts(room, ann.id) == 1
    puzzles.start_puzzle_game(room, ann, T0, max_attempts=2)
    assert puzzles.clear_attempts(room) == 2  # everyone who had some
    with pytest.raises(ClassError) as err:
        puzzles.clear_attempts(room, "nobody")
    assert err.value.code == "unknown-student"
    # a new puzzle counts from 0
    puzzles.clear_attempts(room)
    for _ in range(2):
        puzzles.start_puzzle_game(room, ann, T0, max_attempts=2)
    puzzles.set_puzzle(room, {"rows": 5, "cols": 5, "closed": True, "start": [0, 0]}, T0)
    puzzles.start_puzzle_game(room, ann, T0, max_attempts=2)
    assert puzzles.MAX_ATTEMPTS == 5  # what the protocol's `full` promises (docs/protocol.md)


@pytest.mark.parametrize(
    "path",
    # from the puzzle's start (square 20), every square once but not by knight moves
    [[20, *(square for square in range(25) if square != 20)]],
    ids=["no-knight-moves"],
)
def test_a_forged_win_is_not_ranked(ctx, path):
    """A state that says "won" (written into the games table, as no move could make it)
    is checked again on its path before it is ranked (server/game/audit.py)."""
    room = new_room()
    puzzles.set_puzzle(room, FIVE, T0)
    ann = puzzles.start_puzzle_game(room, student(room, "Ann"), T0 + 1)
    game = db.session.get(Game, ann["game"])
    game.path, game.finished_at = json.dumps(path), T0 + 2
    db.session.commit()
    with pytest.raises(ClassError) as err:
        puzzles.record_solution(room, ann["game"], T0 + 3)
    assert err.value.code == "not-solved"
    assert puzzles.leaderboard(room)["entries"] == []
