/**
 * @typemcp/apps on a server of decorated classes, through the testing kit's in-memory client
 * (the engine's real session) at 2025-11-25 and 2026-07-28: what a host sees and what a client
 * without views gets (renderApp), the fallback, the view's one item, and the checks that refuse
 * a bad declaration at start-up.
 */
import { McpService, Resource, Tool, createServer, getMetadataStorage } from '@typemcp/core';
import { APPS_HOST_EXTENSIONS, createTestClient, renderApp, type TestClient } from '@typemcp/testing';
import { IsOptional, IsInt } from 'class-validator';
import { App, AppOnly, AppView, AppsErrorCode, appsExtension, APP_MIME_TYPE, UI_EXTENSION } from '@typemcp/apps';

class StepInput {
  @IsOptional() @IsInt() by?: number;
}

const PAGE = '<!DOCTYPE html><html><head></head><body><p id="n"></p><script type="module">/* view */</script></body></html>';

function defineServices() {
  @McpService()
  class Steps {
    private n = 0;

    @Tool({ description: 'Shows the steps' })
    @App({ resourceUri: 'ui://steps/view', fallback: (s) => `Steps: ${String(s?.n)}` })
    show() {
      // No text block: the fallback supplies it.
      return { content: [], structuredContent: { n: this.n } };
    }

    @Tool({ description: 'Adds steps' })
    @AppOnly({ resourceUri: 'ui://steps/view' })
    step(input: StepInput) {
      this.n += input.by ?? 1;
      return { content: [{ type: 'text' as const, text: `Steps: ${this.n}` }], structuredContent: { n: this.n } };
    }

    @Tool({ description: 'A tool for the model only' })
    @App({ resourceUri: 'ui://steps/view', visibility: ['model'] })
    modelOnly() {
      return 'model only';
    }

    @Resource('ui://steps/view', { name: 'steps-view', mimeType: 'text/html' })
    @AppView({
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com'] },
      permissions: { clipboardWrite: true, camera: false },
      prefersBorder: false,
      domain: 'steps.example.com',
    })
    view() {
      return PAGE;
    }

    @Resource('ui://steps/broken', { name: 'broken-view' })
    @AppView()
    broken() {
      return [
        { uri: 'ui://steps/broken', text: 'a' },
        { uri: 'ui://steps/broken', text: 'b' },
      ];
    }
  }
  return Steps;
}

const ERAS = ['2025-11-25', '2026-07-28'] as const;

describe.each(ERAS)('apps at %s', (revision) => {
  let host: TestClient;
  let plain: TestClient;
  let reported: unknown[];
  beforeEach(async () => {
    reported = [];
    const onError = (error: unknown) => void reported.push(error);
    const server = createServer({ name: 'steps', version: '1.0.0', services: [defineServices()], extensions: [appsExtension()], onError });
    host = await createTestClient({ server, revision, clientExtensions: { ...APPS_HOST_EXTENSIONS } });
    plain = await createTestClient({ server, revision });
  });
  afterEach(async () => {
    await host.close();
    await plain.close();
  });

  it('a host sees the view, the app-only tool and the CSP; the fallback text is added where a result has none', async () => {
    expect(host.serverCapabilities.extensions?.[UI_EXTENSION]).toEqual({ mimeTypes: [APP_MIME_TYPE] });
    const shown = await renderApp(host, 'show');
    expect(shown.problems).toEqual([]);
    expect(shown).toMatchObject({
      resourceUri: 'ui://steps/view',
      visibility: ['model', 'app'],
      modelVisible: true,
      fallbackText: 'Steps: 0',
      structuredContent: { n: 0 },
    });
    expect(shown.tool?._meta).toEqual({ ui: { resourceUri: 'ui://steps/view', visibility: ['model', 'app'] }, 'ui/resourceUri': 'ui://steps/view' });
    expect(shown.view).toEqual({
      uri: 'ui://steps/view',
      mimeType: APP_MIME_TYPE,
      html: PAGE,
      meta: {
        csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com'] },
        permissions: { clipboardWrite: {} },
        prefersBorder: false,
        domain: 'steps.example.com',
      },
    });
    expect((await host.listResources()).find((r) => r.uri === 'ui://steps/view')?.mimeType).toBe(APP_MIME_TYPE);

    // The view's calls, through the host: the app-only tool answers, the model-only one is refused by the host.
    expect((await shown.callAsApp('step', { by: 3 })).structuredContent).toEqual({ n: 3 });
    await expect(shown.callAsApp('modelOnly')).rejects.toThrow('visibility leaves out "app"');
    const step = await renderApp(host, 'step', { by: 1 });
    expect(step).toMatchObject({ visibility: ['app'], modelVisible: false, fallbackText: 'Steps: 4' });
  });

  it('a client without views: the same tools but the app-only one, every call answered, the same text', async () => {
    const names = (await plain.listTools()).map((t) => t.name);
    expect(names).toEqual(['show', 'modelOnly']);
    const shown = await renderApp(plain, 'show');
    expect(shown.fallbackText).toBe('Steps: 0');
    // Not listed to it, the app-only tool still answers (the server cannot tell who calls).
    expect((await plain.callTool('step', {})).structuredContent).toEqual({ n: 1 });
  });

  it('a view that answers two items fails the read (masked), as a host could not render it', async () => {
    await expect(host.readResource('ui://steps/broken')).rejects.toMatchObject({ code: -32603, message: expect.not.stringContaining('content items') });
    expect(reported).toEqual([expect.objectContaining({ code: AppsErrorCode.ViewContents, message: expect.stringContaining('answered 2 content items') })]);
  });
});

