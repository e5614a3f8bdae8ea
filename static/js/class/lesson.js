// The guided lesson in a class room (docs/protocol.md, "The lesson in a class room"). The
// teacher's page sends `lesson` {seq, chapter, step}; the server sets the room's demo to the
// chapter's and keeps the place in the room's state, so every page (a late joiner, a reload)
// reads it from `state.lesson` and says the step's narration in its own language here.
//
// The root element says where it stands in data-chapter / data-step (step from 1, as on
// /lesson), and the text its i18n key in data-key (read by the tests).

import { formatNumber, t } from "../core/i18n.js";
import { nextPlace, prevPlace } from "../lesson/chapters.js";
import { showMoves } from "../lesson/moves.js";

/** The narration of the room's lesson step: both pages. */
export class LessonStory {
  /**
   * root: the `lesson_story` section; chapters: server/lesson/chapters.json's; hideIdle: the
   * whole section hides while the room follows no lesson (the students' page).
   */
  constructor(root, chapters, { hideIdle = false, fetchHuge = defaultFetchHuge } = {}) {
    this.root = root;
    this.hideIdle = hideIdle;
    this.chapters = chapters;
    this.fetchHuge = fetchHuge;
    this.place = null; // {chapter: index, step} of the room's lesson, or null
    this.shownKey = "";
    this.huge = null; // the server's construction figures, for a `huge` step
    this.movesKey = "";
    const role = (name) => root.querySelector(`[data-role="${name}"]`);
    this.view = {
      story: role("story"),
      where: role("where"),
      title: role("title"),
      text: role("text"),
      note: role("note"),
    };
  }

  /** The page's story: templates/class_macros.html's `lesson_story` and its chapters. */
  static onPage(options) {
    const chapters = JSON.parse(document.getElementById("lesson-chapters").textContent);
    return new LessonStory(document.getElementById("c-lesson"), chapters, options);
  }

  get chapter() {
    return this.place ? this.chapters[this.place.chapter] : null;
  }

  get step() {
    return this.place ? this.chapter.steps[this.place.step] : null;
  }

  /** The room's `state.lesson` ({chapter: id, step} or null); redraws only on a change. */
  show(lesson) {
    const chapter = lesson ? this.chapters.findIndex((c) => c.id === lesson.chapter) : -1;
    const place =
      chapter >= 0 && this.chapters[chapter].steps[lesson.step]
        ? { chapter, step: lesson.step }
        : null;
    const key = place ? `${place.chapter}/${place.step}` : "";
    if (key === this.shownKey) return false;
    this.shownKey = key;
    this.place = place;
    this.huge = null;
    if (place && this.step.huge) this._askHuge(key, this.step.huge);
    this.say();
    return true;
  }

  /** Say the current step (again, after a language switch or the huge figures). */
  say() {
    const { root, view, place } = this;
    root.dataset.chapter = place ? this.chapter.id : "";
    root.dataset.step = place ? String(place.step + 1) : "";
    view.story.hidden = !place;
    if (this.hideIdle) root.hidden = !place;
    if (!place) return;
    const chapter = this.chapter;
    const step = this.step;
    view.where.textContent = t("lesson.ui.where", {
      chapter: place.chapter + 1,
      chapters: this.chapters.length,
      step: place.step + 1,
      steps: chapter.steps.length,
    });
    view.title.textContent = t(`lesson.${chapter.id}.title`);
    const huge = this.huge;
    const params = huge
      ? { squares: formatNumber(huge.squares), ms: formatNumber(huge.ms), side: huge.rows }
      : {};
    view.text.textContent = step.huge && !huge ? t("lesson.ui.building") : t(step.key, params);
    view.text.dataset.key = step.key;
  }

  /** A race's verdict (stage.js) under the step's words, once both searches have ended. */
  showVerdict(verdict) {
    const note = this.view.note;
    const text = verdict?.text ?? "";
    if (note.textContent !== text) note.textContent = text;
    note.hidden = !text;
  }

  async _askHuge(key, side) {
    try {
      const figures = await this.fetchHuge(side);
      if (key !== this.shownKey) return;
      this.huge = figures;
      this.say();
    } catch {
      // the words without the figures stay ("building..."): the demo still shows the tour
    }
  }

  /** Every frame: the seeds' move numbers around the knight on a `show: moves` step. */
  drawMoves(lane, gen) {
    const head = this.step?.show === "moves" && lane.player ? lane.player.head : -1;
    const key = `${gen}:${this.shownKey}:${head}`;
    if (key === this.movesKey) return;
    this.movesKey = key;
    showMoves(lane.board, head);
  }
}

async function defaultFetchHuge(side) {
  const response = await fetch(`/lesson/huge?side=${side}`);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error);
  return body;
}

/** The teacher's part: start the lesson at a chapter, step through it; every page follows. */
export class LessonDriver {
  /**
   * story: a LessonStory; controls: the page's TeacherControls (one seq for every message);
   * onMoved(ack): after a step the server applied (or refused).
   */
  constructor({ story, controls, select, start, prev, next, onMoved }) {
    Object.assign(this, { story, controls, select, start, prev, next, onMoved });
    start.addEventListener("click", () => this.go({ chapter: select.selectedIndex, step: 0 }));
    select.addEventListener("change", () => {
      if (this.story.place) this.go({ chapter: select.selectedIndex, step: 0 });
    });
    prev.addEventListener("click", () =>
      this.go(this.place && prevPlace(this.chapters, this.place)),
    );
    next.addEventListener("click", () =>
      this.go(this.place && nextPlace(this.chapters, this.place)),
    );
    this.showButtons();
  }

  get chapters() {
    return this.story.chapters;
  }

  get place() {
    return this.story.place;
  }

  /** Take the class to `place` ({chapter: index, step}); resolves with the answer. */
  async go(place) {
    if (!place) return null;
    const id = this.chapters[place.chapter].id;
    const ack = await this.controls.lesson(id, place.step);
    this.update();
    this.onMoved?.(ack);
    return ack;
  }

  /** The room's lesson changed (an answer, a state, a join): the picker and buttons follow. */
  update() {
    if (this.place) this.select.selectedIndex = this.place.chapter;
    this.showButtons();
  }

  showButtons() {
    const place = this.place;
    this.prev.disabled = !place || !prevPlace(this.chapters, place);
    this.next.disabled = !place || !nextPlace(this.chapters, place);
  }
}
