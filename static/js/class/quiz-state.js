// The class quiz's view as the room's events change it: plain functions from the view the
// page holds and an event to the next view, no DOM (tests/js/quiz-state.test.js). The view
// is the server's (quiz_answers.student_view / teacher_view) plus what events added since.

/** Nothing of a question: the class moved on from it. */
export const NO_QUESTION = Object.freeze({
  question: null,
  reveal: null,
  why: null,
  tally: null,
  mine: null,
  first: null,
  first_tally: null,
});

/** A new question: nobody's answer, tally, reveal or why yet. */
export function asked(view, question) {
  return { ...view, ...NO_QUESTION, question };
}

/**
 * A peer question's next step (`quiz_phase`): the first vote's tally for everyone from the
 * tally on; at the second vote a student's first answer stands as their first vote and the
 * second starts empty. Null when it is not this view's question.
 */
export function stepped(view, { question: number, phase, first_tally }, role) {
  const question = view.question;
  if (!question || number !== question.question) return null;
  const next = { ...view, question: { ...question, phase }, first_tally };
  if (phase === "revote" && role === "student" && question.phase !== "revote") {
    next.first = view.mine ?? view.first ?? null;
    next.mine = null;
  }
  return next;
}

/** The student's own answer, as the server acknowledged it ({value, round}). */
export function answered(view, ack) {
  const peerFirst = ack.round === 1 && view.question?.mode === "peer";
  return { ...view, mine: ack.value, first: peerFirst ? ack.value : view.first };
}

/** Whether a student may answer the question now: open, and not between two votes. */
export function voting(view) {
  const phase = view.question?.phase;
  return Boolean(view.question) && !view.reveal && phase !== "tally" && phase !== "discuss";
}
