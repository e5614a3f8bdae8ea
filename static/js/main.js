// The Play page: the server's game (core/api.js) on the board (board/), the side panels
// around it (play/*.js). The server decides everything; this file only sends intentions
// (a square, undo, a hint) and shows the answers.

import { Board } from "./board/board.js";
import { isHole, showGame } from "./board/state.js";
import { ApiError, api } from "./core/api.js";
import { t } from "./core/i18n.js";
import { bindLanguageSwitch, startLanguage } from "./core/language.js";
import { rowCol, squareName } from "./core/squares.js";
import { askHint, showMeEnded } from "./play/hints.js";
import { isPuzzle, Leaderboard } from "./play/leaderboard.js";
import { levelFromUrl, levelWon, showLevelError, startLevel } from "./play/level.js";
import { PuzzleLink } from "./play/puzzle-link.js";
import { Setup } from "./play/setup.js";
import { ShowMe } from "./play/showme.js";
import {
  jumpBack,
  showControls,
  showHint,
  showStatus,
  tick,
  warningUndoCount,
} from "./play/status.js";
import { forgetGameId, loadGameId, setGame, store } from "./play/store.js";
import { WinScreen } from "./play/win.js";

const $ = (selector) => document.querySelector(selector);
const toast = $("#toast");
const puzzleLink = new PuzzleLink($("#puzzle-error"));

const board = new Board($("#board"), { kind: "play", input: true, pieces: true });
const setup = new Setup({
  form: $("#setup"),
  panel: $("#setup-panel"),
  customSize: $("#custom-size"),
  theory: $("#theory"),
  startButton: $("#start-game"),
  puzzle: $("#puzzle-info"),
});
const leaderboard = new Leaderboard({
  board: $("#lb-board"),
  unassisted: $("#lb-unassisted"),
  assisted: $("#lb-assisted"),
  onError: showError,
});
const win = new WinScreen({
  onScored: (game) => {
    store.game = game;
    leaderboard.show(game, { force: true });
  },
});
const showMe = new ShowMe({
  board,
  panel: $("#showme"),
  button: $('.controls [data-action="show-me"]'),
  onEnd: (result) => showMeEnded(result, { render, showError }),
  onChange: () => store.game && showSide(store.game),
});

// ---------------------------------------------------------------- drawing
/** A status line the player must read at once: stuck, or the closed tour's jump back. */
function mustRead(game) {
  return jumpBack(game) || game?.status === "stuck";
}

/**
 * Scroll the least that shows the status line and the board together (a phone shows
 * them one above the other; after the setup panel under them it stands below both).
 */
function revealStatus() {
  const margin = 8;
  const parts = [$(".status-bar"), board.root].map((el) => el.getBoundingClientRect());
  const top = Math.min(...parts.map((r) => r.top)) - margin;
  const bottom = Math.max(...parts.map((r) => r.bottom)) + margin;
  let by = 0;
  if (top < 0 || bottom - top > innerHeight) by = top;
  else if (bottom > innerHeight) by = bottom - innerHeight;
  if (by) scrollBy({ top: by, behavior: smooth() });
}

function render({ relabel = false } = {}) {
  const game = store.game;
  if (!game) return;
  const resized = board.resize(game.rows, game.cols);
  // a puzzle's fixed start is marked before the knight stands on it
  const shown = { ...game, start: game.start ?? game.fixed_start ?? null };
  showGame(board.state, shown, { hint: store.hint, warn: store.pendingStart });
  board.draw({ relabel: relabel || resized });
  showStatus(game);
  setup.showPuzzle(game);
  showSide(game);
  leaderboard.show(game);
}

function showSide(game) {
  showControls(game, showMe.active);
  showHint(showMe.active);
}

function showError(err) {
  toast.textContent = err instanceof ApiError ? err.message : t("ui.error.network");
  toast.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => {
    toast.hidden = true;
  }, 4000);
  if (!(err instanceof ApiError)) console.error(err);
}

/** Show the server's answer to a request; null when it failed (said in the toast). */
async function apply(request, { keepHint = false } = {}) {
  try {
    const game = await request;
    const before = store.game;
    const wasWon = before?.status === "won";
    if (!keepHint) store.hintMessage = null;
    setGame(game);
    render();
    if (mustRead(game) && !mustRead(before)) revealStatus();
    if (game.status === "won" && !wasWon) {
      win.show(game);
      levelWon(game);
    }
    return game;
  } catch (err) {
    if (err instanceof ApiError && err.code === "unknown-game") forgetGameId();
    showError(err);
    return null;
  }
}

