// The browser's copy of the server's catalogue (GET /api/i18n): every visible word comes
// from it, so the page and the API never disagree. No DOM here (core/language.js marks the
// document), so every module that speaks can be imported and tested outside a browser.

const HTML_LANG = { zh: "zh-CN", en: "en" };
let lang = "zh";
let messages = {};

export function getLang() {
  return lang;
}

/** The BCP 47 tag of `next` ("zh" -> "zh-CN"), for <html lang> and Intl. */
export function htmlLang(next = lang) {
  return HTML_LANG[next] ?? HTML_LANG.zh;
}

/** Make `catalogue` ({key: template}) the current language's words. */
export function useCatalogue(next, catalogue) {
  lang = next === "en" ? "en" : "zh";
  messages = catalogue;
}

/**
 * Fetch the catalogue for `next` ("zh" | "en") and make it current. With its `version`
 * (the page's data-catalogues) the address is the one the page preloaded, kept by browsers.
 */
export async function loadCatalogue(next, { fetch = globalThis.fetch, version = null } = {}) {
  const kept = version ? `&v=${encodeURIComponent(version)}` : "";
  const response = await fetch(`/api/i18n?lang=${encodeURIComponent(next)}${kept}`, {
    headers: { Accept: "application/json" },
  });
  if (!response.ok) throw new Error(`catalogue ${response.status}`);
  const data = await response.json();
  useCatalogue(next, data.messages ?? data.catalogue ?? data);
}

/** The message `key` with `{name}` placeholders filled from `params`; the key if unknown. */
export function t(key, params = {}) {
  const template = messages[key];
  if (template === undefined) return key;
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    name in params ? String(params[name]) : whole,
  );
}

export function has(key) {
  return key in messages;
}

/** 75.2 -> "1:15"; an hour or more -> "1:02:03". */
export function formatTime(seconds) {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

const numberFormats = new Map(); // one Intl.NumberFormat per language: making one is slow
const GROUPS = /\B(?=(\d{3})+(?!\d))/g;

/**
 * 1234567 -> "1,234,567" in the current language. Both languages group integers by
 * thousands with a comma, so integers are grouped here: a page's first Intl.NumberFormat
 * costs a phone tens of milliseconds of ICU loading before its first frame.
 */
export function formatNumber(n) {
  if (Number.isSafeInteger(n)) return String(n).replace(GROUPS, ",");
  const tag = htmlLang();
  let format = numberFormats.get(tag);
  if (!format) {
    format = new Intl.NumberFormat(tag);
    numberFormats.set(tag, format);
  }
  return format.format(n);
}
