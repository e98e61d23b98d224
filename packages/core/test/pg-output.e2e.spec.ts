/**
 * The "team tasks" server, for real: rows read from PostgreSQL with `pg` (timestamps come
 * back as Date objects, bigint and numeric as strings, jsonb as objects, a NULL as null) are
 * returned from tools with output DTOs, and the official SDK 1.x client (which validates
 * `structuredContent` against the `outputSchema` it listed) receives them as the schema promises.
 * Needs PostgreSQL (`DATABASE_URL`, default postgres://postgres@127.0.0.1:5432/test): without it
 * the test fails, it is never skipped.
 */
import 'reflect-metadata';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Type } from 'class-transformer';
import { IsDate, IsInt, IsISO8601, IsObject, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { Pool } from 'pg';
import { createServer, McpService, Nullable, Tool, type TypeMcpServer } from '@typemcp/core';
import { sdkClient } from './support/sdk-memory-client';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TABLE = `typemcp_tasks_${process.pid}_${Date.now()}`;

class TaskRef {
  @IsInt() @Min(1) id!: number;
}

class TaskRow {
  @IsInt() id!: number;
  @IsString() title!: string;
  @IsISO8601() due!: string;
  @IsDate() @Type(() => Date) created!: Date;
  @Nullable() @IsISO8601() doneAt!: string | null;
  @IsString() estimate!: string;
  @IsString() views!: string;
  @IsObject() labels!: Record<string, unknown>;
}

class TaskList {
  @ValidateNested({ each: true }) @Type(() => TaskRow) tasks!: TaskRow[];
  @IsOptional() @IsISO8601() oldest?: string;
}

let pool: Pool;
let server: TypeMcpServer;
let client: Client;
const faults: unknown[] = [];

const SELECT = `SELECT id, title, due, created, done_at AS "doneAt", estimate, views, labels FROM ${TABLE}`;

beforeAll(async () => {
  pool = new Pool({ connectionString: DATABASE_URL, max: 2, connectionTimeoutMillis: 5000 });
  await pool.query(
    `CREATE TABLE ${TABLE} (id serial PRIMARY KEY, title text NOT NULL, due timestamptz NOT NULL, created timestamp NOT NULL,
       done_at timestamptz, estimate numeric(6,2) NOT NULL, views bigint NOT NULL, labels jsonb NOT NULL)`,
  );
  await pool.query(
    `INSERT INTO ${TABLE} (title, due, created, done_at, estimate, views, labels) VALUES
       ('Ship it', '2026-05-01T09:30:00Z', '2026-04-01 08:00:00', NULL, 2.5, 9007199254740993, '{"team":"core"}'),
       ('Write docs', '2026-05-02T17:00:00+02:00', '2026-04-02 08:00:00', '2026-04-03T10:00:00Z', 1, 3, '{}')`,
  );

  @McpService()
  class Tasks {
    @Tool({ description: 'One task', output: TaskRow })
    async task(ref: TaskRef): Promise<TaskRow> {
      const { rows } = await pool.query<TaskRow>(`${SELECT} WHERE id = $1`, [ref.id]);
      return rows[0];
    }

    @Tool({ description: 'Every task, oldest first', output: TaskList })
    async tasks(): Promise<TaskList> {
      const { rows } = await pool.query<TaskRow & { due: Date }>(`${SELECT} ORDER BY due`);
      return { tasks: rows, oldest: rows[0].due } as unknown as TaskList;
    }
  }

  server = createServer({ name: 'team-tasks', version: '1.0.0', services: [Tasks], onError: (error) => faults.push(error) });
  client = await sdkClient(server);
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  await pool?.query(`DROP TABLE IF EXISTS ${TABLE}`);
  await pool?.end();
});

describe('PostgreSQL rows from tools with output DTOs', () => {
  it('sends the Date columns as ISO strings, and the SDK client accepts the result', async () => {
    const result = await client.callTool({ name: 'task', arguments: { id: 1 } });
    const row = (await pool.query<{ created: Date }>(`SELECT created FROM ${TABLE} WHERE id = 1`)).rows[0];
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({
      id: 1,
      title: 'Ship it',
      due: '2026-05-01T09:30:00.000Z',
      // A timestamp without time zone: pg reads it in the process's zone, and the Date is sent as it was read.
      created: row.created.toISOString(),
      doneAt: null,
      estimate: '2.50',
      views: '9007199254740993',
      labels: { team: 'core' },
    });
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
    expect(faults).toEqual([]);
  });

  it('serialises nested rows the same way', async () => {
    const result = await client.callTool({ name: 'tasks', arguments: {} });
    const { tasks, oldest } = result.structuredContent as { tasks: { title: string; due: string; doneAt: string | null }[]; oldest: string };
    expect(tasks.map((t) => [t.title, t.due, t.doneAt])).toEqual([
      ['Ship it', '2026-05-01T09:30:00.000Z', null],
      ['Write docs', '2026-05-02T15:00:00.000Z', '2026-04-03T10:00:00.000Z'],
    ]);
    expect(oldest).toBe('2026-05-01T09:30:00.000Z');
    expect(faults).toEqual([]);
  });
});
