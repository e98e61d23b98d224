import { ErrorCode, type JsonObject, type RevisionFeatures } from '@typemcp/protocol';
import {
  admitModernPost,
  admitRequest,
  headerMismatch,
  LEGACY,
  MetaKey,
  negotiateRevision,
  postEra,
  type Admission,
  type NegotiatedState,
} from '@typemcp/protocol/internal';

const MODERN = '2026-07-28';
const caps = { [MetaKey.clientCapabilities]: {} };
const modernMeta = (extra: JsonObject = {}): JsonObject => ({ _meta: { [MetaKey.protocolVersion]: MODERN, ...caps, ...extra } });
const state = (features: RevisionFeatures | undefined, inFlight: (string | number)[] = []): NegotiatedState => ({
  features,
  isInFlight: (id) => inFlight.includes(id),
});
const initialized = negotiateRevision('2025-06-18');
const deep = (levels: number): unknown => (levels === 0 ? 1 : { a: deep(levels - 1) });

interface Row {
  name: string;
  method: string;
  params?: unknown;
  state: NegotiatedState;
  known: boolean;
  error: { code: number; message: string; data?: unknown };
}

// One row per refusal, in the order the ladder applies them: each row's request also breaks
// the rules of the rows below it where it can, so the first failing rule is the one answered.
const ladder: Row[] = [
  {
    name: 'a duplicate id (before an unknown method and a missing initialize)',
    method: 'no/such',
    params: [],
    state: state(undefined, [1]),
    known: false,
    error: { code: ErrorCode.InvalidRequest, message: 'Request id 1 is already in flight; ids must be unique' },
  },
  {
    name: 'an unknown method, legacy era (before not initialized and params)',
    method: 'no/such',
    params: [],
    state: state(undefined),
    known: false,
    error: { code: ErrorCode.MethodNotFound, message: 'Method not found: no/such' },
  },
  {
    name: 'a 2026-07-28 method on a legacy session',
    method: 'server/discover',
    state: state(initialized),
    known: true,
    error: { code: ErrorCode.MethodNotFound, message: 'Method not found: server/discover' },
  },
  {
    name: 'a request before initialize (before params)',
    method: 'tools/list',
    params: 'x',
    state: state(undefined),
    known: true,
    error: { code: ErrorCode.InvalidRequest, message: 'Server not initialized: send "initialize" before "tools/list"' },
  },
  {
    name: 'params that are not an object',
    method: 'tools/list',
    params: [1],
    state: state(initialized),
    known: true,
    error: { code: ErrorCode.InvalidParams, message: 'Invalid params: "params" must be an object' },
  },
  {
    name: 'params nested too deep (limit 3)',
    method: 'tools/list',
    params: deep(4),
    state: state(initialized),
    known: true,
    error: { code: ErrorCode.InvalidParams, message: 'Invalid params: nested deeper than 3 levels' },
  },
  {
    name: 'an unknown method, 2026-07-28 (before its _meta)',
    method: 'no/such',
    params: { _meta: { [MetaKey.protocolVersion]: MODERN } },
    state: state(undefined),
    known: false,
    error: { code: ErrorCode.MethodNotFound, message: 'Method not found: no/such' },
  },
  {
    name: 'a handshake-era method, 2026-07-28',
    method: 'logging/setLevel',
    params: modernMeta(),
    state: state(undefined),
    known: true,
    error: { code: ErrorCode.MethodNotFound, message: 'Method not found: logging/setLevel (not part of protocol revision 2026-07-28)' },
  },
  {
    name: 'a version that is not a string',
    method: 'tools/list',
    params: { _meta: { [MetaKey.protocolVersion]: 7 } },
    state: state(undefined),
    known: true,
    error: { code: ErrorCode.InvalidParams, message: `Invalid params: _meta "${MetaKey.protocolVersion}" is required and must be a string` },
  },
  {
    name: 'missing client capabilities (before the version)',
    method: 'tools/list',
    params: { _meta: { [MetaKey.protocolVersion]: '1999-01-01' } },
    state: state(undefined),
    known: true,
    error: { code: ErrorCode.InvalidParams, message: `Invalid params: _meta "${MetaKey.clientCapabilities}" is required and must be an object` },
  },
  {
    name: 'a version not served statelessly (before clientInfo)',
    method: 'tools/list',
    params: { _meta: { [MetaKey.protocolVersion]: '2025-06-18', ...caps, [MetaKey.clientInfo]: 3 } },
    state: state(undefined),
    known: true,
    error: {
      code: ErrorCode.UnsupportedProtocolVersion,
      message: 'Unsupported protocol version: 2025-06-18',
      data: { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'], requested: '2025-06-18' },
    },
  },
  {
    name: 'a malformed clientInfo (before the log level)',
    method: 'tools/list',
    params: modernMeta({ [MetaKey.clientInfo]: { name: 'c' }, [MetaKey.logLevel]: 'loud' }),
    state: state(undefined),
    known: true,
    error: { code: ErrorCode.InvalidParams, message: `Invalid params: _meta "${MetaKey.clientInfo}" must be an object with string "name" and "version"` },
  },
  {
    name: 'an unknown log level',
    method: 'tools/list',
    params: modernMeta({ [MetaKey.logLevel]: 'loud' }),
    state: state(undefined),
    known: true,
    error: {
      code: ErrorCode.InvalidParams,
      message: `Invalid params: _meta "${MetaKey.logLevel}" must be one of debug, info, notice, warning, error, critical, alert, emergency`,
    },
  },
];

describe('admitRequest: the refusal ladder', () => {
  it.each(ladder.map((row, i) => [i + 1, row.name, row] as const))('%i. refuses %s', (_i, _name, row) => {
    const verdict = admitRequest({ id: 1, method: row.method, params: row.params }, row.state, row.known, 3);
    expect(verdict).toEqual({ kind: 'refused', error: row.error });
  });

  it('admits a legacy request with the one shared verdict (no allocation)', () => {
    const a = admitRequest({ id: 1, method: 'initialize', params: modernMeta() }, state(undefined), true, 3);
    const b = admitRequest({ id: 2, method: 'tools/list', params: {} }, state(initialized), true, 3);
    expect(a).toBe(LEGACY);
    expect(b).toBe(LEGACY);
  });

  it('admits ping before initialize and a 2026-07-28 request with what its _meta declared', () => {
    expect(admitRequest({ id: 1, method: 'ping', params: undefined }, state(undefined), true, 3)).toBe(LEGACY);
    const verdict = admitRequest(
      { id: 1, method: 'tools/list', params: modernMeta({ [MetaKey.clientInfo]: { name: 'c', version: '1' }, [MetaKey.logLevel]: 'error' }) },
      state(undefined),
      true,
      3,
    );
    expect(verdict).toMatchObject({
      kind: 'modern',
      features: { revision: MODERN },
      clientCapabilities: {},
      clientInfo: { name: 'c', version: '1' },
      logLevel: 4,
    });
  });

  it('serves a _meta version as legacy once the session chose the legacy era', () => {
    expect(admitRequest({ id: 1, method: 'tools/list', params: modernMeta() }, state(initialized), true, 3)).toBe(LEGACY);
  });
});

describe('postEra: the era of an HTTP POST', () => {
  const modernBody = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: modernMeta() };
  const rows: [string, string | undefined, string | undefined, unknown, 'legacy' | 'modern'][] = [
    ['a session id', 'abc', MODERN, modernBody, 'legacy'],
    ['a legacy header version', undefined, '2025-06-18', modernBody, 'legacy'],
    ['a modern header version', undefined, MODERN, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'modern'],
    ['an unknown header version and _meta', undefined, '1999-01-01', modernBody, 'modern'],
    ['no header, _meta', undefined, undefined, modernBody, 'modern'],
    ['no header, a batch', undefined, undefined, [modernBody], 'legacy'],
    ['no header, no _meta', undefined, undefined, { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, 'legacy'],
  ];
  it.each(rows)('%s', (_name, sessionId, version, body, era) => {
    expect(postEra(sessionId, version, body)).toBe(era);
  });
});

describe('admitModernPost: the HTTP ladder of a 2026-07-28 request', () => {
  const mismatch = () => {
    throw headerMismatch('Mcp-Method', 'x', 'tools/list');
  };
  const rows: [string, JsonObject, string | undefined, boolean, () => void, number][] = [
    ['_meta first', { _meta: { [MetaKey.protocolVersion]: '1999-01-01' } }, 'other', false, mismatch, ErrorCode.InvalidParams],
    ['then the MCP-Protocol-Version header', modernMeta(), '1999-01-01', false, mismatch, ErrorCode.HeaderMismatch],
    ['then the version', { _meta: { [MetaKey.protocolVersion]: '1999-01-01', ...caps } }, '1999-01-01', false, mismatch, ErrorCode.UnsupportedProtocolVersion],
    ['then the transport headers', modernMeta(), MODERN, false, mismatch, ErrorCode.HeaderMismatch],
    ['then the method', modernMeta(), MODERN, false, () => undefined, ErrorCode.MethodNotFound],
  ];
  it.each(rows)('%s', (_name, params, header, known, check, code) => {
    const verdict = admitModernPost('tools/list', params, header, known, check) as Admission;
    expect(verdict.kind).toBe('refused');
    expect(verdict.kind === 'refused' && verdict.error.code).toBe(code);
  });

  it('admits a request that passes every rung, and lets other errors of the transport check through', () => {
    expect(admitModernPost('tools/list', modernMeta(), MODERN, true, () => undefined)).toMatchObject({ kind: 'modern' });
    const boom = new TypeError('boom');
    expect(() =>
      admitModernPost('tools/list', modernMeta(), MODERN, true, () => {
        throw boom;
      }),
    ).toThrow(boom);
  });
});
