import assert from "node:assert/strict";
import { test } from "node:test";
import { SetupFold } from "../../static/js/class/presenter.js";

test("the setup is open to set a demo up, folds once it runs, and stays as the teacher leaves it", () => {
  const details = { open: true };
  const fold = new SetupFold(details);
  fold.follow("setup");
  assert.equal(details.open, true);
  fold.follow("running"); // the demo started: folded
  assert.equal(details.open, false);
  details.open = true; // the teacher opens it again while the class goes on
  fold.follow("running");
  fold.follow("finished");
  assert.equal(details.open, true);
  fold.follow("setup"); // previewing other settings
  assert.equal(details.open, true);
  fold.follow("running");
  assert.equal(details.open, false);
});

test("a chapter or a puzzle picked in it folds it, but not while the demo is being set up", () => {
  const details = { open: true };
  const fold = new SetupFold(details);
  fold.done(); // a puzzle handed out before any demo: the demo's form is still needed
  assert.equal(details.open, true);
  fold.follow("running");
  details.open = true;
  fold.done();
  assert.equal(details.open, false);
});
