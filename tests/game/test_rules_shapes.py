"""The rules on boards with holes and on puzzles with a fixed start, without Flask."""

from __future__ import annotations

import functools

import pytest

from server.engine.shape import parse_puzzle
from server.engine.theory import Verdict
from server.game import rules
from server.game.rules import RuleError
from tests.tourcheck import assert_tour
from tests.witness import checked_witness

T0 = 1000.0


def game_of(code: str) -> rules.GameState:
    puzzle = parse_puzzle(code)
    shape = puzzle.shape
    return rules.new_game(
        shape.rows, shape.cols, puzzle.closed, holes=shape.holes, start=puzzle.start
    )


def witness_of(code: str) -> list[int]:
    return checked_witness(code)[1]


def knight(a, b, cols):
    (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
    return sorted((abs(ra - rb), abs(ca - cb))) == [1, 2]


def completable(rows, cols, holes, path, closed=False):
    """Plain exhaustive search over the open squares, independent of the engine."""
    start = path[0]

    @functools.cache
    def go(last, free):
        if not free:
            return not closed or knight(last, start, cols)
        return any(go(nxt, free - {nxt}) for nxt in free if knight(last, nxt, cols))

    return go(path[-1], frozenset(range(rows * cols)) - set(holes) - set(path))


def play(state, squares, t=T0):
    for sq in squares:
        rules.move(state, *divmod(sq, state.cols), t)


def test_holes_are_neither_legal_nor_counted():
    state = game_of("5x5:c3.o")
    assert state.holes == {12} and state.board.size == 24
    assert 12 not in state.legal() and len(state.legal()) == 24
    assert state.squares_left == 24


def test_a_move_onto_a_hole_is_refused_and_changes_nothing():
    state = game_of("5x5:c3.o")
    with pytest.raises(RuleError) as err:
        rules.move(state, 2, 2, T0)
    assert (err.value.code, err.value.detail) == ("illegal-move", "hole")
    assert state.path == [] and state.started_at is None
    rules.move(state, 0, 1, T0)  # b5: c3 is a knight's move away, but a hole
    with pytest.raises(RuleError) as err:
        rules.move(state, 2, 2, T0)
    assert err.value.detail == "hole" and state.path == [1]
    assert 12 not in state.legal()


def test_a_fixed_start_is_the_only_first_move():
    state = game_of("5x5:a1.c.e5")
    start = state.board.parse_name("e5")
    assert state.start == start and state.legal() == [start]
    with pytest.raises(RuleError) as err:
        rules.move(state, 2, 2, T0)
    assert (err.value.code, err.value.detail) == ("illegal-move", "fixed-start")
    assert err.value.params == {"start": "e5"} and state.path == []
    rules.random_first_move(state, T0)
    assert state.path == [start]


def test_open_win_needs_every_open_square():
    code = "4x5:a1.o"
    tour = witness_of(code)
    state = game_of(code)
    play(state, tour[:-1])
    assert state.status == "playing" and state.squares_left == 1
    play(state, tour[-1:], T0 + 30)
    assert state.won and state.status == "won" and state.moves == 18
    assert state.elapsed(T0 + 99) == 30.0
    assert_tour(4, 5, state.path, blocked=state.holes)


def test_closed_win_on_a_shape_needs_the_return():
    code = "5x5:a1.c"
    tour = witness_of(code)
    state = game_of(code)
    play(state, tour)
    assert not state.won and state.legal() == [tour[0]]
    rules.move(state, *divmod(tour[0], 5), T0 + 5)
    assert state.won and state.moves == 24
    assert_tour(5, 5, state.path, closed=True, blocked=state.holes)


@pytest.mark.parametrize(
    ("holes", "start", "code"),
    [
        (frozenset(range(25)), None, "shape-empty"),
        (frozenset({25}), None, "shape-malformed"),
        (frozenset({0}), 0, "start-on-hole"),
        (frozenset(), 25, "start-off-board"),
    ],
)
def test_bad_shapes_are_refused_with_their_codes(holes, start, code):
    with pytest.raises(RuleError) as err:
        rules.new_game(5, 5, False, holes=holes, start=start)
    assert err.value.code == code


def test_cells_off_the_board_are_malformed():
    assert rules.cells_to_squares(4, 5, [[0, 0], [3, 4], [0, 0]]) == {0, 19}
    for cell in ([4, 0], [0, 5], [-1, 2]):
        with pytest.raises(RuleError) as err:
            rules.cells_to_squares(4, 5, [cell])
        assert err.value.code == "shape-malformed"


def test_feasible_is_the_engine_verdict_on_shapes_and_theory_on_rectangles():
    assert isinstance(rules.new_game(5, 5, False).feasible(), Verdict)
    assert isinstance(game_of("5x5.o.e5").feasible(), Verdict)  # a fixed start, no holes
    closed = game_of("4x5:a1.c").feasible()
    assert closed.tour is False and closed.code == "colour"
    fine = game_of("5x5:c3.o").feasible()
    assert fine.tour is True
    state = game_of("4x5:a1.o")
    hopeless = [sq for sq in state.board.squares() if not completable(4, 5, state.holes, [sq])]
    assert hopeless
    rules.move(state, *divmod(hopeless[0], 5), T0)
    assert state.feasible().tour is False and state.feasible().code
    assert state.dead is not None and state.dead["undo"] is None


def test_hint_on_a_fixed_start_points_at_it_and_along_a_tour():
    state = game_of("5x5:a1.c.e5")
    answer = rules.ask_hint(state)
    assert answer.verdict == "completable" and answer.next == state.start
    rules.move(state, *divmod(answer.next, 5), T0)
    for _ in range(5):
        answer = rules.ask_hint(state)
        assert answer.verdict == "completable" and answer.next not in state.holes
        rules.move(state, *divmod(answer.next, 5), T0)
    assert completable(5, 5, state.holes, state.path, closed=True)
    assert state.hints == 6


def _dead_detour(rows, cols, holes, prefix, depth):
    """A path extending ``prefix`` by ``depth`` moves that is dead but not stuck, and the
    exact number of moves back to its last completable prefix (brute force)."""
    neighbours = rules.board_for(rows, cols, frozenset(holes)).neighbours

    def extend(path):
        if len(path) == len(prefix) + depth:
            yield list(path)
            return
        for nxt in neighbours[path[-1]]:
            if nxt not in path:
                yield from extend([*path, nxt])

    for path in extend(list(prefix)):
        free = [n for n in neighbours[path[-1]] if n not in path]
        if free and not completable(rows, cols, holes, path):
            good = max(k for k in range(1, len(path)) if completable(rows, cols, holes, path[:k]))
            if len(path) - good >= 2:
                return path, len(path) - good
    raise AssertionError("no detour found")


def test_early_warning_undo_n_on_a_shape_matches_brute_force():
    code = "5x5:c3.o"
    tour = witness_of(code)
    state = game_of(code)
    path, expected = _dead_detour(5, 5, state.holes, tour[:6], 3)
    play(state, path)
    assert state.status == "playing"
    assert state.dead is not None and state.dead["undo"] == expected and state.dead["exact"]
    rules.undo(state, expected - 1)
    assert state.dead is not None and state.dead["undo"] == 1
    rules.undo(state, 1)
    assert state.dead is None and completable(5, 5, state.holes, state.path)


def test_restart_keeps_the_fixed_start():
    state = game_of("5x5:a1.c.e5")
    tour = witness_of("5x5:a1.c.e5")
    play(state, tour[:6])
    rules.restart(state, T0 + 9)
    assert state.path == [state.start] and state.started_at == T0 + 9
