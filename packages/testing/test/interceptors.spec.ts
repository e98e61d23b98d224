/**
 * Interceptors around tools, resources and prompts, through a real session: global, class and
 * method order; what they read (input, principal, context); short-circuit; mapping results and
 * errors; DI-built interceptors with dependencies; composition once at bind time; and the same
 * results with no interceptor as with a pass-through one.
 */
import { IsString } from 'class-validator';
import {
  Context,
  CoreErrorCode,
  createServer,
  getMetadataStorage,
  Injectable,
  McpService,
  Prompt,
  Resource,
  Tool,
  ToolError,
  UseInterceptors,
  type CallNext,
  type Interceptor,
  type InterceptorCall,
  type InterceptorRef,
  type ServerOptions,
} from '@typemcp/core';
import { createTestClient, JsonRpcError, textOf, type TestClient } from '@typemcp/testing';
import { InterceptorChain } from '../../core/src/interceptors/interceptor-chain';

const open: TestClient[] = [];
afterEach(async () => {
  jest.restoreAllMocks();
  await Promise.all(open.splice(0).map((c) => c.close()));
});
beforeEach(() => getMetadataStorage().reset());

async function connect(options: Partial<ServerOptions> & { principal?: unknown }): Promise<TestClient> {
  const client = await createTestClient({ ...options } as Parameters<typeof createTestClient>[0]);
  open.push(client);
  return client;
}

/** An interceptor writing `<label> before` and `<label> after` around the call. */
function tracer(label: string, log: string[]): Interceptor {
  return {
    async intercept(_call, next) {
      log.push(`${label} before`);
      const out = await next();
      log.push(`${label} after`);
      return out;
    },
  };
}

class NoteArgs {
  @IsString() text!: string;
}

