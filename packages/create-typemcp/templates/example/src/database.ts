/**
 * The PostgreSQL pool, when DATABASE_URL is set: opened and checked before the server takes its
 * first request (onInit: an unreachable database stops start-up), closed when the server stops
 * (onDestroy: on SIGTERM, stdin closing, close()), and checked by /readyz. Without DATABASE_URL
 * the server runs without a database (StatusService says so).
 */
import { Injectable, ReadinessCheck, type OnDestroy, type OnInit } from '@typemcp/core';
import { Pool } from 'pg';
import { AppConfig } from './config.js';

@Injectable()
export class Database implements OnInit, OnDestroy {
  readonly pool?: Pool;

  constructor(config: AppConfig) {
    if (!config.databaseUrl) return;
    this.pool = new Pool({ connectionString: config.databaseUrl, max: 10, connectionTimeoutMillis: 2000 });
    // An idle connection that breaks (the database restarted) is dropped by the pool; the next
    // query opens another. Without a listener the 'error' event would end the process.
    this.pool.on('error', () => {});
  }

  async onInit(): Promise<void> {
    await this.pool?.query('select 1');
  }

  async onDestroy(): Promise<void> {
    await this.pool?.end();
  }

  /** /readyz: the database answers within a second (always ready without one). */
  @ReadinessCheck({ name: 'database', timeoutMs: 1000 })
  async ping(): Promise<void> {
    await this.pool?.query('select 1');
  }

  /** The database's clock, or undefined without a database. */
  async now(): Promise<string | undefined> {
    if (!this.pool) return undefined;
    const { rows } = await this.pool.query<{ now: Date }>('select now() as now');
    return rows[0].now.toISOString();
  }
}
