// core/dom.js: a write that would not change the value does not touch the element.
import assert from "node:assert/strict";
import { test } from "node:test";
import { setAttr, setData, setProp } from "../../static/js/core/dom.js";

/** An element that counts the writes it gets. */
function element() {
  const writes = [];
  const attributes = new Map();
  const data = {};
  const el = {
    writes,
    dataset: new Proxy(data, {
      set(target, key, value) {
        writes.push(`data-${String(key)}`);
        target[key] = value;
        return true;
      },
    }),
    getAttribute: (name) => attributes.get(name) ?? null,
    setAttribute(name, value) {
      writes.push(name);
      attributes.set(name, value);
    },
  };
  let hidden = false;
  Object.defineProperty(el, "hidden", {
    get: () => hidden,
    set(value) {
      writes.push("hidden");
      hidden = value;
    },
  });
  return el;
}

test("each value is written once, however often the frame loop sets it", () => {
  const el = element();
  for (let frame = 0; frame < 3; frame++) {
    setData(el, "seeking", false);
    setAttr(el, "aria-pressed", true);
    setProp(el, "hidden", true);
  }
  assert.deepEqual(el.writes, ["data-seeking", "aria-pressed", "hidden"]);
  assert.equal(el.dataset.seeking, "false");
  assert.equal(el.getAttribute("aria-pressed"), "true");
  setData(el, "seeking", true);
  setProp(el, "hidden", false);
  assert.deepEqual(el.writes.slice(3), ["data-seeking", "hidden"]);
});
