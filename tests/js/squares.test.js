import assert from "node:assert/strict";
import { test } from "node:test";
import { boardLimits, clampSide, fits, searchNodeBudget } from "../../static/js/core/limits.js";
import {
  countJumps,
  fileName,
  nameOf,
  parseSquare,
  rowCol,
  squareName,
  toSquare,
} from "../../static/js/core/squares.js";

test("squares are row * cols + col, row 0 at the top", () => {
  assert.equal(toSquare(2, 3, 8), 19);
  assert.deepEqual(rowCol(19, 8), [2, 3]);
});

test("names are chess's: a1 bottom-left; files go on past z", () => {
  assert.equal(squareName(0, 0, 8), "a8");
  assert.equal(squareName(7, 7, 8), "h1");
  assert.equal(nameOf(20, 5, 5), "a1");
  assert.equal(fileName(25), "z");
  assert.equal(fileName(26), "aa");
  assert.equal(fileName(99), "cv");
});

test("parseSquare reads names back, and refuses squares off the board", () => {
  assert.deepEqual(parseSquare(" B1 ", 5, 5), [4, 1]);
  assert.deepEqual(parseSquare("aa30", 30, 100), [0, 26]);
  for (const name of ["f1", "a6", "a0", "", "11", "a-1"]) {
    assert.equal(parseSquare(name, 5, 5), null, name);
  }
  for (let sq = 0; sq < 100 * 100; sq += 97) {
    assert.deepEqual(parseSquare(nameOf(sq, 100, 100), 100, 100), rowCol(sq, 100));
  }
});

test("countJumps counts the knight moves to the squares it is asked about", () => {
  assert.equal(
    countJumps(0, 8, 8, () => true),
    2,
  );
  assert.equal(
    countJumps(27, 8, 8, () => true),
    8,
  );
  assert.equal(
    countJumps(27, 8, 8, (sq) => sq !== 10),
    7,
  );
});

test("board limits are the page's, as the server serves them", () => {
  const body = {
    dataset: { limits: '{"play": {"min": 3, "max": 12}, "search": {"min": 3, "max": 30}}' },
  };
  const limits = boardLimits(body);
  assert.deepEqual(limits.play, { min: 3, max: 12 });
  assert.deepEqual(limits.search, { min: 3, max: 30 });
  assert.equal(clampSide("40", limits.play, 6), 12);
  assert.equal(clampSide("x", limits.play, 6), 6);
  assert.equal(fits(3, 12, limits.play), true);
  assert.equal(fits(3, 13, limits.play), false);
  assert.equal(fits(3.5, 4, limits.play), false);
});

test("a search's node cap is the page's, as the server serves it", () => {
  const body = { dataset: { limits: '{"search": {"min": 3, "max": 30}, "search_nodes": 1234}' } };
  assert.equal(searchNodeBudget(body), 1234);
});
