// "Show me": the hint's big sibling. The solver's search (Warnsdorff ordering, the game's
// mode, pruning on, a modest budget) is streamed from the player's position over the
// watch protocol (docs/protocol.md) and drawn on the Play board as an OVERLAY: the path the
// search tries beyond the player's path, the candidates it weighs, the squares it backs out
// of flashing. Nothing of the game changes: the overlay is one SVG layer above the squares
// (the squares, the path line and the knight are never touched), it clears when the run
// ends, and the move it finds is only highlighted, to be played by the player's own click.
//
// The socket, flow control, decoding and replay are the Watch page's modules as they are
// (watch/connection.js, watch/decode.js, watch/player.js); this file only paces and draws.
// socket.io-client is loaded on first use (the button's data-socketio names the script).

import { formatNumber, squareName, t } from "./i18n.js";
import { WatchConnection } from "./watch/connection.js";
import { decodeBatch, eventCandidates } from "./watch/decode.js";
import { Player } from "./watch/player.js";

const SVG = "http://www.w3.org/2000/svg";

export const NODE_BUDGET = 200_000; // a few seconds of search at most: a hint, not a study
export const TIME_LIMIT = 15; // seconds of search (paused time excluded by the server)
const BASE_RATE = 30; // events drawn per second at first: every step readable
const DOUBLING = 1; // seconds for the drawing rate to double, so long searches still end soon
const MAX_RATE = 120_000;
const FLASH_MS = 450; // how long a square the search backed out of flashes
const HOLD_MS = 900; // how long the found tour stays on the board before the hint shows
const NARRATE_MS = 300; // the narration changes at most this often (the Watch lane's pace)
const CONNECT_MS = 10_000;

let socketIoLoading = null;

/** Load the vendored socket.io client once (a classic script: it defines `io`). */
function loadSocketIo(src) {
  if (typeof globalThis.io === "function") return Promise.resolve();
  if (!socketIoLoading) {
    socketIoLoading = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = () => resolve();
      script.onerror = () => {
        socketIoLoading = null;
        script.remove();
        reject(new Error("socket.io-client did not load"));
      };
      document.head.append(script);
    });
  }
  return socketIoLoading;
}

function withTimeout(promise, ms, message) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The drawing layer: one <svg> over the board, a pool of shapes per square. */
class Overlay {
  constructor(svg) {
    this.svg = svg;
    this.rows = 0;
    this.cols = 0;
  }

  build(rows, cols) {
    this.svg.setAttribute("viewBox", `0 0 ${cols} ${rows}`);
    if (rows === this.rows && cols === this.cols) return;
    this.rows = rows;
    this.cols = cols;
    const el = (name, attrs, parent) => {
      const node = document.createElementNS(SVG, name);
      for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
      parent?.append(node);
      return node;
    };
    const tints = el("g", { class: "s-tints" });
    const flashes = el("g", { class: "s-flashes" });
    const numbers = el("g", { class: "s-nums" });
    this.line = el("polyline", { class: "s-line", points: "" });
    this.cands = el("g", { class: "s-cands" });
    this.ghost = el("text", { class: "s-ghost", x: 0.5, y: 0.5 });
    this.ghost.textContent = "♞\uFE0E";
    this.tint = [];
    this.flash = [];
    this.num = [];
    for (let sq = 0; sq < rows * cols; sq++) {
      const x = sq % cols;
      const y = Math.floor(sq / cols);
      const box = { x, y, width: 1, height: 1, visibility: "hidden" };
      this.tint.push(el("rect", { ...box, class: "s-tint" }, tints));
      this.flash.push(el("rect", { ...box, class: "s-flash" }, flashes));
      this.num.push(el("text", { x: x + 0.5, y: y + 0.5, class: "s-num" }, numbers));
    }
    this.svg.replaceChildren(tints, flashes, this.line, this.cands, numbers, this.ghost);
  }

  /** Hide every mark (the pool stays for the next run). */
  reset() {
    for (let sq = 0; sq < this.tint.length; sq++) {
      this.tint[sq].setAttribute("visibility", "hidden");
      this.flash[sq].setAttribute("visibility", "hidden");
      this.num[sq].textContent = "";
    }
    this.line.setAttribute("points", "");
    this.cands.replaceChildren();
    this.ghost.setAttribute("visibility", "hidden");
  }

  /** `number` 0 = off the search's path; `label` false = under the ghost knight. */
  setSquare(sq, number, label = true) {
    this.tint[sq].setAttribute("visibility", number ? "visible" : "hidden");
    const text = number && label ? String(number) : "";
    if (this.num[sq].textContent !== text) this.num[sq].textContent = text;
  }

