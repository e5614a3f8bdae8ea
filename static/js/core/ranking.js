// A leaderboard list (Play's, the daily puzzle's): names as plain text, never markup.

import { formatTime, t } from "../core/i18n.js";

export function fillRanking(list, entries) {
  const items = entries.map((entry) => {
    const li = document.createElement("li");
    const extra = entry.hints
      ? t("ui.lb.hints", { n: entry.hints })
      : t("ui.lb.moves", { n: entry.moves ?? "" });
    li.append(
      span("lb-name", entry.name),
      span("lb-extra", extra),
      span("lb-time", formatTime(entry.seconds ?? 0)),
    );
    return li;
  });
  if (!items.length) {
    const li = document.createElement("li");
    li.className = "lb-empty";
    li.textContent = t("ui.lb.empty");
    items.push(li);
  }
  list.replaceChildren(...items);
}

function span(className, text) {
  const el = document.createElement("span");
  el.className = className;
  el.textContent = text;
  return el;
}
