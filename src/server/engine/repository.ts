import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import {
  childComparison,
  filterFields,
  isNumeric,
  isVersioned,
  ListRequestError,
  propertyType,
  searchComparison,
  uniqueRules,
  type SearchComparison,
  type EntitySchema,
  type NormalisedListRequest,
  type PropertySchema,
  type UniqueRule,
  VERSION,
} from '@shared/schema';
import { countryCodesMatching } from '@shared/countries';
import { CUSTOM_KEY_PATTERN, CUSTOM_PROPERTY, customComparison, customKeyOf, type CustomFieldDefinition } from '@shared/customFields';
import { pageAnswer, type Page } from '@shared/wire';
import type { Principal } from '../http/principal';
import { escapeLike, resellerVisibility, subtreePattern } from '../http/tenancy';
import { arrayQueriesOf, type ArrayQueries } from '../db';
import { EXACT_COUNT_LIMIT, EstimatedTotals } from './estimates';

type Row = Record<string, unknown>;
/**
 * The database as schema-driven code reaches it: tables and columns named by schemas/ at run time, which no static
 * type can describe. Everything else uses `Kysely<Database>`.
 */
export type SchemaDrivenDb = Kysely<any>;
type AnyQuery = SelectQueryBuilder<any, any, any>;

/** Where a row is visible (the caller's reseller subtree and account), and the list options of the request. */
export interface Visibility {
  principal: Principal;
  /** Query parameters of the request, for `x-list.hiddenUnless`. */
  query?: Record<string, unknown>;
  /** Lists only: properties the rows must equal (`listEquality`: a parent's children, `?reseller_id=`), within what the caller sees. */
  where?: Record<string, unknown>;
}

const T = 't';
/** The column a counted page's rows carry their search's total in, taken off before they are answered. */
const COUNTED = 'countedMatches';

export { EXACT_COUNT_LIMIT, plannedRows } from './estimates';

/** Kept statements per repository at most (see `EntityRepository.statement`); shapes beyond are built each time. */
const MAX_KEPT_STATEMENTS = 2000;

/** The names of prepared statements, one per distinct SQL text, shared by every connection. */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    // Past the bound, unnamed: parsed on each run, as through Kysely.
    if (statementNames.size >= 10 * MAX_KEPT_STATEMENTS) return '';
    name = `list_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * A page's rows: as objects (`toWire`), or as the JSON text PostgreSQL wrote for them (see `jsonStatement`) and
 * whether that text is what the route's response schema would write.
 */
type Items = Row[] | { json: string; exact: boolean };

/** A statement's rows, how many, and a counted page's total (its first row's `COUNTED` column). */
interface Answered {
  items: Items;
  length: number;
  counted?: unknown;
}

/** SQL text of a string literal. */
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * How PostgreSQL writes the value of column `c`, of SQL type `type`, as the wire's JSON for a property `prop`: `json`,
 * null when the value is, and `exact` when that text is not always what the route's response schema
 * (fast-json-stringify) writes for the value as the rows as objects carry it (`toWire`): beyond it, the rows are
 * parsed and written again (see `parsed`). Undefined for the types it has no writing for.
 */
function jsonValue(prop: PropertySchema, type: string, c: string): { json: string; exact?: string } | undefined {
  const types = Array.isArray(prop.type) ? prop.type.filter((t) => t !== ('null' as typeof t)) : [prop.type];
  const kind = types.length === 1 ? types[0] : undefined;
  if (['smallint', 'integer', 'bigint'].includes(type) && (kind === 'integer' || kind === 'number'))
    // JavaScript's numbers hold every integer up to 2^53 exactly.
    return { json: `${c}::text`, exact: type === 'bigint' ? `${c} between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}` : undefined };
  if (type === 'numeric' && kind === 'number')
    // As JavaScript writes a number read from its text: no trailing zeros, and up to 15 digits as they are (more may
    // come back rounded), without an exponent (it writes one below 1e-6). Exact: at most 15 digits by the value's
    // scale, cents up to 1e13 (NaN and infinities are not).
    return {
      json: `to_json(trim_scale(${c}))::text`,
      exact: `abs(${c}) < 1e13 and scale(${c}) <= 2 or abs(${c}) < 1e9 and scale(${c}) <= 6`,
    };
  if (type === 'boolean' && kind === 'boolean') return { json: `${c}::text` };
  if (['text', 'character varying', 'character'].includes(type) && kind === 'string') return { json: `to_json(${c})::text` };
  if (type === 'timestamp with time zone' && kind === 'string' && prop.format === 'date-time') {
    // ISO text in UTC to the millisecond (`toISOString`, the microseconds cut off as pg's parser does). Years
    // `toISOString` writes otherwise (with a sign and six digits) come as milliseconds since 1970 for `parsed`.
    const fourDigits = `${c} >= '0001-01-01 00:00:00+00' and ${c} < '10000-01-01 00:00:00+00'`;
    const iso = `'"' || to_char(${c} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'`;
    return { json: `case when ${fourDigits} then ${iso} else floor(extract(epoch from ${c}) * 1000)::text end`, exact: fourDigits };
  }
  if (['jsonb', 'json', 'text'].includes(type) && (kind === 'object' || kind === 'array'))
    // The structure's own text: PostgreSQL writes jsonb with spaces, and it may hold what the schema leaves out.
    return { json: `${c}::text`, exact: `${type === 'json' ? `${c}::text` : c} in ('{}', '[]')` };
  return undefined;
}

