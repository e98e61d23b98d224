/**
 * The bounded chaos run (bench/chaos.mjs, 20 s here; the bench runs it longer): three instances
 * on a Redis of its own behind a round-robin proxy, under load from SDK 1.x (2025-11-25 sessions,
 * resumed streams) and SDK 2.x (2026-07-28) clients while instances are SIGKILLed and restarted
 * and Redis is restarted, all on loopback. Every call got exactly one answer or a retryable
 * error (or was in flight on an instance killed under it), resumed progress arrived once and in
 * order, memory stayed bounded, and every instance serves afterwards. Needs `npx tsc -b` first
 * and redis-server on the PATH (it fails without it: the run starts its own Redis).
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';

interface Summary {
  calls: number;
  ok: number;
  retryable: number;
  lostWithInstance: number;
  bad: number;
  badSamples: string[];
  duplicates: number;
  eventErrors: number;
  kills: number;
  redisRestarts: number;
  servingAfter: number;
  drained: boolean;
  instanceRssMb: number;
  redisKeys: number;
  redisUsedMb: number;
}

function runChaos(seconds: number): Promise<Summary> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.resolve(__dirname, '../../../bench/chaos.mjs'), '--seconds', String(seconds), '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.once('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !last.startsWith('{')) return reject(new Error(`bench/chaos.mjs exited ${code}:\n${err.slice(-2000)}${out.slice(-2000)}`));
      resolve(JSON.parse(last) as Summary);
    });
  });
}

it('survives 20 s of instance kills and a Redis restart under load: one answer per call, events once, memory bounded', async () => {
  const s = await runChaos(20);
  process.stdout.write(`chaos (20 s): ${JSON.stringify(s)}\n`);
  expect(s.badSamples).toEqual([]);
  expect({ bad: s.bad, duplicates: s.duplicates, eventErrors: s.eventErrors, servingAfter: s.servingAfter, drained: s.drained }).toEqual({
    bad: 0,
    duplicates: 0,
    eventErrors: 0,
    servingAfter: 3,
    drained: true,
  });
  expect(s.kills).toBeGreaterThanOrEqual(2);
  expect(s.redisRestarts).toBeGreaterThanOrEqual(1);
  expect(s.ok).toBeGreaterThanOrEqual(50);
  // Most calls get through; the rest were refused with a retryable error or died with their instance.
  expect(s.ok).toBeGreaterThan((s.retryable + s.lostWithInstance) * 3);
  expect(s.instanceRssMb).toBeLessThan(400);
  expect(s.redisKeys).toBeLessThan(2000);
}, 150_000);
