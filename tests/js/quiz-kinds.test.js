// The quiz's kinds (quiz/quiz-kinds.js), their why (quiz-why.js) and the view's changes
// (quiz-state.js), without a DOM: what each kind offers a student, how answers read, what
// the reveal draws on the board, and how a peer question's steps change a student's view.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MARK } from "../../static/js/board/state.js";
import { answered, asked, stepped, voting } from "../../static/js/class/quiz-state.js";
import { useCatalogue } from "../../static/js/core/i18n.js";
import {
  answerText,
  answerWay,
  padChoices,
  promptWords,
  tapTargets,
} from "../../static/js/quiz/quiz-kinds.js";
import { whyLines, whyMarks } from "../../static/js/quiz/quiz-why.js";

const WORDS = {
  "class.record.yes": "yes",
  "class.record.no": "no",
  "class.quiz.obstacle.colour": "colours do not balance",
  "class.quiz.prompt.onward": "How many onward moves has {square}?",
  "class.quiz.prompt.next": "Where next?",
  "class.quiz.why.onward": "{square} ({n})",
  "class.quiz.why.pick-tie": "{tied} tie at {n}; first: {pick}",
  "class.quiz.why.pick": "fewest: {pick} ({n})",
  "class.quiz.why.steps-back": "back {n} to {to}, then {next}",
  "class.quiz.why.back-out": "back {n} and out",
  "class.quiz.why.moves-on": "on to {square}",
  "class.quiz.why.frame": "{frame} (step {step}) goes on to {next}",
  "class.quiz.why.possible-no": "No: {reason}",
  "hint.unreachable": "{square} can no longer be reached.",
  "verdict.colour": "{light} light, {dark} dark",
};
const name = (sq) => `s${sq}`;

test("each kind is answered on the board, with a count, yes or no, or a choice", () => {
  useCatalogue("en", WORDS);
  assert.equal(answerWay({ kind: "next" }), "square");
  assert.equal(answerWay({}), "square", "a question asked before kinds is where next");
  for (const kind of ["pick", "frame"]) assert.equal(answerWay({ kind }), "square");
  for (const kind of ["onward", "backtrack"]) assert.equal(answerWay({ kind }), "number");
  assert.equal(answerWay({ kind: "possible" }), "yesno");
  assert.equal(answerWay({ kind: "obstacle" }), "choice");
  assert.deepEqual(padChoices({ kind: "next", values: 25 }), []);
  const onward = padChoices({ question: 1, kind: "onward", values: 9 });
  assert.deepEqual(
    onward.map((c) => c.value),
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
  );
  assert.deepEqual(
    padChoices({ kind: "possible", values: 2 }).map((c) => c.text),
    ["no", "yes"],
  );
  assert.equal(answerText({ kind: "obstacle" }, 3, name), "colours do not balance");
  assert.equal(answerText({ kind: "frame" }, 7, name), "s7");
  assert.equal(answerText({ kind: "backtrack" }, 1234, name), "1,234");
  assert.equal(answerText({ kind: "onward" }, null, name), "");
  const question = { kind: "onward", subject: { square: 11 } };
  assert.equal(promptWords(question, name), "How many onward moves has s11?");
});

test("a square question offers the knight's jumps, or the frames below the knight", () => {
  const path = [0, 7, 14]; // on 5x5: (0, 0), (1, 2), (2, 4); from (2, 4): 3, 17 and 23
  assert.deepEqual(tapTargets({ kind: "next", path }, 5, 5), [3, 17, 23]);
  assert.deepEqual(tapTargets({ kind: "pick", path }, 5, 5), [3, 17, 23]);
  assert.deepEqual(tapTargets({ kind: "frame", path }, 5, 5), [0, 7]);
  assert.deepEqual(tapTargets({ kind: "onward", path }, 5, 5), []);
  // a hole is no square to jump to (the demo's shape)
  assert.deepEqual(tapTargets({ kind: "next", path }, 5, 5, [17]), [3, 23]);
  assert.deepEqual(tapTargets({ kind: "frame", path }, 5, 5, [17]), [0, 7]);
});

