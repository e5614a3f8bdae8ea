// Live statistics of one run: exact counters, events/s, elapsed time, and the depth chart
// (the backtracking sawtooth) drawn on a canvas.

import { formatNumber, formatTime } from "../core/i18n.js";
import { DepthColumns } from "../stream/columns.js";

/** The counters shown in elements marked data-stat="<name>" inside `root`. */
export class Stats {
  constructor(root) {
    this.root = root;
    this.els = {};
    for (const el of root.querySelectorAll("[data-stat]")) this.els[el.dataset.stat] = el;
    this.shown = {};
    this.reset();
  }

  reset() {
    this.elapsed = 0; // seconds of playback (pauses excluded)
    this.rateSamples = []; // [time ms, frontier] pairs over the last second or so
    this.rate = 0;
  }

  /** Account `dt` seconds of playback ending at `now` (ms) with the player's frontier. */
  tick(now, dt, frontier) {
    this.elapsed += dt;
    const samples = this.rateSamples;
    samples.push([now, frontier]);
    while (samples.length > 2 && now - samples[0][0] > 1000) samples.shift();
    const [t0, f0] = samples[0];
    this.rate = now > t0 ? ((frontier - f0) * 1000) / (now - t0) : 0;
  }

  /** Playback stopped: the rate drops to 0 but the samples restart from here. Whether the
   * rate shown changes. */
  idle() {
    const changed = this.rate !== 0;
    this.rateSamples = [];
    this.rate = 0;
    return changed;
  }

  show(player) {
    this._set("nodes", formatNumber(player.moves));
    this._set("backtracks", formatNumber(player.backtracks));
    this._set("depth", formatNumber(player.depth));
    this._set("max-depth", formatNumber(player.maxDepth));
    this._set("shown", formatNumber(player.pos));
    this._set("received", formatNumber(player.received));
    this._set("rate", formatNumber(Math.round(this.rate)));
    this._set("elapsed", formatTime(this.elapsed));
    this._set("squares", formatNumber(player.squares));
  }

  _set(name, text) {
    const el = this.els[name];
    if (!el || this.shown[name] === text) return;
    this.shown[name] = text;
    el.textContent = text;
  }
}

/**
 * Depth over time, x = event index, drawn from DepthColumns (columns.js). The chart keeps
 * its own columns (`push`); a class room's page shows columns kept by its stream (`use`).
 */
export class DepthChart {
  constructor(canvas, { columns = 256 } = {}) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.own = new DepthColumns(columns);
    this.data = this.own;
    this.colours = null; // read with the size (layout is fresh then), not while drawing
    new ResizeObserver(() => this._resize()).observe(canvas);
    globalThis.matchMedia?.("(prefers-color-scheme: dark)").addEventListener("change", () => {
      this.colours = null;
      this.draw(this.cursor);
    });
    this.reset(1);
  }

  reset(squares) {
    this.data = this.own;
    this.own.reset(squares);
    this.cursor = 0;
  }

  /** Show `columns` (kept up to date elsewhere) until the next `reset`. */
  use(columns) {
    this.data = columns;
  }

  /** One event's resulting depth (called once per event, in order). */
  push(depth) {
    this.own.push(depth);
  }

  get events() {
    return this.data.events;
  }

  _resize() {
    const rect = this.canvas.getBoundingClientRect();
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = Math.max(1, Math.round(rect.width * ratio));
    this.canvas.height = Math.max(1, Math.round(rect.height * ratio));
    this.colours = null;
    this.draw(this.cursor);
  }

  /** The chart's colours from the CSS (light or dark). */
  _colours() {
    if (!this.colours) {
      const style = getComputedStyle(this.canvas);
      const read = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
      this.colours = {
        goal: read("--w-chart-goal", "#16a34a"),
        band: read("--w-chart", "#4f6bd8"),
        cursor: read("--w-chart-cursor", "#f59e0b"),
      };
    }
    return this.colours;
  }

  /** Draw the columns received so far, with a marker at event index `cursor`. */
  draw(cursor = this.events) {
    this.cursor = cursor;
    const { ctx, canvas } = this;
    const w = canvas.width;
    const h = canvas.height;
    ctx.clearRect(0, 0, w, h);
    const { squares, span, min, max } = this.data;
    const columns = this.data.columns;
    if (columns === 0) return;
    const colours = this._colours();
    const pad = 2 * (window.devicePixelRatio || 1);
    const slots = Math.max(columns, 64);
    const y = (d) => h - pad - ((h - 2 * pad) * d) / squares;
    // The goal line: a full tour.
    ctx.strokeStyle = colours.goal;
    ctx.setLineDash([4, 4]);
    ctx.beginPath();
    ctx.moveTo(0, y(squares));
    ctx.lineTo(w, y(squares));
    ctx.stroke();
    ctx.setLineDash([]);
    // The band between each column's min and max depth, outlined along the max: with one
    // event per column it is the exact sawtooth, with more it is its envelope.
    const colour = colours.band;
    const x = (i) => (columns === 1 ? w / 2 : (i * w) / (slots - 1));
    ctx.beginPath();
    for (let i = 0; i < columns; i++) ctx.lineTo(x(i), y(max[i]));
    for (let i = columns - 1; i >= 0; i--) ctx.lineTo(x(i), y(min[i]));
    ctx.closePath();
    ctx.globalAlpha = 0.3;
    ctx.fillStyle = colour;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.beginPath();
    for (let i = 0; i < columns; i++) ctx.lineTo(x(i), y(max[i]));
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.5 * (window.devicePixelRatio || 1);
    ctx.lineJoin = "round";
    ctx.stroke();
    if (cursor < this.events) {
      const at = Math.min(w - 1, x(cursor / span));
      ctx.fillStyle = colours.cursor;
      ctx.fillRect(at - 1, 0, 2, h);
    }
  }
}
