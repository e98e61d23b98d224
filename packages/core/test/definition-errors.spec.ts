import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { IsOptional, IsString } from 'class-validator';
import { Inject, Service } from 'typedi';
import { Complete, Context, createServer, getMetadataStorage, Injectable, McpService, Prompt, Resource, Tool } from '@typemcp/core';

beforeEach(() => getMetadataStorage().reset());

const build = (services?: (new (...a: never[]) => unknown)[]) => () => createServer({ name: 't', version: '1', services: services as never });

describe('definition-time errors', () => {
  it('refuses a class that is not an @McpService', () => {
    class Plain {}
    expect(build([Plain])).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_NOT_A_SERVICE', message: expect.stringContaining('Plain') }));
  });

  it('refuses a tool or prompt without a description', () => {
    @McpService()
    class S {
      @Tool({} as never)
      t() {
        return '';
      }
    }
    expect(build([S])).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_MISSING_DESCRIPTION', message: expect.stringContaining('S.t') }));
    getMetadataStorage().reset();
    @McpService()
    class P {
      @Prompt({} as never)
      p() {
        return '';
      }
    }
    expect(build([P])).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_MISSING_DESCRIPTION' }));
  });

  it('refuses duplicate names across services, naming both', () => {
    @McpService()
    class A {
      @Tool({ description: 'd' })
      search() {
        return '';
      }
    }
    @McpService()
    class B {
      @Tool({ description: 'd', name: 'search' })
      find() {
        return '';
      }
    }
    expect(build([A, B])).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_DUPLICATE_TOOL', message: expect.stringMatching(/A\.search.*B\.find/) }));
  });

  it('refuses parameters whose type reflection cannot see', () => {
    interface Input {
      q: string;
    }
    @McpService()
    class S {
      @Tool({ description: 'd' })
      t(input: Input, ctx: Context) {
        return `${input.q}${ctx.revision}`;
      }
    }
    expect(build([S])).toThrow(
      expect.objectContaining({ code: 'TYPEMCP_ERR_UNREFLECTABLE_PARAMETER', message: expect.stringContaining('Parameter 1 of S.t') }),
    );
  });

  it('refuses a primitive or union parameter', () => {
    @McpService()
    class S {
      @Tool({ description: 'd' })
      t(q: string | number) {
        return String(q);
      }
    }
    expect(build([S])).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_UNREFLECTABLE_PARAMETER' }));
  });

  it('explains an unregistered constructor dependency', () => {
    class Repo {}
    @McpService()
    class S {
      constructor(readonly repo: Repo) {}
      @Tool({ description: 'd' })
      t() {
        return '';
      }
    }
    expect(build([S])).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_UNRESOLVED_DEPENDENCY', message: expect.stringContaining('@Injectable()') }));
  });

  it('injects across services and injectables', () => {
    @Injectable()
    class Clock {
      now = () => 'noon';
    }
    @Injectable()
    class Greeter {
      constructor(readonly clock: Clock) {}
    }
    @McpService()
    class S {
      constructor(readonly greeter: Greeter) {}
      @Tool({ description: 'd' })
      t() {
        return this.greeter.clock.now();
      }
    }
    expect(build([S])).not.toThrow();
  });

  it('refuses @Complete for an unknown prompt argument', () => {
    class Args {
      @IsString() topic!: string;
    }
    @McpService()
    class S {
      @Prompt({ description: 'd' })
      p(args: Args) {
        return args.topic;
      }
      @Complete({ prompt: 'p', argument: 'subject' })
      c() {
        return [];
      }
    }
    expect(build([S])).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_UNKNOWN_COMPLETION_TARGET', message: expect.stringContaining('S.c') }));
  });
});

