// One TypeMCP instance on shared Redis state, run as a child process by the scale-out tests (so
// killing it is real). Uses the built packages (npx tsc -b). Prints {"port":N,"node":N} once
// listening. Arguments: <redisUrl> <prefix> [idleTimeoutMs]; <redisUrl> may be a comma-separated
// list of the nodes of a Redis Cluster. With INSTANCE_AUTH=1 in the environment, bearer tokens are
// required: `token-<name>` is the principal { sub: <name> }, anything else 401. Tasks live in the
// same Redis (INSTANCE_LEASE_MS: their lease); task tools report on stderr (`[task] ...`). Per-user
// state too (INSTANCE_STATE_TTL_MS: its TTL).
import { ProtocolServer, userState } from '@typemcp/protocol';
import { closeSseStream, serveHttp } from '@typemcp/http';
import { redisState } from '@typemcp/redis';

const [redisUrl, prefix, idle] = process.argv.slice(2);
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

const urls = redisUrl.split(',');
const state = redisState({ ...(urls.length > 1 ? { cluster: urls } : { url: redisUrl }), prefix, commandTimeoutMs: 500, connectTimeoutMs: 1000 });
const leaseMs = Number(process.env.INSTANCE_LEASE_MS || 10_000);
const engine = new ProtocolServer({
  serverInfo: { name: 'scale-out', version: '1.0.0' },
  onError: () => {},
  // A long poll interval: a tasks/result waiting elsewhere is woken by the task's change, not by polling.
  tasks: { store: state.taskStore({ leaseMs }), pollIntervalMs: 3000 },
});
const tool = (name, handler, inputSchema = { type: 'object' }) => engine.registry.addTool({ name, description: name, inputSchema }, handler);
tool('whereami', () => text(String(process.pid)));
tool('whoami', (_args, ctx) => text(JSON.stringify(ctx.principal ?? null)));
// Progress every `every` ms, `steps` times; `detach`: the server closes the POST stream at once (SEP-1699), so the client resumes with Last-Event-ID.
tool('count', async (args, ctx) => {
  const steps = Number(args.steps ?? 5);
  const every = Number(args.every ?? 20);
  if (args.detach) {
    ctx.progress(0, steps, 'started');
    await sleep(20, ctx.signal);
    closeSseStream(ctx);
  }
  for (let i = 1; i <= steps; i++) {
    await sleep(every, ctx.signal);
    ctx.progress(i, steps, `step ${i}`);
  }
  return text(`counted ${steps} on ${process.pid}`);
});
tool('ask', async (_args, ctx) => {
  const answer = await ctx.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
  return text(`hello ${answer.content?.name ?? answer.action} from ${process.pid}`);
});
tool('touch', (args) => {
  engine.notifyResourceUpdated(String(args.uri));
  return text(`touched on ${process.pid}`);
});
tool('addTool', (args) => {
  engine.registry.addTool({ name: String(args.name), description: 'added', inputSchema: { type: 'object' } }, () => text('new'));
  return text('added');
});
// Tasks: `sleepy` works `ms` (reporting its abort), `approve` asks first, `retryable` may run again on another instance.
const report = (line) => process.stderr.write(`[task] ${line}\n`);
const sleepy = async (args, ctx) => {
  report(`started ${ctx.taskId} on ${process.pid}`);
  try {
    await sleep(Number(args.ms ?? 100), ctx.signal);
  } catch (error) {
    report(`aborted ${ctx.taskId} on ${process.pid}: ${error?.message ?? error}`);
    throw error;
  }
  return text(`slept ${args.ms} ms on ${process.pid}`);
};
const taskTool = (name, handler, task = { support: 'optional' }) =>
  engine.registry.addTool({ name, description: name, inputSchema: { type: 'object' } }, handler, { task });
taskTool('sleepy', sleepy);
taskTool('retryable', sleepy, { support: 'optional', retries: 1 });
taskTool('approve', async (_args, ctx) => {
  report(`asking ${ctx.taskId} on ${process.pid}`);
  const answer = await ctx.elicit({ message: 'Approve?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } });
  return text(`${answer.action === 'accept' && answer.content?.ok ? 'approved' : 'refused'} on ${process.pid}`);
});
// Per-user state: `remember` adds an item to the caller's notes (INSTANCE_STATE_TTL_MS), `recall` lists them.
const notes = userState('notes', { ttlMs: Number(process.env.INSTANCE_STATE_TTL_MS || 60_000) });
tool('remember', async (args, ctx) => text(JSON.stringify(await ctx.userState(notes).update((list = []) => [...list, String(args.item)]))));
tool('recall', async (_args, ctx) => text(JSON.stringify((await ctx.userState(notes).get()) ?? [])));
engine.registry.addResource({ uri: 'test://doc', name: 'doc', mimeType: 'text/plain' }, (uri) => ({
  contents: [{ uri, mimeType: 'text/plain', text: `doc from ${process.pid}` }],
}));

const listener = await serveHttp(engine, {
  port: 0,
  keepAliveMs: 0,
  retryMs: 100,
  idleTimeoutMs: idle ? Number(idle) : undefined,
  state,
  auth: process.env.INSTANCE_AUTH === '1' ? { verify: (token) => (/^token-\w+$/.test(token) ? { sub: token.slice(6) } : undefined) } : undefined,
  onError: (error, where) => process.stderr.write(`[instance ${process.pid}] ${where}: ${error?.message ?? error}\n`),
});
// Ready once its shared state has started (a Cluster's topology is discovered first).
let health;
for (let i = 0; i < 200; i++) {
  health = await (await fetch(listener.url.replace(/\/mcp$/, '/health'))).json();
  if (health.state?.node) break;
  await sleep(50);
}
process.stdout.write(`${JSON.stringify({ port: listener.port, node: health.state?.node, pid: process.pid })}\n`);
process.on('SIGTERM', () => void listener.close(200).then(() => process.exit(0)));
