// The code lab's editor: CodeMirror 6 (static/vendor/codemirror/, by its package names
// through the page's import map) with Python's highlighting, line numbers, undo and the
// usual keys, replacing the page's textarea. Tab indents; Escape then Tab leaves the editor
// (CodeMirror's own way out for keyboard users). Two lines can be lit: the one the played
// event was written by, and the one an error happened at.

import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import {
  bracketMatching,
  defaultHighlightStyle,
  indentOnInput,
  syntaxHighlighting,
} from "@codemirror/language";
import { EditorState, StateEffect, StateField } from "@codemirror/state";
import {
  Decoration,
  EditorView,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";

const setLit = StateEffect.define();

/** The lit lines: {running, error} line numbers from 1, or 0 for none. */
const litLines = StateField.define({
  create: () => Decoration.none,
  update(lit, transaction) {
    let next = lit.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (!effect.is(setLit)) continue;
      const { doc } = transaction.state;
      const marks = [];
      for (const [kind, number] of Object.entries(effect.value)) {
        if (number >= 1 && number <= doc.lines) {
          const line = doc.line(number);
          marks.push({ from: line.from, kind });
        }
      }
      marks.sort((a, b) => a.from - b.from);
      next = Decoration.set(
        marks.map(({ from, kind }) => Decoration.line({ class: `lab-line-${kind}` }).range(from)),
      );
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

export class LabEditor {
  /**
   * Replace `textarea` with the editor; `label` names it, `nonce` is the page's CSP nonce (its
   * styles go in a <style> element), `onChange()` after each edit.
   */
  constructor(textarea, { label, nonce, onChange = () => {} }) {
    this.lit = { running: 0, error: 0 };
    this.view = new EditorView({
      state: EditorState.create({
        doc: textarea.value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          history(),
          indentOnInput(),
          bracketMatching(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          python(),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          litLines,
          EditorView.lineWrapping, // a phone's narrow editor: long comment lines wrap
          EditorView.cspNonce.of(nonce ?? ""),
          EditorView.contentAttributes.of({ "aria-label": label, "data-role": "source" }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChange();
          }),
        ],
      }),
    });
    textarea.replaceWith(this.view.dom);
    // its scroll box answers the keyboard too (a long program scrolls by arrows without
    // entering it: WCAG's scrollable-region rule), as instructure-ui's editor does
    this.view.scrollDOM.tabIndex = 0;
  }

  get text() {
    return this.view.state.doc.toString();
  }

  set text(value) {
    const { doc } = this.view.state;
    this.view.dispatch({ changes: { from: 0, to: doc.length, insert: value } });
  }

  /** Light `line` (from 1; 0: none) as `kind` ("running" or "error"), scrolled into view. */
  light(kind, line) {
    if (this.lit[kind] === line) return;
    this.lit = { ...this.lit, [kind]: line };
    const effects = [setLit.of(this.lit)];
    const { doc } = this.view.state;
    if (line >= 1 && line <= doc.lines) {
      effects.push(EditorView.scrollIntoView(doc.line(line).from, { y: "nearest" }));
    }
    this.view.dispatch({ effects });
  }
}
