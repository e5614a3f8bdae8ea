// Race mode: two lanes on the same board and start, started together and played by the
// same clock (both stand at the same event index), each with its own counters. The verdict
// compares the work each algorithm needed.

import { formatNumber, t } from "../core/i18n.js";

/** Start both lanes together: each run is acknowledged before either is drawn. */
export async function startRace(connection, lanes, settings, window) {
  const algorithms = [settings.algorithm, settings.algorithmB];
  const runs = await Promise.allSettled(
    lanes.map((lane, i) =>
      lane.start(connection, { ...settings, algorithm: algorithms[i] }, window),
    ),
  );
  const failed = runs.find((r) => r.status === "rejected");
  if (failed) {
    for (const lane of lanes) lane.detach();
    throw failed.reason;
  }
}

/** The race's verdict once both lanes are finished, else null. */
export function raceVerdict(lanes) {
  if (!lanes.every((lane) => lane.finished)) return null;
  const rows = lanes.map((lane) => ({
    name: t(`watch.ui.algo.${lane.root.dataset.algorithm}`),
    found: lane.player?.done?.status === "found",
    nodes: lane.player?.moves ?? 0,
    events: lane.player?.pos ?? 0,
  }));
  const [a, b] = rows;
  let winner = null;
  if (a.found !== b.found) winner = a.found ? 0 : 1;
  else if (a.events !== b.events) winner = a.events < b.events ? 0 : 1;
  if (winner === null) {
    return { winner, text: t("watch.ui.race.tie", { nodes: formatNumber(a.nodes) }) };
  }
  const w = rows[winner];
  const l = rows[1 - winner];
  const key = l.found ? "watch.ui.race.won" : "watch.ui.race.won.alone";
  return {
    winner,
    text: t(key, {
      winner: w.name,
      loser: l.name,
      nodes: formatNumber(w.nodes),
      other: formatNumber(l.nodes),
    }),
  };
}
