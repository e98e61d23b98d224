/**
 * The TaskCluster port on Redis: any instance reaches the handler of a task running on another.
 *
 * - The holder (the instance running a task) has a lease in the task's hash (`o` its token, `l`
 *   when the lease ends, Redis time) and in `<prefix>:leases`; it renews both every third of
 *   `leaseMs`, each renewal also emptying the task's inbox.
 * - Another instance sends the holder a message (answers, a cancel) with one script: pushed to
 *   the task's inbox (so a pub/sub message lost while the holder reconnected is still read at its
 *   next renewal) and published on `:to`, which the holder listens to. Handling a message twice
 *   changes nothing, so the holder takes it from either.
 * - Every write of a task is announced on `:ev`: a 2025-11-25 `tasks/result` waiting on another
 *   instance listens there.
 * - Every instance reaps, every fifth of `leaseMs`: a task whose lease ended is claimed by one
 *   instance (atomically, on its own slot), which runs it again from its recorded call when it is
 *   retryable and has runs left, and fails it otherwise. A holder that missed its renewals (its
 *   Redis away, its event loop frozen) finds its lease gone at the next one and stops the run.
 */
import { randomUUID } from 'node:crypto';
import type { TaskCluster, TaskClusterMember, TaskMessage, TaskRecord, TaskRun } from '@typemcp/protocol';
import { ErrorCode } from '@typemcp/protocol';
import type { Reply } from './redis-connection.js';
import type { RedisConnection } from './redis-connection.js';
import type { Script } from './lua-script.js';
import { parseMessage, parseRecord, parseRun } from './task-records.js';
import { abandonTask, cancelTask, claimTask, endedLeases, renewTask, sendTask, touchLeases } from './task-scripts.js';

/** Leases renewed, and reaped, per command. */
const BATCH = 200;

const touched = (r: TaskRecord) => ({ ...r, lastUpdatedAt: new Date().toISOString() });

/** What the cluster needs from its task store (RedisTaskStore). */
export interface TaskKeys {
  readonly prefix: string;
  readonly connection: RedisConnection;
  taskKey(taskId: string): string;
  command(key: string, args: string[]): Promise<Reply>;
  script(script: Script, keys: string[], args: string[]): Promise<Reply>;
  createHeld(record: TaskRecord, token: string, leaseMs: number, run: string): Promise<void>;
  write(record: TaskRecord, token: string, leaseMs: number, run?: string): Promise<number>;
}

/** A task this instance holds. */
interface Held {
  readonly token: string;
  readonly listener: (text: string) => void;
  /** Its last write, not yet stored (Redis was away): written again at each renewal. */
  finish?: TaskRecord;
}

export class RedisTaskCluster implements TaskCluster {
  private member?: TaskClusterMember;
  private readonly held = new Map<string, Held>();
  private readonly watchers = new Map<string, { listeners: Set<() => void>; listener: () => void }>();
  private readonly base = randomUUID();
  private tokens = 0;
  private renewTimer?: NodeJS.Timeout;
  private reapTimer?: NodeJS.Timeout;

  constructor(
    private readonly store: TaskKeys,
    readonly leaseMs: number,
  ) {}

  /** Tasks this instance took out of the lease index since the last renewal began (see renew()). */
  private readonly unlisted = new Set<string>();

  private get leasesKey(): string {
    return `${this.store.prefix}:leases`;
  }

  private keys(taskId: string): [string, string] {
    const key = this.store.taskKey(taskId);
    return [key, `${key}:in`];
  }

  join(member: TaskClusterMember): void {
    this.member = member;
    this.renewTimer = setInterval(() => void this.renew(), Math.floor(this.leaseMs / 3));
    this.renewTimer.unref();
    const reap = () => {
      // A fifth of the lease, give or take a tenth: instances started together do not reap in step.
      this.reapTimer = setTimeout(() => void this.reap().finally(reap), (this.leaseMs / 5) * (0.9 + Math.random() * 0.2));
      this.reapTimer.unref();
    };
    reap();
  }

  leave(): void {
    clearInterval(this.renewTimer);
    clearTimeout(this.reapTimer);
    this.member = undefined;
  }

