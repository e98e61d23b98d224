/**
 * A Keycloak-shaped authorization server, as far as a resource server sees one: its issuer has a
 * path (`http://127.0.0.1:<port>/realms/<realm>`), its OpenID metadata is at
 * `{issuer}/.well-known/openid-configuration` and its JWKS at
 * `{issuer}/protocol/openid-connect/certs`, not at any /.well-known/jwks.json. Real sockets; the
 * test decides what each path answers (`routes`), signs tokens with the realm's key, rotates it,
 * and counts the requests each path received.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface PathIssuer {
  readonly base: string;
  readonly issuer: string;
  readonly jwksUri: string;
  /** Path -> handler; the defaults serve the metadata and the JWKS. Replace one to make it fail. */
  readonly routes: Map<string, Route>;
  /** Requests received per path. */
  readonly hits: Map<string, number>;
  /** The metadata document served by default. */
  metadata(): Record<string, unknown>;
  /** Signs `claims` (ES256) with the current key; `iss` defaults to the issuer, `iat` to now. */
  sign(claims: JWTPayload, kid?: string): Promise<string>;
  /** A new current key (the old ones stay published); returns its kid. */
  rotate(): Promise<string>;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

export async function startPathIssuer(realm = 'typemcp'): Promise<PathIssuer> {
  const keys: { kid: string; privateKey: CryptoKey; jwk: JWK }[] = [];
  let counter = 0;
  const rotate = async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const kid = `key-${++counter}`;
    keys.unshift({ kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } });
    return kid;
  };
  await rotate();
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes.get(path);
    if (route) route(req, res);
    else json(res, 404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${base}/realms/${realm}`;
  const jwksUri = `${issuer}/protocol/openid-connect/certs`;
  const metadata = () => ({ issuer, jwks_uri: jwksUri, token_endpoint: `${issuer}/protocol/openid-connect/token` });
  routes.set(`/realms/${realm}/.well-known/openid-configuration`, (_req, res) => json(res, 200, metadata()));
  routes.set(new URL(jwksUri).pathname, (_req, res) => json(res, 200, { keys: keys.map((k) => k.jwk) }));
  return {
    base,
    issuer,
    jwksUri,
    routes,
    hits,
    metadata,
    rotate,
    async sign(claims, kid) {
      const key = keys.find((k) => k.kid === (kid ?? keys[0].kid)) ?? keys[0];
      return new SignJWT({ iss: issuer, iat: Math.floor(Date.now() / 1000), ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: kid ?? key.kid })
        .sign(key.privateKey);
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
