/**
 * The audit interceptor with pino as the logger: one `info` record per call (kind, name or URI,
 * principal id, outcome, duration), a tool error recorded as such, never the arguments. (Without
 * a logger the interceptor only calls the method: the other notes tests run that way.)
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createTestClient, type TestClient } from '@typemcp/testing';
import { createNotesServer } from '../src/notes.server';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function pinoToMemory() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: pino(destination), lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

it('writes one audit record per call through the logger, without the arguments', async () => {
  const memory = pinoToMemory();
  const client = await createTestClient({ server: createNotesServer({ logger: memory.logger }), closeServer: true, principal: { sub: 'ana' } });
  clients.push(client);
  await client.callTool('create_note', { title: 'Secret plan', body: 'BODY-NOT-FOR-LOGS', tags: ['x'] });
  await client.callTool('search_notes', { query: 'plan' });
  await client.callTool('delete_note', { id: 999 });
  await client.readResource('notes://index');
  const audit = memory.records().filter((r) => r.msg === 'audit');
  expect(audit.map((r) => [r.level, r.kind, r.name, r.principalId, r.outcome])).toEqual([
    [30, 'tool', 'create_note', 'ana', 'ok'],
    [30, 'tool', 'search_notes', 'ana', 'ok'],
    [30, 'tool', 'delete_note', 'ana', 'tool error'],
    [30, 'resource', 'notes://index', 'ana', 'ok'],
  ]);
  for (const record of audit) expect(record.ms).toEqual(expect.any(Number));
  const all = memory.lines.join('\n');
  for (const argument of ['BODY-NOT-FOR-LOGS', 'Secret plan', '"query"', '"id":']) expect(all).not.toContain(argument);
});
