"""A won game's tour checked again before it is ranked (server/game/audit.py): real tours
pass, and every way a stored state can claim a win it did not make is refused."""

from __future__ import annotations

import pytest

from server.game import audit
from server.game.rules import GameState, RuleError
from tests.tourcheck import assert_tour

# Tours written out here (found once by the engine) and passed by the independent checker.
OPEN_3X4 = [0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4]  # from the top-left corner, square 0
HOLED_3X4 = [5, 3, 10, 4, 2, 9, 7, 1, 8, 6]  # 3x4 without two opposite corners
HOLED_3X4_HOLES = frozenset({0, 11})
CLOSED_6X6 = [
    0, 8, 4, 17, 28, 32, 24, 20, 31, 18, 7, 3, 11, 15, 2, 6, 19, 30,
    26, 34, 23, 10, 21, 29, 33, 25, 12, 1, 14, 22, 35, 27, 16, 5, 9, 13,
]  # fmt: skip
# a 6x6 open tour whose last square (27) is no knight's move from its first
OPEN_6X6 = [
    0, 8, 4, 17, 28, 32, 24, 13, 2, 6, 19, 30, 26, 34, 23, 10, 21, 29,
    33, 25, 12, 1, 9, 5, 16, 20, 31, 18, 7, 15, 11, 3, 14, 22, 35, 27,
]  # fmt: skip


def won(rows, cols, path, *, closed=False, holes=frozenset(), start=None) -> GameState:
    return GameState(rows, cols, closed, path=list(path), returned=closed, holes=holes, start=start)


def test_the_tours_written_here_are_tours():
    assert_tour(3, 4, OPEN_3X4)
    assert_tour(3, 4, HOLED_3X4, blocked=HOLED_3X4_HOLES)
    assert_tour(6, 6, CLOSED_6X6, closed=True)
    assert_tour(6, 6, OPEN_6X6)
    with pytest.raises(AssertionError, match="not a knight move"):
        assert_tour(6, 6, OPEN_6X6, closed=True)


@pytest.mark.parametrize(
    "state",
    [
        won(3, 4, OPEN_3X4),
        won(3, 4, OPEN_3X4, start=0),
        won(3, 4, HOLED_3X4, holes=HOLED_3X4_HOLES),
        won(6, 6, CLOSED_6X6, closed=True),
        won(6, 6, CLOSED_6X6, closed=True, start=0),
    ],
    ids=["open", "fixed-start", "holes", "closed", "closed-fixed-start"],
)
def test_a_real_tour_passes(state):
    assert state.won and audit.is_tour(state)
    audit.check_won("g", state)


# Each breaks one condition only, so that each of the audit's checks is needed.
FORGERIES = {
    # closed: the knight jumped back onto the start with squares left (the rules' win check
    # once forgot the length); the rules then call it won
    "closed-early-return": won(6, 6, CLOSED_6X6[:2], closed=True),
    "closed-half-way": won(6, 6, CLOSED_6X6[:18], closed=True),
    # every square once by knight moves, but the last one is no knight's move from the start
    "closed-no-way-back": won(6, 6, OPEN_6X6, closed=True),
    "closed-without-the-return": GameState(6, 6, True, path=list(CLOSED_6X6)),
    # full length: the rules' open win check counts squares only
    "open-not-knight-moves": won(3, 4, range(12)),
    "open-repeats-a-square": won(3, 4, [*OPEN_3X4[:-1], 3]),  # 10 -> 3 is a knight move
    "open-off-the-board": won(3, 4, [*OPEN_3X4[:-1], 12]),  # "12" is a knight move from 10
    "open-on-a-hole": won(3, 4, OPEN_3X4[:-1], holes=frozenset({6})),  # skips 4, takes 6
    "open-from-another-start": won(3, 4, OPEN_3X4, start=4),
    "open-returned": GameState(3, 4, False, path=list(OPEN_3X4), returned=True),
}


@pytest.mark.parametrize("state", FORGERIES.values(), ids=FORGERIES.keys())
def test_a_forged_win_is_refused(state, caplog):
    assert not audit.is_tour(state)
    with pytest.raises(RuleError) as err:
        audit.check_won("forged-game", state, "replay")
    assert (err.value.code, err.value.detail) == ("not-won", "replay")
    if state.won:  # the rules were fooled: the server says so in its log
        assert "forged-game" in caplog.text
