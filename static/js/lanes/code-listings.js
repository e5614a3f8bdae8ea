// The code panel's listings (the texts are in listings/): our clean rewrite for the built-in
// orderings, and each article's own program for its orderings, in Java, Python and C.
//
// A line may end in "@@ <words> | 中文 | English". The words are tags naming what the line
// does, so an event lights the lines it corresponds to (lanes/position.js codeTags: start,
// mark, next, sort, loop, recurse, check, reset, finish), and modifiers:
//   written / corrected   the line is in that variant of the article's program only;
//   only=<id>,<id>        the line is in these orderings' listing only;
//   tag@<id>,<id>         the tag holds for these orderings only (the C article's listing
//                         shows traverse and traverse_chess; each ordering lights its own);
//   for=<id>,<id>         the same for every tag of the line (useful in a section);
//   bare / doc            the comment is shown without a marker (inside a /* */ block), or
//                         as Java's one-line /** ... */.
// A line of its own "@@ ... | 中文 | English" is a comment line: its indentation is kept and
// every word of every comment is in both languages. A line "@@@ <modifiers>" gives its
// modifiers to every line after it, up to "@@@ end"; it is not shown.

import { A000 } from "./listings/a000.js";
import { A001 } from "./listings/a001.js";
import { A002 } from "./listings/a002.js";
import { A003 } from "./listings/a003.js";
import { OURS } from "./listings/ours.js";

export const LANGUAGES = ["java", "python", "c"];

/**
 * The articles' orderings (server/engine/articles.py): each one's article, the article's
 * own language, its variant, and its twin in the other variant (the switch's target).
 */
export const ARTICLE_ORDERINGS = {
  "a000-java": { article: "a000", language: "java", variant: "written", twin: "a000-java-fixed" },
  "a000-java-fixed": {
    article: "a000",
    language: "java",
    variant: "corrected",
    twin: "a000-java",
  },
  "a001-python": {
    article: "a001",
    language: "python",
    variant: "written",
    twin: "a001-python-fixed",
  },
  "a001-python-fixed": {
    article: "a001",
    language: "python",
    variant: "corrected",
    twin: "a001-python",
  },
  "a002-java": { article: "a002", language: "java", variant: "written", twin: "a002-java-fixed" },
  "a002-java-fixed": {
    article: "a002",
    language: "java",
    variant: "corrected",
    twin: "a002-java",
  },
  "a003-c": { article: "a003", language: "c", variant: "written", twin: "a003-c-stack" },
  "a003-c-loop": { article: "a003", language: "c", variant: "written", twin: "a003-c-stack" },
  "a003-c-stack": { article: "a003", language: "c", variant: "corrected", twin: "a003-c" },
};

const TEXTS = { a000: A000, a001: A001, a002: A002, a003: A003, ours: OURS };
const MODIFIER = /^(written|corrected|bare|doc|only=.+|for=.+)$/;
const parsed = new Map();

/** A listing's text -> its lines as {code, tags: [{tag, for}], comment, variant, only, style}. */
export function parseListing(text) {
  const lines = [];
  let section = [];
  for (const raw of text.slice(1, -1).split("\n")) {
    if (raw.trim().startsWith("@@@")) {
      const words = raw.trim().slice(3).trim().split(/\s+/);
      section = words[0] === "end" ? [] : words;
      continue;
    }
    const at = raw.search(/(^|\s+)@@ /);
    let code = raw;
    let words = [];
    let comment = null;
    if (at >= 0) {
      const [head, zh, en] = raw.slice(raw.indexOf("@@ ", at) + 3).split(/\s*\|\s*/);
      words = head.trim().split(/\s+/).filter(Boolean);
      if (zh) comment = { zh, en };
      // a comment line keeps its indentation
      code = raw.slice(0, at).trim() ? raw.slice(0, at) : raw.slice(0, raw.indexOf("@@"));
    }
    lines.push({ ...lineOf(code, [...section, ...words], comment), source: lines.length });
  }
  return lines;
}

function lineOf(code, words, comment) {
  const line = { code, tags: [], comment, variant: null, only: null, style: "" };
  let scope = null;
  for (const word of words) {
    if (!MODIFIER.test(word)) {
      const [tag, ids] = word.split("@");
      line.tags.push({ tag, for: ids ? ids.split(",") : null });
    } else if (word === "written" || word === "corrected") line.variant = word;
    else if (word === "bare" || word === "doc") line.style = word;
    else if (word.startsWith("for=")) scope = word.slice(4).split(",");
    else line.only = word.slice(5).split(",");
  }
  for (const tag of line.tags) tag.for ??= scope;
  return line;
}

function parsedText(article, language) {
  const key = `${article}/${language}`;
  if (!parsed.has(key)) parsed.set(key, parseListing(TEXTS[article][language]));
  return parsed.get(key);
}

/** The ordering a listing shows: `ordering` itself, or its twin in the other `variant`. */
export function orderingFor(ordering, variant) {
  const entry = ARTICLE_ORDERINGS[ordering];
  if (!entry || !variant || entry.variant === variant) return ordering;
  return entry.twin;
}

/** "written" | "corrected" for an article's ordering, null for the built-in ones. */
export function variantOf(ordering) {
  return ARTICLE_ORDERINGS[ordering]?.variant ?? null;
}

/**
 * The lines the panel shows for `ordering` in `language` ("java" | "python" | "c"), in
 * `variant` ("written" | "corrected"; default: the ordering's own): each
 * {code, tag ("" or space-separated), comment {zh, en} | null, style, changed}, where
 * `changed` marks a line that differs from the other variant's listing (where the bug is).
 */
export function listingFor(ordering, language, variant = null) {
  const entry = ARTICLE_ORDERINGS[ordering];
  if (!entry) return ours(ordering, language);
  const shown = orderingFor(ordering, variant);
  const lines = resolve(entry.article, language, shown);
  const other = resolve(entry.article, language, ARTICLE_ORDERINGS[shown].twin);
  markChanged(lines, other);
  return lines;
}

function ours(ordering, language) {
  // Warnsdorff's sort (lines tagged sort / sort-def) belongs to that ordering only; its
  // onward counts are Warnsdorff's (unvisited squares), as the engine's are.
  const sorted = ordering === "warnsdorff";
  return parsedText("ours", language)
    .filter((line) => sorted || !line.tags.some(({ tag }) => tag.startsWith("sort")))
    .map((line) => shownLine(line, ordering));
}

function resolve(article, language, ordering) {
  const { variant } = ARTICLE_ORDERINGS[ordering];
  return parsedText(article, language)
    .filter((line) => !line.variant || line.variant === variant)
    .filter((line) => !line.only || line.only.includes(ordering))
    .map((line) => shownLine(line, ordering));
}

function shownLine(line, ordering) {
  const tags = line.tags.filter((t) => !t.for || t.for.includes(ordering)).map((t) => t.tag);
  const { code, comment, style, source } = line;
  return { code, tag: tags.join(" "), comment, style, source, changed: false };
}

/** Mark the lines of `lines` that the `other` variant's listing does not have (blank lines
 * aside): where the two programs differ. */
function markChanged(lines, other) {
  const shared = new Set(other.map((line) => line.source));
  for (const line of lines) {
    line.changed = !shared.has(line.source) && Boolean(line.code.trim() || line.comment);
  }
}
