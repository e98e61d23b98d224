/**
 * Binds built definitions to the engine's registry: each handler converts and validates its
 * input, calls the method on the instance the container gave, and normalises the result.
 * Returns a function that unbinds everything it registered.
 */
import {
  ErrorCode,
  McpError,
  ToolError,
  type CallToolResult,
  type Completers,
  type Completion,
  type FeatureRegistry,
  type JsonObject,
  type RequestContext,
  type ResourceTemplateDefinition,
  type ResourceDefinition,
} from '@typemcp/protocol';
import { isThenable } from '@typemcp/protocol/internal';
import { isBlock, toCallToolResult, toGetPromptResult, toReadResourceResult, toStructuredResult } from '../content/result-normaliser.js';
import { Context } from '../context/context.js';
import type { DtoResult, DtoValidator } from '../pipeline/dto-validator.js';
import { article, describe } from '../pipeline/problems.js';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import type { Invocation, ServiceDefinition } from './service-definition.interface.js';
import { InterceptorChain, type InterceptedFeature } from '../interceptors/interceptor-chain.js';
import type { Interceptor } from '../interceptors/interceptor.interface.js';

type Method = (...args: unknown[]) => unknown;

/** Completion handlers by target (`prompt:<name>` or `resource:<template>`), shared across services. */
export type CompletionTable = Map<string, Completers>;

/** `prompt:<name>` or `resource:<template>`. */
export const completionKey = (kind: 'prompt' | 'resource', name: string) => `${kind}:${name}`;

function completersFor(table: CompletionTable, key: string): Completers {
  let completers = table.get(key);
  if (!completers) table.set(key, (completers = {}));
  return completers;
}

/** Calls `plan.method` with the input and Context placed where the method declared them. */
export function caller(instance: object, plan: Invocation, validator: DtoValidator) {
  const method = (instance as Record<string, Method>)[plan.method].bind(instance);
  const { input, contextIndexes, arity } = plan;
  if (arity === 0) return () => method();
  // The usual shape, `method(input)`: no argument list to build.
  if (arity === 1 && input?.index === 0 && contextIndexes.length === 0) return (dto: unknown) => method(dto);
  return (dto: unknown, rc: RequestContext): unknown => {
    const args = new Array<unknown>(arity);
    if (input) args[input.index] = dto;
    if (contextIndexes.length) {
      const ctx = new Context(rc, validator);
      for (const i of contextIndexes) args[i] = ctx;
    }
    return method(...args);
  };
}

/** The interceptors of one method, global ones first (empty for most). */
export type InterceptorsOf = (method: string) => readonly Interceptor[];

/**
 * `call` wrapped by the method's interceptors, composed now; `call` itself when it has none, so
 * that path is the same as without interceptors.
 */
function intercepted(
  call: (dto: unknown, rc: RequestContext, uri?: string) => unknown,
  interceptors: readonly Interceptor[],
  feature: InterceptedFeature,
  validator: DtoValidator,
) {
  return interceptors.length === 0 ? call : InterceptorChain.compose(interceptors, call, feature, validator);
}

/** Outside tools a ToolError has no result to live in: it becomes a -32602 carrying its message. */
async function visible(run: () => unknown): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ToolError) throw new McpError(ErrorCode.InvalidParams, error.message);
    throw error;
  }
}

/** Where a server fault is reported (the engine's `onError`): never sent to the client. */
export type FaultReporter = (error: Error, where: string) => void;

/** A full `CallToolResult` rather than data or a content block. */
const isFullResult = (value: unknown): value is CallToolResult =>
  value !== null && typeof value === 'object' && Array.isArray((value as CallToolResult).content) && !isBlock(value);

/** Why `value` cannot be an output DTO's object, before any schema is consulted; undefined when it is an object. */
function shapeProblem(value: unknown, output: ClassType): string | undefined {
  const wanted = `the result must be ${article(output.name)} object`;
  if (isBlock(value)) return `${wanted} (got ${article(value.type)} content block)`;
  if (value === undefined) return `${wanted} (got undefined)`;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `${wanted} (got ${describe(value)})`;
  return undefined;
}

/**
 * Results of a tool with an output DTO. A tool with an `outputSchema` must answer every success
 * with `structuredContent` that matches it (clients such as the SDKs reject anything else), so the
 * value is serialised and checked against the published schema before it leaves (fields the DTO
 * does not declare are dropped when the schema is closed). A full `CallToolResult` keeps its own
 * content and has its `structuredContent` checked; an error result may come without one. Anything
 * else (text, content, nothing, an object that does not match) is the server's fault: reported
 * as such, and the caller gets a tool error saying what is wrong.
 */
function checkedOutput(output: ClassType, origin: string, validator: DtoValidator, report: FaultReporter) {
  const fault = (problems: string[], hint: boolean): CallToolResult => {
    const text = problems.join('; ');
    const fix = hint ? `; return ${article(output.name)}, or throw a ToolError for a message the model should read` : '';
    report(new Error(`${origin} returned output that does not match its outputSchema (${output.name}): ${text}${fix}`), origin);
    return { content: [{ type: 'text', text: `The tool's result does not match its output schema: ${text}` }], isError: true };
  };
  const checked = (value: unknown, finish: (json: JsonObject) => CallToolResult): CallToolResult | Promise<CallToolResult> => {
    const result = validator.output(output, value);
    const settle = (r: DtoResult<JsonObject>) => (r.ok ? finish(r.value) : fault(r.problems, false));
    return isThenable(result) ? result.then(settle) : settle(result);
  };
  return (value: unknown): CallToolResult | Promise<CallToolResult> => {
    if (isFullResult(value)) {
      if (value.structuredContent !== undefined) return checked(value.structuredContent, (json) => ({ ...value, structuredContent: json }));
      return value.isError === true ? value : fault([`the result has no structuredContent (it must hold ${article(output.name)} object)`], true);
    }
    const problem = shapeProblem(value, output);
    return problem === undefined ? checked(value, toStructuredResult) : fault([problem], true);
  };
}

