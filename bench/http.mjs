// HTTP benchmark: `tools/call add` over Streamable HTTP, stateless, 50 concurrent requests, against
// raw node:http, ours (@typemcp/http), SDK 1.x and SDK 2.x, each in its own child process; rounds
// interleaved with the order rotated; medians. Then server heap per idle legacy /sse session.
// With --modern: revision 2026-07-28 instead (no session, per-request `_meta`, Mcp-Method/Mcp-Name
// headers), against raw, ours and SDK 2.x (SDK 1.x does not speak it), no SSE heap part.
// Unless --quick or --no-write, saves every round to bench/results/http-legacy.json (or
// http-modern.json) and re-renders bench/README.md and its charts.
// Rows: raw, typemcp (defaults), typemcp-json (jsonResponse: true; legacy only), sdk1, sdk2.
// Usage: node bench/http.mjs [--modern] [--quick] [--rounds N] [--baseline DIR] [--no-write]   (after `npm run build`)
// --baseline DIR adds `typemcp-base`: the same server on another checkout's build (an earlier
// commit, say), in the same interleaved rounds, for before/after ratios from one run.
import { fork } from 'node:child_process';
import { connect } from 'node:net';
import { cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './lib/stats.mjs';
import { load as loadAdd } from './lib/http-load.mjs';
import { saveResults } from './lib/results.mjs';
import { writeReport } from './lib/render.mjs';
import { loadBenchOptions } from './lib/args.mjs';
import { serverEnv } from './lib/process.mjs';

const USAGE = 'usage: node bench/http.mjs [--modern] [--quick] [--rounds N] [--baseline DIR] [--no-write]';
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--rounds' || argv[i] === '--baseline') i++;
  else if (!['--modern', '--quick', '--no-write'].includes(argv[i])) throw new Error(`unknown argument ${argv[i]}\n${USAGE}`);
}
const { quick, write, rounds: ROUNDS, seconds: SECONDS } = loadBenchOptions(argv);
const CONCURRENCY = 50;
const SSE_N = quick ? 100 : 500;
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const modern = process.argv.includes('--modern');
const baseline = argv.includes('--baseline') ? path.resolve(String(argv[argv.indexOf('--baseline') + 1] ?? '')) : undefined;
// typemcp-otel: ours with telemetry on (the OpenTelemetry SDK registered, exporters that discard).
// typemcp-json: ours with `jsonResponse: true` (a plain JSON answer instead of an SSE stream; 2026-07-28 always answers so).
const SERVERS = [
  ...(modern ? ['raw', 'typemcp', 'typemcp-otel', 'sdk2'] : ['raw', 'typemcp', 'typemcp-json', 'typemcp-otel', 'sdk1', 'sdk2']),
  ...(baseline ? ['typemcp-base'] : []),
];
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
};

function spawnServer(name, mode = 'stateless') {
  const base = name === 'typemcp-base';
  const json = name === 'typemcp-json';
  const child = fork(here(`./servers/http/${base || json ? 'typemcp' : name}.mjs`), [json ? `${mode}-json` : mode], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: serverEnv(base ? { TYPEMCP_BENCH_ROOT: baseline } : {}),
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`${name} exited (${code})`)));
  });
}
const heapOf = (child) => new Promise((resolve) => (child.once('message', (m) => resolve(m.heapUsed)), child.send('heap')));

async function ssePerSession(name) {
  const { child, port } = await spawnServer(name, 'sse');
  const open = () =>
    new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(`GET /sse HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`));
      let seen = '';
      const onData = (c) => {
        seen += c.toString('latin1');
        if (seen.includes('event: endpoint')) {
          socket.off('data', onData);
          socket.on('data', () => {});
          resolve(socket);
        }
      };
      socket.on('data', onData);
      socket.on('error', reject);
    });
  const warm = await Promise.all(Array.from({ length: 20 }, open));
  warm.forEach((s) => s.destroy());
  await new Promise((r) => setTimeout(r, 200));
  const before = await heapOf(child);
  const sockets = [];
  for (let i = 0; i < SSE_N; i += 50) sockets.push(...(await Promise.all(Array.from({ length: 50 }, open))));
  const after = await heapOf(child);
  sockets.forEach((s) => s.destroy());
  child.kill();
  return (after - before) / SSE_N;
}

