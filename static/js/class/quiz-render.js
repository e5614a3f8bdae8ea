// Drawing the class quiz's panel (quiz.js keeps its state): the root's data-* attributes
// (read by the tests and the sheet), the question's sentence, the student's tap board or
// answer pad, the teacher's tally and why handed to the demo's own board, the status and
// "moved" lines, the answers chosen (both votes of a peer question, and how the class
// moved), the why, the teacher's buttons and scores, the student's name form and score.

import { Board } from "../board/board.js";
import { MARK, setHoles } from "../board/state.js";
import { formatNumber, t } from "../core/i18n.js";
import { rowCol, squareName } from "../core/squares.js";
import { answerText, answerWay, kindOf, promptWords } from "../quiz/quiz-kinds.js";
import { AnswerPad } from "../quiz/quiz-pad.js";
import { whyMarks } from "../quiz/quiz-why.js";
import { drawWhy } from "../quiz/quiz-why-list.js";
import { answeredShare, outcome, showQuiz, tallyHeat } from "./quiz-board.js";
import { drawCounts, drawMoves } from "./quiz-lists.js";
import { movedWords, statusWords } from "./quiz-words.js";

const NEXT_STEP = { vote: "tally", tally: "discuss", discuss: "revote" }; // a peer question's

export class QuizRenderer {
  /**
   * root: the panel's element; role: "teacher" | "student"; identity: the student's
   * RoomIdentity; settings(): the room's demo settings (the board's size); onHeat(heat),
   * onAnswer(sq): the teacher's tally and revealed answer for the demo's board; onWhy(marks):
   * the why's marks for it ({marks, ring}, or null); onRemove(student, name): the teacher's
   * "Remove" on a row of the scores; onValue(value): the student chose on the pad.
   */
  constructor(root, { role, identity, settings, onHeat, onAnswer, onWhy, onRemove, onValue }) {
    Object.assign(this, { root, role, identity, settings, onHeat, onAnswer, onRemove });
    this.onWhy = onWhy || (() => {});
    this.$ = (selector) => root.querySelector(selector);
    this.pad = role === "student" ? new AnswerPad(this.$(".q-pad"), { onValue }) : null;
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
    data.kind = question ? kindOf(question) : "";
    data.step = question?.phase ?? "";
    data.place = place;
    data.mine = view.mine ?? "";
    data.answer = reveal ? String(reveal.answer) : "";
    const size = this.settings?.() || { rows: 8, cols: 8 };
    const board = this.board;
    board.resize(size.rows, size.cols);
    setHoles(board.state, size.holes ?? []); // the demo's shape: no hole is a square to tap
    board.root.style.setProperty("--rows", size.rows);
    board.root.style.setProperty("--cols", size.cols);
    const teacher = this.role === "teacher";
    const why = reveal ? view.why : null;
    const entered = Boolean(this.identity?.entered);
    const voting = !reveal && !["tally", "discuss"].includes(question?.phase);
    const legal = !teacher && entered && voting;
    showQuiz(board.state, { question, tally: null, reveal, mine: view.mine, why, legal });
    board.draw();
    // the teacher's tally is drawn on the demo's own board (onHeat), live until the reveal,
    // then the class's distribution with the right square ringed, for the projector; the
    // why as a list, and its marks on that board
    board.root.hidden = teacher || !question;
    if (teacher) {
      const squares = question && answerWay(question) === "square";
      const counts = squares ? (reveal ? reveal.distribution : view.tally?.tally) : null;
      this.onHeat(counts?.length ? tallyHeat(counts, size.rows * size.cols) : null);
      this.onAnswer(question && reveal && squares ? reveal.answer : -1);
      this.onWhy(teacherMarks(question, why));
    }
    const name = (sq) => this.name(sq);
    const prompt = this.$(".q-prompt");
    // "where next?" is the teacher's status already; another kind is read out to the class
    prompt.hidden = !question || (teacher && kindOf(question) === "next");
    prompt.textContent = question ? promptWords(question, name) : "";
    this._movedLine(question ? moved : null);
    const words = problem || statusWords(view, { role: this.role, place, entered, name });
    this.say(words, Boolean(problem));
    this._counts(view, name);
    drawWhy(this.$(".q-why"), question, why, name);
    if (teacher) this._teacherControls(view);
    else this._studentParts(view, { entered, voting, name });
  }

  /** The answers chosen: the open vote's (the teacher), the reveal's, the first vote's. */
  _counts(view, name) {
    const { question, reveal } = view;
    const counts = reveal?.distribution ?? (this.role === "teacher" ? view.tally?.tally : null);
    const right = reveal ? reveal.answer : null;
    drawCounts(this.$(".q-distribution"), counts, { question, name, right, mine: view.mine });
    const first = reveal?.first?.distribution ?? view.first_tally?.tally ?? null;
    const box = this.$(".q-first");
    box.hidden = !question || !first;
    drawCounts(box.querySelector("ol"), first, { question, name, right, mine: view.first });
    drawMoves(this.$(".q-moves"), question ? reveal?.moves : null);
  }

  _movedLine(moved) {
    const line = this.$(".q-moved");
    const words = movedWords(moved, this.role);
    line.hidden = !words;
    line.textContent = words;
    line.dataset.reason = moved?.reason ?? "";
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
    this.$("#q-kind").disabled = Boolean(open);
    this.$("#q-peer").disabled = Boolean(open);
    this.$("#q-reveal").disabled = !open;
    const step = this.$("#q-step");
    const next = open ? NEXT_STEP[view.question.phase] : undefined;
    step.hidden = !next;
    step.dataset.next = next ?? "";
    if (next) step.textContent = t(`class.quiz.step.${next}`);
    this.$("#q-why").disabled = !view.reveal || Boolean(view.why_shown);
    const meter = this.$(".q-meter");
    // revealed: the class's last votes, as the status line counts them
    const { reveal, tally } = view;
    meter.value = answeredShare(reveal && tally ? { ...tally, answers: reveal.answers } : tally);
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

  _studentParts(view, { entered, voting, name }) {
    const { question, reveal } = view;
    this.pad.draw({
      question,
      mine: view.mine ?? null,
      right: reveal ? reveal.answer : null,
      enabled: Boolean(question) && entered && voting && this.root.dataset.place === "here",
    });
    const first = this.$(".q-your-first");
    const shown = question?.mode === "peer" && view.first !== null && view.first !== undefined;
    first.hidden = !shown || question.phase === "vote";
    first.textContent = shown
      ? t("class.quiz.your-first", { answer: answerText(question, view.first, name) })
      : "";
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

/** The demo board's marks for the teacher: the question's square while open, then its why. */
function teacherMarks(question, why) {
  if (!question) return null;
  if (why && kindOf(question) !== "next") return whyMarks(question, why);
  const square = question.subject?.square;
  return square === undefined || why
    ? null
    : { marks: [[square, MARK.candidate, -1]], ring: square };
}
