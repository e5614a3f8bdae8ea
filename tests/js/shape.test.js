import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePuzzle, parseShape } from "../../static/js/core/shape.js";

// [code, art, holes] as server/engine/shape.py writes them (Shape(...).code and .art()),
// for random shapes of 3x4 up to 20x20 (random.Random(15), a fifth of the squares holes)
const SERVER_SHAPES = [
  ["3x4~CQA", "#..#/..../....", [0, 3]],
  ["6x6~BoQAkAI", ".##.../....#./...#../....../....#./.#.#..", [1, 2, 10, 15, 28, 31, 33]],
  [
    "7x9~gILgIAA4SAA",
    ".......#./#.....#../...###.../..#....../.......##/#.....#../#........",
    [7, 9, 15, 21, 22, 23, 29, 43, 44, 45, 51, 54],
  ],
  ["8x3~BkIA", ".##/.../.../#../..#/.../.../...", [1, 2, 9, 14]],
];

test("codes and art read as the server writes them", () => {
  for (const [code, art, holes] of SERVER_SHAPES) {
    const [rows, cols] = code.split("~")[0].split("x").map(Number);
    assert.deepEqual(parseShape(code), { rows, cols, holes }, code);
    assert.deepEqual(parseShape(art), { rows, cols, holes }, art);
  }
});

test("holes by name: a1 is bottom-left", () => {
  assert.deepEqual(parseShape("5x5:c3"), { rows: 5, cols: 5, holes: [12] });
  assert.deepEqual(parseShape(" 4x6: a1 , f4 "), { rows: 4, cols: 6, holes: [5, 18] });
  assert.deepEqual(parseShape("6x6"), { rows: 6, cols: 6, holes: [] });
});

test("puzzles carry the mode and the fixed start; a bare shape has neither", () => {
  assert.deepEqual(parsePuzzle("5x5~ABAAAA.o.a5"), {
    rows: 5,
    cols: 5,
    holes: [12],
    closed: false,
    start: 0,
  });
  assert.deepEqual(parsePuzzle("6x6.c"), {
    rows: 6,
    cols: 6,
    holes: [],
    closed: true,
    start: null,
  });
  assert.deepEqual(parsePuzzle("../.#").holes, [3]);
  assert.equal(parsePuzzle("../.#").closed, null);
});

test("bad texts are refused with the server's codes", () => {
  const refusals = [
    ["", "shape-malformed"],
    ["6y6", "shape-malformed"],
    ["21x5", "shape-too-big"],
    ["3x3~/w", "shape-malformed"],
    ["3x3~AA", "shape-malformed"], // 9 squares need 2 bytes: this is 1
    ["3x3~_wE", "shape-empty"],
    ["5x5:z9", "shape-malformed"],
    ["../.x", "shape-malformed"],
    ["../...", "shape-malformed"],
    ["5x5:c3.o.c3", "start-on-hole"],
    ["5x5.o.f1", "start-off-board"],
  ];
  for (const [text, code] of refusals) {
    assert.throws(
      () => parsePuzzle(text),
      (err) => err.code === code,
      text,
    );
  }
});
