// Shape and puzzle codes in the browser, read and written exactly as server/engine/shape.py
// reads and writes them, so a page can draw a shape's holes and send them as squares (the
// /watch `start`, the class demo's `settings`) and the editor's address holds the text the
// server reads. The server checks everything again. No DOM.
//
//   6x6                 a plain rectangle
//   6x6~IAAAAAA         holes as a little-endian bitmask in unpadded base64url
//   5x5:c3,a1           holes by name (a1 bottom-left)
//   ..#./..../....      art: rows of . (open) and # (a hole), separated by /
//   <shape>.o | .c      a puzzle: open or closed, then .<start name> when the start is fixed

import { nameOf, parseSquare, squareName } from "./squares.js";

export const MAX_SHAPE_SIDE = 20;
const MAX_CODE_LENGTH = 500;

/** A text that is no shape: `code` is the server's (shape-malformed, shape-too-big, ...). */
export class ShapeError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const malformed = (why) => new ShapeError("shape-malformed", why);

function checked(rows, cols, holes) {
  if (rows < 1 || cols < 1 || rows > MAX_SHAPE_SIDE || cols > MAX_SHAPE_SIDE) {
    throw new ShapeError("shape-too-big", `at most ${MAX_SHAPE_SIDE} squares a side`);
  }
  const sorted = [...new Set(holes)].sort((a, b) => a - b);
  if (sorted.length >= rows * cols) throw new ShapeError("shape-empty", "no open square");
  return { rows, cols, holes: sorted };
}

function dims(text) {
  const match = /^(\d{1,4})x(\d{1,4})$/.exec(text);
  if (!match) throw malformed("it must start with the size, e.g. 6x6");
  return [Number(match[1]), Number(match[2])];
}

function fromArt(text) {
  const lines = text.split("/");
  const width = lines[0].length;
  if (lines.length > MAX_SHAPE_SIDE || width > MAX_SHAPE_SIDE) checked(lines.length, width, []);
  if (!width || lines.some((line) => line.length !== width)) {
    throw malformed("every row must be as long as the first");
  }
  const holes = [];
  lines.forEach((line, row) => {
    [...line].forEach((ch, col) => {
      if (ch === "#") holes.push(row * width + col);
      else if (ch !== ".") throw malformed(`${ch} is neither . nor #`);
    });
  });
  return checked(lines.length, width, holes);
}

function fromMask(rows, cols, mask) {
  const bytes = Math.ceil((rows * cols) / 8);
  if (!/^[A-Za-z0-9_-]*$/.test(mask)) throw malformed("the holes are not base64url");
  let raw;
  try {
    raw = atob(mask.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    throw malformed("the holes are not base64url");
  }
  if (raw.length !== bytes) throw malformed(`the holes need ${bytes} bytes`);
  const holes = [];
  for (let i = 0; i < raw.length * 8; i++) {
    if ((raw.charCodeAt(i >> 3) >> (i & 7)) & 1) {
      if (i >= rows * cols) throw malformed("holes beyond the board");
      holes.push(i);
    }
  }
  return checked(rows, cols, holes);
}

/** The canonical code: `6x6`, or `6x6~<holes>` (bit = square, little-endian bytes, unpadded
 * base64url); `holes` any iterable of squares. */
export function shapeCode(rows, cols, holes = []) {
  const dims = `${rows}x${cols}`;
  const bytes = new Uint8Array(Math.ceil((rows * cols) / 8));
  let any = false;
  for (const sq of holes) {
    bytes[sq >> 3] |= 1 << (sq & 7);
    any = true;
  }
  if (!any) return dims;
  const base64 = btoa(String.fromCharCode(...bytes));
  return `${dims}~${base64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")}`;
}

/** `<shape code>.o` or `.c`, then `.<start>` (its chess name) when `start` (a square) is fixed. */
export function puzzleCode(rows, cols, holes, closed, start = null) {
  const fixed = start !== null && start >= 0;
  const name = fixed ? `.${nameOf(start, rows, cols)}` : "";
  return `${shapeCode(rows, cols, holes)}.${closed ? "c" : "o"}${name}`;
}

/** A shape as people write it: `6x6` or `6x6:a1,c3` (holes by name), which parseShape reads. */
export function shapeText(rows, cols, holes = []) {
  if (!holes.length) return `${rows}x${cols}`;
  const names = [...holes].sort((a, b) => a - b);
  return `${rows}x${cols}:${names.map((sq) => squareName(Math.floor(sq / cols), sq % cols, rows)).join(",")}`;
}

/** A shape ({rows, cols, holes: sorted squares}) from its code, names or art. */
export function parseShape(input) {
  const text = String(input ?? "").trim();
  if (text.length > MAX_CODE_LENGTH) throw new ShapeError("shape-too-big", "too long");
  if (text.includes("/") || (text && /^[.#]+$/.test(text))) return fromArt(text);
  if (text.includes("~")) {
    const [size, mask] = [text.slice(0, text.indexOf("~")), text.slice(text.indexOf("~") + 1)];
    const [rows, cols] = dims(size);
    checked(rows, cols, []);
    return fromMask(rows, cols, mask);
  }
  if (text.includes(":")) {
    const [size, names] = [text.slice(0, text.indexOf(":")), text.slice(text.indexOf(":") + 1)];
    const [rows, cols] = dims(size);
    checked(rows, cols, []);
    const holes = names
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => {
        const at = parseSquare(name, rows, cols);
        if (!at) throw malformed(`${name} is not a square of ${rows}x${cols}`);
        return at[0] * cols + at[1];
      });
    return checked(rows, cols, holes);
  }
  const [rows, cols] = dims(text);
  return checked(rows, cols, []);
}

/**
 * A puzzle code (`<shape>.o|.c[.<start>]`) or a bare shape: {rows, cols, holes, closed, start},
 * where `closed` is null for a bare shape and `start` a square, or null when free.
 */
export function parsePuzzle(input) {
  const text = String(input ?? "").trim();
  const parts = text.split(".");
  const isPuzzle = !text.includes("/") && parts.length <= 3 && ["o", "c"].includes(parts[1]);
  if (!isPuzzle) return { ...parseShape(text), closed: null, start: null };
  const shape = parseShape(parts[0]);
  let start = null;
  if (parts.length === 3) {
    const at = /^[a-z][1-9]\d?$/.test(parts[2]) && parseSquare(parts[2], shape.rows, shape.cols);
    if (!at) throw new ShapeError("start-off-board", `${parts[2]} is not a square`);
    start = at[0] * shape.cols + at[1];
    if (shape.holes.includes(start)) throw new ShapeError("start-on-hole", "the start is a hole");
  }
  return { ...shape, closed: parts[1] === "c", start };
}
