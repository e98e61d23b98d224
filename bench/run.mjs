// Stdio benchmark driver: spawns each MCP server once, warms it up, then runs interleaved
// rounds of scenarios (seq, pipe64, 1 MiB, 8 MiB) and reports medians over rounds. Unless --quick or
// --no-write, saves every round to bench/results/stdio.json and re-renders bench/README.md and charts.
// Usage: node bench/run.mjs [--quick] [--rounds N] [--only raw,sdk1,sdk2,engine,typemcp,typemcp-otel] [--baseline DIR] [--no-write]
// --baseline DIR adds `typemcp-base`: the everything app built in another checkout (an earlier
// commit, say), measured in the same interleaved rounds, for before/after ratios from one run.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClient } from './lib/client.mjs';
import { runSeq, runSeqSliced, runPipe, runBig } from './lib/scenarios.mjs';
import { median, pairedRatios } from './lib/stats.mjs';
import { pairedTable, resultsTable, perRoundTable, machineLine } from './lib/report.mjs';
import { saveResults } from './lib/results.mjs';
import { writeReport } from './lib/render.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;

// args[0] is the entry file, relative to the repo root (the child's cwd) or absolute.
const SERVERS = [
  { name: 'raw', args: ['bench/servers/raw-echo.mjs'] },
  { name: 'sdk1', args: ['bench/servers/sdk1-add.mjs'] },
  { name: 'sdk2', args: ['bench/servers/sdk2-add.mjs'] },
  { name: 'engine', args: ['bench/servers/typemcp-engine.mjs'] },
  { name: 'typemcp', args: ['apps/everything/dist/main.js', '--transport', 'stdio'] },
  // The same server with telemetry on (the OpenTelemetry SDK registered, exporters that discard).
  { name: 'typemcp-otel', args: ['bench/servers/typemcp-otel.mjs'] },
];

const PRESETS = {
  full: { rounds: 7, warmup: 2000, seqN: 8000, seqSlice: 250, pipeN: 60000, depth: 64, big1N: 20, big8N: 8 },
  quick: { rounds: 1, warmup: 500, seqN: 1000, seqSlice: 250, pipeN: 5000, depth: 64, big1N: 3, big8N: 2 },
};
const SCENARIO_TIMEOUT_MS = 120_000;

function parseArgs(argv) {
  const opts = { quick: false, write: true, rounds: undefined, only: undefined, baseline: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') opts.quick = true;
    else if (a === '--no-write') opts.write = false;
    else if (a === '--rounds') opts.rounds = Number(argv[++i]);
    else if (a === '--only')
      opts.only = String(argv[++i] ?? '')
        .split(',')
        .filter(Boolean);
    else if (a === '--baseline') opts.baseline = path.resolve(String(argv[++i] ?? ''));
    else
      throw new Error(
        `unknown argument ${a}\nusage: node bench/run.mjs [--quick] [--rounds N] [--only raw,sdk1,sdk2,engine,typemcp,typemcp-otel,typemcp-base] [--baseline DIR] [--no-write]`,
      );
  }
  if (opts.rounds !== undefined && !(Number.isInteger(opts.rounds) && opts.rounds > 0)) throw new Error('--rounds needs a positive integer');
  if (opts.baseline) SERVERS.push({ name: 'typemcp-base', args: [path.join(opts.baseline, 'apps/everything/dist/main.js'), '--transport', 'stdio'] });
  for (const n of opts.only ?? []) if (!SERVERS.some((s) => s.name === n)) throw new Error(`unknown server ${n}`);
  return opts;
}

function withTimeout(promise, ms, label, onTimeout) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new Error(`${label}: timed out after ${ms} ms`));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const opts = parseArgs(process.argv.slice(2));
const cfg = { ...(opts.quick ? PRESETS.quick : PRESETS.full) };
if (opts.rounds) cfg.rounds = opts.rounds;
const command = ['node', 'bench/run.mjs', ...process.argv.slice(2)].join(' ');

const clients = [];
const killAll = () => clients.forEach((c) => c.killNow());
process.on('SIGINT', () => {
  console.error('\ninterrupted, killing servers');
  killAll();
  process.exit(130);
});
process.on('exit', killAll);

const failures = new Map(); // name -> error message
const fail = (s, err) => {
  if (!failures.has(s.name)) failures.set(s.name, err.message);
  console.error(`FAIL ${s.name}: ${err.message}`);
  s.client?.killNow();
};

console.log(`# TypeMCP stdio benchmark — ${command}`);
console.log(`machine: ${machineLine()}`);
console.log(`rounds=${cfg.rounds} warmup=${cfg.warmup} seqN=${cfg.seqN} pipeN=${cfg.pipeN} depth=${cfg.depth} 1MiB×${cfg.big1N} 8MiB×${cfg.big8N}\n`);

