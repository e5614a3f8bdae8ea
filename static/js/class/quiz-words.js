// The class quiz's sentences (quiz.js), as plain functions of what the panel shows: how the
// class was moved for a question, and the panel's status line. No DOM here.

import { formatNumber, t } from "../core/i18n.js";
import { answerText, answerWay, promptWords } from "../quiz/quiz-kinds.js";
import { outcome } from "./quiz-board.js";

const MOVED_REASONS = new Set(["backtrack", "sent-ahead", "root", "behind", "fits"]);
const CLOSED_PHASES = new Set(["tally", "discuss"]); // a peer question between its votes

/** How the class was moved for the question (`moved`, the ask's answer), or "": not moved. */
export function movedWords(moved, role) {
  if (!moved) return "";
  const to = formatNumber(moved.to);
  if (role === "student") return t("class.quiz.moved.student", { to });
  const head = t(moved.play ? "class.quiz.moved.play" : "class.quiz.moved.jump", { to });
  if (!MOVED_REASONS.has(moved.reason)) return t("class.quiz.moved.only", { head });
  return t("class.quiz.moved", { head, reason: t(`class.quiz.moved.${moved.reason}`) });
}

/**
 * The panel's status line for the server's `view` of the question: `role` teacher or
 * student, `place` where the question is (quiz-board.js questionPlace), `entered` whether
 * the student gave a name, `name(sq)` a square's name.
 */
export function statusWords(view, { role, place, entered, name }) {
  const { question, reveal } = view;
  if (!question) return t(role === "teacher" ? "class.quiz.teacher.idle" : "class.quiz.idle");
  const squares = answerWay(question) === "square" && (question.kind ?? "next") === "next";
  const say = (value) => answerText(question, value, name);
  if (role === "teacher") {
    const tally = view.tally || { answers: 0, students: 0 };
    const counts = t("class.quiz.count", {
      answers: formatNumber(reveal?.answers ?? tally.answers), // revealed: by the last votes
      students: formatNumber(tally.students),
    });
    if (!reveal) {
      let open = t("class.quiz.teacher.open", { n: question.question });
      if (question.phase) open += ` · ${t(`class.quiz.teacher.phase.${question.phase}`)}`;
      return place === "coming"
        ? `${open} · ${t("class.quiz.teacher.coming", { to: formatNumber(question.index) })}`
        : `${open} · ${counts}`;
    }
    const answer = squares
      ? t("class.quiz.revealed", { square: name(reveal.answer) })
      : t("class.quiz.revealed.value", { answer: say(reveal.answer) });
    return `${answer} · ${counts}`;
  }
  if (!entered) return t("class.quiz.enter-first");
  const chosen = view.mine !== null && view.mine !== undefined;
  if (!reveal) {
    if (place === "coming") return t("class.quiz.coming");
    if (CLOSED_PHASES.has(question.phase)) return t(`class.quiz.phase.${question.phase}`);
    if (chosen) {
      return squares
        ? t("class.quiz.waiting", { square: name(view.mine) })
        : t("class.quiz.waiting.value", { answer: say(view.mine) });
    }
    if (question.phase === "revote") return t("class.quiz.phase.revote");
    return squares ? t("class.quiz.ask") : promptWords(question, name);
  }
  const result = outcome(reveal, view.mine);
  if (squares) {
    return t(`class.quiz.result.${result}`, {
      square: name(reveal.answer),
      mine: chosen ? name(view.mine) : "",
    });
  }
  return t(`class.quiz.result.value.${result}`, {
    answer: say(reveal.answer),
    mine: chosen ? say(view.mine) : "",
  });
}