describe('declarations refused at start-up', () => {
  const build = (define: () => unknown) => () => createServer({ name: 'x', version: '1', services: [define() as never], extensions: [appsExtension()] });
  const code = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return { code: (error as { code?: string }).code, message: (error as Error).message };
    }
    return undefined;
  };

  it.each([
    ['a tool view outside ui://', () => App('https://example.com/view'), 'must be a ui:// URI'],
    ['an unknown visibility', () => App({ resourceUri: 'ui://a/b', visibility: ['agent' as never] }), 'visibility must list'],
    ['an empty visibility', () => App({ resourceUri: 'ui://a/b', visibility: [] }), 'visibility must list'],
    [
      'a CSP source that splices a directive',
      () => AppView({ csp: { connectDomains: ["https://a.example.com; script-src 'unsafe-eval'"] } }),
      'is not an origin',
    ],
    ['a CSP keyword', () => AppView({ csp: { resourceDomains: ["'unsafe-inline'"] } }), 'is not an origin'],
    ['an unknown CSP key', () => AppView({ csp: { scriptDomains: [] } as never }), 'unknown csp key'],
    ['an unknown permission', () => AppView({ permissions: { usb: true } as never }), 'unknown permission'],
    ['an unknown option', () => AppView({ border: true } as never), 'unknown option'],
  ])('%s', (_what, decorator, message) => {
    expect(code(decorator as () => unknown)).toEqual({ code: AppsErrorCode.InvalidApp, message: expect.stringContaining(message) });
  });

  it('@AppView on a resource outside ui://, @App on a method that is not a tool', () => {
    const notUi = () => {
      @McpService()
      class A {
        @Resource('test://a', { name: 'a' })
        @AppView()
        a() {
          return 'x';
        }
      }
      return A;
    };
    expect(code(build(notUi))).toEqual({ code: AppsErrorCode.InvalidApp, message: expect.stringContaining('static @Resource with a ui:// URI') });
    const notTool = () => {
      @McpService()
      class B {
        @App('ui://b/view')
        helper() {
          return 'x';
        }
      }
      return B;
    };
    expect(code(build(notTool))).toEqual({ code: AppsErrorCode.InvalidApp, message: expect.stringContaining('must also be a @Tool') });
  });

  it('a server without appsExtension() refuses the data', () => {
    @McpService()
    class C {
      @Tool({ description: 'c' })
      @App('ui://c/view')
      c() {
        return 'c';
      }
    }
    expect(code(() => createServer({ name: 'x', version: '1', services: [C] }))?.message).toContain(UI_EXTENSION);
  });
});

afterAll(() => void getMetadataStorage());
