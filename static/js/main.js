// The Play page: wires the server state (api.js) to the board (render.js), the
// input (input.js) and the side panels. The server decides everything; this
// file only sends intentions and shows the answers.

import { api, ApiError } from "./api.js";
import {
  formatTime,
  getLang,
  loadCatalogue,
  setLang,
  squareName,
  t,
  translateStatic,
} from "./i18n.js";
import { bindBoardInput } from "./input.js";
import { BoardView } from "./render.js";
import { Replay } from "./replay.js";
import { ShowMe } from "./showme.js";
import {
  deriveView,
  elapsedNow,
  forgetGameId,
  loadGameId,
  saveGameId,
  setGame,
  store,
} from "./state.js";

const $ = (selector) => document.querySelector(selector);
const PRESETS = { "5x5": [5, 5], "6x6": [6, 6], "8x8": [8, 8] };
const NAME_KEY = "knights-tour.name";

const els = {
  board: $("#board"),
  status: $("#status"),
  statusText: $("#status-text"),
  moves: $("#stat-moves"),
  left: $("#stat-left"),
  time: $("#stat-time"),
  warning: $("#warning"),
  warningText: $("#warning-text"),
  warningUndo: $("#warning-undo"),
  hintText: $("#hint-text"),
  setup: $("#setup"),
  setupPanel: $("#setup-panel"),
  customSize: $("#custom-size"),
  theory: $("#theory"),
  startGame: $("#start-game"),
  lbBoard: $("#lb-board"),
  lbUnassisted: $("#lb-unassisted"),
  lbAssisted: $("#lb-assisted"),
  win: $("#win"),
  scoreForm: $("#score-form"),
  scoreResult: $("#score-result"),
  toast: $("#toast"),
  showMe: $('.controls [data-action="show-me"]'),
};

const view = new BoardView(els.board);
const replay = new Replay($("#replay"));
let hintMessage = null; // {key?, text?, params?} shown under the controls
let startWarning = null; // text shown while a rejected start square awaits confirmation
let leaderboardKey = "";
let lastShownTime = "";
const showMe = new ShowMe({
  board: els.board,
  svg: $("#search"),
  panel: $("#showme"),
  button: els.showMe,
  onEnd: showMeEnded,
  onChange: () => {
    if (!store.game) return;
    renderControls(store.game);
    renderHint();
  },
});

// ---------------------------------------------------------------- rendering
function render({ relabel = false } = {}) {
  const game = store.game;
  if (!game) return;
  const rebuilt = view.build(game.rows, game.cols);
  const derived = deriveView(game);
  view.update(game, derived, { relabel: relabel || rebuilt });
  if (rebuilt) {
    store.focus = game.path.at(-1) ?? [game.rows - 1, 0];
    view.setFocus(store.focus);
  }
  for (const cell of els.board.querySelectorAll("[data-warn]")) delete cell.dataset.warn;
  if (store.pendingStart) view.cell(...store.pendingStart).dataset.warn = "true";
  renderStatus(game);
  renderControls(game);
  renderHint();
  renderLeaderboard(game);
}

function renderStatus(game) {
  els.moves.textContent = String(game.moves);
  els.left.textContent = String(game.squares_left);
  tick(true);
  const dead = game.status === "won" ? null : game.dead;
  let text = game.message ?? fallbackStatus(game);
  if (game.status === "new" && startWarning) text = startWarning;
  else if (dead && game.status !== "stuck") text = deadHeadline(dead);
  els.statusText.textContent = text;
  els.status.dataset.status = game.status;
  els.status.dataset.dead = dead ? "true" : "false";

  // the early warning's details and its way out: undo to the last good position
  const infeasible = game.feasible?.possible === false && !["new", "won"].includes(game.status);
  if (dead) {
    const lines = [];
    if (game.status === "stuck") lines.push(deadHeadline(dead));
    if (dead.reason) lines.push(dead.reason);
    els.warningText.replaceChildren(
      ...lines.map((line) => Object.assign(document.createElement("span"), { textContent: line })),
    );
    const undo = dead.undo;
    els.warningUndo.hidden = !undo;
    if (undo) {
      els.warningUndo.dataset.count = undo;
      els.warningUndo.textContent = t(undo === 1 ? "ui.undo-one" : "ui.undo-n", { n: undo });
    }
    els.warning.hidden = false;
  } else if (infeasible) {
    els.warningText.textContent = game.feasible.reason ?? "";
    els.warningUndo.hidden = true;
    els.warning.hidden = false;
  } else {
    els.warning.hidden = true;
  }
}

