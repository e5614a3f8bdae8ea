// Accessible names of the squares of a board a page takes input on: what a screen reader
// says when the roving focus lands on a square. From the board's state, no DOM.

import { t } from "../core/i18n.js";
import { nameOf } from "../core/squares.js";
import { squareKind } from "./state.js";

/** The name of square `sq` showing `kind` with `number` (squareKind, squareNumber). */
export function squareLabel(state, sq, kind = squareKind(state, sq), number = 0) {
  const square = nameOf(sq, state.rows, state.cols);
  let text;
  switch (kind) {
    case "current":
      text = t("ui.sq.current", { square, n: number });
      break;
    case "legal":
      if (number) text = t("ui.sq.return", { square });
      else text = state.status === "new" ? square : t("ui.sq.legal", { square });
      break;
    case "visited":
      text = t("ui.sq.visited", { square, n: number });
      break;
    case "trail":
      text = t("ui.sq.trail", { square, n: number });
      break;
    case "candidate":
      text = t(number === 1 ? "ui.sq.candidate.one" : "ui.sq.candidate", { square, n: number });
      break;
    case "tried":
      text = t("ui.sq.tried", { square });
      break;
    case "dead":
      text = t("ui.sq.dead", { square });
      break;
    case "hole":
      text = t("ui.sq.hole", { square });
      break;
    default:
      text = square;
  }
  // The start is named where it matters: the goal of a closed tour, or before any move.
  if (sq === state.start && kind !== "legal" && ((state.closed && number) || !state.depth)) {
    text += t("ui.sq.start-suffix");
  }
  if (sq === state.hint) text += t("ui.sq.hint-suffix");
  return text;
}
