// The Watch page's controller without a DOM: plain objects for its elements, fake lanes
// whose runs the test starts, refuses or finishes, and a transport bar that records what it
// was told to show.
import assert from "node:assert/strict";
import { test } from "node:test";
import { nameOf } from "../../static/js/core/squares.js";
import { WatchController } from "../../static/js/watch/controller.js";
import { fakeLane, fakePlayer } from "./support/lanes.js";

/** The controller on a form whose settings the test sets (`form`). */
function watchPage(form = {}) {
  const element = () => ({ hidden: true, textContent: "", dataset: {} });
  const shown = []; // what the transport bar was told, latest last
  const settings = {
    rows: 5,
    cols: 5,
    holes: [],
    start: 20,
    algorithm: "seed",
    algorithmB: "warnsdorff",
    closed: false,
    pruning: false,
    race: false,
    shapeError: null,
    ...form,
  };
  let now = 1000;
  const watch = new WatchController({
    view: {
      page: element(),
      formError: element(),
      raceResult: element(),
      startName: element(),
    },
    // as watch/main.js reads the form: the start square is kept on the same board
    readForm: (previous) => ({ ...settings, start: previous?.start ?? settings.start }),
    lanes: [fakeLane(), fakeLane()],
    code: { configure() {}, highlight() {} },
    transport: (actions) => ({
      actions,
      speed: 10,
      show: (bar) => shown.push(bar),
      showSpeed() {},
    }),
    connect: () => ({}),
    now: () => now,
  });
  watch.open();
  const later = (ms) => {
    now += ms;
    return now;
  };
  return { watch, shown, lanes: watch.lanes, later };
}

test("a square picked before a run is the start; a hole is not; during a run none is", async () => {
  const { watch, lanes } = watchPage({ holes: [7] });
  lanes[0].board.onSquare(3);
  assert.equal(watch.settings.start, 3);
  assert.equal(watch.view.startName.textContent, nameOf(3, 5, 5));
  lanes[0].board.onSquare(7);
  assert.equal(watch.settings.start, 3, "a hole is no square to start from");

  const started = watch.start();
  lanes[0].board.onSquare(4);
  assert.equal(watch.settings.start, 3, "not while the run is starting");
  lanes[0].starts[0].answer(fakePlayer(50));
  await started;
  assert.equal(lanes[0].starts[0].settings.start, 3);
  lanes[0].board.onSquare(4);
  assert.equal(watch.settings.start, 3, "watching: the board is read-only");
});

test("a shape the form cannot read is said, and no run starts", async () => {
  const { watch, lanes } = watchPage({ shapeError: "shape-malformed" });
  await watch.start();
  assert.equal(lanes[0].starts.length, 0);
  assert.equal(watch.view.formError.hidden, false);
  assert.equal(watch.view.formError.textContent, "class.error.bad-puzzle.shape-malformed");
  assert.equal(watch.page.dataset.phase, "setup");
});

test("a refused run is said under the form and the page is back at its setup", async () => {
  const { watch, lanes, shown } = watchPage();
  const started = watch.start();
  assert.equal(watch.page.dataset.phase, "running");
  await watch.start(); // pressed again while the first is on its way
  assert.equal(lanes[0].starts.length, 1, "one run asked for");
  lanes[0].starts.shift().refuse(new Error("too many runs"));
  await started;
  assert.equal(watch.page.dataset.phase, "setup");
  assert.equal(watch.view.formError.textContent, "too many runs");
  assert.equal(shown.at(-1).enabled.restart, true, "and it can be started again");
});

test("once every lane is done the page stands at the end and names the race's winner", async () => {
  const { watch, lanes, shown, later } = watchPage({ race: true });
  const started = watch.start();
  assert.equal(lanes[1].root.hidden, false, "race mode shows the second lane");
  lanes[0].starts[0].answer(fakePlayer(40, { finished: true }));
  lanes[1].starts[0].answer(fakePlayer(90, { finished: true }));
  await started;
  watch.clock.runToEnd(later(0));
  watch.playback.loop.frame(later(16));
  assert.equal(watch.page.dataset.phase, "finished");
  assert.equal(watch.clock.playing, false);
  assert.equal(watch.clock.index, 90, "at the furthest lane's end");
  assert.equal(watch.view.raceResult.hidden, false);
  assert.equal(lanes[0].root.dataset.winner, "true", "fewer events won");
  assert.equal(lanes[1].root.dataset.winner, "false");
  assert.deepEqual(shown.at(-1).enabled, {
    restart: true,
    back: true,
    step: false,
    end: false,
    play: false,
  });

  watch.transport.actions.back(); // stepping back from the end: the race is open again
  assert.equal(watch.page.dataset.phase, "running");
  assert.equal(watch.view.raceResult.hidden, true);
  assert.equal(watch.clock.index, 89);
});

