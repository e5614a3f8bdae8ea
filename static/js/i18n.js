// The browser's copy of the server catalogue (GET /api/i18n): every visible word
// comes from it, so the page and the API never disagree.

const HTML_LANG = { zh: "zh-CN", en: "en" };
let lang = document.body.dataset.lang === "en" ? "en" : "zh";
let messages = {};

export function getLang() {
  return lang;
}

/** Fetch the catalogue for `next` ("zh" | "en") and make it current. */
export async function loadCatalogue(next = lang) {
  const response = await fetch(`/api/i18n?lang=${encodeURIComponent(next)}`, {
    headers: { Accept: "application/json" },
  });
  if (!response.ok) throw new Error(`catalogue ${response.status}`);
  const data = await response.json();
  messages = data.messages ?? data.catalogue ?? data;
  lang = next;
}

/** The message `key` with `{name}` placeholders filled from `params`. */
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

/** Remember the choice (cookie read by every page and API call) and mark the document. */
export function setLang(next) {
  lang = next;
  document.cookie = `lang=${next}; path=/; max-age=31536000; samesite=lax`;
  document.documentElement.lang = HTML_LANG[next];
  document.body.dataset.lang = next;
  for (const link of document.querySelectorAll("[data-lang-choice]")) {
    if (link.dataset.langChoice === next) link.setAttribute("aria-current", "true");
    else link.removeAttribute("aria-current");
  }
}

/** Re-translate every element marked with data-i18n / data-i18n-aria-label. */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-aria-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nAriaLabel));
  }
  const other = lang === "zh" ? ["Knight's Tour Studio", "en"] : ["马踏棋盘", "zh-CN"];
  document.title = `${t("ui.title")} · ${other[0]}`;
  for (const el of root.querySelectorAll("[data-other-name]")) {
    el.textContent = other[0];
    el.lang = other[1];
  }
}

/** Chess name of a square: a1 is bottom-left, files are columns, ranks count from the bottom. */
export function squareName(row, col, rows) {
  return `${String.fromCharCode(97 + col)}${rows - row}`;
}

/** 75.2 -> "1:15"; an hour or more -> "1:02:03". */
export function formatTime(seconds) {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

export function formatNumber(n) {
  return new Intl.NumberFormat(HTML_LANG[lang]).format(n);
}
