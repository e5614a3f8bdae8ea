// The code panel's listings (lanes/code-listings.js): every ordering in every language and
// variant has one, with the lines its events light, the lines that differ between the
// article's program as written and corrected exactly where the bug is, and every comment in
// both languages.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ARTICLE_ORDERINGS,
  LANGUAGES,
  listingFor,
  orderingFor,
  parseListing,
} from "../../static/js/lanes/code-listings.js";
import { A000 } from "../../static/js/lanes/listings/a000.js";
import { A001 } from "../../static/js/lanes/listings/a001.js";
import { A002 } from "../../static/js/lanes/listings/a002.js";
import { A003 } from "../../static/js/lanes/listings/a003.js";
import { OURS } from "../../static/js/lanes/listings/ours.js";
import { codeTags } from "../../static/js/lanes/position.js";

const CJK = /[\u3000-\u9fff\uff00-\uffef]/;
const TEXTS = { A000, A001, A002, A003, OURS };
const ORDERINGS = ["seed", "warnsdorff", ...Object.keys(ARTICLE_ORDERINGS)];
const VOCABULARY = new Set([
  "start",
  "mark",
  "next",
  "sort",
  "sort-def",
  "loop",
  "recurse",
  "check",
  "reset",
  "finish",
]);
const tagsOf = (line) => line.tag.split(" ").filter(Boolean);
const codes = (lines) => lines.map((line) => line.code.trim());

for (const [name, texts] of Object.entries(TEXTS)) {
  test(`${name}: every language parses, its tags known, its code in no language`, () => {
    assert.deepEqual(Object.keys(texts).sort(), [...LANGUAGES].sort());
    for (const [language, text] of Object.entries(texts)) {
      const lines = parseListing(text);
      assert.ok(lines.length > 15, `${name} ${language}`);
      for (const line of lines) {
        assert.doesNotMatch(line.code, /@@/, `${name} ${language}: ${line.code}`);
        assert.doesNotMatch(line.code, CJK, `a comment written into the code: ${line.code}`);
        for (const { tag } of line.tags) assert.ok(VOCABULARY.has(tag), `${name}: ${tag}`);
        if (!line.comment) continue;
        assert.match(line.comment.zh, CJK, `no Chinese: ${line.comment.zh}`);
        assert.ok(line.comment.en, `no English for ${line.comment.zh}`);
        assert.doesNotMatch(line.comment.en, CJK, `Chinese in the English: ${line.comment.en}`);
      }
    }
  });
}

test("every ordering, language and variant lights a line for every event it streams", () => {
  const move = codeTags({ move: 7, back: -1, candidates: [7, 9] }).split(" ");
  const root = codeTags({ move: 7, back: -1, candidates: [] }).split(" ");
  const back = codeTags({ move: -1, back: 7, candidates: [] }).split(" ");
  assert.deepEqual([move[0], root[0], back[0]], ["mark", "start", "reset"]);
  for (const ordering of ORDERINGS) {
    for (const language of LANGUAGES) {
      for (const variant of ["written", "corrected"]) {
        const lines = listingFor(ordering, language, variant);
        const where = `${ordering} ${language} ${variant}`;
        const tagged = (tag) => lines.filter((line) => tagsOf(line).includes(tag));
        for (const tag of ["start", "mark", "reset", "finish", "next", "recurse"]) {
          assert.ok(tagged(tag).length >= 1, `${where}: no line tagged ${tag}`);
        }
        for (const line of tagged("mark").concat(tagged("reset"), tagged("start"))) {
          assert.ok(line.code.trim(), `${where}: a comment line tagged ${line.tag}`);
        }
        // the sort lights where the program sorts: the Java articles and ours with Warnsdorff
        const sorts = ordering !== "seed" && !ordering.startsWith("a003");
        assert.equal(tagged("sort").length > 0, sorts, `${where}: sort`);
      }
    }
  }
});

test("an ordering shows its own variant unless asked; the switch goes to its twin", () => {
  for (const [ordering, { variant, twin, language }] of Object.entries(ARTICLE_ORDERINGS)) {
    assert.deepEqual(listingFor(ordering, language), listingFor(ordering, language, variant));
    assert.equal(orderingFor(ordering, variant), ordering);
    const other = variant === "written" ? "corrected" : "written";
    assert.equal(orderingFor(ordering, other), twin);
    assert.deepEqual(listingFor(ordering, language, other), listingFor(twin, language));
  }
  assert.equal(orderingFor("seed", "corrected"), "seed");
  assert.ok(listingFor("seed", "c").every((line) => !line.changed));
  assert.ok(!codes(listingFor("seed", "c")).some((code) => code.startsWith("sort(")));
  assert.ok(codes(listingFor("warnsdorff", "c")).includes("sort(nx, ny, n);"));
});

