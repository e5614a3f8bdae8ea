// A page's objects for browser tests that drive it from inside (a socket to cut, a chart's
// columns to compare), on pages opened with ?test only: nothing is exposed in normal use.
// Everything else a test reads, a page says in data-* attributes.

/** `window.testHook = objects` when the page's address has ?test. */
export function exposeForTests(objects) {
  if (new URLSearchParams(location.search).has("test")) globalThis.testHook = objects;
}
