"""server.classroom.pacing: how far ahead of the class its search computes and members
are sent, by hand-worked figures."""

from __future__ import annotations

from server.classroom.pacing import (
    MAX_AHEAD,
    MIN_LEAD,
    PAUSED_AHEAD,
    STREAM_MAX_SPEED,
    end_total,
    lead,
    lookahead,
    streaming,
)


def state(playing: bool, speed: float | None, index: int = 100, end: dict | None = None) -> dict:
    return {"playing": playing, "speed": speed, "index": index, "end": end}


def test_members_get_every_event_unless_the_class_plays_fast():
    assert streaming(state(False, None))  # paused: whatever its speed
    assert streaming(state(False, 9_000.0))
    assert streaming(state(True, 1.0))
    assert streaming(state(True, STREAM_MAX_SPEED))
    assert not streaming(state(True, STREAM_MAX_SPEED + 1))  # keyframes
    assert not streaming(state(True, None))  # to the end as fast as the search goes


def test_the_search_computes_ahead_of_the_class():
    assert lookahead(state(False, 10.0)) == PAUSED_AHEAD == 200  # a question is ready
    assert lookahead(state(True, 4.0)) == 200  # at least that much
    assert lookahead(state(True, 300.0)) == 300  # a second of play
    assert lookahead(state(True, STREAM_MAX_SPEED)) == 500
    assert lookahead(state(True, 9_000.0)) == 0  # keyframes: computed up to the index only


def test_members_are_sent_about_a_second_ahead_only_while_the_class_plays():
    assert lead(state(False, 10.0)) == 0  # paused: a question can be asked right there
    assert lead(state(True, 0.5)) == MIN_LEAD == 2
    assert lead(state(True, 4.0)) == 4
    assert lead(state(True, 4.2)) == 5  # rounded up
    assert lead(state(True, 300.0)) == 300
    assert lead(state(True, 9_000.0)) == 0  # keyframes, never the events
    assert MAX_AHEAD == 2_000 >= lead(state(True, STREAM_MAX_SPEED))


def test_near_the_end_never_more_than_half_of_what_is_left():
    """A 64-event tour played at 300/s is not sent whole at once: whenever the teacher
    pauses, something is left to ask about."""
    assert lead(state(True, 300.0, index=0), end=64) == 32
    assert lead(state(True, 300.0, index=60), end=64) == 2
    assert lead(state(True, 300.0, index=63), end=64) == 0
    assert lead(state(True, 300.0, index=64), end=64) == 0
    assert lead(state(True, 4.0, index=0), end=64) == 4  # far from the end: a second's worth


def test_the_end_is_known_once_the_room_records_it():
    assert end_total(state(True, 4.0)) is None
    assert end_total(state(True, 4.0, end={"total": 57, "status": "found"})) == 57
