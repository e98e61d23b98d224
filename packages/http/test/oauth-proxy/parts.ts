/** A proxy context for the part tests, built as OAuthProxy builds it (real jose, memory store). */
import { MemoryOAuthProxyStore } from '@typemcp/http';
import type { JWK } from 'jose';
import type { ProxyContext } from '../../src/oauth-proxy/context';
import { loadKeys } from '../../src/oauth-proxy/keys';
import type { OAuthProxyOptions } from '../../src/oauth-proxy/oauth-proxy-options.interface';
import { Upstream } from '../../src/oauth-proxy/upstream';

export function partContext(over: Partial<OAuthProxyOptions> = {}, signingKey?: JWK): ProxyContext & { errors: unknown[] } {
  const options: OAuthProxyOptions = {
    baseUrl: 'https://mcp.example.com',
    upstream: { issuer: 'https://idp.example.com', clientId: 'proxy', clientSecret: 'secret' },
    scopes: ['notes:read', 'notes:write'],
    ...over,
  };
  const jose = import('jose');
  const errors: unknown[] = [];
  return {
    options,
    issuer: 'https://mcp.example.com',
    resource: options.resource ?? 'https://mcp.example.com/mcp',
    scopes: options.scopes ?? [],
    store: options.store ?? new MemoryOAuthProxyStore(),
    secure: true,
    cookies: { txn: '__Host-t', browser: '__Host-b', csrf: '__Host-c' },
    ttl: { access: 60, refresh: 600, consent: 600, client: 600 },
    jose,
    keys: loadKeys(jose, signingKey),
    machines: new Map(),
    enterprise: new Map(),
    upstream: new Upstream(options.upstream, 'https://mcp.example.com/oauth/callback', jose),
    report: (error) => void errors.push(error),
    errors,
  };
}
