"""A game's JSON (server/game/serialize.py): the fields docs/api.md names, from one source
for a game in play and for its replay."""

from __future__ import annotations

from datetime import UTC, datetime

from server.game import rules, serialize
from server.game.service import Loaded

T0 = 1000.0

# docs/api.md, "Game state", less the words server/web/api.py adds in the request's language
STATE = {
    "id", "rows", "cols", "closed", "status", "start", "path", "returned", "legal", "moves",
    "squares_left", "undos", "hints", "elapsed", "can_submit", "holes", "fixed_start", "puzzle",
    "level", "daily",
}  # fmt: skip
WORDS = {"message", "dead", "feasible", "stars"}
# docs/api.md, "The daily puzzle, replays and exports": GET /api/replays/<rid>
REPLAY = {
    "id", "rows", "cols", "closed", "holes", "start", "fixed_start", "puzzle", "path",
    "returned", "status", "moves", "seconds", "hints", "undos", "daily", "level", "created_at",
}  # fmt: skip


def won_puzzle_game() -> rules.GameState:
    """A 3x4 puzzle with a fixed start, won one second a move (an open tour of 3x4)."""
    state = rules.new_game(3, 4, False, start=0)
    for second, sq in enumerate((0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4)):
        rules.move(state, *divmod(sq, 4), T0 + second)
    assert state.won
    return state


def test_a_game_in_play_has_the_contracts_fields_without_its_words():
    state = rules.new_game(4, 5, True, holes=frozenset({7}), start=0)
    rules.move(state, 0, 0, T0)
    found = serialize.state_json(Loaded("game-id", state, scored=False), T0 + 4)
    assert found.keys() == STATE and not found.keys() & WORDS
    assert found["holes"] == [[1, 2]] and found["fixed_start"] == found["start"] == [0, 0]
    assert found["path"] == [[0, 0]] and found["puzzle"] == state.puzzle.code
    assert found["elapsed"] == 4.0 and found["can_submit"] is False
    assert found["legal"] == [[2, 1]]  # b3 (1, 2) is the hole


def test_a_replay_is_the_games_tour_under_its_own_id():
    state = won_puzzle_game()
    game = serialize.state_json(Loaded("game-id", state, scored=True), T0 + 99)
    made = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    replay = serialize.replay_json("replay-id", state, made)
    assert replay.keys() == REPLAY
    assert replay["id"] == "replay-id" and "game-id" not in replay.values()
    shared = REPLAY & STATE - {"id"}
    assert {key: replay[key] for key in shared} == {key: game[key] for key in shared}
    assert replay["seconds"] == game["elapsed"] == 11.0  # frozen at the win
    assert replay["created_at"] == "2026-01-02T03:04:05+00:00"
    assert game["can_submit"] is False  # already scored
