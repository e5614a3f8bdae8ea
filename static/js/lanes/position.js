// What a lane shows of its player's position, as plain data (no DOM): the board state's
// path, heat and marks (the last event's, or a selected stack frame's candidates), and
// the narration and the code panel's lines that go with them.

import { clearMarks, mark, markSearch, onward, setHeat, setPath } from "../board/state.js";
import { lastEventView } from "../stream/last-event.js";
import { narrateDone, narrateEvent } from "../stream/narrate.js";

/**
 * Put `player`'s position on the board `state`: `heat` (counts per square, or null), the
 * ringed `answer` square (-1: none), the selected stack `frame`'s candidates (null: the
 * last event's marks), and a quiz's why (`quiz`: {marks: [[sq, MARK, note]], ring}, in
 * place of the others). Returns the last event's view (stream/last-event.js).
 */
export function markPosition(
  state,
  player,
  { heat = null, answer = -1, frame = null, quiz = null } = {},
) {
  setPath(state, player.path, player.depth);
  setHeat(state, heat);
  state.hint = answer;
  const view = lastEventView(player);
  const ended = player.finished && player.done;
  state.frame = frame ? frame.square : -1;
  if (quiz) {
    clearMarks(state);
    for (const [sq, kind, note] of quiz.marks) mark(state, sq, kind, note);
    if (quiz.ring >= 0) state.hint = quiz.ring;
  } else if (frame) markSearch(state, frameMarks(frame));
  else markSearch(state, ended ? {} : { ...view, dead: view.back });
  state.status = ended ? player.done.status : "";
  return view;
}

/**
 * The position's sentence and code lines, {text, tags}: the last event (`view`) in words
 * (the onward counts read from `state`), or the search's end; `text` is null when nothing
 * new is to be said.
 */
export function describePosition(state, view, player, settings) {
  if (player.finished && player.done) {
    const found = ["found", "declared"].includes(player.done.status); // the program ends
    const text = narrateDone(player.done, player, settings.start);
    return { text, tags: found ? "finish" : codeTags(view) };
  }
  const count = (sq) => onward(state, sq);
  const text = narrateEvent(view, player, { algorithm: settings.algorithm, onward: count });
  return { text, tags: codeTags(view) };
}

/**
 * The code panel's lines for the event `view`: what the algorithm's code does there, the
 * first tag the line that does it (code-listings.js). A move enters its square (mark) from
 * its parent's call (recurse); the first move is the start, which some programs mark outside
 * their search (start). A step back leaves its square (reset) after the dead-end test.
 */
export function codeTags(view) {
  if (view.move >= 0) return view.candidates.length ? "mark recurse next sort" : "start next sort";
  return view.back >= 0 ? "reset check" : "";
}

/** A selected stack frame's candidates as the board marks them (failed ones as tried). */
export function frameMarks(frame) {
  const candidates = frame.candidates.map((c) => c.square);
  const counts = frame.candidates.some((c) => c.count !== null)
    ? frame.candidates.map((c) => c.count)
    : null;
  const tried = frame.candidates.filter((c) => c.state === "failed").length;
  return { candidates, counts, tried };
}

/** The counters of a board no run has started on. */
export function emptyPlayer(settings) {
  const squares = settings.rows * settings.cols;
  return { moves: 0, backtracks: 0, depth: 0, maxDepth: 0, pos: 0, received: 0, squares };
}