  async start(record: TaskRecord, run?: TaskRun): Promise<void> {
    const token = `${this.base}.${++this.tokens}`;
    // The lease index first: an instance dying after the create still leaves its task to the reapers.
    await this.store.script(touchLeases, [this.leasesKey], [String(this.leaseMs), record.taskId]);
    await this.store.createHeld(record, token, this.leaseMs, run ? JSON.stringify(run) : '');
    this.hold(record.taskId, token);
  }

  /** Listens to the task's messages and takes those already queued. */
  private hold(taskId: string, token: string): void {
    const listener = (text: string) => {
      const message = parseMessage(text);
      if (message && this.held.get(taskId)?.token === token) this.member?.deliver(taskId, message);
    };
    this.held.set(taskId, { token, listener });
    this.store.connection
      .subscribe(`${this.keys(taskId)[0]}:to`, listener)
      .then(() => this.renewOne(taskId))
      .catch(() => undefined); // its inbox is read at the next renewal
  }

  /** Stops holding: no more messages, no lease (`keepLease`: the lease index entry belongs to another holder now). */
  private release(taskId: string, keepLease = false): void {
    const held = this.held.get(taskId);
    if (!held) return;
    this.held.delete(taskId);
    void this.store.connection.unsubscribe(`${this.keys(taskId)[0]}:to`, held.listener).catch(() => undefined);
    if (keepLease) return;
    this.unlisted.add(taskId);
    void this.store.command(this.leasesKey, ['ZREM', this.leasesKey, taskId]).catch(() => undefined);
  }

  /** A write of the engine (`put`): checked against this instance's lease when it holds the task. */
  async write(record: TaskRecord): Promise<void> {
    const held = this.held.get(record.taskId);
    const outcome = await this.store.write(record, held?.token ?? '', this.leaseMs);
    if (outcome === -1 && held) this.lost(record.taskId);
  }

  async finish(record: TaskRecord): Promise<void> {
    const held = this.held.get(record.taskId);
    if (!held) {
      await this.store.write(record, '', this.leaseMs);
      return;
    }
    try {
      const outcome = await this.store.write(record, held.token, this.leaseMs);
      this.release(record.taskId, outcome === -1);
    } catch (error) {
      // Kept, and written again at each renewal until Redis takes it (or the task is gone).
      held.finish = record;
      throw error;
    }
  }

  async abandon(taskId: string): Promise<void> {
    const held = this.held.get(taskId);
    if (!held) return;
    this.held.delete(taskId);
    await this.store.script(abandonTask, [this.keys(taskId)[0]], [held.token]);
    await this.store.command(this.leasesKey, ['ZADD', this.leasesKey, '0', taskId]);
  }

  async send(taskId: string, message: TaskMessage): Promise<boolean> {
    const [key, inbox] = this.keys(taskId);
    const sent = await this.store.script(sendTask, [key, inbox], [JSON.stringify(message), `${key}:to`, this.store.connection.publishCommand]);
    return sent === 1;
  }

  async cancel(record: TaskRecord): Promise<boolean> {
    const [key, inbox] = this.keys(record.taskId);
    const args = [JSON.stringify({ t: 'cancel' }), `${key}:to`, this.store.connection.publishCommand, JSON.stringify(record), `${key}:ev`];
    return (await this.store.script(cancelTask, [key, inbox], args)) === 1;
  }

  watch(taskId: string, onChange: () => void): () => void {
    let entry = this.watchers.get(taskId);
    if (!entry) {
      const listeners = new Set<() => void>();
      const created = { listeners, listener: () => listeners.forEach((l) => l()) };
      this.watchers.set(taskId, created);
      // Not subscribed (Redis away): the waiter still polls.
      void this.store.connection.subscribe(`${this.keys(taskId)[0]}:ev`, created.listener).catch(() => undefined);
      entry = created;
    }
    entry.listeners.add(onChange);
    const current = entry;
    return () => {
      current.listeners.delete(onChange);
      if (current.listeners.size || this.watchers.get(taskId) !== current) return;
      this.watchers.delete(taskId);
      void this.store.connection.unsubscribe(`${this.keys(taskId)[0]}:ev`, current.listener).catch(() => undefined);
    };
  }

  /** Another instance holds the task now (or it is gone): the engine stops its run. */
  private lost(taskId: string): void {
    this.release(taskId, true);
    this.member?.lost(taskId);
  }

