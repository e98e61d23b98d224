/**
 * Lifecycle hooks of what the DI container builds (services, `@Injectable()` classes, class
 * providers, interceptor classes), after NestJS's `OnModuleInit` / `OnModuleDestroy`.
 */

/**
 * `onInit()` runs once, awaited, before the server accepts its first request (`listen()`, the
 * testing kit's `createTestClient()`, or `server.start()`), in the order the container created
 * the instances (a dependency before what needs it). A hook that throws stops start-up with its
 * error. @publicApi
 */
export interface OnInit {
  /** May return a promise: it is awaited before the next instance's hook. */
  onInit(): unknown;
}

/**
 * `onDestroy()` runs once, awaited, when the server closes, however it ends (`close()`,
 * SIGTERM/SIGINT, stdin closing on stdio, the testing kit's `close()`), in reverse order of
 * creation: what a service needs is still open while the service's own hook runs. A throwing hook
 * is reported (`onError`, `logger`) and the others still run. @publicApi
 */
export interface OnDestroy {
  /** May return a promise: it is awaited before the next instance's hook. */
  onDestroy(): unknown;
}

/** Options of `@ReadinessCheck()`. @publicApi */
export interface ReadinessCheckOptions {
  /** Named in the readiness answer (default: `Class.method`). */
  name?: string;
  /** A check that has not settled by then fails (default 2 000 ms). */
  timeoutMs?: number;
}

/**
 * One health check, as HTTP's readiness endpoint runs it: `check()` resolves (ready) or
 * rejects / resolves `false` (not ready). Its error text is never shown to the caller.
 * @publicApi
 */
export interface HealthCheck {
  /** Named in the readiness answer. */
  readonly name: string;
  /** A check that has not settled by then fails. */
  readonly timeoutMs: number;
  /** Resolves (ready) or rejects / resolves `false` (not ready). */
  check(): unknown;
}
