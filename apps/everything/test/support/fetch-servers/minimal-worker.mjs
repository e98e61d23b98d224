/**
 * createFetchHandler alone on workerd, without `nodejs_compat`: a ProtocolServer (no decorators,
 * no core) with two tools. If the handler's request path needed any node module, workerd (which
 * has none without that flag) would fail the requests. Bundled by workerd.ts.
 */
import { ProtocolServer } from '@typemcp/protocol';
import { createFetchHandler } from '@typemcp/http/fetch';

const text = (t) => ({ content: [{ type: 'text', text: t }] });
let handler;

function build() {
  const engine = new ProtocolServer({ serverInfo: { name: 'workerd-minimal', version: '1.0.0' } });
  engine.registry.addTool({ name: 'add', description: 'a + b', inputSchema: { type: 'object' } }, (args) => text(String(args.a + args.b)));
  engine.registry.addTool({ name: 'count', description: 'progress 1..3', inputSchema: { type: 'object' } }, async (_args, ctx) => {
    for (let i = 1; i <= 3; i++) {
      ctx.progress(i, 3);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return text('counted');
  });
  return createFetchHandler(engine, { sessions: false, keepAliveMs: 0, maxBodyBytes: 64 * 1024 });
}

export default {
  fetch(request) {
    handler ??= build();
    return handler(request);
  },
};
