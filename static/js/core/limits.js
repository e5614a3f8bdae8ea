// What the server accepts, as every page serves it in <body data-limits> from the server's
// own rules (server/game/rules.py for games and puzzles, server/stream/fields.py for searches
// and the construction; server/web/pages.py puts them there), so a form never offers what
// the server refuses and no figure of the server's is copied here.

/** {play, search, construct}: each {min, max} rows and columns; and `search_nodes`. */
export function boardLimits(body = globalThis.document.body) {
  return JSON.parse(body.dataset.limits);
}

/** The most nodes one /watch search may visit: what a lane asks for (⏭ runs that far). */
export function searchNodeBudget(body = globalThis.document.body) {
  return boardLimits(body).search_nodes;
}

/** `value` as a whole number inside `limit`; `fallback` when it is not a number. */
export function clampSide(value, limit, fallback) {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? Math.max(limit.min, Math.min(limit.max, n)) : fallback;
}

/** Whether rows x cols is inside `limit`. */
export function fits(rows, cols, limit) {
  return [rows, cols].every((n) => Number.isInteger(n) && n >= limit.min && n <= limit.max);
}
