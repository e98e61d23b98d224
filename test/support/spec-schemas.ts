/**
 * Validation of server messages against the official MCP JSON schemas vendored in spec/ (see
 * spec/README.md). Shared by every app's end-to-end tests (apps/everything, apps/examples/*).
 *
 * Why "closed" variants: the official schemas are OPEN. Almost no object definition says
 * `additionalProperties: false`, so a field that a revision does not have passes unnoticed:
 * a `title` or `icons` on a 2024-11-05 Tool, `structuredContent` in a 2025-03-26
 * CallToolResult, `message` in a 2024-11-05 progress notification, `description` in a
 * 2025-06-18 serverInfo... all validate against the open schema. A client of that revision
 * never agreed to receive them (the engine promises in revision-shaper.ts that "an older
 * client never receives a content type, field or notification its schema lacks"), so for
 * every definition the server emits we build a CLOSED copy: `additionalProperties: false`
 * wherever the definition declares `properties` and says nothing about additional ones.
 *
 * Free-form places are never closed, because the specification makes them open on purpose:
 * JSON Schema documents (`inputSchema`, `outputSchema`), `_meta`, `structuredContent`, `experimental`, the `logging`/`completions` capability
 * objects, and error/log `data`. An explicit `additionalProperties` (true, {} or a schema)
 * is always kept as the specification wrote it. (An elicitation `requestedSchema` is not
 * free-form: each revision restricts it to a flat object of the primitive schema types it
 * defines, StringSchema, EnumSchema..., so those are closed too.)
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';

export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
export type Revision = (typeof REVISIONS)[number];

/**
 * The stateless revision: no `initialize` (every request carries its protocol version, client
 * info and capabilities in `_meta`), `server/discover`, `resultType` on every result,
 * `input_required` results instead of server->client requests, `subscriptions/listen`. Kept out
 * of REVISIONS, which the suites iterate through an `initialize` handshake.
 */
export const MODERN_REVISION = '2026-07-28' as const;
/** Every revision there is a schema for: the `initialize` ones and the stateless one. */
export type SchemaRevision = Revision | typeof MODERN_REVISION;

export type JsonObject = Record<string, unknown>;

/**
 * The vendored schemas: the nearest `spec/` holding spec/README.md, looked for from this folder
 * upward, which is the repository root's (see spec/README.md for their origin). Found, not
 * written as a relative path, so nothing here names a place outside the repository.
 */
function vendoredSpecDir(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'spec', 'README.md'))) return path.join(dir, 'spec');
    if (path.dirname(dir) === dir) throw new Error(`No spec/README.md above ${__dirname}: the vendored MCP schemas are missing`);
  }
}

/** Where the official schemas live: the repository's vendored copy. */
export const SPEC_DIR = vendoredSpecDir();

