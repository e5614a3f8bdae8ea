// The why of a question as a list (the class quiz's panel, the practice card on /watch
// and /lesson): a title line, then its squares, from quiz-why.js's words; "where next?"
// lists the candidates in the order the search's program tries them. Elements in,
// elements out.

import { formatNumber, t } from "../core/i18n.js";
import { ruleOf } from "../core/orderings.js";
import { kindOf } from "./quiz-kinds.js";
import { whyLines, whyOrder } from "./quiz-why.js";

/** The why as a list: a title line, then its squares (quiz-why.js; "where next?": whyOrder). */
export function drawWhy(list, question, why, name) {
  const { title, items } =
    kindOf(question) === "next" ? nextWhy(why, name) : whyLines(question, why, name);
  list.hidden = !why || !title;
  list.dataset.algorithm = why?.algorithm ?? "";
  list.dataset.kind = question ? kindOf(question) : "";
  list.setAttribute("aria-label", title || t("class.quiz.why.title"));
  const head = document.createElement("li");
  head.className = "q-why-title";
  head.textContent = title;
  list.replaceChildren(
    ...(title ? [head] : []),
    ...items.map(({ square, text, state }) => {
      const item = document.createElement("li");
      item.dataset.square = String(square);
      item.dataset.state = state;
      item.textContent = text;
      return item;
    }),
  );
}

/** "Where next?": the candidates in the order the demo's program tries them. */
function nextWhy(why, name) {
  const order = whyOrder(why);
  if (!order.length) return { title: "", items: [] };
  return {
    title: t(whyHeading(why?.algorithm ?? "seed")),
    items: order.map(({ square, onward, state }) => ({
      square,
      state,
      text:
        onward === null
          ? name(square)
          : t("class.quiz.why.onward", { square: name(square), n: formatNumber(onward) }),
    })),
  };
}

/** The words above the why's candidates: how the demo's program orders them. */
function whyHeading(algorithm) {
  const { sort } = ruleOf(algorithm);
  if (algorithm === "seed") return "class.quiz.why.seed";
  if (sort === "onward") return "class.quiz.why.warnsdorff";
  return sort === "static" ? "class.quiz.why.static" : "class.quiz.why.order";
}