// Spawn once per server and reuse the same child for every round.
const active = [];
// --baseline always adds typemcp-base, also to an --only list that does not name it.
for (const def of SERVERS.filter((s) => !opts.only || opts.only.includes(s.name) || s.name === 'typemcp-base')) {
  const entry = path.resolve(ROOT, def.args[0]);
  if (!fs.existsSync(entry)) {
    console.log(`skip ${def.name}: ${path.relative(ROOT, entry)} does not exist`);
    continue;
  }
  const s = { ...def, rounds: [] };
  try {
    s.client = new StdioClient(def.name, process.execPath, def.args, { cwd: ROOT });
    clients.push(s.client);
    const init = await withTimeout(s.client.initialize(), 30_000, `${def.name} initialize`);
    const tools = await withTimeout(s.client.requestAsync('tools/list', {}), 10_000, `${def.name} tools/list`);
    if (!tools.tools?.some((t) => t.name === 'add')) throw new Error(`${def.name}: tools/list has no "add" tool`);
    const t0 = Date.now();
    await withTimeout(
      (async () => {
        await runSeq(s.client, cfg.warmup);
        await runPipe(s.client, cfg.warmup, cfg.depth);
        await runBig(s.client, MiB, 2);
      })(),
      SCENARIO_TIMEOUT_MS,
      `${def.name} warm-up`,
    );
    console.log(`${def.name}: initialized (protocolVersion ${init.protocolVersion}, server ${init.serverInfo?.name}), warmed up in ${Date.now() - t0} ms`);
    active.push(s);
  } catch (err) {
    fail(s, err);
  }
}

if (active.length === 0) {
  console.error('no server left to benchmark');
  await Promise.all(clients.map((c) => c.close()));
  process.exit(1);
}

// seq runs first in each round, in slices across the servers (runSeqSliced); the rest per server.
const SCENARIOS = [
  ['pipe', (c) => runPipe(c, cfg.pipeN, cfg.depth)],
  ['big1', async (c) => (await runBig(c, MiB, cfg.big1N)).ms],
  ['big8', async (c) => (await runBig(c, 8 * MiB, cfg.big8N)).ms],
];

for (let round = 0; round < cfg.rounds; round++) {
  const live = active.filter((s) => !failures.has(s.name));
  const order = live.map((_, i) => live[(i + round) % live.length]); // rotate each round
  console.log(`\nround ${round + 1}/${cfg.rounds}: ${order.map((s) => s.name).join(' → ')}`);
  const seq = await runSeqSliced(order, cfg.seqN, cfg.seqSlice, async (s, fn) => {
    try {
      return await withTimeout(fn(s.client), SCENARIO_TIMEOUT_MS, `${s.name} seq`, () => s.client.killNow());
    } catch (err) {
      fail(s, err);
      return undefined;
    }
  });
  for (const s of order) {
    if (!seq.has(s)) continue;
    const result = { seq: seq.get(s) };
    try {
      for (const [key, fn] of SCENARIOS) {
        result[key] = await withTimeout(fn(s.client), SCENARIO_TIMEOUT_MS, `${s.name} ${key}`, () => s.client.killNow());
      }
      s.rounds.push(result);
      console.log(
        `  ${s.name.padEnd(12)} seq ${Math.round(result.seq.callsPerSec)}/s p50 ${result.seq.p50.toFixed(1)}µs | ` +
          `pipe ${Math.round(result.pipe.callsPerSec)}/s p50 ${result.pipe.p50.toFixed(0)}µs | ` +
          `1MiB ${result.big1.toFixed(2)}ms | 8MiB ${result.big8.toFixed(2)}ms`,
      );
    } catch (err) {
      fail(s, err);
    }
  }
}

await Promise.all(clients.map((c) => c.close()));

// Medians over rounds for every number.
const med = (rs, get) => median(rs.map(get));
const rows = active
  .filter((s) => s.rounds.length > 0)
  .map((s) => ({
    name: s.name,
    seq: { callsPerSec: med(s.rounds, (r) => r.seq.callsPerSec), p50: med(s.rounds, (r) => r.seq.p50), p99: med(s.rounds, (r) => r.seq.p99) },
    pipe: { callsPerSec: med(s.rounds, (r) => r.pipe.callsPerSec), p50: med(s.rounds, (r) => r.pipe.p50), p99: med(s.rounds, (r) => r.pipe.p99) },
    big1: med(s.rounds, (r) => r.big1),
    big8: med(s.rounds, (r) => r.big8),
  }));

const table = resultsTable(rows, cfg.depth);
const raw = active.find((s) => s.name === 'raw');
const paired = pairedRatios(active);
const pairs = paired.length ? pairedTable(paired, cfg.depth) : '';
const rawTable = raw?.rounds.length ? perRoundTable(raw.rounds, cfg.depth) : '';
const failureLines = [...failures].map(([name, msg]) => `- **${name} FAILED**: ${msg}`).join('\n');

console.log(`\n## Results (median over ${cfg.rounds} round(s))\n\n${table}`);
if (pairs) console.log(`\nmedian of per-round ratios (same round):\n\n${pairs}`);
if (rawTable) console.log(`\nraw baseline per round:\n\n${rawTable}`);
if (failureLines) console.log(`\n${failureLines}`);

if (opts.write && !opts.quick && rows.length > 0) {
  const file = saveResults(path.join(ROOT, 'bench'), 'stdio', {
    command,
    rounds: cfg.rounds,
    config: cfg,
    servers: active.map((s) => ({ name: s.name, rounds: s.rounds })),
    failures: Object.fromEntries(failures),
  });
  writeReport(path.join(ROOT, 'bench'));
  console.log(`\nwrote ${path.relative(ROOT, file)}, bench/README.md and bench/charts/`);
}

if (failures.size > 0 || rows.length === 0) process.exitCode = 1;
