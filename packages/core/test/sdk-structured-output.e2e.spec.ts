/**
 * Tools with an output schema, driven by the official SDK 1.x `Client` (its `callTool` validates
 * `structuredContent` against the listed `outputSchema`, and throws -32600 for a successful result
 * without it), over the SDK's InMemoryTransport to a real engine session.
 */
import 'reflect-metadata';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { IsDate, IsInt, IsISO8601, IsString } from 'class-validator';
import { Type } from 'class-transformer';
import { createServer, McpService, Tool, ToolError, type TypeMcpServer } from '@typemcp/core';
import { sdkClient } from './support/sdk-memory-client';

class Reminder {
  @IsInt() id!: number;
  @IsISO8601() at!: string;
  @IsDate() @Type(() => Date) created!: Date;
}

class Note {
  @IsString() text!: string;
}

const AT = new Date(Date.UTC(2026, 4, 1, 9, 30));

@McpService()
class Reminders {
  // A row as pg returns it: timestamps are Dates.
  @Tool({ description: 'The next reminder', output: Reminder })
  next() {
    return { id: 7, at: AT, created: AT } as unknown as Reminder;
  }

  @Tool({ description: 'A summary, mistakenly as text', output: Note })
  summary() {
    return 'three notes' as unknown as Note;
  }

  @Tool({ description: 'Fails the way the model should read', output: Note })
  refuse(): Note {
    throw new ToolError('No notes yet');
  }
}

let server: TypeMcpServer;
let client: Client;
const faults: string[] = [];

beforeAll(async () => {
  server = createServer({ name: 'reminders', version: '1.0.0', services: [Reminders], onError: (error) => faults.push(String(error)) });
  client = await sdkClient(server);
});

afterAll(async () => {
  await client.close();
  await server.close();
});

describe('the SDK 1.x client and tools with an output schema', () => {
  it('accepts a row with Date columns: they arrive as the ISO strings the schema promises', async () => {
    const result = await client.callTool({ name: 'next', arguments: {} });
    expect(result.structuredContent).toEqual({ id: 7, at: AT.toISOString(), created: AT.toISOString() });
    expect(result.isError).toBeUndefined();
  });

  it('never gets a successful result without structuredContent: a handler returning text is a tool error', async () => {
    // Before: the SDK threw McpError -32600 "Tool summary has an output schema but did not return structured content".
    const result = await client.callTool({ name: 'summary', arguments: {} });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'The tool\'s result does not match its output schema: the result must be a Note object (got string "three notes")' }],
      isError: true,
    });
    expect(faults.some((f) => f.includes('Reminders.summary returned output that does not match its outputSchema (Note)'))).toBe(true);
  });

  it('takes a ToolError without structuredContent, as the specification allows for errors', async () => {
    expect(await client.callTool({ name: 'refuse', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'No notes yet' }], isError: true });
  });
});