const results = Object.fromEntries(SERVERS.map((s) => [s, []]));
const procs = {};
for (const name of SERVERS) {
  try {
    procs[name] = await spawnServer(name);
    await loadAdd({ port: procs[name].port, seconds: quick ? 0.3 : 1, concurrency: CONCURRENCY, meta: modern ? MODERN_META : undefined }); // warm-up
  } catch (e) {
    console.log(`skipping ${name}: ${e.message}`);
    procs[name]?.child.kill();
    delete procs[name];
  }
}
const live = SERVERS.filter((s) => procs[s]);
for (let round = 0; round < ROUNDS; round++) {
  const order = live.map((_, i) => live[(i + round) % live.length]);
  for (const name of order)
    results[name].push(
      await loadAdd({ port: procs[name].port, seconds: SECONDS, pid: procs[name].child.pid, concurrency: CONCURRENCY, meta: modern ? MODERN_META : undefined }),
    );
  console.log(`round ${round + 1}/${ROUNDS}: ${order.map((n) => `${n} ${results[n].at(-1).callsPerSec.toFixed(0)}/s`).join(', ')}`);
}
for (const { child } of Object.values(procs)) child.kill();

const med = (name, key) => median(results[name].map((r) => r[key]));
const raw = med('raw', 'callsPerSec');
const rows = live.map((name) => ({ name, cps: med(name, 'callsPerSec'), p50: med(name, 'p50'), p99: med(name, 'p99'), cpu: med(name, 'cpuUsPerCall') }));
const rawCpu = med('raw', 'cpuUsPerCall');
const sse = modern
  ? undefined
  : {
      raw: await ssePerSession('raw'),
      express: await ssePerSession('express-floor'),
      typemcp: await ssePerSession('typemcp'),
      sdk1: await ssePerSession('sdk1'),
    };

const command = ['node', 'bench/http.mjs', ...argv].join(' ');
const era = modern ? '2026-07-28' : 'stateless 2025-06-18';
const table = [
  `${command}: ${ROUNDS} rounds × ${SECONDS} s per server, ${CONCURRENCY} concurrent ${era} POSTs, medians over rounds; ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}.`,
  '',
  '| server | calls/s | p50 (ms) | p99 (ms) | ratio to raw | server CPU µs/call | CPU ratio (raw ÷ server) |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.cps.toFixed(0)} | ${(r.p50 / 1000).toFixed(2)} | ${(r.p99 / 1000).toFixed(2)} | ${(r.cps / raw).toFixed(3)}× | ${r.cpu?.toFixed(1) ?? '—'} | ${(rawCpu / r.cpu).toFixed(3)}× |`,
  ),
  '',
  ...(modern
    ? []
    : [
        `Server heap per idle legacy HTTP+SSE session (${SSE_N} open /sse streams, after gc), KB: typemcp ${(sse.typemcp / 1024).toFixed(1)}, sdk1 ${(sse.sdk1 / 1024).toFixed(1)}, raw node:http ${(sse.raw / 1024).toFixed(1)}, express 5 ${(sse.express / 1024).toFixed(1)}.`,
        '',
      ]),
  `Raw calls/s per round: ${results.raw.map((r) => r.callsPerSec.toFixed(0)).join(', ')}.`,
].join('\n');
console.log(`\n${table}`);
if (write) {
  const file = saveResults(here('.'), modern ? 'http-modern' : 'http-legacy', {
    command,
    rounds: ROUNDS,
    config: { seconds: SECONDS, concurrency: CONCURRENCY, era },
    servers: live.map((name) => ({ name, rounds: results[name] })),
    ...(sse ? { sse: { n: SSE_N, ...Object.fromEntries(Object.entries(sse).map(([k, v]) => [k, Math.round(v)])) } } : {}),
  });
  writeReport(here('.'));
  console.log(`wrote ${file}, bench/README.md and bench/charts/`);
}
