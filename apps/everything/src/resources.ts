/** Resources, templates and prompts of the everything server (conformance fixture names). */
import type { ProtocolServer } from '@typemcp/protocol';
import { argsChecker } from './args.js';
import { TEST_IMAGE_BASE64 } from './fixtures.js';

const updateArgs = argsChecker<{ text?: string }>({ text: 'string?' });

/** Registers the resources and the resource template. */
export function registerResources(server: ProtocolServer): void {
  const { registry } = server;
  let watched = 'Watched resource content';
  let revision = 0;

  registry.addResource(
    {
      uri: 'test://static-text',
      name: 'static-text',
      title: 'Static Text Resource',
      description: 'A static text resource for testing',
      mimeType: 'text/plain',
    },
    (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] }),
  );

  registry.addResource(
    {
      uri: 'test://static-binary',
      name: 'static-binary',
      title: 'Static Binary Resource',
      description: 'A static binary resource (image) for testing',
      mimeType: 'image/png',
    },
    (uri) => ({ contents: [{ uri, mimeType: 'image/png', blob: TEST_IMAGE_BASE64 }] }),
  );

  registry.addResource(
    {
      uri: 'test://watched-resource',
      name: 'watched-resource',
      title: 'Watched Resource',
      description: 'A resource that changes when test_update_watched_resource is called',
      mimeType: 'text/plain',
    },
    (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: watched }] }),
  );

  registry.addResourceTemplate(
    {
      uriTemplate: 'test://template/{id}/data',
      name: 'template',
      title: 'Resource Template',
      description: 'A resource template with parameter substitution',
      mimeType: 'application/json',
    },
    (uri, variables) => {
      const id = String(variables.id);
      return {
        contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
      };
    },
    { id: (value) => ['123', '456', '789'].filter((id) => id.startsWith(value)) },
  );

  registry.addTool(
    {
      name: 'test_update_watched_resource',
      description: 'Changes test://watched-resource and notifies subscribers',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    },
    (args) => {
      const { text } = updateArgs(args);
      watched = text ?? `Watched resource content (revision ${++revision})`;
      server.notifyResourceUpdated('test://watched-resource');
      return { content: [{ type: 'text', text: 'updated' }] };
    },
  );
}

/** Registers the prompts. */
export function registerPrompts(server: ProtocolServer): void {
  const { registry } = server;

  registry.addPrompt(
    { name: 'test_simple_prompt', title: 'Simple Test Prompt', description: 'A simple prompt without arguments' },
    () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] }),
  );

  registry.addPrompt(
    {
      name: 'test_prompt_with_arguments',
      title: 'Prompt With Arguments',
      description: 'A prompt with required arguments',
      arguments: [
        { name: 'arg1', title: 'First argument', description: 'First test argument', required: true },
        { name: 'arg2', title: 'Second argument', description: 'Second test argument', required: true },
      ],
    },
    ({ arg1, arg2 }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }],
    }),
    {
      arg1: (value) => ['test', 'testValue1', 'other'].filter((v) => v.startsWith(value)),
      arg2: (value, context) => [`${context.arg1 ?? 'x'}-${value}`],
    },
  );

  registry.addPrompt(
    {
      name: 'test_prompt_with_embedded_resource',
      title: 'Prompt With Embedded Resource',
      description: 'A prompt that includes an embedded resource',
      arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    },
    ({ resourceUri }) => ({
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );

  registry.addPrompt(
    { name: 'test_prompt_with_image', title: 'Prompt With Image', description: 'A prompt that includes image content' },
    () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
  );
}
