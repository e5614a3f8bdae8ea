// The share pages' few calls (docs/api.md, docs/daily.md): refusals arrive as the Play
// page's ApiError, with the server's words in the page's language.

import { ApiError } from "../core/api.js";
import { getLang } from "../core/i18n.js";

async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const sep = path.includes("?") ? "&" : "?";
  const response = await fetch(`${path}${sep}lang=${getLang()}`, init);
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(data?.error || `${response.status}`, response.status, data?.code);
  }
  return data;
}

export const shareApi = {
  /** A new game of today's daily puzzle. */
  daily: () => request("POST", "/api/games", { daily: "today" }),
  dailyLeaderboard: (date) =>
    request("GET", `/api/leaderboard?${new URLSearchParams({ daily: date })}`),
  /** The public replay id of a won game (the same one every time). */
  replay: (gameId) => request("POST", `/api/games/${encodeURIComponent(gameId)}/replay`, {}),
};
