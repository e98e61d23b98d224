/**
 * The generated container, without a container daemon (none on these machines): a project made
 * with `--transport http --redis --from <this checkout>` has its Dockerfile run as written by a
 * small interpreter (test/support/dockerfile.ts: RUN and COPY in a scratch folder per stage, npm
 * ci, the build, the production install), then the image's CMD is started as the non-root user it
 * names (uid 1000, `node` in the official images, through setpriv) with the image's environment:
 * it refuses to bind every interface without ALLOWED_HOSTS, serves with it, its HEALTHCHECK
 * command passes on /readyz (Redis and the schema manifest included), it logs JSON lines, and
 * SIGTERM drains it to exit 0. The compose file parses, with three instances and Redis.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { buildDockerfile, type Stage } from './support/dockerfile';

const ROOT = path.resolve(__dirname, '../../..');
const CREATE = path.join(ROOT, 'packages/create-typemcp/dist/bin.js');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The official Node.js images' `node` user. */
const USERS: Record<string, string> = { node: '1000' };

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** The image's CMD (or another command) run as its USER, in its WORKDIR, with its ENV plus `env`. */
function runAs(image: Stage, command: string[], env: Record<string, string>) {
  const uid = USERS[image.user];
  if (!uid) throw new Error(`USER ${image.user}: no uid known for it`);
  const cwd = path.join(image.root, image.workdir);
  return spawn('setpriv', [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--', ...command], {
    cwd,
    env: { PATH: process.env.PATH!, HOME: '/tmp', ...image.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('the generated Dockerfile, run as written', () => {
  let parent: string;
  let project: string;
  let stages: Stage[];
  beforeAll(async () => {
    parent = mkdtempSync(path.join(tmpdir(), 'typemcp-container-'));
    chmodSync(parent, 0o755); // the image's user reads its files
    const created = spawnSync(process.execPath, [CREATE, 'app', '--from', ROOT, '--transport', 'http', '--redis', '--no-install', '--no-git'], {
      cwd: parent,
      encoding: 'utf8',
    });
    expect(created.status).toBe(0);
    project = path.join(parent, 'app');
    // `docker build` needs the lock file the project commits: made here as a user would, once.
    const locked = spawnSync('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund'], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, npm_config_prefer_offline: 'true' },
    });
    expect(locked.status).toBe(0);
    stages = await buildDockerfile(path.join(project, 'Dockerfile'), project, path.join(parent, 'image'));
  }, 300_000);
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it('builds on a supported LTS image in two stages, and runs as the non-root user node', () => {
    expect(stages.map((s) => s.image)).toEqual(['node:24-slim', 'node:24-slim']);
    const image = stages.at(-1)!;
    expect(image).toMatchObject({
      user: 'node',
      workdir: '/app',
      env: { NODE_ENV: 'production', HOST: '0.0.0.0', PORT: '3000' },
      exposed: ['3000'],
      cmd: ['node', 'dist/main.js'],
    });
    const installed = JSON.parse(readFileSync(path.join(image.root, 'app/package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    // Production dependencies only, the schema manifest built, no source and no secret.
    for (const dev of Object.keys(installed.devDependencies))
      expect(() => readFileSync(path.join(image.root, 'app/node_modules', dev, 'package.json'))).toThrow();
    expect(JSON.parse(readFileSync(path.join(image.root, 'app/dist/typemcp.manifest.json'), 'utf8'))).toHaveProperty('schemas');
    expect(() => readFileSync(path.join(image.root, 'app/src/main.ts'))).toThrow();
  });

  it('refuses to bind every interface without ALLOWED_HOSTS, naming the setting', async () => {
    const child = runAs(stages.at(-1)!, stages.at(-1)!.cmd!, { PORT: String(await freePort()) });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(1);
    expect(stderr).toContain('Invalid option "allowedHosts": the server binds 0.0.0.0, not a loopback address');
    expect(stderr).toContain('ALLOWED_HOSTS');
  }, 30_000);

  it('starts, passes its HEALTHCHECK on /readyz, logs JSON lines, and drains to exit 0 on SIGTERM', async () => {
    const image = stages.at(-1)!;
    const port = String(await freePort());
    // HOST=127.0.0.1 here: on this machine the process shares the host's network (in a container, 0.0.0.0 is the container's own).
    const env = { PORT: port, HOST: '127.0.0.1', ALLOWED_HOSTS: 'localhost', REDIS_URL, DRAIN_MS: '200' };
    const server = runAs(image, image.cmd!, env);
    let stderr = '';
    server.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise((resolve) => server.once('exit', resolve));
    try {
      const healthcheck = image.healthcheck!;
      expect(healthcheck.options).toMatchObject({ interval: '10s', timeout: '3s' });
      let healthy = false;
      for (let i = 0; i < 100 && !healthy; i++) {
        const probe = runAs(image, healthcheck.command, env);
        healthy = (await new Promise((resolve) => probe.once('exit', resolve))) === 0;
        if (!healthy) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(healthy).toBe(true);
      expect(await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()).toEqual({ status: 'ready', checks: { database: 'ok', 'shared-state': 'ok' } });
      // A rebinding Host is refused (fetch cannot set Host: node:http can).
      const status = await new Promise((resolve, reject) =>
        request(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: { host: 'evil.example' } }, (res) => (res.resume(), resolve(res.statusCode)))
          .on('error', reject)
          .end(),
      );
      expect(status).toBe(403);
      server.kill('SIGTERM');
      expect(await exited).toBe(0);
      const lines = stderr.trim().split('\n');
      const records = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { level: number });
      expect(records.length).toBeGreaterThan(0);
      expect(stderr).not.toContain('TYPEMCP_WARN_STALE_MANIFEST');
    } finally {
      server.kill('SIGKILL');
    }
  }, 60_000);

  it('has a compose file with three instances of the image and Redis', () => {
    const compose = parse(readFileSync(path.join(project, 'compose.yaml'), 'utf8')) as {
      services: Record<string, { image?: string; build?: string; environment?: Record<string, string>; deploy?: { replicas: number }; depends_on?: object }>;
    };
    expect(compose.services.redis.image).toMatch(/^redis:7/);
    expect(compose.services.app).toMatchObject({
      build: '.',
      deploy: { replicas: 3 },
      environment: { REDIS_URL: 'redis://redis:6379', ALLOWED_HOSTS: expect.any(String) },
      depends_on: { redis: { condition: 'service_healthy' } },
    });
  });
});
