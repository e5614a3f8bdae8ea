import assert from "node:assert/strict";
import { test } from "node:test";
import { createState, MARK, setHoles, squareKind } from "../../static/js/board/state.js";
import {
  answeredShare,
  knightTargets,
  outcome,
  questionPlace,
  sheetKey,
  showQuiz,
  tallyHeat,
} from "../../static/js/class/quiz-board.js";
import { whyOrder } from "../../static/js/quiz/quiz-why.js";

const question = { question: 1, path: [0, 7, 14] };

test("the tally becomes a heat map of answers per square; squares off the board are ignored", () => {
  const heat = tallyHeat(
    [
      [3, 2],
      [11, 1],
      [99, 5],
    ],
    25,
  );
  assert.equal(heat.length, 25);
  assert.deepEqual([heat[3], heat[11], heat[0]], [2, 1, 0]);
  assert.equal(
    heat.reduce((a, b) => a + b, 0),
    3,
  );
});

test("a question shows its position, and the teacher's tally as heat", () => {
  const state = createState(5, 5);
  showQuiz(state, { question, tally: [[3, 2]] });
  assert.equal(state.depth, 3);
  assert.equal(squareKind(state, 14), "current");
  assert.equal(state.heat[3], 2);
  showQuiz(state, { question, tally: [] });
  assert.equal(state.heat, null);
});

test("before the reveal a student's own answer is marked; after it the right square too", () => {
  const state = createState(5, 5);
  showQuiz(state, { question, mine: 3 });
  assert.equal(state.marks[3], MARK.candidate);
  const reveal = {
    answer: 5,
    distribution: [
      [3, 1],
      [5, 2],
    ],
  };
  showQuiz(state, { question, reveal, mine: 3 });
  assert.equal(state.marks[5], MARK.legal); // the right square
  assert.equal(state.marks[3], MARK.dead); // the wrong answer
  assert.deepEqual([state.heat[3], state.heat[5]], [1, 2]);
  showQuiz(state, { question, reveal, mine: 5 });
  assert.equal(state.marks[5], MARK.legal);
  assert.equal(state.marked.length, 1);
});

test("the why marks the candidates in order; only those still waiting show their count", () => {
  const state = createState(5, 5);
  const why = { candidates: [3, 5, 23], onward: [2, 1, 3], tried: 1 };
  showQuiz(state, { question, reveal: { answer: 5, distribution: [] }, why });
  assert.equal(state.marks[3], MARK.tried);
  assert.equal(state.marks[5], MARK.legal);
  assert.equal(state.marks[23], MARK.candidate);
  // a square's number is in its accessible name only as a candidate (board/labels.js): the
  // tried and the chosen say theirs in the why's list instead
  assert.deepEqual([state.notes[3], state.notes[5], state.notes[23]], [-1, -1, 3]);
});

test("no question: an empty board", () => {
  const state = createState(5, 5);
  showQuiz(state, { question });
  showQuiz(state, { question: null });
  assert.equal(state.depth, 0);
  assert.equal(state.heat, null);
});

test("a student's outcome and the share of the class that answered", () => {
  assert.equal(outcome(null, 3), null);
  assert.equal(outcome({ answer: 3 }, 3), "right");
  assert.equal(outcome({ answer: 3 }, 4), "wrong");
  assert.equal(outcome({ answer: 3 }, null), "none");
  assert.equal(answeredShare({ answers: 2, students: 4 }), 0.5);
  assert.equal(answeredShare({ answers: 2, students: 0 }), 0);
  assert.equal(answeredShare({ answers: 5, students: 4 }), 1);
});

