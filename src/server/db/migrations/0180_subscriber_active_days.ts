import { sql, type Kysely } from 'kysely';
import { buildSubscriberActivity, USAGE_EVENTS as BEFORE, USAGE_REMOVED as LAST_AT_REMOVED } from './0176_subscriber_activity';

/**
 * The map's active SIMs over a range ending in the past without reading the range's per-subscriber rollups
 * (docs/dashboard.md, "The map's countries"): `subscriber_activity` also keeps, per subscriber, the UTC days on which
 * it used data, as a bit string (`active_days`, bit 0 the day `first_day`, bit i the day `first_day + i`).
 *
 * - New records with bytes set their days' bits (the string grows at either end as needed), in the same upsert that
 *   moves `last_at` forward (migration 0176).
 * - Removed (or changed) records with bytes clear the bit of each of their days on which the subscriber has no record
 *   with bytes left (the records' index by subscriber and time), after migration 0176 has read `last_at` again or
 *   removed the row.
 *
 * A range's whole UTC days are then one test of the row's bits; only the parts of a UTC day at the range's two ends are
 * read from the per-subscriber rollups.
 */

const UTC_DAY = (at: string) => `(${at} at time zone 'UTC')::date`;

/** New records with bytes: `last_at` forward (never back), their days' bits set. */
const USAGE_ADDED = `
  insert into subscriber_activity as a (subscriber_id, reseller_id, account_id, country, last_at, first_day, active_days)
  select n.subscriber_id, s.reseller_id, s.account_id, coalesce(s.country, '')::text, graph_slot(max(n.at)),
    min(${UTC_DAY('n.at')}), day_bits(array_agg(distinct ${UTC_DAY('n.at')}))
  from new_rows n join subscriber s on s.subscriber_id = n.subscriber_id
  where n.bytes_up + n.bytes_down <> 0 group by n.subscriber_id, s.reseller_id, s.account_id, s.country order by 1
  on conflict (subscriber_id) do update set last_at = greatest(a.last_at, excluded.last_at),
    first_day = least(a.first_day, excluded.first_day),
    active_days = day_bits_or(a.first_day, a.active_days, excluded.first_day, excluded.active_days)
  where a.last_at < excluded.last_at
    or day_bits_or(a.first_day, a.active_days, excluded.first_day, excluded.active_days) is distinct from a.active_days;`;
/** Removed records with bytes: `last_at` read again when it may have gone (migration 0176), then the days left empty cleared. */
const USAGE_REMOVED = `${LAST_AT_REMOVED}
  update subscriber_activity a set active_days = day_bits_clear(a.first_day, a.active_days, c.days)
  from (select d.subscriber_id, array_agg(d.day) as days
    from (select distinct o.subscriber_id, ${UTC_DAY('o.at')} as day from old_rows o where o.bytes_up + o.bytes_down <> 0) d
    where not exists (select 1 from usage_record u where u.subscriber_id = d.subscriber_id
      and u.at >= d.day::timestamp at time zone 'UTC' and u.at < (d.day + 1)::timestamp at time zone 'UTC' and u.bytes_up + u.bytes_down <> 0)
    group by 1 order by 1) c
  where a.subscriber_id = c.subscriber_id;`;
const USAGE_EVENTS = {
  subscriber_activity_usage_inserted: USAGE_ADDED,
  subscriber_activity_usage_deleted: USAGE_REMOVED,
  subscriber_activity_usage_updated: `${USAGE_REMOVED} ${USAGE_ADDED}`,
};

async function defineUsageEvents(db: Kysely<any>, events: Record<string, string>) {
  for (const [name, body] of Object.entries(events))
    await sql`create or replace function ${sql.raw(name)}() returns trigger language plpgsql as $$
      begin
        ${sql.raw(body)}
        return null;
      end $$`.execute(db);
}

/**
 * Fills `first_day` and `active_days` of every row from the per-subscriber days with bytes (`usage_subscriber_day`),
 * one statement. Also used by the graphs benchmark after a bulk load.
 */
