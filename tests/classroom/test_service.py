"""server.classroom.service: codes, tokens, expiry, the control state, presence, puzzles."""

from __future__ import annotations

import threading

import pytest
from pydantic import ValidationError
from sqlalchemy import select

from server.classroom import quiz, service
from server.classroom.messages import JoinMessage, QuizEnterMessage, SolveMessage
from server.classroom.models import ClassEntry, ClassPresence, ClassRoom
from server.classroom.service import ClassError
from server.db import db
from server.engine.board import Board
from server.engine.search import solve
from server.game import rules
from server.game import service as games
from server.web.refusals import CLASS, refusal_of


def refused(fn, *args) -> str:
    """The code a client is shown when ``fn`` refuses its input (a model's or the service's)."""
    try:
        fn(*args)
    except ClassError as err:
        return err.code
    except ValidationError as err:
        return refusal_of(err, CLASS).code
    raise AssertionError(f"{fn.__name__}{args!r:.200} was accepted")


T0 = 1_800_000_000.0


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield


def test_codes_are_short_unambiguous_and_typed_loosely():
    codes = {service.new_code() for _ in range(200)}
    assert len(codes) > 190
    for code in codes:
        assert len(code) == 6 and not set(code) & set("IL01O")
    assert service.normalize_code(" ab-c 234 ") == "ABC234"
    for bad in ("ABC23", "ABC2345", "ABCDE1", "ABCDEO", "x" * 40):
        with pytest.raises(ClassError) as err:
            service.normalize_code(bad)
        assert err.value.code == "unknown-room"
    for bad in (None, 123, ["ABC234"]):  # not a code at all: a bad request naming the field
        assert refused(JoinMessage.model_validate, {"code": bad}) == "bad-request"
    assert refused(JoinMessage.model_validate, {"code": "x" * 40}) == "unknown-room"


def test_only_the_tokens_hash_is_stored_and_it_is_checked(ctx):
    opened = service.open_room(T0)
    room = db.session.get(ClassRoom, opened.code)
    assert opened.token not in room.token_hash and len(room.token_hash) == 64
    assert service.token_matches(room, opened.token)
    for wrong in ("", "x", opened.token[:-1], "a" * 500):
        assert not service.token_matches(room, wrong)
    for wrong in ("", "a" * 500):  # no token's length: the join's model refuses it
        assert (
            refused(JoinMessage.model_validate, {"code": "ABC234", "token": wrong}) == "bad-token"
        )
    for wrong in (5, True):  # not text: a bad request naming the field
        assert (
            refused(JoinMessage.model_validate, {"code": "ABC234", "token": wrong}) == "bad-request"
        )


def test_rooms_expire_after_inactivity_and_are_swept(ctx):
    old = service.open_room(T0, ttl=100)
    fresh = service.open_room(T0 + 50, ttl=100)
    assert service.find_room(old.code.lower(), T0 + 99, ttl=100).code == old.code
    with pytest.raises(ClassError) as err:
        service.find_room(old.code, T0 + 101, ttl=100)
    assert err.value.code == "expired"
    assert db.session.get(ClassRoom, old.code) is None  # deleted on the way
    service.enter(fresh.code, "sid-1", "student", T0 + 60)
    assert service.sweep(T0 + 200, ttl=100) == 1
    assert db.session.get(ClassRoom, fresh.code) is None
    assert db.session.get(ClassPresence, "sid-1") is None
    with pytest.raises(ClassError) as err:
        service.find_room(fresh.code, T0 + 200, ttl=100)
    assert err.value.code == "unknown-room"


def test_activity_keeps_a_room_alive(ctx):
    opened = service.open_room(T0, ttl=100)
    room = service.find_room(opened.code, T0 + 90, ttl=100)
    control = {"seq": 1, "gen": 1, "index": 0, "playing": False, "speed": 5}
    service.set_control(room, control, T0 + 90)
    assert service.find_room(opened.code, T0 + 180, ttl=100)


