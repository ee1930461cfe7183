import { sql, type Expression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import {
  filterFields,
  isNumeric,
  propertyType,
  searchComparison,
  uniqueRules,
  type EntitySchema,
  type NormalisedListRequest,
  type UniqueRule,
} from '@shared/schema';
import { countryCodesMatching } from '@shared/countries';
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
 * request), and the CamelCasePlugin turns property names (or their `x-column`) into snake_case columns.
 */
export class EntityRepository {
  private readonly key: string;
  private readonly keyColumn: string;
  private readonly table: string;
  private readonly joins: { alias: string; prop: string; table: string; on: string; column: string; key: string }[];

  constructor(private readonly db: Kysely<any>, private readonly schema: EntitySchema) {
    this.key = schema['x-entity'].key;
    this.keyColumn = this.column(this.key);
    this.table = schema['x-entity'].table;
    this.joins = Object.entries(schema.properties)
      .filter(([, p]) => p['x-join'])
      .map(([prop, p], i) => ({ alias: `j${i}`, prop, key: 'id', ...p['x-join']! }));
  }

  private column(prop: string): string {
    return this.schema.properties[prop]?.['x-column'] ?? prop;
  }

  /** The SQL expression of a property: own column or joined one. */
  private ref(prop: string) {
    const join = this.joins.find((j) => j.prop === prop);
    return sql.ref(join ? `${join.alias}.${join.column}` : `${T}.${this.column(prop)}`);
  }

  /** Property values to column values: renamed columns, and JSON text for object and array properties. */
  private toColumns(values: Row): Row {
    const out: Row = {};
    for (const [name, value] of Object.entries(values)) {
      const prop = this.schema.properties[name];
      const structured = prop && ['object', 'array'].includes(propertyType(prop));
      out[prop ? this.column(name) : name] = structured && value !== null ? JSON.stringify(value) : value;
    }
    return out;
  }

  private base(db: Kysely<any> = this.db): AnyQuery {
    let q: AnyQuery = db.selectFrom(`${this.table} as ${T}`);
    for (const j of this.joins) q = q.leftJoin(`${j.table} as ${j.alias}`, `${j.alias}.${j.key}`, `${T}.${j.on}`);
    return q;
  }

  private selectAll(q: AnyQuery): AnyQuery {
    const own = Object.entries(this.schema.properties).filter(([, p]) => !p['x-join'] && !p.writeOnly && !p['x-apart']).map(([name]) => this.ref(name).as(name));
    const joined = this.joins.map((j) => this.ref(j.prop).as(j.prop));
    return q.select([...own, ...joined]);
  }

  /** Tenancy: the admin sees all; others their reseller subtree and, for account users, their account. */
  private visible(q: AnyQuery, v: Visibility): AnyQuery {
    const { principal } = v;
    const props = this.schema.properties;
    if (this.schema['x-entity'].scope === 'reseller' && !principal.isAdmin) {
      q = q.where(this.ref('resellerId'), 'in', (eb: ExpressionBuilder<any, any>) =>
        eb.selectFrom('reseller').select('id').where('path', 'like', `${escapeLike(principal.resellerPath)}%`));
      if (principal.accountId !== null && props.accountId) q = q.where(this.ref('accountId'), '=', principal.accountId);
    }
    return q;
  }

  /** Lists leave out rows flagged by `x-list.hiddenUnless` unless the request asks for them. */
  private listed(q: AnyQuery, v: Visibility): AnyQuery {
    const hidden = this.schema['x-list'].hiddenUnless;
    if (hidden && String(v.query?.[hidden.query]) !== 'true') q = q.where(this.ref(hidden.field), '=', false);
    return this.visible(q, v);
  }