export async function buildActiveDays(db: Kysely<any>) {
  await sql`update subscriber_activity a set first_day = d.first_day, active_days = d.bits
    from (select subscriber_id, min(${sql.raw(UTC_DAY('slot'))}) as first_day, day_bits(array_agg(${sql.raw(UTC_DAY('slot'))})) as bits
      from usage_subscriber_day where bytes_up + bytes_down <> 0 group by 1) d
    where a.subscriber_id = d.subscriber_id`.execute(db);
}

/** Migration 0176's build of `subscriber_activity` and `active_day` with the day bits: for the graphs benchmark's bulk load. */
export async function buildSubscriberActivityWithDays(db: Kysely<any>) {
  await sql`alter table subscriber_activity alter column first_day drop not null, alter column active_days drop not null`.execute(db);
  await buildSubscriberActivity(db);
  await buildActiveDays(db);
  await sql`alter table subscriber_activity alter column first_day set not null, alter column active_days set not null`.execute(db);
}

export async function up(db: Kysely<any>) {
  // The bits of `days` from the first of them (any order, repeats allowed).
  await sql`create function day_bits(days date[]) returns bit varying language plpgsql immutable as $$
    declare
      first date;
      last date;
      d date;
      bits bit varying;
    begin
      if cardinality(days) = 1 then return B'1'; end if;
      foreach d in array days loop
        if first is null or d < first then first := d; end if;
        if last is null or d > last then last := d; end if;
      end loop;
      bits := repeat('0', last - first + 1)::bit varying;
      foreach d in array days loop
        bits := set_bit(bits, d - first, 1);
      end loop;
      return bits;
    end $$`.execute(db);
  // Two day strings (each with its first day) as one from the earlier first day, each day's bit set in either.
  await sql`create function day_bits_or(a_first date, a bit varying, b_first date, b bit varying) returns bit varying
    language plpgsql immutable as $$
    declare
      first date;
      last date;
    begin
      if a is null then return b; end if;
      -- One day within a (new records of a day the subscriber already used): one bit.
      if length(b) = 1 and b_first >= a_first and b_first - a_first < length(a) then
        return set_bit(a, b_first - a_first, get_bit(a, b_first - a_first) | get_bit(b, 0));
      end if;
      first := least(a_first, b_first);
      last := greatest(a_first + length(a), b_first + length(b));
      return (repeat('0', a_first - first) || a::text || repeat('0', last - a_first - length(a)))::bit varying
        | (repeat('0', b_first - first) || b::text || repeat('0', last - b_first - length(b)))::bit varying;
    end $$`.execute(db);
  // The string with the bits of `days` cleared (days outside it are left alone).
  await sql`create function day_bits_clear(first date, bits bit varying, days date[]) returns bit varying language plpgsql immutable as $$
    declare
      d date;
    begin
      foreach d in array days loop
        if d >= first and d - first < length(bits) then bits := set_bit(bits, d - first, 0); end if;
      end loop;
      return bits;
    end $$`.execute(db);

  await sql`alter table subscriber_activity add column first_day date, add column active_days bit varying`.execute(db);
  await buildActiveDays(db);
  // A row is written only by a record with bytes, which sets its day.
  await sql`update subscriber_activity set first_day = ${sql.raw(UTC_DAY('last_at'))}, active_days = B'1' where active_days is null`.execute(db);
  await sql`alter table subscriber_activity alter column first_day set not null, alter column active_days set not null`.execute(db);
  await defineUsageEvents(db, USAGE_EVENTS);
}

export async function down(db: Kysely<any>) {
  await defineUsageEvents(db, BEFORE);
  await sql`alter table subscriber_activity drop column if exists first_day, drop column if exists active_days`.execute(db);
  await sql`drop function if exists day_bits(date[]), day_bits_or(date, bit varying, date, bit varying), day_bits_clear(date, bit varying, date[])`.execute(db);
}
