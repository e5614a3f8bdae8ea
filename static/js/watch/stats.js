// Live statistics of one run: exact counters, events/s, elapsed time, and the depth chart
// (the backtracking sawtooth) drawn on a canvas.

import { formatNumber, formatTime } from "../i18n.js";

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

  /** Playback stopped: the rate drops to 0 but the samples restart from here. */
  idle() {
    this.rateSamples = [];
    this.rate = 0;
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
 * Depth over time, x = event index. Each column holds the min and max depth of `span`
 * consecutive events; when the columns fill up, pairs merge and `span` doubles, so the
 * whole run always fits and memory stays fixed.
 */
export class DepthChart {
  constructor(canvas, { columns = 256 } = {}) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.capacity = columns;
    this.min = new Uint16Array(columns);
    this.max = new Uint16Array(columns);
    new ResizeObserver(() => this._resize()).observe(canvas);
    this.reset(1);
  }

  reset(squares) {
    this.squares = Math.max(1, squares);
    this.span = 1;
    this.length = 0; // complete columns
    this.fill = 0; // events in the open column
    this.events = 0;
    this.cursor = 0;
  }

  /** One event's resulting depth (called once per event, in order). */
  push(depth) {
    const i = this.length;
    if (this.fill === 0) {
      this.min[i] = depth;
      this.max[i] = depth;
    } else {
      if (depth < this.min[i]) this.min[i] = depth;
      if (depth > this.max[i]) this.max[i] = depth;
    }
    this.events++;
    if (++this.fill === this.span) {
      this.fill = 0;
      if (++this.length === this.capacity) this._halve();
    }
  }

  _halve() {
    const half = this.capacity >> 1;
    for (let j = 0; j < half; j++) {
      this.min[j] = Math.min(this.min[2 * j], this.min[2 * j + 1]);
      this.max[j] = Math.max(this.max[2 * j], this.max[2 * j + 1]);
    }
    this.length = half;
    this.span *= 2;
  }

  _resize() {
    const rect = this.canvas.getBoundingClientRect();
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = Math.max(1, Math.round(rect.width * ratio));
    this.canvas.height = Math.max(1, Math.round(rect.height * ratio));
    this.draw(this.cursor);
  }

  /** Draw the columns received so far, with a marker at event index `cursor`. */
  draw(cursor = this.events) {
    this.cursor = cursor;
    const { ctx, canvas } = this;
    const w = canvas.width;
    const h = canvas.height;
    ctx.clearRect(0, 0, w, h);
    const columns = this.length + (this.fill > 0 ? 1 : 0);
    if (columns === 0) return;
    const style = getComputedStyle(canvas);
    const pad = 2 * (window.devicePixelRatio || 1);
    const slots = Math.max(columns, 64);
    const y = (d) => h - pad - ((h - 2 * pad) * d) / this.squares;
    // The goal line: a full tour.
    ctx.strokeStyle = style.getPropertyValue("--w-chart-goal").trim() || "#16a34a";
    ctx.setLineDash([4, 4]);
    ctx.beginPath();
    ctx.moveTo(0, y(this.squares));
    ctx.lineTo(w, y(this.squares));
    ctx.stroke();
    ctx.setLineDash([]);
    // The band between each column's min and max depth, outlined along the max: with one
    // event per column it is the exact sawtooth, with more it is its envelope.
    const colour = style.getPropertyValue("--w-chart").trim() || "#4f6bd8";
    const x = (i) => (columns === 1 ? w / 2 : (i * w) / (slots - 1));
    ctx.beginPath();
    for (let i = 0; i < columns; i++) ctx.lineTo(x(i), y(this.max[i]));
    for (let i = columns - 1; i >= 0; i--) ctx.lineTo(x(i), y(this.min[i]));
    ctx.closePath();
    ctx.globalAlpha = 0.3;
    ctx.fillStyle = colour;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.beginPath();
    for (let i = 0; i < columns; i++) ctx.lineTo(x(i), y(this.max[i]));
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.5 * (window.devicePixelRatio || 1);
    ctx.lineJoin = "round";
    ctx.stroke();
    if (cursor < this.events) {
      const at = Math.min(w - 1, x(cursor / this.span));
      ctx.fillStyle = style.getPropertyValue("--w-chart-cursor").trim() || "#f59e0b";
      ctx.fillRect(at - 1, 0, 2, h);
    }
  }
}
