// Drawing the class quiz's panel (quiz.js keeps its state): the root's data-* attributes
// (read by the tests and the sheet), the student's tap board, the teacher's tally handed to
// the demo's own board, the status and "moved" lines, the chosen squares, the why, the
// teacher's buttons and scores, the student's name form and score.

import { Board } from "../board/board.js";
import { formatNumber, t } from "../core/i18n.js";
import { ruleOf } from "../core/orderings.js";
import { rowCol, squareName } from "../core/squares.js";
import { answeredShare, outcome, showQuiz, tallyHeat, whyOrder } from "./quiz-board.js";
import { movedWords, statusWords } from "./quiz-words.js";

export class QuizRenderer {
  /**
   * root: the panel's element; role: "teacher" | "student"; identity: the student's
   * RoomIdentity; settings(): the room's demo settings (the board's size); onHeat(heat),
   * onAnswer(sq): the teacher's tally and revealed answer for the demo's board;
   * onRemove(student, name): the teacher's "Remove" on a row of the scores.
   */
  constructor(root, { role, identity, settings, onHeat, onAnswer, onRemove }) {
    Object.assign(this, { root, role, identity, settings, onHeat, onAnswer, onRemove });
    this.$ = (selector) => root.querySelector(selector);
    this.board = new Board(this.$(".q-board"), {
      kind: "puzzle",
      input: role === "student",
      pieces: true,
      heat: true,
    });
    this.status = this.$(".q-status");
    this.nameInput = this.$("#q-name"); // the student's
  }

  /**
   * Draw the server's `view` of the question: `place` where it is (questionPlace), `moved`
   * how the class was moved for it, `problem` a refusal's words (instead of the status).
   */
  draw({ view, place, moved, problem }) {
    const { question, reveal } = view;
    const data = this.root.dataset;
    data.question = question ? String(question.question) : "";
    data.index = question ? String(question.index) : "";
    data.phase = !question ? "none" : reveal ? "revealed" : "open";
    data.place = place;
    data.mine = view.mine ?? "";
    data.answer = reveal ? String(reveal.answer) : "";
    const size = this.settings?.() || { rows: 8, cols: 8 };
    const board = this.board;
    board.resize(size.rows, size.cols);
    board.root.style.setProperty("--rows", size.rows);
    board.root.style.setProperty("--cols", size.cols);
    const teacher = this.role === "teacher";
    const why = reveal ? view.why : null;
    const entered = Boolean(this.identity?.entered);
    const legal = !teacher && entered;
    showQuiz(board.state, { question, tally: null, reveal, mine: view.mine, why, legal });
    board.draw();
    // the teacher's tally is drawn on the demo's own board (onHeat), live until the reveal,
    // then the class's distribution with the right square ringed, for the projector; the
    // why as a list
    board.root.hidden = teacher || !question;
    if (teacher) {
      const counts = question ? (reveal ? reveal.distribution : view.tally?.tally) : null;
      this.onHeat(counts?.length ? tallyHeat(counts, size.rows * size.cols) : null);
      this.onAnswer(question && reveal ? reveal.answer : -1);
    }
    this._movedLine(question ? moved : null);
    const name = (sq) => this.name(sq);
    const words = problem || statusWords(view, { role: this.role, place, entered, name });
    this.say(words, Boolean(problem));
    this._distribution(view);
    this._why(why);
    if (teacher) this._teacherControls(view);
    else this._studentParts(view);
  }

  _movedLine(moved) {
    const line = this.$(".q-moved");
    const words = movedWords(moved, this.role);
    line.hidden = !words;
    line.textContent = words;
    line.dataset.reason = moved?.reason ?? "";
  }

  /** The squares chosen, most chosen first: the reveal's for everyone, the tally's for the teacher. */
  _distribution(view) {
    const list = this.$(".q-distribution");
    const counts =
      view.reveal?.distribution ?? (this.role === "teacher" ? view.tally?.tally : null);
    list.hidden = !view.question || !counts?.length;
    list.replaceChildren(
      ...(counts || []).map(([sq, n]) => {
        const item = document.createElement("li");
        item.textContent = t("class.quiz.chose", { square: this.name(sq), n: formatNumber(n) });
        item.dataset.square = String(sq);
        item.dataset.count = String(n);
        if (view.reveal && sq === view.reveal.answer) item.dataset.right = "true";
        if (sq === view.mine) item.dataset.mine = "true";
        return item;
      }),
    );
  }

