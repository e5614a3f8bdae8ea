// Stand-ins for a played search, for the tests of what plays lanes without a DOM (Watch's
// controller, the lesson's, the frame loop): a player the clock moves, and a lane whose runs
// the test answers or refuses, so orders of events a slow machine produces replay exactly.

/**
 * A stream/player.js Player that holds `received` events and moves through them on demand;
 * `canStepBack` false: the page may not step back through them (the server's to seek),
 * `finished`: the run's last event is among them.
 */
export function fakePlayer(received, { canStepBack = true, finished = false } = {}) {
  return {
    pos: 0,
    received,
    historyStart: 0,
    finished,
    canStepBack,
    moves: received,
    head: -1,
    done: finished ? { status: "found" } : null,
    holds(index) {
      return index >= this.historyStart && index <= this.received;
    },
    advance(n) {
      this.pos += n;
      return n;
    },
    back(n) {
      this.pos -= n;
      return n;
    },
  };
}

/**
 * A lanes/lane.js Lane stand-in: `start` waits for the test to answer it with a player or
 * refuse it (`starts`); a refusal is the lane's error until its next preview, as on a Lane.
 */
export function fakeLane() {
  return {
    root: {
      hidden: false,
      dataset: {},
      closest: () => ({ dataset: {} }),
      getBoundingClientRect: () => ({ top: 0 }),
      scrollIntoView() {},
    },
    board: { onSquare: null, root: { querySelectorAll: () => [] } },
    stats: { idle() {} },
    player: null,
    error: null,
    changed: false,
    tags: "",
    seekable: false,
    seeking: false,
    starts: [], // {settings, answer(player), refuse(err)} the test has not answered yet
    started: 0,
    seeks: [], // the indices asked of the server
    counted: [], // countPlayback's calls: {now, dt, playing}
    get active() {
      return this.player !== null && !this.player.finished && this.error === null;
    },
    get finished() {
      return this.player !== null && (this.player.finished || this.error !== null);
    },
    preview() {
      this.player = null;
      this.error = null;
    },
    start(_connection, settings) {
      this.preview(settings);
      this.started += 1;
      return new Promise((answer, refuse) => {
        this.starts.push({
          settings,
          answer: (player) => {
            this.player = player;
            answer(player);
          },
          refuse: (err) => {
            this.error = err.message;
            refuse(err);
          },
        });
      });
    },
    seek(index) {
      this.seeks.push(index);
    },
    countPlayback(now, dt, playing) {
      this.counted.push({ now, dt, playing });
    },
    detach() {},
    setWindow() {},
    setHeat() {},
    updateStatus() {},
    draw() {
      this.changed = false;
    },
    relabel() {},
  };
}
