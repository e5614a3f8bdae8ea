// The class quiz "where next?" on both class pages (docs/protocol.md, "The class quiz").
// The teacher asks at the paused position, watches the tally grow as a heat map on the
// board, reveals, shows why, and reads the scores; a student enters a name, taps a square
// (the board family's events: tap, click, or arrows and Enter) and sees the reveal and
// their own score. The server decides everything; this panel sends intentions and shows
// the answers (quiz-board.js puts them on the board).

import { Board } from "../board/board.js";
import { formatNumber, t } from "../core/i18n.js";
import { rowCol, squareName } from "../core/squares.js";
import { answeredShare, outcome, showQuiz, tallyHeat } from "./quiz-board.js";

const NAME_KEY = "class-name";
const EVENTS = ["quiz_question", "quiz_tally", "quiz_reveal", "quiz_why", "quiz_scores"];

export class QuizPanel {
  /**
   * root: the panel's element; role: "teacher" | "student"; call(event, payload) -> ack;
   * settings(): the room's demo settings now (the board's size).
   */
  constructor(root, { role, call, code, settings, onHeat = () => {} }) {
    Object.assign(this, { root, role, call, code, settings, onHeat });
    this.$ = (selector) => root.querySelector(selector);
    this.board = new Board(this.$(".q-board"), {
      kind: "puzzle",
      input: role === "student",
      pieces: true,
      heat: true,
    });
    this.board.onSquare = (sq) => this.answer(sq);
    this.view = {};
    this.status = this.$(".q-status");
    if (role === "teacher") {
      this.$("#q-ask").addEventListener("click", () => this.act("quiz_ask", {}));
      this.$("#q-reveal").addEventListener("click", () =>
        this.act("quiz_reveal", { question: this.view.question?.question }),
      );
      this.$("#q-why").addEventListener("click", () => this.showWhy());
    } else {
      this.nameInput = this.$("#q-name");
      this.nameInput.value = localStorage.getItem(NAME_KEY) || "";
      this.$("#q-name-form").addEventListener("submit", (event) => {
        event.preventDefault();
        this.enter(this.nameInput.value);
      });
    }
  }

  /**
   * Listen to the room's quiz events (after every (re)join: `restore`); `wrap` may hold
   * them back in order (the student's page, until its words are loaded).
   */
  attach(socket, wrap = (handle) => handle) {
    for (const name of EVENTS)
      socket.on(
        name,
        wrap((msg) => this[`_${name}`](msg)),
      );
  }

  async restore() {
    if (this.role === "student") {
      const name = localStorage.getItem(NAME_KEY);
      const key = localStorage.getItem(this._keyName());
      if (name && key) {
        await this.enter(name, key);
        return;
      }
    }
    const ack = await this.call("quiz_state", {});
    if (ack.ok) this.adopt(ack.quiz);
  }

  _keyName() {
    return `class-quiz-key:${this.code}`;
  }

  async enter(name, key = localStorage.getItem(this._keyName())) {
    const payload = key ? { name, key } : { name };
    const ack = await this.call("quiz_enter", payload);
    if (!ack.ok) return this.say(ack.error.message, true);
    localStorage.setItem(NAME_KEY, ack.quiz.student.name);
    localStorage.setItem(this._keyName(), ack.key);
    this.adopt(ack.quiz);
  }

  async answer(sq) {
    const question = this.view.question;
    if (!question || this.view.reveal || !this.view.student) return;
    const ack = await this.call("quiz_answer", { question: question.question, square: sq });
    if (!ack.ok) return this.say(ack.error.message, true);
    this.adopt({ ...this.view, mine: ack.square });
  }

  async act(event, payload) {
    const ack = await this.call(event, payload);
    if (!ack.ok) return this.say(ack.error.message, true);
    this.adopt(ack.quiz);
  }

  async showWhy() {
    const ack = await this.call("quiz_why", { question: this.view.question?.question });
    if (!ack.ok) return this.say(ack.error.message, true);
    this.adopt({ ...this.view, why: ack.why, why_shown: true });
  }

