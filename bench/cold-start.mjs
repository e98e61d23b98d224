// Cold start: the time from spawning a stdio MCP server to reading its answer to `initialize`,
// which is what a user waits for first (a stdio server is started by the client per session).
// Each spawn is a fresh `node` process; the `initialize` line is written at once, and the clock
// stops at the first newline on stdout (the answer is checked). Servers:
//   raw      bench/servers/raw-echo.mjs: bare node reading newline JSON and answering (the floor)
//   raw+class-validator  the same, after `require('class-validator')`: what a DTO's own import
//            of the validation library costs before any framework code runs
//   typemcp  bench/servers/typemcp-small.cjs: the project `npm create typemcp` generates
//   everything  apps/everything/dist/main.js --transport stdio: the conformance server
//   typemcp-manifest / everything-manifest  the same two with the schema manifest `typemcp build`
//            writes (generated once before the rounds); the two rows above derive their schemas
//            at start-up (TYPEMCP_MANIFEST=off), as before manifests existed
//   sdk1 / sdk2  bench/servers/sdk1-add.mjs / sdk2-add.mjs: the official SDKs' `add` servers
// Rounds are interleaved with the server order rotated; each round spawns every server --spawns
// times and keeps the median; the table gives medians over rounds and ratios to raw (bare node),
// for the wall time and for the CPU time the server process used until its answer (from /proc).
// Every server gets the same minimal environment (bench/lib/process.mjs: PATH, HOME and its own
// variables), never this process's.
//
// Usage: npm run build && node bench/cold-start.mjs [--rounds 5] [--spawns 10] [--baseline DIR] [--quick] [--no-write]
// --baseline DIR adds `typemcp-base` and `everything-base`: the same two apps on another checkout's build.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { cpuMsOf, serverEnv } from './lib/process.mjs';
import { saveResults } from './lib/results.mjs';
import { writeReport } from './lib/render.mjs';
import { median } from './lib/stats.mjs';

