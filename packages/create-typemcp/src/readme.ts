/** The generated project's README.md. */
import { DEFAULT_HTTP_URL, json } from './client-config.js';
import { sampleCall } from './next-steps.js';
import type { ProjectOptions } from './options.js';

function layout(template: ProjectOptions['template']): string {
  const service = template === 'example' ? 'greeting' : template === 'app' ? 'counter' : 'echo';
  return [
    '| Path | What |',
    '| --- | --- |',
    '| `src/main.ts` | The entry point: serves the server over the transport. |',
    "| `src/server.ts` | `createAppServer()`: the server's name, version, services and `providers` (what the services need that the DI container cannot build: configuration, clients). `main.ts` and every test build the server with it. |",
    '| `src/config.ts` | `AppConfig`: every setting, read from the environment and `.env` at start-up. |',
    '| `src/logger.ts` | The log: JSON lines on stderr with `NODE_ENV=production`, readable lines otherwise. |',
    "| `src/compile-cache.ts` | Node's compile cache (Node 22+), imported first by `main.ts`: later starts reuse the compiled modules from `node_modules/.cache/typemcp`. |",
    ...(template === 'example'
      ? ['| `src/database.ts` | A PostgreSQL pool (when `DATABASE_URL` is set), opened by `onInit()`, closed by `onDestroy()`, checked by `/readyz`. |']
      : []),
    '| `src/services/index.ts` | The list of services; `typemcp add` registers new ones here. |',
    ...(template === 'app'
      ? [
          "| `src/apps/counter.app.html`, `counter.ts` | The MCP App's view (the official `App` class of `@modelcontextprotocol/ext-apps`): `npm run build` bundles it into one self-contained `dist/apps/counter.html`, which the `ui://counter/view` resource serves. |",
        ]
      : []),
    `| \`src/services/${service}.service.ts\` | An \`@McpService()\` class: its decorated methods are what clients see. |`,
    `| \`src/services/${service}.dto.ts\` | class-validator DTOs: the JSON Schemas clients see and the validation of their input. |`,
    `| \`test/${service}.service.spec.ts\` | Tests with \`@typemcp/testing\`: a real server and client in memory. |`,
    '| `test/server.spec.ts` | The whole server, every service together: fails when it could not start (e.g. two tools with one name). |',
  ].join('\n');
}

function connect(options: Pick<ProjectOptions, 'name' | 'transport'>): string {
  const stdio = { command: 'node', args: [`/absolute/path/to/${options.name}/dist/main.js`] };
  const parts: string[] = [];
  if (options.transport !== 'http') {
    parts.push(
      'MCP clients start the server themselves. Build it (`npm run build`), then add it to the client:',
      '',
      'Claude Desktop (`claude_desktop_config.json`):',
      '',
      '```json',
      json({ mcpServers: { [options.name]: stdio } }),
      '```',
      '',
      'VS Code (`.vscode/mcp.json` in this folder):',
      '',
      '```json',
      json({ servers: { [options.name]: { type: 'stdio', command: 'node', args: ['${workspaceFolder}/dist/main.js'] } } }),
      '```',
    );
  }
  if (options.transport !== 'stdio') {
    const start = options.transport === 'both' ? 'npm run start:http' : 'npm start';
    parts.push(
      ...(parts.length ? [''] : []),
      `Over HTTP, start the server yourself (\`${start}\`, or \`PORT=8080 ${start}\`) and give clients its URL, \`${DEFAULT_HTTP_URL}\`. VS Code:`,
      '',
      '```json',
      json({ servers: { [options.name]: { type: 'http', url: DEFAULT_HTTP_URL } } }),
      '```',
    );
  }
  return parts.join('\n');
}

