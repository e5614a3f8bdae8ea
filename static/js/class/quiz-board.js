// The class quiz on a board, as plain data (no DOM, tested in tests/js/quiz-board.test.js):
// the question's position, the class's answers as a heat map, the reveal (the right
// square, the student's own answer) and the "why" (the candidates in the order tried,
// with Warnsdorff's onward counts). The server decides; this only shows what it sent.

import { clearMarks, MARK, mark, markSearch, setHeat, setPath } from "../board/state.js";

/** Answers per square (a Uint32Array for the heat layer) from `[[square, answers], ...]`. */
export function tallyHeat(tally, squares) {
  const heat = new Uint32Array(squares);
  for (const [sq, count] of tally || []) {
    if (sq >= 0 && sq < squares) heat[sq] = count;
  }
  return heat;
}

const KNIGHT = [
  [-2, -1],
  [-2, 1],
  [-1, -2],
  [-1, 2],
  [1, -2],
  [1, 2],
  [2, -1],
  [2, 1],
];

/** The squares the knight can go to from the path's end: on the board, not yet visited. */
export function knightTargets(path, rows, cols) {
  if (!path?.length) return [];
  const here = path[path.length - 1];
  const [row, col] = [Math.floor(here / cols), here % cols];
  const visited = new Set(path);
  const targets = [];
  for (const [dr, dc] of KNIGHT) {
    const r = row + dr;
    const c = col + dc;
    if (r >= 0 && r < rows && c >= 0 && c < cols && !visited.has(r * cols + c)) {
      targets.push(r * cols + c);
    }
  }
  return targets.sort((a, b) => a - b);
}

/**
 * Fill a board state for a quiz view: the position, then the tally (teacher) or the
 * distribution (after the reveal) as heat, the right square and one's own answer marked,
 * or the why's candidates.
 */
export function showQuiz(
  state,
  { question, tally = null, reveal = null, mine = null, why = null, legal = false },
) {
  clearMarks(state);
  if (!question) {
    setPath(state, []);
    setHeat(state, null);
    return;
  }
  setPath(state, question.path);
  const counts = reveal ? reveal.distribution : tally;
  setHeat(state, counts?.length ? tallyHeat(counts, state.squares) : null);
  if (legal && !reveal) {
    for (const sq of knightTargets(question.path, state.rows, state.cols))
      mark(state, sq, MARK.legal);
  }
  if (why) {
    markSearch(state, { candidates: why.candidates, counts: why.onward, tried: why.tried });
  }
  if (mine !== null && mine !== undefined && (!reveal || mine !== reveal.answer)) {
    mark(state, mine, reveal ? MARK.dead : MARK.candidate);
  }
  if (reveal) mark(state, reveal.answer, MARK.legal, why ? state.notes[reveal.answer] : -1);
}

/** The student's outcome once revealed: "right" | "wrong" | "none" (no answer); null before. */
export function outcome(reveal, mine) {
  if (!reveal) return null;
  if (mine === null || mine === undefined) return "none";
  return mine === reveal.answer ? "right" : "wrong";
}

/** The share of present students who answered, 0..1 (0 with nobody present). */
export function answeredShare(tally) {
  if (!tally?.students) return 0;
  return Math.min(1, tally.answers / tally.students);
}
