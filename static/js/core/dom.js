// Writes that touch the DOM only when the value differs. The pages' frame loop writes
// their state on every animation frame, and an attribute set to the value it already has
// still invalidates style (on a page's root, the whole page's) and costs a layout: a
// /watch demo at 10 events a second laid the page out 64 times a second for nothing.

/** `el.dataset[key] = String(value)`, unless it is that already. */
export function setData(el, key, value) {
  const text = String(value);
  if (el.dataset[key] !== text) el.dataset[key] = text;
}

/** `el.setAttribute(name, String(value))`, unless it is that already. */
export function setAttr(el, name, value) {
  const text = String(value);
  if (el.getAttribute(name) !== text) el.setAttribute(name, text);
}

/** `el[name] = value` for a property (hidden, disabled, title...), unless it is that already. */
export function setProp(el, name, value) {
  if (el[name] !== value) el[name] = value;
}
