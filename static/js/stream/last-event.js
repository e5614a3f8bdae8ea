// What a player's last consumed event shows: the move it made and the candidates it chose
// from, or the square it backed out of. Watch's lanes and Play's "show me" draw and narrate
// it. No DOM here.

import { eventCandidates } from "./decode.js";

/**
 * {move, back, candidates, counts, tried} after the player's last event: `move` the square
 * moved to (or -1), `back` the square backed out of (or -1), `candidates` the squares the
 * move chose from in the order tried (the first `tried` of them were tried before it), with
 * their onward counts when the run carries them (`counts`, else null).
 */
export function lastEventView(player) {
  const view = { move: -1, back: -1, candidates: [], counts: null, tried: 0 };
  const last = player.lastEvent();
  if (!last) return view;
  const value = last.data[last.off];
  if (value < 0) {
    view.back = -1 - value;
    return view;
  }
  const { squares, counts } = eventCandidates(last.data, last.off, player.counts);
  view.move = value;
  view.candidates = squares;
  view.counts = counts;
  view.tried = Math.max(0, squares.indexOf(value));
  return view;
}
