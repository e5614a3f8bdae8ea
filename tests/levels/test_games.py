"""Level games under the rules: holes are not squares, a fixed start is the only first move,
hints and the early warning see the shape."""

from __future__ import annotations

import pytest

from server.game import rules
from server.levels.catalogue import catalogue
from tests.tourcheck import assert_tour

LEVELS = catalogue().levels
SHAPED = next(lv for lv in LEVELS if lv.puzzle.start is not None and lv.puzzle.shape.holes)
FREE_SHAPE = next(lv for lv in LEVELS if lv.puzzle.start is None and lv.puzzle.shape.holes)


def game_of(level) -> rules.GameState:
    p = level.puzzle
    return rules.new_game(p.shape.rows, p.shape.cols, p.closed, holes=p.shape.holes, start=p.start)


def test_a_hole_is_never_a_legal_square():
    state = game_of(FREE_SHAPE)
    hole = min(FREE_SHAPE.puzzle.shape.holes)
    assert hole not in state.legal()
    with pytest.raises(rules.RuleError) as refused:
        rules.move(state, *divmod(hole, state.cols), now=0.0)
    assert (refused.value.code, refused.value.detail) == ("illegal-move", "hole")
    assert state.path == []


def test_a_fixed_start_is_the_only_first_move_and_the_random_one():
    state = game_of(SHAPED)
    start = SHAPED.puzzle.start
    assert state.legal() == [start]
    other = next(sq for sq in state.board.squares() if sq != start)
    with pytest.raises(rules.RuleError) as refused:
        rules.move(state, *divmod(other, state.cols), now=0.0)
    assert refused.value.detail == "fixed-start"
    rules.random_first_move(state, now=0.0)
    assert state.path == [start]


def test_the_hint_before_the_first_move_is_the_fixed_start():
    state = game_of(SHAPED)
    assert rules.ask_hint(state, seconds=5.0).next == SHAPED.puzzle.start


@pytest.mark.parametrize("level", [SHAPED, FREE_SHAPE], ids=lambda lv: lv.id)
def test_following_hints_wins_a_shaped_level(level):
    """Hints on the shape lead to a tour the independent checker accepts."""
    state = game_of(level)
    while not state.won:
        answer = rules.ask_hint(state, seconds=5.0)
        assert answer.verdict == "completable" and not state.dead
        rules.move(state, *divmod(answer.next, state.cols), now=1.0, check=5.0)
    p = level.puzzle
    holes = sorted(p.shape.holes)
    assert_tour(p.shape.rows, p.shape.cols, state.path, closed=p.closed, blocked=holes)
    assert state.hints == state.moves + 1


def test_a_dead_position_on_a_shape_is_warned():
    """Along the witness, the first move that leaves it for a dead end is warned: undo 1."""
    level = FREE_SHAPE
    cols = level.puzzle.shape.cols
    for k in range(1, len(level.witness) - 1):
        prefix = level.witness[:k]
        for trap in set(game_after(level, prefix).legal()) - {level.witness[k]}:
            trial = game_after(level, [*prefix, trap])
            if trial.dead:
                assert trial.dead["undo"] == 1 and trial.dead["exact"]
                assert rules.ask_hint(trial, seconds=5.0).verdict == "dead"
                return
    raise AssertionError(f"no trap along the witness of {level.id} ({cols} columns)")


def game_after(level, squares) -> rules.GameState:
    state = game_of(level)
    for sq in squares:
        rules.move(state, *divmod(sq, state.cols), now=0.0, check=5.0)
    return state
