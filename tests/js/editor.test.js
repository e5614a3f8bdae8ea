import assert from "node:assert/strict";
import { test } from "node:test";
import {
  createPuzzle,
  openSquares,
  puzzleCode,
  puzzleFromAnswer,
  resizePuzzle,
  setStart,
  shapeCode,
  toggleHole,
} from "../../static/js/editor/puzzle.js";
import { VerdictAsker } from "../../static/js/editor/verdict.js";

/** The holes a shape code names, read back bit by bit (base64url, little-endian). */
function holesOf(code) {
  const [dims, mask = ""] = code.split("~");
  const [rows, cols] = dims.split("x").map(Number);
  const bytes = Buffer.from(mask, "base64url");
  assert.equal(bytes.length, mask ? Math.ceil((rows * cols) / 8) : 0);
  const holes = [];
  for (let sq = 0; sq < rows * cols; sq++) if (bytes[sq >> 3] & (1 << (sq & 7))) holes.push(sq);
  return holes;
}

test("a plain rectangle's code is its size and mode; a fixed start adds its name", () => {
  assert.equal(puzzleCode(createPuzzle(6, 6)), "6x6.o");
  assert.equal(puzzleCode(createPuzzle(5, 8, { closed: true, start: 32 })), "5x8.c.a1");
});

test("the documented example: f6 cut from 6x6, open, from a1", () => {
  assert.equal(puzzleCode(createPuzzle(6, 6, { holes: [5], start: 30 })), "6x6~IAAAAAA.o.a1");
});

test("holes travel as a bitmask in unpadded base64url that reads back the same", () => {
  for (const [rows, cols, holes] of [
    [3, 3, [4]],
    [20, 20, [0, 1, 7, 8, 63, 255, 256, 398, 399]],
    [7, 11, [3, 14, 15, 16, 76]],
  ]) {
    const code = shapeCode(createPuzzle(rows, cols, { holes }));
    assert.match(code, /^\d+x\d+~[A-Za-z0-9_-]+$/);
    assert.deepEqual(holesOf(code), holes);
  }
});

test("a hole on the start frees it; the start on a hole fills it; the last square stays", () => {
  const puzzle = createPuzzle(3, 3, { start: 0 });
  assert.ok(toggleHole(puzzle, 0));
  assert.equal(puzzle.start, -1);
  assert.ok(setStart(puzzle, 0));
  assert.ok(!puzzle.holes.has(0));
  assert.equal(puzzle.start, 0);
  assert.ok(setStart(puzzle, 0)); // on the start again: free
  assert.equal(puzzle.start, -1);
  for (let sq = 0; sq < 8; sq++) assert.ok(toggleHole(puzzle, sq));
  assert.equal(openSquares(puzzle), 1);
  assert.ok(!toggleHole(puzzle, 8));
  assert.ok(toggleHole(puzzle, 3)); // filling is always allowed
  assert.equal(openSquares(puzzle), 2);
});

test("resizing keeps the holes and the start where they still fit", () => {
  const puzzle = createPuzzle(4, 4, { holes: [0, 5, 15], start: 10, closed: true });
  const smaller = resizePuzzle(puzzle, 3, 3);
  assert.deepEqual(
    [...smaller.holes].sort((a, b) => a - b),
    [0, 4],
  ); // (0,0), (1,1)
  assert.equal(smaller.start, 8); // (2,2)
  assert.equal(smaller.closed, true);
  const wider = resizePuzzle(puzzle, 4, 6);
  assert.deepEqual(
    [...wider.holes].sort((a, b) => a - b),
    [0, 7, 21],
  );
  assert.equal(wider.start, 14);
});

test("the server's answer becomes the puzzle it read", () => {
  const puzzle = puzzleFromAnswer({
    rows: 5,
    cols: 4,
    closed: true,
    start: [4, 0],
    holes: [
      [0, 0],
      [2, 3],
    ],
  });
  assert.equal(puzzle.start, 16);
  assert.deepEqual([...puzzle.holes], [0, 11]);
  assert.equal(puzzleCode(puzzle), `${shapeCode(puzzle)}.c.a1`);
});

/** Timers run by hand, and posts answered by hand in any order. */
function harness() {
  const timers = {
    queue: [],
    setTimeout(fn) {
      this.queue.push(fn);
      return this.queue.length;
    },
    clearTimeout(id) {
      if (id) this.queue[id - 1] = null;
    },
    flush() {
      const due = this.queue.filter(Boolean);
      this.queue = [];
      for (const fn of due) fn();
    },
  };
  const posts = [];
  const post = (code, witness) =>
    new Promise((resolve, reject) => posts.push({ code, witness, resolve, reject }));
  const shown = [];
  const asker = new VerdictAsker({
    post,
    timers,
    onAnswer: (answer, how) => shown.push(["answer", answer.puzzle, how.witness]),
    onError: (err) => shown.push(["error", err.message]),
  });
  return { asker, timers, posts, shown };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test("a burst of changes asks once, about the last drawing", async () => {
  const { asker, timers, posts, shown } = harness();
  asker.ask("5x5.o");
  asker.ask("5x5.c");
  asker.ask("6x6.c");
  timers.flush();
  assert.deepEqual(
    posts.map((p) => p.code),
    ["6x6.c"],
  );
  posts[0].resolve({ puzzle: "6x6.c" });
  await tick();
  assert.deepEqual(shown, [["answer", "6x6.c", false]]);
  assert.equal(asker.pending, false);
});

test("an answer overtaken by a newer question is dropped, whatever order they arrive in", async () => {
  const { asker, timers, posts, shown } = harness();
  asker.ask("5x5.o");
  timers.flush();
  asker.ask("5x5.c", { witness: true, now: true });
  timers.flush();
  assert.equal(asker.pending, true);
  posts[1].resolve({ puzzle: "5x5.c" });
  posts[0].resolve({ puzzle: "5x5.o" }); // late: the page shows 5x5.c now
  await tick();
  assert.deepEqual(shown, [["answer", "5x5.c", true]]);
  asker.ask("4x4.o");
  timers.flush();
  asker.ask("4x5.o");
  timers.flush();
  posts[2].reject(new Error("stale failure"));
  posts[3].reject(new Error("too many"));
  await tick();
  assert.deepEqual(shown.at(-1), ["error", "too many"]);
  assert.equal(shown.length, 2);
});
