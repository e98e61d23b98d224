import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { DtoSchemaFactory } from '../../src/schema/index.js';
import { expectAgreement } from './agreement.helper.js';

class Address {
  @IsString() street!: string;
  @IsString() city!: string;
}

class Item {
  @IsString() sku!: string;
  @IsInt() @Min(1) qty!: number;
}

class Unrelated {
  @IsString() never!: string;
}

class Order {
  @ValidateNested() @Type(() => Address) address!: Address;
  @ValidateNested({ each: true }) @Type(() => Item) @ArrayMinSize(1) @ArrayMaxSize(3) items!: Item[];
  @IsString({ each: true }) @IsArray() tags!: string[];
  @IsInt({ each: true }) @IsArray() scores!: number[];
  @IsArray() anything!: unknown[];
}

const addressSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { street: { type: 'string' }, city: { type: 'string' } },
  required: ['street', 'city'],
};
const itemSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
  required: ['sku', 'qty'],
};
const address = { street: '1 Main St', city: 'Springfield' };
const order = { address, items: [{ sku: 'a', qty: 1 }], tags: ['x'], scores: [1, 2], anything: [1, 'two', null] };

describe('nested DTOs and arrays', () => {
  const schema = new DtoSchemaFactory().forClass(Order);

  it('refers to nested DTOs through $defs and carries only the reachable ones', () => {
    expect(Unrelated).toBeDefined();
    expect(schema.properties).toEqual({
      address: { $ref: '#/$defs/Address' },
      items: { type: 'array', items: { $ref: '#/$defs/Item' }, minItems: 1, maxItems: 3 },
      tags: { type: 'array', items: { type: 'string' } },
      scores: { type: 'array', items: { type: 'integer' } },
      anything: { type: 'array', items: {} },
    });
    expect(schema.required).toEqual(['address', 'items', 'tags', 'scores', 'anything']);
    expect(schema.$defs).toEqual({ Address: addressSchema, Item: itemSchema });
    expect(schema).not.toHaveProperty('$schema');
  });

  it('agrees with class-validator', async () => {
    await expectAgreement(Order, schema, [
      ['valid', order, true],
      ['extra unknown property (refused by default)', { ...order, extra: 1 }, false],
      ['extra unknown property in a nested DTO', { ...order, address: { ...address, zip: '1' } }, false],
      // Closed gaps: class-validator alone took each of these; the schema refuses them, so the server does.
      ['missing required nested DTO', { ...order, address: undefined }, false],
      ['an array where one nested object is declared', { ...order, address: [address] }, false],
      ['nested wrong type', { ...order, address: { street: 1, city: 'x' } }, false],
      ['nested missing field', { ...order, address: { street: 'x' } }, false],
      ['nested not an object', { ...order, address: 'here' }, false],
      ['nested null', { ...order, address: null }, false],
      ['array item invalid', { ...order, items: [{ sku: 'a', qty: 0 }] }, false],
      ['array item wrong shape', { ...order, items: ['a'] }, false],
      ['array too short', { ...order, items: [] }, false],
      ['array too long', { ...order, items: Array(4).fill({ sku: 'a', qty: 1 }) }, false],
      ['primitive array item wrong', { ...order, tags: ['x', 2] }, false],
      ['integer array item fractional', { ...order, scores: [1.5] }, false],
      ['array given an object', { ...order, anything: { a: 1 } }, false],
      ['missing required array', { ...order, tags: undefined }, false],
    ]);
  });
});

describe('each without @IsArray', () => {
  class Labels {
    @IsString({ each: true }) labels!: string[];
  }
  const schema = new DtoSchemaFactory().forClass(Labels);

  it('is still an array schema', async () => {
    expect(schema.properties).toEqual({ labels: { type: 'array', items: { type: 'string' } } });
    await expectAgreement(Labels, schema, [
      ['array of strings', { labels: ['a'] }, true],
      ['array with a number', { labels: ['a', 1] }, false],
      // Closed gap: class-validator checks a bare value itself under `each`; the schema wants an array.
      ['a single string', { labels: 'a' }, false],
    ]);
  });
});

describe('@ValidateNested() without each on an array property', () => {
  class Line {
    @IsString() text!: string;
  }
  class Doc {
    @IsArray() @ValidateNested() @Type(() => Line) lines!: Line[];
  }

  it('is an array of the DTO (class-validator validates each element anyway)', async () => {
    const schema = new DtoSchemaFactory().forClass(Doc);
    expect(schema.properties).toEqual({ lines: { type: 'array', items: { $ref: '#/$defs/Line' } } });
    await expectAgreement(Doc, schema, [
      ['valid', { lines: [{ text: 'a' }] }, true],
      ['invalid element', { lines: [{ text: 1 }] }, false],
      ['not an array', { lines: { text: 'a' } }, false],
    ]);
  });
});

