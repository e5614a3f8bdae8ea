// The class quiz on a board, as plain data (no DOM, tested in tests/js/quiz-board.test.js):
// the question's position, the class's answers as a heat map, the reveal (the right
// square, the student's own answer) and the "why" (the candidates in the order tried,
// with Warnsdorff's onward counts). The server decides; this only shows what it sent.

import { clearMarks, isHole, MARK, mark, markSearch, setHeat, setPath } from "../board/state.js";
import { answerWay, kindOf, tapTargets } from "../quiz/quiz-kinds.js";
import { whyMarks } from "../quiz/quiz-why.js";

/** Answers per square (a Uint32Array for the heat layer) from `[[square, answers], ...]`. */
export function tallyHeat(tally, squares) {
  const heat = new Uint32Array(squares);
  for (const [sq, count] of tally || []) {
    if (sq >= 0 && sq < squares) heat[sq] = count;
  }
  return heat;
}

export { knightTargets } from "../quiz/quiz-kinds.js";

/**
 * Fill a board state for a quiz view: the position, then the tally (teacher) or the
 * distribution (after the reveal) as heat for a square question, the squares a student may
 * tap, the right square and one's own answer marked, or the why's marks (quiz-why.js;
 * "where next?": its candidates in the order tried).
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
  const squares = answerWay(question) === "square";
  const counts = squares ? (reveal ? reveal.distribution : tally) : null;
  setHeat(state, counts?.length ? tallyHeat(counts, state.squares) : null);
  state.hint = -1;
  if (legal && !reveal) {
    const holes = [];
    for (let sq = 0; sq < state.squares; sq++) if (isHole(state, sq)) holes.push(sq);
    for (const sq of tapTargets(question, state.rows, state.cols, holes)) {
      mark(state, sq, MARK.legal);
    }
  }
  const subject = question.subject?.square;
  if (subject !== undefined && !why) mark(state, subject, MARK.candidate);
  if (why && kindOf(question) === "next") {
    markSearch(state, { candidates: why.candidates, counts: why.onward, tried: why.tried });
    // Only a waiting candidate's name says its number (board/labels.js): the tried ones and
    // the move made show theirs in the why's list, not on the board.
    for (const sq of why.candidates.slice(0, why.tried + 1)) state.notes[sq] = -1;
  } else if (why) {
    const { marks, ring, path } = whyMarks(question, why, state);
    if (path) setPath(state, path);
    for (const [sq, kind, note] of marks) mark(state, sq, kind, note);
    state.hint = ring;
  }
  if (!squares) return;
  if (mine !== null && mine !== undefined && (!reveal || mine !== reveal.answer)) {
    mark(state, mine, reveal ? MARK.dead : MARK.candidate);
  }
  if (reveal) mark(state, reveal.answer, MARK.legal);
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

/**
 * Where the class stands with a question (a question belongs to its demo's generation and
 * index): "none" (no question), "coming" (open, and the class plays on to it, or this
 * page's board is not there yet), "here" (the class and this page's board are at it),
 * "past" (the class moved on: another demo, or away from it after the reveal).
 * `at`: {gen, index} where the class is; `shown`: the index this page's board shows.
 */
export function questionPlace(question, revealed, at, shown = at?.index) {
  if (!question || !at) return "none";
  if (question.gen !== at.gen) return "past";
  if (revealed) return at.index === question.index ? "here" : "past";
  if (at.index > question.index) return "past";
  return at.index === question.index && shown === question.index ? "here" : "coming";
}

/**
 * The sheet's key for what a question shows now ("<question>:<phase>"): a student who
 * closed the sheet sees it again when this changes (the reveal, the why).
 */
export function sheetKey(view) {
  const question = view?.question;
  if (!question) return "";
  const phase = view.why ? "why" : view.reveal ? "revealed" : question.phase || "open";
  return `${question.question}:${phase}`;
}
