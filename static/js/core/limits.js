// The board sizes the server accepts, as every page serves them in <body data-limits> from
// the server's own rules (server/game/rules.py for games and puzzles, server/stream/spec.py
// for searches and the construction), so a form never offers what the server refuses.

/** {play, search, construct}: each {min, max} rows and columns. */
export function boardLimits(body = globalThis.document.body) {
  return JSON.parse(body.dataset.limits);
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