  /** Why the search went there: the candidates in the order it tries them. */
  _why(why) {
    const list = this.$(".q-why");
    const order = whyOrder(why);
    list.hidden = !order.length;
    list.dataset.algorithm = why?.algorithm ?? "";
    const heading = t(whyHeading(why?.algorithm ?? "seed"));
    list.setAttribute("aria-label", heading);
    const title = document.createElement("li");
    title.className = "q-why-title";
    title.textContent = heading;
    list.replaceChildren(
      ...(order.length ? [title] : []),
      ...order.map(({ square, onward, state }) => {
        const item = document.createElement("li");
        item.dataset.square = String(square);
        item.dataset.state = state;
        item.textContent =
          onward === null
            ? this.name(square)
            : t("class.quiz.why.onward", { square: this.name(square), n: formatNumber(onward) });
        return item;
      }),
    );
  }

  /** A square's name on the quiz's board. */
  name(sq) {
    const [row, col] = rowCol(sq, this.board.cols);
    return squareName(row, col, this.board.rows);
  }

  say(text, error = false) {
    this.status.textContent = text;
    this.status.classList.toggle("q-error", error);
  }

  _teacherControls(view) {
    const open = view.question && !view.reveal;
    this.$("#q-ask").disabled = Boolean(open);
    this.$("#q-reveal").disabled = !open;
    this.$("#q-why").disabled = !view.reveal || Boolean(view.why_shown);
    const meter = this.$(".q-meter");
    meter.value = answeredShare(view.tally);
    meter.hidden = !view.question;
    this._scores(view.scores);
  }

  _scores(scores) {
    const body = this.$(".q-scores tbody");
    const box = this.$(".q-scores");
    box.hidden = !scores?.scores.length;
    if (!scores) return;
    this.$(".q-scores caption").textContent = t("class.quiz.scores", {
      n: formatNumber(scores.questions),
    });
    body.replaceChildren(
      ...scores.scores.map((row) => {
        const tr = document.createElement("tr");
        for (const value of [row.name, formatNumber(row.right), formatNumber(row.answered)]) {
          const td = document.createElement("td");
          td.textContent = value; // names are plain text
          tr.append(td);
        }
        const remove = document.createElement("button");
        remove.type = "button";
        remove.className = "btn c-small q-remove";
        remove.textContent = t("class.quiz.remove");
        remove.setAttribute("aria-label", t("class.quiz.remove.label", { name: row.name }));
        remove.addEventListener("click", () => this.onRemove(row.student, row.name));
        const cell = document.createElement("td");
        cell.className = "q-remove-cell";
        cell.append(remove);
        tr.append(cell);
        tr.dataset.student = row.name;
        tr.dataset.right = String(row.right);
        return tr;
      }),
    );
  }

  _studentParts(view) {
    const entered = this.identity.entered;
    const form = this.$("#q-name-form");
    if (form.hidden === entered && !entered && !this.nameInput.value) {
      this.nameInput.value = this.identity.savedName;
    }
    form.hidden = entered;
    this.root.dataset.entered = String(entered);
    const score = this.$(".q-score");
    score.hidden = !entered || !view.score?.questions;
    if (view.score) {
      score.textContent = t("class.quiz.score", {
        right: formatNumber(view.score.right),
        n: formatNumber(view.score.questions),
      });
      score.dataset.right = String(view.score.right);
    }
    this.root.dataset.outcome = outcome(view.reveal, view.mine) || "";
  }
}

/** The words above the why's candidates: how the demo's program orders them. */
function whyHeading(algorithm) {
  const { sort } = ruleOf(algorithm);
  if (algorithm === "seed") return "class.quiz.why.seed";
  if (sort === "onward") return "class.quiz.why.warnsdorff";
  return sort === "static" ? "class.quiz.why.static" : "class.quiz.why.order";
}