/** Registers every feature of one service instance; returns the undo. */
export function bindService(
  def: ServiceDefinition,
  instance: object,
  registry: FeatureRegistry,
  completions: CompletionTable,
  validator: DtoValidator,
  report: FaultReporter,
  interceptorsOf: InterceptorsOf = () => [],
): () => void {
  const undo: (() => void)[] = [];
  const feature = (kind: InterceptedFeature['kind'], name: string, method: string): InterceptedFeature => ({ kind, name, service: def.target, method });

  for (const tool of def.tools) {
    const { method } = tool.invocation;
    const call = intercepted(caller(instance, tool.invocation, validator), interceptorsOf(method), feature('tool', tool.definition.name, method), validator);
    const input = tool.invocation.input?.raw ? undefined : tool.invocation.input?.type;
    const { output } = tool;
    const finish = output ? checkedOutput(output, tool.invocation.origin, validator, report) : toCallToolResult;
    const run = (dto: unknown, rc: RequestContext): CallToolResult | Promise<CallToolResult> => {
      const out = call(dto, rc);
      return isThenable(out) ? Promise.resolve(out).then(finish) : finish(out);
    };
    const checked = (result: DtoResult<unknown>, rc: RequestContext) => {
      if (!result.ok) throw new ToolError(`Invalid arguments: ${result.problems.join('; ')}`);
      return run(result.value, rc);
    };
    // Synchronous all the way when the method and validation are: no promise per call.
    registry.addTool(
      tool.definition,
      (args, rc) => {
        if (!input) return run(args, rc);
        const result = validator.input(input, args);
        return isThenable(result) ? result.then((r) => checked(r, rc)) : checked(result, rc);
      },
      { guard: tool.guard, scopes: tool.scopes, task: tool.task, extensions: tool.extensions },
    );
    undo.push(() => registry.removeTool(tool.definition.name));
  }

  for (const resource of def.resources) {
    const { method } = resource.invocation;
    const call = intercepted(
      caller(instance, resource.invocation, validator),
      interceptorsOf(method),
      feature('resource', resource.definition.name, method),
      validator,
    );
    const { mimeType } = resource.definition;
    if (resource.template) {
      const definition = resource.definition as ResourceTemplateDefinition;
      const params = resource.invocation.input?.type;
      registry.addResourceTemplate(
        definition,
        async (uri, variables, rc) => {
          let dto: unknown = variables;
          if (params) {
            const checked = await validator.input(params, variables, true);
            if (!checked.ok) throw new McpError(ErrorCode.InvalidParams, `Invalid resource URI ${uri}: ${checked.problems.join('; ')}`);
            dto = checked.value;
          }
          return toReadResourceResult(await visible(() => call(dto, rc, uri)), uri, mimeType);
        },
        {
          complete: completersFor(completions, completionKey('resource', definition.uriTemplate)),
          cache: resource.cache,
          scopes: resource.scopes,
          extensions: resource.extensions,
        },
      );
      undo.push(() => registry.removeResource(definition.uriTemplate));
    } else {
      const definition = resource.definition as ResourceDefinition;
      registry.addResource(definition, async (uri, rc) => toReadResourceResult(await visible(() => call(undefined, rc, uri)), uri, mimeType), {
        cache: resource.cache,
        scopes: resource.scopes,
        extensions: resource.extensions,
      });
      undo.push(() => registry.removeResource(definition.uri));
    }
  }

  for (const prompt of def.prompts) {
    const input = prompt.invocation.input?.type;
    const { name, description } = prompt.definition;
    const { method } = prompt.invocation;
    const call = intercepted(caller(instance, prompt.invocation, validator), interceptorsOf(method), feature('prompt', name, method), validator);
    registry.addPrompt(
      prompt.definition,
      async (args, rc) => {
        let dto: unknown;
        if (input) {
          const checked = await validator.input(input, args, true);
          if (!checked.ok) throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for prompt "${name}": ${checked.problems.join('; ')}`);
          dto = checked.value;
        }
        return toGetPromptResult(await visible(() => call(dto, rc)), description);
      },
      { complete: completersFor(completions, completionKey('prompt', name)), scopes: prompt.scopes, extensions: prompt.extensions },
    );
    undo.push(() => registry.removePrompt(name));
  }

  for (const completion of def.completions) {
    const method = (instance as Record<string, Method>)[completion.invocation.method].bind(instance);
    const { options } = completion;
    const key = 'prompt' in options ? completionKey('prompt', options.prompt) : completionKey('resource', options.resource);
    const completers = completersFor(completions, key);
    completers[options.argument] = (value, context, rc) =>
      method(value, context, new Context(rc, validator)) as Completion | string[] | Promise<Completion | string[]>;
    undo.push(() => delete completers[options.argument]);
  }

  return () => undo.forEach((u) => u());
}
