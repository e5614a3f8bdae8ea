"""A lesson's race in a class room (server/stream/race.py): two searches played by one
index, each lane streamed event for event, its end told with its last event, the class
ended when the last lane ends, any process serving both lanes from their checkpoints.

As in tests/classroom/test_feed.py, feeds are ticked by the test and what they would
broadcast is recorded; each lane is rebuilt from those messages as a phone does
(tests/support/follower.py ``Position``) and compared with the engine's own walk.
"""

from __future__ import annotations

import pytest

from server.classroom import clock, lease, rooms
from server.classroom.feed import RoomFeed
from server.engine.article_orders import carries_onward
from server.stream.race import Race
from server.stream.timeline import Demo, Timeline
from tests.classroom.test_feed import Room, control, tick_until
from tests.support.follower import Position, decode, lesson_demo, reference

FIX_JAVA1 = lesson_demo("fix-java1")  # the Java article's sort corrected, against it as written
LOOP_C = lesson_demo("loop-c")  # the C article's loop against its recursion: long, same events


def lanes_of(settings: dict) -> list[dict]:
    """Each lane's settings, as the engine's walker takes them."""
    return [settings, {**settings, "algorithm": settings["race"]}]


def totals(settings: dict) -> list[int]:
    """Each lane's events to its end, from the engine."""
    return [
        reference(lane, 10**7).nodes + reference(lane, 10**7).backtracks
        for lane in lanes_of(settings)
    ]


def lesson_room(chapter: str) -> tuple[str, int]:
    """A room standing at the chapter's first step (its demo paused at 0)."""
    room = rooms.find_room(rooms.open_room().code)
    clock.set_lesson(room, {"seq": 1, "chapter": chapter, "step": 0}, rooms.now())
    room = rooms.find_room(room.code)
    return room.code, room.gen


@pytest.fixture
def feeds(ctx):
    """``feeds(code, process)``: a room's feed in a process of that name, and its hub."""
    made: list[RoomFeed] = []

    def make(code: str, process: str = "a") -> tuple[RoomFeed, Room]:
        hub = Room(process)
        made.append(RoomFeed(hub, code))
        return made[-1], hub

    yield make
    for feed in made:
        feed._retire()


class RaceFollower:
    """Each lane as a phone holds it after the messages: a snapshot and the feed after it."""

    def __init__(self, settings: dict) -> None:
        self.lanes = lanes_of(settings)
        self.positions: list[Position | None] = [None, None]
        self.ends: list[dict | None] = [None, None]

    def take(self, sent) -> RaceFollower:
        for event, data in sent:
            if event == "snapshot":
                self.positions = [
                    Position({**lane, "gen": data["gen"]}, carries_onward(s["algorithm"]))
                    for lane, s in zip(data["lanes"], self.lanes, strict=True)
                ]
            elif event == "feed" and self.positions[0] is not None:
                for number, ints in enumerate(data["lanes"]):
                    end, position = self.ends[number], self.positions[number]
                    if end is not None and position.received >= end["total"]:
                        assert ints == []  # nothing after a lane's end
                        continue
                    position.add(data["at"], ints)
            if event in ("snapshot", "feed"):
                for number, end in enumerate(data["ends"]):
                    self.ends[number] = end or self.ends[number]
        return self

    def stands_at(self, index: int) -> bool:
        """Whether each lane shows the engine's own position at ``index`` (or at its end)."""
        for position, end, settings in zip(self.positions, self.ends, self.lanes, strict=True):
            at = min(index, end["total"]) if end is not None else index
            if position is None or not position.holds(at):
                return False
            if position.standing(at) != reference(settings, at):
                return False
        return True


def test_a_race_of_one_lane_is_its_timeline(ctx):
    demo = Demo(5, 5, 0, "seed", False, False, 10**6, 60.0)
    timeline = Timeline(demo)
    race = Race([Timeline(demo)])
    race.extend(10**6)
    timeline.extend(10**6)
    assert race.end == timeline.end and race.frontier == timeline.frontier
    assert race.feed(3, 9) == {"at": 3, "events": timeline.events(3, 9)}  # the wire as before
    assert race.snapshot(40, ahead=5) == timeline.snapshot(40, ahead=5)


def test_both_lanes_are_streamed_event_for_event_and_each_end_comes_with_its_last(feeds):
    code, gen = lesson_room("fix-java1")
    feed, hub = feeds(code)
    short, long = totals(FIX_JAVA1)
    assert short < long  # the corrected sort ends first: that is the lesson
    for index in (1, 30, short - 1, short, short + 1, short + 500, long - 1, long):
        control(code, index)
        tick_until(feed, lambda i=index: RaceFollower(FIX_JAVA1).take(hub.sent).stands_at(i))
    follower = RaceFollower(FIX_JAVA1).take(hub.sent)
    assert [end["total"] for end in follower.ends] == [short, long]
    assert follower.ends[0]["status"] == "found" and "tour" not in follower.ends[0]
    # a lane's end is told with the message that reaches it, not sooner
    for event, data in hub.sent:
        if event == "feed":
            counts = carries_onward("a000-java")
            reach = data["at"] + len(decode(data["lanes"][1], counts))  # the longer runs on
            assert (data["ends"][0] is not None) == (reach >= short)
    # the class plays until the last lane ends; its end is the first lane's, that long
    state = clock.public_state(rooms.find_room(code), rooms.now())
    assert state["gen"] == gen and state["end"]["total"] == long
    assert state["end"]["status"] == "found" and state["settings"]["race"] == "a000-java"


def test_another_process_serves_both_lanes_from_their_checkpoints_and_takes_over(feeds):
    code, _gen = lesson_room("loop-c")
    owner, owner_hub = feeds(code, "a")
    other, other_hub = feeds(code, "b")
    control(code, 300_000)
    tick_until(owner, lambda: RaceFollower(LOOP_C).take(owner_hub.sent).stands_at(300_000))
    room = rooms.find_room(code)
    assert [len(lease.load_checkpoints(code, room.gen, lane)) for lane in (0, 1)] >= [10, 10]
    other._tick()
    assert not other.owner and other_hub.sent == []
    theirs = other.read(room, 299_000)
    assert RaceFollower(LOOP_C).take([("snapshot", theirs)]).stands_at(299_000)
    assert all(lane.latest_checkpoint > 0 for lane in other.replica.timeline.lanes)
    owner._retire()
    other._tick()
    assert other.owner and all(lane.latest_checkpoint > 0 for lane in other.timeline.lanes)
    assert other_hub.sent[0][0] == "snapshot"
    control(code, 300_020)
    other._tick()
    assert RaceFollower(LOOP_C).take(other_hub.sent).stands_at(300_020)