  /** Renews one held task's lease and delivers what its inbox holds; false when the lease is lost. */
  private async renewOne(taskId: string): Promise<boolean> {
    const held = this.held.get(taskId);
    if (!held) return false;
    const reply = (await this.store.script(renewTask, this.keys(taskId), [held.token, String(this.leaseMs)])) as [number, string[]] | null;
    if (this.held.get(taskId) !== held) return false;
    if (reply === null) {
      this.lost(taskId);
      return false;
    }
    if (held.finish) await this.finish(held.finish).catch(() => undefined);
    for (const text of reply[1]) held.listener(text);
    return true;
  }

  /** Every third of the lease: each held task's lease, then the lease index, in batches. */
  private async renew(): Promise<void> {
    this.unlisted.clear();
    if (!this.store.connection.isReady || this.held.size === 0) return;
    const ids = [...this.held.keys()];
    const alive = await Promise.all(ids.map((id) => this.renewOne(id).catch(() => false)));
    const kept = ids.filter((_, i) => alive[i] && this.held.has(ids[i]));
    for (let i = 0; i < kept.length; i += BATCH) {
      await this.store.script(touchLeases, [this.leasesKey], [String(this.leaseMs), ...kept.slice(i, i + BATCH)]).catch(() => undefined);
    }
    // A task that ended while its renewal was on the way: its ZREM may have gone before the ZADD
    // above put it back (renewals may add: the index heals itself from them). Take it out again.
    const ended = kept.filter((id) => this.unlisted.has(id));
    if (ended.length) await this.store.command(this.leasesKey, ['ZREM', this.leasesKey, ...ended]).catch(() => undefined);
  }

  /** Every fifth of the lease: the tasks whose lease ended are claimed (one instance each), then run again or failed. */
  private async reap(): Promise<void> {
    if (!this.member || !this.store.connection.isReady) return;
    const ids = ((await this.store.script(endedLeases, [this.leasesKey], [String(BATCH)]).catch(() => [])) as string[]).filter((id) => !this.held.has(id));
    for (const taskId of ids) await this.reapOne(taskId).catch(() => undefined);
  }

  private async reapOne(taskId: string): Promise<void> {
    const token = `${this.base}.${++this.tokens}`;
    const reply = (await this.store.script(claimTask, this.keys(taskId), [token, String(this.leaseMs)])) as Reply[];
    const outcome = reply[0];
    if (outcome === 'alive') {
      await this.store.command(this.leasesKey, ['ZADD', this.leasesKey, 'XX', String(reply[1]), taskId]);
      return;
    }
    const record = outcome === 'claimed' ? parseRecord(reply[1]) : undefined;
    if (!record) {
      await this.store.command(this.leasesKey, ['ZREM', this.leasesKey, taskId]);
      return;
    }
    await this.store.script(touchLeases, [this.leasesKey], [String(this.leaseMs), taskId]);
    this.held.set(taskId, { token, listener: () => undefined });
    const run = parseRun(reply[2]);
    if (run && run.attempt <= run.retries && this.member) return this.rerun(touched(record), run, token);
    const total = run ? ` after ${run.attempt} runs` : '';
    const message = `The instance running this task stopped before it ended${total} (its lease of ${this.leaseMs} ms was not renewed)`;
    const failed: TaskRecord = { ...touched(record), status: 'failed', statusMessage: message, error: { code: ErrorCode.InternalError, message } };
    delete failed.inputRequests;
    await this.finish(failed);
  }

  /** A retryable task claimed by this instance: stored as working again (its questions dropped), then the engine runs it. */
  private async rerun(record: TaskRecord, run: TaskRun, token: string): Promise<void> {
    const next: TaskRun = { ...run, attempt: run.attempt + 1 };
    const again: TaskRecord = {
      ...record,
      status: 'working',
      statusMessage: `Running again (run ${next.attempt} of ${run.retries + 1}): the instance running it stopped`,
    };
    delete again.inputRequests;
    const written = await this.store.write(again, token, this.leaseMs, JSON.stringify(next));
    if (written !== 1) {
      // Ended meanwhile (cancelled: its lease entry goes), or taken by another instance (the entry is its).
      this.release(record.taskId, written === -1);
      return;
    }
    this.held.delete(record.taskId);
    this.hold(record.taskId, token);
    this.member!.adopt(again, next);
  }
}
