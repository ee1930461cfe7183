import { AsyncLocalStorage } from 'node:async_hooks';
import type { DatabaseConnection, Dialect, Driver, Kysely, QueryCompiler, TransactionSettings } from 'kysely';

/** How requests wait for a database connection: at most `limit` of them, each until `waitMs` after its first wait. */
export interface QueueSettings {
  /** Requests waiting at once; one more is refused at once. */
  limit: number;
  /** How long after a request first waits for a connection its statements may still wait; past it the request is refused. */
  waitMs: number;
}

/** The defaults per engine: PGlite runs one statement at a time, PostgreSQL one per pooled connection. */
export const QUEUE_DEFAULTS: Record<'pglite' | 'postgres', QueueSettings> = {
  pglite: { limit: 100, waitMs: 1000 },
  postgres: { limit: 200, waitMs: 1000 },
};

/** A request refused because the database is busy: its queue is full or the request waited its time. */
export class DatabaseBusy extends Error {
  constructor(
    readonly reason: 'full' | 'waited',
    /** When to try again, in whole seconds (the HTTP answer's Retry-After). */
    readonly retryAfterSeconds: number,
  ) {
    super(`database busy (${reason})`);
  }
}

/** What a request's statements share: when it first waited, so one bound covers all its waits. */
interface RequestScope {
  firstWait?: number;
  /** It has had a connection: its next statements go ahead of requests not yet started, without either bound. */
  started?: boolean;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/**
 * Runs `fn` (and everything it starts) as one request: its statements wait until the queue's `waitMs` after its
 * first wait, and are refused when the queue is full. Work outside a request (background jobs, timers) waits its turn without bound.
 */
export function asRequest<T>(fn: () => T): T {
  return scopes.run({}, fn);
}

interface Waiter {
  grant: (release: () => void) => void;
  refuse: (error: DatabaseBusy) => void;
  timer?: NodeJS.Timeout;
  /** A request's waiter, counted against the limit. */
  limited: boolean;
  settled: boolean;
}

/**
 * First come, first served access to `capacity` connections. Requests wait in one line of at most `limit` and
 * until `waitMs` after their first wait; past either they get `DatabaseBusy` at once. A freed connection goes to the longest
 * waiter.
 */
export class FairQueue {
  private free: number;
  private readonly line: Waiter[] = [];
  private head = 0;
  /** Statements of requests under way (see `acquire`), served before the line; short, one a request at most. */
  private readonly started: Waiter[] = [];
  /** Requests in line (background work waits too but is not counted against the limit). */
  private waitingRequests = 0;
  /** Everything in line, requests and background work. */
  private live = 0;
  readonly counts = { refusedFull: 0, refusedWaited: 0 };

  constructor(
    readonly capacity: number,
    private settings: QueueSettings,
  ) {
    this.free = capacity;
  }

  /** Requests waiting now. */
  get waiting(): number {
    return this.waitingRequests;
  }

  /** A refusal when the line is full now (counted as one), for a request to be answered before it starts. */
  refuseIfFull(): DatabaseBusy | undefined {
    if (this.waitingRequests < this.settings.limit) return undefined;
    this.counts.refusedFull++;
    return new DatabaseBusy('full', this.retryAfter);
  }

  /** Changes the limit or the wait (for requests that start waiting from now on). */
  configure(settings: Partial<QueueSettings>) {
    this.settings = { ...this.settings, ...settings };
  }

  private get retryAfter(): number {
    return Math.max(1, Math.ceil(this.settings.waitMs / 1000));
  }