function deadHeadline(dead) {
  if (dead.message) return dead.message;
  if (dead.undo == null) return t("status.dead.start");
  return t(dead.undo === 1 ? "status.dead.one" : "status.dead", { undo: dead.undo });
}

function fallbackStatus(game) {
  const params = { moves: game.moves, left: game.squares_left };
  return t(`status.${game.status}`, params);
}

function renderControls(game) {
  const button = (action) => document.querySelector(`.controls [data-action="${action}"]`);
  const finished = game.status === "won";
  button("undo").disabled = finished || game.moves === 0;
  button("hint").disabled = finished;
  button("restart").disabled = finished || game.path.length === 0;
  button("random").hidden = game.status !== "new";
  button("show-me").disabled = game.status !== "playing" || showMe.active;
  const hintLabel = button("hint").querySelector("[data-i18n]");
  hintLabel.textContent = game.hints ? `${t("ui.hint")} · ${game.hints}` : t("ui.hint");
}

function renderHint() {
  if (!hintMessage || showMe.active) {
    els.hintText.textContent = "";
    els.hintText.hidden = true;
    return;
  }
  els.hintText.hidden = false;
  els.hintText.textContent = hintMessage.key
    ? t(hintMessage.key, hintMessage.params)
    : hintMessage.text;
}

/** The clock: server elapsed plus the local time since that answer, once a second. */
function tick(force = false) {
  const text = formatTime(elapsedNow());
  if (force || text !== lastShownTime) {
    lastShownTime = text;
    els.time.textContent = text;
  }
}

// ---------------------------------------------------------------- game actions
function showError(err) {
  const message = err instanceof ApiError ? err.message : t("ui.error.network");
  els.toast.textContent = message;
  els.toast.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => {
    els.toast.hidden = true;
  }, 4000);
  if (!(err instanceof ApiError)) console.error(err);
}

async function apply(promise, { keepHint = false } = {}) {
  try {
    const game = await promise;
    const wasWon = store.game?.status === "won";
    if (!keepHint) hintMessage = null;
    setGame(game);
    render();
    if (game.status === "won" && !wasWon) openWin();
    return game;
  } catch (err) {
    if (err instanceof ApiError && err.code === "unknown-game") {
      forgetGameId();
    }
    showError(err);
    return null;
  }
}

async function onSquare(square) {
  if (showMe.active) {
    showMe.cancel(); // a click on the board while the search is shown only ends the show
    return;
  }
  const game = store.game;
  if (!game || game.status === "won") return;
  if (game.status === "new") return chooseStart(square);
  const current = game.path.at(-1);
  if (current && current[0] === square[0] && current[1] === square[1]) return;
  await apply(api.move(game.id, square[0], square[1]));
}

/** First click: ask the theory first, and warn (once) if no tour starts there. */
async function chooseStart(square) {
  const game = store.game;
  const pending = store.pendingStart;
  const confirmed = pending && pending[0] === square[0] && pending[1] === square[1];
  if (!confirmed) {
    let verdict = null;
    try {
      verdict = await api.theory(game.rows, game.cols, game.closed, square);
    } catch (err) {
      showError(err);
      return;
    }
    // a new game may have arrived meanwhile: the click still counts if it fits the board
    if (!sameBoard(store.game, game) || store.game.status !== "new") return;
    if (verdict && verdict.possible === false) {
      store.pendingStart = square;
      startWarning = t("ui.start.impossible", {
        square: squareName(square[0], square[1], game.rows),
        reason: verdict.reason ?? "",
      });
      render();
      return;
    }
  }
  startWarning = null;
  store.pendingStart = null;
  await apply(api.move(store.game.id, square[0], square[1]));
}

function sameBoard(a, b) {
  return a.rows === b.rows && a.cols === b.cols && a.closed === b.closed;
}

