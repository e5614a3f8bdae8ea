"""The class pages' follower (static/js/class/follow.js) in a real browser, driven message by
message: the room's states, snapshots and feed come from the server's own timeline, the clock
is the test's, and what the follower shows is compared with the engine's walk.

It orders states by (gen, seq), stands on a snapshot and the feed after it, asks ``sync``
when it cannot show where the class is (one at a time), and shows the teacher's controls
before the server answers them.
"""

from __future__ import annotations

import pytest

from server.engine.board import Board
from server.engine.walker import Walker
from server.stream.timeline import Demo, Timeline
from tests.support.follower import reference

pytestmark = pytest.mark.browser

SETTINGS = {
    "rows": 6,
    "cols": 6,
    "start": [0, 0],
    "algorithm": "seed",
    "closed": False,
    "pruning": False,
}
GEN = 2

# Helpers shared by the scripts below: a follower on the test's clock whose syncs wait for
# the test to answer them, and what its player shows.
PRELUDE = """
const { RoomFollower } = await import("/static/js/class/follow.js");
let clock = 0;
const syncs = [];
const follower = new RoomFollower({
  now: () => clock,
  sync: (payload) => new Promise((resolve) => syncs.push({ payload, resolve })),
});
follower.setConnected(true);
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const shows = () => {
  const p = follower.player;
  return {
    pos: p.pos, from: p.historyStart, received: p.received,
    path: Array.from(p.path.subarray(0, p.depth)), heat: Array.from(p.entered),
    nodes: p.moves, backtracks: p.backtracks, maxDepth: p.maxDepth,
  };
};
const columns = () => {
  const c = follower.columns;
  return [c.span, c.length, c.fill, c.events, Array.from(c.min.subarray(0, c.columns)),
          Array.from(c.max.subarray(0, c.columns))];
};
"""


@pytest.fixture(scope="module")
def timeline():
    demo = Demo(6, 6, 0, "seed", False, False, 5_000_000, 600.0)
    line = Timeline(demo)
    line.extend(30_000)
    yield line
    line.close()


def state(seq: int, index: int, *, playing=False, speed=10.0, control_seq=None, gen=GEN, end=None):
    return {
        "gen": gen,
        "settings": SETTINGS,
        "index": index,
        "playing": playing,
        "speed": speed,
        "frontier": 0,
        "end": end,
        "seq": seq,
        "control_seq": seq if control_seq is None else control_seq,
    }


def snapshot(line: Timeline, index: int, ahead: int = 0, gen: int = GEN) -> dict:
    return {"gen": gen, "keyframe": False, **line.snapshot(index, ahead=ahead)}


def feed(line: Timeline, start: int, stop: int, gen: int = GEN) -> dict:
    return {"gen": gen, "at": start, "events": line.events(start, stop)}


def truth(index: int) -> dict:
    """What the engine's walker holds after ``index`` events of the demo."""
    walker = Walker(Board(6, 6), 0, algorithm="seed")
    walker.advance(index)
    span, length, fill, events, mins, maxs = walker.chart.freeze()
    try:
        return {
            "path": list(walker.path),
            "nodes": walker.nodes,
            "backtracks": walker.backtracks,
            "maxDepth": walker.max_depth,
            "heat": list(walker.heat),
            "chart": [span, length, fill, events, list(mins), list(maxs)],
        }
    finally:
        walker.close()


def run(page, script: str, data: dict):
    page.goto("/class?lang=en")
    return page.evaluate(f"async (data) => {{ {PRELUDE}\n{script} }}", data)


def shown_as(result: dict, index: int) -> None:
    expected = truth(index)
    assert result["pos"] == index
    for key in ("path", "nodes", "backtracks", "maxDepth", "heat"):
        assert result[key] == expected[key], key


