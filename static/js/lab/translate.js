// A lab recording (lab/recording.js) in the watch protocol's event encoding
// (stream/decode.js, server/stream/encode.py): a move is `sq, k, c1..ck` (with `n1..nk`
// when its rule sorts), the candidates of the square it came from in the order the program
// tries them; a backtrack is `-1 - sq`. So a lab run plays on a Lane as a search does, and
// nothing is drawn twice. Plain data, no DOM.
//
// The recording says which squares the program entered and left, not which ones it meant to
// try next. Those come from its rule, found from what it did: the first rule of
// `candidateRules` (a move order of the lesson's or an article's, unsorted or sorted as the
// engine sorts) under which every square the program left had tried all its candidates, in
// order, and every square still on its path had tried the first ones. A program that fits
// no rule (its own move order, a random one, its own pruning) gets the candidates it tried
// so far, and no onward counts.

import { BACK, squareOf } from "./recording.js";

/** The lesson's move order (the seeds', core/squares.js KNIGHT_JUMPS) and the articles'. */
export function candidateRules(lessonMoves, orderings = {}) {
  const orders = [lessonMoves];
  for (const entry of Object.values(orderings)) {
    if (!orders.some((moves) => sameMoves(moves, entry.moves))) orders.push(entry.moves);
  }
  const rules = [];
  for (const moves of orders) {
    for (const sort of [null, "onward", "static"]) rules.push({ moves, sort });
  }
  return rules;
}

function sameMoves(a, b) {
  return a.length === b.length && a.every(([r, c], i) => r === b[i][0] && c === b[i][1]);
}

/**
 * One pass over a recording: the path, the counters, each frame's candidates, and the
 * protocol's ints for the events it walks. `rule`: {moves, sort, landsOnStart}, or null
 * (each move names the candidates its square has tried so far).
 */
export class LabWalk {
  constructor({ rows, cols }, rule) {
    this.rows = rows;
    this.cols = cols;
    this.squares = rows * cols;
    this.rule = rule;
    this.path = new Int32Array(this.squares + 1);
    this.depth = 0;
    this.visited = new Uint8Array(this.squares);
    this.entered = new Uint32Array(this.squares);
    this.frames = []; // frames[d]: {cands, counts, next} of path[d]
    this.nodes = 0;
    this.backtracks = 0;
    this.maxDepth = 0;
    this.index = 0; // events walked
  }

  /**
   * Walk one event; its protocol ints are appended to `out` when given. Returns false when
   * the event is not the next one of the rule (the parent's next candidate, or a frame left
   * before it tried them all), true otherwise; it is walked either way.
   */
  step(code, out = null) {
    const sq = squareOf(code);
    let fits = true;
    if (code & BACK) {
      const frame = this.frames[this.depth - 1];
      if (this.rule && frame && frame.next !== frame.cands.length) fits = false;
      this.depth--;
      this.visited[sq] = 0;
      this.backtracks++;
      out?.push(-1 - sq);
    } else {
      const d = this.depth;
      if (d > 0) {
        const parent = this.frames[d - 1];
        if (this.rule) {
          if (parent.cands[parent.next] !== sq) fits = false;
          parent.next++;
        } else {
          parent.cands.push(sq);
        }
        if (out) {
          out.push(sq, parent.cands.length, ...parent.cands);
          if (parent.counts) out.push(...parent.counts);
        }
      } else {
        out?.push(sq, 0);
      }
      this.path[d] = sq;
      this.depth = d + 1;
      this.visited[sq] = 1;
      this.entered[sq]++;
      this.nodes++;
      if (this.depth > this.maxDepth) this.maxDepth = this.depth;
      this.frames[d] = this.rule ? this._frame(sq, d) : { cands: [], counts: null, next: 0 };
    }
    this.index++;
    return fits;
  }

  /** The candidates of square `sq` entered at depth `d`, in the rule's order, and counts. */
  _frame(sq, d) {
    const { moves, sort, landsOnStart } = this.rule;
    const start = this.path[0];
    // the Python article's isCorrect lets the last move land on the start
    const lands = landsOnStart && d === this.squares - 2;
    const free = (c) => !this.visited[c] || (lands && c === start);
    const cands = this._jumps(sq, moves, free);
    let counts = null;
    if (sort) {
      const unvisited = (c) => c !== start && free(c);
      const count = sort === "static" ? () => true : lands ? unvisited : free;
      const onward = cands.map((c) => this._jumps(c, moves, count).length);
      const order = cands.map((_, i) => i).sort((a, b) => onward[a] - onward[b] || a - b);
      counts = order.map((i) => onward[i]);
      const sorted = order.map((i) => cands[i]);
      return { cands: sorted, counts, next: 0 };
    }
    return { cands, counts, next: 0 };
  }

  _jumps(sq, moves, free) {
    const { rows, cols } = this;
    const r = Math.floor(sq / cols);
    const c = sq % cols;
    const out = [];
    for (const [dr, dc] of moves) {
      const rr = r + dr;
      const cc = c + dc;
      if (rr >= 0 && rr < rows && cc >= 0 && cc < cols && free(rr * cols + cc)) {
        out.push(rr * cols + cc);
      }
    }
    return out;
  }
}

/**
 * The first of `rules` the whole recording follows (with `landsOnStart` when its run ended
 * declared), or null. `yieldEvery` events it awaits `pause()`: a long run is read without
 * holding the page.
 */
export async function findRule(
  recording,
  rules,
  { pause = () => Promise.resolve(), yieldEvery = 1 << 20 } = {},
) {
  const landsOnStart = recording.result?.status === "declared";
  const walks = rules.map((rule) => new LabWalk(recording, { ...rule, landsOnStart }));
  let alive = walks.map((_, i) => i);
  let n = 0;
  for (const code of recording.codes()) {
    alive = alive.filter((i) => walks[i].step(code));
    if (alive.length === 0) return null;
    if (++n % yieldEvery === 0) await pause();
  }
  return alive.length ? { ...rules[alive[0]], landsOnStart } : null;
}
