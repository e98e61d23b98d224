/** Instances of test/support/instance.mjs as child processes (built packages), so a kill is real. */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { RoundRobinProxy } from './round-robin-proxy';
import { deleteKeys } from './redis-env';

export interface Instance {
  readonly url: string;
  readonly port: number;
  readonly node: number;
  readonly pid: number;
  readonly child: ChildProcess;
  readonly stderr: string[];
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const SCRIPT = path.join(__dirname, 'instance.mjs');

export interface InstanceOptions {
  /** The sessions' idle timeout (their TTL in Redis). */
  idleTimeoutMs?: number;
  /** Bearer tokens required: `token-<name>` is the principal `{ sub: <name> }` (see instance.mjs). */
  auth?: boolean;
  /** The lease of the tasks an instance runs (default 10 000 ms). */
  leaseMs?: number;
  /** The TTL of the per-user state of instance.mjs's tools (default 60 000 ms). */
  stateTtlMs?: number;
}

export async function startInstance(redisUrl: string, prefix: string, options: InstanceOptions = {}): Promise<Instance> {
  const args = [SCRIPT, redisUrl, prefix, ...(options.idleTimeoutMs ? [String(options.idleTimeoutMs)] : [])];
  const env = {
    ...process.env,
    INSTANCE_AUTH: options.auth ? '1' : '',
    INSTANCE_LEASE_MS: options.leaseMs ? String(options.leaseMs) : '',
    INSTANCE_STATE_TTL_MS: options.stateTtlMs ? String(options.stateTtlMs) : '',
  };
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  const stderr: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (d: string) => stderr.push(d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const first = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`instance exited (${code}): ${stderr.join('')}`)));
  });
  const { port, node, pid } = JSON.parse(first) as { port: number; node: number; pid: number };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    node,
    pid,
    child,
    stderr,
    kill: async (signal = 'SIGKILL') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Three instances on one prefix behind a round-robin proxy (the scale-out specs' deployment). */
export interface Cluster {
  readonly instances: Instance[];
  readonly proxy: RoundRobinProxy;
  /** Replaces instance `index` (killed) by a new one behind the same proxy slot. */
  restart(index: number): Promise<Instance>;
  /** Closes the proxy, stops the instances (SIGTERM) and deletes the prefix's keys. */
  stop(): Promise<void>;
}

export async function startCluster(redisUrl: string, prefix: string, options: InstanceOptions = {}): Promise<Cluster> {
  const instances = await Promise.all([0, 1, 2].map(() => startInstance(redisUrl, prefix, options)));
  const proxy = new RoundRobinProxy(instances.map((i) => i.url));
  await proxy.start();
  return {
    instances,
    proxy,
    restart: async (index) => {
      await instances[index].kill('SIGKILL');
      const fresh = await startInstance(redisUrl, prefix, options);
      instances[index] = fresh;
      proxy.upstreams[index] = fresh.url;
      return fresh;
    },
    stop: async () => {
      await proxy.close();
      await Promise.all(instances.map((i) => i.kill('SIGTERM')));
      await deleteKeys(prefix, redisUrl);
    },
  };
}
