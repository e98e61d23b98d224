// tools/list with 500 tools of 10 fields each: TypeMCP (decorated services, class-validator
// DTOs) against the official SDK 1.x McpServer (zod shapes), in one run.
// Both servers are driven in memory by the same raw JSON-RPC requests, so what is timed is the
// server's own work per tools/list. TypeMCP builds schemas once at start-up; the SDK converts
// zod to JSON Schema on every tools/list (typescript-sdk#1847).
// `typemcp-manifest` is the same TypeMCP server with its schema manifest (what `typemcp build`
// writes, generated once before the rounds): its start-up reads the manifest and verifies its
// fingerprint instead of deriving the schemas. `typemcp` derives them (schemaManifest: false).
// Each server of each round is a fresh child process (start-up is only honest in a new process:
// measured second in one process, after TypeMCP, the SDK started 25-35% faster); the parent takes
// medians over rounds and, unless --no-write, saves every round to bench/results/tools-list.json
// and re-renders bench/README.md and its charts.
//
// Usage: npm run build && node bench/tools-list.mjs [--rounds 5] [--tools 500] [--calls 200] [--baseline DIR] [--no-write]
// --baseline DIR adds `typemcp-base`: the same TypeMCP server on another checkout's build, in a
// fresh process of its own each round (settles before/after questions in one run).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { serverEnv } from './lib/process.mjs';
import { saveResults } from './lib/results.mjs';
import { writeReport } from './lib/render.mjs';
import { median as medianOf } from './lib/stats.mjs';

const require = createRequire(import.meta.url);
// TYPEMCP_BENCH_ROOT: the checkout whose build to measure (--baseline); this one by default.
const { FIELDS, manyToolsServer } = require('./servers/many-tools.cjs');
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { InMemoryTransport } = require('@modelcontextprotocol/sdk/inMemory.js');
const { z } = require('zod');

const USAGE = 'usage: node bench/tools-list.mjs [--rounds N] [--tools N] [--calls N] [--baseline DIR] [--no-write]';
const argv = process.argv.slice(2);
const opts = { rounds: 5, tools: 500, calls: 200, write: true, child: false, only: undefined, baseline: undefined, manifest: undefined };
for (let i = 0; i < argv.length; i++) {
  const name = argv[i].slice(2);
  if (argv[i] === '--no-write') opts.write = false;
  else if (argv[i] === '--child') opts.child = true;
  else if (argv[i] === '--only' && argv[i + 1]) opts.only = argv[++i];
  else if (argv[i] === '--manifest' && argv[i + 1]) opts.manifest = argv[++i];
  else if (argv[i] === '--baseline' && argv[i + 1]) opts.baseline = path.resolve(argv[++i]);
  else if (['rounds', 'tools', 'calls'].includes(name) && Number.isInteger(Number(argv[i + 1])) && Number(argv[i + 1]) > 0) opts[name] = Number(argv[++i]);
  else throw new Error(`bad argument ${argv[i]}\n${USAGE}`);
}
const TOOLS = opts.tools;
const CALLS = opts.calls;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `schemaManifest`: false to derive every schema at start-up, or the manifest file to read (and verify). */
function typemcpServer(schemaManifest) {
  const server = manyToolsServer(TOOLS, schemaManifest);
  let answer;
  const session = server.engine.connect({ send: (text) => (answer = text) });
  session.receive(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'b', version: '1' } },
    }),
  );
  const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  // tools/list is answered synchronously by the engine: `answer` is set when receive returns.
  return async () => {
    session.receive(request);
    return answer;
  };
}

async function sdkServer() {
  const server = new McpServer({ name: 'many', version: '1.0.0' });
  for (let i = 0; i < TOOLS; i++) {
    const shape = {};
    for (let f = 0; f < FIELDS; f++) {
      let s = f % 2 === 1 ? z.number().int().min(0).max(99) : z.string();
      if (f % 3 === 0) s = s.optional();
      shape[`field${f}`] = s;
    }
    server.registerTool(`tool_${i}`, { description: `Tool number ${i}`, inputSchema: shape }, async (input) => ({
      content: [{ type: 'text', text: JSON.stringify(input) }],
    }));
  }
  const [client, transport] = InMemoryTransport.createLinkedPair();
  await server.connect(transport);
  const waiting = new Map();
  client.onmessage = (m) => waiting.get(m.id)?.(m);
  await client.start();
  let id = 0;
  const rpc = (method, params) =>
    new Promise((resolve) => {
      const n = ++id;
      waiting.set(n, (m) => (waiting.delete(n), resolve(m)));
      client.send({ jsonrpc: '2.0', id: n, method, ...(params ? { params } : {}) });
    });
  await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'b', version: '1' } });
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return async () => JSON.stringify(await rpc('tools/list'));
}

