// The official SDK 2.x client's PrivateKeyJwtProvider in its own Node process (the SDK signs its
// client assertion with a dynamic import of jose, which needs real ESM, not Jest's CommonJS):
// connects to the MCP URL in argv[2] as the client in argv[3] with the private JWK (JSON) in
// argv[4] and the issuer in argv[5], calls `whoami`, and prints the tool's text on stdout.
import { Client, PrivateKeyJwtProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, clientId, jwk, issuer] = process.argv.slice(2);
const provider = new PrivateKeyJwtProvider({ clientId, privateKey: JSON.parse(jwk), algorithm: 'ES256', expectedIssuer: issuer });
const client = new Client({ name: 'private-key-jwt', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
const result = await client.callTool({ name: 'whoami', arguments: {} });
process.stdout.write(result.content[0].text);
await client.close();