// The code lines (not comments) marked as differing from the other variant.
const changed = (ordering, language) =>
  codes(listingFor(ordering, language).filter((line) => line.changed && line.code.trim()));

test("article 000 and 002: the marked lines are the sort's count, static or unvisited", () => {
  assert.deepEqual(changed("a000-java", "java"), [
    "int way1 = findWay(o1).size();",
    "int way2 = findWay(o2).size();",
  ]);
  assert.deepEqual(changed("a000-java", "python"), ["ps.sort(key=lambda p: len(findWay(p)))"]);
  assert.deepEqual(changed("a000-java", "c"), [
    "Point tmp[8];",
    "for (int j = i; j > 0 && findWay(ps[j], tmp) < findWay(ps[j - 1], tmp); j--)",
  ]);
  assert.deepEqual(changed("a002-java", "java"), ["return next(o1).size() - next(o2).size();"]);
  assert.deepEqual(changed("a002-java", "python"), ["ps.sort(key=lambda o: len(next(o)))"]);
  assert.deepEqual(changed("a002-java", "c"), [
    "Point tmp[8];",
    "for (int j = i; j > 0 && next(ps[j], tmp) - next(ps[j - 1], tmp) < 0; j--)",
  ]);
  for (const ordering of ["a000-java-fixed", "a002-java-fixed"]) {
    for (const language of LANGUAGES) {
      const lines = changed(ordering, language);
      // the corrected count, and the function that counts: nothing else
      assert.ok(
        lines.some((code) => /unvisited\((findWay|next|ps)/.test(code)),
        lines,
      );
      assert.ok(
        lines.some((code) => /unvisited\((ArrayList|ps|Point p)/.test(code)),
        lines,
      );
      assert.ok(lines.length <= 10, `${ordering} ${language}: ${lines}`);
      assert.ok(!lines.some((code) => /chess|visit\[row|traversal/.test(code)), lines);
    }
  }
});

test("article 001: the marked lines are the comparator, the landing and the stop", () => {
  assert.deepEqual(changed("a001-python", "python"), [
    "return self.x<N and self.x>=0 and self.y<N and self.y>=0 and (chessBoard[self.x][self.y]==0 or chessBoard[self.x][self.y]==1 and count==N*N+1)",
    "# self.found = True",
    "sv = sorted(v, lambda x,y: x.wayout < y.wayout)",
  ]);
  assert.deepEqual(changed("a001-python-fixed", "python"), [
    "return self.x<N and self.x>=0 and self.y<N and self.y>=0 and (chessBoard[self.x][self.y]==0)",
    "self.found = True",
    "sv = sorted(v, lambda x,y: x.wayout - y.wayout)",
  ]);
  for (const language of ["java", "c"]) {
    const written = changed("a001-python", language);
    const corrected = changed("a001-python-fixed", language);
    assert.equal(written.length, 3, written);
    assert.equal(corrected.length, 3, corrected);
    assert.ok(written.some((code) => code.includes("count==N*N+1")));
    assert.ok(written.some((code) => /^\/\/ found = (true|1);$/.test(code)));
    assert.ok(written.some((code) => code.includes("wayout < y")));
    assert.ok(corrected.some((code) => code.includes("wayout - y")));
  }
});

test("article 003: the loop-based and the stack searches are marked, traverse is not", () => {
  for (const language of LANGUAGES) {
    for (const ordering of ["a003-c", "a003-c-loop", "a003-c-stack"]) {
      const lines = listingFor(ordering, language);
      // a function's definition (not its prototype) and the lines after it
      const at = (name) =>
        lines.findIndex(
          (l) =>
            new RegExp(`^\\s*(static )?(int|def) ${name}\\(`).test(l.code) &&
            !l.code.trim().endsWith(";"),
        );
      const body = (start) => lines.slice(start, start + 12);
      const traverse = at("traverse");
      assert.ok(traverse >= 0, `${ordering} ${language}: traverse is shown`);
      assert.ok(!body(traverse).some((l) => l.changed), `${ordering} ${language}: traverse`);
      const own = ordering === "a003-c-stack" ? "traverse_stack" : "traverse_chess";
      const shown = at(own);
      assert.ok(shown >= 0 && body(shown).every((l) => l.changed || !l.code.trim()), own);
      assert.ok(at("next") >= 0 && !body(at("next")).some((l) => l.changed), "next()");
    }
    // each ordering lights its own search
    const marks = (ordering) =>
      codes(listingFor(ordering, language).filter((l) => tagsOf(l).includes("mark")));
    assert.equal(marks("a003-c").length, 1);
    assert.notDeepEqual(marks("a003-c"), marks("a003-c-loop"));
    assert.notDeepEqual(marks("a003-c"), marks("a003-c-stack"));
  }
});
