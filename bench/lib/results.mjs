// The raw results of each bench driver, saved as JSON under bench/results/<bench>.json: what was
// run (command, date, machine, rounds, settings) and every server's value in every round with its
// medians. bench/report.mjs renders the README tables and charts from these files alone.
import fs from 'node:fs';
import path from 'node:path';
import { machineInfo } from './report.mjs';
import { median } from './stats.mjs';

/** The benches that save results, in the order the report shows them. */
export const BENCHES = ['stdio', 'http-legacy', 'http-modern', 'tools-list', 'cold-start', 'cold-start-bundle', 'scale-out', 'chaos'];

/** Rounds a measured fraction for the file: 4 significant digits carry more than the noise. Integers stay. */
const tidy = (v) => (typeof v === 'number' && Number.isFinite(v) && !Number.isInteger(v) ? Number(v.toPrecision(4)) : v);
const tidyDeep = (v) =>
  v && typeof v === 'object' ? (Array.isArray(v) ? v.map(tidyDeep) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, tidyDeep(x)]))) : tidy(v);

/** Medians over rounds of every numeric leaf of the per-round objects (same shape as one round). */
export function mediansOf(rounds) {
  const first = rounds[0];
  if (first === undefined) return {};
  const walk = (get, sample) =>
    sample && typeof sample === 'object'
      ? Object.fromEntries(Object.keys(sample).map((k) => [k, walk((r) => get(r)?.[k], sample[k])]))
      : median(rounds.map(get));
  return walk((r) => r, first);
}

/**
 * Writes bench/results/<bench>.json under `benchDir`.
 * @param {string} benchDir the bench/ folder
 * @param {string} bench one of BENCHES
 * @param {{command: string, rounds: number, config?: object, servers: Array<{name: string, rounds: object[]}>, [k: string]: unknown}} body
 *   each server's per-round values; medians are computed here from the unrounded values
 * @returns {string} the path written
 */
export function saveResults(benchDir, bench, body) {
  const { command, rounds, servers, ...rest } = body;
  const doc = {
    bench,
    command,
    date: new Date().toISOString(),
    machine: machineInfo(),
    rounds,
    ...rest,
    servers: servers.map((s) => ({ name: s.name, median: tidyDeep(mediansOf(s.rounds)), rounds: tidyDeep(s.rounds) })),
  };
  const file = path.join(benchDir, 'results', `${bench}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  return file;
}

/** Reads every saved result under `benchDir`/results: { [bench]: doc } for those present. */
export function loadResults(benchDir) {
  const out = {};
  for (const bench of BENCHES) {
    const file = path.join(benchDir, 'results', `${bench}.json`);
    if (fs.existsSync(file)) out[bench] = JSON.parse(fs.readFileSync(file, 'utf8'));
  }
  return out;
}
