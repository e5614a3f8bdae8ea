// The lab's Python, in a Web Worker (lab/worker.js): it loads once (Pyodide: the page's
// first Run waits for it, the next ones do not), runs one program at a time, and is
// terminated by Stop, which is sure to end any program, a `while True:` included, at once.
// A fresh worker then loads for the next Run. The recording (lab/recording.js) collects the
// chunks the worker posts; what came before a Stop is kept.

import { Recording } from "./recording.js";

export const BUDGET = 50_000_000; // board writes a run may record
export const CHUNK = 1 << 16; // events per chunk the worker posts (a Stop loses fewer)

export class LabRunner {
  /**
   * url: the worker's script; onState(state, detail): "loading" | "ready" | "running" |
   * "failed" ({message}) | "stopped"; Worker: the constructor (tests pass their own).
   */
  constructor({
    url,
    onState = () => {},
    Worker = globalThis.Worker,
    now = () => performance.now(),
  }) {
    Object.assign(this, { url, onState, Worker, now });
    this.worker = null;
    this.current = null; // {id, recording, resolve}
    this.nextId = 1;
    this.loadMs = null; // how long Python took to load, the last time
  }

  /** Start a worker: Python loads in it (its first Run waits for that). */
  spawn() {
    this.ready = false;
    this.loadMs = null;
    this.onState("loading");
    const worker = new this.Worker(this.url, { type: "module" });
    worker.onmessage = ({ data }) => this.message(data);
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.failed(String(event.message || "worker"));
    };
    this.worker = worker;
  }

  message(data) {
    if (data.type === "ready") {
      this.ready = true;
      this.loadMs = data.ms;
      this.onState("ready", data);
      return;
    }
    if (data.type === "failed") {
      this.failed(data.message);
      return;
    }
    const run = this.current;
    if (!run || data.id !== run.id) return;
    if (data.type === "chunk") run.recording.push(data.events, data.lines);
    else if (data.type === "done") this.finish({ ...data.result, ms: data.ms });
  }

  failed(message) {
    this.ready = false;
    this.onState("failed", { message });
    this.finish({ status: "error", code: "crash", params: {}, message });
    this.worker?.terminate();
    this.worker = null;
  }

  /**
   * Run `source` on rows x cols from [row, col]: resolves to the Recording once the program
   * ended (its `result` set: lab_recorder.run's, with `ms`), was stopped or failed.
   * `budget`: the board writes it may record (a class check asks for fewer).
   */
  run({ source, rows, cols, start: [row, col], budget = BUDGET }) {
    if (!this.worker) this.spawn();
    this.current?.resolve?.(null);
    const id = this.nextId++;
    const recording = new Recording({ rows, cols, start: row * cols + col });
    const done = new Promise((resolve) => {
      this.current = { id, recording, resolve };
    });
    this.onState("running");
    this.worker.postMessage({
      type: "run",
      id,
      source,
      rows,
      cols,
      startRow: row,
      startCol: col,
      budget,
      chunk: CHUNK,
    });
    return done;
  }

  finish(result) {
    const run = this.current;
    if (!run) return;
    this.current = null;
    run.recording.result = result;
    run.resolve(run.recording);
    if (this.worker) this.onState(this.ready ? "ready" : "loading");
  }

  /** End the running program now: its worker goes, a fresh one loads. */
  stop() {
    if (!this.current) return;
    this.worker?.terminate();
    this.worker = null;
    this.finish({ status: "stopped", params: {} });
    this.spawn();
    this.onState("stopped");
  }

  get running() {
    return this.current !== null;
  }
}
