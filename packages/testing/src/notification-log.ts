/**
 * Every notification the server sent, in order; waiters for the ones still to come; and the
 * progress callbacks of requests in flight, by progress token.
 */
import type { Notification, ProgressParams } from './test-client.types.js';

interface Waiter {
  test(n: Notification): boolean;
  resolve(n: Notification): void;
}

/** @internal */
export class NotificationLog {
  private readonly received: Notification[] = [];
  private waiters: Waiter[] = [];
  private readonly progress = new Map<string | number, (p: ProgressParams) => void>();

  add(notification: Notification): void {
    this.received.push(notification);
    if (notification.method === 'notifications/progress') {
      const params = notification.params as ProgressParams | undefined;
      if (params) this.progress.get(params.progressToken)?.(params);
    }
    this.waiters = this.waiters.filter((w) => (w.test(notification) ? (w.resolve(notification), false) : true));
  }

  /** The notifications received so far, optionally of one method. */
  list(method?: string): Notification[] {
    return method === undefined ? [...this.received] : this.received.filter((n) => n.method === method);
  }

  /** Routes progress with `token` to `handler` until {@link untrack}. */
  track(token: string | number, handler: (p: ProgressParams) => void): void {
    this.progress.set(token, handler);
  }

  untrack(token: string | number): void {
    this.progress.delete(token);
  }

  clear(): void {
    this.received.length = 0;
  }

  /** The first matching notification, already received or still to come. */
  waitFor(method: string, predicate: ((n: Notification) => boolean) | undefined, timeoutMs: number): Promise<Notification> {
    const test = (n: Notification) => n.method === method && (!predicate || predicate(n));
    const seen = this.received.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        test,
        resolve: (n) => {
          clearTimeout(timer);
          resolve(n);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        const got = this.received.map((n) => n.method).join(', ') || 'none';
        reject(new Error(`No ${method} notification${predicate ? ' matching the predicate' : ''} within ${timeoutMs} ms (received: ${got})`));
      }, timeoutMs);
      timer.unref();
      this.waiters.push(waiter);
    });
  }
}
