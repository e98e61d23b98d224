// Chaos run, loopback only: three instances (packages/redis/test/support/instance.mjs) on a Redis
// of its own (a redis-server started here, append-only file on every write, so a restart keeps
// what it had acknowledged) behind a round-robin proxy, under load from official SDK clients
// (2025-11-25 sessions with the SDK 1.x client, half their calls on a stream the server closes
// so that the client resumes it with Last-Event-ID; stateless 2026-07-28 calls with the SDK 2.x
// client), while instances are SIGKILLed and restarted and Redis is restarted. It checks that
// every call gets exactly one answer (each JSON-RPC response is counted off the wire) or a
// retryable error, that a call without either was in flight on an instance killed under it, that
// a resumed call's progress arrives exactly once and in order, and that memory stays bounded
// (instances' RSS, Redis's keys and used memory, sampled every second).
// Needs `npm run build` and redis-server on the PATH.
// Usage: node bench/chaos.mjs [--seconds N] [--quick] [--no-write] [--json]
//   --json: the summary as one JSON line on stdout (what packages/redis/test/chaos.e2e.spec.ts reads)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { createRequire } from 'node:module';
import { createServer as createNetServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { percentile } from './lib/stats.mjs';
import { saveResults } from './lib/results.mjs';
import { writeReport } from './lib/render.mjs';

const argv = process.argv.slice(2);
const USAGE = 'usage: node bench/chaos.mjs [--seconds N] [--quick] [--no-write] [--json]';
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--seconds') i++;
  else if (!['--quick', '--no-write', '--json'].includes(argv[i])) throw new Error(`unknown argument ${argv[i]}\n${USAGE}`);
}
const quick = argv.includes('--quick');
const json = argv.includes('--json');
const SECONDS = argv.includes('--seconds') ? Number(argv[argv.indexOf('--seconds') + 1]) : quick ? 10 : 120;
if (!(SECONDS > 0)) throw new Error(`--seconds needs a positive number\n${USAGE}`);
const write = !quick && !json && !argv.includes('--no-write');
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const ROOT = here('..');
const require = createRequire(path.join(ROOT, 'packages/redis/package.json'));
const { createClient } = require('redis');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { Client: Client2, StreamableHTTPClientTransport: Transport2 } = require('@modelcontextprotocol/client');
const INSTANCE = path.join(ROOT, 'packages/redis/test/support/instance.mjs');
const LEGACY_WORKERS = 6;
const MODERN_WORKERS = 4;
const CALL_TIMEOUT_MS = 6000;
const KILL_EVERY_MS = 2000;
const REDIS_RESTART_EVERY_MS = 8000;
const log = (line) => (json ? process.stderr : process.stdout).write(`${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function freePort() {
  const server = createNetServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

/** A redis-server of this run's own; `restart()` stops it (SIGTERM) and starts it again on the same port and data. */
async function startRedis() {
  const dir = mkdtempSync(path.join(tmpdir(), 'typemcp-chaos-'));
  const port = await freePort();
  let child;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'],
      {
        stdio: 'ignore',
      },
    );
    for (let i = 0; i < 100; i++) {
      const c = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: false } });
      c.on('error', () => {});
      try {
        await c.connect();
        await c.ping();
        c.destroy();
        return;
      } catch {
        await sleep(50);
      }
    }
    throw new Error('redis-server did not start');
  };
  const stop = () => new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', r), child.kill('SIGTERM'))));
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    restart: async () => (await stop(), await start()),
    stop: async () => (await stop(), rmSync(dir, { recursive: true, force: true })),
  };
}

/** One instance process; resolves once it listens and its shared state started. */
function startInstance(redisUrl, prefix) {
  const child = spawn(process.execPath, [INSTANCE, redisUrl, prefix], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, INSTANCE_LEASE_MS: '1500' },
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve({ child, ...JSON.parse(line) }));
    child.once('exit', (code) => reject(new Error(`instance exited (${code})`)));
  });
}

/** Round robin over the live instances; a refused connection goes to the next one. */
function startProxy(upstreams) {
  let next = 0;
  const forward = (req, res, body, first, attempt) => {
    if (attempt >= upstreams.length) return res.writeHead(502).end('no upstream');
    const port = upstreams[(first + attempt) % upstreams.length].port;
    const up = request({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers }, (upRes) => {
      res.writeHead(upRes.statusCode, upRes.headers);
      upRes.pipe(res);
      upRes.on('aborted', () => res.destroy());
    });
    up.on('error', (error) => (!res.headersSent && error.code === 'ECONNREFUSED' ? forward(req, res, body, first, attempt + 1) : res.destroy()));
    res.on('close', () => up.destroy());
    up.end(body);
  };
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    forward(req, res, Buffer.concat(chunks), next++, 0);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/mcp` })));
}

