/**
 * Structured logs with pino itself plugged in (writing to a stream the test reads back), over
 * real HTTP with the official SDK client and bearer authentication: the request log (`info`,
 * request id, session id, principal id), an internal error (`error`, with the request's method,
 * id, session and principal), a start-up warning (`warn`), the child bindings of the logger
 * given and of TypeMCP's own children; and nothing ever carries the bearer token, the
 * Authorization header, the principal's other claims or a tool's arguments. Then how `onError`
 * and `logger` share errors, and the default output (no logger) left as it was.
 */
import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pino } from 'pino';
import { IsString } from 'class-validator';
import { createServer, getMetadataStorage, McpService, Tool, type StructuredLogger, type TypeMcpServer } from '@typemcp/core';
import { createMcpExpressApp, serveHttp, type HttpListener } from '@typemcp/http';
import { createTestClient } from '@typemcp/testing';

const TOKEN = 'tok-SECRET-a1b2c3d4';
const ARGUMENT = 'ARG-SECRET-z9y8x7';
const EMAIL = 'alice@example.com';

interface LogRecord {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A pino logger writing to memory, and what it wrote (raw lines and parsed records). */
function pinoToMemory(level = 'debug') {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino({ level }, destination);
  return { logger, lines, records: () => lines.map((line) => JSON.parse(line) as LogRecord) };
}

class StoreArgs {
  @IsString() secret!: string;
}

function declareServices() {
  getMetadataStorage().reset();
  @McpService()
  class Vault {
    @Tool({ description: 'Stores a secret' })
    store(args: StoreArgs) {
      return `stored ${args.secret.length} characters`;
    }

    @Tool({ description: 'Fails inside' })
    explode(): string {
      throw new Error('kaboom inside the tool');
    }
  }
  // Declared, never served: a start-up warning.
  @McpService()
  class Forgotten {}
  return { Vault, Forgotten };
}

const stderrLines = (spy: jest.SpyInstance) =>
  spy.mock.calls.map((c: unknown[]) => String(c[0])).filter((line) => line.includes('typemcp') || line.includes('"http request"'));

describe('logger: pino over HTTP with the SDK client', () => {
  let server: TypeMcpServer;
  let listener: HttpListener;
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  const memory = pinoToMemory();
  /** What TypeMCP wrote on stderr meanwhile. */
  let written: string[];

  beforeAll(async () => {
    const stderr = jest.spyOn(process.stderr, 'write');
    const { Vault } = declareServices();
    server = createServer({ name: 'vault', version: '1.0.0', services: [Vault], logger: memory.logger.child({ app: 'vault-test' }) });
    listener = (await server.listen({
      transport: 'http',
      port: 0,
      keepAliveMs: 0,
      auth: { verify: (token) => (token === TOKEN ? { sub: 'alice', email: EMAIL } : undefined) },
    })) as HttpListener;
    client = new Client({ name: 'logging-test', version: '1.0.0' });
    transport = new StreamableHTTPClientTransport(new URL(listener.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
    await client.connect(transport);
    expect(await client.callTool({ name: 'store', arguments: { secret: ARGUMENT } })).toMatchObject({ content: [{ text: 'stored 17 characters' }] });
    expect(await client.callTool({ name: 'explode', arguments: {} })).toMatchObject({ isError: true });
    await transport.terminateSession();
    await client.close();
    await listener.close();
    written = stderrLines(stderr);
    stderr.mockRestore();
  });

  it('writes one info record per HTTP request, with a request id, the session id and the principal id', () => {
    const http = memory.records().filter((r) => r.msg === 'http request');
    // initialize, notifications/initialized, the GET stream, two tools/call, and the DELETE on close.
    expect(http.length).toBeGreaterThanOrEqual(5);
    const sessionId = http.find((r) => r.method === 'DELETE')?.sessionId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    for (const record of http) {
      expect([record.method, record.status, record.sessionId]).toEqual([record.method, record.status, sessionId]);
      expect(record).toMatchObject({ level: 30, app: 'vault-test', component: 'http', path: '/mcp', principalId: 'alice' });
      expect(record.reqId).toMatch(/^[0-9a-f-]{36}$/);
      expect(typeof record.ms).toBe('number');
      expect(['GET', 'POST', 'DELETE']).toContain(record.method);
    }
    expect(new Set(http.map((r) => r.reqId)).size).toBe(http.length);
    expect(http.filter((r) => r.method === 'POST').map((r) => r.status)).toEqual(expect.arrayContaining([200, 202]));
  });

  it('writes an internal error as an error record with the request it happened in', () => {
    const errors = memory.records().filter((r) => r.level === 50);
    expect(errors).toHaveLength(1);
    const [record] = errors;
    expect(record).toMatchObject({
      msg: 'internal error',
      app: 'vault-test',
      component: 'engine',
      method: 'tools/call',
      where: expect.stringMatching(/^tools\/call explode \(request \d+\)$/),
      requestId: expect.any(Number),
      principalId: 'alice',
      sessionId: memory.records().find((r) => r.method === 'DELETE')?.sessionId,
      err: { type: 'Error', message: 'kaboom inside the tool', stack: expect.stringContaining('kaboom inside the tool') },
    });
  });

  it('writes start-up warnings as warn records with their code', () => {
    const warnings = memory.records().filter((r) => r.level === 40);
    expect(warnings).toContainEqual(
      expect.objectContaining({ app: 'vault-test', component: 'core', code: 'TYPEMCP_WARN_UNSERVED_SERVICE', msg: expect.stringContaining('Forgotten') }),
    );
  });

  it('never logs the bearer token, the Authorization header, other claims of the principal or tool arguments', () => {
    expect(memory.lines.length).toBeGreaterThan(5);
    const all = memory.lines.join('\n');
    for (const secret of [TOKEN, ARGUMENT, EMAIL, 'Bearer', 'authorization', 'Authorization']) expect(all).not.toContain(secret);
  });

  it('leaves stderr alone once a logger is given', () => {
    expect(written).toEqual([]);
  });
});

describe('logger and onError', () => {
  afterEach(() => jest.restoreAllMocks());

  async function failOnce(options: { logger?: StructuredLogger; onError?: (error: unknown, where: string) => void }) {
    const { Vault } = declareServices();
    const client = await createTestClient({ services: [Vault], onWarning: () => {}, ...options });
    await client.callTool('explode');
    await client.close();
  }

  it('gives each internal error to both when both are set, and nothing to stderr', async () => {
    const stderr = jest.spyOn(process.stderr, 'write');
    const memory = pinoToMemory();
    const reported: string[] = [];
    await failOnce({ logger: memory.logger, onError: (error, where) => reported.push(`${where}: ${(error as Error).message}`) });
    expect(reported).toEqual([expect.stringMatching(/^tools\/call explode \(request \d+\): kaboom inside the tool$/)]);
    expect(memory.records().filter((r) => r.level === 50)).toHaveLength(1);
    expect(stderrLines(stderr)).toEqual([]);
  });

  it('without a logger, onError alone receives errors; with neither, one stderr line as before', async () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const reported: unknown[] = [];
    await failOnce({ onError: (error) => reported.push(error) });
    expect(reported).toHaveLength(1);
    expect(stderrLines(stderr)).toEqual([]);
    await failOnce({});
    expect(stderrLines(stderr)).toEqual([
      expect.stringMatching(/^\[typemcp\] internal error in tools\/call explode \(request \d+\): Error: kaboom inside the tool\n/),
    ]);
  });

  it("logs a hook that throws, and the HTTP layer's own failures (a rate-limit store that fails: a masked 500)", async () => {
    const memory = pinoToMemory();
    const { Vault } = declareServices();
    const server = createServer({
      name: 'vault',
      version: '1.0.0',
      services: [Vault],
      onWarning: () => {},
      logger: memory.logger,
      hooks: {
        onRequest: () => {
          throw new Error('the hook broke');
        },
      },
    });
    const listener = await serveHttp(server, {
      port: 0,
      keepAliveMs: 0,
      sessions: false,
      rateLimit: {
        capacity: 1,
        refillPerSecond: 1,
        key: (req) => (req.headers['x-fail'] ? 'fail' : undefined),
        store: {
          take: () => {
            throw new Error('store unreachable');
          },
        },
      },
    });
    try {
      const post = (headers: Record<string, string> = {}) =>
        fetch(listener.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }),
        });
      const ok = await post();
      expect(ok.status).toBe(200);
      await ok.text();
      const failed = await post({ 'x-fail': '1' });
      expect([failed.status, ((await failed.json()) as { error: { message: string } }).error.message]).toEqual([500, 'Internal error']);
    } finally {
      await listener.close();
    }
    const errors = memory.records().filter((r) => r.level === 50);
    expect(errors).toEqual([
      expect.objectContaining({
        component: 'engine',
        msg: 'internal error',
        where: 'hook onRequest',
        err: expect.objectContaining({ message: 'the hook broke' }),
      }),
      expect.objectContaining({ component: 'http', msg: 'http error', where: 'POST /mcp', err: expect.objectContaining({ message: 'store unreachable' }) }),
    ]);
  });

