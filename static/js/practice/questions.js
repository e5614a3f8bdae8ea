// The practice's questions, written in the browser as the engine writes the class quiz's
// (server/engine/questions.py, whose semantics these follow line for line): where next,
// onward, Warnsdorff's pick, how many steps back, which frame goes on. A question is about
// a position of a lane's search: its path after `index` events and the events its player
// already holds after them. A kind whose answer needs events not held yet does not fit,
// nor does one that cannot be asked there (null). No DOM, no server: practice.js asks.
// tests/js/practice-questions.test.js checks hand-derived positions and
// tests/engine/test_practice_questions.py every kind against the engine's own.

import { KNIGHT_JUMPS } from "../core/squares.js";

/** The kinds the practice asks, in the engine's order (quiz-kinds.js names them). */
export const PRACTICE_KINDS = ["next", "onward", "pick", "backtrack", "frame"];
export const MAX_ONWARD = 8; // a knight has at most eight moves
const MORE = Symbol("more"); // the answer runs past the events held

/**
 * A position of a search: the board (rows, cols, holes), the path after `index` events,
 * and the events after it as `source` holds them (a stream/player.js Player: `eventAt`,
 * `received`, and `done` once the events run to the search's end).
 */
export class SearchPosition {
  constructor({ rows, cols, holes = [], path, index, source }) {
    Object.assign(this, { rows, cols, source, index });
    this.area = rows * cols;
    this.holes = new Uint8Array(this.area);
    for (const sq of holes) this.holes[sq] = 1;
    this.size = this.area - this.holes.reduce((n, hole) => n + hole, 0);
    this.path = [...path];
    // how often each square is on the path: the Python article's last move lands on its
    // start, the one square a path holds twice (the engine's set() of the path)
    this.onPath = new Uint16Array(this.area);
    for (const sq of this.path) this.onPath[sq]++;
  }

  /** Where `player` stands now, on a board with `holes`. */
  static of(player, holes = []) {
    const path = Array.from(player.path.subarray(0, player.depth));
    const { rows, cols, pos } = player;
    return new SearchPosition({ rows, cols, holes, path, index: pos, source: player });
  }

  get knight() {
    return this.path[this.path.length - 1];
  }

  /** The event `k` after this position; null past the search's end, MORE past the held. */
  next(k = 0) {
    const i = this.index + k;
    if (i < this.source.received) return this.source.eventAt(i);
    return this.source.done ? null : MORE;
  }

  /** One event on (false when it is not held): a move pushes its square, a backtrack pops. */
  advance() {
    const event = this.next();
    if (!event || event === MORE) return false;
    if (event.back) this.onPath[this.path.pop()]--;
    else {
      this.path.push(event.square);
      this.onPath[event.square]++;
    }
    this.index++;
    return true;
  }

  /** The unvisited knight moves from `square`, in the board's move order (the engine's). */
  unvisited(square) {
    const row = Math.floor(square / this.cols);
    const col = square % this.cols;
    const out = [];
    for (const [dr, dc] of KNIGHT_JUMPS) {
      const r = row + dr;
      const c = col + dc;
      if (r < 0 || r >= this.rows || c < 0 || c >= this.cols) continue;
      const sq = r * this.cols + c;
      if (!this.holes[sq] && !this.onPath[sq]) out.push(sq);
    }
    return out;
  }
}

const question = (pos, kind, answer, values, subject, why) => ({
  kind,
  answer,
  values,
  subject,
  why,
  path: [...pos.path],
  index: pos.index,
});

function whereNext(pos) {
  const event = pos.next();
  if (event === MORE || !event || event.back || !event.candidates.length) return null;
  const { candidates } = event;
  const why = {
    from: pos.knight,
    candidates: [...candidates],
    onward: event.onward ? [...event.onward] : null,
    tried: candidates.indexOf(event.square), // the ones before it failed (or were cut)
  };
  return question(pos, "next", event.square, pos.area, {}, why);
}

function onward(pos, choose) {
  if (pos.path.length >= pos.size) return null;
  const candidates = pos.unvisited(pos.knight);
  if (!candidates.length) return null;
  const square = choose(candidates);
  const ways = pos.unvisited(square);
  return question(pos, "onward", ways.length, MAX_ONWARD + 1, { square }, { square, onward: ways });
}

/** Warnsdorff's rule: the fewest onward moves, ties to the first in the move order. */
export function warnsdorffPick(pos) {
  const candidates = pos.unvisited(pos.knight);
  if (candidates.length < 2) return null;
  const counts = candidates.map((sq) => pos.unvisited(sq).length);
  const fewest = Math.min(...counts);
  const tied = candidates.filter((_, i) => counts[i] === fewest);
  return { from: pos.knight, candidates, onward: counts, fewest, tied, pick: tied[0] };
}

function pick(pos) {
  const why = warnsdorffPick(pos);
  return why && question(pos, "pick", why.pick, pos.area, {}, why);
}

/** [the backtracks from here, the event after them (a move, or null: the end)], or MORE. */
function returns(pos) {
  for (let steps = 0; ; steps++) {
    const event = pos.next(steps);
    if (event === MORE) return MORE;
    if (!event?.back) return [steps, event]; // a move, or null: the end
  }
}

function backtrack(pos) {
  if (pos.path.length >= pos.size) return null;
  const found = returns(pos);
  if (found === MORE) return null;
  const [steps, after] = found;
  if (steps === 0 && after === null) return null; // the search ends here: nothing to ask
  const depth = pos.path.length;
  const left = pos.path.slice(depth - steps).reverse(); // backed out of, last first
  const stays = pos.path.slice(0, depth - steps);
  const why = {
    steps,
    left,
    to: stays.length ? stays[stays.length - 1] : null,
    next: after ? after.square : null,
  };
  return question(pos, "backtrack", steps, depth + 1, { max: depth }, why);
}

function frame(pos) {
  const found = returns(pos);
  if (found === MORE) return null;
  const [steps, after] = found;
  const depth = pos.path.length;
  // it moves on (no return to ask about), or the search ends: no frame goes on
  if (!steps || after === null || steps >= depth) return null;
  const square = pos.path[depth - 1 - steps];
  const why = {
    returned: pos.path.slice(depth - steps).reverse(),
    frame: square,
    depth: depth - steps, // the frame's step number (the start is 1)
    next: after.square,
  };
  return question(pos, "frame", square, pos.area, {}, why);
}

const WRITERS = { next: whereNext, onward, pick, backtrack, frame };

/**
 * The question of `kind` at `pos`: {kind, answer, values, subject, why, path, index}, the
 * engine's Question with the position it is about; null when the kind does not fit.
 * `choose(squares)` picks the square an onward question asks about (at random).
 */
export function writeQuestion(kind, pos, { random = Math.random, choose } = {}) {
  if (!pos.path.length) return null; // before the knight stands anywhere
  choose ??= (squares) => squares[Math.floor(random() * squares.length)];
  return WRITERS[kind](pos, choose);
}

/** A question of a kind drawn at random among `kinds` that fit at `pos`, or null. */
export function askAt(pos, { kinds = PRACTICE_KINDS, random = Math.random } = {}) {
  const order = [...kinds];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  for (const kind of order) {
    const asked = writeQuestion(kind, pos, { random });
    if (asked) return asked;
  }
  return null;
}
