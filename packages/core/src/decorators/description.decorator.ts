import type { ClassType } from '../metadata/metadata-args.interface.js';
import { getMetadataStorage } from '../metadata/metadata-storage.js';

/**
 * Describes a DTO property: the text becomes the property's `description` in the JSON Schema
 * (tools, prompt arguments, elicitation forms); `title` gives a short display name. Use it next
 * to class-validator decorators.
 * @publicApi
 */
export function Description(description: string, options: { title?: string } = {}): PropertyDecorator {
  return (prototype, property) => {
    getMetadataStorage().descriptions.push({
      target: prototype.constructor as ClassType,
      property: String(property),
      description,
      ...(options.title !== undefined ? { title: options.title } : {}),
    });
  };
}
