// The class quiz "where next?" on both class pages (docs/protocol.md, "The class quiz").
// The teacher asks (the class stops, or plays on, to where a move comes next), watches the
// tally grow as a heat map on the board, reveals, shows why, and reads the scores; a
// student taps a square (the board family's events: tap, click, or arrows and Enter) and
// sees the reveal and their own score, in a sheet on their phone (quiz-sheet.js).
//
// A question belongs to its demo's generation and index: once the class has moved on from
// it (another demo, another lesson step, or a step after the reveal), both pages show the
// quiz idle again, ready for the next (`follow`). The server decides everything; this
// panel sends intentions and shows the answers (quiz-board.js puts them on the board).

import { Board } from "../board/board.js";
import { formatNumber, t } from "../core/i18n.js";
import { rowCol, squareName } from "../core/squares.js";
import {
  answeredShare,
  outcome,
  questionPlace,
  showQuiz,
  tallyHeat,
  whyOrder,
} from "./quiz-board.js";

const EVENTS = [
  "quiz_question",
  "quiz_tally",
  "quiz_reveal",
  "quiz_why",
  "quiz_scores",
  "quiz_removed",
];
const MOVED_REASONS = new Set(["backtrack", "sent-ahead", "root", "behind"]);

export class QuizPanel {
  /**
   * root: the panel's element; role: "teacher" | "student"; call(event, payload) -> ack;
   * settings(): the room's demo settings now (the board's size); identity: the student's
   * RoomIdentity; onHeat(heat): the teacher's tally for the demo's board; onAnswer(sq):
   * the revealed answer to ring on it (-1: none); onState(state):
   * a state an answer carried; onQuestion(): a question was asked; onOk(): an action of
   * this page's succeeded (a refusal's words elsewhere can go); onChange(): the panel
   * redrew (the student's sheet follows it).
   */
  constructor(
    root,
    {
      role,
      call,
      settings,
      identity = null,
      onHeat = () => {},
      onAnswer = () => {},
      onState = () => {},
      onQuestion = () => {},
      onOk = () => {},
      onChange = () => {},
    },
  ) {
    Object.assign(this, { root, role, call, settings, identity });
    Object.assign(this, { onHeat, onAnswer, onState, onQuestion, onOk, onChange });
    this.$ = (selector) => root.querySelector(selector);
    this.board = new Board(this.$(".q-board"), {
      kind: "puzzle",
      input: role === "student",
      pieces: true,
      heat: true,
    });
    this.board.onSquare = (sq) => this.answer(sq);
    this.view = {}; // the server's view of the latest question (student or teacher view)
    this.live = false; // its phase came as it happened (not read back after a reload)
    this.place = "none"; // questionPlace: none | coming | here | past
    this.at = null; // where the class is: {gen, index}
    this.shown = null; // the index this page's board shows
    this.moved = null; // how the class was moved for the question (the ask's answer)
    this.problem = ""; // a refusal's words, until the next success
    this.status = this.$(".q-status");
    if (role === "teacher") {
      this.playing = () => false; // the page says whether the class plays (the ask's mode)
      this.$("#q-ask").addEventListener("click", () => this.ask());
      this.$("#q-reveal").addEventListener("click", () =>
        this.act("quiz_reveal", { question: this.view.question?.question }),
      );
      this.$("#q-why").addEventListener("click", () => this.showWhy());
    } else {
      this.nameInput = this.$("#q-name");
      this.$("#q-name-form").addEventListener("submit", (event) => {
        event.preventDefault();
        this.enter(this.nameInput.value);
      });
      identity.onChange(() => this._draw());
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

  /** After a (re)join: the latest question as this page may see it. */
  async restore() {
    if (this.role === "student") {
      const ack = await this.identity.restore();
      if (ack?.ok) {
        this._read(ack.quiz);
        return;
      }
    }
    const ack = await this.call("quiz_state", {});
    if (ack.ok) this._read(ack.quiz);
  }

  /** A view read back (a join, an entry, after a reveal): news only if it changed. */
  _read(view) {
    const same =
      view.question?.question === this.view.question?.question &&
      Boolean(view.reveal) === Boolean(this.view.reveal);
    if (!same) this.live = false;
    this.adopt(view);
  }

  async enter(name) {
    const typed = String(name || "").trim();
    if (!typed) {
      this.nameInput.focus();
      return;
    }
    const ack = await this.identity.enter(typed);
    if (!ack?.ok) return this._refused(ack?.error);
    this._ok();
    this._read(ack.quiz);
  }

  async answer(sq) {
    const question = this.view.question;
    if (!question || this.view.reveal || !this.identity?.entered || this.place !== "here") return;
    const ack = await this.call("quiz_answer", { question: question.question, square: sq });
    if (!ack.ok) return this._refused(ack.error);
    this._ok();
    this.adopt({ ...this.view, mine: ack.square });
  }

  /** The teacher's ask: the class stops where a move comes next, or plays on to it. */
  async ask() {
    const ack = await this.call("quiz_ask", this.playing() ? { play: true } : {});
    if (!ack.ok) return this._refused(ack.error);
    this._ok();
    if (ack.state) this.onState(ack.state);
    this.moved = ack.moved ?? null;
    this.live = true;
    this.onQuestion();
    this.adopt(ack.quiz);
  }

  async act(event, payload) {
    const ack = await this.call(event, payload);
    if (!ack.ok) return this._refused(ack.error);
    this._ok();
    this.adopt(ack.quiz);
  }

  async showWhy() {
    const ack = await this.call("quiz_why", { question: this.view.question?.question });
    if (!ack.ok) return this._refused(ack.error);
    this._ok();
    this.adopt({ ...this.view, why: ack.why, why_shown: true });
  }

  _refused(error) {
    this.problem = error?.message || error?.code || "";
    this._draw();
  }

  _ok() {
    this.problem = "";
    this.onOk();
  }

  // -------------------------------------------------------------- the room's events
  _quiz_question(question) {
    this.live = true;
    this.moved = question.moved ?? null;
    this.problem = "";
    this.adopt({ ...this.view, question, mine: null, reveal: null, why: null, tally: null });
    this.onQuestion();
    if (this.role === "teacher") this.restore(); // its other page asked: the answer and tally
  }

  _quiz_tally(tally) {
    if (tally.question === this.view.question?.question) this.adopt({ ...this.view, tally });
  }

  _quiz_reveal(reveal) {
    if (reveal.question !== this.view.question?.question) return;
    this.live = true;
    this.adopt({ ...this.view, reveal });
    this.restore(); // one's own score (a student), the scores (a teacher)
  }

  _quiz_why(why) {
    if (!this.view.question) return;
    this.live = true;
    this.adopt({ ...this.view, why, why_shown: true });
  }

  _quiz_scores(scores) {
    this.adopt({ ...this.view, scores });
  }

  /** The teacher removed a student: this page's own, it asks for a name again. */
  _quiz_removed({ student }) {
    if (this.role !== "student" || student !== this.identity.student?.id) return;
    this.view = { ...this.view, mine: null, score: null };
    this.problem = t("class.quiz.removed");
    this.identity.forget(); // redraws the panel: the name form again
  }

  /** The teacher takes a student out of the room, with their answers (after asking). */
  async remove(student, name) {
    if (!confirm(t("class.quiz.remove.confirm", { name }))) return;
    const ack = await this.call("quiz_remove", { student });
    if (!ack.ok) return this._refused(ack.error);
    this._ok();
    this.adopt(ack.quiz);
  }

  // -------------------------------------------------------------- following the class
  /**
   * Every frame: where the class is ({gen, index}) and the index this page shows. Once the
   * class has moved on from the question, the panel forgets it and shows the quiz idle.
   * Returns the place (questionPlace).
   */
  follow(at, shown = at?.index) {
    this.at = at;
    this.shown = shown;
    const place = questionPlace(this.view.question, Boolean(this.view.reveal), at, shown);
    if (place !== this.place) {
      this.place = place;
      if (place === "past") {
        this.view = { ...this.view, question: null, reveal: null, why: null, tally: null };
        this.view.mine = null;
        this.moved = null;
        this.problem = "";
        this.place = "none";
      }
      this._draw();
    }
    return this.place;
  }

  // -------------------------------------------------------------- drawing
  adopt(view) {
    this.view = view;
    this.place = questionPlace(view.question, Boolean(view.reveal), this.at, this.shown);
    if (this.place === "past") {
      this.view = { ...view, question: null, reveal: null, why: null, tally: null, mine: null };
      this.place = "none";
    }
    this._draw();
  }

  _draw() {
    const view = this.view;
    const { question, reveal } = view;
    const page = this.root;
    page.dataset.question = question ? String(question.question) : "";
    page.dataset.index = question ? String(question.index) : "";
    page.dataset.phase = !question ? "none" : reveal ? "revealed" : "open";
    page.dataset.place = this.place;
    page.dataset.mine = view.mine ?? "";
    page.dataset.answer = reveal ? String(reveal.answer) : "";
    const size = this.settings?.() || { rows: 8, cols: 8 };
    this.board.resize(size.rows, size.cols);
    this.board.root.style.setProperty("--rows", size.rows);
    this.board.root.style.setProperty("--cols", size.cols);
    const teacher = this.role === "teacher";
    const why = reveal ? view.why : null;
    showQuiz(this.board.state, {
      question,
      tally: null,
      reveal,
      mine: view.mine,
      why,
      legal: !teacher && Boolean(this.identity?.entered),
    });
    this.board.draw();
    // the teacher's tally is drawn on the demo's own board (onHeat), live until the reveal,
    // then the class's distribution with the right square ringed, for the projector; the
    // why as a list
    this.board.root.hidden = teacher || !question;
    if (teacher) {
      const counts = question ? (reveal ? reveal.distribution : view.tally?.tally) : null;
      this.onHeat(counts?.length ? tallyHeat(counts, size.rows * size.cols) : null);
      this.onAnswer(question && reveal ? reveal.answer : -1);
    }
    this._movedLine();
    this.say(this.problem || this._words(view), Boolean(this.problem));
    this._distribution(view);
    this._why(why);
    if (teacher) this._teacherControls(view);
    else this._studentParts();
    this.onChange();
  }

  _movedLine() {
    const line = this.$(".q-moved");
    const moved = this.view.question ? this.moved : null;
    const words = moved ? this._movedWords(moved) : "";
    line.hidden = !words;
    line.textContent = words;
    line.dataset.reason = moved?.reason ?? "";
  }

  /** How the class was moved for the question, in words (null: it was not moved). */
  _movedWords(moved) {
    const to = formatNumber(moved.to);
    if (this.role === "student") return t("class.quiz.moved.student", { to });
    const head = t(moved.play ? "class.quiz.moved.play" : "class.quiz.moved.jump", { to });
    if (!MOVED_REASONS.has(moved.reason)) return t("class.quiz.moved.only", { head });
    return t("class.quiz.moved", { head, reason: t(`class.quiz.moved.${moved.reason}`) });
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
      if (!reveal) {
        const open = t("class.quiz.teacher.open", { n: question.question });
        return this.place === "coming"
          ? `${open} · ${t("class.quiz.teacher.coming", { to: formatNumber(question.index) })}`
          : `${open} · ${counts}`;
      }
      return `${t("class.quiz.revealed", { square: this._name(reveal.answer) })} · ${counts}`;
    }
    if (!this.identity.entered) return t("class.quiz.enter-first");
    if (!reveal) {
      if (this.place === "coming") return t("class.quiz.coming");
      return view.mine === null || view.mine === undefined
        ? t("class.quiz.ask")
        : t("class.quiz.waiting", { square: this._name(view.mine) });
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

  /** Why the search went there: the candidates in the order it tries them. */
  _why(why) {
    const list = this.$(".q-why");
    const order = whyOrder(why);
    list.hidden = !order.length;
    const warnsdorff = why?.algorithm === "warnsdorff";
    list.dataset.algorithm = why?.algorithm ?? "";
    list.setAttribute(
      "aria-label",
      t(warnsdorff ? "class.quiz.why.warnsdorff" : "class.quiz.why.seed"),
    );
    const title = document.createElement("li");
    title.className = "q-why-title";
    title.textContent = t(warnsdorff ? "class.quiz.why.warnsdorff" : "class.quiz.why.seed");
    list.replaceChildren(
      ...(order.length ? [title] : []),
      ...order.map(({ square, onward, state }) => {
        const item = document.createElement("li");
        item.dataset.square = String(square);
        item.dataset.state = state;
        item.textContent =
          onward === null
            ? this._name(square)
            : t("class.quiz.why.onward", { square: this._name(square), n: formatNumber(onward) });
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
        const remove = document.createElement("button");
        remove.type = "button";
        remove.className = "btn c-small q-remove";
        remove.textContent = t("class.quiz.remove");
        remove.setAttribute("aria-label", t("class.quiz.remove.label", { name: row.name }));
        remove.addEventListener("click", () => this.remove(row.student, row.name));
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

  _studentParts() {
    const view = this.view;
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