/** Definitions closed in the strict variant (those absent from a revision are skipped). */
export const CLOSED_DEFINITIONS: readonly string[] = [
  // JSON-RPC envelopes (top level only: `params`/`result` stay as the spec wrote them)
  'JSONRPCRequest',
  'JSONRPCNotification',
  'JSONRPCResponse',
  'JSONRPCResultResponse',
  'JSONRPCError',
  'JSONRPCErrorResponse',
  'Error',
  // results
  'InitializeResult',
  'ServerCapabilities',
  'Implementation',
  'Icon',
  'ListToolsResult',
  'Tool',
  'ToolAnnotations',
  'CallToolResult',
  'ListResourcesResult',
  'ListResourceTemplatesResult',
  'Resource',
  'ResourceTemplate',
  'ReadResourceResult',
  'ResourceContents',
  'TextResourceContents',
  'BlobResourceContents',
  'ListPromptsResult',
  'Prompt',
  'PromptArgument',
  'GetPromptResult',
  'PromptMessage',
  'CompleteResult',
  // content
  'TextContent',
  'ImageContent',
  'AudioContent',
  'EmbeddedResource',
  'ResourceLink',
  'Annotations',
  'Annotated',
  // notifications the server sends (and their params objects, separate definitions in 2025-11-25)
  'CancelledNotification',
  'CancelledNotificationParams',
  'ProgressNotification',
  'ProgressNotificationParams',
  'LoggingMessageNotification',
  'LoggingMessageNotificationParams',
  'ResourceUpdatedNotification',
  'ResourceUpdatedNotificationParams',
  'ResourceListChangedNotification',
  'ToolListChangedNotification',
  'PromptListChangedNotification',
  'NotificationParams',
  // 2025-11-25 tasks
  'Task',
  'CreateTaskResult',
  'ListTasksResult',
  'TaskStatusNotification',
  // requests the server sends
  'PingRequest',
  'ListRootsRequest',
  'RequestParams',
  'CreateMessageRequest',
  'CreateMessageRequestParams',
  'SamplingMessage',
  'ModelPreferences',
  'ModelHint',
  'ElicitRequest',
  'ElicitRequestFormParams',
  'ElicitRequestURLParams',
  // The restricted schemas an elicitation form may use: MCP types with a fixed set of keywords
  // per revision (unlike inputSchema/outputSchema, which are arbitrary JSON Schema).
  'StringSchema',
  'NumberSchema',
  'BooleanSchema',
  'EnumSchema',
  'UntitledSingleSelectEnumSchema',
  'TitledSingleSelectEnumSchema',
  'UntitledMultiSelectEnumSchema',
  'TitledMultiSelectEnumSchema',
  'LegacyTitledEnumSchema',
  // 2026-07-28 only (skipped for the older revisions, which lack them)
  'DiscoverResult',
  'InputRequiredResult',
  'SubscriptionsListenResult',
  'SubscriptionsAcknowledgedNotification',
  'SubscriptionsAcknowledgedNotificationParams',
  'SubscriptionFilter',
  'HeaderMismatchError',
  'MissingRequiredClientCapabilityError',
  'UnsupportedProtocolVersionError',
  'ParseError',
  'InvalidRequestError',
  'MethodNotFoundError',
  'InvalidParamsError',
  'InternalError',
];

/** Property names whose values are free-form by specification: never closed, never descended into. */
export const FREE_FORM_PROPERTIES: ReadonlySet<string> = new Set([
  'inputSchema',
  'outputSchema',
  '_meta',
  'structuredContent',
  'experimental',
  'logging',
  'completions',
  'data',
  'metadata',
]);

/** The result definition of each client->server method. */
export const RESULT_DEFINITION: Readonly<Record<string, string>> = {
  initialize: 'InitializeResult',
  ping: 'EmptyResult',
  'logging/setLevel': 'EmptyResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'resources/subscribe': 'EmptyResult',
  'resources/unsubscribe': 'EmptyResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'completion/complete': 'CompleteResult',
  // 2026-07-28
  'server/discover': 'DiscoverResult',
  'subscriptions/listen': 'SubscriptionsListenResult',
  // 2025-11-25 experimental tasks (a task-augmented tools/call answers CreateTaskResult, see below)
  'tasks/get': 'GetTaskResult',
  'tasks/result': 'GetTaskPayloadResult',
  'tasks/list': 'ListTasksResult',
  'tasks/cancel': 'CancelTaskResult',
};

/**
 * 2026-07-28: the definition of each notification the server may send, checked in addition to
 * the ServerNotification union (whose errors list every member).
 */
export const NOTIFICATION_DEFINITION: Readonly<Record<string, string>> = {
  'notifications/cancelled': 'CancelledNotification',
  'notifications/progress': 'ProgressNotification',
  'notifications/message': 'LoggingMessageNotification',
  'notifications/resources/updated': 'ResourceUpdatedNotification',
  'notifications/resources/list_changed': 'ResourceListChangedNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/prompts/list_changed': 'PromptListChangedNotification',
  'notifications/subscriptions/acknowledged': 'SubscriptionsAcknowledgedNotification',
};

/**
 * 2026-07-28: the definitions of the error codes it names: a whole error response (`response`)
 * or the `error` object of one (`error`).
 */
export const ERROR_DEFINITION: Readonly<Record<number, { def: string; checks: 'response' | 'error' }>> = {
  [-32700]: { def: 'ParseError', checks: 'error' },
  [-32600]: { def: 'InvalidRequestError', checks: 'error' },
  [-32601]: { def: 'MethodNotFoundError', checks: 'error' },
  [-32602]: { def: 'InvalidParamsError', checks: 'error' },
  [-32603]: { def: 'InternalError', checks: 'error' },
  [-32020]: { def: 'HeaderMismatchError', checks: 'response' },
  [-32021]: { def: 'MissingRequiredClientCapabilityError', checks: 'response' },
  [-32022]: { def: 'UnsupportedProtocolVersionError', checks: 'response' },
};

