// The Play page's model: the last game the server sent, plus what only the page knows (the
// square a hint pointed at, a start square awaiting confirmation) and the messages it shows.
// Nothing here decides legality or a win: board/state.js draws the server's game as it is.

const STORAGE_KEY = "knights-tour.game";

export const store = {
  game: null, // the server's state (docs/api.md)
  receivedAt: 0, // performance.now() when `game` arrived, for the ticking clock
  hint: null, // [row, col] the last hint pointed at, until the position changes
  pendingStart: null, // [row, col] a start square the theory rejected, awaiting a confirming click
  startWarning: null, // the text shown while `pendingStart` awaits its confirmation
  hintMessage: null, // {key?, params?, text?}: the last hint's words, under the controls
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
