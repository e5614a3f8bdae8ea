import assert from "node:assert/strict";
import { test } from "node:test";
import { handOver, takeShown } from "../../static/js/lab/shown.js";

// A Storage as the browser's localStorage behaves: string keys and values, length, key(i).
function storage() {
  const map = new Map();
  return {
    get length() {
      return map.size;
    },
    key: (i) => [...map.keys()][i] ?? null,
    getItem: (key) => (map.has(key) ? map.get(key) : null),
    setItem: (key, value) => map.set(key, String(value)),
    removeItem: (key) => map.delete(key),
    map,
  };
}

const SHOWN = { name: "小明", source: "board = []\n", exercise: { number: 1, rows: 6, cols: 6 } };

test("a shown program is handed over once, then gone", () => {
  const store = storage();
  const key = handOver(SHOWN, 1_000, store);
  const taken = takeShown(key, store);
  assert.equal(taken.name, "小明");
  assert.equal(taken.source, SHOWN.source);
  assert.deepEqual(taken.exercise, SHOWN.exercise);
  assert.equal(takeShown(key, store), null); // taken once
  assert.equal(store.length, 0);
});

test("nothing, or something else, under the key is no program", () => {
  const store = storage();
  assert.equal(takeShown(null, store), null);
  assert.equal(takeShown("missing", store), null);
  store.setItem("kt-lab-show:bad", "{not json");
  assert.equal(takeShown("bad", store), null);
  store.setItem("kt-lab-show:nosource", JSON.stringify({ name: "x", exercise: {} }));
  assert.equal(takeShown("nosource", store), null);
});

test("programs handed over and never opened are dropped after ten minutes", () => {
  const store = storage();
  store.setItem("other", "kept"); // not ours
  const old = handOver(SHOWN, 0, store);
  const recent = handOver(SHOWN, 9 * 60_000, store);
  handOver(SHOWN, 11 * 60_000, store);
  assert.equal(takeShown(old, store), null);
  assert.equal(takeShown(recent, store)?.name, "小明");
  assert.equal(store.getItem("other"), "kept");
});