  /** Resolves to the function that gives the connection back, or rejects with `DatabaseBusy`. */
  acquire(): Promise<() => void> {
    const scope = scopes.getStore();
    if (this.free > 0 && this.live === 0) {
      this.free--;
      if (scope) scope.started = true;
      return Promise.resolve(this.releaser());
    }
    // A request under way finishes before new ones start: refusing it now would waste what it has done, and making it
    // queue again behind every newer request would make requests of several statements time out one by one.
    if (scope?.started) return this.wait(this.started, undefined, Infinity);
    const full = scope && this.refuseIfFull();
    if (full) return Promise.reject(full);
    const now = performance.now();
    const left = scope ? (scope.firstWait ??= now) + this.settings.waitMs - now : Infinity;
    if (left <= 0) {
      this.counts.refusedWaited++;
      return Promise.reject(new DatabaseBusy('waited', this.retryAfter));
    }
    return this.wait(this.line, scope, left);
  }

  private wait(line: Waiter[], scope: RequestScope | undefined, left: number): Promise<() => void> {
    return new Promise((grant, refuse) => {
      const waiter: Waiter = {
        grant: (release) => {
          if (scope) scope.started = true;
          grant(release);
        },
        refuse,
        limited: !!scope,
        settled: false,
      };
      if (scope) {
        this.waitingRequests++;
        waiter.timer = setTimeout(() => {
          waiter.settled = true;
          this.waitingRequests--;
          this.live--;
          this.counts.refusedWaited++;
          refuse(new DatabaseBusy('waited', this.retryAfter));
        }, left);
      }
      line.push(waiter);
      this.live++;
      if (this.free > 0) this.handOver();
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.free++;
      // Handed on once the code that released it has run on: a request under way that asks again at once (its next
      // statement) is then in line ahead of the requests not yet started.
      setImmediate(() => this.handOver());
    };
  }

  /** Gives free connections to the longest waiters. */
  private handOver() {
    while (this.free > 0) {
      const next = this.next();
      if (!next) return;
      this.free--;
      next.grant(this.releaser());
    }
  }

  /** The longest waiter still waiting, out of the line. */
  private next(): Waiter | undefined {
    const resumed = this.started.shift();
    if (resumed) {
      resumed.settled = true;
      this.live--;
      return resumed;
    }
    while (this.head < this.line.length) {
      const waiter = this.line[this.head];
      this.line[this.head++] = undefined as unknown as Waiter;
      if (this.head > 1024 && this.head * 2 > this.line.length) {
        this.line.splice(0, this.head);
        this.head = 0;
      }
      if (waiter.settled) continue;
      waiter.settled = true;
      clearTimeout(waiter.timer);
      if (waiter.limited) this.waitingRequests--;
      this.live--;
      return waiter;
    }
    return undefined;
  }
}

/** A driver whose connections are handed out by a `FairQueue`: the pool's or PGlite's own waiting never forms. */
class QueuedDriver implements Driver {
  private readonly releases = new Map<DatabaseConnection, () => void>();

  constructor(
    private readonly inner: Driver,
    private readonly queue: FairQueue,
  ) {}

  init() {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.queue.acquire();
    try {
      const connection = await this.inner.acquireConnection();
      this.releases.set(connection, release);
      return connection;
    } catch (error) {
      release();
      throw error;
    }
  }

  async releaseConnection(connection: DatabaseConnection) {
    const release = this.releases.get(connection);
    this.releases.delete(connection);
    try {
      await this.inner.releaseConnection(connection);
    } finally {
      release?.();
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.inner.beginTransaction(connection, settings);
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.inner.rollbackTransaction(connection);
  }
  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    if (!this.inner.savepoint) throw new Error('savepoints are not supported by this driver');
    return this.inner.savepoint(connection, name, compile);
  }
  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    if (!this.inner.rollbackToSavepoint) throw new Error('savepoints are not supported by this driver');
    return this.inner.rollbackToSavepoint(connection, name, compile);
  }
  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    if (!this.inner.releaseSavepoint) throw new Error('savepoints are not supported by this driver');
    return this.inner.releaseSavepoint(connection, name, compile);
  }
  destroy() {
    return this.inner.destroy();
  }
}

/** `dialect` with its connections handed out through `queue`. */
export function queuedDialect(dialect: Dialect, queue: FairQueue): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new QueuedDriver(dialect.createDriver(), queue),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>) => dialect.createIntrospector(db),
  };
}
