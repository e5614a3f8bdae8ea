// The code panel: the listing of the search being shown (code-listings.js) in Java, Python
// or C, the line the current event executes lit, the comments in the page's language. For
// an article's ordering, a switch between the program as the article wrote it and
// corrected, the lines where the two differ marked in the margin.

import { getLang } from "../core/i18n.js";
import { ARTICLE_ORDERINGS, listingFor, orderingFor, variantOf } from "./code-listings.js";

const KEYWORDS = new Set(
  (
    "static void int long boolean if else while for in return new def not and or True False " +
    "lambda class public private final switch case break default match struct typedef " +
    "global import from package print"
  ).split(" "),
);
const TYPES = new Set(["ArrayList", "Point", "ChessNode", "Comparator", "String"]);
const MARKERS = { java: "//", python: "#", c: "//" };

export class CodePanel {
  constructor(root) {
    this.root = root;
    this.pre = root.querySelector(".w-code");
    this.language = "java";
    this.algorithm = "seed";
    this.variant = null;
    this.written = {}; // per article, the as-written ordering last shown (a003 has two)
    this.tags = "";
    this.lines = [];
    this.first = null; // the lit line kept in sight
    // A box that was hidden (another panel's tab) or resized (the projector view) shows the
    // lit line again: the lines did not change, so highlight() would not scroll.
    if (globalThis.ResizeObserver) {
      const observer = new ResizeObserver(() => this.scrollToLit());
      observer.observe(this.pre.parentElement); // the box: shown, or its place resized
      observer.observe(this.pre); // the lines: a larger font moves the lit one
    }
    /** Called with the ordering id of the variant the reader switched to. */
    this.onVariant = null;
    for (const tab of root.querySelectorAll("[data-code]")) {
      tab.addEventListener("click", () => {
        this.language = tab.dataset.code;
        this.render();
      });
    }
    for (const button of root.querySelectorAll("[data-variant]")) {
      button.addEventListener("click", () => this.switchVariant(button.dataset.variant));
    }
  }

  /** Show `algorithm`'s listing, in its own variant (none: the same again, in the page's
   * language now, in the variant the reader chose). An article's ordering shows first in
   * the article's own language. */
  configure({ algorithm } = {}) {
    if (algorithm === undefined) {
      this.render();
      return;
    }
    const entry = ARTICLE_ORDERINGS[algorithm];
    if (entry && ARTICLE_ORDERINGS[this.algorithm]?.article !== entry.article) {
      this.language = entry.language;
    }
    if (entry?.variant === "written") this.written[entry.article] = algorithm;
    this.algorithm = algorithm;
    this.variant = variantOf(algorithm);
    this.render();
  }

  /** The reader's switch: show the other variant and tell the page which ordering it is. */
  switchVariant(variant) {
    if (!this.variant || variant === this.variant) return;
    this.variant = variant;
    this.render();
    this.onVariant?.(this.shownOrdering());
  }

  /** The ordering whose listing is on screen: the configured one, or its twin. */
  shownOrdering() {
    const entry = ARTICLE_ORDERINGS[this.algorithm];
    if (!entry || this.variant === entry.variant) return this.algorithm;
    if (this.variant === "written") return this.written[entry.article] ?? entry.twin;
    return orderingFor(this.algorithm, this.variant);
  }

  render() {
    for (const tab of this.root.querySelectorAll("[data-code]")) {
      tab.setAttribute("aria-selected", String(tab.dataset.code === this.language));
    }
    const switcher = this.root.querySelector(".w-variant");
    if (switcher) switcher.hidden = !this.variant;
    for (const button of this.root.querySelectorAll("[data-variant]")) {
      button.setAttribute("aria-pressed", String(button.dataset.variant === this.variant));
    }
    this.root.classList.toggle("w-construct", this.algorithm === "construct");
    this.root.dataset.ordering = this.shownOrdering();
    const marker = MARKERS[this.language];
    const fragment = document.createDocumentFragment();
    this.lines = [];
    let block = false; // inside a /* */ comment
    for (const { code, tag, comment, style, changed } of listingFor(
      this.shownOrdering(),
      this.language,
    )) {
      const line = document.createElement("span");
      // The indentation is a margin, not spaces: a line too long for the panel wraps under
      // its own code, further in, never at its indentation (watch.css).
      const text = code.trimStart();
      const opens = text.startsWith("/*");
      // a comment's line (a block comment's too): the projector view hides them
      const note = !text || block || opens;
      line.className = note ? "w-code-line w-code-note" : "w-code-line";
      if (changed) line.classList.add("w-code-changed");
      line.style.setProperty("--indent", String(code.length - text.length));
      if (tag) line.dataset.tag = tag;
      line.append(...highlight(text, marker, block || opens));
      if (opens && !text.includes("*/")) block = true;
      if (text.includes("*/")) block = false;
      if (comment) line.append(commentNode(comment, text, marker, style));
      line.append("\n");
      fragment.append(line);
      this.lines.push(line);
    }
    this.pre.replaceChildren(fragment);
    const tags = this.tags;
    this.tags = "";
    this.highlight(tags);
  }

  /** Light the lines of `tags` ("mark recurse next sort", "reset check", "finish" or ""):
   * a line lights when one of its tags is among them, the first tag's lines the most. */
  highlight(tags) {
    if (tags === this.tags) return;
    this.tags = tags;
    const on = new Set(tags.split(" ").filter(Boolean));
    const primary = tags.split(" ")[0];
    let first = null;
    let main = null;
    for (const line of this.lines) {
      const own = line.dataset.tag ? line.dataset.tag.split(" ") : [];
      const lit = own.some((tag) => on.has(tag));
      const isMain = lit && own.includes(primary);
      line.classList.toggle("w-lit", lit);
      line.classList.toggle("w-lit-main", isMain);
      if (lit && !first) first = line;
      if (isMain && !main) main = line;
    }
    this.first = main ?? first; // the statement the event executes, else any lit line
    this.scrollToLit();
  }

  /**
   * Bring the lit line into the upper third of the box when it is out of sight or far
   * from there (a line near it stays put: the code does not jump at every event).
   */
  scrollToLit() {
    const { first } = this;
    const box = this.pre.parentElement;
    if (!first || !box.clientHeight) return; // nothing lit, or the panel is hidden
    const top = first.offsetTop - box.clientHeight / 3;
    const hidden =
      first.offsetTop < box.scrollTop ||
      first.offsetTop + first.offsetHeight > box.scrollTop + box.clientHeight;
    if (hidden || Math.abs(box.scrollTop - top) > box.clientHeight / 3) {
      box.scrollTop = Math.max(0, top);
    }
  }
}

/** A line's comment in the page's language, with its marker ("// ..."), bare (inside a
 * block comment), or as Java's one-line doc comment. */
function commentNode(comment, text, marker, style) {
  const note = document.createElement("span");
  note.className = "w-tok-comment";
  const words = comment[getLang()] ?? comment.en;
  const lead = text ? "  " : "";
  if (style === "bare") note.textContent = `${lead}${words}`;
  else if (style === "doc") note.textContent = `${lead}/** ${words} */`;
  else note.textContent = `${lead}${marker} ${words}`;
  return note;
}

/** Minimal syntax colouring: comments, keywords, types and numbers. */
function highlight(code, marker, inComment) {
  if (inComment) return code ? [commentSpan(code)] : [];
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
  if (comment) parts.push(commentSpan(comment));
  return parts;
}

function commentSpan(text) {
  const span = document.createElement("span");
  span.className = "w-tok-comment";
  span.textContent = text;
  return span;
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
