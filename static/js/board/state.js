// The board as plain data, as chessground keeps it: everything a page shows on a board and
// no DOM, so it is tested without a browser. Pages fill it from what the server said (a Play
// game, a search's player) with the functions below; board/render.js draws it and
// board/events.js reads it for input. Squares are ints, row * cols + col (core/squares.js).

import { countJumps, toSquare } from "../core/squares.js";

/** What a square can carry besides the path: the server's legal moves, a search's marks. */
export const MARK = Object.freeze({ none: 0, legal: 1, candidate: 2, tried: 3, dead: 4 });
const MARK_KIND = ["empty", "legal", "candidate", "tried", "dead"];

export function createState(rows, cols) {
  const squares = rows * cols;
  return {
    rows,
    cols,
    squares,
    path: new Int32Array(squares + 1), // the knight's squares in move order
    depth: 0, // squares on the path
    order: new Int32Array(squares), // each square's move number on the path, 0 = off it
    own: Number.POSITIVE_INFINITY, // path[0..own) is the player's; beyond it, a search's trail
    pathVersion: 0, // changes whenever the path does (the lines redraw then)
    lastMove: null, // [from, to] when the path's last change was one move (on or back), else null
    start: -1, // the start square, marked (-1: none)
    closed: false, // a closed tour: the start is also the goal
    returned: false, // the closed tour's last jump back onto its start was made
    holes: new Uint8Array(squares), // 1 on a hole: a square the board does not have
    holesVersion: 0, // changes whenever the holes do
    marks: new Uint8Array(squares), // MARK per square
    notes: new Int32Array(squares).fill(-1), // a number on a marked square (onward moves), -1 none
    marked: [], // the squares carrying a mark, to clear them
    hint: -1, // the square a hint suggests
    frame: -1, // the square of the call-stack frame selected in a stack panel
    warn: -1, // a square the page warns about (a start square with no tour)
    heat: null, // how often a search entered each square (Uint32Array), or null: no heat map
    heatVersion: 0,
    status: "", // the game's or the run's status, for styling (won, found, ...)
    focus: -1, // the square in the tab order (roving tabindex); -1: the page picks one
  };
}

// ---------------------------------------------------------------- holes
/** Make exactly the squares in `holes` (any iterable of squares) holes; true if that changed. */
export function setHoles(state, holes = []) {
  const next = new Uint8Array(state.squares);
  for (const sq of holes) if (sq >= 0 && sq < state.squares) next[sq] = 1;
  let same = true;
  for (let i = 0; same && i < next.length; i++) same = next[i] === state.holes[i];
  if (same) return false;
  state.holes = next;
  state.holesVersion++;
  return true;
}

/** Whether `sq` is a hole. */
export function isHole(state, sq) {
  return state.holes[sq] === 1;
}

// ---------------------------------------------------------------- the path
/** Show the first `depth` squares of `path` (any array of squares) as the knight's path. */
export function setPath(state, path, depth = path.length, { returned = false } = {}) {
  const { order } = state;
  const old = state.depth;
  let same = old === depth && state.returned === returned;
  for (let i = 0; same && i < depth; i++) same = state.path[i] === path[i];
  if (same) return false;
  state.lastMove = oneMove(state, path, depth, returned);
  for (let i = 0; i < old; i++) order[state.path[i]] = 0;
  for (let i = 0; i < depth; i++) {
    state.path[i] = path[i];
    order[path[i]] = i + 1;
  }
  state.depth = depth;
  state.returned = returned;
  state.pathVersion++;
  return true;
}

/** [from, to] when `path` is the state's path one move on or back (the knight slides), else null. */
function oneMove(state, path, depth, returned) {
  const old = state.depth;
  const shared = Math.min(old, depth);
  for (let i = 0; i < shared; i++) if (state.path[i] !== path[i]) return null;
  if (depth === old && old > 0 && state.start >= 0 && returned !== state.returned) {
    const last = path[depth - 1];
    return returned ? [last, state.start] : [state.start, last]; // the closing jump, or its undo
  }
  if (Math.abs(depth - old) !== 1 || shared === 0 || returned || state.returned) return null;
  return depth > old ? [state.path[old - 1], path[old]] : [state.path[old - 1], path[depth - 1]];
}