describe('interceptors', () => {
  it('run global, then class, then method interceptors, outermost first, around tools, resources and prompts', async () => {
    const log: string[] = [];

    @McpService()
    @UseInterceptors(tracer('class 1', log), tracer('class 2', log))
    class Notes {
      @Tool({ description: 'Saves a note' })
      @UseInterceptors(tracer('method 1', log))
      @UseInterceptors(tracer('method 2', log))
      save(args: NoteArgs) {
        log.push(`save ${args.text}`);
        return 'saved';
      }

      @Resource('notes://all')
      all() {
        log.push('read');
        return 'all notes';
      }

      @Prompt({ description: 'Summarise' })
      summarise(args: NoteArgs) {
        log.push(`prompt ${args.text}`);
        return `Summarise ${args.text}`;
      }
    }

    const client = await connect({ services: [Notes], interceptors: [tracer('global', log)] });
    expect(textOf(await client.callTool('save', { text: 'milk' }))).toBe('saved');
    expect(log.splice(0)).toEqual([
      'global before',
      'class 1 before',
      'class 2 before',
      'method 1 before',
      'method 2 before',
      'save milk',
      'method 2 after',
      'method 1 after',
      'class 2 after',
      'class 1 after',
      'global after',
    ]);
    expect((await client.readResource('notes://all')).contents[0]).toMatchObject({ text: 'all notes' });
    expect(log.splice(0)).toEqual(['global before', 'class 1 before', 'class 2 before', 'read', 'class 2 after', 'class 1 after', 'global after']);
    expect((await client.getPrompt('summarise', { text: 'x' })).messages[0].content).toEqual({ type: 'text', text: 'Summarise x' });
    expect(log.splice(0)).toEqual(['global before', 'class 1 before', 'class 2 before', 'prompt x', 'class 2 after', 'class 1 after', 'global after']);
  });

  it('read the validated input, the principal and the context of the call', async () => {
    const seen: InterceptorCall[] = [];
    const reader: Interceptor = { intercept: (call, next) => (seen.push(call), next()) };

    @McpService()
    class Notes {
      @Tool({ description: 'Saves a note' })
      save(args: NoteArgs) {
        return args.text;
      }

      @Resource('notes://{text}')
      one(args: NoteArgs) {
        return args.text;
      }
    }

    const client = await connect({ services: [Notes], interceptors: [reader], principal: { user: 'ada' } });
    await client.callTool('save', { text: 'milk' });
    await client.readResource('notes://eggs');

    const [tool, resource] = seen;
    expect(tool).toMatchObject({ kind: 'tool', name: 'save', service: Notes, method: 'save', principal: { user: 'ada' } });
    expect(tool.input).toBeInstanceOf(NoteArgs);
    expect(tool.input).toEqual({ text: 'milk' });
    expect(tool.context).toBeInstanceOf(Context);
    expect(tool.context.principal).toEqual({ user: 'ada' });
    expect(tool.request.method).toBe('tools/call');
    expect(resource).toMatchObject({ kind: 'resource', name: 'one', uri: 'notes://eggs', input: { text: 'eggs' } });
    expect(resource.input).toBeInstanceOf(NoteArgs);
  });

  it('short-circuit without calling the method, and map its result', async () => {
    let calls = 0;
    const cache: Interceptor = { intercept: (call, next) => ((call.input as NoteArgs).text === 'cached' ? 'from cache' : next()) };
    const upper: Interceptor = { intercept: async (_call, next) => String(await next()).toUpperCase() };

    @McpService()
    class Notes {
      @Tool({ description: 'Saves a note' })
      @UseInterceptors(upper, cache)
      save(args: NoteArgs) {
        calls++;
        return `saved ${args.text}`;
      }
    }

    const client = await connect({ services: [Notes] });
    expect(textOf(await client.callTool('save', { text: 'cached' }))).toBe('FROM CACHE');
    expect(calls).toBe(0);
    expect(textOf(await client.callTool('save', { text: 'milk' }))).toBe('SAVED MILK');
    expect(calls).toBe(1);
  });

  it('map an error: an exception becomes a ToolError for tools, and a -32602 for prompts', async () => {
    const reported: unknown[] = [];
    const friendly: Interceptor = {
      async intercept(_call: InterceptorCall, next: CallNext) {
        try {
          return await next();
        } catch (error) {
          throw new ToolError(`Service unavailable (${(error as Error).message})`);
        }
      },
    };

    @McpService()
    @UseInterceptors(friendly)
    class Notes {
      @Tool({ description: 'Saves a note' })
      save(): string {
        throw new Error('db down');
      }

      @Prompt({ description: 'Summarise' })
      summarise(): string {
        throw new Error('db down');
      }
    }

    const client = await connect({ services: [Notes], onError: (error) => reported.push(error) });
    expect(await client.callTool('save')).toEqual({ content: [{ type: 'text', text: 'Service unavailable (db down)' }], isError: true });
    const error = (await client.getPrompt('summarise').catch((e: unknown) => e)) as JsonRpcError;
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(-32602);
    expect(error.message).toBe('Service unavailable (db down)');
    expect(reported).toEqual([]);
  });

  it('are built by the container with their dependencies, once, and composed once at start-up', async () => {
    const compose = jest.spyOn(InterceptorChain, 'compose');
    let built = 0;

    @Injectable()
    class Clock {
      now() {
        return 'real time';
      }
    }

    @Injectable()
    class Stamp implements Interceptor {
      constructor(private readonly clock: Clock) {
        built++;
      }
      async intercept(_call: InterceptorCall, next: CallNext) {
        return `${String(await next())} at ${this.clock.now()}`;
      }
    }

    @McpService()
    @UseInterceptors(Stamp)
    class Notes {
      @Tool({ description: 'Saves a note' })
      save() {
        return 'saved';
      }

      @Tool({ description: 'Deletes a note' })
      @UseInterceptors(Stamp)
      remove() {
        return 'removed';
      }
    }

    const client = await connect({ services: [Notes], providers: [{ provide: Clock, useValue: { now: () => 'noon' } }] });
    expect(compose).toHaveBeenCalledTimes(2);
    for (let i = 0; i < 3; i++) expect(textOf(await client.callTool('save'))).toBe('saved at noon');
    expect(textOf(await client.callTool('remove'))).toBe('removed at noon at noon');
    expect(compose).toHaveBeenCalledTimes(2);
    expect(built).toBe(1);
  });

  it('give the same results with no interceptor as with a pass-through one, and compose nothing without one', async () => {
    const compose = jest.spyOn(InterceptorChain, 'compose');
    const results = async (interceptors: InterceptorRef[]) => {
      getMetadataStorage().reset();
      class Out {
        @IsString() text!: string;
      }

      @McpService()
      class Notes {
        @Tool({ description: 'Echo', output: Out })
        echo(args: NoteArgs) {
          return { text: args.text };
        }

        @Tool({ description: 'Fails' })
        fail(): string {
          throw new ToolError('nope');
        }

        @Tool({ description: 'Bug' })
        bug(): string {
          throw new Error('bug');
        }

        @Resource('notes://{text}')
        one(args: NoteArgs) {
          return args.text;
        }

        @Prompt({ description: 'Summarise' })
        summarise(args: NoteArgs) {
          return `Summarise ${args.text}`;
        }
      }
      const client = await connect({ services: [Notes], interceptors, onError: () => undefined });
      const settle = (p: Promise<unknown>) =>
        p.then(
          (value) => ({ value }),
          (error: unknown) => ({ error: String(error) }),
        );
      return Promise.all([
        settle(client.callTool('echo', { text: 'a' })),
        settle(client.callTool('echo', { text: 1 })),
        settle(client.callTool('fail')),
        settle(client.callTool('bug')),
        settle(client.readResource('notes://b')),
        settle(client.getPrompt('summarise', { text: 'c' })),
        settle(client.getPrompt('summarise', {})),
      ]);
    };
    const bare = await results([]);
    expect(compose).not.toHaveBeenCalled();
    const passThrough = await results([{ intercept: (_call, next) => next() }]);
    expect(compose).toHaveBeenCalledTimes(5);
    expect(passThrough).toEqual(bare);
    expect(bare[0]).toEqual({ value: { content: [{ type: 'text', text: '{"text":"a"}' }], structuredContent: { text: 'a' } } });
  });

  it('refuse something that is not an interceptor, with a stable code', () => {
    @McpService()
    @UseInterceptors({ nope: true } as unknown as Interceptor)
    class Notes {
      @Tool({ description: 'Saves a note' })
      save() {
        return 'saved';
      }
    }
    expect(() => createServer({ name: 's', version: '1', services: [Notes] })).toThrow(
      expect.objectContaining({ code: CoreErrorCode.InvalidInterceptor, message: expect.stringContaining('An interceptor of Notes') }),
    );
    class Plain {}
    expect(() => createServer({ name: 's', version: '1', services: [], interceptors: [Plain as unknown as InterceptorRef] })).toThrow(
      expect.objectContaining({ code: CoreErrorCode.InvalidInterceptor }),
    );
  });
});