  setFlash(sq, opacity) {
    const rect = this.flash[sq];
    if (opacity <= 0) {
      rect.setAttribute("visibility", "hidden");
    } else {
      rect.setAttribute("visibility", "visible");
      rect.setAttribute("opacity", opacity.toFixed(2));
    }
  }

  setLine(points) {
    if (this.line.getAttribute("points") !== points) this.line.setAttribute("points", points);
  }

  /** Rings on the candidates still to try; those before `chosen` (tried or pruned) faded. */
  setCandidates(squares, chosen) {
    const rings = [];
    squares.forEach((sq, i) => {
      if (i === chosen) return; // the ghost knight stands there
      const ring = document.createElementNS(SVG, "circle");
      ring.setAttribute("cx", (sq % this.cols) + 0.5);
      ring.setAttribute("cy", Math.floor(sq / this.cols) + 0.5);
      ring.setAttribute("r", 0.24);
      ring.setAttribute("class", i < chosen ? "s-cand s-tried" : "s-cand");
      rings.push(ring);
    });
    this.cands.replaceChildren(...rings);
  }

  setGhost(sq) {
    if (sq < 0) {
      this.ghost.setAttribute("visibility", "hidden");
      return;
    }
    this.ghost.setAttribute("visibility", "visible");
    this.ghost.setAttribute("x", (sq % this.cols) + 0.5);
    this.ghost.setAttribute("y", Math.floor(sq / this.cols) + 0.5);
  }
}

/**
 * One "show me" at a time. `onEnd(result)` gets
 * {status: "found", next: [r, c], nodes} | {status: "exhausted" | "budget", limit, nodes}
 * | {status: "stopped"} | {status: "error", message}.
 */