function devWithClient(options: Pick<ProjectOptions, 'name' | 'transport'>): string {
  const http = `\`${options.transport === 'both' ? 'npm run dev:http' : 'npm run dev'}\` restarts the server on each change and keeps \`${DEFAULT_HTTP_URL}\` open: a client connected there keeps its session across restarts and is told that the lists changed.`;
  if (options.transport === 'http') {
    return [
      '## Develop with a client connected',
      '',
      http,
      '',
      'A stdio client (Claude Desktop, an IDE) starts `npx typemcp dev --bridge` in this folder instead: it runs the server the same way and',
      "relays the client's messages to its HTTP endpoint. VS Code (`.vscode/mcp.json`):",
      '',
      '```json',
      json({ servers: { [`${options.name}-dev`]: { type: 'stdio', command: 'npx', args: ['typemcp', 'dev', '--bridge'], cwd: '${workspaceFolder}' } } }),
      '```',
    ].join('\n');
  }
  return [
    '## Develop with a client connected',
    '',
    'Have the client start `npx typemcp dev` in this folder: it runs `src/main.ts` and restarts it on each change while the',
    'client stays connected (the handshake is replayed and the client is told the lists changed). Not `npm run dev`: npm',
    'prints a banner on stdout, which belongs to the protocol. VS Code (`.vscode/mcp.json`):',
    '',
    '```json',
    json({ servers: { [`${options.name}-dev`]: { type: 'stdio', command: 'npx', args: ['typemcp', 'dev'], cwd: '${workspaceFolder}' } } }),
    '```',
    ...(options.transport === 'both' ? ['', http] : []),
  ].join('\n');
}

function preview(): string {
  return `## Preview the app

\`npm run dev\` also serves the MCP Apps preview, http://127.0.0.1:6280/ (printed when it starts; another
free port when 6280 is taken). Open it in a browser: it lists \`show_counter\`, calls it with
the arguments you type (JSON) and renders its view with the official \`AppBridge\` of
\`@modelcontextprotocol/ext-apps\`, as a host such as Claude or VS Code does, beside the text
fallback and the \`structuredContent\`; the view's Increment button calls the server through it.
\`typemcp dev\` bundles the view into \`dist/apps/\` before each start, and saving a file (the
view's HTML, CSS or script, or a service) reloads the open view and runs the last call again.
\`--preview-port <port>\` picks another port, \`--no-preview\` turns it off (\`typemcp dev --help\`).
`;
}

function oauth(options: Pick<ProjectOptions, 'name' | 'transport'>): string {
  const start = options.transport === 'both' ? 'npm run start:http' : 'npm start';
  return `## Protected with OAuth

Over HTTP, every request needs a bearer token. MCP clients get one by signing their user in: the
server is an OAuth proxy (\`@typemcp/http\`) in front of your identity provider. It registers MCP
clients itself (RFC 7591), shows its own consent page for each one, sends the user to the
provider, and gives the client its own tokens for this server. \`src/auth.ts\` reads:

| Variable | What |
| --- | --- |
| \`OAUTH_ISSUER\` | The provider's issuer URL (its endpoints are discovered). |
| \`OAUTH_CLIENT_ID\`, \`OAUTH_CLIENT_SECRET\` | The client you registered at the provider for this server, with the redirect URI \`<PUBLIC_URL>/oauth/callback\`. |
| \`OAUTH_SCOPES\` | What to ask the provider for (default \`openid\`). |
| \`MCP_SCOPES\` | The scopes this server's tokens may carry (default: every scope the services declare; a list that leaves one out stops start-up). |
| \`PUBLIC_URL\` | Where clients reach the server (default \`http://127.0.0.1:3000\`); https in production. |

### Try it locally

\`npm run idp\` starts a local OpenID provider on http://127.0.0.1:9000 (sign in with any name and
password; registration off, like GitHub or Google) with a client registered for this server. In
another terminal:

\`\`\`bash
npm run build
OAUTH_ISSUER=http://127.0.0.1:9000 OAUTH_CLIENT_ID=${options.name}-dev OAUTH_CLIENT_SECRET=dev-secret-not-for-production ${start}
\`\`\`

Then connect an MCP client that supports OAuth to \`${DEFAULT_HTTP_URL}\`, for instance the MCP
Inspector (\`npx @modelcontextprotocol/inspector\`, transport "Streamable HTTP"): it registers,
you approve it on the server's consent page, sign in at the local provider, approve again there,
and the client is connected. \`test/auth.spec.ts\` checks the protection without a provider.
`;
}

