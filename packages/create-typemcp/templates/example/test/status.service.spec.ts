/** The status tool, without a database (the default) and with one standing in for PostgreSQL. */
import { createTestClient, textOf } from '@typemcp/testing';
import { Database } from '../src/database.js';
import { StatusService } from '../src/services/status.service.js';
import { createAppServer } from '../src/server.js';

describe('StatusService', () => {
  it('says when no database is configured (the server starts without one)', async () => {
    const client = await createTestClient({ server: createAppServer({ services: [StatusService] }), closeServer: true });
    try {
      expect(textOf(await client.callTool('status', {}))).toBe('No database configured (set DATABASE_URL).');
    } finally {
      await client.close();
    }
  });

  it("gives the database's time", async () => {
    const database = { now: async () => '2026-01-02T03:04:05.000Z' };
    const server = createAppServer({ services: [StatusService], providers: [{ provide: Database, useValue: database }] });
    const client = await createTestClient({ server, closeServer: true });
    try {
      expect(textOf(await client.callTool('status', {}))).toBe('The database answers; its time is 2026-01-02T03:04:05.000Z.');
    } finally {
      await client.close();
    }
  });
});
