import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { IsString } from 'class-validator';
import { Complete, Context, createServer, getMetadataStorage, Injectable, McpService, Prompt, Tool } from '@typemcp/core';

beforeEach(() => getMetadataStorage().reset());

const build = (services?: (new (...a: never[]) => unknown)[]) => () =>
  createServer({ name: 't', version: '1', services: services as never });

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
    expect(build([A, B])).toThrow(
      expect.objectContaining({ code: 'TYPEMCP_ERR_DUPLICATE_TOOL', message: expect.stringMatching(/A\.search.*B\.find/) }),
    );
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
    const importers = sources(root).filter((f) => f.includes('/src/') && readFileSync(f, 'utf8').includes('class-transformer/cjs/storage'));
    expect(importers.map((f) => f.slice(root.length))).toEqual(['/core/src/schema/class-transformer-storage.ts']);
  });

  it('keeps @typemcp/protocol free of runtime dependencies and of core', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'protocol/package.json'), 'utf8')) as { dependencies?: object };
    expect(pkg.dependencies ?? {}).toEqual({});
    const offenders = sources(join(root, 'protocol/src')).filter((f) => /from '(?!\.|node:)/.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
