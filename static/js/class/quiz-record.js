// The teacher's record of the lesson (server/web/class_record.py): its forms post the
// teacher's token in their body (never in a URL, a log or a Referer), the teacher's clock
// for the times, and the page's language. The CSV downloads; the printable page opens in a
// tab of its own.

import { getLang } from "../core/i18n.js";

/** Fill each record form of `root` at its submit: `token()` is the room's secret. */
export function bindRecordForms(root, token, { now = () => new Date() } = {}) {
  for (const form of root.querySelectorAll(".q-record-form")) {
    form.addEventListener("submit", () => {
      form.elements.token.value = token() ?? "";
      form.elements.offset.value = String(-now().getTimezoneOffset());
      const action = new URL(form.getAttribute("action"), location.href);
      action.searchParams.set("lang", getLang());
      form.action = action.pathname + action.search;
    });
  }
}
