"""server.classroom.feed: a room's one search, run by the process that holds its lease and
streamed to the room; any process reads any index of it.

No thread and no socket here: each feed is ticked by the test, and what it would
broadcast is recorded in order (:class:`Room`).  What a member holds is rebuilt from
those messages as a phone does (tests/support/follower.py ``Position``) and compared
with the engine's own walk.  Two feeds with two process names share one database, as
two server processes do.
"""

from __future__ import annotations

import threading
from functools import partial

import pytest

from server.app import create_app
from server.classroom import clock, lease, quiz, rooms
from server.classroom.feed import IDLE_TICK, RoomFeed, where_the_class_is
from server.classroom.models import ClassRoom
from server.db import db
from server.limits.budget import Searches, SearchSlots
from server.limits.memory import MB, MemoryBudget
from server.stream.timeline import SNAPSHOT_TAIL
from tests.support.follower import (
    SIX_BY_SIX,
    Position,
    events_held,
    first_index,
    next_event,
    reference,
)

BIG = {**SIX_BY_SIX, "rows": 30, "cols": 30, "start": [0, 0], "algorithm": "seed"}  # long
FIVE_BY_FIVE = {**SIX_BY_SIX, "rows": 5, "cols": 5, "start": [4, 0]}  # 57 events to its end


class Room:
    """One process's side of a room: what its feed broadcasts (in order), and its hub."""

    def __init__(self, process: str, searches=None, memory=None) -> None:
        self.process = process
        self.ttl = rooms.DEFAULT_TTL
        self.sent: list[tuple[str, dict | None]] = []
        self.searches = searches  # the process's search slots and budgets (None: unlimited)
        self.memory = memory  # its memory budget (None: nothing counted)

    def start_task(self, fn, *args):  # the test ticks the feed itself
        return None

    def in_context(self, fn):
        return fn()

    def broadcast(self, event: str, data: dict, code: str, skip_sid=None) -> None:
        self.sent.append((event, data))

    def broadcast_state(self, code: str) -> None:
        self.sent.append(("state", clock.public_state(rooms.find_room(code), rooms.now())))


def demo(settings: dict, address: str | None = None) -> tuple[str, int]:
    """A room showing ``settings``, paused at 0: (its code, the demo's generation)."""
    opened = rooms.open_room(address=address)
    room = rooms.find_room(opened.code)
    clock.set_settings(room, {**settings, "seq": 1}, rooms.now())
    return room.code, room.gen


SEQ = iter(range(2, 10**6))


def control(code: str, index: int, playing: bool = False, speed: float | None = 10.0) -> None:
    room = rooms.find_room(code)
    payload = {"seq": next(SEQ), "gen": room.gen, "index": index, "playing": playing}
    clock.set_control(room, {**payload, "speed": speed}, rooms.now())


def follow(sent: list, counts: bool = False) -> Position | None:
    """What a member holds after these messages: the last snapshot and the feed after it."""
    position = None
    for event, data in sent:
        if event == "snapshot":
            position = Position(data, counts)
        elif event == "feed" and position is not None:
            position.add(data["at"], data["events"])
    return position


def tick_until(feed: RoomFeed, done, ticks: int = 200) -> None:
    """Tick ``feed`` until ``done()`` (each tick computes a bounded slice)."""
    for _ in range(ticks):
        feed._tick()
        if done():
            return
    raise AssertionError("the feed never got there")


def stands_at(position: Position | None, index: int, settings: dict = SIX_BY_SIX) -> bool:
    """Whether ``position`` shows the engine's own position after ``index`` events."""
    if position is None or not position.holds(index):
        return False
    return position.standing(index) == reference(settings, index)  # path, nodes, backtracks


@pytest.fixture
def feeds(ctx):
    made: list[RoomFeed] = []

    def make(code: str, process: str = "a", **limits) -> tuple[RoomFeed, Room]:
        hub = Room(process, **limits)
        feed = RoomFeed(hub, code)
        made.append(feed)
        return feed, hub

    yield make
    for feed in made:
        feed._retire()


