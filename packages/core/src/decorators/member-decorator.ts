import type { ClassType } from '../metadata/metadata-args.interface.js';

/** Records a member decorator: `record` receives the class, method name and `design:paramtypes`. */
export function memberDecorator(record: (target: ClassType, method: string, paramTypes: unknown[]) => void): MethodDecorator {
  return (prototype, method) => {
    const paramTypes = (Reflect.getMetadata?.('design:paramtypes', prototype, method) as unknown[] | undefined) ?? [];
    record(prototype.constructor as ClassType, String(method), paramTypes);
  };
}
