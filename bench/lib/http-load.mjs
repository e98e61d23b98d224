/**
 * The HTTP benchmarks' load: `tools/call add` over keep-alive node:http with a fixed number of
 * calls in flight, each answer checked, and the server's CPU per call read from /proc.
 */
import { Agent, request } from 'node:http';
import { answerIn } from './answer.mjs';
import { cpuMsOf } from './process.mjs';
import { percentile } from './stats.mjs';

/**
 * One `tools/call add { a, b }` to 127.0.0.1:`port`/mcp; rejects unless the answer is `a + b`.
 * `meta`: the 2026-07-28 request `_meta` (its headers too); without it, a 2025-06-18 request.
 */
export function callAdd(agent, port, a, b, meta) {
  const params = meta ? { name: 'add', arguments: { a, b }, _meta: meta } : { name: 'add', arguments: { a, b } };
  const body = JSON.stringify({ jsonrpc: '2.0', id: a, method: 'tools/call', params });
  const era = meta ? { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'add' } : { 'mcp-protocol-version': '2025-06-18' };
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...era,
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          try {
            const json = answerIn(res.headers['content-type'], text);
            if (res.statusCode !== 200 || json?.result?.content?.[0]?.text !== String(a + b))
              throw new Error(`bad answer ${res.statusCode}: ${text.slice(0, 200)}`);
            resolve();
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

/**
 * `concurrency` callers calling `add` for `seconds`: calls/s, p50 and p99 latency (µs), and the
 * CPU per call (µs) of process `pid` when it can be read.
 */
export async function load({ port, seconds, pid, concurrency, meta }) {
  const cpu0 = cpuMsOf(pid);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const samples = [];
  const end = performance.now() + seconds * 1000;
  const start = process.hrtime.bigint();
  let n = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = process.hrtime.bigint();
        await callAdd(agent, port, n++, 1, meta);
        samples.push(Number(process.hrtime.bigint() - t) / 1000);
      }
    }),
  );
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  agent.destroy();
  const sorted = Float64Array.from(samples).sort();
  const cpu1 = cpuMsOf(pid);
  const cpuUsPerCall = cpu0 !== undefined && cpu1 !== undefined ? ((cpu1 - cpu0) * 1000) / samples.length : undefined;
  return {
    callsPerSec: samples.length / elapsed,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    ...(cpuUsPerCall !== undefined ? { cpuUsPerCall } : {}),
  };
}
