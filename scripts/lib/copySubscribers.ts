/**
 * The bulk loader of the subscriber benchmark: demo subscribers with their SIM cards, MSISDNs and sponsor IMSIs,
 * written to PostgreSQL through COPY.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { subscriberSeedContext, subscriberSeedRows, type SubscriberSeedRow } from '@server/db/seedSubscribers';
import type { Database } from '../../src/server/db/types';

/** Subscribers generated and copied at a time. */
const CHUNK = 50_000;

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A value in COPY's text format. */
function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  return String(value).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** COPY's text lines, in pieces of about a thousand rows (a stream chunk per row costs more than the row). */
function* copyLines(keys: string[], rows: Record<string, unknown>[]) {
  for (let i = 0; i < rows.length; i += 1000) {
    yield rows
      .slice(i, i + 1000)
      .map((row) => `${keys.map((k) => copyText(row[k])).join('\t')}\n`)
      .join('');
  }
}

async function copyInto(client: pg.Client, table: string, rows: Record<string, unknown>[]) {
  if (!rows.length) return;
  const keys = Object.keys(rows[0]);
  await pipeline(Readable.from(copyLines(keys, rows)), client.query(copyFrom(`copy ${table} (${keys.map(snake).join(', ')}) from stdin`)));
}

const TABLES = ['sim_card', 'subscriber', 'subscriber_msisdn', 'sponsor_imsi'];

/**
 * Loads `count` demo subscribers through COPY in one transaction; returns rows written. As pg_restore does, the
 * foreign keys of the four tables are dropped for the load and added back at its end, which checks every row
 * once in a single join instead of one lookup per row; a row that breaks one rolls the whole load back.
 */
export async function copySubscribers(db: Kysely<Database>, count: number, pgUrl: string): Promise<number> {
  const [{ schema }] = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows;
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  await client.query(`set search_path = ${schema}, public`);
  const ctx = await subscriberSeedContext(db);
  const generated = subscriberSeedRows(ctx, count);
  let written = 0;
  let subscriberId = 0;
  await client.query('begin');
  const { rows: foreignKeys } = await client.query<{ tbl: string; name: string; def: string }>(
    `select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def
       from pg_constraint where contype = 'f' and conrelid = any($1::regclass[])`,
    [TABLES],
  );
  for (const fk of foreignKeys) await client.query(`alter table ${fk.tbl} drop constraint ${fk.name}`);
  for (let start = 0; start < count; start += CHUNK) {
    const rows: SubscriberSeedRow[] = [];
    while (rows.length < CHUNK) {
      const next = generated.next();
      if (next.done) break;
      rows.push(next.value);
    }
    const ids = rows.map(() => ++subscriberId);
    await copyInto(
      client,
      'sim_card',
      rows.map((r) => r.sim),
    );
    await copyInto(
      client,
      'subscriber',
      rows.map((r, i) => ({ subscriberId: ids[i], ...r.subscriber })),
    );
    const msisdns = rows.flatMap((r, i) => r.msisdns.map((msisdn) => ({ msisdn, subscriberId: ids[i] })));
    const sponsors = rows.flatMap((r, i) => r.sponsorImsis.map((s) => ({ ...s, subscriberId: ids[i] })));
    await copyInto(client, 'subscriber_msisdn', msisdns);
    await copyInto(client, 'sponsor_imsi', sponsors);
    written += rows.length * 2 + msisdns.length + sponsors.length;
  }
  for (const fk of foreignKeys) await client.query(`alter table ${fk.tbl} add constraint ${fk.name} ${fk.def}`);
  await client.query(`select setval(pg_get_serial_sequence('subscriber', 'subscriber_id'), ${subscriberId})`);
  await client.query('commit');
  await client.end();
  return written;
}
