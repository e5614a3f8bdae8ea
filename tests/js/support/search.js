// A reference search for the unit tests: depth-first over knight moves in a fixed order,
// encoded as the watch protocol encodes it (docs/protocol.md): a move is sq, k, c1..ck
// (with n1..nk when `counts`), a backtrack is -1 - sq. Independent of static/js.

// Its own move order, on purpose not the app's: [dRow, dCol] pairs.
// biome-ignore format: one line reads as a table
const JUMPS = [[-2, 1], [-1, 2], [1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1]];

/**
 * The first `limit` events of the search from `start` on a rows x cols board; `jumps` another
 * move order, `warnsdorff` tries the candidates with the fewest onward moves first (ties in
 * move order); `staticDegree` by the number of on-board moves instead, visited squares
 * counted (the Java articles' sort; the counts carried are those); `landsOnStart` lets the
 * last move land on the start, which ends the search (the Python article's isCorrect).
 */
export function searchEvents(
  rows,
  cols,
  start,
  limit,
  {
    counts = false,
    jumps = JUMPS,
    warnsdorff = false,
    staticDegree = false,
    landsOnStart = false,
  } = {},
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
  const degree = (sq) => {
    const r = Math.floor(sq / cols);
    const c = sq % cols;
    return jumps.filter(([dr, dc]) => r + dr >= 0 && r + dr < rows && c + dc >= 0 && c + dc < cols)
      .length;
  };
  let done = false;
  const visit = (sq, candidates, counted) => {
    if (events.length >= limit) {
      done = true;
      return;
    }
    events.push([sq, candidates.length, ...candidates, ...(counts ? counted : [])]);
    if (onPath.has(sq) || onPath.size + 1 === rows * cols) {
      done = true; // a tour, or the last move landed on the start
      return;
    }
    onPath.add(sq);
    let next = neighbours(sq);
    if (landsOnStart && onPath.size === rows * cols - 1) {
      next = jumps
        .map(([dr, dc]) => [Math.floor(sq / cols) + dr, (sq % cols) + dc])
        .filter(([r, c]) => r >= 0 && r < rows && c >= 0 && c < cols)
        .map(([r, c]) => r * cols + c)
        .filter((c) => c === start || !onPath.has(c));
    }
    let ways = next.map((c) => neighbours(c).length);
    if (warnsdorff || staticDegree) {
      if (staticDegree) ways = next.map(degree);
      const order = next.map((_, i) => i).sort((a, b) => ways[a] - ways[b]); // stable
      next = order.map((i) => next[i]);
      ways = order.map((i) => ways[i]);
    }
    for (const target of next) {
      visit(target, next, ways);
      if (done) return;
    }
    if (events.length >= limit) {
      done = true;
      return;
    }
    onPath.delete(sq);
    events.push([-1 - sq]);
  };
  visit(start, [], []);
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
