import assert from "node:assert/strict";
import { test } from "node:test";
import { TeacherControls } from "../../static/js/class/controls.js";
import { RoomFollower } from "../../static/js/class/follow.js";
import { settle } from "./support/fake-socket.js";

const SETTINGS = { rows: 6, cols: 6, start: [0, 0], algorithm: "seed", closed: false };

function state(seq, index, controlSeq, gen = 2) {
  const room = { gen, settings: SETTINGS, index, playing: false, speed: 10, frontier: 0 };
  return { ...room, end: null, seq, control_seq: controlSeq };
}

/** Controls whose messages wait for the test's answer, on a follower of the test's clock. */
function teacher() {
  const t = { clock: 0, sent: [] };
  t.follower = new RoomFollower({ now: () => t.clock, sync: async () => ({ ok: false }) });
  t.controls = new TeacherControls({
    follower: t.follower,
    now: () => t.clock,
    call: (event, payload) => new Promise((answer) => t.sent.push({ event, payload, answer })),
  });
  return t;
}

test("controls count on from the room's number and show at once", async () => {
  const t = teacher();
  t.follower.adoptState(state(4, 0, 12));
  t.controls.resume(t.follower.state);
  t.controls.control({ index: 40.4, playing: false, speed: 10 });
  assert.deepEqual(t.sent[0].payload, { seq: 13, gen: 2, index: 40, playing: false, speed: 10 });
  assert.equal(t.follower.target(), 40); // before the server answered
  assert.equal(t.controls.pending, 1);
  t.sent[0].answer({ ok: true, state: state(5, 40, 13) });
  await settle();
  assert.equal(t.controls.pending, 0);
  assert.equal(t.follower.intent, null);
});

test("a dragged slider sends at most one control per interval, the last one last", async () => {
  const t = teacher();
  t.follower.adoptState(state(4, 0, 0));
  for (let i = 1; i <= 5; i++) {
    t.clock += 10;
    t.controls.control({ index: i * 100, playing: false, speed: 10 }, { throttle: 100 });
  }
  assert.equal(t.sent.length, 1);
  assert.equal(t.controls.pending, 2); // one on its way, one waiting
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.deepEqual(
    t.sent.map((s) => s.payload.index),
    [100, 500],
  );
  assert.equal(t.follower.target(), 500);
});

test("new settings superseded by another page of the teacher's are sent again, counted on", async () => {
  const t = teacher();
  t.follower.adoptState(state(4, 0, 3));
  t.controls.resume(t.follower.state);
  const done = t.controls.settings(SETTINGS);
  await settle();
  assert.equal(t.sent[0].payload.seq, 4);
  t.sent[0].answer({ ok: false, error: { code: "superseded", state: state(6, 0, 9) } });
  await settle();
  assert.equal(t.sent[1].payload.seq, 10);
  t.sent[1].answer({ ok: true, state: state(7, 0, 10, 3) });
  assert.equal((await done).ok, true);
  assert.equal(t.follower.state.gen, 3);
});

test("lesson steps share the controls' numbers, and one superseded is sent again counted on", async () => {
  const t = teacher();
  t.follower.adoptState(state(4, 0, 3));
  t.controls.resume(t.follower.state);
  t.controls.control({ index: 5, playing: false, speed: 10 });
  const moved = t.controls.lesson("dfs", 1);
  assert.deepEqual(
    t.sent.map((s) => [s.event, s.payload.seq]),
    [
      ["control", 4],
      ["lesson", 5],
    ],
  );
  assert.deepEqual(t.sent[1].payload, { chapter: "dfs", step: 1, seq: 5 });
  t.sent[0].answer({ ok: true, state: state(5, 5, 4) });
  // another page of the teacher's counted to 9 meanwhile
  t.sent[1].answer({ ok: false, error: { code: "superseded", state: state(9, 5, 9) } });
  await settle();
  assert.deepEqual(t.sent[2].payload, { chapter: "dfs", step: 1, seq: 10 });
  const lessonState = { ...state(10, 12, 10, 3), lesson: { chapter: "dfs", step: 1 } };
  t.sent[2].answer({ ok: true, state: lessonState });
  const ack = await moved;
  assert.equal(ack.ok, true);
  assert.equal(t.follower.state.gen, 3);
  assert.deepEqual(t.follower.state.lesson, { chapter: "dfs", step: 1 });
  assert.equal(t.controls.pending, 0);
});
