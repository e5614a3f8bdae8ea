// A reference search for the unit tests: depth-first over knight moves in a fixed order,
// encoded as the watch protocol encodes it (docs/protocol.md): a move is sq, k, c1..ck
// (with n1..nk when `counts`), a backtrack is -1 - sq. Independent of static/js.

// Its own move order, on purpose not the app's: [dRow, dCol] pairs.
// biome-ignore format: one line reads as a table
const JUMPS = [[-2, 1], [-1, 2], [1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1]];

/**
 * The first `limit` events of the search from `start` on a rows x cols board; `jumps` another
 * move order, `warnsdorff` tries the candidates with the fewest onward moves first (ties in
 * move order).
 */
export function searchEvents(
  rows,
  cols,
  start,
  limit,
  { counts = false, jumps = JUMPS, warnsdorff = false } = {},
) {
  const events = [];
  const onPath = new Set();
  const neighbours = (sq) => {
    const r = Math.floor(sq / cols);
    const c = sq % cols;
    const out = [];
    for (const [dr, dc] of jumps) {
      const rr = r + dr;
      const cc = c + dc;
      if (rr >= 0 && rr < rows && cc >= 0 && cc < cols && !onPath.has(rr * cols + cc)) {
        out.push(rr * cols + cc);
      }
    }
    return out;
  };
  let done = false;
  const visit = (sq, candidates) => {
    if (events.length >= limit) {
      done = true;
      return;
    }
    const onward = counts
      ? candidates.map((c) => neighbours(c).filter((x) => x !== sq).length)
      : [];
    events.push([sq, candidates.length, ...candidates, ...onward]);
    onPath.add(sq);
    if (onPath.size === rows * cols) {
      done = true;
      return;
    }
    let next = neighbours(sq);
    if (warnsdorff) {
      const onward = new Map(next.map((c) => [c, neighbours(c).length]));
      next = [...next].sort((a, b) => onward.get(a) - onward.get(b)); // stable
    }
    for (const target of next) {
      visit(target, next);
      if (done) return;
    }
    if (events.length >= limit) {
      done = true;
      return;
    }
    onPath.delete(sq);
    events.push([-1 - sq]);
  };
  visit(start, []);
  return events;
}

/** The path and counters after the first `n` of `events` (each an array of ints). */
export function replay(events, n, squares) {
  const path = [];
  const heat = new Array(squares).fill(0);
  let nodes = 0;
  let backtracks = 0;
  let maxDepth = 0;
  for (const event of events.slice(0, n)) {
    if (event[0] >= 0) {
      path.push(event[0]);
      heat[event[0]]++;
      nodes++;
      maxDepth = Math.max(maxDepth, path.length);
    } else {
      path.pop();
      backtracks++;
    }
  }
  return { path, heat, nodes, backtracks, maxDepth };
}

/** Events as the flat list a batch or a feed carries. */
export function flat(events) {
  return events.flat();
}
