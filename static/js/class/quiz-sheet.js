// The student's quiz as a sheet (a modal <dialog>): when a question reaches the student's
// board, it takes the phone's screen, with the position to tap, the answer in one tap, and
// "answered, waiting for the reveal"; the reveal and the why come the same way. The
// student closes it (the button, Escape) or it closes when the class moves on. While it
// is closed, a bar says a question is on its way, or opens the sheet again.
//
// The sheet opens by itself once per question and phase (sheetKey): a phase read back
// after a reload (a reveal the student did not see happen) waits in the bar instead.

import { t } from "../core/i18n.js";
import { sheetKey } from "./quiz-board.js";

export class QuizSheet {
  /** dialog: the <dialog>; quiz: the student's QuizPanel; bar: {root, text, open}. */
  constructor({ dialog, quiz, bar }) {
    Object.assign(this, { dialog, quiz, bar });
    this.openedFor = ""; // the sheetKey the sheet last opened for by itself
    dialog.querySelector("#q-close").addEventListener("click", () => this.close());
    dialog.addEventListener("close", () => this.update());
    bar.open.addEventListener("click", () => this.open());
    quiz.identity.onChange((student) => {
      if (student && dialog.open) this._focusBoard();
    });
  }

  get isOpen() {
    return this.dialog.open;
  }

  /** After the quiz redrew, or the class moved: open, close, or say it in the bar. */
  update() {
    const { quiz } = this;
    const place = quiz.place;
    const key = place === "here" ? sheetKey(quiz.view) : "";
    if (place !== "here") {
      if (this.dialog.open) this.dialog.close();
    } else if (key !== this.openedFor) {
      this.openedFor = key;
      // a reveal read back after a reload is not news: the bar offers it
      if (quiz.live || !quiz.view.reveal) this.open();
    }
    this._bar(place);
    this.dialog.dataset.key = key;
  }

  open() {
    if (this.quiz.place !== "here") return;
    if (!this.dialog.open) this.dialog.showModal();
    this._bar(this.quiz.place);
    if (!this.quiz.identity.entered) this.dialog.querySelector("#q-name").focus();
    else if (!this.quiz.view.reveal) this._focusBoard();
    else this.dialog.querySelector("#q-close").focus();
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  _focusBoard() {
    const square = this.dialog.querySelector('.q-board .sq[tabindex="0"]');
    (square || this.dialog.querySelector("#q-close")).focus();
  }

  _bar(place) {
    const { root, text, open } = this.bar;
    const state = this.dialog.open ? "none" : place === "here" ? "closed" : place;
    root.dataset.state = state;
    root.hidden = state === "none";
    open.hidden = state !== "closed";
    const words =
      state === "coming"
        ? t("class.quiz.coming")
        : state === "closed"
          ? this.quiz.status.textContent
          : "";
    if (text.textContent !== words) text.textContent = words;
  }
}