def test_settings_start_a_new_generation(ctx):
    room = service.find_room(service.open_room(T0).code, T0)
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
    state = service.set_settings(room, settings, T0 + 1)
    assert state["gen"] == 2 and state["index"] == 0 and state["playing"] is False
    assert state["settings"] == {k: v for k, v in settings.items() if k not in ("junk", "seq")}
    assert state["control_seq"] == 1 and state["end"] is None
    demo = service.demo_of(room)
    assert (demo.start, demo.node_budget, demo.pruning) == (1, service.NODE_BUDGET, True)
    assert refused(service.set_settings, room, {**settings, "seq": 2, "cols": 2}, T0) == "bad-board"
    assert refused(service.set_settings, room, {**settings, "seq": 2, "closed": "yes"}, T0) == (
        "bad-request"
    )
    assert refused(service.set_settings, room, [], T0) == "bad-request"
    bogo = {**settings, "seq": 2, "algorithm": "bogo"}
    assert refused(service.set_settings, room, bogo, T0) == "unknown-algorithm"  # as on /watch
    with pytest.raises(ClassError) as err:  # not newer than the last applied
        service.set_settings(room, settings, T0)
    assert err.value.code == "superseded" and err.value.params["state"]["gen"] == 2


def test_new_settings_drop_the_old_demos_checkpoints(ctx):
    from server.engine.walker import WalkerState

    room = service.find_room(service.open_room(T0).code, T0)
    service.set_settings(room, {**SETTINGS, "seq": 1}, T0)
    state = WalkerState(20_000, (0, 13), None, 2, 0, 2, (0,) * 36, (1, 0, 0, 0, (), ()))
    service.save_checkpoints(room.code, 2, [state], 20_000)
    assert service.load_checkpoints(room.code, 2) == [state]
    service.set_settings(room, {**SETTINGS, "seq": 2}, T0)
    assert service.load_checkpoints(room.code, 2) == []


def test_the_control_state_and_its_extrapolation(ctx):
    room = service.find_room(service.open_room(T0).code, T0)
    control = {"seq": 1, "gen": 1, "index": 100, "playing": True, "speed": 50}
    state = service.set_control(room, control, T0)
    assert state["index"] == 100 and state["control_seq"] == 1
    assert service.public_state(room, T0 + 2)["index"] == 200  # 2 s at 50/s
    service.set_control(room, {**control, "seq": 2, "speed": None}, T0)
    # no speed: as far as the search has got (nothing computed yet: where it was)
    assert service.public_state(room, T0 + 2)["index"] == 100
    assert service.record_progress(room.code, 1, 5_000, None)
    assert service.public_state(room, T0 + 2)["index"] == 5_000
    service.set_control(room, {**control, "seq": 3, "playing": False, "index": 40}, T0)
    assert service.public_state(room, T0 + 9)["index"] == 40
    # once the search has ended, the index never passes its end
    end = {"status": "found", "total": 900, "nodes": 500, "backtracks": 400, "limit": None}
    assert service.record_progress(room.code, 1, 900, {**end, "tour": [0, 13]})
    service.set_control(room, {**control, "seq": 4, "index": 800}, T0)
    state = service.public_state(room, T0 + 60)
    assert state["index"] == 900 and state["end"] == end  # the tour is not broadcast
    assert not service.record_progress(room.code, 7, 1, None)  # another demo's: ignored
    with pytest.raises(ClassError) as err:
        service.set_control(room, {**control, "seq": 9, "gen": 7}, T0)
    assert err.value.code == "stale" and err.value.params["gen"] == 1
    with pytest.raises(ClassError) as err:
        service.set_control(room, {**control, "seq": 4}, T0)
    assert err.value.code == "superseded"
    for bad in (
        {"index": -1},
        {"index": True},
        {"index": service.MAX_INDEX + 1},
        {"speed": 0},
        {"speed": 1e9},
        {"speed": "fast"},
        {"playing": 1},
        {"gen": None},
        {"seq": None},
        {"seq": 0},
    ):
        payload = {**control, "seq": 50, **bad}
        assert refused(service.set_control, room, payload, T0) == "bad-request", bad


def test_controls_from_two_threads_never_put_an_older_state_back(app):
    """The compare-and-set holds when controls race on separate connections."""
    with app.app_context():
        code = service.open_room(T0).code
    errors = []

    def send(seqs):
        with app.app_context():
            for seq in seqs:
                room = service.find_room(code, T0)
                payload = {"seq": seq, "gen": 1, "index": seq, "playing": False, "speed": 1}
                try:
                    service.set_control(room, payload, T0)
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
        state = service.public_state(service.find_room(code, T0), T0)
        assert state["index"] == state["control_seq"] == 399


