/** The conformance suite's resources, template and prompts. */
import { Complete, embeddedResource, image, McpService, Prompt, Resource, Tool, TypeMcpServer } from '@typemcp/core';
import { EmbeddedResourceArgs, PromptWithArguments, TemplateParams, WatchedUpdateInput } from '../dto/inputs.dto.js';
import { TEST_IMAGE_BASE64 } from '../fixtures.js';

const WATCHED = 'test://watched-resource';

@McpService()
export class ResourcesService {
  private watched = 'Watched resource content';
  private revision = 0;

  constructor(private readonly server: TypeMcpServer) {}

  @Resource('test://static-text', {
    name: 'static-text',
    title: 'Static Text Resource',
    description: 'A static text resource for testing',
    mimeType: 'text/plain',
  })
  staticText() {
    return 'This is the content of the static text resource.';
  }

  @Resource('test://static-binary', {
    name: 'static-binary',
    title: 'Static Binary Resource',
    description: 'A static binary resource (image) for testing',
    mimeType: 'image/png',
  })
  staticBinary() {
    return Buffer.from(TEST_IMAGE_BASE64, 'base64');
  }

  @Resource(WATCHED, {
    name: 'watched-resource',
    title: 'Watched Resource',
    description: 'A resource that changes when test_update_watched_resource is called',
    mimeType: 'text/plain',
  })
  watchedResource() {
    return this.watched;
  }

  @Resource('test://template/{id}/data', {
    name: 'template',
    title: 'Resource Template',
    description: 'A resource template with parameter substitution',
    mimeType: 'application/json',
  })
  template(params: TemplateParams) {
    return JSON.stringify({ id: params.id, templateTest: true, data: `Data for ID: ${params.id}` });
  }

  @Complete({ resource: 'test://template/{id}/data', argument: 'id' })
  templateIds(value: string) {
    return ['123', '456', '789'].filter((id) => id.startsWith(value));
  }

  @Tool({ name: 'test_update_watched_resource', description: 'Changes test://watched-resource and notifies subscribers' })
  update(input: WatchedUpdateInput) {
    this.watched = input.text ?? `Watched resource content (revision ${++this.revision})`;
    this.server.notifyResourceUpdated(WATCHED);
    return 'updated';
  }
}

@McpService()
export class PromptsService {
  @Prompt({ name: 'test_simple_prompt', title: 'Simple Test Prompt', description: 'A simple prompt without arguments' })
  simple() {
    return 'This is a simple prompt for testing.';
  }

  @Prompt({ name: 'test_prompt_with_arguments', title: 'Prompt With Arguments', description: 'A prompt with required arguments' })
  withArguments(args: PromptWithArguments) {
    return `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`;
  }

  @Complete({ prompt: 'test_prompt_with_arguments', argument: 'arg1' })
  arg1(value: string) {
    return ['test', 'testValue1', 'other'].filter((v) => v.startsWith(value));
  }

  @Complete({ prompt: 'test_prompt_with_arguments', argument: 'arg2' })
  arg2(value: string, context: Record<string, string>) {
    return [`${context.arg1 ?? 'x'}-${value}`];
  }

  @Prompt({ name: 'test_prompt_with_embedded_resource', title: 'Prompt With Embedded Resource', description: 'A prompt that includes an embedded resource' })
  embedded(args: EmbeddedResourceArgs) {
    return [
      { role: 'user' as const, content: embeddedResource(args.resourceUri, { text: 'Embedded resource content for testing.' }, 'text/plain') },
      'Please process the embedded resource above.',
    ];
  }

  @Prompt({ name: 'test_prompt_with_image', title: 'Prompt With Image', description: 'A prompt that includes image content' })
  withImage() {
    return [{ role: 'user' as const, content: image(TEST_IMAGE_BASE64, 'image/png') }, 'Please analyze the image above.'];
  }
}
