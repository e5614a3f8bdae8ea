// The call stack of the seeds' recursive search, as plain data (no DOM): one frame per square
// on the search's path, innermost last. The seeds' `traversalChessBoard(row, col, step)` is
// called once per square entered and returns on a backtrack, so the frames are exactly the
// player's path. A frame's candidates are the unvisited neighbours of its square when it
// was entered; every square above it on the path has been left again whenever it picks the
// next one, so they are computed here from the path alone, in the order the engine tries
// them (server/engine/search.py: the seeds' move order 0..7, or Warnsdorff's onward counts
// with a stable sort, ties in the seeds' order; an article's program by its own rule,
// core/orderings.js: its move order, its sort, the Python article's last move onto the
// start). That makes the stack a function of the
// position (step back, a class room's snapshot, a seek: all exact), with one fact the path
// cannot tell: the square the innermost frame last returned from (`after`).

import { pathKeptBy, ruleOf } from "../core/orderings.js";
import { nameOf } from "../core/squares.js";

/** What a candidate of a frame is: tried and failed, being tried, not yet tried. */
export const CANDIDATE = Object.freeze({ failed: "failed", trying: "trying", waiting: "waiting" });

/**
 * An empty stack for a rows x cols search; `algorithm` seed | warnsdorff | construct | an
 * article's ordering (`orderings`: core/orderings.js's table, the page's by default);
 * `given`: how many squares of the path are a game's, not the search's (Play's "show me").
 */
export function createStack({ rows, cols, algorithm = "seed", given = 0, orderings }) {
  const squares = rows * cols;
  const rule = orderings ? ruleOf(algorithm, orderings) : ruleOf(algorithm);
  return {
    rows,
    cols,
    rule,
    kept: orderings ? pathKeptBy(algorithm, orderings) : pathKeptBy(algorithm), // the panel's words
    // the construction has no search, a lab program of no known rule no known candidates:
    // their frames are bare
    searched: algorithm !== "construct" && rule.searched,
    given,
    path: new Int32Array(squares + 1),
    depth: 0,
    order: new Int32Array(squares), // each square's step on the path, 0 = off it
    after: -1, // the square the innermost frame last returned from, -1: none since it was entered
    frames: [], // frames[d]: {candidates, counts} of path[d], computed when first read
    version: 0, // changes whenever anything shown changes
  };
}

/**
 * Stand at the position `path[0..depth)`; `after` is the square the last event backtracked
 * from (-1 when the last event was a move, or unknown). Returns whether anything changed.
 */
export function syncStack(stack, path, depth, after = -1) {
  const { order, frames } = stack;
  let same = 0;
  const shared = Math.min(depth, stack.depth);
  while (same < shared && stack.path[same] === path[same]) same++;
  if (same === depth && same === stack.depth && after === stack.after) return false;
  for (let d = same; d < stack.depth; d++) order[stack.path[d]] = 0;
  for (let d = same; d < depth; d++) {
    stack.path[d] = path[d];
    order[path[d]] = d + 1;
  }
  if (frames.length > same) frames.length = same;
  stack.depth = depth;
  stack.after = after;
  stack.version++;
  return true;
}

/** Stand where `player` (stream/player.js) stands: its path and its last event. */
export function followPlayer(stack, player) {
  const last = player.lastEvent();
  const value = last ? last.data[last.off] : 0;
  return syncStack(stack, player.path, player.depth, value < 0 ? -1 - value : -1);
}

/**
 * Frame `d` as shown: {step, square, name, row, col, given, candidates: [{square, name,
 * count, state}]}; `count` is the onward count under Warnsdorff, else null.
 */
export function frameView(stack, d) {
  const square = stack.path[d];
  const { rows, cols } = stack;
  const view = {
    step: d + 1,
    square,
    name: nameOf(square, rows, cols),
    row: Math.floor(square / cols),
    col: square % cols,
    given: d < stack.given || !stack.searched,
    candidates: [],
  };
  if (view.given) return view;
  const { candidates, counts } = frameCandidates(stack, d);
  const innermost = d === stack.depth - 1;
  const pivot = innermost ? stack.after : stack.path[d + 1];
  const at = pivot >= 0 ? candidates.indexOf(pivot) : -1;
  candidates.forEach((sq, i) => {
    let state = CANDIDATE.waiting;
    if (i < at || (i === at && innermost)) state = CANDIDATE.failed;
    else if (i === at) state = CANDIDATE.trying;
    view.candidates.push({
      square: sq,
      name: nameOf(sq, rows, cols),
      count: counts ? counts[i] : null,
      state,
    });
  });
  return view;
}

/**
 * The candidates of frame `d` in the order the search tries them, with the counts its sort
 * orders them by (Warnsdorff's onward counts, or the Java articles' static degrees; else
 * null): the neighbours of its square off path[0..d], in the rule's move order.
 */
export function frameCandidates(stack, d) {
  const cached = stack.frames[d];
  if (cached) return cached;
  const { rule } = stack;
  const start = stack.path[0];
  // the Python article's isCorrect lets the last move land on the start (marked 1)
  const lands = rule.landsOnStart && d === stack.rows * stack.cols - 2;
  const free = (sq) => {
    const step = stack.order[sq];
    return step === 0 || step > d + 1 || (lands && sq === start);
  };
  const candidates = jumps(stack, stack.path[d], free);
  let counts = null;
  if (rule.sort) {
    const anywhere = () => true; // the static degree: every on-board move, visited or not
    const unvisited = (sq) => sq !== start && free(sq);
    const count = rule.sort === "static" ? anywhere : lands ? unvisited : free;
    const onward = candidates.map((c) => jumps(stack, c, count).length);
    const byCount = candidates.map((_, i) => i).sort((a, b) => onward[a] - onward[b] || a - b);
    counts = byCount.map((i) => onward[i]);
    const ordered = byCount.map((i) => candidates[i]);
    candidates.splice(0, candidates.length, ...ordered);
  }
  const frame = { candidates, counts };
  stack.frames[d] = frame; // sparse: the renderer reads only the frames on screen
  return frame;
}

function jumps(stack, sq, free) {
  const { rows, cols } = stack;
  const r = Math.floor(sq / cols);
  const c = sq % cols;
  const out = [];
  for (const [dr, dc] of stack.rule.moves) {
    const rr = r + dr;
    const cc = c + dc;
    if (rr >= 0 && rr < rows && cc >= 0 && cc < cols && free(rr * cols + cc)) {
      out.push(rr * cols + cc);
    }
  }
  return out;
}
