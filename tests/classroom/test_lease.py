"""server.classroom.lease: who runs a room's search, what it recorded, and how far the
class may be sent (never past an open question, whichever process sends)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import select

from server.app import create_app
from server.classroom import clock, lease, quiz, rooms
from server.classroom.models import ClassRoom
from server.db import db
from server.engine.questions import where_next
from server.engine.walker import WalkerState
from server.stream.encode import DecodedMove
from tests.classroom.helpers import T0, room_with_demo
from tests.support.waiting import wait_until


def test_a_lease_belongs_to_one_process_until_it_lapses(ctx):
    code = rooms.open_room(T0).code
    assert lease.acquire(code, "a", T0, 3.0)
    assert not lease.acquire(code, "b", T0 + 1, 3.0)
    assert lease.acquire(code, "a", T0 + 2, 3.0)  # renewed until T0 + 5
    assert not lease.acquire(code, "b", T0 + 4.9, 3.0)
    assert lease.acquire(code, "b", T0 + 5.1, 3.0)  # lapsed: taken over
    assert not lease.acquire(code, "a", T0 + 6, 3.0)
    lease.release(code, "a")  # not a's to give back: b keeps it
    assert not lease.acquire(code, "a", T0 + 6, 3.0)
    lease.release(code, "b")
    assert lease.acquire(code, "a", T0 + 6, 3.0)
    assert not lease.acquire("NOROOM", "a", T0, 3.0)


def test_progress_is_recorded_for_the_current_demo_and_its_end_is_news(ctx):
    room = room_with_demo()
    code, gen = room.code, room.gen
    seq = clock.public_state(room, T0)["seq"]
    assert lease.record_progress(code, gen, 400, None)
    state = clock.public_state(rooms.find_room(code, T0), T0)
    assert (state["frontier"], state["end"], state["seq"]) == (400, None, seq)  # no news
    end = {"status": "found", "total": 500, "nodes": 300, "backtracks": 200, "limit": None}
    assert lease.record_progress(code, gen, 500, end)
    state = clock.public_state(rooms.find_room(code, T0), T0)
    assert (state["frontier"], state["end"], state["seq"]) == (500, end, seq + 1)
    assert not lease.record_progress(code, gen - 1, 900, None)  # a replaced demo's search
    assert clock.public_state(rooms.find_room(code, T0), T0)["frontier"] == 500


def checkpoint(index: int) -> WalkerState:
    return WalkerState(index, (0, 13), None, 2, 0, 2, (0,) * 25, (1, 0, 0, 0, (), ()))


def test_checkpoints_are_kept_per_demo_thinned_with_the_spacing(ctx):
    room = room_with_demo()
    code, gen = room.code, room.gen
    lease.save_checkpoints(code, gen, 0, [checkpoint(i) for i in (3000, 1000, 2000)], 1000)
    assert [s.index for s in lease.load_checkpoints(code, gen)] == [1000, 2000, 3000]
    lease.save_checkpoints(code, gen, 0, [checkpoint(4000)], 2000)  # the spacing doubled
    assert [s.index for s in lease.load_checkpoints(code, gen)] == [2000, 4000]
    lease.save_checkpoints(code, gen, 0, [checkpoint(4000)], 2000)  # saved again: one of it
    assert lease.load_checkpoints(code, gen) == [checkpoint(2000), checkpoint(4000)]
    # made in one long slice at spacing 1000, thinned to 2000 within it: only those kept
    lease.save_checkpoints(code, gen, 0, [checkpoint(i) for i in (5000, 6000, 7000, 8000)], 2000)
    assert [s.index for s in lease.load_checkpoints(code, gen)] == [2000, 4000, 6000, 8000]
    lease.save_checkpoints(code, gen + 1, 0, [checkpoint(2000)], 2000)
    lease.drop_old_checkpoints(code, gen + 1)
    assert lease.load_checkpoints(code, gen) == []
    assert lease.load_checkpoints(code, gen + 1) == [checkpoint(2000)]


def sent_upto(code: str) -> int:
    db.session.rollback()  # read the row as it is now, not as this session last saw it
    return db.session.scalar(select(ClassRoom.sent_upto).where(ClassRoom.code == code))


def test_the_mark_moves_on_with_each_claim_and_never_back(ctx):
    room = room_with_demo()
    code, gen = room.code, room.gen
    assert lease.claim_sent(code, gen, 10) == 10 and sent_upto(code) == 10
    assert lease.claim_sent(code, gen, 4) == 4  # sent already: allowed, the mark stays
    assert lease.claim_sent(code, gen, 10) == 10 and sent_upto(code) == 10
    assert lease.claim_sent(code, gen, 25) == 25 and sent_upto(code) == 25
    assert lease.claim_sent(code, gen - 1, 99) == 0  # a replaced demo: nothing to send
    assert sent_upto(code) == 25
    clock.set_settings(room, {**clock.settings_of(room), "seq": 2}, T0)  # a new demo
    assert sent_upto(code) == 0
    assert lease.claim_sent(code, gen, 30) == 0


def question_at(index: int):
    """A ``find`` for :func:`quiz.ask` whose demo moves with a choice only from ``index`` on
    (a stand-in for the room's search: the claims, not the search, are under test)."""

    def find(start: int, seconds: float, kind: str = "next") -> quiz.Found:
        move = DecodedMove(14, (11, 14), None)
        return quiz.Found(max(start, index), [0, 7], where_next(7, move, 25))

    return find


def test_an_open_question_stops_every_claim_at_its_index(ctx):
    """The promise on :func:`lease.claim_sent` itself, with no other guard in front of it:
    however far a sender asks while a question is open at ``k``, it is allowed up to ``k``,
    exactly (the question's position is shown), and never one event past it."""
    room = room_with_demo()
    code, gen = room.code, room.gen
    assert lease.claim_sent(code, gen, 10) == 10
    question = quiz.ask(room, T0, question_at(30)).question
    k = question.idx
    assert k == 30 and rooms.find_room(code, T0).held_at == k
    assert lease.claim_sent(code, gen, k + 1) == k  # one past: up to the question
    assert sent_upto(code) == k
    for upto in (k + 1, k + 2, k + 50, 10**6):
        assert lease.claim_sent(code, gen, upto) == k, upto
    assert lease.claim_sent(code, gen, k) == k
    assert lease.claim_sent(code, gen, k - 3) == k - 3  # sent already
    assert sent_upto(code) == k
    quiz.reveal(room, question.number, T0 + 1)  # the hold is lifted: on past it
    assert lease.claim_sent(code, gen, k + 50) == k + 50 and sent_upto(code) == k + 50


def test_a_claim_from_behind_the_question_reaches_it_in_one_step(ctx):
    """A sender far behind (nothing sent yet) asking for far past the question."""
    room = room_with_demo()
    code, gen = room.code, room.gen
    question = quiz.ask(room, T0, question_at(40)).question
    assert question.idx == 40 and sent_upto(code) == 0
    assert lease.claim_sent(code, gen, 5_000) == 40
    assert sent_upto(code) == 40


def race(processes, sent_before: int) -> tuple[int, list[tuple[int, int]], int]:
    """Two senders, each on its own process's connection, claim further and further (to
    240, one the odd indexes, the other the even ones) while a teacher on a third asks a
    question once the class was sent ``sent_before`` events: (the question's index, every
    claim as (asked, allowed), the mark at the end)."""
    with processes[0].app_context():
        room = room_with_demo()
        code, gen = room.code, room.gen
    claims: list[tuple[int, int]] = []
    asked: list[int] = []
    failures: list[BaseException] = []
    start = threading.Barrier(3)

    def claimant(process, first: int) -> None:
        try:
            with process.app_context():
                start.wait()
                for upto in range(first, 240, 2):
                    claims.append((upto, lease.claim_sent(code, gen, upto)))
        except BaseException as err:  # reported below
            failures.append(err)

    def teacher() -> None:
        try:
            with processes[2].app_context():
                start.wait()
                assert wait_until(lambda: sent_upto(code) >= sent_before, 10)
                room = rooms.find_room(code, T0)
                # the demo's next choice a little ahead (backtracks before it)
                asked.append(quiz.ask(room, T0, question_at(sent_before + 20)).question.idx)
        except BaseException as err:  # reported below
            failures.append(err)

    threads = [
        threading.Thread(target=claimant, args=(processes[0], 1)),
        threading.Thread(target=claimant, args=(processes[1], 2)),
        threading.Thread(target=teacher),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failures, failures
    with processes[0].app_context():
        return asked[0], claims, sent_upto(code)


def test_nobody_is_sent_an_event_past_an_open_question_across_processes(app):
    """Two senders (a feed and a member's snapshot, say) on two processes' connections
    claim further and further while a teacher on a third asks a question: whatever the
    order the database puts them in, no claim is allowed past the question's index, and
    the claims made after it reach it exactly."""
    processes = [app] + [
        create_app({"TESTING": True, "INSTANCE_PATH": app.instance_path}) for _ in range(2)
    ]
    for sent_before in (12, 36, 60, 84):
        k, claims, mark = race(processes, sent_before)
        assert k >= sent_before  # never behind what the class was sent
        past = [(upto, allowed) for upto, allowed in claims if allowed > k]
        assert not past, (k, past)
        assert max(allowed for _upto, allowed in claims) == k == mark  # shown up to it


@pytest.mark.parametrize("upto", [1, 30, 31])
def test_a_question_asked_where_the_class_was_sent_holds_it_there(ctx, upto):
    """The ask takes the hold at the mark as it is in its own transaction: a question asked
    where a sender already went is placed there, not behind it."""
    room = room_with_demo()
    code, gen = room.code, room.gen
    assert lease.claim_sent(code, gen, upto) == upto
    question = quiz.ask(room, T0, question_at(0)).question
    assert question.idx == upto and rooms.find_room(code, T0).held_at == upto
    assert lease.claim_sent(code, gen, upto + 1) == upto
