// The class quiz panel's lists (quiz-render.js draws the rest): the answers chosen, most
// chosen first (the tally, the reveal's distribution, a peer question's first vote), how
// the class moved between two votes, and the why in words. Elements in, elements out; the
// words come from quiz-kinds.js and quiz-why.js.

import { formatNumber, t } from "../core/i18n.js";
import { ruleOf } from "../core/orderings.js";
import { whyOrder } from "./quiz-board.js";
import { answerText, kindOf } from "./quiz-kinds.js";
import { whyLines } from "./quiz-why.js";

/**
 * Fill `list` with `counts` ([[value, students], ...]) or hide it; `right` and `mine` are
 * marked (null: none).
 */
export function drawCounts(list, counts, { question, name, right = null, mine = null }) {
  list.hidden = !question || !counts?.length;
  list.replaceChildren(
    ...(counts || []).map(([value, n]) => {
      const item = document.createElement("li");
      const square = answerText(question, value, name);
      item.textContent = t("class.quiz.chose", { square, n: formatNumber(n) });
      item.dataset.square = String(value); // a value of any kind: the tests read it
      item.dataset.count = String(n);
      if (right !== null && value === right) item.dataset.right = "true";
      if (value === mine) item.dataset.mine = "true";
      return item;
    }),
  );
}

/** A peer question's move between the votes, in one sentence (hidden without one). */
export function drawMoves(line, moves) {
  line.hidden = !moves;
  if (!moves) return;
  const { shift } = moves;
  line.textContent = t("class.quiz.moves", {
    wrong_right: formatNumber(shift.wrong_right),
    right_wrong: formatNumber(shift.right_wrong),
    right_right: formatNumber(shift.right_right),
    wrong_wrong: formatNumber(shift.wrong_wrong),
  });
  for (const [key, n] of Object.entries(shift)) line.dataset[camel(key)] = String(n);
}

const camel = (key) => key.replace(/_(\w)/g, (_, c) => c.toUpperCase());

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
