// The reveal's "why" of each kind of question (server/engine/questions.py), as words and as
// marks on a board: the onward squares counted, Warnsdorff's counts and its tie-break, the
// squares backed out of and the frame that goes on, the rest of a tour or the reason there
// is none, the obstacle's squares. Plain data, no DOM (tests/js/quiz-kinds.test.js);
// "where next?" is its candidates in the order tried (whyOrder). Squares' names come from
// `name(sq)`. Shared by the class quiz and the practice (quiz-why-list.js draws the list).

import { MARK } from "../board/state.js";
import { formatNumber, t } from "../core/i18n.js";
import { parseSquare } from "../core/squares.js";
import { kindOf } from "./quiz-kinds.js";

const names = (squares, name) => squares.map(name).join(", ");

/** The why as {title, items: [{text, square, state}]} (state: chosen | tied | failed | waiting). */
export function whyLines(question, why, name) {
  if (!why) return { title: "", items: [] };
  const kind = kindOf(question);
  const item = (square, text, state = "waiting") => ({ square, text, state });
  switch (kind) {
    case "onward":
      return {
        title: t("class.quiz.why.onward-of", {
          square: name(why.square),
          n: formatNumber(why.onward.length),
        }),
        items: why.onward.map((sq) => item(sq, name(sq))),
      };
    case "pick": {
      const tie = why.tied.length > 1;
      const title = t(tie ? "class.quiz.why.pick-tie" : "class.quiz.why.pick", {
        pick: name(why.pick),
        n: formatNumber(why.fewest),
        tied: names(why.tied, name),
      });
      const items = why.candidates.map((sq, i) => {
        const state = sq === why.pick ? "chosen" : why.tied.includes(sq) ? "tied" : "waiting";
        const text = t("class.quiz.why.onward", {
          square: name(sq),
          n: formatNumber(why.onward[i]),
        });
        return item(sq, text, state);
      });
      return { title, items };
    }
    case "backtrack":
      if (why.steps === 0) {
        return { title: t("class.quiz.why.moves-on", { square: name(why.next) }), items: [] };
      }
      return {
        title: t(why.to === null ? "class.quiz.why.back-out" : "class.quiz.why.steps-back", {
          n: formatNumber(why.steps),
          to: why.to === null ? "" : name(why.to),
          next: why.next === null ? "" : name(why.next),
        }),
        items: why.left.map((sq) => item(sq, name(sq), "failed")),
      };
    case "frame":
      return {
        title: t("class.quiz.why.frame", {
          frame: name(why.frame),
          step: formatNumber(why.depth),
          next: name(why.next),
        }),
        items: why.returned.map((sq) => item(sq, name(sq), "failed")),
      };
    case "possible":
      return { title: possibleWords(why), items: [] };
    case "obstacle":
      return { title: obstacleWords(why, name), items: [] };
    default:
      return { title: "", items: [] };
  }
}

/** Whether the path can still become a tour: yes with the rest drawn, or the hint's reason. */
export function possibleWords(why) {
  if (why.verdict === "completable") {
    return t("class.quiz.why.possible-yes", { n: formatNumber(why.witness?.length ?? 0) });
  }
  const reason = why.code ? t(`hint.${why.code}`, why.params || {}) : "";
  return t("class.quiz.why.possible-no", { reason });
}

/** The verdict's words for a board without a tour, as the editor says them. */
export function obstacleWords(why, name) {
  const params = { ...(why.params || {}), squares: names(why.squares || [], name) };
  if (why.code === "theory") return t(`theory.${params.theory}`, params);
  if (why.code === "exhausted" && !params.nodes) return t("verdict.exhausted.proof", params);
  return t(`verdict.${why.code}`, params);
}

/** A square named by the server's words ("f6"), or -1. */
function squareAt(name, rows, cols) {
  const at = parseSquare(String(name), rows, cols);
  return at ? at[0] * cols + at[1] : -1;
}

/**
 * The why on a board: {marks: [[sq, MARK kind, note]], ring: sq or -1, path?: the path to
 * show instead of the question's}. `question.path` is the position the board shows; the
 * board's size is the why's (`board`), else rows x cols.
 */
export function whyMarks(question, why, { rows = 8, cols = 8 } = {}) {
  const none = { marks: [], ring: -1 };
  if (!why) return none;
  const kind = kindOf(question);
  const path = question.path ?? [];
  ({ rows, cols } = why.board ?? { rows, cols });
  switch (kind) {
    case "next":
      // the candidates in the order tried: the failed ones, the move made (ringed), the
      // waiting ones with their onward counts when the run carries them (the class's own
      // board draws this with markSearch, quiz-board.js; the practice on its lane)
      return {
        marks: why.candidates.map((sq, i) => {
          if (i < why.tried) return [sq, MARK.tried, -1];
          if (i === why.tried) return [sq, MARK.legal, -1];
          return [sq, MARK.candidate, why.onward ? why.onward[i] : -1];
        }),
        ring: why.candidates[why.tried],
      };
    case "onward":
      return {
        marks: [
          [why.square, MARK.candidate, why.onward.length],
          ...why.onward.map((sq) => [sq, MARK.legal, -1]),
        ],
        ring: why.square,
      };
    case "pick":
      return {
        marks: why.candidates.map((sq, i) => [
          sq,
          sq === why.pick ? MARK.legal : MARK.candidate,
          why.onward[i],
        ]),
        ring: why.pick,
      };
    case "backtrack":
    case "frame": {
      // the search after its returns: the knight back on the frame that goes on, the
      // squares it backed out of marked, its next move lit
      const left = kind === "frame" ? why.returned : why.left;
      const marks = left.map((sq) => [sq, MARK.dead, -1]);
      if (why.next !== null) marks.push([why.next, MARK.legal, -1]);
      const ring = kind === "frame" ? why.frame : (why.to ?? -1);
      return { marks, ring, path: path.slice(0, path.length - left.length) };
    }
    case "possible":
      if (why.verdict !== "completable" || !why.witness) {
        const named = why.params?.square ?? why.params?.start;
        const sq = named ? squareAt(named, rows, cols) : -1;
        return sq >= 0 ? { marks: [[sq, MARK.dead, -1]], ring: -1 } : none;
      }
      // the rest of one tour, numbered on from the path
      return {
        marks: why.witness.map((sq, i) => [sq, MARK.candidate, path.length + i + 1]),
        ring: -1,
      };
    case "obstacle":
      return { marks: (why.squares || []).map((sq) => [sq, MARK.dead, -1]), ring: -1 };
    default:
      return none;
  }
}

/**
 * The why as a list: the candidates in the order the search tries them, each with its
 * onward count (Warnsdorff's) and whether it was tried and failed, or is the move made.
 */
export function whyOrder(why) {
  if (!why?.candidates) return [];
  return why.candidates.map((square, i) => ({
    square,
    onward: why.onward ? why.onward[i] : null,
    state: i < why.tried ? "failed" : i === why.tried ? "chosen" : "waiting",
  }));
}