/** A fetch that counts, per client, the JSON-RPC responses each request id gets (off the wire, SSE or JSON). */
function countingFetch(responses) {
  return async (url, init) => {
    const res = await fetch(url, init);
    const type = res.headers.get('content-type') ?? '';
    if (res.body && (type.includes('text/event-stream') || type.includes('application/json'))) {
      const copy = res.clone();
      void (async () => {
        const text = await copy.text().catch(() => '');
        const bodies = type.includes('json')
          ? [text]
          : text
              .split('\n')
              .filter((l) => l.startsWith('data:'))
              .map((l) => l.slice(5));
        for (const b of bodies) {
          let m;
          try {
            m = JSON.parse(b);
          } catch {
            continue;
          }
          for (const one of Array.isArray(m) ? m : [m]) {
            if (one && one.id !== undefined && one.id !== null && (one.result !== undefined || one.error !== undefined))
              responses.set(one.id, (responses.get(one.id) ?? 0) + 1);
          }
        }
      })();
    }
    return res;
  };
}

const RETRYABLE =
  /\b(502|503)\b|Service unavailable|no upstream|ECONNRESET|ECONNREFUSED|socket hang up|fetch failed|terminated|other side closed|Session not found|SSE stream disconnected|aborted/i;

async function main() {
  const redis = await startRedis();
  const prefix = `typemcp-chaos:${process.pid}`;
  const instances = await Promise.all([0, 1, 2].map(() => startInstance(redis.url, prefix)));
  const proxy = await startProxy(instances);
  const stats = { ok: 0, retryable: 0, lostWithInstance: 0, bad: 0, duplicates: 0, eventErrors: 0, kills: 0, redisRestarts: 0, reasons: {}, badSamples: [] };
  const latencies = [];
  const disruptions = []; // [from, to] windows: a kill (until its replacement listens) or a Redis restart
  const memory = { instanceRssMb: 0, redisUsedMb: 0, redisKeys: 0 };
  const deadline = Date.now() + SECONDS * 1000;
  let stopping = false;

  const reason = (error) => {
    const m = /\b(\d{3})\b/.exec(String(error?.message ?? error));
    return m ? `http ${m[1]}` : String(error?.message ?? error).slice(0, 40);
  };
  /** Runs one call; `check(result, progress)` says whether the answer is right. */
  async function attempt(run, check) {
    const started = Date.now();
    const progress = [];
    try {
      const result = await run(progress);
      const problem = check(result, progress);
      if (problem) {
        stats.bad++;
        if (/progress/.test(problem)) stats.eventErrors++;
        if (stats.badSamples.length < 5) stats.badSamples.push(problem);
      } else {
        stats.ok++;
        latencies.push(Date.now() - started);
      }
    } catch (error) {
      const message = String(error?.message ?? error);
      const overlapped = disruptions.some(([from, to]) => from <= Date.now() && (to ?? Infinity) >= started);
      if (RETRYABLE.test(message)) stats.retryable++;
      else if (overlapped && /timed out|timeout|-32001|Maximum reconnection/i.test(message)) stats.lostWithInstance++;
      else {
        stats.bad++;
        if (stats.badSamples.length < 5) stats.badSamples.push(message.slice(0, 200));
      }
      stats.reasons[reason(error)] = (stats.reasons[reason(error)] ?? 0) + 1;
      // A client retrying at once would spin on a refusal that answers in the same tick.
      await sleep(50);
      return false;
    }
    return true;
  }

  const countCheck = (steps, detach) => (result, progress) => {
    const text = result?.content?.[0]?.text ?? '';
    if (!new RegExp(`^counted ${steps} on \\d+$`).test(text)) return `wrong result ${JSON.stringify(text).slice(0, 80)}`;
    const expected = Array.from({ length: steps + (detach ? 1 : 0) }, (_, i) => (detach ? i : i + 1));
    if (JSON.stringify(progress) !== JSON.stringify(expected)) return `progress ${JSON.stringify(progress)} instead of ${JSON.stringify(expected)}`;
    return undefined;
  };

  async function legacyWorker(n) {
    while (!stopping) {
      const responses = new Map();
      const client = new Client({ name: `chaos-legacy-${n}`, version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(proxy.url), {
        fetch: countingFetch(responses),
        reconnectionOptions: { initialReconnectionDelay: 50, maxReconnectionDelay: 300, reconnectionDelayGrowFactor: 1.5, maxRetries: 6 },
      });
      try {
        await client.connect(transport, { timeout: CALL_TIMEOUT_MS });
      } catch (error) {
        stats.retryable++;
        stats.reasons[reason(error)] = (stats.reasons[reason(error)] ?? 0) + 1;
        await sleep(100);
        continue;
      }
      for (let i = 0; !stopping; i++) {
        const detach = i % 2 === 1;
        const steps = detach ? 5 : 3;
        const args = detach ? { steps, every: 40, detach: true } : { steps, every: 10 };
        const ok = await attempt(
          (progress) =>
            client.callTool({ name: 'count', arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS, onprogress: (p) => progress.push(p.progress) }),
          countCheck(steps, detach),
        );
        if (!ok) break; // a fresh session after an error (the old one may be gone with Redis or half-resumed)
      }
      await sleep(50);
      for (const count of responses.values()) if (count > 1) stats.duplicates++;
      await client.close().catch(() => {});
    }
  }

  async function modernWorker(n) {
    while (!stopping) {
      const responses = new Map();
      const client = new Client2({ name: `chaos-modern-${n}`, version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      try {
        await client.connect(new Transport2(new URL(proxy.url), { fetch: countingFetch(responses) }), { timeout: CALL_TIMEOUT_MS });
      } catch (error) {
        stats.retryable++;
        stats.reasons[reason(error)] = (stats.reasons[reason(error)] ?? 0) + 1;
        await sleep(100);
        continue;
      }
      while (!stopping) {
        const ok = await attempt(
          () => client.callTool({ name: 'count', arguments: { steps: 2, every: 10 } }, { timeout: CALL_TIMEOUT_MS }),
          (result) => (/^counted 2 on \d+$/.test(result?.content?.[0]?.text ?? '') ? undefined : `wrong result ${JSON.stringify(result).slice(0, 80)}`),
        );
        if (!ok) break; // a fresh client after an error (its transport may have closed)
      }
      await sleep(50);
      for (const count of responses.values()) if (count > 1) stats.duplicates++;
      await client.close().catch(() => {});
    }
  }

  /** Kills (one instance down at a time, back 300 ms later) every KILL_EVERY_MS; Redis restarts from 40% of the run (at most 8 s in) every REDIS_RESTART_EVERY_MS. */
  async function chaos() {
    const start = Date.now();
    let nextKill = start + KILL_EVERY_MS;
    let nextRedis = start + Math.min(8000, SECONDS * 400);
    while (Math.min(nextKill, nextRedis) < deadline - 1000) {
      const redisTurn = nextRedis <= nextKill;
      await sleep(Math.max(0, (redisTurn ? nextRedis : nextKill) - Date.now()));
      const window = [Date.now()];
      disruptions.push(window);
      if (redisTurn) {
        await redis.restart();
        window[1] = Date.now() + 1000;
        stats.redisRestarts++;
        nextRedis = Date.now() + REDIS_RESTART_EVERY_MS;
        continue;
      }
      const index = Math.floor(Math.random() * instances.length);
      instances[index].child.kill('SIGKILL');
      stats.kills++;
      await sleep(300);
      instances[index] = await startInstance(redis.url, prefix);
      window[1] = Date.now() + CALL_TIMEOUT_MS;
      nextKill = Math.max(nextKill + KILL_EVERY_MS, Date.now() + 500);
    }
  }

  async function sample() {
    const probe = createClient({ url: redis.url });
    probe.on('error', () => {});
    await probe.connect().catch(() => {});
    while (!stopping) {
      for (const { pid } of instances) {
        try {
          const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
          memory.instanceRssMb = Math.max(memory.instanceRssMb, rss);
        } catch {
          // restarting
        }
      }
      try {
        memory.redisKeys = Math.max(memory.redisKeys, await probe.dbSize());
        memory.redisUsedMb = Math.max(memory.redisUsedMb, Number(/used_memory:(\d+)/.exec(await probe.info('memory'))[1]) / 2 ** 20);
      } catch {
        // restarting
      }
      await sleep(1000);
    }
    probe.destroy();
  }

  log(`chaos: ${SECONDS} s, ${LEGACY_WORKERS} 2025-11-25 sessions and ${MODERN_WORKERS} 2026-07-28 clients through the proxy`);
  const sampling = sample();
  const workers = [...Array.from({ length: LEGACY_WORKERS }, (_, i) => legacyWorker(i)), ...Array.from({ length: MODERN_WORKERS }, (_, i) => modernWorker(i))];
  await chaos();
  await sleep(Math.max(0, deadline - Date.now()));
  stopping = true;
  // A worker still in a call ends with it (each call has its timeout); none is waited for past that.
  const drained = await Promise.race([Promise.all(workers).then(() => true), sleep(CALL_TIMEOUT_MS * 2).then(() => false)]);
  await sampling;
  // Afterwards every instance answers.
  let servingAfter = 0;
  for (const { port } of instances) {
    const client = new Client2({ name: 'chaos-after', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new Transport2(new URL(`http://127.0.0.1:${port}/mcp`)), { timeout: CALL_TIMEOUT_MS });
    const answer = await client.callTool({ name: 'count', arguments: { steps: 1 } }, { timeout: CALL_TIMEOUT_MS });
    if (/^counted 1 on/.test(answer.content[0].text)) servingAfter++;
    await client.close();
  }
  proxy.server.closeAllConnections();
  proxy.server.close();
  for (const { child } of instances) child.kill('SIGKILL');
  await redis.stop();
  const sorted = Float64Array.from(latencies).sort();
  return {
    seconds: SECONDS,
    calls: stats.ok + stats.retryable + stats.lostWithInstance + stats.bad,
    ...stats,
    servingAfter,
    drained,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    ...memory,
  };
}

// A run that cannot end (a process that never answers) fails instead of hanging its caller.
setTimeout(
  () => {
    process.stderr.write(`chaos: still running ${SECONDS + 90} s after its start, given up\n`);
    process.exit(1);
  },
  (SECONDS + 90) * 1000,
).unref();
const summary = await main();
if (json) {
  process.stdout.write(`${JSON.stringify(summary)}\n`);
} else {
  log(JSON.stringify(summary, null, 2));
  if (write) {
    const file = saveResults(here('.'), 'chaos', {
      command: ['node', 'bench/chaos.mjs', ...argv].join(' '),
      rounds: 1,
      config: {
        seconds: SECONDS,
        legacyWorkers: LEGACY_WORKERS,
        modernWorkers: MODERN_WORKERS,
        killEveryMs: KILL_EVERY_MS,
        redisRestartEveryMs: REDIS_RESTART_EVERY_MS,
        cpus: cpus().length,
      },
      servers: [{ name: 'redis×3+proxy', rounds: [summary] }],
    });
    writeReport(here('.'));
    log(`wrote ${file}, bench/README.md`);
  }
}
process.exit(0);
