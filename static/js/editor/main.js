// The board editor (/editor): a puzzle drawn on the shared board (board/), the server's
// verdict on it after every change (editor/verdict.js), a tour on request, and its code in
// the address: the share link, and the Play and class links. The server decides whether a
// tour exists; this page only draws what it said.

import { Board } from "../board/board.js";
import { setHoles, setPath } from "../board/state.js";
import { t } from "../core/i18n.js";
import { bindLanguageSwitch, startLanguage } from "../core/language.js";
import { boardLimits, clampSide } from "../core/limits.js";
import { nameOf } from "../core/squares.js";
import {
  createPuzzle,
  openSquares,
  puzzleCode,
  puzzleFromAnswer,
  resizePuzzle,
  setStart,
  toggleHole,
} from "./puzzle.js";
import { postVerdict, VerdictAsker } from "./verdict.js";

const $ = (selector) => document.querySelector(selector);
const page = $("#editor");
const form = $("#shape");
const limit = boardLimits().play;
const view = {
  panel: $("#verdict"),
  head: $("#verdict-head"),
  size: $("#verdict-size"),
  reason: $("#verdict-reason"),
  showTour: $("#show-tour"),
  startText: $("#start-text"),
  freeStart: $("#free-start"),
  link: $("#share-link"),
  shareStatus: $("#share-status"),
  play: $("#play-link"),
  classLink: $("#class-link"),
};

const board = new Board($("#board"), { kind: "editor", input: true });
let puzzle = createPuzzle(6, 6);
let answer = null; // the server's verdict on the puzzle shown, once it came
let failure = null; // the error of the last question, if it failed
let touring = false; // the witness is drawn
const asker = new VerdictAsker({ onAnswer: showAnswer, onError: showFailure });

// ---------------------------------------------------------------- changes
board.onSquare = (sq) => {
  const changed = tool() === "start" ? setStart(puzzle, sq) : toggleHole(puzzle, sq);
  if (tool() === "start") chooseTool("holes"); // one start; back to drawing holes
  if (changed) puzzleChanged();
};

function tool() {
  return form.elements.tool.value;
}

function chooseTool(name) {
  form.elements.tool.value = name;
  page.dataset.tool = name;
  labelBoard();
}

form.addEventListener("change", (event) => {
  const { name } = event.target;
  if (name === "tool") {
    chooseTool(tool());
  } else if (name === "mode") {
    puzzle.closed = form.elements.mode.value === "closed";
    puzzleChanged();
  } else if (name === "rows" || name === "cols") {
    const rows = clampSide(form.elements.rows.value, limit, puzzle.rows);
    const cols = clampSide(form.elements.cols.value, limit, puzzle.cols);
    form.elements.rows.value = rows;
    form.elements.cols.value = cols;
    if (rows === puzzle.rows && cols === puzzle.cols) return;
    puzzle = resizePuzzle(puzzle, rows, cols);
    puzzleChanged();
  }
});
form.addEventListener("submit", (event) => event.preventDefault());

$("#fill-holes").addEventListener("click", () => {
  if (!puzzle.holes.size) return;
  puzzle.holes.clear();
  puzzleChanged();
});

view.freeStart.addEventListener("click", () => {
  puzzle.start = -1;
  puzzleChanged();
});

view.showTour.addEventListener("click", () => {
  if (touring) {
    touring = false;
    draw();
    showVerdict();
  } else {
    asker.ask(puzzleCode(puzzle), { witness: true, now: true });
    view.showTour.disabled = true;
  }
});

$("#copy-link").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(view.link.value);
    view.shareStatus.textContent = t("ui.editor.copied");
  } catch {
    view.link.select();
    view.shareStatus.textContent = t("ui.editor.copy-failed");
  }
});

/** Every change: the board and the links now, the verdict once the clicks pause. */
function puzzleChanged() {
  answer = null;
  failure = null;
  touring = false;
  draw();
  showControls();
  showLinks();
  showVerdict();
  asker.ask(puzzleCode(puzzle));
}

// ---------------------------------------------------------------- answers
function showAnswer(verdict, { witness }) {
  answer = verdict;
  failure = null;
  touring = Boolean(witness && verdict.witness);
  page.dataset.puzzle = verdict.puzzle; // the code as the server read it (tests compare)
  draw();
  showVerdict();
}

function showFailure(err) {
  failure = err;
  touring = false;
  draw();
  showVerdict();
  if (err.code === "rate-limited") {
    // asked too often: ask again once allowed (a change meanwhile asks anyway)
    const code = puzzleCode(puzzle);
    clearTimeout(showFailure.retry);
    showFailure.retry = setTimeout(() => {
      if (failure === err) asker.ask(code, { now: true });
    }, err.retryAfter * 1000);
  } else if (!err.code) {
    console.error(err);
  }
}

