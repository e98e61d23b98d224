/**
 * The registry's two ways of being called: a registration object (`{ cache, scopes, extensions,
 * listed }`), or the earlier positional arguments (cache hint, scopes; completers, cache,
 * scopes), told apart by their keys so existing callers keep working.
 */
import type { CacheHint } from '../server/request-context.js';
import type { Completers, FeatureExtensionData, PromptRegistration, ResourceRegistration, TemplateRegistration } from './handler.types.js';

/** Data as stored: absent when there is none, so a plain feature costs nothing. */
export const extensionData = (data?: FeatureExtensionData): FeatureExtensionData | undefined =>
  data && Object.keys(data).length ? Object.freeze({ ...data }) : undefined;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A registration object: only its own keys, none of them a function (unlike completers). */
function isRegistration(value: unknown, keys: ReadonlySet<string>): boolean {
  if (!isObject(value)) return false;
  const entries = Object.entries(value);
  return entries.length > 0 && entries.every(([k, v]) => keys.has(k) && typeof v !== 'function');
}

const RESOURCE_KEYS = new Set(['cache', 'scopes', 'extensions', 'listed']);
const TEMPLATE_KEYS = new Set([...RESOURCE_KEYS, 'complete']);
const PROMPT_KEYS = new Set(['complete', 'scopes', 'extensions']);

/** `addResource`'s third and fourth arguments as one registration. */
export function resourceRegistration(third: ResourceRegistration | Partial<CacheHint> | undefined, scopes?: readonly string[]): ResourceRegistration {
  if (scopes === undefined && isRegistration(third, RESOURCE_KEYS)) return third as ResourceRegistration;
  return { cache: third as Partial<CacheHint> | undefined, scopes };
}

/** `addResourceTemplate`'s arguments after the reader as one registration. */
export function templateRegistration(
  third: TemplateRegistration | Completers | undefined,
  cache?: Partial<CacheHint>,
  scopes?: readonly string[],
): TemplateRegistration {
  if (cache === undefined && scopes === undefined && isRegistration(third, TEMPLATE_KEYS)) return third as TemplateRegistration;
  return { complete: third as Completers | undefined, cache, scopes };
}

/** `addPrompt`'s arguments after the handler as one registration. */
export function promptRegistration(third: PromptRegistration | Completers | undefined, scopes?: readonly string[]): PromptRegistration {
  if (scopes === undefined && isRegistration(third, PROMPT_KEYS)) return third as PromptRegistration;
  return { complete: third as Completers | undefined, scopes };
}
