// One instance of a TypeMCP server protected by the OAuth proxy, its proxy store on Redis, run as
// a child process by the shared-proxy test. Uses the built packages (npx tsc -b). Arguments:
// <redisUrl> <prefix> <baseUrl> <upstreamIssuer>; the signing key (a private JWK, JSON) and the
// upstream client's secret come in the environment (OAUTH_SIGNING_JWK, OAUTH_UPSTREAM_SECRET).
// Prints {"port":N,"pid":N} once listening.
import { ProtocolServer } from '@typemcp/protocol';
import { serveHttp } from '@typemcp/http';
import { redisState } from '@typemcp/redis';

const [redisUrl, prefix, baseUrl, issuer] = process.argv.slice(2);
const state = redisState({ url: redisUrl, prefix, commandTimeoutMs: 1000, connectTimeoutMs: 2000 });
const engine = new ProtocolServer({ serverInfo: { name: 'shared-proxy', version: '1.0.0' }, onError: () => {} });
engine.registry.addTool({ name: 'whoami', description: 'whoami', inputSchema: { type: 'object' } }, (_args, ctx) => ({
  content: [{ type: 'text', text: JSON.stringify({ principal: ctx.principal ?? null, pid: process.pid }) }],
}));
const listener = await serveHttp(engine, {
  port: 0,
  keepAliveMs: 0,
  state,
  oauthProxy: {
    baseUrl,
    upstream: { issuer, clientId: 'typemcp-proxy', clientSecret: process.env.OAUTH_UPSTREAM_SECRET },
    scopes: ['notes:read'],
    signingKey: JSON.parse(process.env.OAUTH_SIGNING_JWK),
    store: state.oauthProxyStore(),
  },
  onError: (error, where) => process.stderr.write(`[instance ${process.pid}] ${where}: ${error?.message ?? error}\n`),
});
process.stdout.write(`${JSON.stringify({ port: listener.port, pid: process.pid })}\n`);
process.on('SIGTERM', () => void listener.close(200).then(() => process.exit(0)));