test("while a race's second run starts, the transport cannot jump the first to its end", async () => {
  const { watch, lanes, shown, later } = watchPage({ race: true });
  const started = watch.start();
  lanes[0].starts[0].answer(fakePlayer(500)); // the first lane plays; the second waits
  lanes[0].seekable = true;
  await Promise.resolve();
  watch.playback.loop.frame(later(16));
  const off = { restart: false, back: false, step: false, end: false, play: false };
  assert.deepEqual(shown.at(-1).enabled, off);
  assert.equal(shown.at(-1).seek, null);
  watch.transport.actions.end(); // a key pressed, or a click that was on its way
  watch.transport.actions.play();
  assert.deepEqual(lanes[0].seeks, [], "no seek while the runs start");
  assert.equal(watch.clock.playing, false);

  lanes[1].starts[0].answer(fakePlayer(500));
  lanes[1].seekable = true;
  await started;
  assert.equal(watch.clock.playing, true, "both in: the clock starts from 0");
  assert.equal(watch.clock.index, 0);
  assert.equal(shown.at(-1).enabled.end, true);
  watch.transport.actions.end();
  assert.deepEqual([lanes[0].seeks, lanes[1].seeks], [[null], [null]]);
  watch.playback.landed({ index: 4000, end: { total: 4000 } });
  assert.equal(watch.clock.index, 4000);
  assert.equal(watch.clock.playing, false, "the end stays where it landed");
});

test("a step back before what the page holds asks the server; within it, it is the page's", async () => {
  const { watch, lanes, later } = watchPage();
  const started = watch.start();
  const player = fakePlayer(500, { canStepBack: false });
  lanes[0].starts[0].answer(player);
  await started;
  lanes[0].seekable = true;
  watch.clock.pause(300);
  watch.playback.loop.frame(later(16));
  assert.equal(player.pos, 300);

  watch.transport.actions.back();
  assert.deepEqual(lanes[0].seeks, [299], "the server's checkpoints reach back further");
  assert.equal(watch.clock.playing, false);

  player.canStepBack = true;
  watch.transport.actions.back();
  assert.deepEqual(lanes[0].seeks, [299], "held here: no seek");
  assert.equal(watch.clock.index, 299);

  watch.transport.actions.end();
  assert.deepEqual(lanes[0].seeks, [299, null], "the end is the server's to compute");
  watch.playback.landed({ index: 4000, end: { total: 4000 } });
  assert.equal(watch.clock.index, 4000);
  assert.equal(watch.clock.playing, false);
});

test("the seek slider moves the page at once within what it holds, the server only once let go", async () => {
  const { watch, lanes, later } = watchPage();
  const started = watch.start();
  lanes[0].starts[0].answer(fakePlayer(500));
  await started;
  lanes[0].seekable = true;
  watch.transport.actions.seek(120, { done: false });
  assert.equal(watch.clock.index, 120);
  assert.deepEqual(lanes[0].seeks, []);
  watch.transport.actions.seek(9000, { done: false }); // beyond what it holds, still dragging
  assert.deepEqual(lanes[0].seeks, []);
  watch.transport.actions.seek(9000, { done: true });
  assert.deepEqual(lanes[0].seeks, [9000]);
  watch.playback.loop.frame(later(16));
  assert.equal(watch.clock.index, 120, "the page stands where it was until the seek lands");
});

test("the practice's hook runs each frame before the players follow the clock", async () => {
  const { watch, lanes, later } = watchPage();
  const started = watch.start();
  lanes[0].starts[0].answer(fakePlayer(500));
  await started;
  const calls = [];
  watch.playback.practice = {
    frame(now, current) {
      calls.push(current);
      if (watch.clock.target(now) >= 5) watch.clock.pause(5); // a question at event 5
    },
  };
  watch.playback.loop.frame(later(16));
  watch.playback.loop.frame(later(2000)); // 20 events at 10 a second
  assert.deepEqual(calls.at(-1), [lanes[0]], "given the lanes that play");
  assert.equal(watch.clock.playing, false);
  assert.equal(lanes[0].player.pos, 5, "the board stops at the question, not past it");
});