async function measure(name, build) {
  const t0 = performance.now();
  const list = await build();
  const startup = performance.now() - t0;
  const first = JSON.parse(await list());
  const tools = (first.result?.tools ?? []).length;
  for (let i = 0; i < 5; i++) await list();
  const times = [];
  let bytes = 0;
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    bytes = (await list()).length;
    times.push(performance.now() - t);
  }
  return { name, startupMs: startup, listMs: median(times), tools, bytes };
}

if (opts.child) {
  // One server per process, each measured from a fresh start: a second TypeMCP build in the same
  // process would see the first one's 500 DTO classes still in class-validator's global storage
  // (it cannot be reset), and whichever server went second would start in a heap and JIT the
  // first one had already warmed (the SDK measured after TypeMCP in one process started 25-35%
  // faster than on its own).
  const row =
    opts.only === 'typemcp-manifest'
      ? // The timed start-up includes reading the manifest and verifying its fingerprint.
        await measure('typemcp-manifest', async () => typemcpServer(opts.manifest))
      : opts.only === 'sdk1'
        ? await measure('sdk1', sdkServer)
        : await measure('typemcp', async () => typemcpServer(false));
  process.stdout.write(`${JSON.stringify([row])}\n`);
} else {
  const names = ['typemcp', 'typemcp-manifest', 'sdk1', ...(opts.baseline ? ['typemcp-base'] : [])];
  const perServer = Object.fromEntries(names.map((n) => [n, []]));
  // The manifest row's schemas, generated once beforehand as `typemcp build` does: the server
  // script runs with TYPEMCP_MANIFEST_OUT set, and its listen() writes the file and exits.
  const manifestDir = fs.mkdtempSync(path.join(os.tmpdir(), 'typemcp-bench-'));
  const manifest = path.join(manifestDir, 'typemcp.manifest.json');
  const build = spawnSync(process.execPath, [fileURLToPath(new URL('./servers/many-tools.cjs', import.meta.url)), '--tools', String(TOOLS)], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: serverEnv({ TYPEMCP_MANIFEST_OUT: manifest }),
  });
  if (build.status !== 0 || !fs.existsSync(manifest)) throw new Error(`manifest generation exited ${build.status ?? build.signal}`);
  /** One child process, one server: `kind` is its row's name. */
  const child = (kind) => {
    const only = kind === 'typemcp-manifest' ? ['--only', kind, '--manifest', manifest] : ['--only', kind === 'typemcp-base' ? 'typemcp' : kind];
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', '--tools', String(TOOLS), '--calls', String(CALLS), ...only], {
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
      env: serverEnv(kind === 'typemcp-base' ? { TYPEMCP_BENCH_ROOT: opts.baseline } : {}),
    });
    if (run.status !== 0) throw new Error(`child exited ${run.status ?? run.signal}`);
    return JSON.parse(run.stdout).map((row) => ({ ...row, name: kind }));
  };
  for (let round = 0; round < opts.rounds; round++) {
    // The processes take turns going first.
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const row of order.flatMap(child)) perServer[row.name].push({ startupMs: row.startupMs, listMs: row.listMs, tools: row.tools, bytes: row.bytes });
    console.log(
      `round ${round + 1}/${opts.rounds}: ${names.map((n) => `${n} start-up ${perServer[n].at(-1).startupMs.toFixed(0)} ms, tools/list ${perServer[n].at(-1).listMs.toFixed(3)} ms`).join('; ')}`,
    );
  }
  fs.rmSync(manifestDir, { recursive: true, force: true });
  const med = (n, k) => medianOf(perServer[n].map((r) => r[k]));
  console.log(`\ntools/list, ${TOOLS} tools x ${FIELDS} fields, median of ${CALLS} calls per run, medians over ${opts.rounds} runs\n`);
  console.log('| server | tools listed | start-up ms | ms per tools/list | response bytes |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const n of names) console.log(`| ${n} | ${med(n, 'tools')} | ${med(n, 'startupMs').toFixed(0)} | ${med(n, 'listMs').toFixed(3)} | ${med(n, 'bytes')} |`);
  if (opts.write) {
    const benchDir = fileURLToPath(new URL('.', import.meta.url));
    const file = saveResults(benchDir, 'tools-list', {
      command: ['node', 'bench/tools-list.mjs', ...argv].join(' '),
      rounds: opts.rounds,
      config: { tools: TOOLS, fields: FIELDS, calls: CALLS, serverPerProcess: true },
      servers: names.map((name) => ({ name, rounds: perServer[name] })),
    });
    writeReport(benchDir);
    console.log(`\nwrote ${file}, bench/README.md and bench/charts/`);
  }
}
