// The practice's question writer (static/js/practice/questions.js) for a Python test:
// tests/engine/test_practice_questions.py writes searches (their batches as the watch
// protocol encodes them) and positions in them as JSON on stdin; this prints, for each
// position, the question of every kind the browser writes there (null: it does not fit),
// from a real stream/player.js Player holding exactly the batches the position says.
// The onward question asks about the square the test names (the engine's random choice).

import { readFileSync } from "node:fs";
import {
  PRACTICE_KINDS,
  SearchPosition,
  writeQuestion,
} from "../../../static/js/practice/questions.js";
import { decodeBatch } from "../../../static/js/stream/decode.js";
import { Player } from "../../../static/js/stream/player.js";

const { searches, positions } = JSON.parse(readFileSync(0, "utf8"));

const answers = positions.map(({ search, at, batches, done, onward }) => {
  const { rows, cols, holes, counts, prefix, encoded } = searches[search];
  const player = new Player({ rows, cols, path: prefix, counts });
  for (const ints of encoded.slice(0, batches)) {
    player.push(decodeBatch(ints, { counts, squares: rows * cols }));
  }
  if (done) player.finish({ status: "done" });
  player.seek(at);
  if (player.pos !== at) throw new Error(`cannot stand at ${at}`);
  const choose = (squares) => (squares.includes(onward) ? onward : -1);
  return Object.fromEntries(
    PRACTICE_KINDS.map((kind) => [
      kind,
      writeQuestion(kind, SearchPosition.of(player, holes), { choose }),
    ]),
  );
});
process.stdout.write(JSON.stringify(answers));
