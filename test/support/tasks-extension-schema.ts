/**
 * Validation against the JSON Schema of the 2026-07-28 tasks extension
 * (`io.modelcontextprotocol/tasks`, vendored in spec/extensions/tasks, see spec/README.md): the
 * core 2026-07-28 schema has no task messages. The extension's schema is open (like the core
 * one); `TASK_FIELDS` lists what a task message may carry, for the closed checks the tests add.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { SPEC_DIR } from './spec-schemas';

let ajv: Ajv2020 | undefined;
let id = '';
const validators = new Map<string, ValidateFunction>();

/** The errors of `value` against definition `name` of the extension's schema (none: valid). */
export function validateTasksExtension(name: string, value: unknown): ErrorObject[] {
  if (!ajv) {
    const schema = JSON.parse(readFileSync(path.join(SPEC_DIR, 'extensions', 'tasks', 'schema.json'), 'utf8')) as Record<string, unknown>;
    ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema(schema);
    id = schema.$id as string;
  }
  let validate = validators.get(name);
  if (!validate) {
    validate = ajv.getSchema(`${id}#/$defs/${name}`);
    if (!validate) throw new Error(`The tasks extension's schema has no definition ${name}`);
    validators.set(name, validate);
  }
  return validate(value) ? [] : (validate.errors ?? []);
}

/** Every member a task (and a `tasks/get` or `CreateTaskResult` result) may have. */
export const TASK_FIELDS = [
  'taskId',
  'status',
  'statusMessage',
  'createdAt',
  'lastUpdatedAt',
  'ttlMs',
  'pollIntervalMs',
  'inputRequests',
  'result',
  'error',
  'resultType',
  '_meta',
];
