import { Worker } from 'node:worker_threads';

/**
 * The embedded PGlite database, run on a worker thread (pgliteWorker.ts). PGlite executes a statement on the
 * thread that calls it and holds that thread until the statement ends; on the server's own thread every statement
 * would stop the server from reading new requests, answering the ones that wait, or refusing them when the line is
 * full. On a thread of its own the database uses the machine's second core while the server parses, checks and
 * serialises.
 */
export interface ThreadStart {
  /** A folder, or "memory". */
  dir: string;
  /** A data folder's tar to start from (`dumpDataDir`). */
  loadDataDir?: ArrayBuffer;
}

export type ThreadRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[]; rowMode?: 'array' }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; listener: number }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' };

export type ThreadReply =
  { id: number; ok: true; rows?: unknown[]; affectedRows?: number; tar?: ArrayBuffer } | { id: number; ok: false; error: Record<string, unknown> };

/** A request before it is numbered. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

type Pending = { resolve: (reply: ThreadReply & { ok: true }) => void; reject: (error: Error) => void };

/** What a database error looked like on the worker: its message and fields (code, severity, constraint…). */
function rebuiltError(fields: Record<string, unknown>): Error {
  const { message, name, ...rest } = fields;
  const error = Object.assign(new Error(String(message)), rest);
  if (typeof name === 'string') error.name = name;
  return error;
}

export class PGliteThread {
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<number, () => void>();
  private exited = false;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: ThreadReply | { listener: number }) => {
      if ('listener' in message) {
        this.listeners.get(message.listener)?.();
        return;
      }
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.ok) waiting?.resolve(message);
      else waiting?.reject(rebuiltError(message.error));
    });
    const fail = (error: Error) => {
      this.exited = true;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the database thread stopped (exit code ${code})`)));
  }

  /** Starts the thread and opens the database on it (`dir` a folder or "memory"). */
  static async create(dir: string, loadDataDir?: Blob): Promise<PGliteThread> {
    const start: ThreadStart = { dir, loadDataDir: loadDataDir ? await loadDataDir.arrayBuffer() : undefined };
    // The worker is TypeScript: it registers tsx's loader, as the server's own thread does, then loads it.
    const entry = new URL('./pgliteWorker.ts', import.meta.url).href;
    const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
    const worker = new Worker(boot, {
      eval: true,
      workerData: start,
      transferList: start.loadDataDir ? [start.loadDataDir] : [],
    });
    const thread = new PGliteThread(worker);
    // The worker answers message 0 once the database is open.
    await new Promise<ThreadReply>((resolve, reject) => thread.pending.set(0, { resolve, reject }));
    return thread;
  }

  get closed(): boolean {
    return this.exited;
  }

  private send(request: Unnumbered<ThreadRequest>, id = this.next++): Promise<ThreadReply & { ok: true }> {
    if (this.exited) return Promise.reject(new Error('the database is closed'));
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  /** Rows as objects, or as arrays of the columns' values in order (`rowMode` "array"). */
  async query<R>(sql: string, params: unknown[], rowMode?: 'array'): Promise<{ rows: R[]; affectedRows?: number }> {
    const reply = await this.send({ op: 'query', sql, params, rowMode });
    return { rows: (reply.rows ?? []) as R[], affectedRows: reply.affectedRows };
  }

  /** Calls `on` at each notification of `channel`; resolves to the function that stops listening. */
  async listen(channel: string, on: () => void): Promise<() => Promise<void>> {
    // The worker names the listener by the number of the request that started it.
    const id = this.next++;
    this.listeners.set(id, on);
    await this.send({ op: 'listen', channel }, id);
    return async () => {
      this.listeners.delete(id);
      if (!this.exited) await this.send({ op: 'unlisten', listener: id });
    };
  }

  /** The whole data folder as an uncompressed tar. */
  async dumpDataDir(): Promise<Blob> {
    const reply = await this.send({ op: 'dump' });
    return new Blob([reply.tar!]);
  }

  async close(): Promise<void> {
    if (this.exited) return;
    await this.send({ op: 'close' });
    this.exited = true;
    await this.worker.terminate();
  }
}