def test_a_snapshot_and_the_feed_after_it_show_every_event_exactly(page, timeline):
    out = run(
        page,
        """
        follower.adoptState(data.state);
        follower.adoptSnapshot(data.snapshot);        // 900..1200
        follower.tick();
        const atJoin = { ...shows(), columns: columns() };
        follower.addFeed(data.overlap);               // 1100..1400: the first 100 are held
        follower.adoptState(data.later);
        follower.tick();
        const later = { ...shows(), columns: columns() };
        for (let i = 0; i < 3; i++) follower.adoptState(data.back);  // stepping back to 905
        follower.tick();
        const back = shows();
        const refused = follower.adoptState(data.older);
        return { atJoin, later, back, tally: follower.tally, refused };
        """,
        {
            "state": state(5, 1000),
            "snapshot": snapshot(timeline, 1000, ahead=200),
            "overlap": feed(timeline, 1100, 1400),
            "later": state(6, 1350),
            "back": state(7, 905),
            "older": state(6, 2000),
        },
    )
    shown_as(out["atJoin"], 1000)
    assert out["atJoin"]["from"] == 900 and out["atJoin"]["received"] == 1200
    assert out["atJoin"]["columns"] == truth(1000)["chart"]  # the chart goes on from the snapshot's
    shown_as(out["later"], 1350)
    assert out["later"]["received"] == 1400
    assert out["later"]["columns"] == truth(1350)["chart"]
    shown_as(out["back"], 905)
    assert out["tally"] == {"snapshots": 1, "syncs": 0, "holes": 0}
    assert out["refused"] is False  # an older state never replaces a newer one


def test_a_hole_in_the_feed_asks_one_sync_and_its_snapshot_fills_it(page, timeline):
    out = run(
        page,
        """
        follower.adoptState(data.state);
        follower.adoptSnapshot(data.snapshot);        // 1900..2200
        follower.addFeed(data.gap);                    // 2500..2600: 2200..2500 never came
        for (let i = 0; i < 5; i++) { clock += 400; follower.tick(); }
        const asked = syncs.map((s) => s.payload);
        syncs[0].resolve({ ok: true, state: data.state, snapshot: data.answer });
        await settle();
        follower.addFeed(data.next);                   // 2400..2700 after the sync's 1900..2400
        follower.adoptState(data.later);
        follower.tick();
        return { asked, inFlight: syncs.length, later: shows(), tally: follower.tally };
        """,
        {
            "state": state(3, 2000),
            "snapshot": snapshot(timeline, 2000, ahead=200),
            "gap": feed(timeline, 2500, 2600),
            "answer": snapshot(timeline, 2000, ahead=400),
            "next": feed(timeline, 2400, 2700),
            "later": state(4, 2650),
        },
    )
    assert out["asked"] == [{"gen": GEN, "index": 2000}]
    assert out["inFlight"] == 1  # never a second sync while one is on its way
    shown_as(out["later"], 2650)
    assert out["later"]["from"] == 1900  # the sync's snapshot overlapped: the history stays
    assert out["tally"] == {"snapshots": 1, "syncs": 1, "holes": 1}


def test_the_class_index_moves_on_while_it_plays_and_stops_at_the_end(page, timeline):
    out = run(
        page,
        """
        follower.adoptState(data.playing);            // 1000 at 100 events/s
        follower.adoptSnapshot(data.snapshot);
        const targets = [];
        for (const ms of [0, 500, 1000]) { clock = ms; targets.push(follower.target()); }
        follower.adoptState(data.toTheEnd);          // run to the end: as far as computed
        targets.push(follower.target());
        follower.adoptState(data.ended);             // playing again; the search ended at 1150
        clock = 5000;
        targets.push(follower.target());
        return targets;
        """,
        {
            "playing": state(2, 1000, playing=True, speed=100.0),
            "snapshot": snapshot(timeline, 1000, ahead=200),
            "toTheEnd": {**state(3, 1000, playing=True, speed=None), "frontier": 1500},
            "ended": state(
                4, 1000, playing=True, speed=100.0, end={"status": "found", "total": 1150}
            ),
        },
    )
    assert out == [1000, 1050, 1100, 1500, 1150]


