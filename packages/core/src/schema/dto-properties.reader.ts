/**
 * What class-validator itself does with each DTO property when the value is absent or null,
 * read from its metadata (not from the generated schema), plus defaults and descriptions.
 */
import 'reflect-metadata';
import type { ClassType, DescriptionMetadataArgs } from '../metadata/metadata-args.interface.js';
import { getMetadataStorage } from '../metadata/metadata-storage.js';
import { isNullableCondition } from '../decorators/nullable.decorator.js';
import { validatorNames } from '../pipeline/validation-libraries.js';
import { undecoratedProperty } from './schema.errors.js';

import type { ValidationMeta } from './validator-metadata.js';

export { validationMetadataOf, type ValidationMeta } from './validator-metadata.js';

/** How one property behaves under `validate()`. */
export interface PropertyFacts {
  /** Absent input is refused. */
  required: boolean;
  /** `null` is a value the DTO admits (`@Nullable()`). */
  nullable: boolean;
  /**
   * A `@ValidateIf(fn)` decides whether any validator runs: when `fn` is false every value
   * passes, which no schema can say, so the property's schema is left open.
   */
  conditional: boolean;
  description?: string;
  title?: string;
  /** The property initialiser's value, as JSON; the key is absent when there is none. */
  default?: unknown;
}

function initialValues(dto: ClassType): Map<string, unknown> {
  let instance: object;
  try {
    instance = new dto() as object;
  } catch {
    return new Map(); // a constructor that needs arguments: no defaults to show
  }
  return new Map(Object.entries(instance ?? {}).filter(([, value]) => typeof value !== 'function'));
}

function asJson(value: unknown): { value: unknown } | undefined {
  if (value === undefined || value instanceof Date) return undefined; // a Date default is "now", not a constant
  try {
    return { value: JSON.parse(JSON.stringify(value)) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * Facts for every validated property of `dto`. Throws `TYPEMCP_ERR_UNDECORATED_PROPERTY` for a
 * property we can see (a `@Description`, or an own field of `new dto()`) that class-validator
 * cannot. A property with neither, and no decorator, emits no metadata and (with
 * `useDefineForClassFields: false`) no field either: it cannot be detected at run time.
 */
export function readDtoProperties(dto: ClassType, metas: ValidationMeta[]): Map<string, PropertyFacts> {
  const { IS_EMPTY, IS_OPTIONAL, ValidationTypes } = validatorNames();
  // Validators that refuse `undefined` when they run; `@Allow()` and `@IsEmpty()` accept it.
  const { CONDITIONAL_VALIDATION, CUSTOM_VALIDATION, NESTED_VALIDATION, IS_DEFINED } = ValidationTypes;
  // class-validator's `groupByPropertyName`, without a callback per record.
  const byProperty: Record<string, ValidationMeta[]> = {};
  for (let i = 0; i < metas.length; i++) {
    const m = metas[i];
    if (!byProperty[m.propertyName]) byProperty[m.propertyName] = [];
    byProperty[m.propertyName].push(m);
  }
  const initial = initialValues(dto);
  for (const property of initial.keys()) {
    if (!byProperty[property]) throw undecoratedProperty(dto, property, initial.get(property) === undefined ? 'a class field' : 'an initial value');
  }
  // The nearest `@Description` per property, from one lookup for the class.
  const storage = getMetadataStorage();
  const described = new Map<string, DescriptionMetadataArgs>();
  const records = storage.membersOf(storage.descriptions, dto);
  for (let r = 0; r < records.length; r++) {
    const record = records[r];
    if (!byProperty[record.property]) throw undecoratedProperty(dto, record.property, 'a @Description');
    if (!described.has(record.property)) described.set(record.property, record);
  }
  const facts = new Map<string, PropertyFacts>();
  const properties = Object.keys(byProperty);
  for (let p = 0; p < properties.length; p++) {
    const property = properties[p];
    const list = byProperty[property];
    let nullable = false;
    let optional = false;
    let conditional = false;
    let checked = false;
    for (let i = 0; i < list.length; i++) {
      const m = list[i];
      if (m.type === CONDITIONAL_VALIDATION) {
        const isNull = isNullableCondition(m.constraints?.[0]);
        if (isNull) nullable = true;
        if (m.name === IS_OPTIONAL) optional = true;
        else if (!isNull) conditional = true;
      }
      // A per-validator `validateIf` (class-validator 0.15) may skip that validator for a missing value.
      if ((m.type === CUSTOM_VALIDATION || m.type === NESTED_VALIDATION || m.type === IS_DEFINED) && m.name !== IS_EMPTY && !m.validateIf) checked = true;
    }
    const initialValue = initial.size === 0 ? undefined : asJson(initial.get(property));
    const description = described.get(property);
    const fact: PropertyFacts = {
      required: !optional && !conditional && !initialValue && checked,
      nullable,
      conditional,
      description: description?.description,
      title: description?.title,
    };
    if (initialValue) fact.default = initialValue.value;
    facts.set(property, fact);
  }
  return facts;
}
