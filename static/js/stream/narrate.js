// The narration of a search, one sentence per event: where it starts, which square it tries
// and why (its onward moves), where it backs out, how the run ended. Watch's lanes, the
// class pages and Play's "show me" say the same.

import { formatNumber, t } from "../core/i18n.js";
import { ruleOf } from "../core/orderings.js";
import { nameOf } from "../core/squares.js";

/**
 * The sentence for the event `view` (stream/last-event.js) of `player`, or null.
 * `algorithm` names the run's; `onward(sq)` counts onward moves when the run carries none.
 */
export function narrateEvent(view, player, { algorithm, onward }) {
  const name = (sq) => nameOf(sq, player.rows, player.cols);
  if (view.move >= 0) {
    const square = name(view.move);
    if (view.candidates.length === 0) {
      return algorithm === "construct" && player.depth > 1
        ? t("watch.ui.narr.place", { n: player.depth, square })
        : t("watch.ui.narr.start", { square });
    }
    const n = view.counts ? view.counts[view.tried] : onward(view.move);
    if (view.counts && ruleOf(algorithm).sort === "static") {
      return t("watch.ui.narr.try.static", { square, n }); // the Java articles' count
    }
    return t(n === 1 ? "watch.ui.narr.try.one" : "watch.ui.narr.try", { square, n });
  }
  if (view.back >= 0) {
    const square = name(view.back);
    return player.depth > 0
      ? t("watch.ui.narr.back", { square, to: name(player.head) })
      : t("watch.ui.narr.back.root", { square });
  }
  return null;
}

/** The sentence for the run's end (`done`, docs/protocol.md) from square `start`. */
export function narrateDone(done, player, start) {
  const params = {
    squares: formatNumber(player.squares),
    nodes: formatNumber(done.nodes),
    backtracks: formatNumber(done.backtracks),
    square: nameOf(start, player.rows, player.cols),
  };
  if (done.status === "budget") {
    const key = done.limit === "time" ? "watch.ui.narr.budget.time" : "watch.ui.narr.budget";
    return t(key, params);
  }
  return t(`watch.ui.narr.${done.status}`, params);
}
