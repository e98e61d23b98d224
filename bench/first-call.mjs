// Time to the first `tools/call add` answer in a fresh stdio process, with the validators
// `typemcp build` precompiled (typemcp.validators.cjs) and without them (TYPEMCP_VALIDATORS=off:
// Ajv compiles AddInput's schema on that first call), for the everything app built as tsc
// compiles it (dist/main.js) and bundled (`typemcp build --bundle`, validators embedded).
// Each spawn writes `initialize`, and on its answer `notifications/initialized` and `tools/call
// add`; the clock runs from the spawn to the answer of the call (checked: "5"), and `the call
// alone` from writing the call to its answer (where the validator is made or loaded). Rounds are interleaved with
// the order rotated; each round spawns every server --spawns times and keeps the median; the
// table gives medians over rounds and each server's ratio to its precompiled twin.
//
// Usage: npm run build && node bench/first-call.mjs [--rounds 5] [--spawns 10] [--quick]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median } from './lib/stats.mjs';

const USAGE = 'usage: node bench/first-call.mjs [--rounds N] [--spawns N] [--quick]';
const argv = process.argv.slice(2);
const opts = { rounds: 5, spawns: 10 };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--quick') Object.assign(opts, { rounds: 1, spawns: 3 });
  else if ((a === '--rounds' || a === '--spawns') && Number.isInteger(Number(argv[i + 1])) && Number(argv[i + 1]) > 0) opts[a.slice(2)] = Number(argv[++i]);
  else throw new Error(`bad argument ${a}\n${USAGE}`);
}

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const repo = here('..');
const app = path.join(repo, 'apps/everything');
if (!fs.existsSync(path.join(app, 'dist/main.js'))) throw new Error('apps/everything/dist/main.js is missing: npm run build first');

// The bundle, in a folder of its own with the skills folder the app reads two folders above its entry.
const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'typemcp-first-call-'));
fs.cpSync(path.join(app, 'skills'), path.join(parent, 'skills'), { recursive: true });
const bundle = path.join(parent, 'dist/bundle/main.js');
const built = spawnSync(process.execPath, [path.join(repo, 'packages/cli/dist/bin.js'), 'build', 'dist/main.js', '--bundle', bundle], {
  cwd: app,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (built.status !== 0) throw new Error(`typemcp build --bundle exited ${built.status ?? built.signal}`);
if (!fs.existsSync(path.join(app, 'dist/typemcp.validators.cjs'))) throw new Error('typemcp build wrote no typemcp.validators.cjs');

const OFF = { TYPEMCP_VALIDATORS: 'off' };
const SERVERS = [
  { name: 'unbundled, precompiled', file: path.join(app, 'dist/main.js'), twin: 'unbundled, precompiled' },
  { name: 'unbundled, Ajv compiles', file: path.join(app, 'dist/main.js'), env: OFF, twin: 'unbundled, precompiled' },
  { name: 'bundled, precompiled', file: bundle, twin: 'bundled, precompiled' },
  { name: 'bundled, Ajv compiles', file: bundle, env: OFF, twin: 'bundled, precompiled' },
];

const line = (message) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
const INITIALIZE = line({
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'first-call', version: '1.0.0' } },
});
const CALL = line({ method: 'notifications/initialized' }) + line({ id: 2, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } });

/** Spawns the server, initializes, then calls `add`; resolves with { total, call } ms once `add` answers. */
function once(server) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [server.file, '--transport', 'stdio'], {
      cwd: parent,
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { PATH: process.env.PATH, NODE_ENV: 'production', NODE_DISABLE_COMPILE_CACHE: '1', ...server.env },
    });
    let out = '';
    let init;
    let done = false;
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`${server.name}: no answer in 30 s`))), 30_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
      let nl;
      while (!done && (nl = out.indexOf('\n')) >= 0) {
        const text = out.slice(0, nl);
        out = out.slice(nl + 1);
        const message = JSON.parse(text);
        if (message.id === 1) {
          init = performance.now();
          child.stdin.write(CALL);
        }
        if (message.id !== 2) continue;
        const now = performance.now();
        done = true;
        clearTimeout(timer);
        child.kill('SIGKILL');
        if (message.result?.content?.[0]?.text !== '5') return reject(new Error(`${server.name}: add answered ${text}`));
        resolve({ total: now - t0, call: now - init });
      }
    });
    child.on('error', reject);
    child.on('exit', () => (done ? undefined : reject(new Error(`${server.name} exited before answering`))));
    child.stdin.on('error', () => {});
    child.stdin.write(INITIALIZE);
  });
}

const perServer = Object.fromEntries(SERVERS.map((s) => [s.name, []]));
for (const s of SERVERS) await once(s); // unmeasured: disk caches
for (let round = 0; round < opts.rounds; round++) {
  const order = SERVERS.map((_, i) => SERVERS[(i + round) % SERVERS.length]);
  for (const s of order) {
    const runs = [];
    for (let i = 0; i < opts.spawns; i++) runs.push(await once(s));
    perServer[s.name].push({ total: median(runs.map((r) => r.total)), call: median(runs.map((r) => r.call)) });
  }
  console.log(`round ${round + 1}/${opts.rounds}: ${SERVERS.map((s) => `${s.name} ${perServer[s.name].at(-1).total.toFixed(1)}`).join(', ')}`);
}
fs.rmSync(parent, { recursive: true, force: true });

const med = (name, key) => median(perServer[name].map((r) => r[key]));
console.log(
  `\nspawn to the first tools/call add answer (ms), Node ${process.versions.node}, median of ${opts.spawns} spawns per round, medians over ${opts.rounds} rounds`,
);
console.log('ratio: to the same build with precompiled validators, in the same run\n');
console.log('| server | spawn to the add answer ms | ratio | the call alone ms | ratio |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const s of SERVERS) {
  const [total, after] = [med(s.name, 'total'), med(s.name, 'call')];
  console.log(
    `| ${s.name} | ${total.toFixed(1)} | ${(total / med(s.twin, 'total')).toFixed(2)}x | ${after.toFixed(1)} | ${(after / med(s.twin, 'call')).toFixed(2)}x |`,
  );
}
