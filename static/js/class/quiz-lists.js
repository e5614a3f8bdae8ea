// The class quiz panel's lists (quiz-render.js draws the rest): the answers chosen, most
// chosen first (the tally, the reveal's distribution, a peer question's first vote) and
// how the class moved between two votes; the why's list is shared (quiz/quiz-why-list.js).
// Elements in, elements out; the words come from quiz/quiz-kinds.js.

import { formatNumber, t } from "../core/i18n.js";
import { answerText } from "../quiz/quiz-kinds.js";

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
