/**
 * The operations of a document the generator serves as tools: selected by tag, path or
 * operation, each planned (tool and method names, parameters, body, output) or set aside with the
 * reason it cannot be mapped. Nothing is dropped silently.
 */
import type { OpenApiDocument } from './load-document.js';

type Schema = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** One parameter of an operation (path, query or header). */
export interface PlannedParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  readonly schema: Schema;
  readonly description?: string;
}

/** An operation the generator maps to a tool. */
export interface PlannedOperation {
  readonly method: string;
  readonly path: string;
  readonly operationId?: string;
  readonly tool: string;
  readonly member: string;
  readonly summary?: string;
  readonly description?: string;
  readonly parameters: readonly PlannedParameter[];
  readonly body?: { readonly schema: Schema; readonly required: boolean; readonly form: boolean };
  /** The success response's JSON schema, when it has one. */
  readonly response?: Schema;
}

/** An operation left out, and why. */
export interface UnmappedOperation {
  readonly method: string;
  readonly path: string;
  readonly operationId?: string;
  readonly reason: string;
}

/** What `--tag`, `--path` and `--operation` select (any one matching selects; none given selects all). */
export interface OperationFilter {
  readonly tags?: readonly string[];
  readonly paths?: readonly string[];
  readonly operations?: readonly string[];
}

const snake = (text: string) =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
const camel = (text: string) => snake(text).replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

function selected(filter: OperationFilter, op: { tags?: string[]; operationId?: string }, path: string): boolean {
  const { tags, paths, operations } = filter;
  if (!tags?.length && !paths?.length && !operations?.length) return true;
  return Boolean(
    (tags?.length && op.tags?.some((t) => tags.includes(t))) ||
    (paths?.length && paths.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`))) ||
    (operations?.length && op.operationId && operations.includes(op.operationId)),
  );
}

const jsonMedia = (content: Record<string, { schema?: Schema }> | undefined) =>
  content ? Object.entries(content).find(([type]) => /^application\/([\w.+-]+\+)?json\b/.test(type))?.[1] : undefined;

/** The JSON schema of the first 2xx response (or the default one), if any. */
function responseSchema(responses: Record<string, { content?: Record<string, { schema?: Schema }> }> | undefined): Schema | undefined {
  const codes = Object.keys(responses ?? {}).sort();
  const ok = codes.find((c) => /^2\d\d$|^2XX$/i.test(c));
  return ok ? jsonMedia(responses![ok]!.content)?.schema : undefined;
}

/** Plans the operations `filter` selects. */
export function planOperations(doc: OpenApiDocument, filter: OperationFilter): { planned: PlannedOperation[]; unmapped: UnmappedOperation[] } {
  const planned: PlannedOperation[] = [];
  const unmapped: UnmappedOperation[] = [];
  const tools = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const shared = ((item as { parameters?: unknown[] }).parameters ?? []) as Record<string, unknown>[];
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op || !selected(filter, op as never, path)) continue;
      const operationId = typeof op.operationId === 'string' ? op.operationId : undefined;
      const skip = (reason: string) => unmapped.push({ method: method.toUpperCase(), path, operationId, reason });
      const tool = snake(operationId ?? `${method}_${path}`).slice(0, 64);
      if (!tool) {
        skip('no operationId, and its path gives no usable name');
        continue;
      }
      if (tools.has(tool)) {
        skip(`its tool name "${tool}" is taken by another operation`);
        continue;
      }
      const byKey = new Map<string, Record<string, unknown>>();
      for (const p of [...shared, ...((op.parameters ?? []) as Record<string, unknown>[])]) byKey.set(`${String(p.in)}:${String(p.name)}`, p);
      const parameters: PlannedParameter[] = [];
      let problem: string | undefined;
      for (const p of byKey.values()) {
        if (p.in === 'cookie') problem = `cookie parameter "${String(p.name)}" (cookies are not sent by the generated client)`;
        else if (!p.schema) problem = `parameter "${String(p.name)}" has no schema (content-encoded parameters are not supported)`;
        else
          parameters.push({
            name: String(p.name),
            in: p.in as PlannedParameter['in'],
            required: p.required === true || p.in === 'path',
            schema: p.schema as Schema,
            description: p.description as string | undefined,
          });
      }
      let body: PlannedOperation['body'];
      const requestBody = op.requestBody as { content?: Record<string, { schema?: Schema }>; required?: boolean } | undefined;
      if (requestBody?.content) {
        const json = jsonMedia(requestBody.content);
        const form = requestBody.content['application/x-www-form-urlencoded'];
        if (json?.schema) body = { schema: json.schema, required: requestBody.required === true, form: false };
        else if (form?.schema) body = { schema: form.schema, required: requestBody.required === true, form: true };
        else problem = `its request body is ${Object.keys(requestBody.content).join(', ')} only (JSON and form bodies are supported)`;
      }
      const names = parameters.map((p) => p.name);
      if (body && names.includes('body')) problem = 'a parameter named "body" besides its request body';
      if (new Set(names).size !== names.length)
        problem = `two parameters share the name "${names.find((n, i) => names.indexOf(n) !== i)}" (in different places)`;
      if (problem) {
        skip(problem);
        continue;
      }
      tools.add(tool);
      planned.push({
        method: method.toUpperCase(),
        path,
        operationId,
        tool,
        member: camel(tool),
        summary: op.summary as string | undefined,
        description: op.description as string | undefined,
        parameters,
        body,
        response: responseSchema(op.responses as never),
      });
    }
  }
  return { planned, unmapped };
}
