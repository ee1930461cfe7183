/**
 * The bulk loader of the subscriber benchmark: demo subscribers with their SIM cards, MSISDNs and sponsor IMSIs,
 * written to PostgreSQL through COPY.
 */
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { subscriberSeedContext, subscriberSeedRows, type SubscriberSeedRow } from '@server/db/seedSubscribers';
import type { Database } from '../../src/server/db/types';

/** Subscribers generated and copied at a time. */
const CHUNK = 50_000;

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const SPECIAL = /[\\\t\n\r]/;

/** A value in COPY's text format (nearly every value needs no escape: one test instead of four replacements). */
function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = typeof value === 'string' ? value : String(value);
  return SPECIAL.test(text) ? text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : text;
}

/** One table's COPY text for a chunk, column by column as `keys` name them. */
class CopyText {
  private parts: string[] = [];
  rows = 0;
  constructor(
    readonly table: string,
    readonly keys: readonly string[],
  ) {}
  add(row: Record<string, unknown>) {
    let line = copyText(row[this.keys[0]]);
    for (let k = 1; k < this.keys.length; k++) line += `\t${copyText(row[this.keys[k]])}`;
    this.parts.push(`${line}\n`);
    this.rows += 1;
  }
  /** The text so far, in pieces of about a thousand rows (a stream chunk per row costs more than the row). */
  take(): string[] {
    const pieces: string[] = [];
    for (let i = 0; i < this.parts.length; i += 1000) pieces.push(this.parts.slice(i, i + 1000).join(''));
    this.parts = [];
    return pieces;
  }
}

/** Writes `pieces` through one COPY of the connection and waits until PostgreSQL has taken them. */
async function copyInto(client: pg.Client, table: CopyText, pieces: string[]) {
  if (!pieces.length) return;
  const stream = client.query(copyFrom(`copy ${table.table} (${table.keys.map(snake).join(', ')}) from stdin`));
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  for (const piece of pieces) if (!stream.write(piece)) await new Promise((resolve) => stream.once('drain', resolve));
  stream.end();
  await done;
}

const TABLES = ['sim_card', 'subscriber', 'subscriber_msisdn', 'sponsor_imsi'];

/**
 * Loads `count` demo subscribers through COPY in one transaction; returns rows written. As pg_restore does, the
 * foreign keys of the four tables and their indexes other than those of their keys are dropped for the load and
 * made again at its end: each index is then built once from sorted rows instead of growing row by row (the
 * trigram index of names most of all), and each foreign key checks every row once in a join instead of one lookup
 * per row. A row that breaks a key rolls the whole load back. While PostgreSQL takes one table's rows, the next
 * chunk is generated, so both cores work.
 */
export async function copySubscribers(db: Kysely<Database>, count: number, pgUrl: string): Promise<number> {
  const [{ schema }] = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows;
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  await client.query(`set search_path = ${schema}, public`);
  const ctx = await subscriberSeedContext(db);
  const generated = subscriberSeedRows(ctx, count);
  let written = 0;
  let subscriberId = Number((await client.query(`select coalesce(max(subscriber_id), 0) as n from subscriber`)).rows[0].n);
  await client.query('begin');
  // Index builds sort in memory and use a second process where the machine has one.
  await client.query(`set local maintenance_work_mem = '512MB'`);
  const { rows: foreignKeys } = await client.query<{ tbl: string; name: string; def: string }>(
    `select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def
       from pg_constraint where contype = 'f' and conrelid = any($1::regclass[])`,
    [TABLES],
  );
  // Indexes that back no constraint (keys and unique constraints stay: other tables' foreign keys lean on them).
  const { rows: indexes } = await client.query<{ name: string; def: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i where i.indrelid = any($1::regclass[])
        and not exists (select from pg_constraint c where c.conindid = i.indexrelid)`,
    [TABLES],
  );
  for (const fk of foreignKeys) await client.query(`alter table ${fk.tbl} drop constraint ${fk.name}`);
  for (const index of indexes) await client.query(`drop index ${index.name}`);

  let tables: CopyText[] | undefined;
  /** The next chunk's text per table, the subscribers numbered on from the last. */
  const nextChunk = async () => {
    const first = generated.next();
    if (first.done) return undefined;
    tables ??= [
      new CopyText('sim_card', Object.keys(first.value.sim)),
      new CopyText('subscriber', ['subscriberId', ...Object.keys(first.value.subscriber)]),
      new CopyText('subscriber_msisdn', ['msisdn', 'subscriberId']),
      new CopyText('sponsor_imsi', ['imsi', 'sponsorId', 'sponsorName', 'pending', 'subscriberId']),
    ];
    const [sims, subscribers, msisdns, sponsors] = tables;
    for (let i = 0; i < CHUNK; i++) {
      const r: SubscriberSeedRow | undefined = i ? generated.next().value : first.value;
      if (!r) break;
      // A turn of the event loop now and then, so the socket sends the chunk being copied meanwhile.
      if (i % 2000 === 1999) await new Promise((resolve) => setImmediate(resolve));
      const id = ++subscriberId;
      sims.add(r.sim);
      subscribers.add({ subscriberId: id, ...r.subscriber });
      for (const msisdn of r.msisdns) msisdns.add({ msisdn, subscriberId: id });
      for (const s of r.sponsorImsis) sponsors.add({ ...s, subscriberId: id });
    }
    written += sims.rows + subscribers.rows + msisdns.rows + sponsors.rows;
    for (const t of tables) t.rows = 0;
    return tables.map((t) => [t, t.take()] as const);
  };

  // The chunk after this one is generated while PostgreSQL takes this one.
  let chunk = await nextChunk();
  while (chunk) {
    const current = chunk;
    const copying = (async () => {
      for (const [table, pieces] of current) await copyInto(client, table, pieces);
    })();
    const [following] = await Promise.all([nextChunk(), copying]);
    chunk = following;
  }

  for (const index of indexes) await client.query(index.def);
  for (const fk of foreignKeys) await client.query(`alter table ${fk.tbl} add constraint ${fk.name} ${fk.def}`);
  await client.query(`select setval(pg_get_serial_sequence('subscriber', 'subscriber_id'), ${subscriberId})`);
  await client.query('commit');
  await client.end();
  return written;
}
