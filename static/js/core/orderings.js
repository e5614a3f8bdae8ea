// The articles' programs a search may run, as every page serves them in <body data-limits>
// (server/engine/articles.py's browser_table): each one's board, start and rule. The call
// stack orders its candidates by the rule, the forms offer the programs, the lanes name
// them; no fact of the engine's is copied here.

import { boardLimits } from "./limits.js";
import { KNIGHT_JUMPS } from "./squares.js";

/** The seeds' rule, which "seed" and "warnsdorff" share (the lesson's move order). */
const LESSON_MOVES = KNIGHT_JUMPS;

const read = new WeakMap(); // body -> its table: narration and decoding ask every frame

/** {id: {article, language, rows, cols, start, fixed_of, fixed, moves, sort, ...}}. */
export function articleOrderings(body = globalThis.document?.body) {
  if (!body?.dataset?.limits) return {};
  if (!read.has(body)) read.set(body, boardLimits(body).orderings ?? {});
  return read.get(body);
}

/** The article ordering `algorithm`, or null (seed, warnsdorff, construct). */
export function articleOf(algorithm, table = articleOrderings()) {
  return Object.hasOwn(table, algorithm) ? table[algorithm] : null;
}

/**
 * How `algorithm` orders a frame's candidates: {moves, sort: "onward" | "static" | null,
 * landsOnStart, searched}; `searched` false: its frames' candidates are unknown (a code lab
 * program that follows no rule, lab/translate.js). Warnsdorff sorts by onward counts; seed and the construction keep the
 * lesson's move order.
 */
export function ruleOf(algorithm, table = articleOrderings()) {
  const article = articleOf(algorithm, table);
  if (article) {
    const { moves, sort, lands_on_start: landsOnStart, searched = true } = article;
    return { moves, sort, landsOnStart, searched };
  }
  const sort = algorithm === "warnsdorff" ? "onward" : null;
  return { moves: LESSON_MOVES, sort, landsOnStart: false, searched: true };
}

/** Whether `algorithm`'s moves carry their candidates' counts (what its sort orders by). */
export function carriesOnward(algorithm, table = articleOrderings()) {
  return ruleOf(algorithm, table).sort !== null;
}

/**
 * How `algorithm`'s program keeps its path, which the call-stack panel names: recursive
 * calls ("calls"), an explicit stack array ("array"), or each square's tag ("tags").
 */
export function pathKeptBy(algorithm, table = articleOrderings()) {
  return articleOf(algorithm, table)?.path_kept ?? "calls";
}
