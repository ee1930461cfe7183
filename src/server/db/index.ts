import { CamelCasePlugin, Kysely, PostgresDialect, type Dialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect';
import { PGliteThread } from './pgliteThread';
import { replicaDialect } from './readReplicas';
import type { Database } from './types';
import { migrateToLatest } from './migrations';
import { TableWritesPlugin } from './writes';
import { FairQueue, QUEUE_DEFAULTS, queuedDialect, type QueueSettings } from './queue';

export type Engine = 'pglite' | 'postgres';

/** What a listener is told: each notification, and whether it is listening (notifications may be missed when not). */
export interface Notifications {
  notify(): void;
  live(listening: boolean): void;
}

export interface Db {
  db: Kysely<Database>;
  /**
   * Where paged lists and selects read: the read replicas of DATABASE_READ_URL, or `db` itself without them. Never
   * in a transaction, and never for what must see a write just made (a form after its save reads `db`).
   */
  read: Kysely<Database>;
  engine: Engine;
  close(): Promise<void>;
  /** Notifications of a channel (NOTIFY), from any connection to the database; resolves to a function that stops. */
  listen(channel: string, on: Notifications): Promise<() => Promise<void>>;
  /** Calls `changed` after each INSERT, UPDATE or DELETE this process runs on one of `tables`. */
  watchWrites(tables: string[], changed: () => void): void;
  /** PGlite only: the whole data folder as an uncompressed tar, which `openDatabase({ loadDataDir })` opens again. */
  dumpDataDir?(): Promise<Blob>;
  /** The line in front of the connections (see queue.ts). */
  queue: FairQueue;
}

/**
 * Statements run without Kysely for the hottest reads (a list's page): the SQL compiled once per shape of request
 * and kept, its rows as arrays in the order of its columns (a page's rows come as one JSON text). `name` makes it a named prepared statement on
 * PostgreSQL: each connection parses it once, and later runs send only its parameters. Connections are taken from
 * the same line (queue.ts) as every other statement.
 */
export interface ArrayQueries {
  run(sql: string, parameters: readonly unknown[], name: string): Promise<unknown[][]>;
}

const arrayQueries = new WeakMap<object, ArrayQueries>();

/** The array runner of a database handle (`Db.db` or `Db.read`), if it has one (read replicas have none). */
export function arrayQueriesOf(db: object): ArrayQueries | undefined {
  return arrayQueries.get(db);
}

/** How long a lost notification connection waits before it connects again. */
const RELISTEN_MS = 2000;

/**
 * LISTEN on a connection of its own, outside the pool. When the connection is lost, `live(false)` says notifications
 * may be missed, and it connects again until it can listen.
 */
async function listenPostgres(url: string, channel: string, on: Notifications): Promise<() => Promise<void>> {
  let current: pg.Client | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const retry = () => {
    if (!stopped) timer = setTimeout(() => void connect(), RELISTEN_MS);
  };
  const connect = async () => {
    const client = new pg.Client({ connectionString: url, keepAlive: true });
    const lost = () => {
      if (current !== client) return;
      current = undefined;
      on.live(false);
      client.end().catch(() => {});
      retry();
    };
    client.on('notification', (m) => {
      if (m.channel === channel) on.notify();
    });
    client.on('error', lost);
    client.on('end', lost);
    try {
      await client.connect();
      await client.query(`listen ${client.escapeIdentifier(channel)}`);
    } catch {
      client.end().catch(() => {});
      retry();
      return;
    }
    if (stopped) {
      await client.end();
      return;
    }
    current = client;
    on.live(true);
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    const client = current;
    current = undefined;
    await client?.end();
  };
}

// numeric and bigint arrive as text from pg; the wire carries numbers (2-decimal money fits a double exactly enough
// to print, and the database keeps the exact value).
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** The pool of each PostgreSQL database opened here, for what Kysely cannot say (COPY). */
const pools = new WeakMap<Kysely<Database>, pg.Pool>();

/** PostgreSQL only: the pool behind `db` (its connections, for COPY); undefined on PGlite. */
export const poolOf = (db: Kysely<Database>): pg.Pool | undefined => pools.get(db);

/**
 * Column names to camelCase, each converted once: every result row repeats the same few names, and converting
 * them anew per row cost a tenth of a million-row download. Keys of JSON values are remembered too, up to a bound.
 */
class RememberingCamelCasePlugin extends CamelCasePlugin {
  private readonly names = new Map<string, string>();

  protected override camelCase(name: string): string {
    let converted = this.names.get(name);
    if (converted === undefined) {
      converted = super.camelCase(name);
      if (this.names.size < 10_000) this.names.set(name, converted);
    }
    return converted;
  }
}

/**
 * Opens the database: PostgreSQL when a URL is given, else embedded PGlite in `dataDir`
 * (or in memory when dataDir is "memory"), starting from the data folder `loadDataDir` when given (a tar from
 * `dumpDataDir`). Migrations run before it is handed out.
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir?: string;
  loadDataDir?: Blob;
  readUrls?: string[];
  queue?: Partial<QueueSettings>;
}): Promise<Db> {
  let dialect: Dialect;
  let engine: Engine;
  let listen: Db['listen'];
  let dumpDataDir: Db['dumpDataDir'];
  let connections: number;
  let pool: pg.Pool | undefined;
  let runArray: (sql: string, parameters: unknown[], name: string) => Promise<unknown[][]>;
  if (opts.databaseUrl) {
    const url = opts.databaseUrl;
    listen = (channel, on) => listenPostgres(url, channel, on);
    connections = Number(process.env.PG_POOL_SIZE ?? 10);
    // Named statements are planned for their parameters each time, as unnamed ones are: a generic plan cannot see
    // that a search's `like 'prefix%'` may use an index, nor how many rows a key matches.
    const lists = new pg.Pool({ connectionString: opts.databaseUrl, max: connections, options: '-c plan_cache_mode=force_custom_plan' });
    pool = lists;
    dialect = new PostgresDialect({ pool });
    runArray = async (text, values, name) => {
      const client = await lists.connect();
      try {
        return (await client.query<unknown[]>({ name, text, values, rowMode: 'array' })).rows;
      } finally {
        client.release();
      }
    };
    engine = 'postgres';
  } else {
    const client = await PGliteThread.create(opts.dataDir ?? 'memory', opts.loadDataDir);
    dumpDataDir = () => client.dumpDataDir();
    connections = 1;
    dialect = new PGliteDialect(client);
    engine = 'pglite';
    // The one connection is this process's turn in the line: nothing else runs on it meanwhile.
    runArray = async (text, values) => (await client.query<unknown[]>(text, values, 'array')).rows;
    // One process owns the database: it hears every notification, delivered as its statement commits.
    listen = async (channel, on) => {
      const stop = await client.listen(channel, () => on.notify());
      on.live(true);
      return async () => {
        if (!client.closed) await stop();
      };
    };
  }
  // Requests wait for a connection first come, first served, in a bounded line (see queue.ts).
  const queue = new FairQueue(connections, { ...QUEUE_DEFAULTS[engine], ...definedOnly(opts.queue) });
  const writes = new TableWritesPlugin();
  const db = new Kysely<Database>({ dialect: queuedDialect(dialect, queue), plugins: [writes, new RememberingCamelCasePlugin()] });
  arrayQueries.set(db, {
    async run(text, parameters, name) {
      const release = await queue.acquire();
      try {
        return await runArray(text, [...parameters], name);
      } finally {
        release();
      }
    },
  });
  await migrateToLatest(db);
  if (pool) pools.set(db, pool);
  // Read replicas have pools of their own, in front of which the line does not stand.
  const replicas = opts.databaseUrl && opts.readUrls?.length ? replicaDialect(opts.readUrls, Number(process.env.PG_POOL_SIZE ?? 10)) : undefined;
  const read = replicas ? new Kysely<Database>({ dialect: replicas, plugins: [new RememberingCamelCasePlugin()] }) : db;
  const close = async () => {
    if (read !== db) await read.destroy();
    await db.destroy();
  };
  return { db, read, engine, close, listen, watchWrites: (tables, changed) => writes.watch(tables, changed), dumpDataDir, queue };
}

function definedOnly<T extends object>(settings: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(settings ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}
