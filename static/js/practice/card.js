// The practice on a page (/watch, /lesson): its switch and its card, drawn from the
// practice's state (practice.js decides): the question's sentence, the answer pad or "tap
// the square", the result and the why, the streak, Skip or Continue; the why's marks on
// the lane asked about, whose board takes the answer while a question is open. The card
// says what it shows in data-* attributes (state, kind, index, square, outcome, streak,
// best), which tests/browser/test_practice.py reads.

import { setData } from "../core/dom.js";
import { formatNumber, t } from "../core/i18n.js";
import { answerText, answerWay, promptWords } from "../quiz/quiz-kinds.js";
import { AnswerPad } from "../quiz/quiz-pad.js";
import { drawWhy } from "../quiz/quiz-why-list.js";
import { Practice } from "./practice.js";

/**
 * The practice of a page: `card` its card's element, `toggle` its switch (a checkbox),
 * `clock` the page's PlaybackClock, `all` every lane of the page, `lanes()` those that
 * play (the hook's). Returns {practice, relabel}: the page calls `practice.frame(now,
 * lanes)` from its frame, and `relabel()` after a language switch.
 */
export function startPractice({ card, toggle, clock, all, lanes }) {
  const view = new PracticeCard(card, { toggle, all, lanes });
  const practice = new Practice({ clock, onChange: () => view.draw() });
  view.practice = practice;
  toggle.checked = false; // a reload does not start a practice: the student switches it on
  toggle.addEventListener("change", () => practice.setOn(toggle.checked));
  for (const lane of all) {
    // an open question's answer on the lane's board comes first; else the page's (a start)
    const own = lane.board.onSquare;
    lane.board.onSquare = (sq) => {
      if (!practice.tapped(lane, sq)) own?.(sq);
    };
  }
  view.draw();
  return { practice, relabel: () => view.draw() };
}

class PracticeCard {
  constructor(root, { toggle, all, lanes }) {
    Object.assign(this, { root, toggle, all, lanes });
    this.$ = (role) => root.querySelector(`[data-role="${role}"]`);
    this.pad = new AnswerPad(this.$("pad"), { onValue: (value) => this.answer(value) });
    this.button = this.$("continue");
    this.button.addEventListener("click", () => this.practice.proceed(performance.now()));
    this.shown = null; // the question last drawn (a new one brings its board into view)
  }

  answer(value) {
    const inside = this.root.contains(document.activeElement);
    this.practice.answer(value);
    if (inside) this.button.focus(); // the pad's buttons are disabled now: Continue is next
  }

  draw() {
    const { practice, root } = this;
    const { state, question } = practice;
    const lane = practice.lane ?? this.all[0];
    const name = (sq) => lane.name(sq);
    const asked = state === "open" || state === "answered";
    this.toggle.closest("label").title = t("practice.help");
    root.hidden = !practice.on;
    setData(root, "state", state);
    setData(root, "kind", asked ? question.kind : "");
    setData(root, "index", asked ? question.index : "");
    setData(root, "square", asked ? (question.subject.square ?? "") : "");
    setData(root, "outcome", state === "answered" ? (practice.right ? "right" : "wrong") : "");
    setData(root, "answer", state === "answered" ? question.answer : "");
    setData(root, "streak", practice.streak);
    setData(root, "best", practice.best);
    this.$("streak").textContent = t("practice.streak", {
      n: formatNumber(practice.streak),
      best: formatNumber(practice.best),
    });
    const wait = this.$("wait");
    wait.hidden = state !== "waiting";
    wait.textContent = t(practice.waitingFor === "speed" ? "practice.wait.speed" : "practice.wait");
    const about = this.$("about");
    about.hidden = !asked || this.lanes().length < 2; // a race: which board is asked about
    if (!about.hidden) {
      const algorithm = t(`watch.ui.algo.${lane.settings.algorithm}`);
      about.textContent = t("practice.about", { algorithm });
    }
    const prompt = this.$("prompt");
    prompt.hidden = !asked;
    prompt.textContent = asked ? promptWords(question, name) : "";
    const square = asked && answerWay(question) === "square";
    this.$("tap").hidden = !(square && state === "open");
    // answered, the result line says both answers: the pad goes
    this.pad.draw({ question: state === "open" && !square ? question : null, enabled: true });
    this._result(asked ? question : null, name);
    this.button.hidden = !asked;
    this.button.textContent = t(state === "answered" ? "practice.continue" : "practice.skip");
    for (const each of this.all)
      each.setQuizMarks(each === practice.lane ? practice.marks() : null);
    if (asked && question !== this.shown) bringIntoView(lane, root);
    this.shown = asked ? question : null;
  }

  /** The result line and the why, once answered. */
  _result(question, name) {
    const { practice } = this;
    const answered = practice.state === "answered";
    const result = this.$("result");
    result.hidden = !answered;
    if (answered) {
      const say = (value) => answerText(question, value, name);
      result.textContent = practice.right
        ? t("practice.right", { answer: say(question.answer) })
        : t("practice.wrong", { answer: say(question.answer), mine: say(practice.mine) });
    }
    const algorithm = practice.lane?.settings.algorithm;
    const why = answered ? { ...question.why, algorithm } : null;
    drawWhy(this.$("why"), answered ? question : null, why, name);
  }
}

/**
 * A new question on screen: on a phone the card is a sheet at the bottom of the screen
 * (quiz.css) and the asked lane's board must show above it; beside the board, the card.
 */
function bringIntoView(lane, card) {
  const sheet = card.getBoundingClientRect();
  if (getComputedStyle(card).position !== "fixed") {
    if (sheet.top < 0 || sheet.bottom > innerHeight) card.scrollIntoView({ block: "nearest" });
    return;
  }
  const board = lane.board.root.getBoundingClientRect();
  if (board.top < 0 || board.bottom > sheet.top) lane.root.scrollIntoView({ block: "start" });
}
