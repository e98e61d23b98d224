/** The server's status: whether its database answers. An example of a service using an injected resource. */
import { McpService, Tool } from '@typemcp/core';
import { Database } from '../database.js';

@McpService()
export class StatusService {
  constructor(private readonly database: Database) {}

  @Tool({ description: "Says whether the server's database answers, and its time.", annotations: { readOnlyHint: true } })
  async status(): Promise<string> {
    const now = await this.database.now();
    return now === undefined ? 'No database configured (set DATABASE_URL).' : `The database answers; its time is ${now}.`;
  }
}
