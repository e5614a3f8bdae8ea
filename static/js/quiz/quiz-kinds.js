// The quiz's kinds of question (server/engine/questions.py) as the pages show them: how a
// student answers each, what the answers read as, the question's sentence. Plain data and
// words, no DOM (tests/js/quiz-kinds.test.js). Shared by the class quiz, whose server
// decides every answer, and the practice on /watch and /lesson (practice/questions.js
// writes its own); this only names them.

import { formatNumber, t } from "../core/i18n.js";
import { KNIGHT_JUMPS } from "../core/squares.js";

/** The kinds a teacher can ask, in the picker's order. */
export const KINDS = ["next", "onward", "pick", "backtrack", "frame", "possible", "obstacle"];
/** The verdict's named obstacles, in the server's order (an answer is an index). */
export const OBSTACLES = [
  "unreachable",
  "split",
  "dead-ends",
  "colour",
  "start-colour",
  "theory",
  "exhausted",
];
const SQUARE_KINDS = new Set(["next", "pick", "frame"]);
const NUMBER_KINDS = new Set(["onward", "backtrack"]);

/** A question's kind (a question asked before there were kinds is "where next?"). */
export function kindOf(question) {
  return question?.kind || "next";
}

/** How a student answers: "square" (a tap on the board), "number", "yesno" or "choice". */
export function answerWay(question) {
  const kind = kindOf(question);
  if (SQUARE_KINDS.has(kind)) return "square";
  if (NUMBER_KINDS.has(kind)) return "number";
  return kind === "possible" ? "yesno" : "choice";
}

/**
 * The answers a pad offers for a question that is not answered on the board: [{value,
 * text}], in order (a count 0..n, no and yes, the obstacles).
 */
export function padChoices(question) {
  const way = answerWay(question);
  if (way === "square") return [];
  const count = question.values ?? 0;
  return Array.from({ length: count }, (_, value) => ({
    value,
    text: answerText(question, value, String),
  }));
}

/** An answer's words: a square's name (`name(sq)`), a number, yes or no, an obstacle. */
export function answerText(question, value, name) {
  if (value === null || value === undefined) return "";
  const way = answerWay(question);
  if (way === "square") return name(value);
  if (way === "number") return formatNumber(value);
  if (way === "yesno") return t(value ? "class.record.yes" : "class.record.no");
  return t(`class.quiz.obstacle.${OBSTACLES[value] ?? "exhausted"}`);
}

/** The question's sentence, as the student and the projector read it. */
export function promptWords(question, name) {
  const kind = kindOf(question);
  const square = question.subject?.square;
  return t(`class.quiz.prompt.${kind}`, { square: square === undefined ? "" : name(square) });
}

/** The kind's short name (the teacher's picker, the record). */
export function kindName(kind) {
  return t(`class.quiz.kind.${kind}`);
}

/**
 * The squares the knight can go to from the path's end: on the board, no hole (`holes`:
 * the board's), not yet visited.
 */
export function knightTargets(path, rows, cols, holes = []) {
  if (!path?.length) return [];
  const here = path[path.length - 1];
  const [row, col] = [Math.floor(here / cols), here % cols];
  const visited = new Set([...path, ...holes]);
  const targets = [];
  for (const [dr, dc] of KNIGHT_JUMPS) {
    const r = row + dr;
    const c = col + dc;
    if (r >= 0 && r < rows && c >= 0 && c < cols && !visited.has(r * cols + c)) {
      targets.push(r * cols + c);
    }
  }
  return targets.sort((a, b) => a - b);
}

/**
 * The squares a student may tap for a square question: the knight's jumps (where next,
 * Warnsdorff's pick), the frames on the path below the knight (the frame that goes on).
 */
export function tapTargets(question, rows, cols, holes = []) {
  const kind = kindOf(question);
  const path = question?.path ?? [];
  if (kind === "frame") return path.slice(0, -1);
  if (kind === "next" || kind === "pick") return knightTargets(path, rows, cols, holes);
  return [];
}