export class ShowMe {
  constructor({ board, svg, panel, button, onEnd, onChange }) {
    this.board = board;
    this.overlay = new Overlay(svg);
    this.svg = svg;
    this.panel = panel;
    this.button = button;
    this.text = panel.querySelector("#showme-text");
    this.nodes = panel.querySelector("#showme-nodes");
    this.skipButton = panel.querySelector("#showme-skip");
    this.cancelButton = panel.querySelector("#showme-cancel");
    this.onEnd = onEnd;
    this.onChange = onChange ?? (() => {});
    this.connection = null;
    this.generation = 0;
    this.state = "idle"; // idle | connecting | running | holding
    this.skipButton.addEventListener("click", () => this.skip());
    this.cancelButton.addEventListener("click", () => this.cancel());
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.active) {
        event.preventDefault();
        this.cancel();
      }
    });
  }

  get active() {
    return this.state !== "idle";
  }

  /** Stream the search from `game`'s position (status "playing" only). */
  async start(game) {
    if (this.active) return;
    const generation = ++this.generation;
    this.game = game;
    this.rows = game.rows;
    this.cols = game.cols;
    this.skipping = false;
    this.player = null;
    this.run = null;
    this.flashes = new Map();
    this.narratedAt = 0;
    this.lastPos = -1;
    this.shownNodes = "";
    const index = ([r, c]) => r * game.cols + c;
    this.root = index(game.path.at(-1));
    this.base = new Uint8Array(game.rows * game.cols); // the player's squares: never drawn on
    this.shown = new Uint8Array(game.rows * game.cols); // squares the overlay marks now
    this.ghostAt = -1;
    for (const sq of game.path) this.base[index(sq)] = 1;
    this.overlay.build(game.rows, game.cols);
    this.overlay.reset();
    this.svg.removeAttribute("hidden"); // an SVG element has no `hidden` property
    this._setState("connecting");
    this.skipButton.disabled = false;
    this.panel.hidden = false;
    this._say(t("ui.showme.connecting", { square: this.name(this.root) }));
    this.nodes.textContent = "";
    if (this.button.contains(document.activeElement) || document.activeElement === document.body) {
      this.skipButton.focus({ preventScroll: true });
    }

    let run;
    let starting = null;
    try {
      await loadSocketIo(this.button.dataset.socketio);
      this.connection ??= new WatchConnection();
      const params = {
        game: game.id,
        rows: game.rows,
        cols: game.cols,
        start: game.start ?? game.path[0],
        algorithm: "warnsdorff",
        closed: game.closed,
        pruning: true,
        node_budget: NODE_BUDGET,
        time_limit: TIME_LIMIT,
      };
      const handlers = {
        batch: (msg) => generation === this.generation && this._onBatch(msg),
        done: (msg) => generation === this.generation && this._onDone(msg),
        error: (err) => generation === this.generation && this._fail(err),
      };
      this.early = [];
      starting = this.connection.start(params, handlers, { window: 2000 });
      run = await withTimeout(starting, CONNECT_MS, t("ui.showme.offline"));
    } catch (err) {
      starting?.then(
        (late) => late.stop(),
        () => {},
      ); // acknowledged after we gave up
      if (generation === this.generation) this._fail(err);
      return;
    }
    if (generation !== this.generation) {
      run.stop(); // cancelled while the server was acknowledging
      return;
    }
    this.run = run;
    const { ack } = run;
    this.player = new Player({
      rows: ack.rows,
      cols: ack.cols,
      path: ack.prefix || [],
      counts: Boolean(ack.counts),
    });
    this.player.onFrontier = (n) => this.run?.consumed(n);
    this.from = this.player.depth; // the first event re-enters the player's square
    if (this.skipping) run.setWindow(20_000); // skip was pressed while connecting
    for (const [kind, msg] of this.early) kind === "done" ? this._onDone(msg) : this._onBatch(msg);
    this.early = null;
    this._setState("running");
    this.startedAt = performance.now();
    this.lastFrame = this.startedAt;
    this.budget = 0;
    this.frame = requestAnimationFrame((now) => this._frame(now, generation));
  }

  /** Draw everything that is left at once, then end as soon as the server has. */
  skip() {
    if (!this.active) return;
    if (this.state === "holding") {
      this._end();
      return;
    }
    this.skipping = true;
    this.skipButton.disabled = true;
    this.run?.setWindow(20_000);
    this._say(t("ui.showme.skipping"));
    this.panel.dataset.status = "skipping";
  }

  /** Stop the run (the server's task ends) and put the board back as it was. */
  cancel() {
    if (!this.active) return;
    this.run?.stop();
    this._finish({ status: "stopped" });
  }

  /** Forget the socket (a language switch: the server picks the language at connect). */
  disconnect() {
    this.cancel();
    this.connection?.close();
    this.connection = null;
  }

  name(sq) {
    return squareName(Math.floor(sq / this.cols), sq % this.cols, this.rows);
  }

  // -- socket input ----------------------------------------------------------------------
  _onBatch(msg) {
    if (!this.player) {
      this.early?.push(["batch", msg]); // a batch racing the acknowledgement
      return;
    }
    try {
      this.player.push(
        decodeBatch(msg.events, { counts: this.player.counts, squares: this.player.squares }),
      );
    } catch (err) {
      this.run?.stop();
      this._fail(err);
    }
  }

  _onDone(msg) {
    if (!this.player) {
      this.early?.push(["done", msg]);
      return;
    }
    this.player.finish(msg);
  }

  _fail(err) {
    if (!this.active) return;
    const message = err?.message || String(err);
    this._finish({ status: "error", message });
  }

  // -- pacing and drawing ------------------------------------------------------------------
  _frame(now, generation) {
    if (generation !== this.generation || this.state !== "running") return;
    const player = this.player;
    const dt = Math.min(0.1, Math.max(0, (now - this.lastFrame) / 1000));
    this.lastFrame = now;
    try {
      if (this.skipping) {
        player.advance(player.buffered);
      } else {
        const elapsed = (now - this.startedAt) / 1000;
        const rate = Math.min(MAX_RATE, BASE_RATE * 2 ** (elapsed / DOUBLING));
        this.budget += rate * dt;
        const n = Math.floor(this.budget);
        if (n > 0) {
          this.budget -= n;
          player.advance(Math.min(n, player.buffered));
        }
        // keep about half a second of drawing in flight (the window is at least 1,000)
        this.run?.setWindow(rate / 2);
      }
      this._draw(now);
    } catch (err) {
      this.run?.stop();
      this._fail(err);
      return;
    }
    if (player.finished) {
      this._settle(now);
      return;
    }
    this.frame = requestAnimationFrame((next) => this._frame(next, generation));
  }

  _draw(now) {
    const player = this.player;
    const overlay = this.overlay;
    const base = this.base;
    const head = player.head;
    const ghost = head >= 0 && !base[head] ? head : -1;
    const dirty = player.takeDirty();
    if (this.ghostAt >= 0 && this.ghostAt !== ghost) dirty.push(this.ghostAt); // relabel it
    for (const sq of dirty) {
      if (base[sq]) continue;
      const number = player.order[sq];
      if (number === 0 && this.shown[sq]) this.flashes.set(sq, now); // backed out of
      if (number !== 0) {
        this.flashes.delete(sq);
        overlay.setFlash(sq, 0);
      }
      this.shown[sq] = number !== 0 ? 1 : 0;
      overlay.setSquare(sq, number, sq !== ghost); // the ghost knight covers its number
    }
    this.ghostAt = ghost;
    for (const [sq, at] of this.flashes) {
      const opacity = 1 - (now - at) / FLASH_MS;
      overlay.setFlash(sq, opacity);
      if (opacity <= 0) this.flashes.delete(sq);
    }
    // the search's path beyond the player's: from the player's square to the search's head
    const { path, depth, cols } = player;
    const from = this.from; // the root's place on the path: the player's square
    let points = "";
    if (depth > from + 1) {
      const parts = [];
      for (let i = from; i < depth; i++) {
        parts.push(`${(path[i] % cols) + 0.5},${Math.floor(path[i] / cols) + 0.5}`);
      }
      points = parts.join(" ");
    }
    overlay.setLine(points);
    overlay.setGhost(ghost);
    if (player.pos !== this.lastPos) {
      this.lastPos = player.pos;
      this._showEvent(now);
    }
    const nodes = t("ui.showme.nodes", { nodes: formatNumber(player.moves) });
    if (nodes !== this.shownNodes) {
      this.shownNodes = nodes;
      this.nodes.textContent = nodes;
      this.panel.dataset.events = String(player.pos);
    }
  }

  /** Candidates of the last event and (throttled) the narration of it. */
  _showEvent(now) {
    const player = this.player;
    const last = player.lastEvent();
    let text = null;
    if (last && last.data[last.off] >= 0) {
      const sq = last.data[last.off];
      const { squares, counts } = eventCandidates(last.data, last.off, player.counts);
      const at = squares.indexOf(sq);
      this.overlay.setCandidates(squares, at);
      if (squares.length && !this.skipping) {
        const n = counts ? counts[at] : null;
        text =
          n === null
            ? null
            : t(n === 1 ? "watch.ui.narr.try.one" : "watch.ui.narr.try", {
                square: this.name(sq),
                n,
              });
      }
    } else if (last) {
      this.overlay.setCandidates([], 0);
      const sq = -1 - last.data[last.off];
      if (!this.skipping) {
        text =
          player.depth > 0
            ? t("watch.ui.narr.back", { square: this.name(sq), to: this.name(player.head) })
            : t("watch.ui.narr.back.root", { square: this.name(sq) });
      }
    }
    if (text !== null && now - this.narratedAt >= NARRATE_MS) {
      this.narratedAt = now;
      this._say(text);
    }
  }

  /** Every event is drawn and the run is over: show the outcome briefly, then end. */
  _settle(now) {
    const done = this.player.done;
    this.overlay.setCandidates([], 0);
    if (done.status === "found" && !this.skipping) {
      this._draw(now);
      this._setState("holding");
      this._say(this._resultText(this._result()));
      this.holdTimer = setTimeout(() => this._end(), HOLD_MS);
      return;
    }
    this._end();
  }

  _end() {
    if (!this.active || !this.player?.done) return;
    this._finish(this._result());
  }

  _result() {
    const done = this.player.done;
    const nodes = done.nodes;
    if (done.status === "found" && done.tour) {
      const pathLength = this.game.path.length;
      // the whole tour, the game's path first; a full closed path's next move is the start
      const sq = done.tour.length > pathLength ? done.tour[pathLength] : done.tour[0];
      return { status: "found", next: [Math.floor(sq / this.cols), sq % this.cols], nodes };
    }
    if (done.status === "exhausted" || done.status === "budget") {
      return { status: done.status, limit: done.limit, nodes };
    }
    return { status: "stopped" };
  }

  _resultText(result) {
    const nodes = formatNumber(result.nodes ?? 0);
    switch (result.status) {
      case "found":
        return t("ui.showme.found", { nodes, square: squareName(...result.next, this.rows) });
      case "exhausted":
        return t("ui.showme.exhausted", { nodes });
      case "budget":
        return t(result.limit === "time" ? "ui.showme.budget.time" : "ui.showme.budget", {
          nodes,
        });
      case "error":
        return t("ui.showme.error", { message: result.message });
      default:
        return t("ui.showme.stopped");
    }
  }

  /** Clear the overlay, hand the outcome over, give the focus back. */
  _finish(result) {
    this.generation++;
    cancelAnimationFrame(this.frame);
    clearTimeout(this.holdTimer);
    this.run = null;
    this.player = null;
    this.early = null;
    const hadFocus = this.panel.contains(document.activeElement);
    this.overlay.reset();
    this.svg.setAttribute("hidden", "");
    this.panel.hidden = true;
    this._setState("idle");
    result.text = this._resultText(result);
    this.onEnd(result);
    if (hadFocus && !this.button.disabled) this.button.focus({ preventScroll: true });
  }

  _setState(state) {
    this.state = state;
    this.panel.dataset.status = state;
    if (state === "idle") delete this.board.dataset.showme;
    else this.board.dataset.showme = state;
    this.onChange(state);
  }

  _say(text) {
    if (this.text.textContent !== text) this.text.textContent = text;
  }
}
