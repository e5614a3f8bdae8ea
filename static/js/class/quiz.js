// The class quiz on both class pages (docs/protocol.md, "The class quiz"). The teacher picks
// a kind of question (quiz-kinds.js) and asks (the class stops, or plays on, to where it
// can be asked), watches the tally grow (a heat map on the board for a square), steps a
// peer question through its two votes, reveals, shows why, and reads the scores; a student
// taps a square (the board family's events: tap, click, or arrows and Enter) or a choice
// on the pad, and sees the reveal and their own score, in a sheet on their phone
// (quiz-sheet.js).
//
// A question belongs to its demo's generation and index: once the class has moved on from
// it (another demo, another lesson step, or a step after the reveal), both pages show the
// quiz idle again, ready for the next (`follow`). The server decides everything; this
// panel sends intentions and shows the answers (quiz-render.js draws the panel,
// quiz-words.js words it, quiz-board.js puts them on the board).

import { t } from "../core/i18n.js";
import { answerWay } from "../quiz/quiz-kinds.js";
import { questionPlace } from "./quiz-board.js";
import { QuizRenderer } from "./quiz-render.js";
import { answered, asked, NO_QUESTION, stepped, voting } from "./quiz-state.js";

const EVENTS = ["question", "phase", "tally", "reveal", "why", "scores", "removed"].map(
  (name) => `quiz_${name}`,
);

export class QuizPanel {
  /**
   * root: the panel's element; role: "teacher" | "student"; call(event, payload) -> ack;
   * settings(): the room's demo settings now (the board's size); identity: the student's
   * RoomIdentity; onHeat(heat): the teacher's tally for the demo's board; onAnswer(sq):
   * the revealed answer to ring on it (-1: none); onWhy(marks): the why's marks for it
   * (quiz-why.js whyMarks, or null); onState(state): a state an answer carried;
   * onQuestion(): a question was asked; onOk(): an action of this page's succeeded (a
   * refusal's words elsewhere can go); onChange(): the panel redrew (the sheet follows).
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
      onWhy = () => {},
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
      onWhy,
      onRemove: (student, name) => this.remove(student, name),
      onValue: (value) => this.answer(value),
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
      this.$("#q-step").addEventListener("click", () => this.step());
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

  /** The student's answer: a square tapped on the board, or a value from the pad. */
  async answer(value) {
    const question = this.view.question;
    if (!voting(this.view) || !this.identity?.entered || this.place !== "here") return;
    const field = answerWay(question) === "square" ? "square" : "value";
    const ack = await this.call("quiz_answer", { question: question.question, [field]: value });
    if (!ack.ok) return this._refused(ack.error);
    this._ok();
    this.adopt(answered(this.view, ack));
  }

  /**
   * The teacher's ask of the kind picked (and with two votes, if ticked): the class stops
   * where it can be asked, or plays on to it.
   */
  async ask() {
    const payload = { kind: this.$("#q-kind").value, peer: this.$("#q-peer").checked };
    if (this.playing()) payload.play = true;
    const ack = await this.call("quiz_ask", payload);
    if (!ack.ok) return this._refused(ack.error);
    this._ok();
    if (ack.state) this.onState(ack.state);
    this.moved = ack.moved ?? null;
    this.live = true;
    this.onQuestion();
    this.adopt(ack.quiz);
  }

  /** The teacher steps a peer question on: the tally, the talk, the second vote. */
  async step() {
    const next = this.$("#q-step").dataset.next;
    if (!next) return;
    await this.act("quiz_phase", { question: this.view.question?.question, phase: next });
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
    this.adopt(asked(this.view, question));
    this.onQuestion();
    if (this.role === "teacher") this.restore(); // its other page asked: the answer and tally
  }

  /** A peer question's next step: the first vote's tally for everyone, then the second vote. */
  _quiz_phase(message) {
    const view = stepped(this.view, message, this.role);
    if (!view) return;
    this.live = true;
    this.adopt(view);
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
        this.view = { ...this.view, ...NO_QUESTION };
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
      this.view = { ...view, ...NO_QUESTION };
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
