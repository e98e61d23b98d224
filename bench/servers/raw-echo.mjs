// Raw baseline MCP stdio server: newline-delimited JSON in, one write per response out.
// No validation, no SDK — the floor any real server implementation is compared against.
const TOOL = {
  name: 'add',
  description: 'Add two numbers',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
};

function handle(msg) {
  switch (msg.method) {
    case 'initialize':
      return {
        protocolVersion: msg.params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'raw-echo', version: '1.0.0' },
      };
    case 'tools/call': {
      const { a, b } = msg.params.arguments;
      return { content: [{ type: 'text', text: String(a + b) }] };
    }
    case 'tools/list':
      return { tools: [TOOL] };
    default:
      return {};
  }
}

function onLine(line) {
  if (line.length === 0) return;
  const msg = JSON.parse(line);
  if (msg.id === undefined) return; // notification
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: handle(msg) }) + '\n');
}

// Linear-time framing: stash partial chunks, join only once a newline arrives.
let pending = [];
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  let start = 0;
  let nl;
  while ((nl = chunk.indexOf('\n', start)) !== -1) {
    let line = chunk.slice(start, nl);
    if (pending.length > 0) {
      pending.push(line);
      line = pending.join('');
      pending = [];
    }
    onLine(line);
    start = nl + 1;
  }
  if (start < chunk.length) pending.push(start === 0 ? chunk : chunk.slice(start));
});
process.stdin.on('end', () => process.exit(0));
