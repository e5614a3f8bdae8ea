// The teacher's page of a class room (/class/<code>/teach): its elements and parts, wired
// to its controller (teacher-page.js).
//
// The page is a presenter view (class.css): once the demo runs, the board, the narration,
// the transport, the join code and one panel (presenter.js: quiz, leaderboard or call
// stack) share one screen, and the setup folds away. The secret token comes in the URL
// fragment from /class/new, is kept in localStorage for this room, and is dropped from the
// address bar.

import { t } from "../core/i18n.js";
import { startLanguage } from "../core/language.js";
import { bindProjector } from "../core/projector.js";
import { exposeForTests } from "../core/test-hook.js";
import { CodePanel } from "../lanes/code-panel.js";
import { Lane } from "../lanes/lane.js";
import { fillBoardForm, followFormChange, readBoardForm } from "../lanes/setup.js";
import { TeacherControls } from "./controls.js";
import { ClassTransport } from "./drive.js";
import { RoomFollower } from "./follow.js";
import { Handout } from "./handout.js";
import { TeacherLab } from "./lab-teacher.js";
import { LessonDriver, LessonStory } from "./lesson.js";
import { PanelTabs, SetupFold } from "./presenter.js";
import { QuizPanel } from "./quiz.js";
import { bindRecordForms } from "./quiz-record.js";
import { ClassRoom } from "./room.js";
import { Stage } from "./stage.js";
import { TeacherPage, takeToken } from "./teacher-page.js";

const $ = (selector) => document.querySelector(selector);
const page = $("#class");
const form = $("#w-form");

const lane = new Lane($(".c-lane"));
// the lane's call-stack panel is one of the presenter's panels (presenter.js)
const stackPanel = $(".c-lane [data-role=stack]");
stackPanel.id = "c-stack";
stackPanel.classList.add("c-tabpanel");
stackPanel.setAttribute("role", "tabpanel");
stackPanel.setAttribute("aria-labelledby", "c-tab-stack");

// The parts report to the page's controller, made last: they call it once the page runs.
const call = (event, payload) => teacher.call(event, payload);
const follower = new RoomFollower({ sync: (payload) => call("sync", payload) });
const controls = new TeacherControls({
  call,
  follower,
  onRefused: (error) => teacher.showError(error?.message),
  onAccepted: () => teacher.showError(""), // a refusal's words stay only until something works
});
// the demo's program with its lines lit: another of the presenter's panels
const code = new CodePanel($(".c-program .w-code-panel"));
const second = new Lane($(".c-lane-b"), { input: false }); // a lesson's race
const stage = new Stage({ page, lane, follower, code, second });
const story = LessonStory.onPage({ hideIdle: true });
const parts = {
  lane,
  follower,
  controls,
  stage,
  story,
  tabs: new PanelTabs(page, $(".c-panel-tabs")),
  setupFold: new SetupFold($("#c-setup")),
  handout: new Handout({ page, call, onHanded: () => teacher.handed() }),
  lab: new TeacherLab({ page, call, onHanded: () => teacher.handed("lab") }),
  lessonDriver: new LessonDriver({
    story,
    controls,
    select: $("#c-lesson-select"),
    start: $("#c-lesson-start"),
    prev: $('#c-lesson [data-lesson="prev"]'),
    next: $('#c-lesson [data-lesson="next"]'),
    onMoved: (ack) => teacher.lessonMoved(ack),
  }),
  transport: new ClassTransport({
    page,
    follower,
    controls,
    active: () => stage.drawing, // not while the teacher previews other settings
  }),
  quiz: new QuizPanel($("#c-quiz"), {
    role: "teacher",
    call,
    settings: () => follower.state?.settings,
    onHeat: (heat) => lane.setOverlay(heat),
    onAnswer: (sq) => lane.setAnswer(sq),
    onWhy: (marks) => lane.setQuizMarks(marks),
    onState: (state) => teacher.adoptState(state),
    onQuestion: () => parts.tabs.select("quiz"),
    onOk: () => teacher.showError(""), // a refusal's words stay only until something works
  }),
};
const teacher = new TeacherPage({
  code: page.dataset.code,
  view: {
    page,
    goButton: $("#c-go"),
    error: $("#c-error"),
    startName: $("#w-start-name"),
    connection: $("#c-conn"),
    students: $("#c-students"),
  },
  form: {
    read: (previous) => readBoardForm(form, previous),
    fill: (demo) => fillBoardForm(form, demo),
  },
  parts,
  openRoom: (options) => new ClassRoom(options),
});

form.addEventListener("submit", (event) => {
  event.preventDefault();
  teacher.showDemo();
});

form.addEventListener("change", (event) => {
  followFormChange(form, event.target);
  teacher.formChanged();
});

lane.board.onSquare = (sq) => teacher.pickStart(sq);

$("#c-copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("#c-join-url").href);
    $("#c-copy").textContent = t("class.ui.copied");
  } catch {
    getSelection()?.selectAllChildren($("#c-join-url"));
  }
});

$("#c-end").addEventListener("click", () => {
  if (confirm(t("class.ui.end.confirm"))) teacher.close();
});

async function boot() {
  await startLanguage();
  bindProjector();
  teacher.preview();
  parts.transport.showSpeed();
  const token = takeToken(teacher.code, { location, history, storage: localStorage });
  if (!teacher.open(token)) return;
  bindRecordForms($("#c-quiz"), () => token);
  page.dataset.ready = "true";
  const { room } = teacher;
  const { quiz, lessonDriver, tabs, lab } = parts;
  exposeForTests({ lane, room, follower, controls, quiz, story, lessonDriver, tabs, lab });
  teacher.run();
}

boot();