/** How the project is configured and, served over HTTP, deployed. */
function deploying(options: Pick<ProjectOptions, 'name' | 'transport'> & Partial<Pick<ProjectOptions, 'redis'>>): string {
  const settings = `## Configuration

Every setting is a property of \`AppConfig\` (\`src/config.ts\`), read from the environment and from
\`.env\` (never committed; a variable the environment has wins) when the server starts: \`logLevel\`
from \`LOG_LEVEL\`, and so on. A bad or missing value stops start-up with one line per variable
(never its value). Inject \`AppConfig\` into any service through its constructor.
`;
  if (options.transport === 'stdio') return settings;
  return `${settings}
## Deploying

- \`GET /livez\` (liveness) and \`GET /readyz\` (readiness: 200 when the start hooks ran and every
  \`@ReadinessCheck()\` passes, 503 otherwise and while draining) are the probes.
- \`HOST=0.0.0.0\` needs \`ALLOWED_HOSTS\` (the Host names clients use) or \`PUBLIC_URL\`; behind a
  TLS-terminating proxy set \`PUBLIC_URL=https://...\` (or \`TRUST_PROXY=true\` when it sets
  \`X-Forwarded-Proto\` and \`X-Forwarded-Host\`).
- On SIGTERM the server drains for \`DRAIN_MS\` (readiness 503, new sessions refused with
  \`Retry-After\`, requests in flight finish), runs the stop hooks and exits 0.
- The \`Dockerfile\` builds an image on \`node:24-slim\` (run \`npm install\` once first: it copies
  \`package-lock.json\`): \`docker build -t ${options.name} .\` then
  \`docker run -p 3000:3000 -e ALLOWED_HOSTS=localhost ${options.name}\`.${
    options.redis
      ? `
- \`compose.yaml\` runs three instances on one Redis (\`REDIS_URL\`): \`docker compose up --build\`, ports
  3001 to 3003, behind the load balancer of your choice.`
      : ''
  }
`;
}

/** README.md of a new project. */
export function readme(options: Pick<ProjectOptions, 'name' | 'transport' | 'template'> & Partial<Pick<ProjectOptions, 'auth' | 'redis'>>): string {
  const url = options.transport === 'http' ? ` --url ${DEFAULT_HTTP_URL}` : '';
  const transport = { stdio: 'stdio', http: 'Streamable HTTP', both: 'stdio (or Streamable HTTP with `--transport http`)' }[options.transport];
  return `# ${options.name}

An [MCP](https://modelcontextprotocol.io) server written with TypeMCP (\`@typemcp/core\`), served over ${transport}.

## Commands

| Command | What |
| --- | --- |
| \`npm run dev\` | Runs \`src/main.ts\` and restarts it when a file in \`src/\` changes (for a client, see [Develop with a client connected](#develop-with-a-client-connected))${options.template === 'app' ? '; serves the [preview](#preview-the-app) of its app' : ''}. |
| \`npm test\` | The tests in \`test/\` (Jest). |
| \`npm run typecheck\` | Type-checks sources and tests. |
| \`npm run build\` | Compiles \`src/\` to \`dist/\`${options.auth === 'proxy' && options.transport === 'http' ? '' : " and writes `dist/typemcp.manifest.json` (`typemcp build`): the DTOs' JSON Schemas, read at start-up instead of derived, and `dist/typemcp.validators.cjs`, their validators compiled ahead"}. |
| \`npm start\` | Runs the built server, \`dist/main.js\`. |
${options.transport === 'both' ? '| `npm run dev:http`, `npm run start:http` | The same over Streamable HTTP. |\n' : ''}
## Layout

${layout(options.template)}

## Add a tool, a resource or a prompt

\`\`\`bash
npx typemcp add tool get_forecast                 # a new service file, its DTO and its test
npx typemcp add prompt summarise --service ${options.template === 'example' ? 'GreetingService' : 'EchoService'}  # a method in an existing service
\`\`\`

Each command writes code that compiles and a test that passes; edit both to do the real work.

${deploying(options)}
## Connect a client

${connect(options)}

${devWithClient(options)}
${options.template === 'app' ? `\n${preview()}` : ''}${options.auth === 'proxy' ? `\n${oauth(options)}` : ''}
## Try it from a terminal

\`\`\`bash
npm run build
npx typemcp list${url}
npx typemcp call ${sampleCall(options.template)}${url}
${options.transport === 'http' ? '' : 'npx typemcp inspect      # the MCP Inspector, in a browser (install it first: npm install -D @modelcontextprotocol/inspector)\n'}\`\`\`

## Traces and metrics

\`npm install @typemcp/otel @opentelemetry/api\`, then \`createServer({ ..., telemetry: true })\`: one span per request and the MCP metrics, after the OpenTelemetry conventions for MCP.
Start the OpenTelemetry Node SDK with an OTLP exporter before the server (\`node --require ./dist/otel.js dist/main.js\`, as the TypeMCP README shows) to send them to your collector.
`;
}
