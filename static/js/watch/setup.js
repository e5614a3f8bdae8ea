// The settings form shared by the Watch page and the class room's teacher page: board size
// (with presets, within the server's limits), algorithm, open or closed tour and pruning.

import { boardLimits, clampSide } from "../core/limits.js";

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

/** The board settings in `form`; the start square is kept from `previous` on the same size. */
export function readBoardForm(form, previous) {
  const data = new FormData(form);
  const algorithm = data.get("algorithm");
  const limit = sizeLimit(algorithm);
  const rows = clampSide(data.get("rows"), limit, 5);
  const cols = clampSide(data.get("cols"), limit, 5);
  const keep = previous && previous.rows === rows && previous.cols === cols;
  return {
    rows,
    cols,
    start: keep ? previous.start : (rows - 1) * cols,
    algorithm,
    closed: data.get("tour") === "closed",
    pruning: data.get("pruning") === "on",
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

/** Lane settings (start is a square index) -> a run's parameters (start is [row, col]). */
export function runParams(settings) {
  return {
    rows: settings.rows,
    cols: settings.cols,
    start: [Math.floor(settings.start / settings.cols), settings.start % settings.cols],
    algorithm: settings.algorithm,
    closed: settings.closed,
    pruning: settings.pruning,
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
    race: false,
  };
}

/** Put `settings` ({rows, cols, algorithm, closed, pruning}) on the form. */
export function fillBoardForm(form, settings) {
  form.elements.rows.value = settings.rows;
  form.elements.cols.value = settings.cols;
  syncPreset(form);
  setRadio(form, "algorithm", settings.algorithm);
  setRadio(form, "tour", settings.closed ? "closed" : "open");
  form.elements.pruning.checked = settings.pruning;
}
