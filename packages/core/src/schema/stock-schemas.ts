/**
 * class-validator-jsonschema's own output ("stock" schemas) for DTO classes, with our converters.
 *
 * One `validationMetadatasToSchemas` pass over every class-validator record, taken lazily and
 * reused for every DTO (the pass is the expensive part). That pass keys schemas by class name and
 * merges same-named classes, which is routine here: tests declare fresh DTO classes per test and
 * class-validator's storage cannot be reset, and two services may each have an `Input`. A class
 * whose name is not unique in the pass (or that was decorated after it) is converted on its own
 * with `targetConstructorToSchema`, which only looks at that class and its ancestors.
 */
import { getMetadataStorage as getValidatorStorage } from 'class-validator';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import { classTransformerStorage } from './class-transformer-storage.js';
import { buildConverters, type ConversionRecorder } from './schema-converters.js';
import { DEFS_PREFIX, type DtoRefs } from './schema-refs.js';
import type { Schema } from './schema-walk.js';

const ancestry = (dto: ClassType): ClassType[] => {
  const chain: ClassType[] = [];
  for (let c: unknown = dto; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) chain.push(c as ClassType);
  return chain;
};

/** Stock schemas by class, plus what the converters reported while producing them. */
export class StockSchemas {
  private pass?: { schemas: Record<string, Schema>; converted: Set<ClassType>; names: Map<string, number> };
  private readonly untyped: { target: ClassType; property: string }[] = [];

  constructor(private readonly refs: DtoRefs) {}

  /** The stock schema of `dto` (or of its nearest ancestor with validation metadata); `{}` for none. */
  of(dto: ClassType): Schema {
    const pass = (this.pass ??= this.runPass());
    if (pass.converted.has(dto) && pass.names.get(dto.name) === 1) return pass.schemas[dto.name] ?? {};
    return targetConstructorToSchema(
      dto,
      this.options(() => undefined),
    ) as Schema;
  }

  /** A `@ValidateNested()` property of `dto` (or a base class) that has no `@Type()`. */
  untypedPropertyOf(dto: ClassType): string | undefined {
    this.pass ??= this.runPass();
    const chain = ancestry(dto);
    return this.untyped.find((u) => chain.includes(u.target))?.property;
  }

  private runPass(): NonNullable<StockSchemas['pass']> {
    const converted = new Set<ClassType>();
    const schemas = validationMetadatasToSchemas(this.options((target) => converted.add(target))) as Record<string, Schema>;
    const names = new Map<string, number>();
    for (const target of converted) names.set(target.name, (names.get(target.name) ?? 0) + 1);
    return { schemas, converted, names };
  }

  private options(seen: ConversionRecorder['seen']) {
    const recorder: ConversionRecorder = {
      seen,
      refOf: (target) => this.refs.idOf(target),
      untyped: (target, property) => this.untyped.push({ target, property }),
    };
    return {
      classValidatorMetadataStorage: getValidatorStorage(),
      classTransformerMetadataStorage: classTransformerStorage as never,
      refPointerPrefix: DEFS_PREFIX,
      additionalConverters: buildConverters(recorder, DEFS_PREFIX),
    };
  }
}
