import assert from "node:assert/strict";
import { test } from "node:test";
import { focusAfterKey } from "../../static/js/board/events.js";
import { squareLabel } from "../../static/js/board/labels.js";
import {
  clearMarks,
  createState,
  knightSquare,
  MARK,
  markSearch,
  onward,
  setHeat,
  setHoles,
  setPath,
  showGame,
  squareKind,
  squareNumber,
  trailHead,
} from "../../static/js/board/state.js";
import { useCatalogue } from "../../static/js/core/i18n.js";

const kinds = (state) => Array.from({ length: state.squares }, (_, sq) => squareKind(state, sq));

test("a path numbers its squares; the knight stands on its last", () => {
  const state = createState(5, 5);
  assert.equal(setPath(state, [0, 7, 4]), true);
  assert.deepEqual(
    [0, 7, 4].map((sq) => state.order[sq]),
    [1, 2, 3],
  );
  assert.equal(knightSquare(state), 4);
  assert.deepEqual(
    [squareKind(state, 0), squareKind(state, 4), squareKind(state, 1)],
    ["visited", "current", "empty"],
  );
  assert.equal(squareNumber(state, 7), 2);
  assert.equal(setPath(state, [0, 7, 4]), false); // nothing changed
});

test("the last move is known when the path changed by one move, on or back, else not", () => {
  const state = createState(5, 5);
  setPath(state, [0, 7]);
  setPath(state, [0, 7, 4]);
  assert.deepEqual(state.lastMove, [7, 4]);
  setPath(state, [0, 7]);
  assert.deepEqual(state.lastMove, [4, 7]); // one move undone
  setPath(state, [0]);
  setPath(state, [0, 11, 22]);
  assert.equal(state.lastMove, null); // two moves at once: the knight jumps there
  assert.equal(state.order[7], 0); // squares that left the path are off it
  state.start = 0;
  setPath(state, [0, 11, 22], 3, { returned: true });
  assert.deepEqual(state.lastMove, [22, 0]); // the closing jump back onto the start
});

test("a Play game on the board: legal moves, the closing return, hint and warning", () => {
  const state = createState(5, 5);
  const game = {
    rows: 5,
    cols: 5,
    closed: true,
    start: [0, 0],
    path: [
      [0, 0],
      [1, 2],
    ],
    legal: [
      [0, 4],
      [2, 4],
    ],
    returned: false,
    status: "playing",
  };
  showGame(state, game, { hint: [2, 4], warn: null });
  assert.equal(state.start, 0);
  assert.equal(squareKind(state, 7), "current");
  assert.equal(squareKind(state, 4), "legal");
  assert.equal(state.hint, 14);
  assert.equal(state.warn, -1);
  // the closed tour's last jump, back onto its start: the knight is on the start
  showGame(state, { ...game, legal: [], returned: true, status: "won" });
  assert.equal(knightSquare(state), 0);
  assert.equal(squareKind(state, 7), "visited");
  assert.equal(state.marks[4], MARK.none); // a finished game has no legal moves
  // before the first move every square is a legal start
  showGame(state, { ...game, start: null, path: [], legal: [[4, 0]], status: "new" });
  assert.equal(squareKind(state, 20), "legal");
  assert.equal(knightSquare(state), -1);
});

test("a search's last choice: candidates with counts, tried ones, the square backed out of", () => {
  const state = createState(5, 5);
  setPath(state, [0, 7]);
  markSearch(state, { candidates: [4, 14, 18, 0], counts: [1, 2, 3, 4], tried: 1, dead: 10 });
  assert.equal(squareKind(state, 4), "tried");
  assert.equal(squareKind(state, 14), "candidate");
  assert.equal(squareNumber(state, 14), 2);
  assert.equal(squareKind(state, 10), "dead");
  assert.equal(squareKind(state, 0), "visited"); // squares on the path carry no mark
  // without counts from the run, the onward moves are counted on the board
  markSearch(state, { candidates: [14], tried: 0 });
  assert.equal(squareNumber(state, 14), onward(state, 14));
  assert.equal(squareKind(state, 10), "empty");
  clearMarks(state);
  assert.equal(state.marked.length, 0);
});