async function askHint() {
  const game = store.game;
  if (!game) return;
  try {
    const answer = await api.hint(game.id);
    setGame(answer.state);
    const hint = answer.hint;
    if (hint.verdict === "completable" && hint.next) {
      store.hint = hint.next;
      const square = squareName(hint.next[0], hint.next[1], answer.state.rows);
      hintMessage = {
        key: answer.state.status === "new" ? "ui.hint.start" : "ui.hint.next",
        params: { square },
      };
    } else if (hint.verdict === "dead") {
      store.hint = null;
      hintMessage = { text: `${t("ui.hint.dead")} ${hint.reason ?? ""}`.trim() };
    } else {
      store.hint = null;
      hintMessage = { text: hint.reason ?? t("hint.unknown") };
    }
    render();
  } catch (err) {
    showError(err);
  }
}

// ---------------------------------------------------------------- show me
/**
 * "Show me" streams the search over the board (showme.js); the game itself is never
 * touched. It counts as a hint when it reveals something: a found move, or the proof that
 * the position is dead. It is counted through POST /hint, which also brings the exact
 * dead warning with its undo offer. A search that gave up or was cancelled is not counted.
 */
function startShowMe() {
  const game = store.game;
  if (!game || game.status !== "playing" || showMe.active) return;
  showMe.start(game);
}

async function showMeEnded(result) {
  const game = store.game;
  if (!game) return;
  if (result.status === "stopped") {
    hintMessage ??= { text: result.text }; // a hint shown before stays, as the board does
    render();
    return;
  }
  hintMessage = { text: result.text };
  if (result.status === "found") store.hint = result.next;
  render();
  if (result.status !== "found" && result.status !== "exhausted") return;
  try {
    const answer = await api.hint(game.id);
    const now = store.game;
    if (now.id !== game.id || now.path.length !== game.path.length) return; // moved on
    setGame(answer.state);
    if (result.status === "found") {
      store.hint = result.next; // the search's move: a tour goes through it
    } else if (answer.hint.verdict === "dead" && answer.hint.reason) {
      hintMessage = { text: `${result.text} ${answer.hint.reason}` };
    }
    render();
  } catch (err) {
    showError(err);
  }
}

const actions = {
  "show-me": startShowMe,
  undo: () => apply(api.undo(store.game.id, 1)),
  "undo-dead": () => apply(api.undo(store.game.id, Number(els.warningUndo.dataset.count) || 1)),
  hint: askHint,
  random: () => {
    startWarning = null;
    store.pendingStart = null;
    return apply(api.random(store.game.id));
  },
  restart: () => apply(api.restart(store.game.id)),
  "show-setup": () => {
    if (els.win.open) els.win.close();
    syncSetup(store.game, { force: true });
    els.setupPanel.scrollIntoView({ behavior: smoothScroll(), block: "start" });
    els.setup.querySelector("input[name=size]:checked")?.focus({ preventScroll: true });
    els.setupPanel.classList.remove("flash");
    void els.setupPanel.offsetWidth;
    els.setupPanel.classList.add("flash");
  },
};

function smoothScroll() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-action]");
  if (!button || button.disabled || !store.game) return;
  if (showMe.active && button.dataset.action !== "show-me") showMe.cancel();
  const action = actions[button.dataset.action];
  if (action) action();
});

// ---------------------------------------------------------------- setup
let setupTouched = false;

function readSetup() {
  const data = new FormData(els.setup);
  const size = data.get("size");
  let rows;
  let cols;
  if (size in PRESETS) [rows, cols] = PRESETS[size];
  else [rows, cols] = [Number(data.get("rows")), Number(data.get("cols"))];
  return { size, rows, cols, closed: data.get("mode") === "closed" };
}

/** Show the current game's board and mode in the setup form (until the player edits it). */
function syncSetup(game, { force = false } = {}) {
  if (!game || (setupTouched && !force)) return;
  const preset = `${game.rows}x${game.cols}`;
  const size = preset in PRESETS ? preset : "custom";
  els.setup.querySelector(`input[name=size][value="${size}"]`).checked = true;
  if (size === "custom") {
    els.setup.elements.rows.value = game.rows;
    els.setup.elements.cols.value = game.cols;
  }
  els.setup.querySelector(`input[name=mode][value="${game.closed ? "closed" : "open"}"]`).checked =
    true;
  setupTouched = false;
  refreshTheory();
}

