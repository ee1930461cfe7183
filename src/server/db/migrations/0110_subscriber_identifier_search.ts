import { sql, type Kysely } from 'kysely';

/**
 * IMSIs, ICCIDs and MSISDNs are searched by their beginning or their end (schema keyword `x-search: affix`):
 * btree indexes on the value and on its reverse serve both, where trigram indexes on digit strings matched
 * thousands of candidates (every IMSI shares most of its trigrams) and cost more on every insert.
 *
 * The ICCID check digit is computed by a loop instead of a set-returning subquery: the same rule, about twice as
 * fast on bulk loads.
 */
const AFFIX_INDEXES = [
  ['subscriber', 'imsi'],
  ['subscriber', 'iccid'],
  ['sponsor_imsi', 'imsi'],
  ['subscriber_msisdn', 'msisdn'],
] as const;

export async function up(db: Kysely<any>) {
  await sql`drop index if exists subscriber_imsi_trgm_idx`.execute(db);
  await sql`drop index if exists subscriber_iccid_trgm_idx`.execute(db);
  for (const [table, column] of AFFIX_INDEXES) {
    await sql`create index ${sql.id(`${table}_${column}_prefix_idx`)} on ${sql.id(table)} (${sql.id(column)} text_pattern_ops)`.execute(db);
    await sql`create index ${sql.id(`${table}_${column}_suffix_idx`)} on ${sql.id(table)} (reverse(${sql.id(column)}) text_pattern_ops)`.execute(db);
  }
  await sql`create or replace function iccid_valid(v text) returns boolean language plpgsql immutable strict parallel safe as $$
    declare
      total int := 0;
      digit int;
      n int := length(v);
    begin
      if v !~ '^[0-9]{18,22}$' then return false; end if;
      for i in 1..n loop
        digit := ascii(substr(v, i, 1)) - 48;
        -- Luhn: every second digit from the right, the check digit excluded, counts double (its digits summed).
        if (n - i) % 2 = 1 then
          digit := digit * 2;
          if digit > 9 then digit := digit - 9; end if;
        end if;
        total := total + digit;
      end loop;
      return total % 10 = 0;
    end
  $$`.execute(db);
}

export async function down(db: Kysely<any>) {
  for (const [table, column] of AFFIX_INDEXES) {
    await sql`drop index ${sql.id(`${table}_${column}_prefix_idx`)}`.execute(db);
    await sql`drop index ${sql.id(`${table}_${column}_suffix_idx`)}`.execute(db);
  }
  await sql`create index subscriber_imsi_trgm_idx on subscriber using gin (imsi gin_trgm_ops)`.execute(db);
  await sql`create index subscriber_iccid_trgm_idx on subscriber using gin (iccid gin_trgm_ops)`.execute(db);
}