describe('definition-time errors: dependencies', () => {
  it('refuses a constructor dependency typed as an interface, naming the class, the parameter and the fix', () => {
    interface Repo {
      find(): string;
    }
    @McpService()
    class Bookmarks {
      constructor(readonly repo: Repo) {}
      @Tool({ description: 'd' })
      t() {
        return this.repo.find();
      }
    }
    expect(build([Bookmarks])).toThrow(
      expect.objectContaining({
        code: 'TYPEMCP_ERR_UNTYPED_DEPENDENCY',
        message: expect.stringMatching(/Bookmarks.*parameter 1 \(repo\).*@Injectable\(\).*providers/),
      }),
    );
  });

  it('refuses an interface-typed dependency of an injectable, naming the injectable', () => {
    interface Clock {
      now(): number;
    }
    @Injectable()
    class Store {
      constructor(
        readonly name: string,
        readonly clock: Clock,
      ) {}
    }
    @McpService()
    class S {
      constructor(readonly store: Store) {}
      @Tool({ description: 'd' })
      t() {
        return this.store.name;
      }
    }
    expect(build([S])).toThrow(
      expect.objectContaining({ code: 'TYPEMCP_ERR_UNTYPED_DEPENDENCY', message: expect.stringMatching(/^Store\.constructor parameter 1 \(name\)/) }),
    );
  });

  it('accepts untyped parameters that have a default, and ones typedi fills through @Inject', () => {
    interface Repo {
      find(): string;
    }
    @McpService()
    class S {
      constructor(
        @Inject('repo') readonly repo: Repo,
        readonly prefix: string = '>',
      ) {}
      @Tool({ description: 'd' })
      t() {
        return this.prefix + this.repo.find();
      }
    }
    const server = createServer({ name: 't', version: '1', services: [S], providers: [{ provide: 'repo', useValue: { find: () => 'found' } }] });
    expect(server.get(S).t()).toBe('>found');
  });

  it('leads an unregistered dependency error with the fix, without typedi advice', () => {
    class Repo {}
    @McpService()
    class S {
      constructor(readonly repo: Repo) {}
      @Tool({ description: 'd' })
      t() {
        return '';
      }
    }
    let error: { code?: string; message: string } = { message: '' };
    try {
      build([S])();
    } catch (e) {
      error = e as typeof error;
    }
    expect(error.code).toBe('TYPEMCP_ERR_UNRESOLVED_DEPENDENCY');
    expect(error.message).toMatch(/^Add @Injectable\(\) to class Repo, or provide it/);
    expect(error.message).toContain('S.constructor parameter 1 (repo)');
    expect(error.message).not.toMatch(/Container\.set|@Service\(\)/);
  });
  it("rewrites typedi's own not-found error the same way", () => {
    class Missing {}
    @Service()
    class Legacy {
      constructor(readonly missing: Missing) {}
    }
    @McpService()
    class S {
      constructor(readonly legacy: Legacy) {}
      @Tool({ description: 'd' })
      t() {
        return '';
      }
    }
    expect(build([S])).toThrow(
      expect.objectContaining({
        code: 'TYPEMCP_ERR_UNRESOLVED_DEPENDENCY',
        message: expect.stringMatching(/^Add @Injectable\(\) to class Missing, or provide it/),
      }),
    );
  });
});

describe('definition-time errors: resource templates', () => {
  it('refuses a template variable that no params DTO property receives', () => {
    class BookmarkParams {
      @IsString() id!: string;
    }
    @McpService()
    class S {
      @Resource('bookmarks://{bookmarkId}')
      read(params: BookmarkParams) {
        return params.id;
      }
    }
    expect(build([S])).toThrow(
      expect.objectContaining({
        code: 'TYPEMCP_ERR_TEMPLATE_VARIABLE_NOT_IN_DTO',
        message: expect.stringMatching(/"bookmarkId".*S\.read.*BookmarkParams.*\bid\b/),
      }),
    );
  });

  it('refuses a required params DTO property that no template variable provides', () => {
    class Params {
      @IsString() id!: string;
      @IsString() owner!: string;
      @IsOptional() @IsString() note?: string;
    }
    @McpService()
    class S {
      @Resource('bookmarks://{id}')
      read(params: Params) {
        return params.id;
      }
    }
    expect(build([S])).toThrow(
      expect.objectContaining({ code: 'TYPEMCP_ERR_DTO_PROPERTY_NOT_IN_TEMPLATE', message: expect.stringMatching(/Params\.owner.*\{id\}/) }),
    );
  });

  it('accepts optional properties a template may leave out, and query variables', () => {
    class Params {
      @IsString() id!: string;
      @IsOptional() @IsString() page?: string;
      @IsOptional() @IsString() note?: string;
    }
    @McpService()
    class S {
      @Resource('bookmarks://{id}{?page}')
      read(params: Params) {
        return params.id;
      }
    }
    expect(build([S])).not.toThrow();
  });
});

