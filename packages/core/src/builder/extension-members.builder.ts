/**
 * The `ExtensionData` of one service class, at start-up: checked (an identifier of SEP-2133's
 * form, object data), on the class and on each method that carries some, with the feature the
 * method also is and its invocation plan.
 */
import { EXTENSION_ID } from '@typemcp/protocol/internal';
import { invalidExtensionData } from '../errors/definition-errors.js';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import type { MetadataStorage } from '../metadata/metadata-storage.js';
import type { BuiltExtensionMember, BuiltPrompt, BuiltResource, BuiltTool, ExtensionDataMap, Invocation } from './service-definition.interface.js';

/** The checked `ExtensionData` of one method (or of the class, without `method`): each record as written, then merged. */
export function extensionDataOf(storage: MetadataStorage, target: ClassType, method?: string): ExtensionDataMap | undefined {
  for (const { id, data, method: on } of storage.membersOf(storage.extensionData, target)) {
    if (on !== method) continue;
    if (!EXTENSION_ID.test(id)) {
      throw invalidExtensionData(target, method, id, 'the identifier must be "{vendor-prefix}/{extension-name}" (SEP-2133), e.g. "com.example/my-extension"');
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw invalidExtensionData(target, method, id, 'the data must be an object');
  }
  return storage.extensionDataOf(target, method);
}

/** Every method of `target` that carries `ExtensionData`, with the feature it also is. */
export function extensionMembers(
  storage: MetadataStorage,
  target: ClassType,
  features: { tools: BuiltTool[]; resources: BuiltResource[]; prompts: BuiltPrompt[] },
  plan: (method: string, paramTypes: unknown[]) => Invocation,
): BuiltExtensionMember[] {
  const members: BuiltExtensionMember[] = [];
  for (const [method, paramTypes] of storage.extensionMethodsOf(target)) {
    const tool = features.tools.find((t) => t.invocation.method === method);
    const resource = tool ? undefined : features.resources.find((r) => r.invocation.method === method);
    const prompt = tool || resource ? undefined : features.prompts.find((p) => p.invocation.method === method);
    let feature: BuiltExtensionMember['feature'];
    if (tool) feature = { kind: 'tool', name: tool.definition.name };
    else if (resource) feature = { kind: 'resource', name: 'uri' in resource.definition ? resource.definition.uri : resource.definition.uriTemplate };
    else if (prompt) feature = { kind: 'prompt', name: prompt.definition.name };
    const built = tool ?? resource ?? prompt;
    const data = built ? built.extensions! : extensionDataOf(storage, target, method)!;
    members.push({ method, data, invocation: built?.invocation ?? plan(method, paramTypes), ...(feature ? { feature } : {}) });
  }
  return members;
}