def test_a_paused_class_is_sent_its_steps_and_nothing_ahead(feeds):
    code, gen = demo(SIX_BY_SIX)
    feed, hub = feeds(code)
    feed._tick()
    assert feed.owner  # the room's only feed takes the search
    assert [event for event, _ in hub.sent] == ["snapshot"]
    assert hub.sent[0][1]["gen"] == gen and stands_at(follow(hub.sent), 0)
    for index in (1, 2, 3, 40):
        control(code, index)
        feed._tick()
        assert stands_at(follow(hub.sent), index)
        assert events_held(hub.sent, False) == index  # nothing past the class's index
    assert [event for event, _ in hub.sent[1:]] == ["feed"] * 4  # steps: just their events
    feed._tick()  # nothing new: nothing sent
    assert len(hub.sent) == 5


def test_a_seek_far_away_is_a_snapshot_never_a_replay(feeds):
    code, _gen = demo(SIX_BY_SIX)
    feed, hub = feeds(code)
    feed._tick()
    control(code, 250_000)
    tick_until(feed, lambda: stands_at(follow(hub.sent), 250_000))
    last = hub.sent[-1][1]
    assert hub.sent[-1][0] == "snapshot" and last["at"] == 250_000 - SNAPSHOT_TAIL
    assert not [e for e, d in hub.sent if e == "feed" and d["at"] < 250_000 - SNAPSHOT_TAIL]
    sent = len(hub.sent)
    control(code, 249_950)  # a step back within what the phones hold: nothing to send
    feed._tick()
    assert len(hub.sent) == sent and stands_at(follow(hub.sent), 249_950)
    control(code, 1_000)  # far back: a snapshot there
    feed._tick()
    assert hub.sent[-1][0] == "snapshot" and stands_at(follow(hub.sent), 1_000)
    assert hub.sent[-1][1]["at"] >= 900
    # what it computed is recorded for every process: progress and checkpoints
    room = rooms.find_room(code)
    assert 0 < room.frontier <= feed.timeline.frontier  # recorded now and then
    checkpoints = lease.load_checkpoints(code, room.gen)
    assert len(checkpoints) >= 12  # every 20,000 events
    assert checkpoints[-1].index <= feed.timeline.frontier


def test_a_class_playing_is_sent_a_little_ahead(feeds):
    code, _gen = demo(SIX_BY_SIX)
    feed, hub = feeds(code)
    control(code, 10, playing=True, speed=4.0)
    feed._tick()
    reach = events_held(hub.sent, False)
    index = clock.public_state(rooms.find_room(code), rooms.now())["index"]
    assert index + 4 <= reach <= index + 4 + 4  # a second of play (while the tick ran: more)
    position = follow(hub.sent)
    assert stands_at(position, reach)


def test_running_to_the_end_shows_where_it_ended_and_tells_everyone(feeds):
    code, _gen = demo(FIVE_BY_FIVE)
    feed, hub = feeds(code)
    control(code, 0, playing=True, speed=None)  # the teacher's jump to the end
    tick_until(feed, lambda: any(event == "state" for event, _ in hub.sent))
    end = rooms.find_room(code)
    state = clock.public_state(end, rooms.now())
    truth = reference(FIVE_BY_FIVE, 10**6)
    total = truth.nodes + truth.backtracks
    assert state["end"] == {
        "status": "found",
        "total": total,
        "nodes": truth.nodes,
        "backtracks": truth.backtracks,
        "limit": None,
    }
    assert state["index"] == total and ("state", state) in hub.sent
    snapshot = next(data for event, data in hub.sent if event == "snapshot")
    assert not snapshot["keyframe"] and snapshot["index"] == total  # a short run: no keyframes
    assert stands_at(follow(hub.sent), total, FIVE_BY_FIVE)
    assert len(truth.path) == 25  # a tour
    # stepping back from the end: the members hold the last events
    assert follow(hub.sent).holds(total - 7)
    control(code, total - 7)
    feed._tick()
    assert stands_at(follow(hub.sent), total - 7, FIVE_BY_FIVE)


