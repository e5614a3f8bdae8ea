// The algorithm's code (code-listings.js) with the line the current event executes
// highlighted and the comments in the page's language.

import { getLang } from "../core/i18n.js";
import { JAVA, PYTHON } from "./code-listings.js";

const KEYWORDS = new Set(
  (
    "static void int boolean if else while return new for in def not and or True False " + "lambda"
  ).split(" "),
);
const TYPES = new Set(["ArrayList", "Point"]);

export class CodePanel {
  constructor(root) {
    this.root = root;
    this.pre = root.querySelector(".w-code");
    this.language = "java";
    this.algorithm = "seed";
    this.tags = "";
    this.lines = [];
    for (const tab of root.querySelectorAll("[data-code]")) {
      tab.addEventListener("click", () => {
        this.language = tab.dataset.code;
        this.render();
      });
    }
  }

  /** Show `algorithm`'s variant (none: the same again, in the page's language now). */
  configure({ algorithm = this.algorithm } = {}) {
    this.algorithm = algorithm;
    this.render();
  }

  render() {
    for (const tab of this.root.querySelectorAll("[data-code]")) {
      tab.setAttribute("aria-selected", String(tab.dataset.code === this.language));
    }
    const construct = this.algorithm === "construct";
    this.root.classList.toggle("w-construct", construct);
    const source = this.language === "python" ? PYTHON : JAVA;
    const marker = this.language === "python" ? "#" : "//";
    const fragment = document.createDocumentFragment();
    this.lines = [];
    for (const [code, tag, comment] of source) {
      if (tag.startsWith("sort") && this.algorithm !== "warnsdorff") continue;
      const line = document.createElement("span");
      line.className = code.trim() ? "w-code-line" : "w-code-line w-code-note";
      // The indentation is a margin, not spaces: a line too long for the panel wraps under
      // its own code, further in, never at its indentation (watch.css).
      const text = code.trimStart();
      line.style.setProperty("--indent", String(code.length - text.length));
      if (tag) line.dataset.tag = tag;
      line.append(...highlight(text, marker));
      if (comment) {
        const note = document.createElement("span");
        note.className = "w-tok-comment";
        note.textContent = `${text ? "  " : ""}${marker} ${comment[getLang()] ?? comment.en}`;
        line.append(note);
      }
      line.append("\n");
      fragment.append(line);
      this.lines.push(line);
    }
    this.pre.replaceChildren(fragment);
    const tags = this.tags;
    this.tags = "";
    this.highlight(tags);
  }

  /** Light the lines of `tags` ("mark next sort", "reset", "finish" or ""). */
  highlight(tags) {
    if (tags === this.tags) return;
    this.tags = tags;
    const on = new Set(tags.split(" ").filter(Boolean));
    const primary = tags.split(" ")[0];
    let first = null;
    for (const line of this.lines) {
      const lit = on.has(line.dataset.tag);
      line.classList.toggle("w-lit", lit);
      line.classList.toggle("w-lit-main", lit && line.dataset.tag === primary);
      if (lit && !first) first = line;
    }
    if (first) {
      const box = this.pre.parentElement;
      const top = first.offsetTop - box.clientHeight / 3;
      if (Math.abs(box.scrollTop - top) > box.clientHeight / 3) box.scrollTop = Math.max(0, top);
    }
  }
}

/** Minimal syntax colouring: comments, keywords, types and numbers. */
function highlight(code, marker) {
  const parts = [];
  let text = code;
  let comment = "";
  const at = text.indexOf(marker);
  if (at >= 0) {
    comment = text.slice(at);
    text = text.slice(0, at);
  }
  for (const token of text.split(/(\b\w+\b)/)) {
    if (!token) continue;
    let cls = "";
    if (KEYWORDS.has(token)) cls = "w-tok-kw";
    else if (TYPES.has(token)) cls = "w-tok-type";
    else if (/^\d+$/.test(token)) cls = "w-tok-num";
    if (cls) {
      const span = document.createElement("span");
      span.className = cls;
      span.textContent = token;
      parts.push(span);
    } else {
      parts.push(...breakable(token));
    }
  }
  if (comment) {
    const span = document.createElement("span");
    span.className = "w-tok-comment";
    span.textContent = comment;
    parts.push(span);
  }
  return parts;
}

/** `text` with a place to wrap after each "(": a long call wraps before its arguments, not
 * inside a name. */
function breakable(text) {
  const parts = [];
  for (const [i, piece] of text.split("(").entries()) {
    if (i > 0) parts.push("(", document.createElement("wbr"));
    if (piece) parts.push(piece);
  }
  return parts;
}
