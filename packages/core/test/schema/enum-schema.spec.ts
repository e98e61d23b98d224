import 'reflect-metadata';
import { IsEnum, IsIn, IsOptional } from 'class-validator';
import { DtoSchemaFactory } from '../../src/schema/index.js';
import { expectAgreement } from './agreement.helper.js';

enum Color {
  Red = 'red',
  Blue = 'blue',
}
enum Level {
  Low,
  High,
}
enum Mixed {
  Auto = 'auto',
  Fixed = 7,
}
const Sizes = { S: 's', M: 'm' } as const;

class Styled {
  @IsEnum(Color) color!: Color;
  @IsEnum(Level) level!: Level;
  @IsEnum(Mixed) mixed!: Mixed;
  @IsEnum(Sizes) size!: string;
  @IsIn(['asc', 'desc']) order!: string;
  @IsIn([1, 2, 3]) rating!: number;
  @IsIn([0.5, 1]) ratio!: number;
  @IsIn(['x', 1, true]) anyOf!: unknown;
  @IsOptional() @IsEnum(Level) maybe?: Level;
}

const valid = { color: 'red', level: 1, mixed: 7, size: 'm', order: 'asc', rating: 2, ratio: 0.5, anyOf: true };

describe('enums and @IsIn', () => {
  const schema = new DtoSchemaFactory().forClass(Styled);

  it('lists values only, with the type they share', () => {
    expect(schema.properties).toEqual({
      color: { type: 'string', enum: ['red', 'blue'] },
      level: { type: 'integer', enum: [0, 1] },
      mixed: { enum: ['auto', 7] },
      size: { type: 'string', enum: ['s', 'm'] },
      order: { type: 'string', enum: ['asc', 'desc'] },
      rating: { type: 'integer', enum: [1, 2, 3] },
      ratio: { type: 'number', enum: [0.5, 1] },
      anyOf: { enum: ['x', 1, true] },
      maybe: { type: 'integer', enum: [0, 1] },
    });
    expect(schema.required).toEqual(['color', 'level', 'mixed', 'size', 'order', 'rating', 'ratio', 'anyOf']);
  });

  it('agrees with class-validator', async () => {
    await expectAgreement(Styled, schema, [
      ['valid', valid, true],
      ['numeric enum low', { ...valid, level: 0 }, true],
      ['numeric enum out of range', { ...valid, level: 2 }, false],
      ['numeric enum as a numeric string', { ...valid, level: '1' }, false],
      ['string enum member name instead of value', { ...valid, color: 'Red' }, false],
      ['string enum wrong case', { ...valid, color: 'RED' }, false],
      ['mixed enum string value', { ...valid, mixed: 'auto' }, true],
      ['mixed enum reverse-mapping key', { ...valid, mixed: '7' }, false],
      ['const object value', { ...valid, size: 'x' }, false],
      ['IsIn string not listed', { ...valid, order: 'up' }, false],
      ['IsIn number as string', { ...valid, rating: '2' }, false],
      ['IsIn number not listed', { ...valid, rating: 4 }, false],
      ['IsIn mixed kinds', { ...valid, anyOf: 'x' }, true],
      ['IsIn mixed kinds, wrong kind', { ...valid, anyOf: 'true' }, false],
      ['optional enum null', { ...valid, maybe: null }, false],
      ['optional enum absent', { ...valid }, true],
      // Closed gap: isEnum() also takes the names of a numeric enum (`Object.values(Level)` is ['Low', 'High', 0, 1]).
      ['numeric enum member name', { ...valid, level: 'High' }, false],
      ['mixed enum member name', { ...valid, mixed: 'Fixed' }, false],
      ['optional enum value', { ...valid, maybe: 0 }, true],
      ['optional enum wrong', { ...valid, maybe: 5 }, false],
      ['missing enum', { ...valid, color: undefined }, false],
    ]);
  });
});
