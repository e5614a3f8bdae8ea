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

test("loadCatalogue asks the server for the language and makes it current", async () => {
  const asked = [];
  const fetch = async (url) => {
    asked.push(url);
    return { ok: true, json: async () => ({ lang: "en", messages: { hello: "Hello {name}" } }) };
  };
  await loadCatalogue("en", { fetch });
  assert.deepEqual(asked, ["/api/i18n?lang=en"]);
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
