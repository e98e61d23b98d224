/**
 * Engine hooks, seen from a real session: requests, responses (result or error, duration),
 * notifications, reported errors and the session's open and close, in order; a hook that throws
 * is reported and the request is still answered; with no hook the method table is untouched.
 */
import { IsString } from 'class-validator';
import { createServer, getMetadataStorage, InvalidOptionError, McpError, McpService, Tool } from '@typemcp/core';
import type { ErrorHookEvent, HooksOption, RequestHookEvent, ResponseHookEvent } from '@typemcp/protocol';
import { createTestClient, JsonRpcError, textOf, type TestClient } from '@typemcp/testing';

const open: TestClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});
beforeEach(() => getMetadataStorage().reset());

function service() {
  class EchoArgs {
    @IsString() text!: string;
  }

  @McpService()
  class Echo {
    @Tool({ description: 'Echoes after a pause' })
    async echo(args: EchoArgs) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      return args.text;
    }

    @Tool({ description: 'Fails with a bug' })
    broken(): string {
      throw new Error('secret detail');
    }
  }
  return Echo;
}

/** A hooks option writing one line per event into `log`. */
function recorder(log: string[], events: { request: RequestHookEvent[]; response: ResponseHookEvent[]; error: ErrorHookEvent[] }): HooksOption {
  return {
    onSessionOpen: () => log.push('open'),
    onRequest: (e) => {
      events.request.push(e);
      log.push(`request ${e.method}`);
    },
    onResponse: (e) => {
      events.response.push(e);
      log.push(`response ${e.method} ${e.ok ? 'ok' : 'error'}`);
    },
    onNotification: (e) => log.push(`notification ${e.method}`),
    onError: (e) => {
      events.error.push(e);
      log.push(`error ${e.where}`);
    },
    onSessionClose: () => log.push('close'),
  };
}

describe('engine hooks', () => {
  it('see requests, responses, notifications, errors and the session open and close, in order', async () => {
    const log: string[] = [];
    const events = { request: [] as RequestHookEvent[], response: [] as ResponseHookEvent[], error: [] as ErrorHookEvent[] };
    const reported: string[] = [];
    const client = await createTestClient({ services: [service()], hooks: recorder(log, events), onError: (_e, where) => reported.push(where) });

    expect(textOf(await client.callTool('echo', { text: 'hi' }))).toBe('hi');
    const unknown = await client.callTool('nope').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(JsonRpcError);
    const broken = await client.callTool('broken');
    expect(broken).toMatchObject({ isError: true, content: [{ text: 'Tool "broken" failed: internal error' }] });
    client.notify('notifications/roots/list_changed');
    await client.ping();
    await client.close();

    expect(log).toEqual([
      'open',
      'request initialize',
      'response initialize ok',
      'notification notifications/initialized',
      'request tools/call',
      'response tools/call ok',
      'request tools/call',
      'response tools/call error',
      'request tools/call',
      `error tools/call broken (request ${JSON.stringify(events.request[3].ctx.id)})`,
      'response tools/call ok',
      'notification notifications/roots/list_changed',
      'request ping',
      'response ping ok',
      'close',
    ]);
    const [, echo, failed] = events.response;
    expect(echo).toMatchObject({
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'hi' } },
      ok: true,
      result: { content: [{ type: 'text', text: 'hi' }] },
    });
    expect(echo.durationMs).toBeGreaterThanOrEqual(20);
    expect(echo.ctx.id).toBe(events.request[1].ctx.id);
    expect(failed.error).toBeInstanceOf(McpError);
    expect((failed.error as McpError).message).toBe('Unknown tool: nope');
    expect(failed.durationMs).toBeGreaterThanOrEqual(0);
    expect(events.error[0].error).toEqual(new Error('secret detail'));
    expect(events.error[0].ctx?.method).toBe('tools/call');
    expect(reported).toEqual([events.error[0].where]);
  });

  it('report a hook that throws or rejects, and the request is still answered', async () => {
    const reported: [unknown, string][] = [];
    const hookErrors: ErrorHookEvent[] = [];
    const client = await createTestClient({
      services: [service()],
      onError: (error, where) => reported.push([error, where]),
      hooks: {
        onRequest: [
          () => {
            throw new Error('request hook bug');
          },
          (e) => void (e.method === 'tools/call' && seen.push('second onRequest still ran')),
        ],
        onResponse: () => Promise.reject(new Error('async response hook bug')),
        onError: [
          (e) => {
            hookErrors.push(e);
            throw new Error('error hook bug');
          },
        ],
      },
    });
    const seen: string[] = [];
    open.push(client);
    expect(textOf(await client.callTool('echo', { text: 'still answered' }))).toBe('still answered');
    await new Promise((resolve) => setImmediate(resolve));

    expect(seen).toEqual(['second onRequest still ran']);
    const wheres = hookErrors.map((e) => e.where);
    expect(wheres.filter((w) => w === 'hook onRequest').length).toBeGreaterThanOrEqual(2);
    expect(wheres).toContain('hook onResponse');
    expect(hookErrors.find((e) => e.where === 'hook onResponse')!.error).toEqual(new Error('async response hook bug'));
    // A failing onError hook goes to the onError option only: no loop through the hooks.
    expect(wheres).not.toContain('hook onError');
    expect(reported.map(([, w]) => w)).toContain('hook onError');
    expect(reported.find(([, w]) => w === 'hook onError')![0]).toEqual(new Error('error hook bug'));
  });

  it('added later with addHook, wrap every method, custom ones included; none leaves the table bare', async () => {
    const server = createServer({ name: 's', version: '1', services: [service()] });
    const custom = () => ({ pong: true });
    server.engine.setMethodHandler('x/custom', custom);
    expect(server.engine.methodHandler('x/custom')).toBe(custom);

    const client = await createTestClient({ server, closeServer: true });
    open.push(client);
    const methods: string[] = [];
    server.engine.addHook('onResponse', (e) => methods.push(`${e.method} ${JSON.stringify(e.result)}`));
    expect(server.engine.methodHandler('x/custom')).not.toBe(custom);
    const later = () => ({ later: true });
    server.engine.setMethodHandler('x/later', later);

    expect(await client.request('x/custom')).toEqual({ pong: true });
    expect(await client.request('x/later')).toEqual({ later: true });
    expect(methods).toEqual(['x/custom {"pong":true}', 'x/later {"later":true}']);
    expect(() => server.engine.addHook('onWhatever' as 'onRequest', () => undefined)).toThrow(InvalidOptionError);
    expect(() => server.engine.addHook('onRequest', 'no' as unknown as () => void)).toThrow(InvalidOptionError);
    expect(() => createServer({ name: 's', version: '1', services: [], hooks: 'x' as unknown as HooksOption })).toThrow(InvalidOptionError);
  });
});
