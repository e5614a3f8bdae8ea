// The settings form shared by the Watch page and the class room's teacher page: board size
// (with presets, within the server's limits), algorithm, open or closed tour and pruning, or
// an article's program (which runs as written: open tours of a whole board, no pruning).

import { boardLimits, clampSide } from "../core/limits.js";
import { articleOf } from "../core/orderings.js";
import { parsePuzzle, shapeText } from "../core/shape.js";

/** The size limit of `algorithm`: the construction's boards are larger than a search's. */
export function sizeLimit(algorithm) {
  const limits = boardLimits();
  return algorithm === "construct" ? limits.construct : limits.search;
}

/** Let the rows and cols fields go as far as the form's algorithms allow. */
export function fitSizeFields(form, algorithms) {
  const limit = sizeLimit(algorithms.includes("construct") ? "construct" : "search");
  for (const input of [form.elements.rows, form.elements.cols]) input.max = limit.max;
}

/**
 * The shape or puzzle code in the form's `shape` field (core/shape.js), null when empty, or
 * {error: code} when it cannot be read.
 */
export function readShapeField(form) {
  const text = String(form.elements.shape?.value ?? "").trim();
  if (!text) return null;
  try {
    return parsePuzzle(text);
  } catch (err) {
    return { error: err.code || "shape-malformed" };
  }
}

/** A shape code decides the size: the rows and cols fields show it and are locked. */
export function followShape(form) {
  const shape = readShapeField(form);
  const locked = Boolean(shape && !shape.error);
  for (const name of ["rows", "cols"]) {
    form.elements[name].disabled = locked;
    if (locked) form.elements[name].value = shape[name];
  }
  if (locked && shape.closed !== null) setRadio(form, "tour", shape.closed ? "closed" : "open");
  syncPreset(form);
}

function openSquare(rows, cols, holes, wanted) {
  if (wanted !== null && wanted !== undefined && !holes.includes(wanted)) return wanted;
  const bottomLeft = (rows - 1) * cols;
  if (!holes.includes(bottomLeft)) return bottomLeft;
  for (let sq = 0; sq < rows * cols; sq++) if (!holes.includes(sq)) return sq;
  return 0;
}

/**
 * The board settings in `form`: its size, or the shape (with `holes`) of its `shape` field
 * (`shapeError` when that cannot be read); the start square is kept from `previous` on the
 * same board, a puzzle's fixed start is taken.
 */
export function readBoardForm(form, previous) {
  const data = new FormData(form);
  const article = articleOf(data.get("article") ?? "");
  const algorithm = article ? data.get("article") : data.get("algorithm");
  const limit = sizeLimit(algorithm);
  if (article) {
    const rows = clampSide(data.get("rows"), limit, article.rows);
    const cols = clampSide(data.get("cols"), limit, article.cols);
    // the start kept on the same board and program, else the program's own on its board
    const keep =
      previous?.algorithm === algorithm && previous.rows === rows && previous.cols === cols;
    const own = rows === article.rows && cols === article.cols;
    const [row, col] = article.start;
    const wanted = keep ? previous.start : own ? row * cols + col : null;
    const start = openSquare(rows, cols, [], wanted);
    return {
      rows,
      cols,
      holes: [],
      start,
      algorithm,
      closed: false,
      pruning: false,
      shapeError: null,
    };
  }
  const shape = readShapeField(form);
  const good = shape && !shape.error ? shape : null;
  const rows = good ? good.rows : clampSide(data.get("rows"), limit, 5);
  const cols = good ? good.cols : clampSide(data.get("cols"), limit, 5);
  const holes = good ? good.holes : [];
  const keep =
    previous &&
    previous.rows === rows &&
    previous.cols === cols &&
    String(previous.holes ?? []) === String(holes);
  const wanted = good?.start ?? (keep ? previous.start : null);
  return {
    rows,
    cols,
    holes,
    start: openSquare(rows, cols, holes, wanted),
    algorithm,
    closed: good && good.closed !== null ? good.closed : data.get("tour") === "closed",
    pruning: data.get("pruning") === "on",
    shapeError: shape?.error ?? null,
  };
}