def test_a_lease_belongs_to_one_process_until_it_lapses(ctx):
    code = service.open_room(T0).code
    assert service.acquire_lease(code, "a", T0, 3.0)
    assert not service.acquire_lease(code, "b", T0 + 1, 3.0)
    assert service.acquire_lease(code, "a", T0 + 2, 3.0)  # renewed until T0 + 5
    assert not service.acquire_lease(code, "b", T0 + 4.9, 3.0)
    assert service.acquire_lease(code, "b", T0 + 5.1, 3.0)  # lapsed: taken over
    assert not service.acquire_lease(code, "a", T0 + 6, 3.0)
    service.release_lease(code, "b")
    assert service.acquire_lease(code, "a", T0 + 6, 3.0)


SETTINGS = {
    "rows": 5,
    "cols": 5,
    "start": [0, 0],
    "algorithm": "seed",
    "closed": False,
    "pruning": False,
}


def test_students_are_counted_by_fresh_heartbeats(ctx):
    code = service.open_room(T0).code
    service.enter(code, "t", "teacher", T0)
    service.enter(code, "a", "student", T0)
    service.enter(code, "b", "student", T0)
    assert service.student_count(code, T0 + 1) == 2
    assert service.heartbeat("a", T0 + 50)
    assert service.student_count(code, T0 + 70) == 1  # b went quiet (a dead process)
    assert service.leave("a") == code and service.leave("a") is None
    assert service.student_count(code, T0 + 70) == 0
    assert not service.heartbeat("nobody", T0)


