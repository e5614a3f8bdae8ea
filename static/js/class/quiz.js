// The class quiz "where next?" on both class pages (docs/protocol.md, "The class quiz").
// The teacher asks (the class stops, or plays on, to where a move comes next), watches the
// tally grow as a heat map on the board, reveals, shows why, and reads the scores; a
// student taps a square (the board family's events: tap, click, or arrows and Enter) and
// sees the reveal and their own score, in a sheet on their phone (quiz-sheet.js).
//
// A question belongs to its demo's generation and index: once the class has moved on from
// it (another demo, another lesson step, or a step after the reveal), both pages show the
// quiz idle again, ready for the next (`follow`). The server decides everything; this
// panel sends intentions and shows the answers (quiz-render.js draws the panel,
// quiz-words.js words it, quiz-board.js puts them on the board).

import { t } from "../core/i18n.js";
import { questionPlace } from "./quiz-board.js";
import { QuizRenderer } from "./quiz-render.js";

const EVENTS = [
  "quiz_question",
  "quiz_tally",
  "quiz_reveal",
  "quiz_why",
  "quiz_scores",
  "quiz_removed",
];

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
    Object.assign(this, { root, role, call, identity });
    Object.assign(this, { onState, onQuestion, onOk, onChange });
    this.$ = (selector) => root.querySelector(selector);
    this.renderer = new QuizRenderer(root, {
      role,
      identity,
      settings,
      onHeat,
      onAnswer,
      onRemove: (student, name) => this.remove(student, name),
    });
    this.renderer.board.onSquare = (sq) => this.answer(sq);
    this.view = {}; // the server's view of the latest question (student or teacher view)
    this.live = false; // its phase came as it happened (not read back after a reload)
    this.place = "none"; // questionPlace: none | coming | here | past
    this.at = null; // where the class is: {gen, index}
    this.shown = null; // the index this page's board shows
    this.moved = null; // how the class was moved for the question (the ask's answer)
    this.problem = ""; // a refusal's words, until the next success
    if (role === "teacher") {
      this.playing = () => false; // the page says whether the class plays (the ask's mode)
      this.$("#q-ask").addEventListener("click", () => this.ask());
      this.$("#q-reveal").addEventListener("click", () =>
        this.act("quiz_reveal", { question: this.view.question?.question }),
      );
      this.$("#q-why").addEventListener("click", () => this.showWhy());
    } else {
      this.nameInput = this.renderer.nameInput;
      this.$("#q-name-form").addEventListener("submit", (event) => {
        event.preventDefault();
        this.enter(this.nameInput.value);
      });
      identity.onChange(() => this._draw());
    }
  }

  /** The status line (the student's sheet says it in its bar). */
  get status() {
    return this.renderer.status;
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
    this.adopt({ ...this.view, mine: ack.value });
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
    const { view, place, moved, problem } = this;
    this.renderer.draw({ view, place, moved, problem });
    this.onChange();
  }
}
