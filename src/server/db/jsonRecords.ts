import { sql, type RawBuilder } from 'kysely';

/**
 * Rows sent to PostgreSQL as one JSON value and read back as the relation `v` with the given columns and types
 * (`jsonb_to_recordset`): one parameter for the lot instead of one per value, far less for the database to parse
 * and plan. Used in a `from`: `… from ${jsonRecords(rows, { subscriber_id: 'integer', before: 'jsonb' })}`. The
 * types are SQL written in the code, never input.
 */
export function jsonRecords(rows: readonly object[], columns: Readonly<Record<string, string>>): RawBuilder<unknown> {
  const types = Object.entries(columns).map(([name, type]) => sql`${sql.id(name)} ${sql.raw(type)}`);
  return sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(${sql.join(types, sql`, `)})`;
}

/** `rows` in slices of at most `size`, in order (one statement each). */
export function* slices<T>(rows: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}
