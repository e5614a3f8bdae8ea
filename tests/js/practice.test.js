// The practice's controller (practice/practice.js) on a real playback clock and player:
// where it stops, what it asks, the streak it keeps, and what closes a question uncounted.
// Frames are run as the pages run them: the hook, then the players follow the clock.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MARK } from "../../static/js/board/state.js";
import { GAP_S, MIN_EVENTS, Practice } from "../../static/js/practice/practice.js";
import { PlaybackClock, seekPlayers } from "../../static/js/stream/clock.js";
import { decodeBatch } from "../../static/js/stream/decode.js";
import { Player } from "../../static/js/stream/player.js";
import { flat, searchEvents } from "./support/search.js";

const EVENTS = searchEvents(6, 6, 0, 4000);

function memory() {
  const items = new Map();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => items.set(key, String(value)),
  };
}

/** A lane holding the search's first `held` events, a clock at `speed`, and a practice. */
function setup({ speed = 10, held = EVENTS.length, random = () => 0.5, storage = memory() } = {}) {
  const player = new Player({ rows: 6, cols: 6, path: [] });
  player.push(decodeBatch(flat(EVENTS.slice(0, held)), { squares: 36 }));
  const lane = { player, settings: { rows: 6, cols: 6, holes: [] } };
  const clock = new PlaybackClock({ speed });
  let changes = 0;
  const practice = new Practice({ clock, storage, random, onChange: () => changes++ });
  const run = { lane, clock, practice, storage, now: 0, changes: () => changes };
  /** Frames of 50 ms until `done()` or `limit` frames, as a page runs them. */
  run.frames = (done = () => false, limit = 2000) => {
    for (let i = 0; i < limit && !done(); i++) {
      run.now += 50;
      practice.frame(run.now, [lane]);
      seekPlayers([lane.player], clock.target(run.now));
    }
  };
  return run;
}

const asked = (run) => () => run.practice.state === "open";

test("playing at a speed one can follow, it stops some seconds on, before the next event", () => {
  const run = setup({ speed: 10 });
  const { practice, clock, lane } = run;
  practice.setOn(true);
  clock.play(0, run.now);
  run.frames(asked(run));
  assert.equal(practice.state, "open");
  const { question } = practice;
  // random() = 0.5: 14 s of playback at 10 events a second, then the first that fits
  const planned = Math.round(((GAP_S[0] + GAP_S[1]) / 2) * 10);
  assert.ok(question.index >= planned && question.index < planned + 5, `${question.index}`);
  assert.equal(clock.playing, false);
  assert.equal(clock.index, question.index);
  assert.equal(lane.player.pos, question.index, "the board shows the question's position");
  const path = Array.from(lane.player.path.subarray(0, lane.player.depth));
  assert.deepEqual(question.path, path);
  run.frames(() => false, 40); // it stays asked while nothing moves
  assert.equal(practice.state, "open");
  assert.equal(lane.player.pos, question.index);
});

test("never at the fastest speed, running to the end, or switched off", () => {
  for (const how of ["max", "end", "off"]) {
    const run = setup({ speed: how === "max" ? null : 10, held: 600 });
    run.practice.setOn(how !== "off");
    run.clock.play(0, run.now);
    if (how === "end") run.clock.runToEnd(run.now);
    run.frames(asked(run), 400);
    assert.notEqual(run.practice.state, "open", how);
    // on, it would have stopped 14 s in; it played on (switched off: 20 s at 10 a second)
    const played = how === "off" ? 200 : 600;
    assert.equal(run.lane.player.pos, played, `${how}: it played on`);
  }
});

test("right answers make the streak, a wrong one ends it; both are kept in storage", () => {
  const storage = memory();
  const run = setup({ storage });
  const { practice, clock } = run;
  practice.setOn(true);
  clock.play(0, run.now);
  const round = (right) => {
    run.frames(asked(run));
    const { answer, values } = practice.question;
    assert.equal(practice.answer(right ? answer : (answer + 1) % values), true);
    assert.equal(practice.right, right);
    assert.equal(practice.answer(answer), false, "one answer per question");
    practice.proceed(run.now);
    assert.equal(clock.playing, true);
  };
  round(true);
  round(true);
  round(true);
  assert.deepEqual([practice.streak, practice.best], [3, 3]);
  round(false);
  round(true);
  assert.deepEqual([practice.streak, practice.best], [1, 3]);
  const again = new Practice({ clock: new PlaybackClock(), storage });
  assert.deepEqual([again.streak, again.best], [1, 3], "the next page carries on");
  const spoilt = memory();
  spoilt.setItem("practice.streak", "{not json");
  assert.deepEqual(new Practice({ clock, storage: spoilt }).best, 0);
});

