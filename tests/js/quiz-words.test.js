// The class quiz's sentences (class/quiz-words.js) for each role and place, without a DOM.
import assert from "node:assert/strict";
import { test } from "node:test";
import { movedWords, statusWords } from "../../static/js/class/quiz-words.js";
import { useCatalogue } from "../../static/js/core/i18n.js";

const WORDS = {
  "class.quiz.teacher.idle": "Ask when you like.",
  "class.quiz.idle": "When the teacher asks, tap a square.",
  "class.quiz.count": "{answers} of {students} answered",
  "class.quiz.teacher.open": "Question {n} is open",
  "class.quiz.teacher.coming": "playing on to step {to}",
  "class.quiz.revealed": "The knight goes to {square}",
  "class.quiz.enter-first": "Enter your name to answer.",
  "class.quiz.coming": "A question is coming",
  "class.quiz.ask": "Where next? Tap a square.",
  "class.quiz.waiting": "Answered: {square}.",
  "class.quiz.result.right": "Right! {square}.",
  "class.quiz.result.wrong": "It goes to {square}; you said {mine}.",
  "class.quiz.result.none": "It goes to {square}; you did not answer.",
  "class.quiz.moved.student": "The demo moved on to step {to}.",
  "class.quiz.moved.jump": "The class moved on to step {to}",
  "class.quiz.moved.play": "The class plays on to step {to}",
  "class.quiz.moved": "{head}: {reason}.",
  "class.quiz.moved.only": "{head}.",
  "class.quiz.moved.backtrack": "the next event was a backtrack",
};
const name = (sq) => `sq${sq}`;
const QUESTION = { question: 3, index: 1200 };

test("the teacher reads the question's number, how many answered, then the answer", () => {
  useCatalogue("en", WORDS);
  const teacher = (view, place = "here") => statusWords(view, { role: "teacher", place, name });
  assert.equal(teacher({}), "Ask when you like.");
  const tally = { answers: 12, students: 1500 };
  assert.equal(teacher({ question: QUESTION, tally }), "Question 3 is open · 12 of 1,500 answered");
  assert.equal(
    teacher({ question: QUESTION, tally }, "coming"),
    "Question 3 is open · playing on to step 1,200",
  );
  assert.equal(
    teacher({ question: QUESTION, tally, reveal: { answer: 9 } }),
    "The knight goes to sq9 · 12 of 1,500 answered",
  );
  assert.equal(teacher({ question: QUESTION }), "Question 3 is open · 0 of 0 answered");
});

test("a student is asked for a name first, then to answer, then told the outcome", () => {
  useCatalogue("en", WORDS);
  const student = (view, { place = "here", entered = true } = {}) =>
    statusWords(view, { role: "student", place, entered, name });
  assert.equal(student({}), "When the teacher asks, tap a square.");
  assert.equal(student({ question: QUESTION }, { entered: false }), "Enter your name to answer.");
  assert.equal(student({ question: QUESTION }, { place: "coming" }), "A question is coming");
  assert.equal(student({ question: QUESTION, mine: null }), "Where next? Tap a square.");
  assert.equal(student({ question: QUESTION, mine: 0 }), "Answered: sq0.", "square 0 is an answer");
  const reveal = { answer: 9 };
  assert.equal(student({ question: QUESTION, reveal, mine: 9 }), "Right! sq9.");
  assert.equal(student({ question: QUESTION, reveal, mine: 4 }), "It goes to sq9; you said sq4.");
  assert.equal(student({ question: QUESTION, reveal }), "It goes to sq9; you did not answer.");
});

test("how the class was moved for a question: the teacher hears why, a student where", () => {
  useCatalogue("en", WORDS);
  assert.equal(movedWords(null, "teacher"), "");
  const moved = { to: 1234, play: false, reason: "backtrack" };
  assert.equal(
    movedWords(moved, "teacher"),
    "The class moved on to step 1,234: the next event was a backtrack.",
  );
  assert.equal(
    movedWords({ ...moved, play: true, reason: "other" }, "teacher"),
    "The class plays on to step 1,234.",
  );
  assert.equal(movedWords(moved, "student"), "The demo moved on to step 1,234.");
});
