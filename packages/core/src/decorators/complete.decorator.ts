import type { CompleteOptions } from '../metadata/metadata-args.interface.js';
import { getMetadataStorage } from '../metadata/metadata-storage.js';
import { memberDecorator } from './member-decorator.js';

/**
 * Completes one argument of a prompt (`{ prompt, argument }`) or one variable of a resource
 * template (`{ resource: 'notes://{id}', argument: 'id' }`). The method receives the partial
 * value and the other arguments already chosen, and returns suggestions (`string[]`).
 * @publicApi
 */
export function Complete(options: CompleteOptions): MethodDecorator {
  return memberDecorator((target, method, paramTypes) => getMetadataStorage().completes.push({ target, method, paramTypes, options }));
}
