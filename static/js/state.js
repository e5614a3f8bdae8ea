// The client's model: the last state the server sent plus what only the page
// knows (the highlighted hint, the keyboard focus). Nothing here decides
// legality or a win; the derived "view" only reshapes the server's state.

const STORAGE_KEY = "knights-tour.game";

export const store = {
  game: null, // the server's state (docs/api.md)
  receivedAt: 0, // performance.now() when `game` arrived, for the ticking clock
  hint: null, // [row, col] the last hint pointed at, until the position changes
  pendingStart: null, // [row, col] a start square the theory rejected, awaiting a confirming click
  focus: [0, 0], // the roving-tabindex square
};

export function setGame(game) {
  const previous = store.game;
  const samePosition =
    previous &&
    previous.id === game.id &&
    previous.path.length === game.path.length &&
    previous.returned === game.returned &&
    previous.path.at(-1)?.join() === game.path.at(-1)?.join();
  if (!samePosition) store.hint = null;
  if (!previous || previous.id !== game.id || game.path.length) store.pendingStart = null;
  store.game = game;
  store.receivedAt = performance.now();
  saveGameId(game.id);
}

export function saveGameId(id) {
  try {
    localStorage.setItem(STORAGE_KEY, id);
  } catch {
    /* private mode: the game just won't survive a reload */
  }
}

export function loadGameId() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function forgetGameId() {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    /* ignore */
  }
}

/** Seconds on the clock now: the server's elapsed plus local time while the game runs. */
export function elapsedNow() {
  const game = store.game;
  if (!game) return 0;
  const running = game.status === "playing" || game.status === "stuck";
  const extra = running ? (performance.now() - store.receivedAt) / 1000 : 0;
  return (game.elapsed || 0) + extra;
}

/**
 * Per-square view of the state: `states[i]` is one of empty | visited | current | legal,
 * `numbers[i]` the move number (1 = the start) or 0.
 */
export function deriveView(game) {
  const size = game.rows * game.cols;
  const states = new Array(size).fill("empty");
  const numbers = new Array(size).fill(0);
  const index = ([r, c]) => r * game.cols + c;
  game.path.forEach((sq, i) => {
    const k = index(sq);
    states[k] = "visited";
    numbers[k] = i + 1;
  });
  let current = null;
  if (game.returned && game.start) current = game.start;
  else if (game.path.length) current = game.path.at(-1);
  if (current) states[index(current)] = "current";
  if (game.status === "new" || game.status === "playing") {
    for (const sq of game.legal) {
      const k = index(sq);
      if (states[k] !== "current") states[k] = "legal";
    }
  }
  const start = game.start ? index(game.start) : -1;
  const hint = store.hint ? index(store.hint) : -1;
  return { states, numbers, current, start, hint };
}
