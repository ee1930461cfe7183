import { sql, type Expression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import {
  filterFields,
  isNumeric,
  searchComparison,
  uniqueFields,
  type EntitySchema,
  type NormalisedListRequest,
} from '@shared/schema';
import type { Page } from '@shared/wire';
import type { Principal } from '../http/principal';

type Row = Record<string, unknown>;
type AnyQuery = SelectQueryBuilder<any, any, any>;

/** Where a row is visible (the caller's reseller subtree and account), and the list options of the request. */
export interface Visibility {
  principal: Principal;
  /** Query parameters of the request, for `x-list.hiddenUnless`. */
  query?: Record<string, unknown>;
}

const T = 't';

function escapeLike(value: string) {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Generic SQL for one schema-described table. Every column name comes from the schema (never from a
 * request), and the CamelCasePlugin turns property names into snake_case columns.
 */
export class EntityRepository {
  private readonly key: string;
  private readonly table: string;
  private readonly joins: { alias: string; prop: string; table: string; on: string; column: string; key: string }[];

  constructor(private readonly db: Kysely<any>, private readonly schema: EntitySchema) {
    this.key = schema['x-entity'].key;
    this.table = schema['x-entity'].table;
    this.joins = Object.entries(schema.properties)
      .filter(([, p]) => p['x-join'])
      .map(([prop, p], i) => ({ alias: `j${i}`, prop, key: 'id', ...p['x-join']! }));
  }

  /** The SQL expression of a property: own column or joined one. */
  private ref(prop: string) {
    const join = this.joins.find((j) => j.prop === prop);
    return sql.ref(join ? `${join.alias}.${join.column}` : `${T}.${prop}`);
  }

  private base(db: Kysely<any> = this.db): AnyQuery {
    let q: AnyQuery = db.selectFrom(`${this.table} as ${T}`);
    for (const j of this.joins) q = q.leftJoin(`${j.table} as ${j.alias}`, `${j.alias}.${j.key}`, `${T}.${j.on}`);
    return q;
  }

  private selectAll(q: AnyQuery): AnyQuery {
    const own = Object.entries(this.schema.properties).filter(([, p]) => !p['x-join']).map(([name]) => sql.ref(`${T}.${name}`).as(name));
    const joined = this.joins.map((j) => this.ref(j.prop).as(j.prop));
    return q.select([...own, ...joined]);
  }

  /** Tenancy: the admin sees all; others their reseller subtree and, for account users, their account. */
  private visible(q: AnyQuery, v: Visibility): AnyQuery {
    const { principal } = v;
    const props = this.schema.properties;
    if (this.schema['x-entity'].scope === 'reseller' && !principal.isAdmin) {
      q = q.where(`${T}.resellerId`, 'in', (eb: ExpressionBuilder<any, any>) =>
        eb.selectFrom('reseller').select('id').where('path', 'like', `${escapeLike(principal.resellerPath)}%`));
      if (principal.accountId !== null && props.accountId) q = q.where(`${T}.accountId`, '=', principal.accountId);
    }
    return q;
  }

  /** Lists leave out rows flagged by `x-list.hiddenUnless` unless the request asks for them. */
  private listed(q: AnyQuery, v: Visibility): AnyQuery {
    const hidden = this.schema['x-list'].hiddenUnless;
    if (hidden && String(v.query?.[hidden.query]) !== 'true') q = q.where(`${T}.${hidden.field}`, '=', false);
    return this.visible(q, v);
  }

  private searched(q: AnyQuery, req: NormalisedListRequest): AnyQuery {
    if (!req.searchBy || !req.searchKey) return q;
    const key = req.searchKey;
    return q.where((eb: ExpressionBuilder<any, any>) => {
      const terms: Expression<SqlBool>[] = [];
      for (const field of filterFields(req.searchBy!)) {
        const cmp = searchComparison(this.schema.properties[field], key);
        if (cmp.kind === 'equals') terms.push(eb(this.ref(field), '=', cmp.value));
        if (cmp.kind === 'contains') terms.push(eb(this.ref(field), 'ilike', `%${escapeLike(cmp.value)}%`));
      }
      return terms.length ? eb.or(terms) : sql<SqlBool>`false`;
    });
  }

  /** Numeric columns come back as text from PostgreSQL; the wire carries JSON numbers. */
  private toWire(row: Row): Row {
    for (const [name, prop] of Object.entries(this.schema.properties)) {
      const value = row[name];
      if (isNumeric(prop) && typeof value === 'string') row[name] = Number(value);
      if (value === null) delete row[name];
    }
    return row;
  }

  async page(req: NormalisedListRequest, v: Visibility): Promise<Page<Row>> {
    const filtered = this.searched(this.listed(this.base(), v), req);
    const countRow = await filtered.select((eb: ExpressionBuilder<any, any>) => eb.fn.countAll().as('n')).executeTakeFirst();
    const total = Number(countRow?.n ?? 0);
    // Empty values sort last in both directions: a user sorting a column wants to see values first.
    const dir = req.sortDir === 'desc' ? sql`desc nulls last` : sql`asc nulls last`;
    const rows = await this.selectAll(filtered)
      .orderBy(sql`${this.ref(req.sortBy)} ${dir}`)
      .orderBy(sql.ref(`${T}.${this.key}`), req.sortDir)
      .limit(req.size)
      .offset(req.page * req.size)
      .execute();
    return {
      items: rows.map((r) => this.toWire(r as Row)),
      totalItemsCount: total,
      totalPageCount: Math.max(1, Math.ceil(total / req.size)),
      currentPage: req.page,
    };
  }

  /** Id and name pairs of every visible row, for selects. */
  async list(fields: string[], v: Visibility): Promise<Row[]> {
    const rows = await this.listed(this.base(), v)
      .select(fields.map((f) => this.ref(f).as(f)))
      .orderBy(this.ref(fields.includes('name') ? 'name' : this.key))
      .execute();
    return rows.map((r) => this.toWire(r as Row));
  }

  async get(id: number, v: Visibility, db: Kysely<any> = this.db): Promise<Row | undefined> {
    const row = await this.selectAll(this.visible(this.base(db), v)).where(`${T}.${this.key}`, '=', id).executeTakeFirst();
    return row ? this.toWire(row as Row) : undefined;
  }

  /** The unique fields whose value another row already holds (case-insensitive for text). */
  async duplicates(values: Row, exceptId: number | undefined, db: Kysely<any> = this.db): Promise<string[]> {
    const taken: string[] = [];
    for (const field of uniqueFields(this.schema)) {
      const value = values[field];
      if (value === undefined || value === null) continue;
      let q = db.selectFrom(this.table).select(this.key);
      q = typeof value === 'string' ? q.where(sql`lower(${sql.ref(field)})`, '=', value.toLowerCase()) : q.where(field, '=', value);
      if (exceptId !== undefined) q = q.where(this.key, '<>', exceptId);
      if (await q.executeTakeFirst()) taken.push(field);
    }
    return taken;
  }

  async insert(values: Row, db: Kysely<any> = this.db): Promise<number> {
    const row = await db.insertInto(this.table).values(values).returning(this.key).executeTakeFirstOrThrow();
    return Number(row[this.key]);
  }

  async update(id: number, values: Row, db: Kysely<any> = this.db): Promise<void> {
    if (Object.keys(values).length) await db.updateTable(this.table).set(values).where(this.key, '=', id).execute();
  }

  async remove(id: number, db: Kysely<any> = this.db): Promise<void> {
    await db.deleteFrom(this.table).where(this.key, '=', id).execute();
  }
}
