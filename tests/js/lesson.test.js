import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { KNIGHT_JUMPS } from "../../static/js/core/squares.js";
import {
  clampPlace,
  demoSettings,
  hashOf,
  LAB_EXAMPLES,
  labAddress,
  nextPlace,
  parseHash,
  prevPlace,
} from "../../static/js/lesson/chapters.js";
import { seedMoveNumber } from "../../static/js/lesson/moves.js";

const CHAPTERS = JSON.parse(
  readFileSync(new URL("../../server/lesson/chapters.json", import.meta.url), "utf8"),
).chapters;

test("next and back walk every step of every chapter, in order, and stop at the ends", () => {
  const places = [];
  for (let place = { chapter: 0, step: 0 }; place; place = nextPlace(CHAPTERS, place)) {
    places.push(place);
  }
  const steps = CHAPTERS.reduce((n, chapter) => n + chapter.steps.length, 0);
  assert.equal(places.length, steps);
  const back = [];
  for (let place = places.at(-1); place; place = prevPlace(CHAPTERS, place)) back.push(place);
  assert.deepEqual(back.reverse(), places);
});

test("the address names a place; a wrong one names none, a step out of range is clamped", () => {
  const place = { chapter: 1, step: 2 };
  assert.equal(hashOf(CHAPTERS, place), "#dfs/3");
  assert.deepEqual(parseHash(CHAPTERS, "#dfs/3"), place);
  assert.deepEqual(parseHash(CHAPTERS, "#dfs"), { chapter: 1, step: 0 });
  assert.deepEqual(parseHash(CHAPTERS, "#dfs/99"), { chapter: 1, step: 3 });
  assert.equal(parseHash(CHAPTERS, "#nope/1"), null);
  assert.equal(parseHash(CHAPTERS, "#<script>"), null);
  const last = CHAPTERS.length - 1;
  assert.deepEqual(clampPlace(CHAPTERS, { chapter: 99, step: -4 }), { chapter: last, step: 0 });
});

test("a chapter's demo as a lane takes it: the start square, a race's second algorithm", () => {
  const race = demoSettings(CHAPTERS.find((c) => c.id === "race"));
  assert.equal(race.start, 0);
  assert.equal(race.race, true);
  assert.equal(race.algorithmB, "warnsdorff");
  const moves = demoSettings(CHAPTERS[0]);
  assert.equal(moves.start, 2 * 5 + 2);
  assert.equal(moves.race, false);
});

test("the seeds' move numbers: findWay's (dx, dy) for moves 0..7, x the column", () => {
  // From the seeds' Java findWay: move n is (x + dx, y + dy).
  const findWay = {
    0: [2, -1],
    1: [2, 1],
    2: [1, 2],
    3: [-1, 2],
    4: [-2, 1],
    5: [-2, -1],
    6: [-1, -2],
    7: [1, -2],
  };
  KNIGHT_JUMPS.forEach(([dRow, dCol], i) => {
    assert.deepEqual(findWay[seedMoveNumber(i)], [dCol, dRow]);
  });
});

test("a chapter links to the code lab with its own program, board and start, if the lab has one", () => {
  const links = Object.fromEntries(CHAPTERS.map((chapter) => [chapter.id, labAddress(chapter)]));
  assert.equal(links.dfs, "/lab?example=start&rows=5&cols=5&start=a5");
  assert.equal(links.warnsdorff, "/lab?example=warnsdorff&rows=8&cols=8&start=a8");
  assert.equal(links["bug-python"], "/lab?example=article-001&rows=5&cols=5&start=c3");
  assert.equal(links.closed, null); // a lab program looks for an open tour
  assert.equal(links.huge, null); // a construction, not a search
  assert.equal(links["bug-java1"], null); // the lab runs Python only
  const programs = readFileSync(new URL("../../server/lab/__init__.py", import.meta.url), "utf8");
  for (const example of Object.values(LAB_EXAMPLES))
    assert.match(programs, new RegExp(`"${example}"`));
});
