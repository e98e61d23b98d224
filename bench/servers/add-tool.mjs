// The `add` tool every engine-level bench server registers: two numbers checked by hand, their
// sum as text. `protocol` is the loaded @typemcp/protocol build (this checkout's, or a baseline's).
export function registerAdd(engine, protocol) {
  engine.registry.addTool(
    {
      name: 'add',
      description: 'Add two numbers',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    },
    ({ a, b }) => {
      if (typeof a !== 'number' || typeof b !== 'number') throw new protocol.ToolError('a and b must be numbers');
      return { content: [{ type: 'text', text: String(a + b) }] };
    },
  );
}
