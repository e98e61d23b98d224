/**
 * A Redis Cluster of three primaries on loopback ports, started from the machine's `redis-server`
 * (and joined with `redis-cli --cluster create`) in a temporary directory, for the Cluster specs.
 * It never skips: a machine that cannot start one fails the spec that asked for it, with why.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createClient } from 'redis';

export interface RedisCluster {
  /** `redis://127.0.0.1:<port>` of each primary. */
  readonly urls: string[];
  /** Stops the three servers and removes their directory. */
  stop(): Promise<void>;
}

/** True when `port` (and its cluster bus port, +10000) can be bound on loopback. */
async function free(port: number): Promise<boolean> {
  const tryBind = (p: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(p, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  return (await tryBind(port)) && (await tryBind(port + 10_000));
}

async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  for (let attempt = 0; ports.length < count && attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    if (!ports.includes(port) && (await free(port))) ports.push(port);
  }
  if (ports.length < count) throw new Error('could not find free loopback ports for a Redis Cluster');
  return ports;
}

/** Waits until every node says `cluster_state:ok` (the slots are assigned and agreed on). */
async function untilReady(urls: string[], deadline: number): Promise<void> {
  for (const url of urls) {
    const client = createClient({ url, socket: { reconnectStrategy: false } });
    client.on('error', () => undefined);
    await client.connect();
    try {
      while (!/cluster_state:ok/.test((await client.sendCommand(['CLUSTER', 'INFO'])) as string)) {
        if (Date.now() > deadline) throw new Error(`the Redis Cluster node ${url} did not reach cluster_state:ok`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      client.destroy();
    }
  }
}

export async function startRedisCluster(): Promise<RedisCluster> {
  const which = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (which.status !== 0) throw new Error(`redis-server is needed to start a Redis Cluster: ${which.error?.message ?? which.stderr}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'typemcp-cluster-'));
  const ports = await freePorts(3);
  const servers: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(
      servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            if (s.exitCode !== null || s.signalCode !== null) return resolve();
            s.once('exit', () => resolve());
            s.kill('SIGKILL');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`];
      args.push('--dir', dir, '--save', '', '--appendonly', 'no', '--cluster-node-timeout', '2000', '--protected-mode', 'no');
      const server = spawn('redis-server', args, { stdio: 'ignore' });
      servers.push(server);
    }
    const urls = ports.map((p) => `redis://127.0.0.1:${p}`);
    const deadline = Date.now() + 20_000;
    for (const url of urls) {
      for (;;) {
        const ping = spawnSync('redis-cli', ['-u', url, 'PING'], { encoding: 'utf8' });
        if (ping.stdout.trim() === 'PONG') break;
        if (Date.now() > deadline) throw new Error(`redis-server on ${url} did not start: ${ping.stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const create = spawnSync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    await untilReady(urls, deadline);
    return { urls, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