def test_another_process_reads_from_the_checkpoints_and_takes_the_search_over(feeds):
    code, _gen = demo(SIX_BY_SIX)
    owner, owner_hub = feeds(code, "a")
    other, other_hub = feeds(code, "b")
    control(code, 100_000)
    tick_until(owner, lambda: stands_at(follow(owner_hub.sent), 100_000))
    other._tick()
    assert owner.owner and not other.owner and other_hub.sent == []  # one search
    # any process answers any member: from the stored checkpoints
    room = rooms.find_room(code)
    mine, theirs = owner.read(room, 100_000), other.read(room, 99_000)
    assert mine["index"] == 100_000 and stands_at(Position(mine, False), 100_000)
    assert theirs["index"] == 99_000 and stands_at(Position(theirs, False), 99_000)
    assert other.replica.timeline.first.latest_checkpoint > 0  # not a replay from event 0
    # the owner goes away: the other takes the search over where it was
    owner._retire()
    other._tick()
    assert other.owner
    assert other.timeline.first.latest_checkpoint > 0  # resumed from the stored checkpoints
    assert other_hub.sent[0][0] == "snapshot"  # no gap after a takeover
    assert stands_at(follow(other_hub.sent), 100_000)
    control(code, 100_010)
    other._tick()
    assert stands_at(follow(other_hub.sent), 100_010)


def test_a_member_joining_gets_where_the_class_is(feeds):
    code, _gen = demo(SIX_BY_SIX)
    feed, _hub = feeds(code)
    control(code, 1_234)
    room = rooms.find_room(code)
    state, snapshot = where_the_class_is(room, None)  # no feed here: the join brings it
    assert state["index"] == 1_234 and snapshot is None
    state, snapshot = where_the_class_is(room, feed)
    assert snapshot["index"] == 1_234 and snapshot["at"] == 1_234 - SNAPSHOT_TAIL
    assert snapshot["gen"] == state["gen"] and snapshot["settings"] == state["settings"]
    assert stands_at(Position(snapshot, False), 1_234)
    assert snapshot["count"] == SNAPSHOT_TAIL  # paused: nothing past the index
    assert feed.read(room, 5_000)["index"] == 1_234  # nor when asked further
    assert rooms.find_room(code).sent_upto == 1_234  # what it carries counts as sent


def test_a_question_asked_on_another_process_during_a_tick_stops_the_feed_there(
    feeds, app, monkeypatch
):
    """The race the hold guards against, played out: the owner's tick has read the room
    (no question open) and is about to send a second of play ahead, when a teacher on
    another process asks.  The feed sends up to the question, not one event past it; the
    other process's reads stop there too; after the reveal the feed goes on."""
    # The class's clock stands still: at 400 events a second, a slow tick or ask (a busy
    # machine) would otherwise carry the class past what was sent before the ask comes.
    now = rooms.now()
    monkeypatch.setattr(rooms, "now", lambda: now)
    code, gen = demo(SIX_BY_SIX)
    owner, hub = feeds(code, "a")
    other, _ = feeds(code, "b")
    control(code, 3, playing=True, speed=400.0)
    owner._tick()
    sent = events_held(hub.sent, False)
    assert sent >= 403  # a second of play ahead of the class
    control(code, 50, playing=True, speed=400.0)  # the feed will want about 450 next
    teacher_process = create_app({"TESTING": True, "INSTANCE_PATH": app.instance_path})
    asked: list[tuple[int, int, int]] = []  # the question: (number, index, answer)
    real_claim = lease.claim_sent

    def ask(room_code: str) -> None:
        with teacher_process.app_context():
            room = rooms.find_room(room_code)
            question = quiz.ask(room, rooms.now(), partial(other.find_question, room)).question
            asked.append((question.number, question.idx, question.answer))

    def claim_after_an_ask(room_code: str, demo_gen: int, upto: int) -> int:
        if not asked:
            assert upto > sent  # the feed was about to send further
            teacher = threading.Thread(target=ask, args=(room_code,))
            teacher.start()
            teacher.join(30)
        return real_claim(room_code, demo_gen, upto)

    with monkeypatch.context() as during_the_tick:
        during_the_tick.setattr(lease, "claim_sent", claim_after_an_ask)
        owner._tick()
    number, k, answer = asked[0]
    assert k == first_index(SIX_BY_SIX, lambda e: e >= 0, start=sent)  # where nobody holds
    assert answer == next_event(SIX_BY_SIX, k)
    assert events_held(hub.sent, False) == k  # up to the question, not past it
    assert stands_at(follow(hub.sent), k)
    room = rooms.find_room(code)
    assert room.held_at == k and room.sent_upto == k
    for index in (k, k + 1, k + 500):
        read = other.read(room, index)
        assert read["at"] + read["count"] <= k
    owner._tick()  # the class stands at the question now
    assert events_held(hub.sent, False) == k
    quiz.reveal(room, number, rooms.now())
    control(code, k + 20)
    owner._tick()
    assert stands_at(follow(hub.sent), k + 20)
    assert db.session.get(ClassRoom, code).sent_upto == k + 20
    assert gen == room.gen