  // -------------------------------------------------------------- the room's events
  _quiz_question(question) {
    this.adopt({ ...this.view, question, mine: null, reveal: null, why: null, tally: null });
    if (this.role === "teacher") this.restore(); // its other page asked: the answer and tally
  }

  _quiz_tally(tally) {
    if (tally.question === this.view.question?.question) this.adopt({ ...this.view, tally });
  }

  _quiz_reveal(reveal) {
    this.adopt({ ...this.view, reveal });
    this.restore(); // one's own score (a student), the scores (a teacher)
  }

  _quiz_why(why) {
    this.adopt({ ...this.view, why, why_shown: true });
  }

  _quiz_scores(scores) {
    this.adopt({ ...this.view, scores });
  }

  // -------------------------------------------------------------- drawing
  adopt(view) {
    this.view = view;
    const { question, reveal } = view;
    const page = this.root;
    page.dataset.question = question ? String(question.question) : "";
    page.dataset.index = question ? String(question.index) : "";
    page.dataset.phase = !question ? "none" : reveal ? "revealed" : "open";
    page.dataset.mine = view.mine ?? "";
    page.dataset.answer = reveal ? String(reveal.answer) : "";
    const size = this.settings?.() || { rows: 8, cols: 8 };
    this.board.resize(size.rows, size.cols);
    this.board.root.style.setProperty("--rows", size.rows);
    this.board.root.style.setProperty("--cols", size.cols);
    const teacher = this.role === "teacher";
    const showWhy = teacher ? view.why_shown && view.why : view.why;
    showQuiz(this.board.state, {
      question,
      tally: teacher && view.tally ? view.tally.tally : null,
      reveal,
      mine: view.mine,
      why: reveal ? showWhy : null,
      legal: !teacher && Boolean(view.student),
    });
    this.board.draw();
    // the teacher's tally is drawn on the demo's own board (onHeat); this board shows why
    this.board.root.hidden = !question || (teacher && !(reveal && showWhy));
    if (teacher) {
      const counts = question && !reveal ? view.tally?.tally : null; // live, until the reveal
      this.onHeat(counts?.length ? tallyHeat(counts, size.rows * size.cols) : null);
    }
    this.say(this._words(view));
    this._distribution(view);
    if (this.role === "teacher") this._teacherControls(view);
    else this._studentParts(view);
  }

  _words(view) {
    const { question, reveal } = view;
    if (!question)
      return t(this.role === "teacher" ? "class.quiz.teacher.idle" : "class.quiz.idle");
    if (this.role === "teacher") {
      const tally = view.tally || { answers: 0, students: 0 };
      const counts = t("class.quiz.count", {
        answers: formatNumber(tally.answers),
        students: formatNumber(tally.students),
      });
      if (!reveal) return `${t("class.quiz.teacher.open", { n: question.question })} · ${counts}`;
      return `${t("class.quiz.revealed", { square: this._name(reveal.answer) })} · ${counts}`;
    }
    if (!view.student) return t("class.quiz.enter-first");
    if (!reveal) {
      return view.mine === null || view.mine === undefined
        ? t("class.quiz.ask")
        : t("class.quiz.mine", { square: this._name(view.mine) });
    }
    const result = outcome(reveal, view.mine);
    return t(`class.quiz.result.${result}`, {
      square: this._name(reveal.answer),
      mine: view.mine === null || view.mine === undefined ? "" : this._name(view.mine),
    });
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
        item.textContent = t("class.quiz.chose", { square: this._name(sq), n: formatNumber(n) });
        item.dataset.square = String(sq);
        item.dataset.count = String(n);
        if (view.reveal && sq === view.reveal.answer) item.dataset.right = "true";
        if (sq === view.mine) item.dataset.mine = "true";
        return item;
      }),
    );
  }

  _name(sq) {
    const cols = this.board.cols;
    const [row, col] = rowCol(sq, cols);
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
        tr.dataset.student = row.name;
        tr.dataset.right = String(row.right);
        return tr;
      }),
    );
  }

  _studentParts(view) {
    this.$("#q-name-form").hidden = Boolean(view.student);
    const score = this.$(".q-score");
    score.hidden = !view.student || !view.score?.questions;
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
