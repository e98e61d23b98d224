/**
 * The code `typemcp add` writes: a DTO, a decorated method, a service file and a test. Each
 * compiles as it is and its test passes; the texts say where the real work goes.
 */
import type { ItemKind, ItemNames } from './names.js';

/** The code for one added item. */
export interface ItemCode {
  /** The DTO class name and its source (a class, without imports). */
  dto: { name: string; source: string };
  /** The decorated method, indented for a class body. */
  method: string;
  /** The decorator name imported from @typemcp/core. */
  decorator: 'Tool' | 'Resource' | 'Prompt';
  /** The validators imported from class-validator. */
  validators: string[];
  /** The `it(...)` blocks of the test, using `client` (a TestClient) and `textOf`. */
  tests: string;
  /** A resource's URI template. */
  uri?: string;
}

/** `name: 'x', ` when the MCP name differs from the method name (the default). */
function nameOption(n: ItemNames): string {
  return n.mcp === n.camel ? '' : `name: '${n.mcp}', `;
}

function toolCode(n: ItemNames): ItemCode {
  const dto = `${n.pascal}Input`;
  return {
    decorator: 'Tool',
    validators: ['IsString', 'MinLength'],
    dto: {
      name: dto,
      source: `/** Input of the \`${n.mcp}\` tool. */
export class ${dto} {
  @IsString() @MinLength(1) @Description('The text to work on')
  text!: string;
}
`,
    },
    method: `  @Tool({ ${nameOption(n)}description: 'Describe what ${n.mcp} does, for the model.' })
  ${n.camel}(input: ${dto}): string {
    return \`${n.mcp} received: \${input.text}\`;
  }
`,
    tests: `  it('${n.mcp} answers with the text it received', async () => {
    expect(textOf(await client.callTool('${n.mcp}', { text: 'hello' }))).toBe('${n.mcp} received: hello');
  });

  it('${n.mcp} refuses empty text with a tool error', async () => {
    const result = await client.callTool('${n.mcp}', { text: '' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('\`text\` must be at least 1 character long');
  });
`,
  };
}

function resourceCode(n: ItemNames, scheme: string): ItemCode {
  const dto = `${n.pascal}Params`;
  const template = `${scheme}://${n.kebab}/{id}`;
  return {
    decorator: 'Resource',
    uri: template,
    validators: ['IsString', 'MinLength'],
    dto: {
      name: dto,
      source: `/** The variables of the \`${template}\` resource template. */
export class ${dto} {
  @IsString() @MinLength(1) @Description('Which ${n.mcp} to read')
  id!: string;
}
`,
    },
    method: `  @Resource('${template}', { name: '${n.mcp}', description: 'Describe what ${n.mcp} holds, for the model.', mimeType: 'text/plain' })
  ${n.camel}(params: ${dto}): string {
    return \`${n.mcp} \${params.id}\`;
  }
`,
    tests: `  it('reads ${template}', async () => {
    expect(textOf(await client.readResource('${scheme}://${n.kebab}/42'))).toBe('${n.mcp} 42');
  });

  it('lists the ${n.mcp} resource template', async () => {
    expect(await client.listResourceTemplates()).toContainEqual(expect.objectContaining({ uriTemplate: '${template}', name: '${n.mcp}' }));
  });
`,
  };
}

function promptCode(n: ItemNames): ItemCode {
  const dto = `${n.pascal}Args`;
  return {
    decorator: 'Prompt',
    validators: ['IsString', 'MinLength'],
    dto: {
      name: dto,
      source: `/** Arguments of the \`${n.mcp}\` prompt (prompt arguments are strings). */
export class ${dto} {
  @IsString() @MinLength(1) @Description('What the prompt is about')
  topic!: string;
}
`,
    },
    method: `  @Prompt({ ${nameOption(n)}description: 'Describe what ${n.mcp} asks the model to do.' })
  ${n.camel}(args: ${dto}): string {
    return \`Write a short note about \${args.topic}.\`;
  }
`,
    tests: `  it('${n.mcp} builds its message from the arguments', async () => {
    expect(textOf(await client.getPrompt('${n.mcp}', { topic: 'tides' }))).toBe('Write a short note about tides.');
  });

  it('${n.mcp} lists its argument as required', async () => {
    expect(await client.listPrompts()).toContainEqual(expect.objectContaining({ name: '${n.mcp}', arguments: [expect.objectContaining({ name: 'topic', required: true })] }));
  });
`,
  };
}

/** The code for a new item of `kind`. `scheme` names resource URIs. */
export function itemCode(kind: ItemKind, names: ItemNames, scheme: string): ItemCode {
  return kind === 'tool' ? toolCode(names) : kind === 'resource' ? resourceCode(names, scheme) : promptCode(names);
}

/** A DTO file holding one class. */
export function dtoFile(code: ItemCode): string {
  return `/** What clients send: the JSON Schema they see and the validation of their input. */
import { Description } from '@typemcp/core';
import { ${code.validators.join(', ')} } from 'class-validator';

${code.dto.source}`;
}

/** A service file holding one method. */
export function serviceFile(service: string, dtoModule: string, code: ItemCode): string {
  return `import { McpService, ${code.decorator} } from '@typemcp/core';
import { ${code.dto.name} } from '${dtoModule}';

/** Describe this service. */
@McpService()
export class ${service} {
${code.method}}
`;
}

/**
 * A test file for one service (imported from `serviceModule`, relative to the test). With
 * `serverModule` (the project's `createAppServer({ services })`, as generated projects have), the
 * server is built as the app builds it, its providers included; otherwise from the service alone.
 */
export function testFile(service: string, serviceModule: string, title: string, code: ItemCode, serverModule?: string): string {
  const server = serverModule ? `{ server: createAppServer({ services: [${service}] }), closeServer: true }` : `{ services: [${service}] }`;
  return `import { createTestClient, textOf, type TestClient } from '@typemcp/testing';
${serverModule ? `import { createAppServer } from '${serverModule}';\n` : ''}import { ${service} } from '${serviceModule}';

describe('${title}', () => {
  let client: TestClient;
  beforeEach(async () => {
    client = await createTestClient(${server});
  });
  afterEach(() => client.close());

${code.tests}});
`;
}
