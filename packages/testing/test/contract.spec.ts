/**
 * The contract seen from a client: what tools/list publishes is what tools/call accepts, for
 * the shapes clients handle worst. The Inspector (CLI and web) turns a typed-in string into a
 * number only when a property's `type` is the single string "number" or "integer"; the old
 * `type: ["integer", "null"]` of an optional field made it send "4" (and the server take it).
 */
import { createServer, Description, getMetadataStorage, McpService, Nullable, Tool } from '@typemcp/core';
import { createTestClient, textOf, type TestClient } from '@typemcp/testing';
import { IsInt, IsISO8601, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';

/** What the Inspector does with a value typed into a form or passed on its CLI: convert by the declared type. */
function asInspectorSends(typed: string, property: { type?: unknown }): unknown {
  if (property.type === 'number' || property.type === 'integer') return Number(typed);
  if (property.type === 'boolean') return typed === 'true';
  return typed;
}

let client: TestClient;
const received: unknown[] = [];
const stored: Record<string, unknown>[] = [];
const faults: unknown[] = [];

beforeAll(async () => {
  getMetadataStorage().reset();
  class SearchInput {
    @IsString() @Description('Words to look for') query!: string;
    @IsOptional() @IsInt() @Min(1) @Max(50) limit?: number = 10;
    @IsOptional() @Nullable() @IsString() tag?: string | null;
  }
  class Bookmark {
    @IsUrl() url!: string;
    @IsISO8601() savedAt!: string;
  }
  @McpService()
  class Bookmarks {
    @Tool({ description: 'The last bookmark stored', output: Bookmark })
    last() {
      return stored[stored.length - 1];
    }

    @Tool({ description: 'Search bookmarks' })
    search(input: SearchInput) {
      received.push({ ...input });
      return `ok ${input.limit}`;
    }
  }
  client = await createTestClient({ server: createServer({ name: 'b', version: '1', services: [Bookmarks], onError: (e) => faults.push(e) }) });
});

afterAll(() => client.close());

describe('an optional number, as the Inspector passes it', () => {
  it('is published with one type, out of required, with its default', async () => {
    const tool = (await client.listTools()).find((t) => t.name === 'search')!;
    const properties = tool.inputSchema.properties as Record<string, { type?: unknown; default?: unknown }>;
    expect(properties.limit).toEqual({ type: 'integer', minimum: 1, maximum: 50, default: 10 });
    expect(properties.tag).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(tool.inputSchema.required).toEqual(['query']);
    expect(tool.inputSchema.additionalProperties).toBe(false);
  });

  it('reaches the handler as a number when typed as "4", and takes its default when left out', async () => {
    const tool = (await client.listTools()).find((t) => t.name === 'search')!;
    const properties = tool.inputSchema.properties as Record<string, { type?: unknown }>;
    received.length = 0;
    expect(textOf(await client.callTool('search', { query: 'q', limit: asInspectorSends('4', properties.limit) }))).toBe('ok 4');
    expect(textOf(await client.callTool('search', { query: 'q' }))).toBe('ok 10');
    expect(received).toEqual([
      { query: 'q', limit: 4 },
      { query: 'q', limit: 10 },
    ]);
  });

  it('refuses the string a client sends when it cannot read the schema, and null unless the field is nullable', async () => {
    const asString = await client.callTool('search', { query: 'q', limit: '4' });
    expect(asString).toEqual({ isError: true, content: [{ type: 'text', text: 'Invalid arguments: `limit` must be an integer (got string "4")' }] });
    const asNull = await client.callTool('search', { query: 'q', limit: null });
    expect(asNull).toEqual({ isError: true, content: [{ type: 'text', text: 'Invalid arguments: `limit` must be an integer (got null)' }] });
    expect(textOf(await client.callTool('search', { query: 'q', tag: null }))).toBe('ok 10');
  });

  it('names a misspelt field and the field it most likely meant', async () => {
    const result = await client.callTool('search', { query: 'q', limt: 4 });
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'Invalid arguments: unknown field `limt`; did you mean `limit`?' }] });
  });
});

describe('outputs the published schema refuses never leave', () => {
  it.each([
    ['a URL without a scheme', { url: 'example.org', savedAt: '2024-05-01T10:00:00Z' }, '`url` must be a valid uri (got string "example.org")'],
    ['a date without a time', { url: 'https://example.org', savedAt: '2024-05-01' }, '`savedAt` must be a valid date-time (got string "2024-05-01")'],
  ])('%s is a tool error naming the field, reported as the server fault', async (_label, bookmark, problem) => {
    stored.push(bookmark);
    faults.length = 0;
    const result = await client.callTool('last');
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: `The tool's result does not match its output schema: ${problem}` }] });
    expect(String(faults[0])).toContain(problem);
  });

  it('drops fields the output DTO does not declare, so the result matches its closed schema', async () => {
    stored.push({ url: 'https://example.org', savedAt: '2024-05-01T10:00:00Z', internalId: 7 });
    const result = await client.callTool('last');
    expect(result.structuredContent).toEqual({ url: 'https://example.org', savedAt: '2024-05-01T10:00:00Z' });
  });
});