test("a step, a seek, play, a restart or another demo closes an open question uncounted", () => {
  for (const how of ["step", "back", "seek", "play", "restart", "gone", "off"]) {
    const run = setup();
    const { practice, clock, lane } = run;
    practice.setOn(true);
    clock.play(0, run.now);
    run.frames(asked(run));
    const { index } = practice.question;
    if (how === "step") clock.step(index);
    if (how === "back") clock.back(index);
    if (how === "seek") clock.pause(index + 40);
    if (how === "play") clock.play(index, run.now);
    if (how === "restart") lane.player = new Player({ rows: 6, cols: 6, path: [] });
    if (how === "off") practice.setOn(false);
    run.now += 50;
    // the next frame's hook sees it; while a restarted run starts, no lane plays at all
    practice.frame(run.now, how === "gone" ? [] : [lane]);
    assert.equal(practice.state, how === "off" ? "off" : "waiting", how);
    assert.equal(practice.question, null);
    assert.equal(practice.answer(0), false, `${how}: nothing to answer`);
    assert.deepEqual([practice.streak, practice.best], [0, 0], how);
  }
});

test("continue plays on from the question; the next one comes at least a few events later", () => {
  const run = setup({ random: () => 0 });
  const { practice, clock } = run;
  practice.gap = [0, 0]; // at once: the fewest events apart
  practice.setOn(true);
  clock.play(0, run.now);
  run.frames(asked(run));
  const first = practice.question.index;
  assert.ok(first >= MIN_EVENTS);
  practice.proceed(run.now); // skipped: not counted
  assert.deepEqual([practice.state, practice.streak, clock.playing], ["waiting", 0, true]);
  run.frames(asked(run));
  assert.ok(practice.question.index >= first + MIN_EVENTS, `${practice.question.index}`);
});

test("a kind that fits only further on is asked at the first position where it does", () => {
  const run = setup();
  const { practice, clock, lane } = run;
  practice.kinds = ["frame"];
  practice.setOn(true);
  clock.play(0, run.now);
  run.frames(asked(run));
  const { index, kind } = practice.question;
  assert.equal(kind, "frame");
  assert.ok(lane.player.eventAt(index).back, "the knight is stuck: the next event steps back");
  assert.ok(!lane.player.eventAt(index - 1).back, "it had just moved in");
});

test("it waits for the events the question needs, then asks", () => {
  const run = setup({ held: 120 });
  const { practice, clock, lane } = run;
  practice.setOn(true);
  clock.play(0, run.now);
  run.frames(asked(run), 600);
  assert.equal(practice.state, "waiting", "the stop is past what is held");
  lane.player.push(decodeBatch(flat(EVENTS.slice(120, 400)), { squares: 36 }));
  run.frames(asked(run));
  assert.equal(practice.state, "open");
  assert.ok(practice.question.index >= 120);
});

test("a square question takes a tap on its lane's board, among the squares it marks", () => {
  const run = setup();
  const { practice, clock, lane } = run;
  practice.kinds = ["next"];
  practice.setOn(true);
  clock.play(0, run.now);
  run.frames(asked(run));
  const { answer } = practice.question;
  const targets = practice.targets();
  assert.ok(targets.includes(answer));
  assert.deepEqual(
    practice.marks().marks,
    targets.map((sq) => [sq, MARK.legal, -1]),
  );
  assert.equal(practice.tapped({}, answer), false, "another lane's board is not asked");
  const knight = practice.question.path.at(-1);
  assert.equal(practice.tapped(lane, knight), true, "taken, but no answer: not a target");
  assert.equal(practice.state, "open");
  const wrong = targets.find((sq) => sq !== answer);
  assert.equal(practice.tapped(lane, wrong), true);
  assert.equal(practice.right, false);
  const { marks, ring } = practice.marks();
  assert.equal(ring, answer, "the move made is ringed");
  const struck = marks.filter(([sq]) => sq === wrong);
  assert.deepEqual(struck, [[wrong, MARK.dead, -1]], "the wrong square struck, once");
  assert.equal(practice.tapped(lane, answer), false, "answered: the board is the page's again");
});

test("waiting at the fastest speed, it says a slower one brings questions", () => {
  const run = setup({ speed: null });
  run.practice.setOn(true);
  run.clock.play(0, run.now);
  run.frames(() => false, 2);
  assert.equal(run.practice.waitingFor, "speed");
  const before = run.changes();
  run.clock.setSpeed(10, run.now);
  run.frames(() => false, 1);
  assert.equal(run.practice.waitingFor, "play");
  assert.equal(run.changes(), before + 1, "said once");
});
