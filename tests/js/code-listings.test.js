// The code panel's listings: every word of a comment in both languages, none in the code.
import assert from "node:assert/strict";
import { test } from "node:test";
import { JAVA, PYTHON } from "../../static/js/lanes/code-listings.js";

const CJK = /[\u3000-\u9fff\uff00-\uffef]/;

for (const [name, listing] of Object.entries({ JAVA, PYTHON })) {
  test(`${name}: the code is in no language, each comment in both`, () => {
    for (const [code, , comment] of listing) {
      assert.doesNotMatch(code, CJK, `a comment written into the code: ${code}`);
      if (!comment) continue;
      assert.match(comment.zh, CJK, `no Chinese: ${comment.zh}`);
      assert.ok(comment.en, `no English for ${comment.zh}`);
      assert.doesNotMatch(comment.en, CJK, `Chinese in the English: ${comment.en}`);
    }
  });
}
