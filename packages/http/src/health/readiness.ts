/**
 * Readiness: the application's checks (`@ReadinessCheck()` methods, the `readinessChecks`
 * option) and the framework's (shared state, the JWKS or introspection endpoint), each under its
 * own timeout. Probes that arrive while a run is under way share it, so a burst of probes costs
 * one run. The answer names each check and says `ok`, `failed` or `timeout`, never an error's
 * text; a check that starts failing is reported once (onError / logger), not at every probe.
 */
import { unref } from '@typemcp/protocol/internal';

/** One readiness check (core's `@ReadinessCheck()` methods have this shape). @publicApi */
export interface HealthCheck {
  readonly name: string;
  /** A check that has not settled by then counts as failed (default 2 000 ms). */
  readonly timeoutMs?: number;
  /** Resolves (ready) or rejects / resolves `false` (not ready). */
  check(): unknown;
}

/** What `/readyz` answers. @publicApi */
export interface ReadinessReport {
  readonly status: 'ready' | 'not ready' | 'draining';
  readonly checks: Readonly<Record<string, 'ok' | 'failed' | 'timeout'>>;
}

const DEFAULT_TIMEOUT_MS = 2000;
const TIMED_OUT = Symbol('timeout');

async function outcome(check: HealthCheck): Promise<'ok' | 'failed' | 'timeout' | { error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), check.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    unref(timer);
  });
  try {
    const result = await Promise.race([Promise.resolve().then(() => check.check()), timeout]);
    if (result === TIMED_OUT) return 'timeout';
    return result === false ? 'failed' : 'ok';
  } catch (error) {
    return { error };
  } finally {
    clearTimeout(timer);
  }
}

export class Readiness {
  private running?: Promise<ReadinessReport>;
  private readonly failing = new Set<string>();

  constructor(
    private readonly checks: () => readonly HealthCheck[],
    private readonly report: (error: unknown, where: string) => void,
  ) {}

  /** Runs every check (or joins the run under way). */
  run(): Promise<ReadinessReport> {
    return (this.running ??= this.runAll().finally(() => (this.running = undefined)));
  }

  private async runAll(): Promise<ReadinessReport> {
    const list = this.checks();
    const outcomes = await Promise.all(list.map(outcome));
    const checks: Record<string, 'ok' | 'failed' | 'timeout'> = {};
    list.forEach(({ name }, i) => {
      const o = outcomes[i];
      const state = typeof o === 'string' ? o : 'failed';
      checks[name] = state;
      if (state === 'ok') this.failing.delete(name);
      else if (!this.failing.has(name)) {
        this.failing.add(name);
        this.report(
          typeof o === 'object' ? o.error : new Error(`readiness check "${name}" ${state === 'timeout' ? 'timed out' : 'returned false'}`),
          `readiness ${name}`,
        );
      }
    });
    return { status: Object.values(checks).every((c) => c === 'ok') ? 'ready' : 'not ready', checks };
  }
}