  private searched(q: AnyQuery, req: NormalisedListRequest): AnyQuery {
    if (!req.searchBy || !req.searchKey) return q;
    const key = req.searchKey;
    return q.where((eb: ExpressionBuilder<any, any>) => {
      const terms: Expression<SqlBool>[] = [];
      const child = req.searchBy!.child;
      if (child) {
        terms.push(eb.exists(eb.selectFrom(`${child.table} as c`).select(sql.lit(1).as('one'))
          .where(sql.ref(`c.${child.on}`), '=', this.ref(this.key))
          .where(sql.ref(`c.${child.column}`), 'ilike', `%${escapeLike(key.toLowerCase())}%`)));
      }
      for (const field of filterFields(req.searchBy!)) {
        if (this.schema.properties[field]['x-format'] === 'countries') {
          // A list of country codes (JSON text): the key names countries by code or by name in any language.
          for (const code of countryCodesMatching(key)) terms.push(eb(this.ref(field), 'like', `%"${code}"%`));
          continue;
        }
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
      if (['object', 'array'].includes(propertyType(prop)) && typeof value === 'string') row[name] = JSON.parse(value);
      if (value === null) delete row[name];
    }
    return row;
  }

  /** Every visible row the search matches, in the requested order (the key breaks ties, so the order is total). */
  private sorted(req: NormalisedListRequest, v: Visibility): AnyQuery {
    // Empty values sort last in both directions: a user sorting a column wants to see values first.
    const dir = req.sortDir === 'desc' ? sql`desc nulls last` : sql`asc nulls last`;
    return this.selectAll(this.searched(this.listed(this.base(), v), req))
      .orderBy(sql`${this.ref(req.sortBy)} ${dir}`)
      .orderBy(this.ref(this.key), req.sortDir);
  }

  /** The properties a download writes, in schema order: every readable one, joined ones included. */
  exportFields(): string[] {
    return Object.entries(this.schema.properties).filter(([, p]) => !p.writeOnly && !p['x-apart']).map(([name]) => name);
  }

  /** The query of a download: the list's search and sort without paging; values stay as stored (exact decimals). */
  exportQuery(req: NormalisedListRequest, v: Visibility): AnyQuery {
    return this.sorted(req, v);
  }

  async page(req: NormalisedListRequest, v: Visibility): Promise<Page<Row>> {
    const filtered = this.searched(this.listed(this.base(), v), req);
    const countRow = await filtered.select((eb: ExpressionBuilder<any, any>) => eb.fn.countAll().as('n')).executeTakeFirst();
    const total = Number(countRow?.n ?? 0);
    const rows = await this.sorted(req, v)
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
    const row = await this.selectAll(this.visible(this.base(db), v)).where(this.ref(this.key), '=', id).executeTakeFirst();
    return row ? this.toWire(row as Row) : undefined;
  }

  /**
   * The unique rules another row already satisfies with these values (text compared ignoring case, within
   * the rule's scope, e.g. role names per reseller). `values` is the whole row as it would be stored.
   */
  async duplicates(values: Row, exceptId: number | undefined, db: Kysely<any> = this.db): Promise<UniqueRule[]> {
    const taken: UniqueRule[] = [];
    for (const rule of uniqueRules(this.schema)) {
      const value = values[rule.field];
      if (value === undefined || value === null) continue;
      let q = db.selectFrom(`${this.table} as ${T}`).select(this.ref(this.key).as('k'));
      q = typeof value === 'string' ? q.where(sql`lower(${this.ref(rule.field)})`, '=', value.toLowerCase()) : q.where(this.ref(rule.field), '=', value);
      for (const scope of rule.scope) q = q.where(this.ref(scope), '=', values[scope] ?? null);
      if (exceptId !== undefined) q = q.where(this.ref(this.key), '<>', exceptId);
      if (await q.executeTakeFirst()) taken.push(rule);
    }
    return taken;
  }

  async insert(values: Row, db: Kysely<any> = this.db): Promise<number> {
    const row = await db.insertInto(this.table).values(this.toColumns(values)).returning(this.keyColumn).executeTakeFirstOrThrow();
    return Number(row[this.keyColumn]);
  }

  async update(id: number, values: Row, db: Kysely<any> = this.db): Promise<void> {
    if (Object.keys(values).length) await db.updateTable(this.table).set(this.toColumns(values)).where(this.keyColumn, '=', id).execute();
  }

  async remove(id: number, db: Kysely<any> = this.db): Promise<void> {
    await db.deleteFrom(this.table).where(this.keyColumn, '=', id).execute();
  }
}
