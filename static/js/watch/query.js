// A Watch page opened with its settings in the address, as links from lessons and tests do:
// ?rows=6&cols=6&start=r,c&algorithm=seed&b=warnsdorff&closed=1&pruning=1&speed=10|max&go=1
// and ?puzzle=<shape or puzzle code> (server/engine/shape.py), which decides the board;
// ?algorithm=a000-java runs an article's program (on its own board unless rows and cols say).

import { articleOf } from "../core/orderings.js";
import { followArticle, followShape, setRadio, syncPreset } from "../lanes/setup.js";

/**
 * Put the address's settings on `form`. Returns {go, start, speed}: whether to start at
 * once, the start square as [row, col] (or null), and the speed asked for (events per
 * second, null for "max", undefined when none).
 */
export function applyQuery(form, search = location.search) {
  const q = new URLSearchParams(search);
  for (const name of ["rows", "cols"]) {
    if (q.get(name) !== null) form.elements[name].value = q.get(name);
  }
  const algorithm = q.get("algorithm");
  if (articleOf(algorithm ?? "") && form.elements.article) {
    form.elements.article.value = algorithm;
    followArticle(form, { own: q.get("rows") === null && q.get("cols") === null });
  } else if (algorithm) {
    setRadio(form, "algorithm", algorithm);
  }
  if (q.get("b")) {
    form.elements.race.checked = true;
    form.elements.algorithm_b.value = q.get("b");
  }
  if (q.get("closed") === "1") setRadio(form, "tour", "closed");
  if (q.get("pruning") === "1") form.elements.pruning.checked = true;
  syncPreset(form);
  if (q.get("puzzle") && form.elements.shape) {
    form.elements.shape.value = q.get("puzzle");
    followShape(form);
  }
  const start = (q.get("start") || "").split(",").map(Number);
  const given = q.get("speed");
  let speed;
  if (given === "max") speed = null;
  else if (given && Number(given) > 0) speed = Number(given);
  return {
    go: q.get("go") === "1",
    start: start.length === 2 && start.every((n) => Number.isInteger(n) && n >= 0) ? start : null,
    speed,
  };
}
