"""The rules of play, without Flask: moves, winning, undo, restart and the early warning."""

from __future__ import annotations

import copy
import functools

import pytest

from server.engine.board import Board
from server.engine.hints import Hint, hint
from server.game import rules
from server.game.rules import GameState, RuleError
from tests.tourcheck import assert_tour

T0 = 1000.0  # the tests' clock


def witness(rows, cols, path, closed=False):
    """A full tour extending ``path``, from the engine (checked by tourcheck where used)."""
    result = hint(Board(rows, cols), path, closed=closed, time_limit=5.0)
    assert result.verdict == "completable", result
    return [*path, *result.witness]


def knight(a, b, cols):
    (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
    return sorted((abs(ra - rb), abs(ca - cb))) == [1, 2]


def completable(rows, cols, path, closed=False):
    """Plain exhaustive search, independent of the engine (small remainders only)."""
    squares, start = rows * cols, path[0]

    @functools.cache
    def go(last, free):
        if not free:
            return not closed or knight(last, start, cols)
        return any(go(nxt, free - {nxt}) for nxt in free if knight(last, nxt, cols))

    return go(path[-1], frozenset(range(squares)) - set(path))


def play(state, squares, t=T0):
    for sq in squares:
        rules.move(state, *divmod(sq, state.cols), t)


def test_board_size_is_checked():
    for rows, cols in ((2, 5), (5, 21), (0, 0)):
        with pytest.raises(RuleError) as err:
            rules.new_game(rows, cols, False)
        assert err.value.code == "bad-board"
    assert rules.new_game(3, 20, True).status == "new"


def test_first_move_places_the_knight_anywhere():
    state = rules.new_game(5, 5, False)
    assert state.legal() == list(range(25)) and state.moves == 0
    rules.move(state, 2, 2, T0)
    assert state.path == [12] and state.status == "playing" and state.moves == 0
    assert state.started_at == T0 and state.elapsed(T0 + 7) == 7.0
    assert sorted(state.legal()) == sorted(Board(5, 5).neighbours[12])


# (closed, row, col, detail); the games are a 5x5 open one and a 6x6 closed one, both at
# a5 then c4 (squares 0, then 7 on 5x5 and 8 on 6x6): a knight's move from the start.
ILLEGAL_MOVES = [
    (False, 5, 0, "off-board"),
    (False, -1, 2, "off-board"),
    (False, 0, 0, "visited"),
    (False, 1, 1, "not-knight"),
    (True, 6, 0, "off-board"),
    (True, 0, -1, "off-board"),
    (True, 0, 0, "visited"),  # back onto the start, 34 squares early: no closing move
    (True, 1, 2, "visited"),  # the knight's own square
    (True, 1, 1, "not-knight"),
]


@pytest.mark.parametrize(("closed", "row", "col", "detail"), ILLEGAL_MOVES)
def test_illegal_moves_change_nothing(closed, row, col, detail):
    state = rules.new_game(6, 6, True) if closed else rules.new_game(5, 5, False)
    play(state, [0, state.board.square(1, 2)])
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as err:
        rules.move(state, row, col, T0 + 1)
    assert (err.value.code, err.value.detail) == ("illegal-move", detail)
    assert state == before


def early_returns(tour, cols):
    """Lengths of the tour's prefixes (short of the whole) that end a knight's move from
    its start: where a closed game could be tempted to jump back early."""
    return [k for k in range(2, len(tour)) if knight(tour[k - 1], tour[0], cols)]


@pytest.mark.parametrize(
    ("rows", "cols", "holes", "start"),
    [(6, 6, (), None), (5, 6, (), None), (3, 10, (), None), (8, 8, (), None), (5, 5, (20,), 4)],
    ids=["6x6", "5x6", "3x10", "8x8", "5x5-holed-fixed-start"],
)
def test_an_early_jump_back_onto_the_start_is_no_closed_win(rows, cols, holes, start):
    """A closed game is won by the jump back onto the start only once every square is
    visited: before that the start is a visited square like any other."""
    board = Board(rows, cols, frozenset(holes))
    first = start if start is not None else 0
    found = hint(board, [first], closed=True, time_limit=5.0)
    assert found.verdict == "completable", found
    tour = [first, *found.witness]
    assert_tour(rows, cols, tour, closed=True, start=start, blocked=holes)
    lengths = early_returns(tour, cols)
    assert lengths[0] == 2  # the second square is always a knight's move from the first
    state = rules.new_game(rows, cols, True, holes=frozenset(holes), start=start)
    play(state, tour[:2])  # placed, one jump: the shortest way to be tempted
    for k in lengths:
        if k > 2:  # longer prefixes are set down as they are: the look-ahead is not tested
            holed = frozenset(holes)
            state = GameState(rows, cols, True, tour[:k], holes=holed, start=start)
        before = copy.deepcopy(state)
        with pytest.raises(RuleError) as err:
            rules.move(state, *divmod(first, cols), T0 + 5)
        assert (err.value.code, err.value.detail) == ("illegal-move", "visited"), k
        assert state == before and not state.won and not state.returned, k
        assert first not in state.legal() and state.status != "won", k
        assert state.squares_left == board.size - k


def test_random_first_move_only_first_and_from_a_hopeful_square():
    for seed in range(5):
        state = rules.new_game(5, 5, False)
        import random

        rules.random_first_move(state, T0, rng=random.Random(seed))
        row, col = divmod(state.path[0], 5)
        assert (row + col) % 2 == 0  # 5x5 open tours start on the corners' colour
    with pytest.raises(RuleError) as err:
        rules.random_first_move(state, T0)
    assert err.value.detail == "random-later"


def test_open_win_freezes_the_clock_and_ends_the_game():
    state = rules.new_game(5, 5, False)
    tour = witness(5, 5, [0])
    assert_tour(5, 5, tour, start=0)
    play(state, tour[:-1])
    assert state.status == "playing" and state.dead is None
    rules.move(state, *divmod(tour[-1], 5), T0 + 42)
    assert state.status == "won" and state.moves == 24 and state.squares_left == 0
    assert state.elapsed(T0 + 500) == 42.0 and state.legal() == []
    for action in (
        lambda: rules.move(state, 0, 0, T0),
        lambda: rules.undo(state, 1),
        lambda: rules.restart(state, T0),
        lambda: rules.ask_hint(state),
    ):
        with pytest.raises(RuleError) as err:
            action()
        assert err.value.code == "game-over"


def test_closed_win_needs_the_return_move():
    state = rules.new_game(6, 6, True)
    tour = witness(6, 6, [0], closed=True)
    assert_tour(6, 6, tour, closed=True, start=0)
    play(state, tour)
    assert state.status == "playing" and state.legal() == [0] and not state.won
    assert state.moves == 35
    with pytest.raises(RuleError):
        rules.move(state, *divmod(tour[3], 6), T0)
    rules.move(state, 0, 0, T0 + 9)
    assert state.status == "won" and state.returned and state.moves == 36
    assert state.path == tour and state.elapsed(T0 + 99) == 9.0


def test_closed_mode_all_visited_without_return_is_stuck():
    tour = witness(5, 5, [0])  # 5x5 has no closed tour: its open tours cannot close
    state = GameState(5, 5, True, path=tour[:-1], started_at=T0)
    rules.move(state, *divmod(tour[-1], 5), T0)
    assert state.status == "stuck" and state.legal() == [] and not state.won
    assert state.dead is not None
    with pytest.raises(RuleError) as err:
        rules.move(state, 0, 0, T0)
    assert err.value.detail == "not-knight"


def test_stuck_with_squares_left():
    state = rules.new_game(5, 5, False)
    play(state, [4, 7, 18, 11, 0])  # a5's only neighbours are both visited
    assert state.status == "stuck" and state.legal() == []
    assert state.dead is not None and state.dead["code"] == "stuck"
    assert state.dead["undo"] >= 1


def test_undo_and_its_limits():
    state = rules.new_game(5, 5, False)
    with pytest.raises(RuleError) as err:
        rules.undo(state, 1)
    assert (err.value.code, err.value.detail) == ("bad-undo", "none")
    tour = witness(5, 5, [0])
    play(state, tour[:6])
    for bad in (0, -1, 6):
        with pytest.raises(RuleError) as err:
            rules.undo(state, bad)
        assert err.value.code == "bad-undo" and err.value.params == {"moves": 5}
    rules.undo(state, 2)
    assert state.path == tour[:4] and state.undos == 2 and state.moves == 3
    rules.undo(state, 3)
    assert state.path == tour[:1] and state.undos == 5


def test_restart_keeps_the_start_and_the_counts():
    state = rules.new_game(5, 5, False)
    rules.restart(state, T0)  # nothing placed yet: nothing to do
    assert state.path == []
    tour = witness(5, 5, [0])
    play(state, tour[:5])
    rules.ask_hint(state)
    rules.undo(state, 1)
    rules.restart(state, T0 + 30)
    assert state.path == [0] and state.started_at == T0 + 30
    assert state.hints == 1 and state.undos == 1 and state.status == "playing"


def test_hint_is_counted_and_points_along_a_tour():
    state = rules.new_game(5, 5, False)
    answer = rules.ask_hint(state)  # before placing: a start square
    assert answer.next is not None and state.hints == 1
    rules.move(state, *divmod(answer.next, 5), T0)
    answer = rules.ask_hint(state)
    assert answer.verdict == "completable" and answer.next in state.legal()
    assert state.hints == 2 and state.good_until == 1


def _dead_detour(rows, cols, prefix, depth):
    """The first knight path extending ``prefix`` by ``depth`` moves that is dead, not stuck."""
    visited = set(prefix)

    def extend(path):
        if len(path) == len(prefix) + depth:
            yield list(path)
            return
        for nxt in Board(rows, cols).neighbours[path[-1]]:
            if nxt not in visited:
                visited.add(nxt)
                yield from extend([*path, nxt])
                visited.discard(nxt)

    for path in extend(list(prefix)):
        board = Board(rows, cols)
        free = [n for n in board.neighbours[path[-1]] if n not in path]
        if free and not completable(rows, cols, path):
            last_good = max(k for k in range(1, len(path) + 1) if completable(rows, cols, path[:k]))
            if len(path) - last_good >= 2:
                return path, len(path) - last_good
    raise AssertionError("no detour found")


def test_early_warning_counts_the_moves_back_to_the_last_good_position():
    tour = witness(5, 5, [0])
    path, expected_undo = _dead_detour(5, 5, tour[:14], 4)
    state = rules.new_game(5, 5, False)
    play(state, path)
    assert state.status == "playing"
    assert state.dead is not None and state.dead["undo"] == expected_undo
    assert state.dead["code"] and state.dead["reason"]
    rules.undo(state, expected_undo - 1)  # still one move too far
    assert state.dead is not None and state.dead["undo"] == 1
    rules.undo(state, 1)
    assert state.dead is None
    assert completable(5, 5, state.path)


def test_warning_undo_is_none_when_the_start_itself_is_hopeless():
    state = rules.new_game(5, 5, False)
    rules.move(state, 0, 1, T0)  # the minority colour: no open tour starts here
    assert state.dead is not None and state.dead["undo"] is None
    assert not state.feasible().possible and state.feasible().code == "colour"


def test_warning_walks_back_over_positions_never_checked():
    tour = witness(5, 5, [0])
    path, expected_undo = _dead_detour(5, 5, tour[:14], 4)
    state = GameState(5, 5, False, path=list(path), started_at=T0)  # no checks along the way
    rules.assess(state)
    assert state.dead["undo"] == expected_undo
    assert state.good_until == len(path) - expected_undo
    assert state.dead_from == state.good_until + 1 and state.dead["exact"]


def test_no_warning_when_the_engine_runs_out_of_time(monkeypatch):
    def too_slow(board, path, *, closed=False, time_limit=1.0):
        return Hint("unknown", None, None, "no answer", "time", {"seconds": time_limit})

    monkeypatch.setattr(rules, "hint", too_slow)
    state = rules.new_game(5, 5, False)
    play(state, [4, 7, 18, 11])
    assert state.dead is None and state.good_until == 0 and state.dead_from is None
