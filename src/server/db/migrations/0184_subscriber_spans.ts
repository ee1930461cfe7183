import { sql, type Kysely } from 'kysely';

/**
 * Each subscriber's data over the last 2, 8, 32 and 367 UTC days (`usage_subscriber_span`, docs/dashboard.md, "Usage by
 * dimension": the largest subscribers of a range), so the Usage screen's first pages per subscriber find the few
 * subscribers that may be the largest of a range without adding up everyone's rollup rows.
 *
 * One row per subscriber with usage, one column per span: `w<S>` holds the bytes up and down of the subscriber's
 * records dated on or after the UTC day `as_of - S + 1` (`usage_span_state.as_of`, one row). Later days count too, so
 * the figure stays an upper bound of any range starting on or after that day however long ago `as_of` was moved:
 * moving it (`usage_span_roll`, once a UTC day when a read finds it behind) only makes the bound tighter, by taking
 * away the days that leave each span (read from `usage_subscriber_day`).
 *
 * Kept by statement triggers on `usage_record` like the rollups of migrations 0166 and 0178: each batch adds (or takes
 * away) its bytes per subscriber to the spans its records' days fall in, one upsert a subscriber. A batch reads
 * `as_of` with a share lock and the roll updates it first, so a batch never counts against one `as_of` while the roll
 * subtracts against the other.
 */
export const SPANS = [2, 8, 32, 367] as const;
const COLUMNS = SPANS.map((s) => `w${s}`).join(', ');

/** Per subscriber of the records `d` (subscriber_id, day, bytes), the bytes each span holds given `as_of` (the `st` row). */
const PER_SUBSCRIBER = `select d.subscriber_id, ${SPANS.map((s) => `coalesce(sum(d.bytes) filter (where d.day >= st.as_of - ${s - 1}), 0) as w${s}`).join(', ')}
  from d cross join st group by 1`;
const ADDED = `select n.subscriber_id, (n.at at time zone 'UTC')::date as day, n.bytes_up + n.bytes_down as bytes from new_rows n`;
const REMOVED = `select o.subscriber_id, (o.at at time zone 'UTC')::date as day, -(o.bytes_up + o.bytes_down) as bytes from old_rows o`;
/** Per event on `usage_record`: its trigger function, its transition tables and the signed records they hold. */
const EVENTS = {
  insert: { fn: 'usage_span_inserted', tables: 'new table as new_rows', rows: ADDED },
  delete: { fn: 'usage_span_deleted', tables: 'old table as old_rows', rows: REMOVED },
  update: { fn: 'usage_span_updated', tables: 'old table as old_rows new table as new_rows', rows: `${REMOVED} union all ${ADDED}` },
};

/** The spans from the per-subscriber days on or after each span's first day, for `as_of` as stored. Also used by the graphs benchmark after its bulk load. */
export async function buildSpans(db: Kysely<any>) {
  await sql`delete from usage_subscriber_span`.execute(db);
  await sql
    .raw(
      `insert into usage_subscriber_span (subscriber_id, ${COLUMNS})
    with st as (select as_of from usage_span_state),
    d as (select u.subscriber_id, (u.slot at time zone 'UTC')::date as day, u.bytes_up + u.bytes_down as bytes from usage_subscriber_day u
      where u.slot >= ((select as_of from st) - ${SPANS[SPANS.length - 1] - 1})::timestamp at time zone 'UTC')
    select * from (${PER_SUBSCRIBER}) k where k.w${SPANS[SPANS.length - 1]} <> 0`,
    )
    .execute(db);
}

export async function up(db: Kysely<any>) {
  await sql
    .raw(
      `create table usage_subscriber_span (
    subscriber_id integer primary key,
    ${SPANS.map((s) => `w${s} bigint not null default 0`).join(',\n    ')}
  )`,
    )
    .execute(db);
  // Read from the largest down; a subscriber without data in a span is left out of its index.
  for (const s of SPANS) await sql.raw(`create index usage_subscriber_span_w${s}_idx on usage_subscriber_span (w${s}) where w${s} > 0`).execute(db);
  await sql`create table usage_span_state (as_of date not null)`.execute(db);
  await sql`insert into usage_span_state (as_of) values ((now() at time zone 'UTC')::date)`.execute(db);
  for (const { fn, rows } of Object.values(EVENTS))
    await sql
      .raw(
        `create function ${fn}() returns trigger language plpgsql as $$
      begin
        with st as (select as_of from usage_span_state for share),
        d as (${rows}),
        k as (${PER_SUBSCRIBER})
        insert into usage_subscriber_span as u (subscriber_id, ${COLUMNS})
        select * from k where ${SPANS.map((s) => `k.w${s} <> 0`).join(' or ')} order by 1
        on conflict (subscriber_id) do update set ${SPANS.map((s) => `w${s} = u.w${s} + excluded.w${s}`).join(', ')};
        return null;
      end $$`,
      )
      .execute(db);
  // Moves `as_of` to `target`: each span loses the days that leave it, [as_of - S + 1, target - S + 1). The state row is
  // updated first, so batches in flight finish (their share lock) before the days are read, and later ones see the new day.
  await sql
    .raw(
      `create function usage_span_roll(target date) returns void language plpgsql as $$
    declare old date;
    begin
      select as_of into old from usage_span_state for update;
      if old >= target then return; end if;
      update usage_span_state set as_of = target;
      update usage_subscriber_span u set ${SPANS.map((s) => `w${s} = u.w${s} - g.w${s}`).join(', ')}
      from (select x.subscriber_id, ${SPANS.map(
        (s) => `coalesce(sum(x.bytes_up + x.bytes_down) filter (where x.slot < (target - ${s - 1})::timestamp at time zone 'UTC'
          and x.slot >= (old - ${s - 1})::timestamp at time zone 'UTC'), 0) as w${s}`,
      ).join(', ')}
        from usage_subscriber_day x
        where x.slot >= (old - ${SPANS[SPANS.length - 1] - 1})::timestamp at time zone 'UTC' and x.slot < (target - 1)::timestamp at time zone 'UTC'
        group by 1) g
      where u.subscriber_id = g.subscriber_id;
      delete from usage_subscriber_span u where u.w${SPANS[SPANS.length - 1]} = 0;
    end $$`,
    )
    .execute(db);
  for (const [event, { fn, tables }] of Object.entries(EVENTS))
    await sql
      .raw(`create trigger usage_record_span_${event} after ${event} on usage_record referencing ${tables} for each statement execute function ${fn}()`)
      .execute(db);
  await buildSpans(db);
}

export async function down(db: Kysely<any>) {
  for (const [event, { fn }] of Object.entries(EVENTS)) {
    await sql.raw(`drop trigger if exists usage_record_span_${event} on usage_record`).execute(db);
    await sql.raw(`drop function if exists ${fn}()`).execute(db);
  }
  await sql`drop function if exists usage_span_roll(date)`.execute(db);
  await sql`drop table if exists usage_subscriber_span, usage_span_state`.execute(db);
}