// ---------------------------------------------------------------- moves
async function onSquare(sq) {
  if (showMe.active) {
    showMe.cancel(); // a square picked while the search is shown only ends the show
    return;
  }
  const game = store.game;
  if (!game || game.status === "won" || isHole(board.state, sq)) return; // a hole is no square
  const square = rowCol(sq, game.cols);
  if (game.status === "new") return chooseStart(square);
  const current = game.path.at(-1);
  if (current && current[0] === square[0] && current[1] === square[1]) return;
  await apply(api.move(game.id, ...square));
}
board.onSquare = onSquare;

/** The first square: ask the theory first, and warn (once) if no tour starts there. */
async function chooseStart(square) {
  const game = store.game;
  const pending = store.pendingStart;
  const confirmed = pending && pending[0] === square[0] && pending[1] === square[1];
  // theory speaks of plain boards; a puzzle's server warns once the knight is placed
  if (!confirmed && !isPuzzle(game)) {
    let verdict = null;
    try {
      verdict = await api.theory(game.rows, game.cols, game.closed, square);
    } catch (err) {
      showError(err);
      return;
    }
    // a new game may have arrived meanwhile: the click still counts on the same board
    const now = store.game;
    const same = now.rows === game.rows && now.cols === game.cols && now.closed === game.closed;
    if (!same || now.status !== "new") return;
    if (verdict?.possible === false) {
      store.pendingStart = square;
      store.startWarning = t("ui.start.impossible", {
        square: squareName(square[0], square[1], game.rows),
        reason: verdict.reason ?? "",
      });
      render();
      return;
    }
  }
  store.startWarning = null;
  store.pendingStart = null;
  await apply(api.move(store.game.id, ...square));
}

// ---------------------------------------------------------------- buttons
const smooth = () => (matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth");

const actions = {
  "show-me": () => store.game.status === "playing" && showMe.start(store.game),
  undo: () => apply(api.undo(store.game.id, 1)),
  "undo-dead": () => apply(api.undo(store.game.id, warningUndoCount())),
  hint: () => askHint({ render, showError }),
  random: () => {
    store.startWarning = null;
    store.pendingStart = null;
    return apply(api.random(store.game.id));
  },
  restart: () => apply(api.restart(store.game.id)),
  "show-setup": () => {
    win.close();
    setup.follow(store.game, { force: true });
    setup.show(smooth());
  },
};

document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-action]");
  if (!button || button.disabled || !store.game) return;
  if (showMe.active && button.dataset.action !== "show-me") showMe.cancel();
  actions[button.dataset.action]?.();
});

$("#setup").addEventListener("submit", async (event) => {
  event.preventDefault();
  showMe.cancel();
  const { rows, cols, closed } = setup.read();
  store.hintMessage = null;
  store.startWarning = null;
  setup.touched = false;
  if (await apply(api.create(rows, cols, closed))) {
    puzzleLink.leave();
    revealStatus();
  }
});

// ---------------------------------------------------------------- language
bindLanguageSwitch(async () => {
  showMe.disconnect(); // the server picks a connection's language when it connects
  setup.forget();
  leaderboard.forget();
  store.startWarning = null;
  store.pendingStart = null;
  store.hintMessage = null;
  await puzzleLink.relabel();
  if (store.game) {
    try {
      setGame(await api.get(store.game.id));
    } catch (err) {
      showError(err);
    }
    render({ relabel: true });
  }
  setup.refresh();
});

// ---------------------------------------------------------------- start-up
async function start() {
  await startLanguage();
  let game = null;
  const levelId = levelFromUrl();
  if (levelId) {
    try {
      game = await startLevel(levelId);
    } catch (err) {
      showLevelError(err);
    }
  }
  if (!levelId && puzzleLink.code !== null) {
    try {
      game = await puzzleLink.game();
    } catch (err) {
      showError(err);
    }
  }
  const id = game || levelId ? null : loadGameId();
  if (id) {
    try {
      game = await api.get(id);
    } catch (err) {
      if (err instanceof ApiError && err.code === "unknown-game") forgetGameId();
      else showError(err);
    }
  }
  if (!game) {
    const { rows, cols, closed } = setup.read();
    try {
      game = await api.create(rows, cols, closed);
    } catch (err) {
      showError(err);
      return;
    }
  }
  setGame(game);
  render({ relabel: true });
  setup.follow(game, { force: true });
  if (game.status === "won" && game.can_submit) win.show(game);
  document.body.dataset.ready = "true";
  setInterval(() => tick(), 250);
}

start();