/**
 * The page envelope (`pageAnswer`) as JSON text around `items`, the JSON text of its rows, as the route's response
 * schema (`pageSchema`) writes it: the same properties in the same order.
 */
function pageJson(items: string, total: number, page: number, size: number, estimate: boolean): string {
  const empty = '{"items":[]';
  return `{"items":${items}${JSON.stringify(pageAnswer([], total, page, size, estimate)).slice(empty.length)}`;
}

/** What a request brings to a list's statement: its values, read again for each run of a kept statement. */
interface PageArgs {
  req: NormalisedListRequest;
  v: Visibility;
  offset: number;
  /** The sort value of the row a page comes after (`page.after`; see `afterValue`). */
  afterValue?: unknown;
}

/** A parameter of a kept statement: read from each request that runs it (see `EntityRepository.statement`). */
class Arg {
  constructor(readonly read: (a: PageArgs) => unknown) {}
}

/**
 * The value of a search comparison that goes into the SQL, made by `make` from the comparison: by default the one
 * at hand; a kept statement makes it from each request's own comparison instead.
 */
type ComparisonValue = (make: (cmp: SearchComparison & { value: string | number }) => unknown) => unknown;

/** The SQL of one search comparison on a column (see `searchComparison`); undefined when it can match nothing. */
export function searchMatch(
  eb: ExpressionBuilder<any, any>,
  column: Expression<unknown>,
  cmp: SearchComparison,
  value: ComparisonValue = (make) => make(cmp as SearchComparison & { value: string | number }),
): Expression<SqlBool> | undefined {
  if (cmp.kind === 'equals')
    return eb(
      column,
      '=',
      value((c) => c.value),
    );
  if (cmp.kind === 'contains')
    return eb(
      column,
      'ilike',
      value((c) => `%${escapeLike(String(c.value))}%`),
    );
  if (cmp.kind === 'affix') {
    const reversed = (c: { value: string | number }) => [...String(c.value)].reverse().join('');
    return eb.or([
      eb(
        column,
        'like',
        value((c) => `${escapeLike(String(c.value))}%`),
      ),
      eb(
        eb.fn('reverse', [column]),
        'like',
        value((c) => `${escapeLike(reversed(c))}%`),
      ),
    ]);
  }
  return undefined;
}

/**
 * The SQL of a custom field's search (see `customComparison`): equality as containment (`custom @> {"key": value}`),
 * which the column's GIN index serves; parts of days and text on the value as text.
 */
