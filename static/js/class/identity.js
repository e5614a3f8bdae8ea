// A student's one identity in a class room (docs/protocol.md, "The class quiz"): the name
// given once, for the quiz and the puzzle alike. `quiz_enter` {name, key?} answers a key
// this browser keeps for the room (so a reload comes back as the same student); the name is
// kept for every room, to fill the field next time. No DOM here.

export const NAME_KEY = "class-name";

export class RoomIdentity {
  /** code: the room's join code; call(event, payload) => Promise of the acknowledgement. */
  constructor({ code, call, storage = globalThis.localStorage }) {
    Object.assign(this, { code, call, storage });
    this.student = null; // {id, name} once this connection has entered
    this.listeners = [];
  }

  get keyName() {
    return `class-quiz-key:${this.code}`;
  }

  /** Whether this connection has entered (the server knows its name). */
  get entered() {
    return Boolean(this.student);
  }

  get name() {
    return this.student?.name ?? null;
  }

  /** The name this browser gave last (any room): to fill a name field with. */
  get savedName() {
    return this.storage.getItem(NAME_KEY) || "";
  }

  /** `fn(student)` after every change (entered, or lost with the connection). */
  onChange(fn) {
    this.listeners.push(fn);
  }

  /** Enter under `name` (with the key kept for this room): resolves with the acknowledgement. */
  async enter(name, key = this.storage.getItem(this.keyName)) {
    const payload = key ? { name, key } : { name };
    const ack = await this.call("quiz_enter", payload);
    if (!ack?.ok) return ack;
    this.storage.setItem(NAME_KEY, ack.quiz.student.name);
    this.storage.setItem(this.keyName, ack.key);
    this._set(ack.quiz.student);
    return ack;
  }

  /**
   * After a (re)join: enter again as the student this browser was in this room. Resolves
   * with the acknowledgement, or null when there is nobody to come back as (or the key no
   * longer holds: it is forgotten, and the student gives the name again when needed).
   */
  async restore() {
    this._set(null); // a new connection has not entered yet
    const name = this.storage.getItem(NAME_KEY);
    const key = this.storage.getItem(this.keyName);
    if (!name || !key) return null;
    const ack = await this.enter(name, key);
    if (ack?.ok) return ack;
    if (ack?.error?.code !== "timeout") this.storage.removeItem(this.keyName);
    return null;
  }

  /** The teacher removed this student (`quiz_removed`): the key no longer holds. */
  forget() {
    this.storage.removeItem(this.keyName);
    this._set(null);
  }

  _set(student) {
    this.student = student;
    for (const fn of this.listeners) fn(student);
  }
}