describe('definition-time errors: names', () => {
  const toolNamed = (name: string) => {
    getMetadataStorage().reset();
    @McpService()
    class S {
      @Tool({ description: 'd', name })
      t() {
        return '';
      }
    }
    return build([S]);
  };

  it.each([
    ['a space', 'get weather'],
    ['nothing', ''],
    ['129 characters', 'a'.repeat(129)],
    ['a slash', 'user/profile'],
    ['a non-ASCII letter', 'café'],
  ])('refuses a tool name with %s, saying the rule', (_what, name) => {
    expect(toolNamed(name)).toThrow(
      expect.objectContaining({ code: 'TYPEMCP_ERR_INVALID_NAME', message: expect.stringContaining('1 to 128 characters of A-Z a-z 0-9 _ - .') }),
    );
  });

  it('accepts the longest and most varied tool name the rule allows', () => {
    expect(toolNamed(`admin.tools_list-${'x'.repeat(111)}`)).not.toThrow();
  });

  it('applies the same rule to prompt names', () => {
    @McpService()
    class S {
      @Prompt({ description: 'd', name: 'review note' })
      p() {
        return '';
      }
    }
    expect(build([S])).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_INVALID_NAME', message: expect.stringContaining('S.p') }));
  });

  it('refuses an empty resource name', () => {
    @McpService()
    class S {
      @Resource('notes://index', { name: '' })
      r() {
        return '';
      }
    }
    expect(build([S])).toThrow(expect.objectContaining({ code: 'TYPEMCP_ERR_INVALID_NAME', message: expect.stringContaining('non-empty') }));
  });

  it("refuses a task option other than 'optional' or 'required', naming the method", () => {
    @McpService()
    class S {
      @Tool({ description: 'd', task: 'always' as 'optional' })
      t() {
        return '';
      }
    }
    expect(build([S])).toThrow(
      expect.objectContaining({ code: 'TYPEMCP_ERR_INVALID_TASK_SUPPORT', message: expect.stringContaining('S.t has task: "always"') }),
    );
  });
});

describe('definition-time errors: inputs', () => {
  it('refuses two input DTOs on one method, naming both parameters', () => {
    class A {
      @IsString() a!: string;
    }
    class B {
      @IsString() b!: string;
    }
    @McpService()
    class S {
      @Tool({ description: 'd' })
      t(a: A, ctx: Context, b: B) {
        return a.a + b.b + ctx.revision;
      }
    }
    expect(build([S])).toThrow(
      expect.objectContaining({
        code: 'TYPEMCP_ERR_MULTIPLE_INPUTS',
        message: expect.stringMatching(/S\.t takes two input DTOs: parameter 1 \(A\) and parameter 3 \(B\).*one input DTO per method/),
      }),
    );
  });
});

describe('architecture', () => {
  function sources(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sources(path);
      return path.endsWith('.ts') ? [path] : [];
    });
  }
  const root = join(__dirname, '../..');

  it('imports typedi from exactly one file', () => {
    const importers = sources(root).filter((f) => /from 'typedi'|require\('typedi'\)/.test(readFileSync(f, 'utf8')) && f.includes('/src/'));
    expect(importers.map((f) => f.slice(root.length))).toEqual(['/core/src/di/typedi.container.ts']);
  });

  it("imports class-transformer's internal storage from exactly one file", () => {
    // An import or a require (the bundler's comments may name the module).
    const importers = sources(root).filter(
      (f) => f.includes('/src/') && /from 'class-transformer\/cjs\/storage'|require\('class-transformer\/cjs\/storage'\)/.test(readFileSync(f, 'utf8')),
    );
    expect(importers.map((f) => f.slice(root.length))).toEqual(['/core/src/schema/class-transformer-storage.ts']);
  });

  it('keeps @typemcp/protocol free of runtime dependencies and of core', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'protocol/package.json'), 'utf8')) as { dependencies?: object };
    expect(pkg.dependencies ?? {}).toEqual({});
    const offenders = sources(join(root, 'protocol/src')).filter((f) => /from '(?!\.|node:)/.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
