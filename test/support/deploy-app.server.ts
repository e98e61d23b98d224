/**
 * A server as a deployed application is written: configuration from the environment, an
 * injectable holding a PostgreSQL pool opened in `onInit()` and closed in `onDestroy()`, a
 * readiness check on it, a long tool with progress. Run as a child process by the deploy tests
 * (`node -r test/support/ts-child.cjs`), over stdio or HTTP (optionally on Redis shared state).
 * It writes `{"event":...}` lines on stderr for the tests to follow, and over HTTP one line
 * `{"port":N}` on stdout once listening.
 */
import 'reflect-metadata';
import { Context, createServer, Injectable, loadConfig, McpService, ReadinessCheck, Tool, type OnDestroy, type OnInit } from '@typemcp/core';
import type {} from '@typemcp/http';
import { redisState } from '@typemcp/redis';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Min } from 'class-validator';
import { Pool } from 'pg';

const event = (name: string, extra: object = {}) => process.stderr.write(`${JSON.stringify({ event: name, pid: process.pid, ...extra })}\n`);
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason as Error)), { once: true });
  });

class DeployConfig {
  @IsString() databaseUrl!: string;
  @IsIn(['stdio', 'http']) transport = 'stdio';
  @IsString() appName = 'typemcp-deploy';
  @IsOptional() @IsString() redisUrl?: string;
  @IsString() redisPrefix = 'typemcp-deploy';
  @IsBoolean() failStart = false;
  @IsInt() @Min(0) drainMs = 200;
}

@Injectable()
class Database implements OnInit, OnDestroy {
  readonly pool: Pool;
  ready = false;

  constructor(private readonly config: DeployConfig) {
    this.pool = new Pool({ connectionString: config.databaseUrl, application_name: config.appName, connectionTimeoutMillis: 1000, max: 2 });
    // An idle client that loses its connection must not crash the process; the next query reconnects.
    this.pool.on('error', () => {});
  }

  async onInit(): Promise<void> {
    if (this.config.failStart) throw new Error('the notes table is missing: run the migrations first');
    await this.pool.query('select 1');
    await sleep(150); // a slow start: the first answer must still wait for it
    this.ready = true;
    event('init');
  }

  async onDestroy(): Promise<void> {
    await this.pool.end();
    event('destroy');
  }

  @ReadinessCheck({ name: 'database', timeoutMs: 1000 })
  async ping(): Promise<void> {
    await this.pool.query('select 1');
  }
}

class CountInput {
  @IsInt() @Min(1) steps = 5;
  @IsInt() @Min(1) every = 50;
}

@McpService()
class NotesService {
  constructor(private readonly db: Database) {}

  @Tool({ description: 'Whether the database was ready when this call ran, and which process answered.' })
  async status(): Promise<string> {
    const { rows } = await this.db.pool.query<{ one: number }>('select 1 as one');
    return JSON.stringify({ ready: this.db.ready, one: rows[0].one, pid: process.pid });
  }

  @Tool({ description: 'Counts to `steps`, one progress notification every `every` ms.' })
  async count(input: CountInput, ctx: Context): Promise<string> {
    for (let i = 1; i <= input.steps; i++) {
      await sleep(input.every, ctx.signal);
      ctx.progress(i, input.steps, `step ${i}`);
    }
    return `counted ${input.steps} on ${process.pid}`;
  }
}

async function main(): Promise<void> {
  const config = await loadConfig(DeployConfig);
  const server = createServer({ name: 'deploy-app', version: '1.0.0', services: [NotesService], providers: [{ provide: DeployConfig, useValue: config }] });
  if (config.transport === 'stdio') {
    const connection = await server.listen({ transport: 'stdio', banner: false });
    await connection.closed;
    event('closed');
    process.exit(0);
  }
  const state = config.redisUrl ? redisState({ url: config.redisUrl, prefix: config.redisPrefix }) : undefined;
  const listener = await server.listen({ transport: 'http', port: 0, drainMs: config.drainMs, shutdownTimeoutMs: 10_000, keepAliveMs: 0, state });
  process.stdout.write(`${JSON.stringify({ port: listener.port })}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
