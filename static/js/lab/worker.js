// The code lab's Web Worker: Pyodide (static/vendor/pyodide/) and the recorder
// (static/py/lab_recorder.py with lab_program.py), which runs a student's program with its
// board watched. The page (lab/runner.js) sends `run`; the worker answers with the recorded
// events, a chunk at a time as they fill (each a Uint16Array, or an Int32Array when the
// program writes grids from more lines than 16 bits name, transferred), then `done` with how
// the run ended. A program that never ends is stopped by terminating the worker: nothing
// here needs to cooperate, and the chunks posted so far are the page's.
//
// Messages to the page: {type: "ready", ms} once Python is loaded; {type: "chunk", id,
// events, lines} (lines: the program's writing lines, which an event names by index,
// lab/recording.js); {type: "done", id, result, ms}; {type: "failed", message}: Pyodide did
// not load.

import { loadPyodide } from "../../vendor/pyodide/pyodide.mjs";

const INDEX = new URL("../../vendor/pyodide/", import.meta.url).href;
const MODULES = ["lab_program", "lab_recorder"]; // static/py/, the recorder importing the other

const started = performance.now();
const ready = boot();

function moduleUrl(name) {
  return new URL(`../../py/${name}.py`, import.meta.url).href;
}

async function boot() {
  const [pyodide, ...sources] = await Promise.all([
    loadPyodide({ indexURL: INDEX, packageBaseUrl: INDEX, stdout: () => {}, stderr: () => {} }),
    ...MODULES.map((name) => fetch(moduleUrl(name)).then((response) => response.text())),
  ]);
  for (const [i, name] of MODULES.entries()) {
    pyodide.FS.writeFile(`/home/pyodide/${name}.py`, sources[i]);
  }
  const recorder = pyodide.pyimport("lab_recorder");
  postMessage({ type: "ready", ms: performance.now() - started });
  return recorder;
}

ready.catch((error) => postMessage({ type: "failed", message: String(error?.message || error) }));

self.onmessage = async ({ data }) => {
  if (data?.type !== "run") return;
  const recorder = await ready;
  const { id, source, rows, cols, startRow, startCol, budget, chunk } = data;
  let table = null; // the program's writing lines, the same for each chunk of the run
  const flush = (packed, size, lines) => {
    const bytes = packed.toJs(); // out of Python's memory, into a buffer of its own
    const events = size === 2 ? new Uint16Array(bytes.buffer) : new Int32Array(bytes.buffer);
    table ??= lines.toJs();
    postMessage({ type: "chunk", id, events, lines: table }, [events.buffer]);
  };
  const began = performance.now();
  const answer = recorder.run(source, rows, cols, startRow, startCol, budget, chunk, flush);
  const ms = performance.now() - began;
  const result = answer.toJs({ dict_converter: Object.fromEntries });
  answer.destroy();
  postMessage({ type: "done", id, result, ms });
};
