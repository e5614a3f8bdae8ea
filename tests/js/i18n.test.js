import assert from "node:assert/strict";
import { test } from "node:test";
import {
  formatNumber,
  formatTime,
  getLang,
  has,
  htmlLang,
  loadCatalogue,
  t,
  useCatalogue,
} from "../../static/js/core/i18n.js";

test("t fills placeholders and leaves unknown ones and unknown keys as they are", () => {
  useCatalogue("en", { "a.b": "Try {square} ({n} onward moves){missing}" });
  assert.equal(t("a.b", { square: "e1", n: 2 }), "Try e1 (2 onward moves){missing}");
  assert.equal(t("no.such.key"), "no.such.key");
  assert.equal(has("a.b"), true);
  assert.equal(has("no.such.key"), false);
});

test("formatTime counts minutes, then hours", () => {
  assert.equal(formatTime(0), "0:00");
  assert.equal(formatTime(75.9), "1:15");
  assert.equal(formatTime(3723), "1:02:03");
  assert.equal(formatTime(-5), "0:00");
});

test("formatNumber follows the language", () => {
  useCatalogue("en", {});
  assert.equal(formatNumber(1234567), "1,234,567");
  useCatalogue("zh", {});
  assert.equal(formatNumber(1234567), "1,234,567");
  assert.equal(htmlLang(), "zh-CN");
  assert.equal(htmlLang("en"), "en");
});

test("formatNumber writes every number as Intl.NumberFormat does, in both languages", () => {
  const numbers = [0, 7, -7, 999, 1000, -1000, 12345, 1234567, 1_000_000, 354060, 0.5, 1.25];
  numbers.push(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60, 1e21);
  for (let n = 1; n < 1e15; n = n * 7 + 3) numbers.push(n, -n);
  for (const lang of ["zh", "en"]) {
    useCatalogue(lang, {});
    const intl = new Intl.NumberFormat(htmlLang());
    for (const n of numbers) assert.equal(formatNumber(n), intl.format(n), `${lang} ${n}`);
  }
});

test("loadCatalogue asks the server for the language and makes it current", async () => {
  const asked = [];
  const fetch = async (url) => {
    asked.push(url);
    return { ok: true, json: async () => ({ lang: "en", messages: { hello: "Hello {name}" } }) };
  };
  await loadCatalogue("en", { fetch });
  assert.deepEqual(asked, ["/api/i18n?lang=en"]);
  await loadCatalogue("en", { fetch, version: "0123abcd" }); // the address the page preloaded
  assert.deepEqual(asked.at(-1), "/api/i18n?lang=en&v=0123abcd");
  assert.equal(getLang(), "en");
  assert.equal(t("hello", { name: "Ann" }), "Hello Ann");
});

test("loadCatalogue refuses an error answer and keeps the catalogue it had", async () => {
  useCatalogue("zh", { hello: "你好" });
  const fetch = async () => ({ ok: false, status: 500 });
  await assert.rejects(loadCatalogue("en", { fetch }), /catalogue 500/);
  assert.equal(getLang(), "zh");
  assert.equal(t("hello"), "你好");
});
