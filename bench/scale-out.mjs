// Scale-out benchmark: `tools/call add` over Streamable HTTP, 50 concurrent requests, in one run
// against: one instance in memory (`memory`), the same behind the round-robin proxy
// (`memory+proxy`, the proxy's own cost), one instance on Redis (`redis`), and three instances on
// Redis behind the proxy, every request to the next instance (`redis×3+proxy`). Two loads:
// stateless 2026-07-28 (per-request `_meta`, no session) and session-based 2025-11-25 (each of the
// 50 workers opens a session, then calls on it). Rounds interleaved, order rotated; medians and
// ratios to `memory`. Then where the time goes: Redis commands per call (MONITOR, only the
// commands of this run's instances) and each instance's CPU per call by code area (--cpu-prof).
// Needs `npm run build` and a Redis (REDIS_URL, default redis://127.0.0.1:6379); its keys live
// under a prefix of their own, deleted at the end.
// Usage: node bench/scale-out.mjs [--quick] [--rounds N] [--no-write]
import { fork } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, percentile } from './lib/stats.mjs';
import { saveResults } from './lib/results.mjs';
import { writeReport } from './lib/render.mjs';
import { answerIn } from './lib/answer.mjs';
import { loadBenchOptions } from './lib/args.mjs';

const USAGE = 'usage: node bench/scale-out.mjs [--quick] [--rounds N] [--no-write]';
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--rounds') i++;
  else if (!['--quick', '--no-write'].includes(argv[i])) throw new Error(`unknown argument ${argv[i]}\n${USAGE}`);
}
const { quick, write, rounds: ROUNDS, seconds: SECONDS } = loadBenchOptions(argv);
const CONCURRENCY = 50;
const MONITORED_CALLS = quick ? 200 : 1000;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `typemcp-bench:${process.pid}:${Date.now().toString(36)}`;
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const ROOT = here('..');
const { createClient } = createRequire(path.join(ROOT, 'packages/redis/package.json'))('redis');
const SETUPS = ['memory', 'memory+proxy', 'redis', 'redis×3+proxy'];
const LOADS = ['stateless', 'session'];
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
};

const children = [];
function spawn(script, args, execArgv = []) {
  const child = fork(here(`./servers/http/${script}`), args, { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
  });
}
const instance = (where, prefix, execArgv) => spawn('typemcp-shared.mjs', where === 'memory' ? ['memory'] : [REDIS_URL, prefix], execArgv);

/** One POST; resolves with the response's headers and the JSON-RPC message answering `id` (SSE or JSON). */
function post(agent, port, message, headers) {
  const body = JSON.stringify(message);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          if (message.id === undefined) return res.statusCode === 202 ? resolve({ res }) : reject(new Error(`notification: ${res.statusCode} ${text}`));
          try {
            const json = answerIn(res.headers['content-type'], text);
            if (res.statusCode !== 200 || !json?.result) throw new Error(`bad answer ${res.statusCode}: ${text.slice(0, 200)}`);
            resolve({ res, json });
          } catch (e) {
            reject(e);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A caller for one worker: `call(n)` makes one checked tools/call add. */
async function caller(load, agent, port) {
  const check = ({ json }, a) => {
    if (json.result.content?.[0]?.text !== String(a + 1)) throw new Error(`bad sum: ${JSON.stringify(json)}`);
  };
  if (load === 'stateless') {
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'add' };
    return (a) =>
      post(agent, port, { jsonrpc: '2.0', id: a, method: 'tools/call', params: { name: 'add', arguments: { a, b: 1 }, _meta: MODERN_META } }, headers).then(
        (r) => check(r, a),
      );
  }
  const init = await post(agent, port, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } },
  });
  const headers = { 'mcp-session-id': init.res.headers['mcp-session-id'], 'mcp-protocol-version': '2025-11-25' };
  await post(agent, port, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  return (a) =>
    post(agent, port, { jsonrpc: '2.0', id: a, method: 'tools/call', params: { name: 'add', arguments: { a, b: 1 } } }, headers).then((r) => check(r, a));
}

