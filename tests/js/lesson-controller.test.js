// The lesson controller without a DOM: fake lanes whose runs the test starts, refuses or
// finishes, so orders of events a slow machine produces can be replayed exactly.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mock, test } from "node:test";
import { LessonController } from "../../static/js/lesson/controller.js";
import { fakeLane, fakePlayer } from "./support/lanes.js";

const CHAPTERS = JSON.parse(
  readFileSync(new URL("../../server/lesson/chapters.json", import.meta.url), "utf8"),
).chapters;
const WARNSDORFF = CHAPTERS.findIndex((chapter) => chapter.id === "warnsdorff");
const DFS = CHAPTERS.findIndex((chapter) => chapter.id === "dfs");

function controller() {
  const element = () => ({ hidden: true, textContent: "", dataset: {} });
  const lanes = [fakeLane(), fakeLane()];
  const lesson = new LessonController({
    chapters: CHAPTERS,
    lanes,
    code: { configure() {}, highlight() {} },
    connection: {},
    view: {
      where: element(),
      title: element(),
      text: element(),
      error: element(),
      verdict: element(),
    },
  });
  return { lesson, lane: lanes[0] };
}

function busy() {
  return Object.assign(new Error("too many runs"), { code: "too-many-runs" });
}

/** Let every settled promise's continuations run. */
async function settle() {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

test("a step pressed while its chapter's demo is refused as busy still gets the demo", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { lesson, lane } = controller();
    const first = lesson.goTo(WARNSDORFF, 0);
    const second = lesson.goTo(WARNSDORFF, 1); // the next key, before the demo started
    assert.equal(lane.started, 1, "one start for one chapter");

    lane.starts.shift().refuse(busy()); // the previous chapter's runs still count
    await settle();
    mock.timers.tick(1_000);
    await settle();
    assert.equal(lane.started, 2, "the start is tried again: the chapter is still wanted");

    lane.starts.shift().answer(fakePlayer(100));
    await Promise.all([first, second]);
    assert.equal(lesson.view.error.hidden, true);
    lesson.tick(0);
    const at = CHAPTERS[WARNSDORFF].steps[1].at;
    assert.equal(lane.player.pos, at, "the lesson stands where the last key put it");
  } finally {
    mock.timers.reset();
  }
});

test("a busy start is given up once another chapter is asked for", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { lesson, lane } = controller();
    const first = lesson.goTo(WARNSDORFF, 0);
    lane.starts.shift().refuse(busy());
    await settle();
    lesson.goTo(WARNSDORFF + 1, 0); // the race chapter: a new demo (left starting)
    mock.timers.tick(1_000);
    await settle();
    assert.equal(lane.started, 2, "only the new chapter's start; the old one is not retried");
    assert.equal(lane.starts.at(-1).settings.race, true);
    lane.starts.shift().answer(fakePlayer(10));
    await first;
    assert.equal(lesson.view.error.hidden, true, "a start given up is no error");
  } finally {
    mock.timers.reset();
  }
});

test("a refusal other than busy is shown, once, by the step that waited for it", async () => {
  const { lesson, lane } = controller();
  const first = lesson.goTo(WARNSDORFF, 0);
  const second = lesson.goTo(WARNSDORFF, 1);
  lane.starts.shift().refuse(new Error("the server said no"));
  await Promise.all([first, second]);
  assert.equal(lane.started, 1);
  assert.equal(lesson.view.error.hidden, false);
  assert.equal(lesson.view.error.textContent, "the server said no");
});

test("the lanes count the playback a step plays, so their events/s and time move", async () => {
  const { lesson, lane } = controller();
  const step = lesson.goTo(DFS, 1); // plays to event 12 at 2 events per second
  lane.starts.shift().answer(fakePlayer(100));
  await step;
  assert.equal(lesson.clock.playing, true);
  const start = performance.now();
  lesson.tick(start);
  lesson.tick(start + 100);
  lesson.tick(start + 350);
  const playing = lane.counted.filter((call) => call.playing);
  assert.deepEqual(
    playing.slice(-2).map((call) => Math.round(call.dt * 1000)),
    [100, 250],
    "each frame adds the time since the last one",
  );
  lesson.tick(start + 60_000); // past event 12: the step stops there
  assert.equal(lesson.clock.playing, false);
  assert.equal(lane.counted.at(-1).playing, false, "paused: the rate drops");
  assert.equal(lane.counted.at(-1).dt, 0.25, "a long gap counts as one frame at most");
});

test("the practice's hook stops a step's play before its stop; played on, the step stops", async () => {
  const { lesson, lane } = controller();
  const step = lesson.goTo(DFS, 1); // plays to event 12 at 2 events per second
  lane.starts.shift().answer(fakePlayer(100));
  await step;
  let asked = false;
  lesson.practice = {
    frame(now, current) {
      assert.deepEqual(current, [lane]);
      if (!asked && lesson.clock.target(now) >= 5) {
        asked = true;
        lesson.clock.pause(5); // a question at event 5
      }
    },
  };
  const start = performance.now();
  lesson.tick(start);
  lesson.tick(start + 5_000); // event 10 by the step's clock
  assert.equal(lesson.clock.playing, false);
  assert.equal(lane.player.pos, 5);
  lesson.clock.play(5, start + 6_000); // the student continues
  lesson.tick(start + 60_000);
  assert.equal(lane.player.pos, 12, "the step's own stop still holds");
  assert.equal(lesson.clock.playing, false);
});
