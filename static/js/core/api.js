// The JSON API (docs/api.md). The browser only sends intentions; every answer is
// the server's authoritative state. Requests that change a game run one after the
// other, in the order the player made them.

import { getLang } from "./i18n.js";

export class ApiError extends Error {
  constructor(message, status, code) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

let queue = Promise.resolve();

function withLang(path) {
  const sep = path.includes("?") ? "&" : "?";
  return `${path}${sep}lang=${getLang()}`;
}

async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(withLang(path), init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = data?.error || `${response.status} ${response.statusText}`;
    throw new ApiError(message, response.status, data?.code);
  }
  return data;
}

/** Run `fn` after every earlier queued call has settled. */
function serial(fn) {
  const result = queue.then(fn, fn);
  queue = result.catch(() => {});
  return result;
}

const game = (id) => `/api/games/${encodeURIComponent(id)}`;

export const api = {
  create: (rows, cols, closed) =>
    serial(() => request("POST", "/api/games", { rows, cols, closed })),
  /** A game of a puzzle code (holes, mode, fixed start); refused with its shape error. */
  createPuzzle: (puzzle) => serial(() => request("POST", "/api/games", { puzzle })),
  createLevel: (level) => serial(() => request("POST", "/api/games", { level })),
  get: (id) => serial(() => request("GET", game(id))),
  move: (id, row, col) => serial(() => request("POST", `${game(id)}/moves`, { row, col })),
  random: (id) => serial(() => request("POST", `${game(id)}/moves`, { random: true })),
  undo: (id, count = 1) => serial(() => request("POST", `${game(id)}/undo`, { count })),
  restart: (id) => serial(() => request("POST", `${game(id)}/restart`, {})),
  hint: (id) => serial(() => request("POST", `${game(id)}/hint`, {})),
  score: (id, name) => serial(() => request("POST", `${game(id)}/score`, { name })),
  theory: (rows, cols, closed, square = null) => {
    const q = new URLSearchParams({ rows, cols, closed });
    if (square) {
      q.set("row", square[0]);
      q.set("col", square[1]);
    }
    return request("GET", `/api/theory?${q}`);
  },
  leaderboard: (rows, cols, closed) =>
    request("GET", `/api/leaderboard?${new URLSearchParams({ rows, cols, closed })}`),
  puzzleLeaderboard: (puzzle) =>
    request("GET", `/api/leaderboard?${new URLSearchParams({ puzzle })}`),
  /** Whether a path ([row, col] pairs) is a tour, open or closed (the code lab's run). */
  checkTour: (body) => request("POST", "/api/tour", body),
};