/** CONCURRENCY workers for `seconds` (or until `calls` calls in all); sessions are opened before the clock starts (then `ready()`). */
async function run(load, port, { seconds, calls, ready }) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const workers = await Promise.all(Array.from({ length: CONCURRENCY }, () => caller(load, agent, port)));
  await ready?.();
  const samples = [];
  const end = performance.now() + (seconds ?? Infinity) * 1000;
  let n = 1;
  const start = process.hrtime.bigint();
  await Promise.all(
    workers.map(async (call) => {
      while (performance.now() < end && (calls === undefined || n <= calls)) {
        const t = process.hrtime.bigint();
        await call(n++);
        samples.push(Number(process.hrtime.bigint() - t) / 1000);
      }
    }),
  );
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  agent.destroy();
  const sorted = Float64Array.from(samples).sort();
  return { calls: samples.length, callsPerSec: samples.length / elapsed, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/** Redis commands per call of `load` through `port`: MONITOR, keeping only the connections that touched this run's prefix. */
async function redisPerCall(load, port, prefix) {
  const monitor = createClient({ url: REDIS_URL });
  monitor.on('error', () => {});
  await monitor.connect();
  const lines = [];
  // Sessions are opened before MONITOR starts: only the calls are counted.
  const { calls } = await run(load, port, { calls: MONITORED_CALLS, ready: () => monitor.monitor((line) => lines.push(line)) });
  await new Promise((r) => setTimeout(r, 500));
  monitor.destroy();
  const parsed = lines.map((l) => /^[\d.]+ \[\d+ ([^\]]+)\] "([^"]+)"(.*)$/.exec(l)).filter(Boolean);
  const ours = new Set(parsed.filter((m) => m[3].includes(prefix)).map((m) => m[1]));
  const counts = {};
  for (const m of parsed) if (ours.has(m[1])) counts[m[2].toUpperCase()] = (counts[m[2].toUpperCase()] ?? 0) + 1;
  return { calls, perCall: Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v / calls])) };
}

/** Self CPU time of a .cpuprofile by code area, in µs. */
function cpuByArea(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const area = (frame) => {
    const url = frame.url ?? '';
    if (frame.functionName === '(idle)') return 'idle';
    if (frame.functionName === '(garbage collector)') return 'gc';
    if (url.includes('/node_modules/@redis/')) return 'redis client (node-redis)';
    if (url.includes('/packages/redis/')) return '@typemcp/redis';
    if (url.includes('/packages/http/')) return '@typemcp/http';
    if (url.includes('/packages/protocol/')) return '@typemcp/protocol';
    if (url.includes('/node_modules/')) return 'express and other modules';
    if (url.startsWith('node:') || url === '' || frame.functionName.startsWith('(')) return 'node (http, net, streams, JSON, runtime)';
    return 'bench server';
  };
  const out = {};
  for (let i = 0; i < profile.samples.length; i++) {
    const key = area(byId.get(profile.samples[i]).callFrame);
    out[key] = (out[key] ?? 0) + (profile.timeDeltas[i] ?? 0);
  }
  return out;
}

