// A level of the path on the Play page (/?level=<id>): start (or resume) the level's game,
// show the level's name and best stars above the board, and after the win the stars this
// run earned and the way to the next level. The server decides the stars; this only shows.

import { api } from "../core/api.js";
import { t } from "../core/i18n.js";

const $ = (selector) => document.querySelector(selector);
const KEY = "knights-tour.level.";
const STARS = [
  [1, "levels.star.finished"],
  [2, "levels.star.no-hints"],
  [4, "levels.star.no-undo"],
];

/** The level id in the address, or null. */
export function levelFromUrl() {
  return new URLSearchParams(location.search).get("level");
}

async function getJson(path) {
  const response = await fetch(
    `${path}${path.includes("?") ? "&" : "?"}lang=${document.body.dataset.lang}`,
    {
      headers: { Accept: "application/json" },
    },
  );
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error(data?.error ?? String(response.status));
  return data;
}

function starsText(bits) {
  return STARS.map(([bit]) => (bits & bit ? "★" : "☆")).join("");
}

function remember(levelId, gameId) {
  try {
    localStorage.setItem(KEY + levelId, gameId);
  } catch {
    /* private mode: a reload starts the level again */
  }
}

function stored(levelId) {
  try {
    return localStorage.getItem(KEY + levelId);
  } catch {
    return null;
  }
}

async function showBar(levelId) {
  const level = await getJson(`/api/levels/${encodeURIComponent(levelId)}`);
  $("#level-title").textContent = t("levels.level", { number: level.number, name: level.name });
  $("#level-best").textContent = level.stars ? starsText(level.stars) : "";
  $("#level-best").setAttribute("aria-label", t("levels.best", { stars: starsText(level.stars) }));
  $("#level-bar").hidden = false;
  return level;
}

/** The level's game: the unfinished one this browser played, else a new one. */
export async function startLevel(levelId) {
  let game = null;
  const id = stored(levelId);
  if (id) {
    try {
      game = await api.get(id);
    } catch {
      game = null;
    }
    if (game && (game.level !== levelId || game.status === "won")) game = null;
  }
  if (!game) game = await api.createLevel(levelId);
  remember(levelId, game.id);
  showBar(levelId).catch(() => {});
  return game;
}

/** A level's error in the bar (locked, unknown): the page goes on with a free game. */
export function showLevelError(err) {
  $("#level-title").textContent = err.message;
  $("#level-bar").hidden = false;
}

/** After the win: this run's stars (the server's), and the next level once it opens. */
export async function levelWon(game) {
  const panel = $("#level-win");
  $("#level-map").hidden = !game.level;
  if (!game.level) {
    panel.hidden = true;
    $("#level-next").hidden = true;
    return;
  }
  $("#score-form").hidden = true; // levels keep stars, not the size's leaderboard
  const earned = game.stars ?? 0;
  $("#level-win-stars").textContent = starsText(earned);
  $("#level-win-stars").setAttribute(
    "aria-label",
    t("levels.stars", { count: countStars(earned) }),
  );
  $("#level-win-text").textContent = STARS.filter(([bit]) => earned & bit)
    .map(([, key]) => t(key))
    .join(" · ");
  panel.hidden = false;
  panel.dataset.stars = String(countStars(earned));
  const next = $("#level-next");
  next.hidden = true;
  try {
    const level = await showBar(game.level); // reading progress records the win
    if (level.next) {
      next.href = `/?level=${encodeURIComponent(level.next)}`;
      next.hidden = false;
    }
  } catch {
    /* the stars stay shown; the map link still works */
  }
}

function countStars(bits) {
  return STARS.filter(([bit]) => bits & bit).length;
}
