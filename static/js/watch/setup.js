// The settings form shared by the Watch page and the class room's teacher page: board size
// (with presets), algorithm, open or closed tour and pruning.

export const SIZE_LIMIT = { search: 30, construct: 100 };

export function clampInt(value, lo, hi, fallback) {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? Math.max(lo, Math.min(hi, n)) : fallback;
}

/** The board settings in `form`; the start square is kept from `previous` if the size is the same. */
export function readBoardForm(form, previous) {
  const data = new FormData(form);
  const algorithm = data.get("algorithm");
  const limit = algorithm === "construct" ? SIZE_LIMIT.construct : SIZE_LIMIT.search;
  const rows = clampInt(data.get("rows"), 3, limit, 5);
  const cols = clampInt(data.get("cols"), 3, limit, 5);
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
