/**
 * PostgreSQL for the tests: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test, the
 * machine's service with trust authentication). Tests that need it fail, never skip, when it is
 * not there.
 */
import { Client } from 'pg';

export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** How many connections the database has open now for `applicationName` (pg_stat_activity). */
export async function connectionsOf(applicationName: string): Promise<number> {
  const client = new Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('select count(*) as n from pg_stat_activity where application_name = $1', [applicationName]);
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

/** A name for one test's connections, so their count is its own. */
export const applicationName = (label: string) => `typemcp-${label}-${process.pid}-${Date.now().toString(36)}`;
