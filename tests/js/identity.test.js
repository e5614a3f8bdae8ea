import assert from "node:assert/strict";
import { test } from "node:test";
import { NAME_KEY, RoomIdentity } from "../../static/js/class/identity.js";

/** A Storage-like map. */
function memory(entries = {}) {
  const map = new Map(Object.entries(entries));
  return {
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem: (k, v) => map.set(k, String(v)),
    removeItem: (k) => map.delete(k),
    map,
  };
}

/** A server that answers quiz_enter: a name is taken unless its key is given. */
function server({ taken = {} } = {}) {
  const calls = [];
  let next = 1;
  const call = async (event, payload) => {
    calls.push([event, payload]);
    if (event !== "quiz_enter") return { ok: false, error: { code: "bad-request" } };
    const held = taken[payload.name.toLowerCase()];
    if (held && held !== payload.key) return { ok: false, error: { code: "name-taken" } };
    const key = payload.key || `k${next++}`;
    taken[payload.name.toLowerCase()] = key;
    return { ok: true, key, quiz: { student: { id: "s1", name: payload.name }, question: null } };
  };
  return { call, calls, taken };
}

test("one name per room: entered once, kept with its key, told to every listener", async () => {
  const storage = memory();
  const { call, calls } = server();
  const identity = new RoomIdentity({ code: "ABC234", call, storage });
  const seen = [];
  identity.onChange((student) => seen.push(student?.name ?? null));
  assert.equal(identity.entered, false);
  const ack = await identity.enter("Mei");
  assert.equal(ack.ok, true);
  assert.equal(identity.entered, true);
  assert.equal(identity.name, "Mei");
  assert.deepEqual(seen, ["Mei"]);
  assert.equal(storage.getItem(NAME_KEY), "Mei");
  assert.equal(storage.getItem("class-quiz-key:ABC234"), ack.key);
  assert.deepEqual(calls, [["quiz_enter", { name: "Mei" }]]);
});

test("after a rejoin the page enters again with the room's key; nothing to restore asks nothing", async () => {
  const { call, calls, taken } = server({ taken: { mei: "k9" } });
  const storage = memory({ [NAME_KEY]: "Mei", "class-quiz-key:ABC234": "k9" });
  const identity = new RoomIdentity({ code: "ABC234", call, storage });
  const ack = await identity.restore();
  assert.equal(ack.ok, true);
  assert.deepEqual(calls.at(-1), ["quiz_enter", { name: "Mei", key: "k9" }]);
  assert.equal(identity.name, "Mei");
  assert.equal(taken.mei, "k9");

  const fresh = new RoomIdentity({ code: "ZZZ999", call, storage });
  assert.equal(await fresh.restore(), null); // no key for this room: the name is asked when needed
  assert.equal(fresh.savedName, "Mei"); // to fill the field with
  assert.equal(calls.length, 1);
});

test("a key that no longer holds is forgotten: the name is given again when needed", async () => {
  const { call } = server({ taken: { mei: "other" } });
  const storage = memory({ [NAME_KEY]: "Mei", "class-quiz-key:ABC234": "k9" });
  const identity = new RoomIdentity({ code: "ABC234", call, storage });
  assert.equal(await identity.restore(), null);
  assert.equal(identity.entered, false);
  assert.equal(storage.getItem("class-quiz-key:ABC234"), null);
});

test("a student the teacher removed forgets the room's key and is told", async () => {
  const storage = memory();
  const { call } = server();
  const identity = new RoomIdentity({ code: "ABC234", call, storage });
  const seen = [];
  identity.onChange((student) => seen.push(student?.name ?? null));
  await identity.enter("Mei");
  identity.forget();
  assert.equal(identity.entered, false);
  assert.equal(storage.getItem("class-quiz-key:ABC234"), null);
  assert.equal(storage.getItem(NAME_KEY), "Mei"); // the name still fills the field
  assert.deepEqual(seen, ["Mei", null]);
  assert.equal(await identity.restore(), null); // no key: nothing to come back as
});
