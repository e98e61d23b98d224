/**
 * JSON Schemas of a dereferenced OpenAPI document as class-validator DTO classes, written as a
 * person would write them. What class-validator states exactly is stated (types, enums, formats,
 * lengths, bounds, nested objects and arrays of them, `oneOf` of string values); what it cannot
 * is written laxer (a `oneOf` of objects becomes any object, one of mixed types any value): the
 * published schema is then laxer than the document's, never stricter, and the API itself checks
 * the rest.
 */
type Schema = Record<string, unknown>;

/** Deeper objects are taken as plain objects: recursive and deeply nested schemas stay readable. */
const MAX_DEPTH = 5;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

const pascal = (text: string) =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('') || 'Value';

/** A JSON value as TypeScript source, strings in single quotes as the project's code has them. */
export const literal = (value: unknown): string => {
  if (typeof value === 'string') return `'${JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${key(k)}: ${literal(v)}`)
      .join(', ')} }`;
  return JSON.stringify(value) ?? 'undefined';
};

/** A property key as written in a class: bare when it can be, quoted otherwise. */
export const key = (name: string): string => (IDENTIFIER.test(name) ? name : literal(name));

/** One short line of documentation from a schema's description. */
export const oneLine = (text: unknown, max = 300): string | undefined => {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const typesOf = (schema: Schema): string[] => {
  const t = schema.type;
  return Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : schema.properties ? ['object'] : [];
};

/** The DTO classes of one generated file. */
export class DtoWriter {
  private readonly named = new Map<Schema, string>();
  private readonly taken = new Set<string>();
  private readonly classes: string[] = [];
  /** The class-validator decorators used (what the file imports). */
  readonly validators = new Set<string>();
  /** Whether `@Type` (class-transformer) and `@Description` / `@Nullable` (core) are used. */
  readonly uses = { type: false, description: false, nullable: false };

  constructor(private readonly componentNames: ReadonlyMap<Schema, string>) {}

  /** The source of every class written so far, dependencies first. */
  get source(): string {
    return this.classes.join('\n\n');
  }

  /** A free class name close to `wanted`. */
  uniqueName(wanted: string): string {
    let name = pascal(wanted);
    for (let i = 2; this.taken.has(name); i++) name = `${pascal(wanted)}${i}`;
    this.taken.add(name);
    return name;
  }

  /** The class for an object schema (written once per schema), named after its component or `suggested`. */
  classFor(schema: Schema, suggested: string, depth = 0): string {
    const known = this.named.get(schema);
    if (known) return known;
    const name = this.uniqueName(this.componentNames.get(schema) ?? suggested);
    this.named.set(schema, name);
    const { properties, required } = merged(schema);
    const fields = Object.entries(properties).map(([prop, sub]) => this.field(prop, sub, required.has(prop), `${name} ${prop}`, depth + 1));
    const doc = oneLine(schema.description);
    this.classes.push(`${doc ? `/** ${doc.replace(/\*\//g, '* /')} */\n` : ''}export class ${name} {\n${fields.join('\n\n')}\n}`);
    return name;
  }

  /** A class made of named fields (an operation's parameters and body). */
  classOf(name: string, fields: { name: string; schema: Schema; required: boolean; description?: string }[]): void {
    this.taken.add(name);
    const body = fields.map((f) =>
      this.field(f.name, f.description ? { ...f.schema, description: f.description } : f.schema, f.required, `${name} ${f.name}`, 1),
    );
    this.classes.push(`export class ${name} {\n${body.join('\n\n')}\n}`);
  }

  private use(...names: string[]): void {
    for (const n of names) this.validators.add(n);
  }

  /** One property: its decorators and declaration. */
  field(name: string, schema: Schema, required: boolean, context: string, depth: number): string {
    const lines: string[] = [];
    const description = oneLine(schema.description);
    if (description) {
      this.uses.description = true;
      lines.push(`@Description(${literal(description)})`);
    }
    if (!required) {
      this.use('IsOptional');
      lines.push('@IsOptional()');
    }
    const nullable = schema.nullable === true || typesOf(schema).includes('null');
    if (nullable) {
      this.uses.nullable = true;
      lines.push('@Nullable()');
    }
    const { decorators, type } = this.valueOf(schema, context, depth, false);
    if (decorators.length === 0) {
      // Any value: `@Allow()` when it may be absent, `@IsDefined()` when it must be there.
      this.use(required ? 'IsDefined' : 'Allow');
      decorators.push(required ? '@IsDefined()' : '@Allow()');
    }
    lines.push(...decorators);
    const declared = `${key(name)}${required ? '!' : '?'}: ${type}${nullable ? ' | null' : ''};`;
    return [...lines, declared].map((l) => `  ${l}`).join('\n');
  }

  /** The decorators and TypeScript type of a value (`each`: an array's items). */
  private valueOf(schema: Schema, context: string, depth: number, each: boolean): { decorators: string[]; type: string } {
    const opts = each ? ', { each: true }' : '';
    const bare = each ? '{ each: true }' : '';
    const choice = schema.oneOf ?? schema.anyOf;
    if (Array.isArray(choice)) return this.choiceOf(choice as Schema[], context, depth, each);
    const values = Array.isArray(schema.enum) ? (schema.enum as unknown[]).filter((v) => v !== null) : schema.const !== undefined ? [schema.const] : undefined;
    if (values && values.length > 0) {
      this.use('IsIn');
      return { decorators: [`@IsIn(${literal(values)}${opts})`], type: values.map((v) => literal(v)).join(' | ') };
    }
    const types = typesOf(schema).filter((t) => t !== 'null');
    if (types.length !== 1 && !(types.length === 0 && schema.allOf)) return { decorators: [], type: 'unknown' };
    switch (types[0] ?? 'object') {
      case 'string':
        return { decorators: this.stringRules(schema, opts, bare), type: 'string' };
      case 'integer':
      case 'number': {
        const integer = types[0] === 'integer';
        this.use(integer ? 'IsInt' : 'IsNumber');
        const d = [integer ? `@IsInt(${bare})` : `@IsNumber({}${opts})`];
        if (typeof schema.minimum === 'number') d.push(this.rule('Min', schema.minimum, opts));
        if (typeof schema.maximum === 'number') d.push(this.rule('Max', schema.maximum, opts));
        return { decorators: d, type: 'number' };
      }
      case 'boolean':
        this.use('IsBoolean');
        return { decorators: [`@IsBoolean(${bare})`], type: 'boolean' };
      case 'array':
        return each ? { decorators: [], type: 'unknown[]' } : this.arrayOf(schema, context, depth);
      default:
        return this.objectOf(schema, context, depth, each);
    }
  }

  private rule(name: string, value: unknown, opts: string): string {
    this.use(name);
    return `@${name}(${literal(value)}${opts})`;
  }

  private stringRules(schema: Schema, opts: string, bare: string): string[] {
    this.use('IsString');
    const d = [`@IsString(${bare})`];
    switch (schema.format) {
      case 'email':
        this.use('IsEmail');
        d.push(`@IsEmail({}${opts})`);
        break;
      case 'uri':
      case 'url':
        this.use('IsUrl');
        d.push(`@IsUrl({ require_tld: false }${opts})`);
        break;
      case 'uuid':
        this.use('IsUUID');
        d.push(`@IsUUID(undefined${opts})`);
        break;
      case 'date-time':
        this.use('IsISO8601');
        d.push(`@IsISO8601({}${opts})`);
        break;
    }
    if (typeof schema.minLength === 'number') d.push(this.rule('MinLength', schema.minLength, opts));
    if (typeof schema.maxLength === 'number') d.push(this.rule('MaxLength', schema.maxLength, opts));
    if (typeof schema.pattern === 'string' && isPortable(schema.pattern)) {
      this.use('Matches');
      d.push(`@Matches(new RegExp(${literal(schema.pattern)})${opts})`);
    }
    return d;
  }

  private arrayOf(schema: Schema, context: string, depth: number): { decorators: string[]; type: string } {
    this.use('IsArray');
    const d = ['@IsArray()'];
    if (typeof schema.minItems === 'number') d.push(this.rule('ArrayMinSize', schema.minItems, ''));
    if (typeof schema.maxItems === 'number') d.push(this.rule('ArrayMaxSize', schema.maxItems, ''));
    const items = (schema.items ?? {}) as Schema;
    const inner = this.valueOf(items, `${context} item`, depth, true);
    const type = inner.type.includes(' ') ? `(${inner.type})[]` : `${inner.type}[]`;
    return { decorators: [...d, ...inner.decorators], type };
  }

  private objectOf(schema: Schema, context: string, depth: number, each: boolean): { decorators: string[]; type: string } {
    const { properties } = merged(schema);
    if (Object.keys(properties).length === 0 || depth > MAX_DEPTH) {
      this.use('IsObject');
      return { decorators: [`@IsObject(${each ? '{ each: true }' : ''})`], type: 'Record<string, unknown>' };
    }
    const name = this.classFor(schema, context, depth);
    this.use('ValidateNested');
    this.uses.type = true;
    return { decorators: [`@ValidateNested(${each ? '{ each: true }' : ''})`, `@Type(() => ${name})`], type: name };
  }

  /** `oneOf`/`anyOf`: string values as one enum, one scalar type as that type, objects as any object, else any value. */
  private choiceOf(choices: Schema[], context: string, depth: number, each: boolean): { decorators: string[]; type: string } {
    const values = choices.flatMap((c) => (Array.isArray(c.enum) ? (c.enum as unknown[]) : c.const !== undefined ? [c.const] : [undefined]));
    if (values.length > 0 && values.every((v) => typeof v === 'string')) return this.valueOf({ enum: values }, context, depth, each);
    const kinds = new Set(choices.flatMap((c) => typesOf(c).filter((t) => t !== 'null')));
    if (kinds.size === 1) {
      const [only] = kinds;
      if (only === 'object') {
        this.use('IsObject');
        return { decorators: [`@IsObject(${each ? '{ each: true }' : ''})`], type: 'Record<string, unknown>' };
      }
      if (only !== 'array') return this.valueOf({ type: only }, context, depth, each);
    }
    return { decorators: [], type: 'unknown' };
  }
}

/** An object schema's properties and required names, `allOf` branches merged in. */
function merged(schema: Schema): { properties: Record<string, Schema>; required: Set<string> } {
  const properties: Record<string, Schema> = {};
  const required = new Set<string>();
  const add = (s: Schema) => {
    for (const branch of (s.allOf ?? []) as Schema[]) add(branch);
    Object.assign(properties, (s.properties ?? {}) as Record<string, Schema>);
    for (const r of (s.required ?? []) as string[]) required.add(r);
  };
  add(schema);
  for (const r of required) if (!(r in properties)) required.delete(r);
  return { properties, required };
}

/** True when a pattern means the same to JavaScript (with `u`) as to JSON Schema's ECMA-262 dialect. */
function isPortable(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
