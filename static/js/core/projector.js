// The projector view: one key (P or F) or a [data-projector-toggle] button turns the page
// into a full-screen view for the back of a room (static/css/projector.css lays it out:
// board as large as the screen allows, counters, code and stack panel at 24 px or more).
// Escape, or leaving the browser's full screen, turns it off. Every other key keeps working.

const KEYS = new Set(["p", "P", "f", "F"]);

/** Wire the keys and buttons; `onChange(on)` after every switch (a page redraws). */
export function bindProjector({ onChange = null } = {}) {
  const buttons = document.querySelectorAll("[data-projector-toggle]");
  const set = (on) => {
    if (isProjector() === on) return;
    document.body.dataset.projector = on ? "on" : "off";
    for (const button of buttons) button.setAttribute("aria-pressed", String(on));
    if (on) document.documentElement.requestFullscreen?.().catch(() => {});
    else if (document.fullscreenElement) document.exitFullscreen?.().catch(() => {});
    onChange?.(on);
    dispatchEvent(new Event("resize")); // boards and panels measure again
  };
  for (const button of buttons) button.addEventListener("click", () => set(!isProjector()));
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("input, select, textarea")) return;
    if (KEYS.has(event.key)) {
      event.preventDefault();
      set(!isProjector());
    } else if (event.key === "Escape" && isProjector()) {
      set(false);
    }
  });
  document.addEventListener("fullscreenchange", () => {
    if (!document.fullscreenElement && isProjector()) set(false);
  });
  return {
    set,
    get on() {
      return isProjector();
    },
  };
}

export function isProjector() {
  return document.body.dataset.projector === "on";
}