def test_out_of_reach_with_nothing_coming_it_syncs_but_not_while_keyframes_come(page, timeline):
    out = run(
        page,
        """
        follower.adoptState(data.state);
        follower.adoptSnapshot(data.snapshot);        // 900..1000
        follower.adoptState(data.far);               // the class jumped to 20,000
        const seen = [];
        const steps = [[100, 0], [400, 1], [800, 0], [900, 1], [1400, 0], [1600, 0]];
        for (const [ms, keyframe] of steps) {
          clock = ms;
          if (keyframe) follower.adoptSnapshot(data.keyframe);  // the server computing towards it
          follower.tick();
          seen.push(syncs.length);
        }
        return { seen, asked: syncs.map((s) => s.payload), pos: follower.player.pos };
        """,
        {
            "state": state(2, 1000),
            "snapshot": snapshot(timeline, 1000),
            "far": state(3, 20_000),
            "keyframe": snapshot(timeline, 15_000),
        },
    )
    assert out["seen"] == [0, 0, 0, 0, 0, 1]  # 600 ms after the last keyframe, not before
    assert out["asked"] == [{"gen": GEN, "index": 20_000}]
    assert out["pos"] == 15_000  # keyframes are drawn as they come


def test_the_teachers_controls_show_at_once_until_the_server_answers(page, timeline):
    out = run(
        page,
        """
        follower.adoptState(data.state);
        follower.adoptSnapshot(data.snapshot);
        const targets = [];
        follower.intend({ seq: 7, gen: 2, index: 1210, playing: false, speed: 10 });
        targets.push(follower.target());
        follower.adoptState(data.unrelated);          // a newer state, but older than control 7
        targets.push(follower.target());
        follower.settle(7, { ok: true, state: data.applied });
        targets.push(follower.target(), follower.intent);
        follower.intend({ seq: 8, gen: 2, index: 1300, playing: false, speed: 10 });
        follower.settle(8, { ok: false, error: { code: "superseded", state: data.newer } });
        targets.push(follower.target(), follower.intent);
        return targets;
        """,
        {
            "state": state(6, 1250),
            "snapshot": snapshot(timeline, 1250, ahead=200),
            "unrelated": state(7, 1250, control_seq=6),
            "applied": state(8, 1210, control_seq=7),
            "newer": state(10, 500, control_seq=9),
        },
    )
    assert out == [1210, 1210, 1210, None, 500, None]


def test_a_new_demo_drops_the_old_one_and_keeps_an_early_snapshot(page, timeline):
    out = run(
        page,
        """
        follower.adoptState(data.state);
        follower.adoptSnapshot(data.snapshot);
        follower.adoptSnapshot(data.early);           // gen 3's, before gen 3's state
        const kept = follower.player.received;       // still gen 2's
        follower.adoptState(data.next);
        follower.tick();
        const { received, pos } = follower.player;
        return { kept, received, pos, gen: follower.state.gen };
        """,
        {
            "state": state(2, 1000),
            "snapshot": snapshot(timeline, 1000),
            "early": snapshot(timeline, 0, ahead=200, gen=GEN + 1),
            "next": state(1, 0, gen=GEN + 1),
        },
    )
    assert out == {"kept": 1000, "received": 200, "pos": 0, "gen": GEN + 1}


def test_a_warnsdorff_snapshot_reads_its_onward_counts(page):
    settings = {**SETTINGS, "algorithm": "warnsdorff", "closed": True}
    line = Timeline(Demo(6, 6, 0, "warnsdorff", True, False, 5_000_000, 600.0))
    try:
        line.extend(2_000)
        room = {**state(2, 1234), "settings": settings}
        out = run(
            page,
            """
            follower.adoptState(data.state);
            follower.adoptSnapshot(data.snapshot);
            follower.tick();
            return shows();
            """,
            {"state": room, "snapshot": snapshot(line, 1234, ahead=200)},
        )
    finally:
        line.close()
    expected = reference(settings, 1234)
    assert (out["pos"], out["path"], out["nodes"]) == (1234, expected.path, expected.nodes)
