/**
 * The official SDK 1.x client's OAuth support end to end against a protected TypeMCP server with
 * oidc-provider as the authorization server (dynamic registration on): the 401 challenge,
 * Protected Resource Metadata discovery (RFC 9728), authorization server metadata, dynamic client
 * registration (RFC 7591), authorization code with PKCE (S256) and `resource` (RFC 8707), the
 * token request, the retry; then step-up on a 403 `insufficient_scope` on the same session. The
 * browser is played by the test (oidc-provider's login and consent forms over HTTP).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createServer, getMetadataStorage, McpService, Tool } from '@typemcp/core';
import { serveHttp, type HttpListener } from '@typemcp/http';
import { decodeJwt } from 'jose';
import { startOidcProvider, type OidcProvider } from '../../../test/support/oidc-provider';
import { InMemoryOAuthClient } from '../../../test/support/sdk-oauth-client';

const REDIRECT = 'http://127.0.0.1:1/callback';

let op: OidcProvider;
let server: HttpListener;

beforeAll(async () => {
  op = await startOidcProvider({ registration: true });
  getMetadataStorage().reset();
  @McpService()
  class Notes {
    @Tool({ description: 'Lists notes', scopes: ['notes:read'] })
    notes_list() {
      return 'no notes yet';
    }

    @Tool({ description: 'Adds a note', scopes: ['notes:write'] })
    notes_add() {
      return 'added';
    }
  }
  void Notes;
  server = await serveHttp(createServer({ name: 'notes', version: '1' }), {
    port: 0,
    keepAliveMs: 0,
    auth: { jwt: { jwksUri: op.jwksUri, issuer: op.issuer } },
  });
  await op.addResource(server.url, { scope: 'notes:read notes:write' });
}, 30_000);
afterAll(async () => {
  await server?.close(0);
  await op?.close();
  getMetadataStorage().reset();
});

/** Plays the user: signs in, allows `consent`, and hands the code back to the SDK. */
async function browse(provider: InMemoryOAuthClient, transport: StreamableHTTPClientTransport, consent?: string[]): Promise<URL> {
  const asked = provider.pending!;
  provider.pending = undefined;
  const back = await op.authorize(asked, { login: 'alice', password: 'wonderland', consent });
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  await transport.finishAuth(back.searchParams.get('code')!);
  return asked;
}

it('connects with discovery, dynamic registration, authorization code + PKCE, and steps up on insufficient_scope', async () => {
  const provider = new InMemoryOAuthClient(REDIRECT, 'sdk-oauth test');
  const client = new Client({ name: 'sdk-oauth', version: '1' });
  let transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
  // 401 -> metadata -> registration -> redirect: the SDK stops for the user.
  await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.info?.client_id).toEqual(expect.any(String));
  const asked = provider.pending!;
  expect(asked.origin).toBe(op.issuer);
  expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
  expect(asked.searchParams.get('resource')).toBe(server.url);
  expect(asked.searchParams.get('scope')).toBe('notes:read notes:write');
  // The user allows reading only.
  await browse(provider, transport, ['notes:read']);
  const granted = decodeJwt(provider.saved!.access_token);
  expect(granted).toMatchObject({ aud: server.url, iss: op.issuer, sub: 'alice', scope: 'notes:read' });

  transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
  await client.connect(transport);
  const sessionId = transport.sessionId;
  expect(sessionId).toEqual(expect.any(String));
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['notes_list']);
  expect(await client.callTool({ name: 'notes_list' })).toEqual({ content: [{ type: 'text', text: 'no notes yet' }] });

  // Step-up: 403 insufficient_scope -> the SDK asks for the scopes the challenge names.
  await expect(client.callTool({ name: 'notes_add' })).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.pending?.searchParams.get('scope')).toBe('notes:write');
  await browse(provider, transport);
  expect(decodeJwt(provider.saved!.access_token)).toMatchObject({ sub: 'alice', scope: expect.stringContaining('notes:write') });
  // The same session continues with the wider token.
  expect(await client.callTool({ name: 'notes_add' })).toEqual({ content: [{ type: 'text', text: 'added' }] });
  expect(transport.sessionId).toBe(sessionId);
  await client.close();
}, 30_000);