  it('refuses a logger without pino shape', () => {
    expect(() => createServer({ name: 'x', version: '1', services: [], logger: { info() {} } as never })).toThrow(
      expect.objectContaining({ code: 'TYPEMCP_ERR_INVALID_OPTION', option: 'logger' }),
    );
    const server = createServer({ name: 'x', version: '1', services: [] });
    expect(() => createMcpExpressApp(server, { logger: console as never })).toThrow(expect.objectContaining({ option: 'logger' }));
  });
});

describe('request log without a logger (log: true)', () => {
  it('writes the same JSON line on stderr as before: time, msg, method, path, status, ms, session', async () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    getMetadataStorage().reset();
    const listener = await serveHttp(createServer({ name: 'x', version: '1', services: [] }), { port: 0, log: true, keepAliveMs: 0 });
    try {
      const res = await fetch(`${listener.url}?token=${TOKEN}`, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': 'abc', authorization: `Bearer ${TOKEN}` },
      });
      await res.text();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      await listener.close();
    }
    const lines = stderrLines(stderr);
    stderr.mockRestore();
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(Object.keys(line)).toEqual(['time', 'msg', 'method', 'path', 'status', 'ms', 'session']);
    expect(line).toMatchObject({ msg: 'http request', method: 'GET', path: '/mcp', status: 404, session: 'abc' });
    expect(lines[0]).not.toContain(TOKEN);
  });

  it("names an authenticated principal as `principal` (its principalId: a verified token's subject, else its client)", async () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    getMetadataStorage().reset();
    // What the built-in verifiers return: `subject` and `clientId`, no `sub` member (the claims hold it).
    const principals: Record<string, unknown> = {
      user: { subject: 'alice', clientId: 'app', scopes: [], claims: { sub: 'alice', email: EMAIL } },
      service: { clientId: 'ci-runner', scopes: [], claims: { client_id: 'ci-runner' } },
    };
    const listener = await serveHttp(createServer({ name: 'x', version: '1', services: [] }), {
      port: 0,
      log: true,
      keepAliveMs: 0,
      auth: { verify: (token) => principals[token] },
    });
    try {
      for (const token of ['user', 'service']) {
        const res = await fetch(listener.url, { method: 'DELETE', headers: { 'mcp-session-id': 'none', authorization: `Bearer ${token}` } });
        await res.text();
      }
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      await listener.close();
    }
    const lines = stderrLines(stderr).map((l) => JSON.parse(l) as Record<string, unknown>);
    stderr.mockRestore();
    expect(lines.map((l) => Object.keys(l))).toEqual([
      ['time', 'msg', 'method', 'path', 'status', 'ms', 'session', 'principal'],
      ['time', 'msg', 'method', 'path', 'status', 'ms', 'session', 'principal'],
    ]);
    expect(lines.map((l) => l.principal)).toEqual(['alice', 'ci-runner']);
    expect(JSON.stringify(lines)).not.toContain(EMAIL);
  });
});
