// The level map (/levels): the server draws the chapters and tiles with the player's stars;
// this module only moves progress between devices (export a signed code, import one).

import { ApiError } from "../core/api.js";
import { t } from "../core/i18n.js";
import { startLanguage } from "../core/language.js";

const $ = (selector) => document.querySelector(selector);
const result = $("#lv-transfer-result");

async function call(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(data?.error ?? String(response.status), response.status);
  return data;
}

function say(message) {
  result.textContent = message;
}

$("#lv-export").addEventListener("click", async () => {
  try {
    const { code } = await call("GET", "/api/levels/export");
    const field = $("#lv-code");
    field.value = code;
    field.hidden = false;
    field.select();
    try {
      await navigator.clipboard.writeText(code);
      say(t("levels.exported.copied"));
    } catch {
      say(t("levels.exported"));
    }
  } catch (err) {
    say(err instanceof ApiError ? err.message : t("ui.error.network"));
  }
});

$("#lv-import-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const code = $("#lv-import-code").value.trim();
  if (!code) return;
  try {
    await call("POST", "/api/levels/import", { code });
    say(t("levels.imported"));
    location.reload(); // the server draws the map with the merged progress
  } catch (err) {
    say(err instanceof ApiError ? err.message : t("ui.error.network"));
  }
});

startLanguage().then(() => {
  document.body.dataset.ready = "true";
});
