import { sql, type AliasedRawBuilder } from 'kysely';
import type { Database } from './types';

/**
 * `table as alias` for a table chosen at run time among several alike ones (the two zone tables, the two plan
 * tables…), typed by the columns `C` the query reads, which every candidate table has.
 */
export function tableAs<C, A extends string>(table: keyof Database, alias: A): AliasedRawBuilder<C, A> {
  return sql<C>`${sql.table(table)}`.as(alias);
}
