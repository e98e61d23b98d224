/**
 * A tool with an output DTO: what the handler returns is serialised the way the client will
 * receive it (a Date as its ISO string, a `toJSON()` honoured, class-transformer's `@Transform`,
 * `@Type` and `@Exclude` applied) and only then checked against the published `outputSchema`; and
 * every successful result carries `structuredContent` (MCP 2025-06-18 and later: a tool with an
 * output schema MUST return structured results conforming to it). A handler that returns anything
 * but its DTO's object is the server's fault: a precise tool error, reported to `onError`.
 */
import 'reflect-metadata';
import { Exclude, Transform, Type } from 'class-transformer';
import { IsDate, IsInt, IsISO8601, IsOptional, IsString, ValidateNested } from 'class-validator';
import { createServer, DefinitionError, getMetadataStorage, McpService, text, Tool, ToolError, UnrepresentableResultError } from '@typemcp/core';
import type { CallToolResult, JsonObject } from '@typemcp/protocol';
import { MemoryPeer } from '../../protocol/test/support/memory-peer';

/** A value class with its own JSON form, as Decimal, ObjectId or Luxon's DateTime have. */
class Money {
  constructor(
    readonly cents: number,
    readonly currency: string,
  ) {}
  toJSON() {
    return `${(this.cents / 100).toFixed(2)} ${this.currency}`;
  }
}

class Step {
  @IsString() name!: string;
  @IsISO8601() at!: string;
}

/** What an ORM might hand back: an entity whose class says how it serialises. */
class AccountRow {
  login!: string;
  @Exclude() password?: string;
}

class Account {
  @IsString() login!: string;
}

class Task {
  @IsInt() id!: number;
  @IsISO8601() at!: string;
  @IsString() price!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Step) steps?: Step[];
  @IsOptional() @IsString() @Transform(({ value }: { value: string }) => value.toUpperCase(), { toPlainOnly: true }) code?: string;
}

class Meeting {
  @IsDate() @Type(() => Date) when!: Date;
}

const AT = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
const ISO = '2026-01-02T03:04:05.000Z';

function serve(unknownFields: 'reject' | 'strip' = 'reject') {
  getMetadataStorage().reset();
  const reported: { error: unknown; where: string }[] = [];

  @McpService()
  class Tasks {
    // What pg gives: a row object whose timestamp column is a Date.
    @Tool({ description: 'd', output: Task }) row() {
      return { id: 1, at: AT, price: new Money(1250, 'EUR') } as unknown as Task;
    }
    @Tool({ description: 'd', output: Task }) instance() {
      return Object.assign(new Task(), { id: 2, at: AT, price: '1', code: 'ab', steps: [{ name: 's', at: AT }] });
    }
    @Tool({ description: 'd', output: Task }) plainWithTransform() {
      return { id: 3, at: AT, price: '1', code: 'xy' } as unknown as Task;
    }
    @Tool({ description: 'd', output: Meeting }) meeting() {
      return { when: AT };
    }
    @Tool({ description: 'd', output: Account }) account() {
      return Object.assign(new AccountRow(), { login: 'ann', password: 'hunter2' });
    }
    @Tool({ description: 'd', output: Task }) map() {
      return { id: 1, at: AT, price: '1', steps: new Map() } as unknown as Task;
    }
    @Tool({ description: 'd', output: Task }) big() {
      return { id: 5, at: AT, price: 1250n, steps: undefined } as unknown as Task;
    }
    @Tool({ description: 'd', output: Task }) cycle() {
      const task: Record<string, unknown> = { id: 6, at: AT, price: '1' };
      task.steps = [task];
      return task as unknown as Task;
    }
    @Tool({ description: 'd', output: Task }) text() {
      return 'done' as unknown as Task;
    }
    @Tool({ description: 'd', output: Task }) block() {
      return text('done') as unknown as Task;
    }
    @Tool({ description: 'd', output: Task }) nothing() {
      return undefined as unknown as Task;
    }
    @Tool({ description: 'd', output: Task }) full(): CallToolResult {
      return { content: [{ type: 'text', text: 'Task 4, due soon' }], structuredContent: { id: 4, at: AT, price: '2', extra: 1 } as unknown as JsonObject };
    }
    @Tool({ description: 'd', output: Task }) fullWrong(): CallToolResult {
      return { content: [{ type: 'text', text: 'Task 4' }], structuredContent: { id: 'four' } };
    }
    @Tool({ description: 'd', output: Task }) fullWithout(): CallToolResult {
      return { content: [{ type: 'text', text: 'Task 4' }] };
    }
    @Tool({ description: 'd', output: Task }) fullError(): CallToolResult {
      return { content: [{ type: 'text', text: 'No task today' }], isError: true };
    }
    @Tool({ description: 'd', output: Task }) refuse(): Task {
      throw new ToolError('No task today');
    }
  }

  const server = createServer({
    name: 't',
    version: '1',
    services: [Tasks],
    schema: { unknownFields },
    onError: (error, where) => reported.push({ error, where }),
  });
  return { server, reported };
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function connect(unknownFields?: 'reject' | 'strip', revision = '2025-11-25') {
  const { server, reported } = serve(unknownFields);
  servers.push(server);
  const peer = new MemoryPeer(server.engine);
  await peer.initialize(revision);
  const call = async (name: string) => (await peer.request('tools/call', { name })).result as JsonObject;
  return { call, reported };
}

const structured = (value: JsonObject) => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value });