/** The square the knight stands on: the player's last square, or the start once returned. */
export function knightSquare(state) {
  if (state.returned && state.start >= 0) return state.start;
  const depth = Math.min(state.depth, state.own);
  return depth > 0 ? state.path[depth - 1] : -1;
}

/** The head of a search's trail beyond the player's path (Show me), or -1. */
export function trailHead(state) {
  return state.depth > state.own ? state.path[state.depth - 1] : -1;
}

// ---------------------------------------------------------------- marks
export function clearMarks(state) {
  for (const sq of state.marked) {
    state.marks[sq] = MARK.none;
    state.notes[sq] = -1;
  }
  state.marked = [];
}

/** Mark `sq` (MARK.legal, ...) with an optional number on it. */
export function mark(state, sq, kind, note = -1) {
  if (state.marks[sq] === MARK.none) state.marked.push(sq);
  state.marks[sq] = kind;
  state.notes[sq] = note;
}

/**
 * A search's last choice: `candidates` in the order it tries them (the first `tried` of
 * them already tried), each with its onward count from `counts`, or counted here from the
 * path when the run does not carry them; `dead` the square it just backed out of (or -1).
 * Squares on the path carry no mark.
 */
export function markSearch(state, { candidates = [], counts = null, tried = 0, dead = -1 }) {
  clearMarks(state);
  if (dead >= 0 && state.order[dead] === 0) mark(state, dead, MARK.dead);
  candidates.forEach((sq, i) => {
    if (state.order[sq] !== 0) return;
    mark(
      state,
      sq,
      i < tried ? MARK.tried : MARK.candidate,
      counts ? counts[i] : onward(state, sq),
    );
  });
}

/** Knight moves from `sq` to squares off the path: Warnsdorff's count. */
export function onward(state, sq) {
  return countJumps(
    sq,
    state.rows,
    state.cols,
    (target) => state.order[target] === 0 && state.holes[target] === 0,
  );
}

/** How often a search entered each square (a copy is kept), or null: no heat map. */
export function setHeat(state, entered) {
  if (!entered) {
    if (state.heat) state.heatVersion++;
    state.heat = null;
    return;
  }
  state.heat ??= new Uint32Array(state.squares);
  let same = true;
  for (let i = 0; same && i < entered.length; i++) same = state.heat[i] === entered[i];
  if (same) return;
  state.heat.set(entered);
  state.heatVersion++;
}

// ---------------------------------------------------------------- reading a square
/**
 * What square `sq` shows: hole | empty | visited | current | legal | trail | candidate |
 * tried | dead. `knight` is knightSquare(state) (a caller reading every square passes it once).
 */
export function squareKind(state, sq, knight = knightSquare(state)) {
  if (state.holes[sq] === 1) return "hole";
  if (sq === knight) return "current";
  const mk = state.marks[sq];
  // the closing return onto the start is visited too; so are the frames a quiz's why backs
  // out of, and a student's wrong frame
  if (mk === MARK.legal || mk === MARK.dead) return MARK_KIND[mk];
  const n = state.order[sq];
  if (n > 0) return n > state.own ? "trail" : "visited";
  return MARK_KIND[mk];
}

/** The number `sq` shows: its move number on the path, else its mark's note; 0 = none. */
export function squareNumber(state, sq) {
  const n = state.order[sq];
  if (n > 0) return n;
  return state.notes[sq] >= 0 ? state.notes[sq] : 0;
}

// ---------------------------------------------------------------- a Play game
/**
 * A game of the JSON API (docs/api.md: rows, cols, holes, closed, start, path, legal,
 * returned, status) on the board, with the page's own `hint` and `warn` squares ([row, col]
 * or null).
 */
export function showGame(state, game, { hint = null, warn = null } = {}) {
  const sq = ([row, col]) => toSquare(row, col, state.cols);
  setHoles(state, (game.holes ?? []).map(sq));
  state.own = Number.POSITIVE_INFINITY;
  state.start = game.start ? sq(game.start) : -1;
  state.closed = Boolean(game.closed);
  state.status = game.status;
  setPath(state, game.path.map(sq), game.path.length, { returned: Boolean(game.returned) });
  clearMarks(state);
  if (game.status === "new" || game.status === "playing") {
    for (const move of game.legal) mark(state, sq(move), MARK.legal);
  }
  state.hint = hint ? sq(hint) : -1;
  state.warn = warn ? sq(warn) : -1;
}
