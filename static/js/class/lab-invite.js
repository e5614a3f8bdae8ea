// The student's way into the class's code lab: while the teacher's exercise takes
// submissions, a bar under the page's head names it and opens the lab in this class
// (/lab?class=CODE, lab/class-lab.js), where the student writes, runs and submits.

import { t } from "../core/i18n.js";
import { exerciseWords } from "./lab-words.js";

export class LabInvite {
  /** root: the bar (templates/class_student.html); code: the room's join code. */
  constructor(root, code) {
    this.root = root;
    this.text = root.querySelector("[data-role=text]");
    this.link = root.querySelector("a");
    this.link.href = `/lab?class=${encodeURIComponent(code)}`;
  }

  /** The room's exercise (the join's `lab`, a `lab_exercise`), or null: none. */
  show(exercise) {
    const open = Boolean(exercise?.open);
    this.root.hidden = !open;
    this.root.dataset.exercise = open ? String(exercise.number) : "";
    if (open) this.text.textContent = t("class.ui.lab.invite", exerciseWords(exercise));
  }
}