/** The `resultType` values 2026-07-28 defines (ResultType). */
export const RESULT_TYPES: readonly string[] = ['complete', 'input_required'];

interface Spec {
  schema: JsonObject;
  /** `definitions` (draft-07) or `$defs` (2020-12). */
  defsKey: 'definitions' | '$defs';
}

const rawCache = new Map<SchemaRevision, Spec>();

/** The official schema of a revision, as published. */
export function loadSpec(revision: SchemaRevision): Spec {
  let spec = rawCache.get(revision);
  if (!spec) {
    const file = path.join(SPEC_DIR, revision, 'schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
    const defsKey = schema.$defs ? '$defs' : 'definitions';
    if (!schema[defsKey]) throw new Error(`${file} has neither "definitions" nor "$defs"`);
    spec = { schema, defsKey };
    rawCache.set(revision, spec);
  }
  return spec;
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Closes one subschema in place: `additionalProperties: false` where it declares `properties`
 * and no `additionalProperties`, then the same for inline subschemas of its properties (except
 * free-form ones), `items`, `anyOf` and `oneOf`. `$ref` targets are closed (or not) by name;
 * `allOf` is left alone (closing the parts of an intersection would reject the whole).
 */
function closeInPlace(node: unknown): number {
  if (Array.isArray(node)) return node.reduce<number>((n, item) => n + closeInPlace(item), 0);
  if (!isObject(node)) return 0;
  let closed = 0;
  if (isObject(node.properties)) {
    if (!('additionalProperties' in node)) {
      node.additionalProperties = false;
      closed++;
    }
    for (const [name, sub] of Object.entries(node.properties)) {
      if (!FREE_FORM_PROPERTIES.has(name)) closed += closeInPlace(sub);
    }
  }
  for (const key of ['items', 'anyOf', 'oneOf']) closed += closeInPlace(node[key]);
  return closed;
}

/** A closed EmptyResult: nothing but `_meta` (the official one is the open `Result`). */
const CLOSED_EMPTY_RESULT = {
  type: 'object',
  properties: { _meta: { type: 'object', additionalProperties: {} } },
  additionalProperties: false,
};

/** From 2026-07-28 on, where `Result` requires `resultType`: `_meta` and `resultType`. */
const CLOSED_EMPTY_RESULT_WITH_TYPE = {
  type: 'object',
  properties: { _meta: { type: 'object', additionalProperties: {} }, resultType: { type: 'string' } },
  required: ['resultType'],
  additionalProperties: false,
};

/**
 * Intersections (`allOf` of `$ref`s) the server emits, closed as one object: their parts' own
 * properties and requirements merged, nothing else admitted. (Closing each part would reject the
 * whole: a Task's fields are additional properties to NotificationParams.)
 */
const CLOSED_INTERSECTIONS = ['TaskStatusNotificationParams', 'GetTaskResult', 'CancelTaskResult'];

function closeIntersection(defs: Record<string, JsonObject>, original: Record<string, JsonObject>, name: string): number {
  const parts = defs[name]?.allOf as JsonObject[] | undefined;
  if (!parts) return 0;
  const properties: JsonObject = {};
  const required = new Set<string>();
  for (const part of parts) {
    const target = typeof part.$ref === 'string' ? original[part.$ref.split('/').pop()!] : part;
    Object.assign(properties, structuredClone(target.properties ?? {}));
    for (const key of (target.required as string[] | undefined) ?? []) required.add(key);
  }
  defs[name] = { type: 'object', properties, required: [...required], additionalProperties: false };
  return 1;
}

/**
 * SEP-2133 (Final) negotiates extensions in `initialize` too: `capabilities.extensions`, a map of
 * extension identifiers to settings objects, in ClientCapabilities and ServerCapabilities. Only
 * 2026-07-28's schema writes the field; the handshake revisions' schemas are open, so their
 * closed variants get it (as 2026-07-28 defines it) rather than rejecting what SEP-2133 sends.
 */
const SEP_2133_EXTENSIONS = { type: 'object', additionalProperties: { type: 'object', additionalProperties: {} } };

/** A deep copy of the revision's schema with the emitted definitions closed. */
export function closedSpec(revision: SchemaRevision): Spec & { closedCount: number } {
  const { schema, defsKey } = loadSpec(revision);
  const copy = structuredClone(schema);
  const defs = copy[defsKey] as Record<string, JsonObject>;
  for (const name of ['ServerCapabilities', 'ClientCapabilities']) {
    const properties = defs[name]?.properties as JsonObject | undefined;
    if (properties && !properties.extensions) properties.extensions = structuredClone(SEP_2133_EXTENSIONS);
  }
  let closedCount = 0;
  const original = schema[defsKey] as Record<string, JsonObject>;
  for (const name of CLOSED_DEFINITIONS) {
    if (defs[name]) closedCount += closeInPlace(defs[name]);
  }
  for (const name of CLOSED_INTERSECTIONS) closedCount += closeIntersection(defs, original, name);
  const resultRequires = (defs.Result?.required as string[] | undefined) ?? [];
  defs.EmptyResult = structuredClone(resultRequires.includes('resultType') ? CLOSED_EMPTY_RESULT_WITH_TYPE : CLOSED_EMPTY_RESULT);
  return { schema: copy, defsKey, closedCount };
}

export type Variant = 'open' | 'closed';

interface Compiled {
  ajv: Ajv;
  key: string;
  defsKey: string;
  defs: Record<string, JsonObject>;
  validators: Map<string, ValidateFunction>;
}

const compiled = new Map<string, Compiled>();

function compiledFor(revision: SchemaRevision, variant: Variant): Compiled {
  const cacheKey = `${revision}:${variant}`;
  let entry = compiled.get(cacheKey);
  if (!entry) {
    const { schema, defsKey } = variant === 'closed' ? closedSpec(revision) : loadSpec(revision);
    const options = { strict: false, allErrors: true, validateFormats: false };
    // 2025-11-25 and 2026-07-28 are JSON Schema 2020-12; the older revisions are draft-07.
    const ajv = defsKey === '$defs' ? new Ajv2020(options) : new Ajv(options);
    const key = `mcp-${revision}-${variant}.json`;
    ajv.addSchema(schema, key);
    entry = { ajv, key, defsKey, defs: schema[defsKey] as Record<string, JsonObject>, validators: new Map() };
    compiled.set(cacheKey, entry);
  }
  return entry;
}

/** True when the revision's schema has that definition. */
export function hasDefinition(revision: SchemaRevision, name: string): boolean {
  const { schema, defsKey } = loadSpec(revision);
  return name in (schema[defsKey] as JsonObject);
}

/** The raw (open) definition, for inspection. */
export function definition(revision: SchemaRevision, name: string): JsonObject {
  const { schema, defsKey } = loadSpec(revision);
  const def = (schema[defsKey] as Record<string, JsonObject>)[name];
  if (!def) throw new Error(`${revision} has no definition "${name}"`);
  return def;
}

/** Validates `value` against one definition; returns the ajv errors, or [] when valid. */
export function validateAgainst(revision: SchemaRevision, name: string, value: unknown, variant: Variant = 'closed'): ErrorObject[] {
  const c = compiledFor(revision, variant);
  let validate = c.validators.get(name);
  if (!validate) {
    if (!c.defs[name]) throw new Error(`${revision} has no definition "${name}"`);
    validate = c.ajv.compile({ $ref: `${c.key}#/${c.defsKey}/${name}` });
    c.validators.set(name, validate);
  }
  return validate(value) ? [] : [...(validate.errors ?? [])];
}

/** One message on the wire, in the order it was seen. */
export interface WireEntry {
  seq: number;
  /** ms since the session started */
  at: number;
  direction: 'client->server' | 'server->client';
  message: JsonObject;
}

export interface TrafficFailure {
  seq: number;
  check: string;
  message: JsonObject;
  errors: unknown;
}

export interface TrafficReport {
  /** server->client messages checked */
  checked: number;
  /** how many values were validated against each definition */
  byDefinition: Record<string, number>;
  failures: TrafficFailure[];
}

/** Options of {@link validateServerTraffic}. */
export interface TrafficOptions {
  /**
   * Results of extension methods (no revision defines them), by method: each is checked against
   * the revision's base `Result` and by this function (the extension's own schema), which returns
   * its errors ([] when valid).
   */
  extensionResults?: Readonly<Record<string, (result: unknown) => ErrorObject[]>>;
}

/** Picks the definition names that differ between revisions. */
function envelopeNames(revision: SchemaRevision) {
  const has = (n: string) => hasDefinition(revision, n);
  return {
    result: has('JSONRPCResultResponse') ? 'JSONRPCResultResponse' : 'JSONRPCResponse',
    error: has('JSONRPCErrorResponse') ? 'JSONRPCErrorResponse' : 'JSONRPCError',
    // Before 2025-11-25 the ServerRequest/ServerNotification members are {method, params}
    // without the JSON-RPC envelope; from 2025-11-25 on they include jsonrpc (and id).
    // (2026-07-28 has no ping, and no server->client request at all: ask a notification.)
    membersIncludeEnvelope:
      'jsonrpc' in ((definition(revision, has('PingRequest') ? 'PingRequest' : 'ToolListChangedNotification').properties as JsonObject | undefined) ?? {}),
    // 2026-07-28: no server->client requests (input_required results instead), resultType on
    // every result, a definition per notification and per error code.
    stateless: !has('InitializeResult'),
  };
}

function withoutEnvelope(message: JsonObject): JsonObject {
  const { jsonrpc: _jsonrpc, id: _id, ...rest } = message;
  return rest;
}

/**
 * Validates every server->client message of a recorded session against the CLOSED schema of
 * the revision: responses by the result definition of the method of the request with that id,
 * error responses as JSON-RPC errors, notifications as ServerNotification, requests as
 * ServerRequest (each also inside its closed JSON-RPC envelope).
 *
 * 2026-07-28 (stateless) in addition: a result is checked against the definition its
 * `resultType` names (`input_required`: InputRequiredResult, allowed only for the methods whose
 * `<Result>Response` admits it; `complete`: the method's result), a notification also against
 * its own definition, an error with a code the revision defines against that error's
 * definition, and any server->client request is a failure (the revision has none).
 */
export function validateServerTraffic(revision: SchemaRevision, wire: readonly WireEntry[], options: TrafficOptions = {}): TrafficReport {
  const names = envelopeNames(revision);
  const methodOf = new Map<string, string>();
  const report: TrafficReport = { checked: 0, byDefinition: {}, failures: [] };
  const check = (entry: WireEntry, def: string, value: unknown, label = def) => {
    report.byDefinition[def] = (report.byDefinition[def] ?? 0) + 1;
    const errors = validateAgainst(revision, def, value, 'closed');
    if (errors.length) report.failures.push({ seq: entry.seq, check: label, message: entry.message, errors });
  };
  /** 2026-07-28: the definition named by `resultType`, which the method must admit. */
  const checkStatelessResult = (entry: WireEntry, method: string, def: string) => {
    const result = entry.message.result;
    const resultType = isObject(result) ? result.resultType : undefined;
    if (typeof resultType !== 'string' || !RESULT_TYPES.includes(resultType)) {
      report.failures.push({ seq: entry.seq, check: `${method}: resultType must be one of ${RESULT_TYPES.join(', ')}`, message: entry.message, errors: [] });
    }
    if (resultType !== 'input_required') {
      check(entry, def, result, `${def} (${method})`);
      return;
    }
    // `<Result>Response` (e.g. CallToolResultResponse) says whether the method may answer input_required.
    const response = hasDefinition(revision, `${def}Response`) ? definition(revision, `${def}Response`) : undefined;
    const admitted = JSON.stringify((response?.properties as JsonObject | undefined)?.result ?? {}).includes('/InputRequiredResult"');
    if (!admitted) {
      report.failures.push({ seq: entry.seq, check: `${method} may not answer input_required in ${revision}`, message: entry.message, errors: [] });
    }
    check(entry, 'InputRequiredResult', result, `InputRequiredResult (${method})`);
  };

  for (const entry of wire) {
    const msg = entry.message;
    if (entry.direction === 'client->server') {
      if (typeof msg.method === 'string' && 'id' in msg) methodOf.set(JSON.stringify(msg.id), msg.method);
      continue;
    }
    report.checked++;
    const member = names.membersIncludeEnvelope ? msg : withoutEnvelope(msg);
    if (typeof msg.method === 'string' && 'id' in msg) {
      check(entry, 'JSONRPCRequest', msg);
      if (names.stateless) {
        report.failures.push({
          seq: entry.seq,
          check: `server->client request ${msg.method}: ${revision} has none (input_required instead)`,
          message: msg,
          errors: [],
        });
      } else {
        check(entry, 'ServerRequest', member, `ServerRequest (${msg.method})`);
      }
    } else if (typeof msg.method === 'string') {
      check(entry, 'JSONRPCNotification', msg);
      check(entry, 'ServerNotification', member, `ServerNotification (${msg.method})`);
      const own = names.stateless ? NOTIFICATION_DEFINITION[msg.method] : undefined;
      if (own && hasDefinition(revision, own)) check(entry, own, msg, `${own} (${msg.method})`);
    } else if ('result' in msg) {
      check(entry, names.result, msg);
      const method = methodOf.get(JSON.stringify(msg.id));
      // A task-augmented tools/call (2025-11-25) answers with the task, not the tool's result.
      const augmented = method === 'tools/call' && !names.stateless && isObject(msg.result) && 'task' in msg.result;
      const def = augmented ? 'CreateTaskResult' : method ? RESULT_DEFINITION[method] : undefined;
      const extension = method ? options.extensionResults?.[method] : undefined;
      if (method && extension) {
        // An extension's method: the revision's base Result, then the extension's own schema.
        check(entry, 'Result', msg.result, `Result (${method})`);
        const resultType = isObject(msg.result) ? msg.result.resultType : undefined;
        if (names.stateless && resultType !== 'complete') {
          report.failures.push({ seq: entry.seq, check: `${method}: resultType must be "complete"`, message: msg, errors: [] });
        }
        report.byDefinition[method] = (report.byDefinition[method] ?? 0) + 1;
        const errors = extension(msg.result);
        if (errors.length) report.failures.push({ seq: entry.seq, check: `${method} (extension schema)`, message: msg, errors });
      } else if (!method) {
        report.failures.push({ seq: entry.seq, check: 'response to a request id the client never sent', message: msg, errors: [] });
      } else if (!def || !hasDefinition(revision, def)) {
        report.failures.push({ seq: entry.seq, check: `no ${revision} result definition known for ${method}`, message: msg, errors: [] });
      } else if (names.stateless) {
        checkStatelessResult(entry, method, def);
      } else {
        check(entry, def, msg.result, `${def} (${method})`);
      }
    } else if ('error' in msg) {
      check(entry, names.error, msg);
      const code = isObject(msg.error) ? msg.error.code : undefined;
      const own = names.stateless && typeof code === 'number' ? ERROR_DEFINITION[code] : undefined;
      if (own && hasDefinition(revision, own.def)) {
        check(entry, own.def, own.checks === 'response' ? msg : msg.error, `${own.def} (${String(code)})`);
      }
    } else {
      report.failures.push({ seq: entry.seq, check: 'not a request, notification or response', message: msg, errors: [] });
    }
  }
  return report;
}

/** A readable rendering of failures for assertion messages. */
/**
 * The definitions a full session must have exercised for its schema check to mean something:
 * every result kind, an error, notifications, and server->client requests when the client
 * could be asked any.
 */
export function coreDefinitions(revision: SchemaRevision, withRequests: boolean): string[] {
  if (revision === MODERN_REVISION) {
    // No initialize, no EmptyResult method, no server->client request (`withRequests`: the
    // input_required results that replace them).
    return [
      'DiscoverResult',
      'ListToolsResult',
      'CallToolResult',
      'ListResourcesResult',
      'ListResourceTemplatesResult',
      'ReadResourceResult',
      'ListPromptsResult',
      'GetPromptResult',
      'CompleteResult',
      'JSONRPCErrorResponse',
      'ServerNotification',
      ...(withRequests ? ['InputRequiredResult'] : []),
    ];
  }
  return [
    'InitializeResult',
    'ListToolsResult',
    'CallToolResult',
    'ListResourcesResult',
    'ListResourceTemplatesResult',
    'ReadResourceResult',
    'ListPromptsResult',
    'GetPromptResult',
    'CompleteResult',
    'EmptyResult',
    revision >= '2025-11-25' ? 'JSONRPCErrorResponse' : 'JSONRPCError',
    'ServerNotification',
    ...(withRequests ? ['ServerRequest'] : []),
  ];
}

export function describeFailures(failures: readonly TrafficFailure[]): string[] {
  return failures.map((f) => {
    const errors = Array.isArray(f.errors)
      ? (f.errors as ErrorObject[]).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`).join('\n    ')
      : String(f.errors);
    return `#${f.seq} ${f.check}\n  message: ${JSON.stringify(f.message).slice(0, 1500)}\n  errors:\n    ${errors}`;
  });
}
