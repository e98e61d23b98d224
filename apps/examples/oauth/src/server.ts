/** The protected notes server: main.ts serves it over HTTP with JWT verification; tests may serve it otherwise. */
import { createServer, type TypeMcpServer } from '@typemcp/core';
import { NotesService } from './notes.service.js';

/** A notes server whose features declare OAuth scopes. @publicApi */
export function createProtectedNotesServer(): TypeMcpServer {
  return createServer({
    name: 'typemcp-oauth-notes',
    title: 'Notes (OAuth)',
    version: '0.1.0',
    description: 'Notes per user, behind OAuth: list and read with notes:read, add with notes:write',
    services: [NotesService],
  });
}