describe('transitive definitions', () => {
  class Leaf {
    @IsString() name!: string;
  }
  class Branch {
    @ValidateNested() @Type(() => Leaf) leaf!: Leaf;
  }
  class Root {
    @ValidateNested() @Type(() => Branch) branch!: Branch;
    @IsOptional() @ValidateNested() @Type(() => Branch) other?: Branch;
  }

  it('collects definitions reached through other definitions, once each', async () => {
    const schema = new DtoSchemaFactory().forClass(Root);
    expect(Object.keys(schema.$defs as object)).toEqual(['Branch', 'Leaf']);
    expect(schema.$defs).toEqual({
      Branch: { type: 'object', additionalProperties: false, properties: { leaf: { $ref: '#/$defs/Leaf' } }, required: ['leaf'] },
      Leaf: { type: 'object', additionalProperties: false, properties: { name: { type: 'string' } }, required: ['name'] },
    });
    await expectAgreement(Root, schema, [
      ['valid', { branch: { leaf: { name: 'a' } } }, true],
      ['deep invalid', { branch: { leaf: { name: 1 } } }, false],
      ['optional nested absent', { branch: { leaf: { name: 'a' } } }, true],
      ['optional nested null (optional is not nullable)', { branch: { leaf: { name: 'a' } }, other: null }, false],
      ['optional nested invalid', { branch: { leaf: { name: 'a' } }, other: { leaf: {} } }, false],
    ]);
  });
});

describe('recursive DTOs', () => {
  class Tree {
    @IsString() label!: string;
    @IsOptional() @ValidateNested({ each: true }) @Type(() => Tree) children?: Tree[];
  }
  const treeSchema = {
    type: 'object',
    additionalProperties: false,
    properties: {
      label: { type: 'string' },
      children: { type: 'array', items: { $ref: '#/$defs/Tree' } },
    },
    required: ['label'],
  };

  it.each([false, true])('keeps $defs for the recursion (inlineRefs: %s)', async (inline) => {
    const schema = new DtoSchemaFactory({ inlineRefs: inline }).forClass(Tree);
    expect(schema).toEqual({ ...treeSchema, $defs: { Tree: treeSchema } });
    await expectAgreement(Tree, schema, [
      ['leaf', { label: 'a' }, true],
      ['deep', { label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] }, true],
      ['deep invalid', { label: 'a', children: [{ label: 'b', children: [{ label: 3 }] }] }, false],
      ['children null', { label: 'a', children: null }, false],
      ['children not an array of objects', { label: 'a', children: ['b'] }, false],
    ]);
  });
});

describe('inlineRefs', () => {
  class Money {
    @IsInt() cents!: number;
  }
  class Node {
    @IsOptional() @ValidateNested() @Type(() => Node) next?: Node;
  }
  class Invoice {
    @ValidateNested() @Type(() => Money) total!: Money;
    @ValidateNested({ each: true }) @Type(() => Money) @IsArray() lines!: Money[];
    @IsOptional() @ValidateNested() @Type(() => Node) chain?: Node;
  }

  it('inlines non-recursive DTOs and keeps only the recursive ones in $defs', async () => {
    const schema = new DtoSchemaFactory({ inlineRefs: true }).forClass(Invoice);
    const money = { type: 'object', additionalProperties: false, properties: { cents: { type: 'integer' } }, required: ['cents'] };
    expect(schema.properties).toEqual({
      total: money,
      lines: { type: 'array', items: money },
      chain: { $ref: '#/$defs/Node' },
    });
    expect(Object.keys(schema.$defs as object)).toEqual(['Node']);
    await expectAgreement(Invoice, schema, [
      ['valid', { total: { cents: 1 }, lines: [{ cents: 2 }], chain: { next: { next: {} } } }, true],
      ['null where a nested DTO is optional', { total: { cents: 1 }, lines: [], chain: { next: null } }, false],
      ['inlined invalid', { total: { cents: 'x' }, lines: [] }, false],
      ['inlined array invalid', { total: { cents: 1 }, lines: [{}] }, false],
    ]);
  });

  it('emits no $defs at all for a DTO without recursion', () => {
    class Flat {
      @ValidateNested() @Type(() => Money) price!: Money;
    }
    const text = JSON.stringify(new DtoSchemaFactory({ inlineRefs: true }).forClass(Flat));
    expect(text).not.toContain('$defs');
    expect(text).not.toContain('$ref');
  });
});