test("the knight's targets are its unvisited squares on the board, and a student's board marks them", () => {
  // a1 on 5x5 is square 20; b3 (11) and c2 (17) are its moves
  assert.deepEqual(knightTargets([20], 5, 5), [11, 17]);
  assert.deepEqual(knightTargets([11, 20], 5, 5), [17]);
  assert.deepEqual(knightTargets([], 5, 5), []);
  const state = createState(5, 5);
  showQuiz(state, { question: { question: 1, path: [11, 20] }, legal: true, mine: 17 });
  assert.equal(state.marks[17], MARK.candidate); // one's own answer over the hint
  showQuiz(state, { question: { question: 1, path: [11, 20] }, legal: true });
  assert.equal(squareKind(state, 17), "legal");
  assert.equal(squareKind(state, 11), "visited");
  const reveal = { question: 1, answer: 17, distribution: [[17, 1]], answers: 1 };
  showQuiz(state, { question: { question: 1, path: [11, 20] }, legal: true, reveal });
  assert.equal(squareKind(state, 17), "legal"); // the right square, nothing else marked
  assert.equal(state.marks.filter((m) => m !== MARK.none).length, 1);
});

test("a question belongs to its demo and index: coming, here, then past once the class moves on", () => {
  const q = { question: 3, gen: 4, index: 20 };
  assert.equal(questionPlace(null, false, { gen: 4, index: 20 }), "none");
  assert.equal(questionPlace(q, false, null), "none");
  // the class plays on to it (or this page's board is not there yet): on its way
  assert.equal(questionPlace(q, false, { gen: 4, index: 17 }), "coming");
  assert.equal(questionPlace(q, false, { gen: 4, index: 20 }, 18), "coming");
  assert.equal(questionPlace(q, false, { gen: 4, index: 20 }, 20), "here");
  assert.equal(questionPlace(q, false, { gen: 4, index: 20 }), "here");
  // revealed, the class stays; any move after that leaves it behind
  assert.equal(questionPlace(q, true, { gen: 4, index: 20 }), "here");
  assert.equal(questionPlace(q, true, { gen: 4, index: 21 }), "past");
  assert.equal(questionPlace(q, true, { gen: 4, index: 19 }), "past");
  // another demo (a lesson's next chapter, new settings) leaves it behind, revealed or not
  assert.equal(questionPlace(q, false, { gen: 5, index: 20 }), "past");
  assert.equal(questionPlace(q, true, { gen: 5, index: 0 }), "past");
});

test("the sheet's key changes with each phase of a question: it opens again for the reveal", () => {
  const question = { question: 7 };
  assert.equal(sheetKey({}), "");
  assert.equal(sheetKey({ question }), "7:open");
  assert.equal(sheetKey({ question, reveal: { answer: 3 } }), "7:revealed");
  assert.equal(sheetKey({ question, reveal: { answer: 3 }, why: { candidates: [] } }), "7:why");
  assert.notEqual(sheetKey({ question: { question: 8 } }), sheetKey({ question }));
});

test("the why lists the candidates in the order tried: failed, the move made, not reached", () => {
  assert.deepEqual(whyOrder(null), []);
  const why = { algorithm: "warnsdorff", candidates: [12, 5, 9], onward: [1, 2, 4], tried: 1 };
  assert.deepEqual(whyOrder(why), [
    { square: 12, onward: 1, state: "failed" },
    { square: 5, onward: 2, state: "chosen" },
    { square: 9, onward: 4, state: "waiting" },
  ]);
  const seed = { algorithm: "seed", candidates: [4, 8], onward: null, tried: 0 };
  assert.deepEqual(
    whyOrder(seed).map((c) => [c.onward, c.state]),
    [
      [null, "chosen"],
      [null, "waiting"],
    ],
  );
});

test("on a shape, a student may tap the knight's jumps but no hole", () => {
  const state = createState(5, 5);
  setHoles(state, [17]); // one of 14's jumps (3, 17, 23) is a hole
  showQuiz(state, { question, legal: true });
  const legal = [...Array(25).keys()].filter((sq) => state.marks[sq] === MARK.legal);
  assert.deepEqual(legal, [3, 23]);
  assert.deepEqual(knightTargets([0, 7, 14], 5, 5, [17]), [3, 23]);
});
