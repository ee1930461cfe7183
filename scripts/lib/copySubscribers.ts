/**
 * The bulk loader of the subscriber benchmark: demo subscribers with their SIM cards, MSISDNs and sponsor IMSIs,
 * written to PostgreSQL through COPY.
 */
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { subscriberSeedContext, subscriberSeedRows, type SubscriberSeedContext, type SubscriberSeedRow } from '@server/db/seedSubscribers';
import type { Database } from '../../src/server/db/types';
import { columnName as snake } from '@server/db/columnName';

/** Subscribers generated and copied at a time. */
const CHUNK = 50_000;

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
  /** A row's line: its values joined once (a string grown value by value cost Node twice as much, its pieces collected later). */
  add(row: Record<string, unknown>) {
    const values = new Array<string>(this.keys.length);
    for (let k = 0; k < this.keys.length; k++) values[k] = copyText(row[this.keys[k]]);
    this.parts.push(`${values.join('\t')}\n`);
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
 * The subscriber's references that a trigger checks instead of a foreign key (migration 0168), in its order: column,
 * referred table, its key, the constraint's name.
 */
const REFERENCES = [
  ['account_id', 'account', 'account_id', 'subscriber_account_id_fkey'],
  ['reseller_id', 'reseller', 'id', 'subscriber_reseller_id_fkey'],
  ['iccid', 'sim_card', 'iccid', 'subscriber_iccid_fkey'],
] as const;

/**
 * The user triggers that fire on inserts into the four tables, each with its work done once over all the loaded
 * subscribers (those numbered above `before`) in one statement. A trigger not named here stays enabled and fires as
 * on any insert; one named here that no longer exists fails the load.
 */
const SET_WISE: Record<string, { table: string; after: (client: pg.Client, before: number) => Promise<void> }> = {
  // Migration 0127: each reseller's subscriber count, raised by the subscribers inserted.
  subscriber_count_added: {
    table: 'subscriber',
    after: async (client, before) => {
      await client.query(
        `update reseller_standing st set subscriber_count = st.subscriber_count + n.count
           from (select reseller_id, count(*) as count from subscriber where subscriber_id > $1 group by reseller_id) n
          where st.reseller_id = n.reseller_id`,
        [before],
      );
    },
  },
  // Migration 0168: every subscriber's account, reseller and SIM card exist; a refusal is the foreign key's own error
  // (23503 with the constraint's name, the first broken in the trigger's order). The accounts and resellers referred
  // to are locked as a foreign key locks them (FOR KEY SHARE); the SIM cards need no lock, this transaction wrote them.
  subscriber_refers_added: {
    table: 'subscriber',
    after: async (client, before) => {
      for (const [column, table, key] of REFERENCES.slice(0, 2))
        await client.query(
          `select count(*) from (select from ${table} where ${key} in (select ${column} from subscriber where subscriber_id > $1) for key share) l`,
          [before],
        );
      const { rows } = await client.query<{ missing: string[] }>(
        `select array[${REFERENCES.map(([, , key], i) => `count(*) filter (where p${i}.${key} is null)`).join(', ')}]::text[] as missing
           from subscriber s ${REFERENCES.map(([column, table, key], i) => `left join ${table} p${i} on p${i}.${key} = s.${column}`).join(' ')}
          where s.subscriber_id > $1`,
        [before],
      );
      const broken = rows[0].missing.findIndex((n) => Number(n) > 0);
      if (broken < 0) return;
      const [, table, , constraint] = REFERENCES[broken];
      throw Object.assign(new Error(`insert or update on table "subscriber" violates foreign key constraint "${constraint}"`), {
        code: '23503',
        constraint,
        detail: `${rows[0].missing[broken]} of the rows refer to none in table "${table}".`,
      });
    },
  },
};

/** Seconds per phase of a load: the COPY of the rows; keys and indexes built; the triggers' work; the foreign keys and the commit. */
export interface LoadPhases {
  copy: number;
  indexes: number;
  triggers: number;
  foreignKeys: number;
}

export interface LoadOptions {
  /** Filled with where the time went. */
  phases?: Partial<LoadPhases>;
  /** The accounts, sponsors, plans and profiles the subscribers are spread over; read from the database when not given. */
  context?: SubscriberSeedContext;
}

/**
 * Loads `count` demo subscribers through COPY in one transaction; returns rows written. It loads the way pg_restore
 * does, and leaves the database as inserting the same rows would have:
 *
 * - The four tables' foreign keys, their indexes that back no constraint (the trigram index of names among them),
 *   and their keys and unique constraints on which no foreign key leans (a SIM card's ICCID, a subscriber's IMSI and
 *   ICCID, an MSISDN, a sponsor IMSI; the subscriber's id stays, other tables refer to it) are dropped for the load
 *   and made again at its end: each index is built once from sorted rows instead of growing row by row, and each
 *   foreign key checks every row once in a join instead of one lookup per row. A duplicate key or a broken
 *   reference fails the whole load.
 * - The user triggers that fire on inserts (`SET_WISE`: the resellers' subscriber counts, the subscribers'
 *   references) are disabled for the load and enabled again before the commit; what they do is done once at the
 *   end, one statement each, over all the loaded subscribers. Fired per COPY of 50,000 subscribers, they kept a
 *   transition table of its rows and joined it three times: about half of what PostgreSQL spent on the subscribers.
 *
 * Check constraints stay, checked as the rows come (the ICCID's Luhn digit among them). Subscribers take the
 * sequence's next ids, and the sequence is moved past them. The tables stay logged and everything is one
 * transaction: a failure rolls the whole load back, triggers, keys and indexes included. While PostgreSQL takes one
 * chunk's rows, the next chunk is generated, so both cores work.
 */
export async function copySubscribers(db: Kysely<Database>, count: number, pgUrl: string, options: LoadOptions = {}): Promise<number> {
  if (count <= 0) return 0;
  const [{ schema }] = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows;
  const generated = subscriberSeedRows(options.context ?? (await subscriberSeedContext(db)), count);
  let clock = performance.now();
  const lap = (phase: keyof LoadPhases) => {
    const now = performance.now();
    if (options.phases) options.phases[phase] = (options.phases[phase] ?? 0) + (now - clock) / 1000;
    clock = now;
  };
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(`set search_path = ${schema}, public`);
    await client.query('begin');
    // Index builds sort in memory and use a second process where the machine has one.
    await client.query(`set local maintenance_work_mem = '512MB'`);
    const { rows: foreignKeys } = await client.query<{ tbl: string; name: string; def: string }>(
      `select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def
         from pg_constraint where contype = 'f' and conrelid = any($1::regclass[])`,
      [TABLES],
    );
    const { rows: keys } = await client.query<{ tbl: string; name: string; def: string }>(
      `select k.conrelid::regclass::text as tbl, k.conname as name, pg_get_constraintdef(k.oid) as def
         from pg_constraint k where k.contype in ('p', 'u') and k.conrelid = any($1::regclass[])
          and not exists (select from pg_constraint f where f.contype = 'f' and f.conindid = k.conindid)`,
      [TABLES],
    );
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
         from pg_index i where i.indrelid = any($1::regclass[])
          and not exists (select from pg_constraint c where c.conindid = i.indexrelid)`,
      [TABLES],
    );
    for (const fk of foreignKeys) await client.query(`alter table ${fk.tbl} drop constraint ${fk.name}`);
    for (const key of keys) await client.query(`alter table ${key.tbl} drop constraint ${key.name}`);
    for (const index of indexes) await client.query(`drop index ${index.name}`);
    for (const [name, { table }] of Object.entries(SET_WISE)) await client.query(`alter table ${table} disable trigger ${name}`);
    // The tables are this transaction's alone now: the subscribers are numbered on from the sequence's last value,
    // which is moved past them at the end (and left as it was if the load fails).
    const sequence = (await client.query(`select pg_get_serial_sequence('subscriber', 'subscriber_id') as name`)).rows[0].name as string;
    const before = Number((await client.query(`select case when is_called then last_value else last_value - 1 end as id from ${sequence}`)).rows[0].id);
    let subscriberId = before;
    let written = 0;

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
    lap('copy');

    for (const key of keys) await client.query(`alter table ${key.tbl} add constraint ${key.name} ${key.def}`);
    for (const index of indexes) await client.query(index.def);
    lap('indexes');
    for (const [name, { table, after }] of Object.entries(SET_WISE)) {
      await after(client, before);
      await client.query(`alter table ${table} enable trigger ${name}`);
    }
    lap('triggers');
    for (const fk of foreignKeys) await client.query(`alter table ${fk.tbl} add constraint ${fk.name} ${fk.def}`);
    await client.query(`select setval($1, $2)`, [sequence, subscriberId]);
    await client.query('commit');
    lap('foreignKeys');
    return written;
  } catch (e) {
    await client.query('rollback').catch(() => undefined);
    throw e;
  } finally {
    await client.end();
  }
}
