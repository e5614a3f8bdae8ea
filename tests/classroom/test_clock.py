"""server.classroom.clock: the demo's settings, the teacher's controls, the lesson, and
where the class is (its index now, held at an open question)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import update

from server.classroom import clock, lease, rooms
from server.classroom.messages import ClassError
from server.classroom.models import ClassRoom
from server.classroom.room_messages import MAX_INDEX, MAX_SPEED
from server.db import db
from server.engine.walker import WalkerState
from tests.classroom.helpers import SETTINGS, T0, new_room, refused, room_with_demo

CONTROL = {"seq": 1, "gen": 1, "index": 100, "playing": True, "speed": 50}


def test_settings_start_a_new_generation(ctx):
    room = new_room()
    settings = {
        "seq": 1,
        "rows": 6,
        "cols": 6,
        "start": [0, 1],
        "algorithm": "seed",
        "closed": True,
        "pruning": True,
        "junk": 1,
    }
    state = clock.set_settings(room, settings, T0 + 1)
    assert state["gen"] == 2 and state["index"] == 0 and state["playing"] is False
    assert state["settings"] == {k: v for k, v in settings.items() if k not in ("junk", "seq")}
    assert state["control_seq"] == 1 and state["end"] is None
    demo = clock.demo_of(room)
    assert (demo.start, demo.node_budget, demo.pruning) == (1, clock.NODE_BUDGET, True)
    assert (demo.rows, demo.cols, demo.closed, demo.holes) == (6, 6, True, frozenset())
    assert refused(clock.set_settings, room, {**settings, "seq": 2, "cols": 2}, T0) == "bad-board"
    assert refused(clock.set_settings, room, {**settings, "seq": 2, "closed": "yes"}, T0) == (
        "bad-request"
    )
    assert refused(clock.set_settings, room, [], T0) == "bad-request"
    bogo = {**settings, "seq": 2, "algorithm": "bogo"}
    assert refused(clock.set_settings, room, bogo, T0) == "unknown-algorithm"  # as on /watch
    with pytest.raises(ClassError) as err:  # not newer than the last applied
        clock.set_settings(room, settings, T0)
    assert err.value.code == "superseded" and err.value.params["state"]["gen"] == 2


def test_a_demo_with_holes_keeps_them(ctx):
    room = new_room()
    state = clock.set_settings(room, {**SETTINGS, "seq": 1, "holes": [12, 6]}, T0)
    assert state["settings"]["holes"] == [6, 12]
    assert clock.demo_of(room).holes == frozenset({6, 12})


def test_new_settings_drop_the_old_demos_checkpoints(ctx):
    room = new_room()
    clock.set_settings(room, {**SETTINGS, "seq": 1}, T0)
    state = WalkerState(20_000, (0, 13), None, 2, 0, 2, (0,) * 36, (1, 0, 0, 0, (), ()))
    lease.save_checkpoints(room.code, 2, 0, [state], 20_000)
    assert lease.load_checkpoints(room.code, 2) == [state]
    clock.set_settings(room, {**SETTINGS, "seq": 2}, T0)
    assert lease.load_checkpoints(room.code, 2) == []
    # so does a lesson's new chapter
    lease.save_checkpoints(room.code, 3, 0, [state], 20_000)
    clock.set_lesson(room, {"seq": 3, "chapter": "dfs", "step": 0}, T0)
    assert lease.load_checkpoints(room.code, 3) == []


def test_the_control_state_and_its_extrapolation(ctx):
    room = new_room()
    state = clock.set_control(room, CONTROL, T0)
    assert state["index"] == 100 and state["control_seq"] == 1
    assert clock.public_state(room, T0 + 2)["index"] == 200  # 2 s at 50/s
    clock.set_control(room, {**CONTROL, "seq": 2, "speed": None}, T0)
    # no speed: as far as the search has got (nothing computed yet: where it was)
    assert clock.public_state(room, T0 + 2)["index"] == 100
    assert lease.record_progress(room.code, 1, 5_000, None)
    assert clock.public_state(room, T0 + 2)["index"] == 5_000
    clock.set_control(room, {**CONTROL, "seq": 3, "playing": False, "index": 40}, T0)
    assert clock.public_state(room, T0 + 9)["index"] == 40
    # once the search has ended, the index never passes its end
    end = {"status": "found", "total": 900, "nodes": 500, "backtracks": 400, "limit": None}
    assert lease.record_progress(room.code, 1, 900, {**end, "tour": [0, 13]})
    clock.set_control(room, {**CONTROL, "seq": 4, "index": 800}, T0)
    state = clock.public_state(room, T0 + 60)
    assert state["index"] == 900 and state["end"] == end  # the tour is not broadcast
    assert not lease.record_progress(room.code, 7, 1, None)  # another demo's: ignored
    with pytest.raises(ClassError) as err:
        clock.set_control(room, {**CONTROL, "seq": 9, "gen": 7}, T0)
    assert err.value.code == "stale" and err.value.params["gen"] == 1
    assert err.value.params["state"]["gen"] == 1
    with pytest.raises(ClassError) as err:
        clock.set_control(room, {**CONTROL, "seq": 4}, T0)
    assert err.value.code == "superseded" and err.value.params["state"]["control_seq"] == 4


def test_the_controls_are_checked(ctx):
    room = new_room()
    for bad in (
        {"index": -1},
        {"index": True},
        {"index": MAX_INDEX + 1},
        {"speed": 0},
        {"speed": 1e9},
        {"speed": MAX_SPEED + 1},
        {"speed": True},
        {"speed": "fast"},
        {"playing": 1},
        {"gen": None},
        {"seq": None},
        {"seq": 0},
        {"seq": "7"},
    ):
        payload = {**CONTROL, "seq": 50, **bad}
        assert refused(clock.set_control, room, payload, T0) == "bad-request", bad
    no_seq = {k: v for k, v in CONTROL.items() if k != "seq"}
    assert refused(clock.set_control, room, no_seq, T0) == "bad-request"
    assert clock.public_state(room, T0)["control_seq"] == 0  # nothing was applied
    assert clock.set_control(room, {**CONTROL, "index": MAX_INDEX}, T0)["index"] == MAX_INDEX


def test_controls_from_two_threads_never_put_an_older_state_back(app):
    """The compare-and-set holds when controls race on separate connections."""
    with app.app_context():
        code = rooms.open_room(T0).code
    errors = []

    def send(seqs):
        with app.app_context():
            for seq in seqs:
                room = rooms.find_room(code, T0)
                payload = {"seq": seq, "gen": 1, "index": seq, "playing": False, "speed": 1}
                try:
                    clock.set_control(room, payload, T0)
                except ClassError as err:
                    if err.code != "superseded":
                        errors.append(err)

    threads = [threading.Thread(target=send, args=(range(i, 400, 4),)) for i in range(1, 5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    with app.app_context():
        state = clock.public_state(rooms.find_room(code, T0), T0)
        assert state["index"] == state["control_seq"] == 399


def test_controls_sent_in_bursts_apply_the_newest_of_each(app):
    """A teacher's page sends controls without waiting for answers: in each burst the
    newest stands, each other one is applied or refused as ``superseded``; afterwards an
    older control is refused with the room's state, one for a past demo as ``stale``."""
    with app.app_context():
        room = room_with_demo()
        code, gen = room.code, room.gen
    first = 2
    for burst in range(10):
        numbers = [first + burst * 6 + i for i in range(6)]
        answers: dict[int, object] = {}
        barrier = threading.Barrier(len(numbers))

        def send(seq, answers=answers, barrier=barrier):
            with app.app_context():
                payload = {"seq": seq, "gen": gen, "index": seq, "playing": False, "speed": 10}
                barrier.wait()
                try:
                    answers[seq] = clock.set_control(rooms.find_room(code, T0), payload, T0)
                except ClassError as err:
                    answers[seq] = err

        threads = [threading.Thread(target=send, args=(seq,)) for seq in numbers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        last = numbers[-1]
        assert isinstance(answers[last], dict), answers[last]
        for seq in numbers[:-1]:
            assert isinstance(answers[seq], dict) or answers[seq].code == "superseded"
        with app.app_context():
            assert clock.public_state(rooms.find_room(code, T0), T0)["index"] == last
    with app.app_context():
        room = rooms.find_room(code, T0)
        with pytest.raises(ClassError) as older:
            clock.set_control(room, {**CONTROL, "seq": first, "gen": gen, "index": 1}, T0)
        assert older.value.code == "superseded"
        assert older.value.params["state"]["index"] == last
        with pytest.raises(ClassError) as past:
            clock.set_control(room, {**CONTROL, "seq": last + 1, "gen": gen - 1}, T0)
        assert past.value.code == "stale" and past.value.params["gen"] == gen


def test_a_deleted_room_refuses_controls(ctx):
    room = new_room()
    code = room.code
    rooms.close_room(room)
    room = ClassRoom(code=code, gen=1, control_seq=0)  # what a handler still held
    with pytest.raises(ClassError) as err:
        clock.set_control(room, CONTROL, T0)
    assert err.value.code == "unknown-room"


def hold(room, index: int | None) -> None:
    """An open quiz question holds the demo at ``index`` (as server/classroom/quiz.py does)."""
    db.session.execute(update(ClassRoom).where(ClassRoom.code == room.code).values(held_at=index))
    db.session.commit()


def test_an_open_question_holds_the_index_and_a_class_playing_on_stops_there(ctx):
    room = room_with_demo()
    gen = room.gen
    clock.set_control(room, {**CONTROL, "seq": 2, "gen": gen, "index": 10, "speed": 10}, T0)
    hold(room, 30)
    assert clock.room_index(room, T0 + 1) == 20  # playing on towards it
    assert clock.room_index(room, T0 + 5) == 30  # ... and no further
    assert clock.room_index(room, T0 + 5, held=False) == 60  # where the clock alone says
    state = clock.public_state(room, T0 + 5)
    assert state["hold"] == 30 and state["index"] == 30 and state["playing"]
    assert not clock.stop_at_hold(room.code, gen, T0 + 1)  # not there yet
    assert not clock.stop_at_hold(room.code, gen + 1, T0 + 5)  # another demo's
    seq = state["seq"]
    assert clock.stop_at_hold(room.code, gen, T0 + 5)
    state = clock.public_state(rooms.find_room(room.code, T0 + 5), T0 + 60)
    assert (state["index"], state["playing"], state["seq"]) == (30, False, seq + 1)
    assert not clock.stop_at_hold(room.code, gen, T0 + 6)  # stopped already
    hold(room, None)  # revealed: the class moves on from there
    clock.set_control(room, {**CONTROL, "seq": 3, "gen": gen, "index": 30, "speed": 10}, T0 + 6)
    assert clock.room_index(room, T0 + 8) == 50


def test_the_index_has_a_ceiling(ctx):
    room = new_room()
    clock.set_control(room, {**CONTROL, "index": MAX_INDEX - 5, "speed": MAX_SPEED}, T0)
    assert clock.room_index(room, T0 + 3600) == MAX_INDEX


def test_the_lesson_takes_the_class_to_its_steps(ctx):
    room = new_room()
    state = clock.set_lesson(room, {"seq": 1, "chapter": "dfs", "step": 1}, T0)
    gen = state["gen"]
    assert state["lesson"] == {"chapter": "dfs", "step": 1} and gen == 2
    assert state["settings"] == {**SETTINGS, "pruning": False}  # the chapter's demo
    assert (state["index"], state["playing"]) == (12, False)  # paused at the step's event
    # a step of the same chapter moves the same demo
    state = clock.set_lesson(room, {"seq": 2, "chapter": "dfs", "step": 2}, T0 + 1)
    assert (state["gen"], state["index"], state["playing"]) == (gen, 21, False)
    # the chapter's last step plays on to the end, from where the class stands
    state = clock.set_lesson(room, {"seq": 3, "chapter": "dfs", "step": 3}, T0 + 2)
    assert (state["gen"], state["index"], state["playing"], state["speed"]) == (
        gen,
        21,
        True,
        None,
    )
    # another chapter: a new demo
    state = clock.set_lesson(room, {"seq": 4, "chapter": "warnsdorff", "step": 0}, T0 + 3)
    assert state["gen"] == gen + 1 and state["settings"]["algorithm"] == "warnsdorff"
    assert state["settings"]["rows"] == 8 and state["index"] == 1
    # settings by hand end the lesson
    state = clock.set_settings(room, {**SETTINGS, "seq": 5}, T0 + 4)
    assert state["lesson"] is None and state["gen"] == gen + 2
    assert refused(clock.set_lesson, room, {"seq": 6, "chapter": "nope", "step": 0}, T0) == (
        "unknown-chapter"
    )
    assert refused(clock.set_lesson, room, {"seq": 6, "chapter": "dfs", "step": 9}, T0) == (
        "bad-step"
    )
    with pytest.raises(ClassError) as err:  # numbered with the controls
        clock.set_lesson(room, {"seq": 5, "chapter": "dfs", "step": 0}, T0)
    assert err.value.code == "superseded"