const theoryCache = new Map();

async function theoryFor(rows, cols, closed) {
  const key = `${rows}x${cols}:${closed}:${getLang()}`;
  if (!theoryCache.has(key)) {
    theoryCache.set(
      key,
      api.theory(rows, cols, closed).catch((err) => {
        theoryCache.delete(key);
        throw err;
      }),
    );
  }
  return theoryCache.get(key);
}

let theoryRun = 0;

/** Mark the presets (and the custom size) on which the chosen mode has no tour, with the reason. */
async function refreshTheory() {
  const run = ++theoryRun;
  const setup = readSetup();
  els.customSize.hidden = setup.size !== "custom";
  const chips = [...els.setup.querySelectorAll(".chip")];
  const validCustom = [setup.rows, setup.cols].every(
    (n) => Number.isInteger(n) && n >= 3 && n <= 20,
  );
  await Promise.all(
    chips.map(async (chip) => {
      const preset = chip.dataset.preset;
      const dims = preset in PRESETS ? PRESETS[preset] : [setup.rows, setup.cols];
      if (preset === "custom" && !validCustom) return;
      try {
        const verdict = await theoryFor(dims[0], dims[1], setup.closed);
        if (run !== theoryRun) return;
        chip.dataset.impossible = verdict.possible ? "false" : "true";
        chip.title = verdict.possible ? "" : (verdict.reason ?? "");
      } catch {
        /* shown below for the selected size */
      }
    }),
  );
  if (run !== theoryRun) return;
  if (setup.size === "custom" && !validCustom) {
    els.theory.dataset.possible = "false";
    els.theory.textContent = t("ui.custom.range");
    els.startGame.disabled = true;
    return;
  }
  try {
    const verdict = await theoryFor(setup.rows, setup.cols, setup.closed);
    if (run !== theoryRun) return;
    const board = `${setup.rows}×${setup.cols}`;
    els.theory.dataset.possible = verdict.possible ? "true" : "false";
    els.theory.textContent = verdict.possible
      ? t(setup.closed ? "ui.theory.closed-ok" : "ui.theory.open-ok", { board })
      : t("ui.theory.impossible", { board, reason: verdict.reason ?? "" });
    els.startGame.disabled = !verdict.possible;
  } catch (err) {
    els.theory.dataset.possible = "";
    els.theory.textContent = err.message;
    els.startGame.disabled = false;
  }
}

els.setup.addEventListener("input", () => {
  setupTouched = true;
  refreshTheory();
});

els.setup.addEventListener("submit", async (event) => {
  event.preventDefault();
  showMe.cancel();
  const setup = readSetup();
  hintMessage = null;
  startWarning = null;
  setupTouched = false;
  const game = await apply(api.create(setup.rows, setup.cols, setup.closed));
  if (game) {
    view.setFocus(store.focus, { move: false });
    els.board.scrollIntoView({ behavior: smoothScroll(), block: "nearest" });
  }
});

// ---------------------------------------------------------------- leaderboard
async function renderLeaderboard(game, { force = false } = {}) {
  const key = `${game.rows}x${game.cols}:${game.closed}`;
  els.lbBoard.textContent = `${game.rows}×${game.cols} · ${t(game.closed ? "ui.mode.closed" : "ui.mode.open")}`;
  if (key === leaderboardKey && !force) return;
  leaderboardKey = key;
  try {
    const board = await api.leaderboard(game.rows, game.cols, game.closed);
    if (leaderboardKey !== key) return;
    fillList(els.lbUnassisted, board.unassisted ?? []);
    fillList(els.lbAssisted, board.assisted ?? []);
  } catch (err) {
    leaderboardKey = "";
    showError(err);
  }
}