test("the why says and marks what each kind's answer rests on", () => {
  useCatalogue("en", WORDS);
  const path = [0, 7, 14, 21];
  const pick = { kind: "pick", path };
  const pickWhy = {
    candidates: [10, 12, 18],
    onward: [2, 2, 3],
    fewest: 2,
    tied: [10, 12],
    pick: 10,
  };
  const lines = whyLines(pick, pickWhy, name);
  assert.equal(lines.title, "s10, s12 tie at 2; first: s10");
  assert.deepEqual(
    lines.items.map((i) => [i.text, i.state]),
    [
      ["s10 (2)", "chosen"],
      ["s12 (2)", "tied"],
      ["s18 (3)", "waiting"],
    ],
  );
  const marks = whyMarks(pick, pickWhy, { rows: 5, cols: 5 });
  assert.deepEqual(marks.marks, [
    [10, MARK.legal, 2],
    [12, MARK.candidate, 2],
    [18, MARK.candidate, 3],
  ]);
  assert.equal(marks.ring, 10);
  // the steps back: the knight returns to the frame that goes on, the rest is struck
  const back = { kind: "backtrack", path };
  const backWhy = { steps: 2, left: [21, 14], to: 7, next: 4 };
  assert.equal(whyLines(back, backWhy, name).title, "back 2 to s7, then s4");
  assert.deepEqual(whyMarks(back, backWhy), {
    marks: [
      [21, MARK.dead, -1],
      [14, MARK.dead, -1],
      [4, MARK.legal, -1],
    ],
    ring: 7,
    path: [0, 7],
  });
  assert.equal(whyLines(back, { steps: 0, left: [], to: 21, next: 2 }, name).title, "on to s2");
  const frame = { kind: "frame", path };
  const frameWhy = { returned: [21], frame: 14, depth: 3, next: 5 };
  assert.equal(whyLines(frame, frameWhy, name).title, "s14 (step 3) goes on to s5");
  assert.deepEqual(whyMarks(frame, frameWhy).path, [0, 7, 14]);
  // a tour still possible: its rest numbered on; not: the named square struck
  const possible = { kind: "possible", path };
  const yes = whyMarks(possible, { verdict: "completable", witness: [10, 3] });
  assert.deepEqual(yes.marks, [
    [10, MARK.candidate, 5],
    [3, MARK.candidate, 6],
  ]);
  const noWhy = {
    verdict: "dead",
    code: "unreachable",
    params: { square: "a5" },
    board: { rows: 5, cols: 5 },
  };
  assert.equal(whyLines(possible, noWhy, name).title, "No: a5 can no longer be reached.");
  assert.deepEqual(whyMarks(possible, noWhy).marks, [[0, MARK.dead, -1]]);
  const obstacle = { kind: "obstacle", path: [0] };
  const obstacleWhy = { code: "colour", params: { light: 13, dark: 12 }, squares: [1, 3] };
  assert.equal(whyLines(obstacle, obstacleWhy, name).title, "13 light, 12 dark");
  assert.deepEqual(whyMarks(obstacle, obstacleWhy).marks, [
    [1, MARK.dead, -1],
    [3, MARK.dead, -1],
  ]);
});

test("where next's why on a board: tried, the move made ringed, the waiting ones counted", () => {
  const question = { kind: "next", path: [0, 7] };
  const why = { from: 7, candidates: [4, 14, 18], onward: [1, 3, 2], tried: 1 };
  assert.deepEqual(whyMarks(question, why), {
    marks: [
      [4, MARK.tried, -1],
      [14, MARK.legal, -1],
      [18, MARK.candidate, 2],
    ],
    ring: 14,
  });
  const seed = whyMarks(question, { ...why, onward: null, tried: 0 });
  assert.deepEqual(seed.marks[2], [18, MARK.candidate, -1], "no counts carried: none shown");
  assert.equal(seed.ring, 4);
});

test("a peer question's steps: closed between the votes, the first vote kept, then again", () => {
  const question = { question: 4, kind: "onward", mode: "peer", phase: "vote" };
  let view = asked({ mine: 3, first: 2, reveal: { answer: 1 } }, question);
  assert.deepEqual([view.mine, view.first, view.reveal], [null, null, null]);
  assert.equal(voting(view), true);
  view = answered(view, { value: 5, round: 1 });
  assert.deepEqual([view.mine, view.first], [5, 5]);
  assert.equal(stepped(view, { question: 3, phase: "tally" }, "student"), null, "another's");
  const tally = { question: 4, tally: [[5, 2]], answers: 2 };
  view = stepped(view, { question: 4, phase: "tally", first_tally: tally }, "student");
  assert.equal(voting(view), false);
  assert.deepEqual(view.first_tally, tally);
  view = stepped(view, { question: 4, phase: "discuss", first_tally: tally }, "student");
  assert.equal(voting(view), false);
  view = stepped(view, { question: 4, phase: "revote", first_tally: tally }, "student");
  assert.deepEqual([view.mine, view.first, voting(view)], [null, 5, true]);
  view = answered(view, { value: 6, round: 2 });
  assert.deepEqual([view.mine, view.first], [6, 5], "the second vote leaves the first");
  const again = stepped(view, { question: 4, phase: "revote", first_tally: tally }, "student");
  assert.deepEqual([again.mine, again.first], [6, 5], "a resent step changes nothing");
  const teacher = stepped({ question, mine: null }, { question: 4, phase: "revote" }, "teacher");
  assert.equal(teacher.question.phase, "revote");
});
