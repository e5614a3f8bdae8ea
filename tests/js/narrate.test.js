import assert from "node:assert/strict";
import { test } from "node:test";
import { useCatalogue } from "../../static/js/core/i18n.js";
import { speedLabel, speedToStep, stepToSpeed, windowFor } from "../../static/js/lanes/speed.js";
import { decodeBatch } from "../../static/js/stream/decode.js";
import { lastEventView } from "../../static/js/stream/last-event.js";
import { narrateDone, narrateEvent } from "../../static/js/stream/narrate.js";
import { Player } from "../../static/js/stream/player.js";

const WORDS = {
  en: {
    "watch.ui.narr.start": "Start from {square}.",
    "watch.ui.narr.try": "Try {square} ({n} onward moves).",
    "watch.ui.narr.try.one": "Try {square} ({n} onward move).",
    "watch.ui.narr.back": "Dead end at {square}: back to {to}.",
    "watch.ui.narr.found": "Tour found: all {squares} squares, after {nodes} nodes.",
    "watch.ui.speed.rate": "{n}/s",
    "watch.ui.speed.max": "max",
  },
  zh: {
    "watch.ui.narr.try.one": "试 {square}（{n} 个后续走法）。",
    "watch.ui.narr.found": "找到巡游：{squares} 格，{nodes} 个节点。",
  },
};

/** A 5x5 player after the events: a1, then c2 of [c2, b3] with counts, then back. */
function player() {
  const p = new Player({ rows: 5, cols: 5, path: [], counts: true });
  p.push(decodeBatch([20, 0, 17, 2, 17, 11, 1, 3, -18], { squares: 25, counts: true }));
  return p;
}

test("each event is told: the start, the square tried with its onward moves, the way back", () => {
  useCatalogue("en", WORDS.en);
  const p = player();
  const say = () => narrateEvent(lastEventView(p), p, { algorithm: "seed", onward: () => 0 });
  p.advance(1);
  assert.equal(say(), "Start from a1.");
  p.advance(1);
  assert.deepEqual(lastEventView(p), {
    move: 17,
    back: -1,
    candidates: [17, 11],
    counts: [1, 3],
    tried: 0,
  });
  assert.equal(say(), "Try c2 (1 onward move).");
  p.advance(1);
  assert.equal(say(), "Dead end at c2: back to a1.");
  useCatalogue("zh", WORDS.zh);
  p.back(1);
  assert.equal(say(), "试 c2（1 个后续走法）。");
});

test("the end is told with its numbers in the page's language", () => {
  const p = player();
  const done = { status: "found", nodes: 12345, backtracks: 0 };
  useCatalogue("en", WORDS.en);
  assert.equal(narrateDone(done, p, 20), "Tour found: all 25 squares, after 12,345 nodes.");
  useCatalogue("zh", WORDS.zh);
  assert.equal(narrateDone(done, p, 20), "找到巡游：25 格，12,345 个节点。");
});

test("the speed slider runs from 1 to 10,000 events a second, then as fast as it draws", () => {
  useCatalogue("en", WORDS.en);
  assert.equal(stepToSpeed(0), 1);
  assert.equal(stepToSpeed(99), 10_000);
  assert.equal(stepToSpeed(100), null);
  for (const speed of [1, 10, 105, 10_000]) {
    assert.ok(Math.abs(stepToSpeed(speedToStep(speed)) - speed) / speed < 0.1, speed);
  }
  assert.equal(speedToStep(null), 100);
  assert.deepEqual([windowFor(10), windowFor(5000), windowFor(null)], [1000, 10_000, 20_000]);
  assert.deepEqual([speedLabel(10), speedLabel(null)], ["10/s", "max"]);
});