function customMatch(eb: ExpressionBuilder<any, any>, column: Expression<unknown>, def: CustomFieldDefinition, key: string): Expression<SqlBool> | undefined {
  const cmp = customComparison(def, key);
  const text = sql<string>`${column} ->> ${def.key}`;
  // The GIN index holds only rows with values (migration 0125): its condition, stated, lets the planner use it.
  if (cmp.kind === 'equals') return sql<SqlBool>`${column} <> '{}'::jsonb and ${column} @> ${JSON.stringify({ [def.key]: cmp.value })}::jsonb`;
  if (cmp.kind === 'prefix') return eb(text, 'like', `${escapeLike(cmp.value)}%`);
  if (cmp.kind === 'contains') return eb(text, 'ilike', `%${escapeLike(cmp.value)}%`);
  return undefined;
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
  /** Whether the rows carry a version (every entity the engine updates; see `update`). */
  private readonly versioned: boolean;
  /** Property names, and those the wire carries as numbers or as JSON structures (see `toWire`). */
  private readonly names: string[];
  private readonly numeric: string[];
  private readonly structured: string[];
  /**
   * Estimated totals, by their search (the caller's tenancy included; see `estimateKey`), kept a short while: turning
   * the pages of a big list, or many users opening it, does not scan EXACT_COUNT_LIMIT rows each time for a figure
   * shown as "about N" anyway.
   */
  private readonly estimates = new EstimatedTotals();
  /**
   * Where `page` and `list` read: the read replicas when given (`Db.read`), so a list may trail a write by the
   * replicas' lag; everything else, a form's row after its save included, reads and writes the primary.
   */
  private readonly reads: SchemaDrivenDb;
  /** Runs the kept statements of `page` where the read database can (see `statement`); none on read replicas. */
  private readonly arrays: ArrayQueries | undefined;
  /** The columns `selectAll` answers, in its order, and whether each is a property (absent from a row when null). */
  private readonly selected: string[];
  /**
   * The statements of `page`, compiled once per shape of request (see `shapeOf`) with their parameters as `Arg`s:
   * a page costs no query building, and PostgreSQL parses each statement once per connection.
   */
  private readonly statements = new Map<string, { sql: string; parameters: readonly unknown[]; name: string }>();
  /** While a kept statement is built: values are taken as `Arg`s (see `bind`). Building is synchronous. */
  private recording = false;
  /**
   * Whether kept statements serve the lists: every column of `selected` has a JSON writing for its SQL type (see
   * `jsonValue`), the types asked of the database once (`columnTypes`). Else every statement is built per request.
   */
  private keeps?: Promise<boolean>;
  private columnTypes: string[] = [];
  /** The properties of `selected` whose JSON may carry a timestamp as milliseconds (see `jsonValue`). */
  private readonly instants: string[];

  constructor(
    private readonly db: SchemaDrivenDb,
    private readonly schema: EntitySchema,
    private readonly options: { exactCountLimit?: number; read?: SchemaDrivenDb } = {},
  ) {
    this.reads = options.read ?? db;
    this.key = schema['x-entity'].key;
    this.keyColumn = this.column(this.key);
    this.table = schema['x-entity'].table;
    this.versioned = isVersioned(schema);
    // Properties read through the same foreign key share one join (e.g. a reseller's figures, one row beside it).
    const aliases = new Map<string, string>();
    this.joins = Object.entries(schema.properties)
      .filter(([, p]) => p['x-join'])
      .map(([prop, p]) => {
        const join = { key: 'id', ...p['x-join']! };
        const id = JSON.stringify([join.table, join.on, join.key]);
        if (!aliases.has(id)) aliases.set(id, `j${aliases.size}`);
        return { alias: aliases.get(id)!, prop, ...join };
      });
    const props = Object.entries(schema.properties);
    this.names = props.map(([name]) => name);
    this.numeric = props.filter(([, p]) => isNumeric(p)).map(([name]) => name);
    this.structured = props.filter(([, p]) => ['object', 'array'].includes(propertyType(p))).map(([name]) => name);
    this.arrays = arrayQueriesOf(this.reads);
    this.selected = [...this.ownSelected().map(([name]) => name), ...this.joins.map((j) => j.prop), ...(this.versioned ? [VERSION] : [])];
    this.instants = this.selected.filter((name) => this.rowProperty(name).format === 'date-time');
  }

  /** The response schema's property of a column of `selected` (see `entityRowSchema`). */
  private rowProperty(name: string): PropertySchema {
    return name === VERSION ? { type: 'integer' } : this.schema.properties[name];
  }

  /** A request's value in a query: itself, or while a kept statement is built, an `Arg` reading it from each request. */
  private bind<V>(value: V, read: (a: PageArgs) => V): V {
    return this.recording ? (new Arg(read) as unknown as V) : value;
  }

  private column(prop: string): string {
    return this.schema.properties[prop]?.['x-column'] ?? prop;
  }

  /**
   * The SQL expression of a property: own column or joined one, or a custom field's value (`custom.<key>`) as jsonb,
   * which orders numbers as numbers and text as text.
   */
  private ref(prop: string): RawBuilder<unknown> {
    const customKey = customKeyOf(prop);
    // The key as a literal (a checked identifier, CUSTOM_KEY_PATTERN): the field's own index is on that expression.
    if (customKey !== undefined) {
      if (!new RegExp(CUSTOM_KEY_PATTERN).test(customKey)) throw new Error(`not a custom field key: ${customKey}`);
      return sql`${sql.ref(`${T}.${CUSTOM_PROPERTY}`)} -> ${sql.lit(customKey)}`;
    }
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

  /** The table with its joined properties (only those in `props` when given: fewer joins, quicker planning). */
  private base(db: SchemaDrivenDb = this.db, props?: ReadonlySet<string>): AnyQuery {
    let q: AnyQuery = db.selectFrom(`${this.table} as ${T}`);
    const joined = new Set<string>();
    for (const j of this.joins) {
      if ((props && !props.has(j.prop)) || joined.has(j.alias)) continue;
      joined.add(j.alias);
      q = q.leftJoin(`${j.table} as ${j.alias}`, `${j.alias}.${j.key}`, `${T}.${j.on}`);
    }
    return q;
  }

  /** The properties a list request filters or sorts on: the joins its count and its keys need. */
  private usedBy(req: NormalisedListRequest, v: Visibility): Set<string> {
    const used = new Set([req.sortBy, 'resellerId', 'accountId', ...Object.keys(v.where ?? {})]);
    const hidden = this.schema['x-list'].hiddenUnless;
    if (hidden) used.add(hidden.field);
    if (req.searchBy && req.searchKey) for (const field of filterFields(req.searchBy)) used.add(field);
    return used;
  }

  private ownSelected() {
    return Object.entries(this.schema.properties).filter(([, p]) => !p['x-join'] && !p.writeOnly && !p['x-apart']);
  }

  /**
   * Every readable column, in the order of `selected`. With `joinedFor` (the properties `q`'s joins were made for,
   * see `base`), a joined property whose join `q` lacks is read by a subquery on its key: for a page of a few rows,
   * quicker for PostgreSQL to plan than one more join.
   */
  private selectAll(q: AnyQuery, joinedFor?: ReadonlySet<string>): AnyQuery {
    const own = this.ownSelected().map(([name]) => this.ref(name).as(name));
    const aliases = joinedFor && new Set(this.joins.filter((j) => joinedFor.has(j.prop)).map((j) => j.alias));
    const joined = this.joins.map((j) =>
      !aliases || aliases.has(j.alias)
        ? this.ref(j.prop).as(j.prop)
        : sql`(select ${sql.ref(`${j.alias}.${j.column}`)} from ${sql.table(j.table)} as ${sql.id(j.alias)} where ${sql.ref(`${j.alias}.${j.key}`)} = ${sql.ref(`${T}.${j.on}`)})`.as(
            j.prop,
          ),
    );
    const version = this.versioned ? [sql.ref(`${T}.${VERSION}`).as(VERSION)] : [];
    return q.select([...own, ...joined, ...version]);
  }

  /**
   * Tenancy: the admin sees all; a reseller's users their reseller's subtree; an account user its own reseller's
   * rows (not its sub-resellers', which are other tenants to it) and, where rows belong to accounts, its account's.
   */
  private visible(q: AnyQuery, v: Visibility): AnyQuery {
    const { principal } = v;
    const props = this.schema.properties;
    if (this.schema['x-entity'].scope === 'tree') {
      // The resellers themselves, by the tree rule.
      const visible = resellerVisibility(principal, { id: `${T}.${this.keyColumn}`, path: `${T}.path` });
      return visible ? q.where(visible) : q;
    }
    if (this.schema['x-entity'].scope === 'reseller' && !principal.isAdmin && this.schema['x-entity'].inherited) {
      // Also the rows of the resellers above the caller (the provider's among them): their paths begin the caller's.
      const above = (eb: ExpressionBuilder<any, any>) =>
        eb
          .selectFrom('reseller')
          .select('id')
          .where(sql<boolean>`starts_with(${principal.resellerPath}, path)`);
      const own =
        principal.accountId !== null
          ? (eb: ExpressionBuilder<any, any>) => eb(this.ref('resellerId'), '=', principal.resellerId)
          : (eb: ExpressionBuilder<any, any>) =>
              eb(
                this.ref('resellerId'),
                'in',
                eb
                  .selectFrom('reseller')
                  .select('id')
                  .where('path', 'like', `${escapeLike(principal.resellerPath)}%`),
              );
      return q.where((eb: ExpressionBuilder<any, any>) => eb.or([own(eb), eb(this.ref('resellerId'), 'in', above(eb))]));
    }
    if (this.schema['x-entity'].scope === 'reseller' && !principal.isAdmin) {
      if (principal.accountId !== null) {
        q = q.where(
          this.ref('resellerId'),
          '=',
          this.bind(principal.resellerId, (a) => a.v.principal.resellerId),
        );
        if (props.accountId)
          q = q.where(
            this.ref('accountId'),
            '=',
            this.bind(principal.accountId, (a) => a.v.principal.accountId),
          );
      } else {
        const pattern = this.bind(subtreePattern(principal), (a) => subtreePattern(a.v.principal));
        q = q.where(this.ref('resellerId'), 'in', (eb: ExpressionBuilder<any, any>) => eb.selectFrom('reseller').select('id').where('path', 'like', pattern));
      }
    }
    return q;
  }

  /** Whether the request asks for the rows `x-list.hiddenUnless` leaves out (null when the list hides none). */
  private showsHidden(v: Visibility): boolean | null {
    const hidden = this.schema['x-list'].hiddenUnless;
    return hidden ? String(v.query?.[hidden.query]) === 'true' : null;
  }

  /** Lists leave out rows flagged by `x-list.hiddenUnless` unless the request asks for them. */
  private listed(q: AnyQuery, v: Visibility): AnyQuery {
    if (this.showsHidden(v) === false) q = q.where(this.ref(this.schema['x-list'].hiddenUnless!.field), '=', false);
    for (const [field, value] of Object.entries(v.where ?? {}))
      q = q.where(
        this.ref(field),
        '=',
        this.bind(value, (a) => a.v.where?.[field]),
      );
    return this.visible(q, v);
  }

  private searched(q: AnyQuery, req: NormalisedListRequest): AnyQuery {
    if (!req.searchBy || !req.searchKey) return q;
    const key = req.searchKey;
    return q.where((eb: ExpressionBuilder<any, any>) => {
      const terms: Expression<SqlBool>[] = [];
      const child = req.searchBy!.child;
      if (child) {
        // The owners of matching child rows, found through the child table's own indexes.
        const match = searchMatch(
          eb,
          sql.ref(`c.${child.column}`),
          childComparison(child, key),
          this.comparisonValue((k) => childComparison(child, k), key),
        );
        if (match)
          terms.push(
            eb(
              this.ref(this.key),
              'in',
              eb
                .selectFrom(`${child.table} as c`)
                .select(sql.ref(`c.${child.on}`).as('owner'))
                .where(match),
            ),
          );
      }
      const custom = req.searchBy!.custom;
      if (custom) {
        const match = customMatch(eb, sql.ref(`${T}.${CUSTOM_PROPERTY}`), custom, key);
        if (match) terms.push(match);
      }
      for (const field of filterFields(req.searchBy!)) {
        if (this.schema.properties[field]['x-format'] === 'countries') {
          // A list of country codes (JSON text): the key names countries by code or by name in any language.
          for (const code of countryCodesMatching(key)) terms.push(eb(this.ref(field), 'like', `%"${code}"%`));
          continue;
        }
        const prop = this.schema.properties[field];
        const match = searchMatch(
          eb,
          this.ref(field),
          searchComparison(prop, key),
          this.comparisonValue((k) => searchComparison(prop, k), key),
        );
        if (match) terms.push(match);
      }
      return terms.length ? eb.or(terms) : sql<SqlBool>`false`;
    });
  }

  /** A search value as `searchMatch` takes it: while a kept statement is built, made from each request's own key. */
  private comparisonValue(comparison: (key: string) => SearchComparison, key: string): ComparisonValue {
    type Valued = SearchComparison & { value: string | number };
    return (make) => this.bind(make(comparison(key) as Valued), (a) => make(comparison(a.req.searchKey!) as Valued));
  }

  /** Numeric columns come back as text from PostgreSQL; the wire carries JSON numbers. */
  private toWire(row: Row): Row {
    for (const name of this.numeric) if (typeof row[name] === 'string') row[name] = Number(row[name]);
    for (const name of this.structured) if (typeof row[name] === 'string') row[name] = JSON.parse(row[name] as string);
    for (const name of this.names) if (row[name] === null) delete row[name];
    return row;
  }

  /** The ORDER BY of a list: the requested field, then the key, so the order is total. */
  private ordered(
    q: AnyQuery,
    req: NormalisedListRequest,
    sortBy: Expression<unknown> = this.ref(req.sortBy),
    key: Expression<unknown> = this.ref(this.key),
  ): AnyQuery {
    // Empty values sort last in both directions: a user sorting a column wants to see values first. A column that
    // cannot be empty sorts plainly, so a descending list can walk its index backwards.
    const canBeEmpty = req.sortBy !== this.key && !(this.schema.required ?? []).includes(req.sortBy);
    const dir = sql.raw(`${req.sortDir}${canBeEmpty ? ' nulls last' : ''}`);
    return q.orderBy(sql`${sortBy} ${dir}`).orderBy(key, req.sortDir);
  }

  /** Every visible row the search matches, in the requested order. */
  private sorted(req: NormalisedListRequest, v: Visibility): AnyQuery {
    return this.ordered(this.selectAll(this.searched(this.listed(this.base(), v), req)), req);
  }

  /** The properties a download writes, in schema order: every readable one, joined ones included. */
  exportFields(): string[] {
    return Object.entries(this.schema.properties)
      .filter(([, p]) => !p.writeOnly && !p['x-apart'])
      .map(([name]) => name);
  }

  /** The query of a download: the list's search and sort without paging; values stay as stored (exact decimals). */
  exportQuery(req: NormalisedListRequest, v: Visibility): AnyQuery {
    return this.sorted(req, v);
  }

  /**
   * The number of matching rows: exact up to the limit (EXACT_COUNT_LIMIT unless set), else the planner's estimate
   * (never below the limit), kept a while (see `estimates`).
   */
  private async count(filtered: AnyQuery, cacheKey: string): Promise<{ total: number; estimate: boolean }> {
    const known = this.estimates.get(cacheKey);
    if (known !== undefined) return { total: known, estimate: true };
    const limit = this.countLimit();
    const exact = Number((await this.cappedCount(filtered).executeTakeFirst())?.n ?? 0);
    if (exact <= limit) return { total: exact, estimate: false };
    return { total: await this.estimate(filtered, cacheKey, exact), estimate: true };
  }

  /** The count of the matches of `filtered`, up to the count limit and one more. */
  private cappedCount(filtered: AnyQuery): AnyQuery {
    return this.reads
      .selectFrom(
        filtered
          .select(sql.lit(1).as('one'))
          .limit(this.countLimit() + 1)
          .as('c'),
      )
      .select((eb: ExpressionBuilder<any, any>) => eb.fn.countAll().as('n'));
  }

  /** The planner's estimate of a search known to match more than `atLeast` rows (never below that), kept a while. */
  private async estimate(filtered: AnyQuery, cacheKey: string, atLeast: number): Promise<number> {
    return this.estimates.estimate(cacheKey, atLeast, filtered.select(sql.lit(1).as('one')));
  }

  private countLimit() {
    return this.options.exactCountLimit ?? EXACT_COUNT_LIMIT;
  }

  /**
   * What an estimate is kept by: everything that decides which rows a list matches, as `listed` and `searched` read
   * it (the caller's tenancy, the rows hidden unless asked for, the search), never its order or page. Taken from the
   * request rather than from the compiled SQL, which cost a second compilation of the query on every page.
   */
  private estimateKey(req: NormalisedListRequest, v: Visibility) {
    const { principal } = v;
    const searched = req.searchBy && req.searchKey ? [req.searchBy.by, req.searchKey] : null;
    const tenancy = principal.isAdmin ? null : [principal.resellerPath, principal.accountId];
    return JSON.stringify([searched, tenancy, this.showsHidden(v), v.where ?? null]);
  }

  /**
   * The keys of a page among a counted few: every match (at most `cap` of them) found through the search's own
   * indexes, then sorted. Walking the order's index instead, which the planner may prefer when it misjudges how
   * many match, could pass most of a million rows first when the matches sit at one end of it, as a range of IMSIs
   * does. The inner query's LIMIT (or OFFSET 0) keeps it apart from the outer ORDER BY.
   */
  private fencedKeys(start: AnyQuery, req: NormalisedListRequest, cap?: number): AnyQuery {
    const found = start.select([this.ref(this.key).as('k'), this.ref(req.sortBy).as('s')]);
    const fenced = cap === undefined ? found.offset(0) : found.limit(cap);
    return this.ordered(this.reads.selectFrom(fenced.as('f')).select('f.k'), req, sql.ref('f.s'), sql.ref('f.k'));
  }

  /**
   * The sort value of the row whose key is `req.after` (keyset paging), which must be one the caller sees: by a kept
   * statement for a request of `shape`, else built for this request.
   */
  private async afterValue(req: NormalisedListRequest, v: Visibility, shape: string | undefined, args: PageArgs): Promise<unknown> {
    const lookup = () =>
      this.listed(this.base(this.reads, this.usedBy(req, v)), v)
        .select(this.ref(req.sortBy).as('v'))
        .where(
          this.ref(this.key),
          '=',
          this.bind(req.after, (a) => a.req.after),
        );
    const row =
      shape === undefined ? ((await lookup().executeTakeFirst()) as Row | undefined)?.v : (await this.statement('after', shape, args, lookup))[0]?.[0];
    if (row === undefined) throw new ListRequestError('page.after', 'exists', 'validation.page.after');
    return row;
  }

  /**
   * Keyset paging: the rows after the row whose key is `req.after` and whose sort value is `value` (see
   * `afterValue`), in the list's order (empty values last), as a condition an index can serve. A kept statement reads
   * both from each request; its SQL differs by whether the list is sorted by its key and whether the value is empty
   * (see `afterKind`).
   */
  private afterward(q: AnyQuery, req: NormalisedListRequest, value: unknown): AnyQuery {
    const op = req.sortDir === 'desc' ? '<' : '>';
    const col = this.ref(req.sortBy);
    const key = this.ref(this.key);
    const after = this.bind(req.after, (a) => a.req.after);
    return q.where((eb: ExpressionBuilder<any, any>) => {
      if (req.sortBy === this.key) return eb(key, op, after);
      if (value === null) return eb.and([eb(col, 'is', null), eb(key, op, after)]);
      const at = this.bind(value, (a) => a.afterValue);
      const later = eb.and([eb(col, `${op}=`, at), eb.or([eb(col, op, at), eb(key, op, after)])]);
      return eb.or([later, eb(col, 'is', null)]);
    });
  }

  /** What the SQL of a page after a row (`afterward`) depends on beyond the request's shape: '' when not paging after one. */
  private afterKind(req: NormalisedListRequest, value: unknown): string {
    if (req.after === undefined) return '';
    return req.sortBy === this.key ? ' after' : value === null ? ' after an empty value' : ' after a value';
  }

  /**
   * What decides the SQL of a page's statements beyond the schema: the order, the search and how each of its
   * comparisons matches, the caller's kind of tenancy, the rows hidden unless asked for and the properties the rows
   * must equal. Undefined where kept statements do not serve (see `statement`): on read replicas, for searches whose
   * SQL depends on the key's value (countries, custom fields) and for the tenancies of resellers themselves and of
   * rows inherited from above. A page after a row adds to it (see `afterKind`).
   */
  private shapeOf(req: NormalisedListRequest, v: Visibility): string | undefined {
    if (!this.arrays) return undefined;
    const { principal } = v;
    const entity = this.schema['x-entity'];
    if (entity.scope === 'tree' || (entity.scope === 'reseller' && entity.inherited && !principal.isAdmin)) return undefined;
    let search: unknown[] | null = null;
    if (req.searchBy && req.searchKey) {
      const by = req.searchBy;
      const key = req.searchKey;
      const fields = filterFields(by);
      if (by.custom || fields.some((f) => this.schema.properties[f]['x-format'] === 'countries')) return undefined;
      search = [
        JSON.stringify(by),
        by.child ? childComparison(by.child, key).kind : null,
        ...fields.map((f) => searchComparison(this.schema.properties[f], key).kind),
      ];
    }
    const tenancy = principal.isAdmin ? 'all' : principal.accountId !== null ? 'account' : 'subtree';
    return JSON.stringify([req.sortBy, req.sortDir, search, tenancy, this.showsHidden(v), Object.keys(v.where ?? {})]);
  }

  /**
   * Runs the statement `kind` of a page for a request of `shape`: built and compiled on its first use, its request
   * values left as `Arg`s, then kept; each run reads them from `args`. A statement of rows (`items`, its columns)
   * answers them as PostgreSQL writes them for the wire (see `jsonStatement`).
   */
  private async statement(kind: string, shape: string, args: PageArgs, build: () => AnyQuery, items?: readonly string[]): Promise<unknown[][]> {
    const id = `${kind} ${shape}`;
    let kept = this.statements.get(id);
    if (!kept) {
      this.recording = true;
      let compiled;
      try {
        compiled = build().compile();
      } finally {
        this.recording = false;
      }
      const text = items ? this.jsonStatement(compiled.sql, items) : compiled.sql;
      kept = { sql: text, parameters: compiled.parameters, name: statementName(text) };
      if (this.statements.size < MAX_KEPT_STATEMENTS) this.statements.set(id, kept);
    }
    const parameters = kept.parameters.map((p) => (p instanceof Arg ? p.read(args) : p));
    return this.arrays!.run(kept.sql, parameters, kept.name);
  }

  /** Whether kept statements serve the lists (see `keeps`), asked of the database on the first page. */
  private keepsStatements(): Promise<boolean> {
    this.keeps ??= this.writable().catch((e: unknown) => {
      this.keeps = undefined;
      throw e;
    });
    return this.keeps;
  }

  /** The SQL types of the columns of `selected` (`pg_typeof` over no row), and whether `jsonValue` writes each. */
  private async writable(): Promise<boolean> {
    const columns = this.selectAll(this.base(this.reads)).limit(0).as('x');
    const types = (await this.reads
      .selectFrom(sql`(select 1)`.as('one'))
      .leftJoin(columns, (join: any) => join.onTrue())
      .select(this.selected.map((name, i) => sql<string>`pg_typeof(${sql.ref(`x.${name}`)})::text`.as(`t${i}`)))
      .executeTakeFirstOrThrow()) as Record<string, string>;
    this.columnTypes = this.selected.map((_, i) => types[`t${i}`]);
    // concat_ws takes up to 100 arguments.
    return this.selected.length < 100 && this.selected.every((name, i) => jsonValue(this.rowProperty(name), this.columnTypes[i], 'c') !== undefined);
  }

  /**
   * A kept statement of a page's rows (`columns`, in order) wrapped so that PostgreSQL answers one row: the rows as
   * the wire's JSON array (each row's properties in the schema's order, as the route's response schema writes them,
   * empty ones left out), their number, whether every value is written exactly as that schema would (else see
   * `parsed`), and a counted page's total. The aggregate takes the rows in the order the statement answers them:
   * nothing else happens at its level (no join), which PostgreSQL's documentation of aggregates over an ordered
   * subquery asks for.
   */
  private jsonStatement(statement: string, columns: readonly string[]): string {
    const at = (name: string) => `p.c${columns.indexOf(name)}`;
    const values = [...Object.keys(this.schema.properties), VERSION]
      .filter((name) => this.selected.includes(name))
      .map((name) => ({ name, ...jsonValue(this.rowProperty(name), this.columnTypes[this.selected.indexOf(name)], at(name))! }));
    const row = `'{' || concat_ws(',', ${values.map((v) => `${literal(`${JSON.stringify(v.name)}:`)} || ${v.json}`).join(', ')}) || '}'`;
    const exact = values.flatMap((v) => (v.exact ? [`(${v.exact})`] : [])).join(' and ') || 'true';
    const counted = columns.includes(COUNTED) ? `max(${at(COUNTED)})` : 'null';
    const names = columns.map((_, i) => `c${i}`).join(', ');
    return `select '[' || coalesce(string_agg(${row}, ','), '') || ']', count(*), coalesce(bool_and(${exact}), true), ${counted} from (${statement}) as p(${names})`;
  }

  /** The rows of their JSON text (see `jsonStatement`) as `toWire` makes them: timestamps given as milliseconds as ISO text. */
  private parsed(json: string): Row[] {
    const rows = JSON.parse(json) as Row[];
    for (const row of rows) for (const name of this.instants) if (typeof row[name] === 'number') row[name] = new Date(row[name]).toISOString();
    return rows;
  }

  /** A page of the rows a list request asks for, as objects. */
  async page(req: NormalisedListRequest, v: Visibility): Promise<Page<Row>> {
    return (await this.answer(req, v, false)) as Page<Row>;
  }

  /**
   * A page as the wire carries it, for a route that answers `entityPageSchema` of this repository's schema: the JSON
   * text of the page when PostgreSQL wrote its rows exactly as that schema writes them (see `jsonStatement`), to be
   * sent as it is; else the page as objects, for the route's schema to write.
   */
  async pageBody(req: NormalisedListRequest, v: Visibility): Promise<Page<Row> | string> {
    return this.answer(req, v, true);
  }

  private async answer(req: NormalisedListRequest, v: Visibility, text: boolean): Promise<Page<Row> | string> {
    const offset = req.after === undefined ? req.page * req.size : 0;
    let shape = this.shapeOf(req, v);
    if (shape !== undefined && !(await this.keepsStatements())) shape = undefined;
    const args: PageArgs = { req, v, offset };
    // Each statement of rows through Kysely, or kept and run without it when the request's shape allows (see `shapeOf`).
    const run = async (kind: string, build: () => AnyQuery, columns: readonly string[]): Promise<Answered> => {
      if (shape !== undefined) {
        const [[json, n, exact, counted]] = await this.statement(kind, shape, args, build, columns);
        return { items: { json: json as string, exact: exact as boolean }, length: Number(n), counted };
      }
      const rows = (await build().execute()) as Row[];
      const counted = rows[0]?.[COUNTED];
      for (const row of rows) delete row[COUNTED];
      return { items: rows.map((r) => this.toWire(r)), length: rows.length, counted };
    };
    let built: AnyQuery | undefined;
    // The rows the caller may see that the search matches, read from `q` (the table and some or all of its joins).
    const searchedIn = (q: AnyQuery) => this.searched(this.listed(q, v), req);
    const filtered = () => {
      const q = () => searchedIn(this.base(this.reads, this.usedBy(req, v)));
      return this.recording ? q() : (built ??= q());
    };
    // Those after the row of `page.after`, when the request pages after one (its value is read before the page).
    const pastRow = (q: AnyQuery) => (req.after === undefined ? q : this.afterward(q, req, args.afterValue));
    const size = () => this.bind(req.size, (a) => a.req.size);
    const from = () => this.bind(offset, (a) => a.offset);
    // The JSON text PostgreSQL wrote, sent as it is where asked and exact; else rows as objects.
    const answer = (items: Items, total: number, estimate: boolean): Page<Row> | string => {
      if (Array.isArray(items)) return pageAnswer(items, total, req.page, req.size, estimate);
      if (text && items.exact) return pageJson(items.json, total, req.page, req.size, estimate);
      return pageAnswer(this.parsed(items.json), total, req.page, req.size, estimate);
    };
    // The whole rows of a page's keys, in the list's order: names are joined for these rows only.
    const rowsOf = (kind: string, keys: () => AnyQuery) =>
      run(
        kind,
        () =>
          this.ordered(this.selectAll(this.base(this.reads)), req).where(
            this.ref(this.key),
            'in',
            this.reads.selectFrom(keys().limit(size()).offset(from()).as('p')).select('p.k'),
          ),
        this.selected,
      );
    // The first page of many matches in the order of their key, or a page after a row in it (no rows to pass): the
    // rows straight from the table and its joins, walking the key's index. PostgreSQL plans and runs this in about half
    // the time of the keys first (`rowsOf`). A page further on takes its keys first, so that only its own rows are joined
    // rather than every row passed; so does any other order, where every match is sorted and narrow rows sort quicker.
    const firstRows = (kind: string) =>
      run(kind, () => this.ordered(this.selectAll(pastRow(searchedIn(this.base(this.reads)))), req).limit(size()), this.selected);

    // A search not known to match many: one statement counts its matches (up to the limit + 1), takes the page's
    // keys from them and joins their rows, so the search's indexes are read once and the page costs one round trip.
    const limit = this.countLimit();
    const estimateKey = this.estimateKey(req, v);
    if (req.after === undefined && !this.estimates.has(estimateKey)) {
      // Its names read by a subquery each (see `selectAll`) but for the order's: a page of a search, often a row or two.
      const sortJoin = new Set([req.sortBy]);
      const { items, length, counted } = await run(
        'counted',
        () =>
          this.ordered(this.selectAll(this.base(this.reads, sortJoin), sortJoin), req)
            .innerJoin(
              this.fencedKeys(filtered(), req, limit + 1)
                .select(sql<number>`count(*) over ()`.as('n'))
                .limit(size())
                .offset(from())
                .as('p'),
              (join: any) => join.onRef('p.k', '=', `${T}.${this.keyColumn}`),
            )
            .select(sql.ref('p.n').as(COUNTED)),
        [...this.selected, COUNTED],
      );
      const n = length ? Number(counted) : undefined;
      if (n !== undefined && n <= limit) return answer(items, n, false);
      // More than the limit: already counted that far, so only the planner's estimate is wanted (and then kept).
      if (n !== undefined) await this.estimate(filtered(), estimateKey, n);
    }

    let counted: { total: number; estimate: boolean };
    // A kept estimate, as `count` answers it, without building the query `count` would take.
    const known = shape === undefined ? undefined : this.estimates.get(estimateKey);
    if (known !== undefined) counted = { total: known, estimate: true };
    else if (shape === undefined) counted = await this.count(filtered(), estimateKey);
    else {
      // As `count`, its capped count kept as a statement.
      const [[n]] = await this.statement('count', shape, args, () => this.cappedCount(filtered()));
      const exact = Number(n ?? 0);
      counted = exact <= limit ? { total: exact, estimate: false } : { total: await this.estimate(filtered(), estimateKey, exact), estimate: true };
    }
    const { total, estimate } = counted;
    if (!estimate && (total === 0 || (req.after === undefined && offset >= total))) return answer([], total, false);
    if (req.after !== undefined) args.afterValue = await this.afterValue(req, v, shape, args);
    const matching = () => pastRow(filtered());
    const after = this.afterKind(req, args.afterValue);
    // Many matches: walking the index of the order finds a page of them soon. A counted few: see `fencedKeys`.
    return answer(
      (estimate
        ? offset === 0 && req.sortBy === this.key
          ? await firstRows(`estimated first${after}`)
          : await rowsOf(`estimated${after}`, () => this.ordered(matching().select(this.ref(this.key).as('k')), req))
        : await rowsOf(`few${after}`, () => this.fencedKeys(matching(), req))
      ).items,
      total,
      estimate,
    );
  }

  /** Id and name pairs of every visible row, for selects (narrowed by `v.where`). */
  async list(fields: string[], v: Visibility): Promise<Row[]> {
    const rows = await this.listed(this.base(this.reads), v)
      .select(fields.map((f) => this.ref(f).as(f)))
      .orderBy(this.ref(fields.includes('name') ? 'name' : this.key))
      .execute();
    return rows.map((r) => this.toWire(r as Row));
  }

  /** Which of `ids` name rows the caller may see (for the references a body carries). */
  async visibleIds(ids: number[], v: Visibility, db: SchemaDrivenDb = this.db): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await this.visible(this.base(db, new Set()), v).select(this.ref(this.key).as('k')).where(this.ref(this.key), 'in', ids).execute();
    return new Set(rows.map((r) => Number((r as Row).k)));
  }

  async get(id: number, v: Visibility, db: SchemaDrivenDb = this.db): Promise<Row | undefined> {
    const row = await this.selectAll(this.visible(this.base(db), v))
      .where(this.ref(this.key), '=', id)
      .executeTakeFirst();
    return row ? this.toWire(row as Row) : undefined;
  }

  /**
   * The unique rules another row already satisfies with these values (text compared ignoring case, within
   * the rule's scope, e.g. role names per reseller). `values` is the whole row as it would be stored.
   */
  async duplicates(values: Row, exceptId: number | undefined, db: SchemaDrivenDb = this.db): Promise<UniqueRule[]> {
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

  async insert(values: Row, db: SchemaDrivenDb = this.db): Promise<number> {
    const row = await db.insertInto(this.table).values(this.toColumns(values)).returning(this.keyColumn).executeTakeFirstOrThrow();
    return Number(row[this.keyColumn]);
  }

  /**
   * Writes `values` to the row. With `version`, only over that version of the row (optimistic locking): answers false
   * when the row has changed since, and writes nothing. Every update raises the version (a trigger, migration 0120),
   * so a change kept beside the row (`x-apart`) still counts as a change of the row.
   */
  async update(id: number, values: Row, db: SchemaDrivenDb = this.db, version?: number): Promise<boolean> {
    const columns = this.toColumns(values);
    if (!Object.keys(columns).length) {
      if (!this.versioned) return true;
      columns[VERSION] = sql.ref(VERSION);
    }
    let q = db.updateTable(this.table).set(columns).where(this.keyColumn, '=', id);
    if (version !== undefined && this.versioned) q = q.where(VERSION, '=', version);
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async remove(id: number, db: SchemaDrivenDb = this.db): Promise<void> {
    await db.deleteFrom(this.table).where(this.keyColumn, '=', id).execute();
  }
}