const USAGE = 'usage: node bench/cold-start.mjs [--rounds N] [--spawns N] [--baseline DIR] [--quick] [--no-write]';
const argv = process.argv.slice(2);
const opts = { rounds: 5, spawns: 10, write: true, baseline: undefined };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--no-write') opts.write = false;
  else if (a === '--quick') Object.assign(opts, { rounds: 1, spawns: 3, write: false });
  else if (a === '--baseline' && argv[i + 1]) opts.baseline = path.resolve(argv[++i]);
  else if ((a === '--rounds' || a === '--spawns') && Number.isInteger(Number(argv[i + 1])) && Number(argv[i + 1]) > 0) opts[a.slice(2)] = Number(argv[++i]);
  else throw new Error(`bad argument ${a}\n${USAGE}`);
}

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const repo = here('..');
const preload = ['--require', createRequire(import.meta.url).resolve('class-validator')];
const small = here('./servers/typemcp-small.cjs');
const everything = path.join(repo, 'apps/everything/dist/main.js');
// The manifests of the two apps, generated as the build does (`typemcp build <entry> -o <file>`).
const manifestDir = fs.mkdtempSync(path.join(os.tmpdir(), 'typemcp-cold-start-'));
const manifestOf = (entry, name, args = []) => {
  const file = path.join(manifestDir, `${name}.manifest.json`);
  const built = spawnSync(process.execPath, [path.join(repo, 'packages/cli/dist/bin.js'), 'build', entry, '-o', file, '--', ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) throw new Error(`typemcp build ${entry} exited ${built.status ?? built.signal}`);
  return file;
};
const NO_MANIFEST = { TYPEMCP_MANIFEST: 'off' };
/** `file` is the entry point (checked to exist); `args` what node runs. */
const SERVERS = [
  { name: 'raw', file: here('./servers/raw-echo.mjs') },
  { name: 'raw+class-validator', file: here('./servers/raw-echo.mjs'), pre: preload },
  { name: 'typemcp', file: small, env: NO_MANIFEST },
  { name: 'typemcp-manifest', file: small, env: { TYPEMCP_MANIFEST: manifestOf(small, 'typemcp-small') } },
  { name: 'everything', file: everything, post: ['--transport', 'stdio'], env: NO_MANIFEST },
  {
    name: 'everything-manifest',
    file: everything,
    post: ['--transport', 'stdio'],
    env: { TYPEMCP_MANIFEST: manifestOf(everything, 'everything', ['--transport', 'stdio']) },
  },
  { name: 'sdk1', file: here('./servers/sdk1-add.mjs') },
  { name: 'sdk2', file: here('./servers/sdk2-add.mjs') },
  ...(opts.baseline
    ? [
        { name: 'typemcp-base', file: here('./servers/typemcp-small.cjs'), env: { TYPEMCP_BENCH_ROOT: opts.baseline } },
        { name: 'everything-base', file: path.join(opts.baseline, 'apps/everything/dist/main.js'), post: ['--transport', 'stdio'] },
      ]
    : []),
].map((s) => ({ ...s, args: [...(s.pre ?? []), s.file, ...(s.post ?? [])] }));
for (const s of SERVERS) if (!fs.existsSync(s.file)) throw new Error(`${s.name}: ${s.file} is missing (npm run build)`);

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cold-start', version: '1.0.0' } },
})}\n`;

/** Spawns the server, sends initialize, resolves with ms to the answer's newline and the CPU ms it took; the child is killed after. */
function once(server) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, server.args, { stdio: ['pipe', 'pipe', 'ignore'], env: serverEnv(server.env) });
    let out = '';
    let ms;
    let cpuMs;
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`${server.name}: no initialize answer in 30 s`))), 30_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      if (ms !== undefined) return;
      out += chunk;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      ms = performance.now() - t0;
      cpuMs = cpuMsOf(child.pid, { precise: true });
      clearTimeout(timer);
      const answer = JSON.parse(out.slice(0, nl));
      if (answer.id !== 1 || typeof answer.result?.protocolVersion !== 'string')
        return reject(new Error(`${server.name}: not an initialize result: ${out.slice(0, nl)}`));
      child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', () => (ms === undefined ? reject(new Error(`${server.name} exited before answering`)) : resolve({ ms, cpuMs })));
    child.stdin.on('error', () => {});
    child.stdin.write(INITIALIZE);
  });
}

const perServer = Object.fromEntries(SERVERS.map((s) => [s.name, []]));
for (const s of SERVERS) await once(s); // one unmeasured start each: disk caches
for (let round = 0; round < opts.rounds; round++) {
  const order = SERVERS.map((_, i) => SERVERS[(i + round) % SERVERS.length]);
  for (const s of order) {
    const runs = [];
    for (let i = 0; i < opts.spawns; i++) runs.push(await once(s));
    const cpu = runs.map((r) => r.cpuMs).filter((v) => v !== undefined);
    perServer[s.name].push({ ms: median(runs.map((r) => r.ms)), ...(cpu.length ? { cpuMs: median(cpu) } : {}) });
  }
  console.log(`round ${round + 1}/${opts.rounds}: ${SERVERS.map((s) => `${s.name} ${perServer[s.name].at(-1).ms.toFixed(1)} ms`).join(', ')}`);
}

const med = (n, k = 'ms') => median(perServer[n].map((r) => r[k]));
console.log(`\ncold start to the initialize answer, median of ${opts.spawns} spawns per round, medians over ${opts.rounds} rounds\n`);
console.log('| server | ms | ratio to bare node | CPU ms | CPU ratio to bare node |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const s of SERVERS)
  console.log(
    `| ${s.name} | ${med(s.name).toFixed(1)} | ${(med(s.name) / med('raw')).toFixed(2)}x | ${med(s.name, 'cpuMs')?.toFixed(0)} | ${(med(s.name, 'cpuMs') / med('raw', 'cpuMs')).toFixed(2)}x |`,
  );

fs.rmSync(manifestDir, { recursive: true, force: true });

if (opts.write) {
  const benchDir = here('.');
  const file = saveResults(benchDir, 'cold-start', {
    command: ['node', 'bench/cold-start.mjs', ...argv].join(' '),
    rounds: opts.rounds,
    config: { spawns: opts.spawns },
    servers: SERVERS.map((s) => ({ name: s.name, rounds: perServer[s.name] })),
  });
  writeReport(benchDir);
  console.log(`\nwrote ${file}, bench/README.md and bench/charts/`);
}