test("Show me: the player's path, then the search's trail with a ghost at its head", () => {
  const state = createState(5, 5);
  state.own = 2;
  setPath(state, [0, 7, 4, 13]);
  assert.equal(knightSquare(state), 7);
  assert.equal(trailHead(state), 13);
  assert.deepEqual([squareKind(state, 4), squareKind(state, 13)], ["trail", "trail"]);
  assert.equal(kinds(state).filter((kind) => kind === "visited").length, 1);
});

test("the heat map keeps a copy and knows when it changed", () => {
  const state = createState(2, 3);
  const entered = new Uint32Array([1, 0, 2, 0, 0, 5]);
  setHeat(state, entered);
  const version = state.heatVersion;
  entered[1] = 7;
  assert.equal(state.heat[1], 0);
  setHeat(state, entered);
  assert.equal(state.heatVersion, version + 1);
  setHeat(state, entered);
  assert.equal(state.heatVersion, version + 1);
  setHeat(state, null);
  assert.equal(state.heat, null);
});

test("squares are named for screen readers from what they show", () => {
  useCatalogue("en", {
    "ui.sq.current": "{square}, knight here, move {n}",
    "ui.sq.visited": "{square}, visited as move {n}",
    "ui.sq.legal": "{square}, legal move",
    "ui.sq.return": "{square}, the start: jump back here to close the tour",
    "ui.sq.candidate": "{square}, a candidate: {n} onward moves",
    "ui.sq.candidate.one": "{square}, a candidate: {n} onward move",
    "ui.sq.start-suffix": ", the start",
    "ui.sq.hint-suffix": ", suggested by the hint",
  });
  const state = createState(5, 5);
  state.start = 20;
  assert.equal(squareLabel(state, 20), "a1, the start"); // before any move
  setPath(state, [20, 11]);
  state.hint = 2;
  state.marks[2] = MARK.legal;
  assert.equal(squareLabel(state, 11, "current", 2), "b3, knight here, move 2");
  assert.equal(squareLabel(state, 20, "visited", 1), "a1, visited as move 1");
  assert.equal(squareLabel(state, 2, "legal", 0), "c5, legal move, suggested by the hint");
  assert.equal(squareLabel(state, 3, "candidate", 1), "d5, a candidate: 1 onward move");
  state.closed = true;
  assert.equal(squareLabel(state, 20, "visited", 1), "a1, visited as move 1, the start");
  assert.equal(
    squareLabel(state, 20, "legal", 1),
    "a1, the start: jump back here to close the tour",
  );
  state.status = "new";
  assert.equal(squareLabel(state, 7, "legal", 0), "c4"); // choosing a start: every square
});

test("the arrow keys, Home and End move the focus square within the board", () => {
  const board = { rows: 4, cols: 5 };
  assert.equal(focusAfterKey(0, "ArrowUp", board), 0);
  assert.equal(focusAfterKey(0, "ArrowDown", board), 5);
  assert.equal(focusAfterKey(4, "ArrowRight", board), 4);
  assert.equal(focusAfterKey(7, "Home", board), 5);
  assert.equal(focusAfterKey(7, "End", board), 9);
  assert.equal(focusAfterKey(7, "End", board, true), 19);
  assert.equal(focusAfterKey(7, "Home", board, true), 0);
  assert.equal(focusAfterKey(7, "x", board), null);
});

test("holes are no squares: shown as holes, never counted onward, named as holes", () => {
  useCatalogue("en", { "ui.sq.hole": "{square} hole" });
  const state = createState(3, 4);
  assert.equal(setHoles(state, [5]), true);
  assert.equal(setHoles(state, [5]), false); // nothing changed
  assert.equal(squareKind(state, 5), "hole");
  assert.equal(squareLabel(state, 5), "b2 hole");
  // b1 (row 2, col 1) jumps to a3 (0), c3 (2) and d2 (7); a3 and d2 stay, c3 is taken
  const b1 = 9;
  assert.equal(onward(state, b1), 3);
  setHoles(state, [5, 7]);
  assert.equal(onward(state, b1), 2);
  showGame(state, {
    holes: [[0, 0]],
    closed: false,
    start: null,
    path: [],
    legal: [],
    returned: false,
    status: "new",
  });
  assert.deepEqual(
    kinds(state)
      .map((k, sq) => (k === "hole" ? sq : -1))
      .filter((sq) => sq >= 0),
    [0],
  );
});
