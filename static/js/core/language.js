// The one language switch (中文 / English) and the document's side of i18n.js: the page's
// language, the `lang` cookie every page and API call reads, and the words of the
// server-rendered markup (data-i18n, data-i18n-aria-label), translated again in place.

import { getLang, htmlLang, loadCatalogue, t } from "./i18n.js";

const NAMES = { zh: ["马踏棋盘", "zh-CN"], en: ["Knight's Tour Studio", "en"] };

/** The language the server rendered the page in. */
export function pageLang() {
  return document.body.dataset.lang === "en" ? "en" : "zh";
}

/** Load the page language's catalogue; drop a ?lang= from the address (the cookie has it). */
export async function startLanguage() {
  dropLangFromAddress();
  await loadCatalogue(pageLang(), { version: catalogueVersion(pageLang()) });
}

/** The version of `lang`'s catalogue the server rendered into the page (base.html), or null. */
function catalogueVersion(lang) {
  return JSON.parse(document.body.dataset.catalogues ?? "{}")[lang] ?? null;
}

function dropLangFromAddress() {
  const url = new URL(location.href);
  if (!url.searchParams.has("lang")) return;
  url.searchParams.delete("lang");
  history.replaceState(null, "", url);
}

/** Remember `next` and mark the document with it. */
function markDocument(next) {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from older Safari
  document.cookie = `lang=${next}; path=/; max-age=31536000; samesite=lax`;
  document.documentElement.lang = htmlLang(next);
  document.body.dataset.lang = next;
  for (const link of document.querySelectorAll("[data-lang-choice]")) {
    if (link.dataset.langChoice === next) link.setAttribute("aria-current", "true");
    else link.removeAttribute("aria-current");
  }
}

/** Translate every element marked data-i18n / data-i18n-aria-label, and the title. */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nAriaLabel));
  }
  const other = NAMES[getLang() === "zh" ? "en" : "zh"];
  for (const el of root.querySelectorAll("[data-other-name]")) {
    el.textContent = other[0];
    el.lang = other[1];
  }
  // The Play page names the app in both languages; the others add its English name.
  const key = document.body.dataset.titleKey ?? "ui.title";
  document.title = `${t(key)} · ${key === "ui.title" ? other[0] : NAMES.en[0]}`;
}

/**
 * Switch languages in place when a [data-lang-choice] link is clicked: the catalogue, the
 * static words, then `onSwitch(next)` for what the page drew itself. Should any of it fail,
 * the link's own ?lang= reload does it instead.
 */
export function bindLanguageSwitch(onSwitch) {
  for (const link of document.querySelectorAll("[data-lang-choice]")) {
    link.addEventListener("click", async (event) => {
      event.preventDefault();
      const next = link.dataset.langChoice;
      if (next === getLang()) return;
      try {
        await loadCatalogue(next, { version: catalogueVersion(next) });
        markDocument(next);
        translateStatic();
        await onSwitch(next);
      } catch {
        location.href = link.href;
      }
    });
  }
}
