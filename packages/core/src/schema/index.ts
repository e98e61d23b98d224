/** DTO -> JSON Schema: class-validator-jsonschema plus the fixes MCP clients and Ajv need. */
export { DtoSchemaFactory, type DtoSchema, type DtoSchemaOptions, type UnknownFields } from './dto-schema.factory.js';