// ---------------------------------------------------------------- drawing
function draw({ relabel = false } = {}) {
  const resized = board.resize(puzzle.rows, puzzle.cols);
  const { state } = board;
  setHoles(state, puzzle.holes);
  state.start = puzzle.start;
  state.closed = puzzle.closed;
  const cols = puzzle.cols;
  const tour = touring ? answer.witness.map(([row, col]) => row * cols + col) : [];
  setPath(state, tour, tour.length, { returned: touring && puzzle.closed });
  board.draw({ relabel: relabel || resized });
  const named = new Set((answer?.squares ?? []).map(([row, col]) => row * cols + col));
  for (let sq = 0; sq < state.squares; sq++) {
    const cell = board.cell(sq);
    if (named.has(sq)) cell.dataset.named = "true";
    else delete cell.dataset.named;
  }
  if (resized || relabel) labelBoard();
}

function labelBoard() {
  const key = tool() === "start" ? "ui.editor.board.start" : "ui.editor.board";
  board.root.setAttribute("aria-label", t(key));
}

function showVerdict() {
  let state = "pending";
  let head = t("ui.editor.checking");
  let reason = "";
  if (failure) {
    state = "error";
    head = t("ui.editor.failed");
    reason = failure.code ? failure.message : t("ui.error.network");
  } else if (answer) {
    state = answer.tour === null ? "unknown" : String(answer.tour);
    head = t(
      answer.tour ? "ui.editor.yes" : answer.tour === null ? "ui.editor.unknown" : "ui.editor.no",
    );
    reason = answer.tour ? "" : (answer.reason ?? ""); // the headline says it all
  }
  view.panel.dataset.tour = state;
  view.panel.dataset.code = answer?.code ?? "";
  view.head.textContent = head;
  view.reason.textContent = reason;
  view.size.textContent = t("ui.editor.open-squares", { size: openSquares(puzzle) });
  view.showTour.hidden = !answer?.tour;
  view.showTour.disabled = false;
  view.showTour.setAttribute("aria-pressed", String(touring));
  view.showTour.firstElementChild.textContent = t(
    touring ? "ui.editor.hide-tour" : "ui.editor.show-tour",
  );
}

function showControls() {
  form.elements.rows.value = puzzle.rows;
  form.elements.cols.value = puzzle.cols;
  form.elements.mode.value = puzzle.closed ? "closed" : "open";
  const fixed = puzzle.start >= 0;
  view.startText.textContent = fixed
    ? t("ui.editor.start.fixed", { square: nameOf(puzzle.start, puzzle.rows, puzzle.cols) })
    : t("ui.editor.start.free");
  view.freeStart.hidden = !fixed;
}

/** The address holds the puzzle: it is the share link. */
function showLinks() {
  const query = `?puzzle=${encodeURIComponent(puzzleCode(puzzle))}`; // a code is URL-safe: kept as is
  const url = new URL(location.href);
  url.search = query;
  url.hash = "";
  history.replaceState(null, "", url);
  view.link.value = url.href;
  for (const link of document.querySelectorAll("[data-lang-choice]")) {
    link.href = `${query}&lang=${link.dataset.langChoice}`; // a reload keeps the puzzle
  }
  view.play.href = `/${query}`;
  view.classLink.href = `/class/new${query}`;
}

// ---------------------------------------------------------------- start
async function open() {
  await startLanguage();
  const asked = new URLSearchParams(location.search).get("puzzle");
  if (asked) {
    try {
      const verdict = await postVerdict(asked);
      puzzle = puzzleFromAnswer(verdict);
      draw();
      showControls();
      showLinks();
      showAnswer(verdict, { witness: false });
      page.dataset.ready = "true";
      return;
    } catch (err) {
      if (!err.code) throw err;
      const notice = $("#notice");
      notice.textContent = t("ui.editor.bad-link", { error: err.message });
      notice.hidden = false;
      puzzleChanged();
      page.dataset.ready = "true";
      return;
    }
  }
  puzzleChanged();
  page.dataset.ready = "true";
}

bindLanguageSwitch(() => {
  draw({ relabel: true });
  labelBoard();
  showControls();
  showVerdict();
  asker.ask(puzzleCode(puzzle), { witness: touring, now: true }); // the reason's words
});

open().catch((err) => {
  console.error(err);
  view.reason.textContent = t("ui.error.network");
});