def test_entering_races_safely_on_one_connection(app):
    """A join and a heartbeat of one connection run concurrently; both record presence.

    The old read-then-insert raced into a duplicate key (found by the /class fuzzer).
    """
    with app.app_context():
        code = service.open_room(T0).code
    sids = [f"sid-{n}" for n in range(12)]
    barrier = threading.Barrier(8)
    failures: list[BaseException] = []

    def enter_all(worker: int) -> None:
        with app.app_context():
            barrier.wait()
            for sid in sids:
                try:
                    service.enter(code, sid, "student", T0 + worker)
                except BaseException as err:  # reported below
                    failures.append(err)
                    db.session.rollback()

    threads = [threading.Thread(target=enter_all, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not failures, failures[:3]
    with app.app_context():
        assert service.student_count(code, T0 + 1) == len(sids)
        assert {row.sid for row in db.session.scalars(select(ClassPresence))} == set(sids)
        assert all(service.leave(sid) == code for sid in sids)
        assert service.leave(sids[0]) is None


def student(room, name: str):
    """A student of ``room`` under ``name`` (a puzzle's attempts are a student's)."""
    return quiz.enter(room, QuizEnterMessage(name=name), T0).student


def play_through(game_id: str, tour: list[int], cols: int, at: float = T0 + 30) -> None:
    for sq in tour[1:]:
        games.change(game_id, lambda s, sq=sq: rules.move(s, *divmod(sq, cols), at))


def test_the_class_puzzle_and_its_leaderboard(ctx):
    room = service.find_room(service.open_room(T0).code, T0)
    ann_student = student(room, " Ann ")
    with pytest.raises(ClassError) as err:
        service.start_puzzle_game(room, ann_student, T0)
    assert err.value.code == "no-puzzle"
    puzzle = service.set_puzzle(room, {"rows": 5, "cols": 5, "closed": False, "start": [4, 0]}, T0)
    assert puzzle == {
        "rows": 5,
        "cols": 5,
        "closed": False,
        "start": [4, 0],
        "holes": [],
        "code": "5x5.o.a1",
        "seq": 1,
    }
    ann = service.start_puzzle_game(room, ann_student, T0 + 1)
    bob = service.start_puzzle_game(room, student(room, "Bob"), T0 + 2)
    assert ann["name"] == "Ann"
    state = games.load(ann["game"]).state
    assert state.path == [20] and (state.rows, state.cols, state.closed) == (5, 5, False)
    with pytest.raises(ClassError) as err:
        service.record_solution(room, ann["game"], T0 + 3)
    assert err.value.code == "not-solved"

    tour = solve(Board(5, 5), 20).tour
    play_through(ann["game"], tour, 5)
    entry = service.record_solution(room, ann["game"], T0 + 31)
    assert entry["seconds"] == 29.0 and entry["moves"] == 24
    assert service.record_solution(room, ann["game"], T0 + 99) == entry  # once
    board = service.leaderboard(room)
    assert (board["solved"], board["trying"]) == (1, 2)
    assert board["entries"] == [{"rank": 1, **entry}]

    # a game of the right board but not handed out in this room does not count
    stray = games.create_game(5, 5, False).id
    with pytest.raises(ClassError) as err:
        service.record_solution(room, stray, T0)
    assert err.value.code == "unknown-entry"
    # neither does an attempt at an earlier puzzle
    service.set_puzzle(room, {"rows": 5, "cols": 5, "closed": False, "start": [4, 0]}, T0 + 40)
    play_through(bob["game"], tour, 5)
    with pytest.raises(ClassError) as err:
        service.record_solution(room, bob["game"], T0 + 41)
    assert err.value.code == "unknown-entry"
    assert service.leaderboard(room)["entries"] == []


def test_unaided_solutions_rank_before_hinted_ones(ctx):
    """A quick run that followed hints does not beat a slower one that did not."""
    room = service.find_room(service.open_room(T0).code, T0)
    service.set_puzzle(room, {"rows": 5, "cols": 5, "closed": False, "start": [4, 0]}, T0)
    tour = solve(Board(5, 5), 20).tour
    players = {
        name: service.start_puzzle_game(room, student(room, name), T0)
        for name in ("Hal", "Una", "Ida")
    }
    games.change(players["Hal"]["game"], lambda state: rules.ask_hint(state))  # one hint
    for _ in range(2):
        games.change(players["Ida"]["game"], lambda state: rules.ask_hint(state))
    for name, finished in (("Hal", T0 + 10), ("Ida", T0 + 5), ("Una", T0 + 50)):
        play_through(players[name]["game"], tour, 5, finished)
        service.record_solution(room, players[name]["game"], finished + 1)
    entries = service.leaderboard(room)["entries"]
    assert [(e["rank"], e["name"], e["seconds"], e["hints"]) for e in entries] == [
        (1, "Una", 50.0, 0),  # the slowest, but unaided
        (2, "Ida", 5.0, 2),  # then the hinted runs, fastest first
        (3, "Hal", 10.0, 1),
    ]


def test_puzzle_input_is_checked(ctx):
    room = service.find_room(service.open_room(T0).code, T0)
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
        code = refused(service.set_puzzle, room, {**good, **bad}, T0)
        assert code == ("bad-puzzle" if bad in ({"rows": 2}, {"cols": 21}) else "bad-request")
    assert service.set_puzzle(room, good, T0)["seq"] == 1
    for name in ("", "   ", "x" * 25, "a\x00b"):
        assert refused(QuizEnterMessage.model_validate, {"name": name}) == "bad-name"
    for name in (5, ["Ann"]):  # not text: a bad request naming the field
        assert refused(SolveMessage.model_validate, {"name": name}) == "bad-request"
    assert service.set_puzzle(room, None, T0) is None
    assert service.leaderboard(room)["puzzle"] is None


def test_attempts_are_a_students_until_the_teacher_clears_them(ctx):
    room = service.find_room(service.open_room(T0).code, T0)
    service.set_puzzle(room, {"rows": 5, "cols": 5, "closed": False, "start": [0, 0]}, T0)
    ann, bob = student(room, "Ann"), student(room, "Bob")
    for _ in range(2):
        service.start_puzzle_game(room, ann, T0, max_attempts=2)
    with pytest.raises(ClassError) as err:
        service.start_puzzle_game(room, ann, T0, max_attempts=2)
    assert (err.value.code, err.value.key) == ("full", "class.error.full.attempts")
    assert db.session.query(ClassEntry).count() == 2
    service.start_puzzle_game(room, bob, T0, max_attempts=2)  # his own
    # refused by the game limits: the attempt is not counted
    with pytest.raises(ClassError) as err:
        service.start_puzzle_game(room, bob, T0, max_attempts=2, admit=lambda: refused_game())
    assert err.value.code == "rate-limited"
    service.start_puzzle_game(room, bob, T0, max_attempts=2)
    assert service.clear_attempts(room, ann.id) == 1
    service.start_puzzle_game(room, ann, T0, max_attempts=2)
    assert service.clear_attempts(room) == 2  # everyone who had some
    with pytest.raises(ClassError) as err:
        service.clear_attempts(room, "nobody")
    assert err.value.code == "unknown-student"
    # a new puzzle counts from 0
    service.clear_attempts(room)
    for _ in range(2):
        service.start_puzzle_game(room, ann, T0, max_attempts=2)
    service.set_puzzle(room, {"rows": 5, "cols": 5, "closed": True, "start": [0, 0]}, T0)
    service.start_puzzle_game(room, ann, T0, max_attempts=2)


def refused_game():
    raise ClassError("rate-limited", "class.error.rate-limited.games", seconds=9)
