/**
 * The embedded PGlite database on a thread of its own (see pgliteThread.ts): it answers the main thread's messages
 * one at a time, in the order they came, so a statement never blocks the thread that reads and answers requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ThreadReply, ThreadRequest, ThreadStart } from './pgliteThread';

const start = workerData as ThreadStart;
const port = parentPort!;

/** The fields a database error carries (SQLSTATE, severity, constraint…), which a structured clone would drop. */
function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = { message: error.message, name: error.name };
  for (const [key, value] of Object.entries(error)) if (value === undefined || typeof value !== 'object') fields[key] = value;
  return fields;
}

// pg_trgm lets a "contains" search use an index, as it does on PostgreSQL.
const options = { extensions: { pg_trgm }, loadDataDir: start.loadDataDir ? new Blob([start.loadDataDir]) : undefined };
if (start.dir !== 'memory') mkdirSync(start.dir, { recursive: true });
const ready = (start.dir === 'memory' ? PGlite.create(options) : PGlite.create(start.dir, options)).then(
  (client) => {
    port.postMessage({ id: 0, ok: true } satisfies ThreadReply);
    return client;
  },
  (error: unknown) => {
    port.postMessage({ id: 0, ok: false, error: errorFields(error) } satisfies ThreadReply);
    throw error;
  },
);
const listeners = new Map<number, () => Promise<void>>();

async function answer(client: PGlite, request: ThreadRequest): Promise<ThreadReply> {
  switch (request.op) {
    case 'query': {
      const result = await client.query(request.sql, request.params, request.rowMode ? { rowMode: request.rowMode } : undefined);
      return { id: request.id, ok: true, rows: result.rows, affectedRows: result.affectedRows };
    }
    case 'listen': {
      const listener = request.id;
      listeners.set(listener, await client.listen(request.channel, () => port.postMessage({ listener })));
      return { id: request.id, ok: true };
    }
    case 'unlisten': {
      await listeners.get(request.listener)?.();
      listeners.delete(request.listener);
      return { id: request.id, ok: true };
    }
    case 'dump': {
      const tar = await (await client.dumpDataDir('none')).arrayBuffer();
      return { id: request.id, ok: true, tar };
    }
    case 'close':
      await client.close();
      return { id: request.id, ok: true };
  }
}

// One message at a time: PGlite runs one statement at a time, and its order is the order the statements were sent.
let turn: Promise<unknown> = ready;
port.on('message', (request: ThreadRequest) => {
  turn = turn.then(async () => {
    const client = await ready;
    let reply: ThreadReply;
    try {
      reply = await answer(client, request);
    } catch (error) {
      reply = { id: request.id, ok: false, error: errorFields(error) };
    }
    port.postMessage(reply, reply.ok && reply.tar ? [reply.tar] : []);
  });
});