def test_a_snapshot_read_as_a_question_is_asked_elsewhere_stops_at_the_question(
    feeds, app, monkeypatch
):
    """A member's sync far ahead of a playing class, read by a process without the search,
    while a teacher on a third process asks: the snapshot it gets stands at the question,
    not where it asked for."""
    code, _gen = demo(SIX_BY_SIX)
    owner, _ = feeds(code, "a")
    other, _ = feeds(code, "b")
    owner._tick()  # a takes the search: b reads from its own replica
    control(code, 50, playing=True, speed=400.0)
    room = rooms.find_room(code)  # as the sync's handler read it: no question open
    teacher_process = create_app({"TESTING": True, "INSTANCE_PATH": app.instance_path})
    asked: list[int] = []
    real_claim = lease.claim_sent

    def ask() -> None:
        with teacher_process.app_context():
            fresh = rooms.find_room(code)
            asked.append(
                quiz.ask(fresh, rooms.now(), partial(other.find_question, fresh)).question.idx
            )

    def claim_after_an_ask(room_code: str, demo_gen: int, upto: int) -> int:
        if not asked:
            teacher = threading.Thread(target=ask)
            teacher.start()
            teacher.join(30)
        return real_claim(room_code, demo_gen, upto)

    monkeypatch.setattr(lease, "claim_sent", claim_after_an_ask)
    snapshot = other.read(room, 450)  # the class's index and its lead: about 450
    monkeypatch.undo()
    k = asked[0]
    assert k < 450 and snapshot["index"] == k
    assert snapshot["at"] + snapshot["count"] == k
    assert stands_at(Position(snapshot, False), k)


# -- the room's search is one of the server's searches ------------------------------------------
TEACHER, PRANKSTER = "10.0.0.5", "10.0.0.66"


def run_to_the_end(code: str) -> None:
    control(code, 0, playing=True, speed=None)


def test_a_room_search_takes_a_search_slot_of_its_opener_and_waits_for_one(feeds):
    slots = SearchSlots(2, wait=0.1, per_address=1)
    code, _gen = demo(SIX_BY_SIX, address=TEACHER)
    feed, _hub = feeds(code, searches=Searches(None, slots))
    feed._tick()  # paused at 0: a little computed ahead
    run_to_the_end(code)
    frontier = feed.timeline.frontier
    with slots.hold(PRANKSTER), slots.hold("10.0.0.7"):  # both cores search for others
        assert feed._tick() >= IDLE_TICK  # the slice waited, then gave the tick up
        assert feed.timeline.frontier == frontier
    with slots.hold(TEACHER):  # a core is free, but the opener already holds its one
        assert feed._tick() >= IDLE_TICK and feed.timeline.frontier == frontier
    feed._tick()
    assert feed.timeline.frontier > frontier and slots.running() == 0  # a slot, given back


def test_a_room_timeline_is_counted_against_its_opener_memory(feeds):
    memory = MemoryBudget(per_address=4 * MB, total=64 * MB)
    evicted = []
    memory.keep(TEACHER, 3 * MB, lambda: evicted.append("a finished /watch run"))
    code, _gen = demo(BIG, address=TEACHER)
    feed, _hub = feeds(code, memory=memory)
    feed._tick()
    run_to_the_end(code)
    tick_until(feed, lambda: feed.timeline.nbytes > MB)
    assert memory.used(TEACHER) == feed.timeline.nbytes  # pinned: the kept run made way
    assert evicted == ["a finished /watch run"]
    feed._retire()
    assert memory.used(TEACHER) == 0 and memory.used() == 0
