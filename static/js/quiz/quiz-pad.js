// The student's answer pad for a question not answered on the board (quiz-kinds.js): a
// count (0 .. n; past a dozen, a number field), no or yes, or the obstacles to choose
// from. One tap sends the answer; the chosen one stays pressed, and after the reveal the
// right one is marked. The class's server or the practice checks every answer; the pad
// only offers them.

import { t } from "../core/i18n.js";
import { padChoices } from "./quiz-kinds.js";

const BUTTONS = 13; // a count up to 12 is a button each; beyond, a number field

export class AnswerPad {
  /** root: the pad's element (.q-pad); onValue(value): the student chose. */
  constructor(root, { onValue }) {
    Object.assign(this, { root, onValue });
    this.key = ""; // the question the buttons were made for
  }

  /**
   * Show the pad for `question` (null: hide it); `mine` the student's answer in this vote,
   * `right` the revealed answer (null before), `enabled` whether the student may answer now.
   */
  draw({ question, mine = null, right = null, enabled = false }) {
    const choices = question ? padChoices(question) : [];
    this.root.hidden = choices.length === 0;
    if (!choices.length) {
      this.root.replaceChildren();
      this.key = "";
      return;
    }
    const key = `${question.question}:${question.kind}:${choices.length}`;
    if (key !== this.key) this._build(question, choices, key);
    this.root.dataset.kind = question.kind;
    for (const button of this.root.querySelectorAll("button[data-value]")) {
      const value = Number(button.dataset.value);
      button.disabled = !enabled;
      button.setAttribute("aria-pressed", String(value === mine));
      button.dataset.right = String(right !== null && value === right);
    }
    const field = this.root.querySelector("input");
    if (field) {
      field.disabled = !enabled;
      this.root.querySelector(".q-pad-send").disabled = !enabled;
      if (mine !== null && mine >= BUTTONS && document.activeElement !== field) {
        field.value = String(mine);
      }
    }
  }

  _build(question, choices, key) {
    this.key = key;
    const buttons = choices.slice(0, BUTTONS).map(({ value, text }) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "btn q-pad-choice";
      button.dataset.value = String(value);
      button.textContent = text;
      button.addEventListener("click", () => this.onValue(value));
      return button;
    });
    const parts = [...buttons];
    if (choices.length > BUTTONS) parts.push(this._field(choices.length - 1));
    this.root.replaceChildren(...parts);
    this.root.classList.toggle("q-pad-words", question.kind === "obstacle");
  }

  /** A number field for counts past the buttons (a long run of steps back). */
  _field(max) {
    const form = document.createElement("form");
    form.className = "q-pad-more";
    const field = document.createElement("input");
    field.type = "number";
    field.inputMode = "numeric";
    field.min = "0";
    field.max = String(max);
    field.setAttribute("aria-label", t("class.quiz.pad.more", { max }));
    const send = document.createElement("button");
    send.type = "submit";
    send.className = "btn q-pad-send";
    send.textContent = t("class.quiz.pad.send");
    form.append(field, send);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const value = Number(field.value);
      if (field.value !== "" && Number.isInteger(value) && value >= 0 && value <= max) {
        this.onValue(value);
      } else {
        field.focus();
      }
    });
    return form;
  }
}
