// Asking the server whether the puzzle has a tour (POST /api/verdict, docs/api.md) after
// every change: debounced, so a burst of clicks asks once, and numbered, so an answer that
// arrives after a newer question was asked is dropped: the page never shows the verdict of
// a drawing it no longer shows.

import { getLang } from "../core/i18n.js";

export class VerdictError extends Error {
  constructor(message, status, code, retryAfter = 0) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter; // seconds, on a 429
  }
}

/** The server's verdict on puzzle `code` (with a tour when `witness`); VerdictError if refused. */
export async function postVerdict(code, witness = false, { fetch = globalThis.fetch } = {}) {
  const response = await fetch(`/api/verdict?lang=${getLang()}`, {
    method: "POST",
    headers: { Accept: "application/json", "Content-Type": "application/json" },
    body: JSON.stringify({ puzzle: code, witness }),
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const wait = Number(response.headers.get("Retry-After")) || 0;
    throw new VerdictError(data?.error || `${response.status}`, response.status, data?.code, wait);
  }
  return data;
}

export class VerdictAsker {
  /**
   * post(code, witness) -> Promise of the answer; onAnswer(answer, {witness}) and
   * onError(err) hear only about the latest question; delay: ms a change waits for the next.
   */
  constructor({ post = postVerdict, onAnswer, onError, delay = 250, timers = globalThis }) {
    Object.assign(this, { post, onAnswer, onError, delay, timers });
    this.asked = 0; // the latest question's number
    this.timer = null;
  }

  /** Ask about `code` (`now`: without waiting for more changes). */
  ask(code, { witness = false, now = false } = {}) {
    const number = ++this.asked;
    this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(
      () => this._send(number, code, witness),
      now ? 0 : this.delay,
    );
    return number;
  }

  /** Whether an answer is still awaited (or a question still waits to be sent). */
  get pending() {
    return this.answered !== this.asked;
  }

  async _send(number, code, witness) {
    let answer;
    try {
      answer = await this.post(code, witness);
    } catch (err) {
      if (number === this.asked) {
        this.answered = number;
        this.onError(err);
      }
      return;
    }
    if (number !== this.asked) return; // a newer question is out: this answer is stale
    this.answered = number;
    this.onAnswer(answer, { witness });
  }
}