describe('outputs are serialised, then checked', () => {
  it('sends a Date as its ISO string and a value with toJSON() as its JSON (a pg row)', async () => {
    const { call, reported } = await connect();
    expect(await call('row')).toEqual(structured({ id: 1, at: ISO, price: '12.50 EUR' }));
    expect(reported).toEqual([]);
  });

  it("applies the DTO's class-transformer decorators, to an instance and to a plain object returned in its place", async () => {
    const { call, reported } = await connect();
    // (An instance's fields come in the class's declaration order.)
    expect(await call('instance')).toEqual(structured({ id: 2, at: ISO, price: '1', steps: [{ name: 's', at: ISO }], code: 'AB' }));
    expect(await call('plainWithTransform')).toEqual(structured({ id: 3, at: ISO, price: '1', code: 'XY' }));
    expect(reported).toEqual([]);
  });

  it('checks an @IsDate() field as the Date it was', async () => {
    const { call, reported } = await connect();
    expect(await call('meeting')).toEqual(structured({ when: ISO }));
    expect(reported).toEqual([]);
  });

  it("applies the @Exclude() of the returned value's own class, even where the schema would let the field through", async () => {
    const { call, reported } = await connect('strip');
    expect(await call('account')).toEqual(structured({ login: 'ann' }));
    expect(reported).toEqual([]);
  });

  it('sends a bigint as its digits and leaves an undefined field out, as JSON.stringify does', async () => {
    const { call, reported } = await connect();
    expect(await call('big')).toEqual(structured({ id: 5, at: ISO, price: '1250' }));
    expect(reported).toEqual([]);
  });

  it('refuses what JSON cannot carry as a masked internal error, reported', async () => {
    const { call, reported } = await connect();
    expect(await call('map')).toEqual({ content: [{ type: 'text', text: 'Tool "map" failed: internal error' }], isError: true });
    expect(reported[0].error).toBeInstanceOf(UnrepresentableResultError);
    expect(String(reported[0].error)).toContain('returned a Map at "steps"');
    expect(await call('cycle')).toEqual({ content: [{ type: 'text', text: 'Tool "cycle" failed: internal error' }], isError: true });
    expect(String(reported[1].error)).toContain('(a circular reference?)');
  });
});

describe('a tool with an output schema always answers with structuredContent, or with a tool error', () => {
  it.each([
    ['text', 'the result must be a Task object (got string "done")'],
    ['block', 'the result must be a Task object (got a text content block)'],
    ['nothing', 'the result must be a Task object (got undefined)'],
    ['fullWithout', 'the result has no structuredContent (it must hold a Task object)'],
  ])('%s: a precise tool error, and the fault reported with what to change', async (tool, problem) => {
    const { call, reported } = await connect();
    expect(await call(tool)).toEqual({ content: [{ type: 'text', text: `The tool's result does not match its output schema: ${problem}` }], isError: true });
    expect(reported).toHaveLength(1);
    expect(String(reported[0].error)).toContain(`Tasks.${tool} returned output that does not match its outputSchema (Task): ${problem}`);
    expect(String(reported[0].error)).toContain('return a Task, or throw a ToolError');
  });

  it('checks the structuredContent of a full CallToolResult (undeclared fields dropped) and keeps its own content', async () => {
    const { call, reported } = await connect();
    expect(await call('full')).toEqual({ content: [{ type: 'text', text: 'Task 4, due soon' }], structuredContent: { id: 4, at: ISO, price: '2' } });
    expect(reported).toEqual([]);
    expect(await call('fullWrong')).toEqual({
      content: [
        {
          type: 'text',
          text: 'The tool\'s result does not match its output schema: `at` is required; `price` is required; `id` must be an integer (got string "four")',
        },
      ],
      isError: true,
    });
    expect(reported).toHaveLength(1);
  });

  it('lets an error result through without structuredContent, as the specification allows', async () => {
    const { call, reported } = await connect();
    expect(await call('fullError')).toEqual({ content: [{ type: 'text', text: 'No task today' }], isError: true });
    expect(await call('refuse')).toEqual({ content: [{ type: 'text', text: 'No task today' }], isError: true });
    expect(reported).toEqual([]);
  });

  it('is the same fault for revisions without outputSchema (the handler is wrong either way); they get the JSON text', async () => {
    const { call, reported } = await connect('reject', '2025-03-26');
    expect(await call('text')).toMatchObject({ isError: true });
    expect(await call('row')).toEqual({ content: [{ type: 'text', text: JSON.stringify({ id: 1, at: ISO, price: '12.50 EUR' }) }] });
    expect(reported).toHaveLength(1);
  });
});

describe('a return type that cannot be the output DTO', () => {
  it.each([
    ['string', String],
    ['number', Number],
    ['an array', Array],
  ])('is a definition error when the method is declared to return %s', (_what, type) => {
    getMetadataStorage().reset();
    @McpService()
    class Wrong {
      @Tool({ description: 'd', output: Task }) wrong() {
        return 'x';
      }
    }
    Reflect.defineMetadata('design:returntype', type, Wrong.prototype, 'wrong');
    const build = () => createServer({ name: 'w', version: '1', services: [Wrong] });
    expect(build).toThrow(DefinitionError);
    expect(build).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_OUTPUT_RETURN_TYPE' }));
    expect(build).toThrow(`Wrong.wrong declares @Tool({ output: Task }) but returns ${type.name.toLowerCase()}`);
  });

  it('is not one for a declared Promise or the DTO itself', () => {
    getMetadataStorage().reset();
    @McpService()
    class Right {
      @Tool({ description: 'd', output: Task }) async later(): Promise<Task> {
        return Object.assign(new Task(), { id: 1, at: ISO, price: '1' });
      }
      @Tool({ description: 'd', output: Task }) now(): Task {
        return Object.assign(new Task(), { id: 1, at: ISO, price: '1' });
      }
    }
    expect(() => createServer({ name: 'r', version: '1', services: [Right] })).not.toThrow();
  });
});