/** One instance run with --cpu-prof under `load` for a fixed number of calls: CPU µs per call by area. */
async function profile(where, load) {
  const dir = mkdtempSync(path.join(tmpdir(), 'typemcp-prof-'));
  const { child, port } = await instance(where, `${PREFIX}:prof`, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  await run(load, port, { seconds: quick ? 0.3 : 1 }); // warm-up
  const { calls } = await run(load, port, { seconds: SECONDS * 2 });
  const exited = new Promise((r) => child.once('exit', r));
  child.disconnect();
  await exited;
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  const areas = cpuByArea(path.join(dir, file));
  rmSync(dir, { recursive: true, force: true });
  delete areas.idle;
  return { calls, usPerCall: Object.fromEntries(Object.entries(areas).map(([k, v]) => [k, v / calls])) };
}

async function deletePrefix() {
  const client = createClient({ url: REDIS_URL });
  client.on('error', () => {});
  await client.connect();
  for await (const keys of client.scanIterator({ MATCH: `${PREFIX}:*`, COUNT: 1000 })) if (keys.length) await client.del(keys);
  client.destroy();
}

try {
  const probe = createClient({ url: REDIS_URL, socket: { reconnectStrategy: false, connectTimeout: 2000 } });
  probe.on('error', () => {});
  await probe.connect().then(() => probe.ping());
  probe.destroy();
} catch (e) {
  // As the tests without Redis: skipped with the reason, so `npm run bench:all` goes on.
  console.log(`skipped bench/scale-out.mjs: it needs Redis at ${REDIS_URL} (${e.message})`);
  process.exit(0);
}

let exitCode = 0;
try {
  const memory = await instance('memory');
  const memoryProxy = await spawn('round-robin-proxy.mjs', [String(memory.port)]);
  const single = await instance('redis', `${PREFIX}:one`);
  const three = await Promise.all([0, 1, 2].map(() => instance('redis', `${PREFIX}:three`)));
  const threeProxy = await spawn(
    'round-robin-proxy.mjs',
    three.map((t) => String(t.port)),
  );
  const ports = { memory: memory.port, 'memory+proxy': memoryProxy.port, redis: single.port, 'redis×3+proxy': threeProxy.port };

  for (const setup of SETUPS) for (const load of LOADS) await run(load, ports[setup], { seconds: quick ? 0.3 : 1 }); // warm-up
  const results = Object.fromEntries(SETUPS.map((s) => [s, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = SETUPS.map((_, i) => SETUPS[(i + round) % SETUPS.length]);
    for (const setup of order) {
      const entry = {};
      for (const load of LOADS) {
        const { callsPerSec, p50, p99 } = await run(load, ports[setup], { seconds: SECONDS });
        entry[load] = { callsPerSec, p50, p99 };
      }
      results[setup].push(entry);
    }
    console.log(
      `round ${round + 1}/${ROUNDS}: ${order.map((s) => `${s} ${results[s].at(-1).stateless.callsPerSec.toFixed(0)}/${results[s].at(-1).session.callsPerSec.toFixed(0)} per s`).join(', ')}`,
    );
  }

  console.log('counting Redis commands per call (MONITOR)...');
  const redisCommands = {};
  for (const setup of ['redis', 'redis×3+proxy'])
    for (const load of LOADS)
      redisCommands[`${setup} ${load}`] = await redisPerCall(load, ports[setup], setup === 'redis' ? `${PREFIX}:one` : `${PREFIX}:three`);
  for (const { child } of [memory, memoryProxy, single, ...three, threeProxy]) child.kill();

  console.log('profiling one instance in memory and one on Redis (--cpu-prof)...');
  const cpu = {};
  for (const where of ['memory', 'redis']) for (const load of LOADS) cpu[`${where} ${load}`] = await profile(where, load);

  const med = (setup, load, key) => median(results[setup].map((r) => r[load][key]));
  const lines = [
    `node bench/scale-out.mjs ${argv.join(' ')}: ${ROUNDS} rounds × ${SECONDS} s per setup per load, ${CONCURRENCY} concurrent; ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}.`,
    '',
  ];
  for (const load of LOADS) {
    const base = med('memory', load, 'callsPerSec');
    lines.push(`${load}:`);
    for (const setup of SETUPS)
      lines.push(
        `  ${setup.padEnd(14)} ${med(setup, load, 'callsPerSec').toFixed(0).padStart(6)}/s  p50 ${(med(setup, load, 'p50') / 1000).toFixed(2)} ms  p99 ${(med(setup, load, 'p99') / 1000).toFixed(2)} ms  ${(med(setup, load, 'callsPerSec') / base).toFixed(2)}× memory`,
      );
  }
  lines.push('', 'Redis commands per call (MONITOR):');
  for (const [k, v] of Object.entries(redisCommands))
    lines.push(
      `  ${k}: ${
        Object.entries(v.perCall)
          .map(([c, n]) => `${c} ${n.toFixed(2)}`)
          .join(', ') || 'none'
      }`,
    );
  lines.push('', 'Instance CPU µs per call (--cpu-prof, one instance, self time by area):');
  for (const [k, v] of Object.entries(cpu))
    lines.push(
      `  ${k}: total ${Object.values(v.usPerCall)
        .reduce((a, b) => a + b, 0)
        .toFixed(0)}; ${Object.entries(v.usPerCall)
        .sort((a, b) => b[1] - a[1])
        .map(([area, us]) => `${area} ${us.toFixed(0)}`)
        .join(', ')}`,
    );
  console.log(`\n${lines.join('\n')}`);

  if (write) {
    const file = saveResults(here('.'), 'scale-out', {
      command: ['node', 'bench/scale-out.mjs', ...argv].join(' '),
      rounds: ROUNDS,
      config: { seconds: SECONDS, concurrency: CONCURRENCY, loads: { stateless: '2026-07-28', session: '2025-11-25' }, monitoredCalls: MONITORED_CALLS },
      redisCommands: Object.fromEntries(Object.entries(redisCommands).map(([k, v]) => [k, v.perCall])),
      cpu: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, v.usPerCall])),
      servers: SETUPS.map((name) => ({ name, rounds: results[name] })),
    });
    writeReport(here('.'));
    console.log(`wrote ${file}, bench/README.md`);
  }
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  for (const child of children) if (child.exitCode === null) child.kill();
  await deletePrefix();
}
process.exit(exitCode);
