// The official SDK 2.x client with DPoP (its `dpop()` session, RFC 9449) in its own Node process
// (the SDK signs proofs with a dynamic import of jose, which needs real ESM): registers with the
// proxy, prints the authorization URL as {"authorize": url} and reads the callback URL on stdin,
// then connects, calls `whoami`, and prints {"whoami": text, "tokenType": ..., "accessToken": ...}.
import { createInterface } from 'node:readline';
import { Client, DpopSession, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';

const [url, redirect] = process.argv.slice(2);
const lines = createInterface({ input: process.stdin });
const nextLine = () => new Promise((resolve) => lines.once('line', resolve));
const session = await DpopSession.create();
let info;
let tokens;
let verifier = '';
let discovery;
let pending;
const provider = {
  get redirectUrl() {
    return redirect;
  },
  get clientMetadata() {
    return {
      client_name: 'dpop client',
      redirect_uris: [redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  },
  clientInformation: () => info,
  saveClientInformation: (i) => void (info = i),
  tokens: () => tokens,
  saveTokens: (t) => void (tokens = t),
  redirectToAuthorization: (u) => void (pending = u),
  saveCodeVerifier: (v) => void (verifier = v),
  codeVerifier: () => verifier,
  saveDiscoveryState: (s) => void (discovery = s),
  discoveryState: () => discovery,
  dpop: () => session,
};
const client = new Client({ name: 'dpop', version: '1.0.0' });
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
} catch (error) {
  if (!(error instanceof UnauthorizedError)) throw error;
}
process.stdout.write(`${JSON.stringify({ authorize: pending.toString() })}\n`);
const back = new URL(await nextLine());
await new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }).finishAuth(back.searchParams);
await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
const result = await client.callTool({ name: 'whoami', arguments: {} });
process.stdout.write(
  `${JSON.stringify({ whoami: result.content[0].text, tokenType: tokens.token_type, accessToken: tokens.access_token, thumbprint: session.thumbprint })}\n`,
);
await client.close();
lines.close();