export function setRadio(root, name, value) {
  for (const input of root.querySelectorAll(`input[name="${name}"]`))
    input.checked = input.value === value;
}

/** Check the size preset that matches the rows and cols fields (or none). */
export function syncPreset(form) {
  setRadio(form, "preset", `${form.elements.rows.value}x${form.elements.cols.value}`);
}

/** Keep the preset radios and the rows/cols fields in step after a change to `target`. */
export function followSize(form, target) {
  const { name } = target;
  if (name === "preset") {
    const [rows, cols] = target.value.split("x");
    form.elements.rows.value = rows;
    form.elements.cols.value = cols;
  } else if (name === "rows" || name === "cols") {
    syncPreset(form);
  }
}

/**
 * Keep the form's fields in step after a change to `target`: a preset clears the shape (a
 * preset is a plain rectangle), a shape decides the size, a size picks its preset.
 */
export function followFormChange(form, target) {
  if (target.name === "article") followArticle(form, { own: true });
  if (target.name === "preset" && form.elements.shape.value) {
    form.elements.shape.value = "";
    followShape(form);
  }
  if (target.name === "shape") followShape(form);
  followSize(form, target);
}

/**
 * An article's program runs as written: the algorithm, tour, pruning and shape fields rest
 * while one is chosen; `own` puts its own board in the size fields.
 */
export function followArticle(form, { own = false } = {}) {
  const article = articleOf(form.elements.article?.value ?? "");
  if (article && own) {
    if (form.elements.shape) form.elements.shape.value = "";
    form.elements.rows.value = article.rows;
    form.elements.cols.value = article.cols;
    setRadio(form, "tour", "open");
    form.elements.pruning.checked = false;
    if (form.elements.shape) followShape(form);
    syncPreset(form);
  }
  const resting = [
    ...form.querySelectorAll('input[name="algorithm"], input[name="tour"]'),
    form.elements.pruning,
    form.elements.shape,
  ];
  for (const input of resting) if (input) input.disabled = Boolean(article);
  const id = article ? form.elements.article.value : "";
  form.dataset.article = id;
  // no algorithm chip stands lit while a program runs instead; the seeds' again after it
  if (article) setRadio(form, "algorithm", "");
  else if (!form.querySelector('input[name="algorithm"]:checked'))
    setRadio(form, "algorithm", "seed");
  for (const help of form.querySelectorAll(".w-article-help"))
    help.hidden = help.dataset.for !== id;
}

/** Lane settings (start is a square index) -> a run's parameters (start is [row, col]). */
export function runParams(settings) {
  return {
    rows: settings.rows,
    cols: settings.cols,
    start: [Math.floor(settings.start / settings.cols), settings.start % settings.cols],
    algorithm: settings.algorithm,
    closed: settings.closed,
    pruning: settings.pruning,
    ...(settings.holes?.length ? { holes: settings.holes } : {}),
  };
}

/** A run's or a room's settings (start is [row, col]) -> lane settings (start is a square). */
export function laneSettings(settings) {
  return {
    rows: settings.rows,
    cols: settings.cols,
    start: settings.start[0] * settings.cols + settings.start[1],
    algorithm: settings.algorithm,
    closed: settings.closed,
    pruning: settings.pruning,
    holes: settings.holes ?? [],
    race: false,
  };
}

/** Put `settings` ({rows, cols, algorithm, closed, pruning}) on the form. */
export function fillBoardForm(form, settings) {
  if (form.elements.shape) {
    const holes = settings.holes ?? [];
    form.elements.shape.value = holes.length ? shapeText(settings.rows, settings.cols, holes) : "";
  }
  form.elements.rows.value = settings.rows;
  form.elements.cols.value = settings.cols;
  syncPreset(form);
  const article = articleOf(settings.algorithm);
  if (!article) setRadio(form, "algorithm", settings.algorithm);
  if (form.elements.article) form.elements.article.value = article ? settings.algorithm : "";
  setRadio(form, "tour", settings.closed ? "closed" : "open");
  form.elements.pruning.checked = settings.pruning;
  if (form.elements.shape) followShape(form);
  if (form.elements.article) followArticle(form);
}
