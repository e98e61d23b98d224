/**
 * Lifecycle hooks in one process: which instances take part (services, @Injectable
 * dependencies, class providers, interceptor classes; not ready values), their order, the
 * testing kit's start and close, HTTP listen() and close(), failures, the deprecated destroy(),
 * and @ReadinessCheck() methods.
 */
import {
  createServer,
  getMetadataStorage,
  Injectable,
  McpService,
  ReadinessCheck,
  Tool,
  UseInterceptors,
  type CallNext,
  type Interceptor,
} from '@typemcp/core';
import { createTestClient } from '@typemcp/testing';
import type {} from '@typemcp/http';

beforeEach(() => getMetadataStorage().reset());

/** Classes that record their hooks in `calls`. */
function declare(calls: string[], options: { failInit?: string; failDestroy?: string } = {}) {
  const hooks = (name: string) => ({
    async onInit() {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (options.failInit === name) throw new Error(`${name} cannot start`);
      calls.push(`init ${name}`);
    },
    onDestroy() {
      calls.push(`destroy ${name}`);
      if (options.failDestroy === name) throw new Error(`${name} cannot stop`);
    },
  });
  @Injectable()
  class Pool {}
  Object.assign(Pool.prototype, hooks('Pool'));
  @Injectable()
  class Repo {
    constructor(readonly pool: Pool) {}
  }
  Object.assign(Repo.prototype, hooks('Repo'));
  class Audit implements Interceptor {
    intercept(_call: unknown, next: CallNext) {
      return next();
    }
  }
  Object.assign(Audit.prototype, hooks('Audit'));
  @McpService()
  @UseInterceptors(Audit)
  class Notes {
    constructor(readonly repo: Repo) {}
    @Tool({ description: 'ping' })
    ping() {
      return calls.includes('init Audit') ? 'started' : 'not started';
    }
  }
  Object.assign(Notes.prototype, hooks('Notes'));
  return { Pool, Repo, Audit, Notes };
}

it('runs onInit() in order of creation before the first request, and onDestroy() in reverse on the testing kit close()', async () => {
  const calls: string[] = [];
  const { Notes } = declare(calls);
  const client = await createTestClient({ services: [Notes] });
  expect(calls).toEqual(['init Pool', 'init Repo', 'init Notes', 'init Audit']);
  expect(await client.callTool('ping', {})).toMatchObject({ content: [{ text: 'started' }] });
  await client.close();
  expect(calls.slice(4)).toEqual(['destroy Audit', 'destroy Notes', 'destroy Repo', 'destroy Pool']);
});

it('runs the hooks of a class provider and not those of a ready value, once however often the server is closed', async () => {
  const calls: string[] = [];
  const { Notes, Pool, Repo } = declare(calls);
  class FakeRepo {
    onInit() {
      calls.push('init FakeRepo');
    }
    onDestroy() {
      calls.push('destroy FakeRepo');
    }
  }
  const value = { onInit: () => calls.push('init value'), onDestroy: () => calls.push('destroy value') };
  const server = createServer({
    name: 's',
    version: '1',
    services: [Notes],
    providers: [
      { provide: Repo, useClass: FakeRepo },
      { provide: Pool, useValue: value },
    ],
  });
  await Promise.all([server.start(), server.start()]);
  await Promise.all([server.close(), server.close()]);
  expect(calls).toEqual(['init FakeRepo', 'init Notes', 'init Audit', 'destroy Audit', 'destroy Notes', 'destroy FakeRepo']);
});

it('stops start-up at a failing onInit() (listen rejects with its error) and stops only the instances started before it', async () => {
  const calls: string[] = [];
  const { Notes } = declare(calls, { failInit: 'Audit' });
  const server = createServer({ name: 's', version: '1', services: [Notes] });
  await expect(server.listen({ transport: 'http', port: 0 })).rejects.toThrow('Audit cannot start');
  expect(calls).toEqual(['init Pool', 'init Repo', 'init Notes', 'destroy Notes', 'destroy Repo', 'destroy Pool']);
  await expect(createTestClient({ server })).rejects.toThrow('Audit cannot start');
});

it('reports a throwing onDestroy() and still runs the others', async () => {
  const calls: string[] = [];
  const errors: string[] = [];
  const { Notes } = declare(calls, { failDestroy: 'Repo' });
  const server = createServer({ name: 's', version: '1', services: [Notes], onError: (error, where) => errors.push(`${where}: ${(error as Error).message}`) });
  await server.start();
  await server.close();
  expect(calls.slice(4)).toEqual(['destroy Audit', 'destroy Notes', 'destroy Repo', 'destroy Pool']);
  expect(errors).toEqual(['Repo.onDestroy: Repo cannot stop']);
});

it('over HTTP: listens only after onInit(), and the listener close() runs onDestroy()', async () => {
  const calls: string[] = [];
  const { Notes } = declare(calls);
  const server = createServer({ name: 's', version: '1', services: [Notes] });
  const listener = await server.listen({ transport: 'http', port: 0, handleSignals: false });
  expect(calls).toEqual(['init Pool', 'init Repo', 'init Notes', 'init Audit']);
  await listener.close(0);
  expect(calls.slice(4)).toEqual(['destroy Audit', 'destroy Notes', 'destroy Repo', 'destroy Pool']);
});

it('still calls the undocumented destroy() of a class without onDestroy(), awaited, once, with a deprecation warning', async () => {
  const calls: string[] = [];
  @McpService()
  class Legacy {
    async destroy() {
      await new Promise((resolve) => setTimeout(resolve, 5));
      calls.push('destroy');
    }
    @Tool({ description: 'x' })
    x() {
      return 'x';
    }
  }
  const warnings: string[] = [];
  const server = createServer({ name: 's', version: '1', services: [Legacy], onWarning: (w) => warnings.push(w.code) });
  await server.close();
  expect(calls).toEqual(['destroy']);
  expect(warnings).toEqual(['TYPEMCP_WARN_DEPRECATED_DESTROY']);
});

it('collects @ReadinessCheck() methods bound to their instance, and refuses a bad timeout as a definition error', async () => {
  @Injectable()
  class Db {
    up = true;
    @ReadinessCheck({ name: 'database', timeoutMs: 500 })
    ping() {
      if (!this.up) throw new Error('down');
    }
  }
  @McpService()
  class Svc {
    constructor(readonly db: Db) {}
    @ReadinessCheck()
    ready() {
      return this.db.up;
    }
    @Tool({ description: 'x' })
    x() {
      return 'x';
    }
  }
  const server = createServer({ name: 's', version: '1', services: [Svc] });
  const checks = server.readinessChecks();
  expect(checks.map((c) => [c.name, c.timeoutMs])).toEqual([
    ['database', 500],
    ['Svc.ready', 2000],
  ]);
  expect(checks.map((c) => c.check())).toEqual([undefined, true]);
  server.get(Db).up = false;
  expect(() => checks[0].check()).toThrow('down');
  expect(checks[1].check()).toBe(false);
  expect(() => {
    class Bad {
      @ReadinessCheck({ timeoutMs: 0 })
      ping() {}
    }
    return Bad;
  }).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_INVALID_READINESS_CHECK', message: expect.stringContaining('Bad.ping has timeoutMs: 0') }));
});