function fillList(list, entries) {
  const items = entries.map((entry) => {
    const li = document.createElement("li");
    const name = document.createElement("span");
    name.className = "lb-name";
    name.textContent = entry.name; // names are text, never markup
    const time = document.createElement("span");
    time.className = "lb-time";
    time.textContent = formatTime(entry.seconds ?? 0);
    const extra = document.createElement("span");
    extra.className = "lb-extra";
    extra.textContent = entry.hints
      ? t("ui.lb.hints", { n: entry.hints })
      : t("ui.lb.moves", { n: entry.moves ?? "" });
    li.append(name, extra, time);
    return li;
  });
  if (!items.length) {
    const li = document.createElement("li");
    li.className = "lb-empty";
    li.textContent = t("ui.lb.empty");
    items.push(li);
  }
  list.replaceChildren(...items);
}

// ---------------------------------------------------------------- win screen
function openWin() {
  const game = store.game;
  $("#win-board").textContent =
    `${game.rows}×${game.cols} · ${t(game.closed ? "ui.mode.closed" : "ui.mode.open")}`;
  $("#win-time").textContent = formatTime(game.elapsed);
  $("#win-moves").textContent = String(game.moves);
  $("#win-hints").textContent = String(game.hints);
  $("#win-undos").textContent = String(game.undos);
  els.scoreForm.hidden = !game.can_submit;
  els.scoreResult.textContent = "";
  const name = els.scoreForm.elements.name;
  try {
    name.value = localStorage.getItem(NAME_KEY) ?? "";
  } catch {
    /* ignore */
  }
  if (!els.win.open) els.win.showModal();
  replay.play(game);
}

$("#replay-again").addEventListener("click", () => store.game && replay.play(store.game));
els.win.addEventListener("close", () => replay.stop());

els.scoreForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = els.scoreForm.elements.name.value;
  try {
    const entry = await api.score(store.game.id, name);
    try {
      localStorage.setItem(NAME_KEY, name.trim());
    } catch {
      /* ignore */
    }
    els.scoreForm.hidden = true;
    els.scoreResult.textContent = t(entry.assisted ? "ui.score.saved-assisted" : "ui.score.saved", {
      rank: entry.rank,
    });
    store.game = { ...store.game, can_submit: false };
    renderLeaderboard(store.game, { force: true });
  } catch (err) {
    els.scoreResult.textContent = err.message;
  }
});

// ---------------------------------------------------------------- language
async function switchLanguage(next) {
  if (next === getLang()) return;
  showMe.disconnect(); // the server picks a connection's language when it connects
  setLang(next);
  await loadCatalogue(next);
  translateStatic();
  const url = new URL(location.href);
  if (url.searchParams.has("lang")) {
    url.searchParams.delete("lang");
    history.replaceState(null, "", url);
  }
  theoryCache.clear();
  startWarning = null;
  store.pendingStart = null;
  hintMessage = null;
  leaderboardKey = "";
  if (store.game) {
    try {
      setGame(await api.get(store.game.id));
    } catch (err) {
      showError(err);
    }
    render({ relabel: true });
  }
  refreshTheory();
}

for (const link of document.querySelectorAll("[data-lang-choice]")) {
  link.addEventListener("click", (event) => {
    event.preventDefault();
    switchLanguage(link.dataset.langChoice).catch(() => {
      location.href = link.href; // fall back to the plain link
    });
  });
}

// ---------------------------------------------------------------- start-up
async function start() {
  const url = new URL(location.href);
  if (url.searchParams.has("lang")) {
    // The server already set the cookie; keep the address clean.
    url.searchParams.delete("lang");
    history.replaceState(null, "", url);
  }
  bindBoardInput(view, store, onSquare);
  await loadCatalogue(getLang());
  const id = loadGameId();
  let game = null;
  if (id) {
    try {
      game = await api.get(id);
    } catch (err) {
      if (err instanceof ApiError && err.code === "unknown-game") forgetGameId();
      else showError(err);
    }
  }
  if (!game) {
    const setup = readSetup();
    try {
      game = await api.create(setup.rows, setup.cols, setup.closed);
    } catch (err) {
      showError(err);
      return;
    }
  }
  setGame(game);
  saveGameId(game.id);
  render({ relabel: true });
  syncSetup(game, { force: true });
  if (game.status === "won" && game.can_submit) openWin();
  document.body.dataset.ready = "true";
  setInterval(() => tick(), 250);
}

start();
