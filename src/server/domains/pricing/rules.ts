import { readFileSync } from 'node:fs';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { filterFields, isNumeric, propertyType, searchComparison, writableFields, type EntitySchema, type NormalisedListRequest } from '@shared/schema';
import { isCountryCode } from '@shared/countries';
import type { FieldError, Page } from '@shared/wire';
import { searchMatch, type SchemaDrivenDb } from '../../engine/repository';
import { SCHEMA_DIR } from '../../engine/schemas';
import { createValidator } from '../../engine/validator';
import { fieldError } from '../../http/errors';
import type { Database } from '../../db/types';
import { pageAnswer } from '@shared/wire';
import { columnName as snake } from '../../db/columnName';

type Row = Record<string, unknown>;

/**
 * The rules of a plan: roaming rules of a local plan, international rules of an international plan. Each kind
 * is a child schema in schemas/children/ with its own table, reached only through its plan (column plan_id),
 * so the plan's tenancy covers its rules.
 */
export class RuleKind {
  /** The properties a rule is written with, in the order of the CSV columns. */
  readonly fields: string[];
  readonly numeric: Set<string>;
  readonly read: string[];
  readonly table: string;
  private readonly validator: ReturnType<typeof createValidator>;

  constructor(
    readonly schema: EntitySchema,
    /** Server-owned columns computed from the written ones (a roaming rule's PLMN). */
    readonly derive: (values: Row) => Row = () => ({}),
  ) {
    this.table = schema['x-entity'].table;
    this.fields = writableFields(schema).filter((f) => f !== 'id');
    this.numeric = new Set(this.fields.filter((f) => isNumeric(schema.properties[f]) && propertyType(schema.properties[f]) === 'number'));
    this.read = ['id', 'planId', ...Object.keys(derive({})), ...this.fields];
    this.validator = createValidator(schema);
  }

  /**
   * The schema's rules (ajv with its messages) and those JSON Schema cannot say: the country is a real one (ISO
   * 3166 alpha-2, not merely two letters) and the end comes after the start.
   */
  validate(body: unknown, mode: 'create' | 'update' = 'create'): FieldError[] {
    const errors = this.validator.validate(mode, body);
    const rule = body as Row;
    if (!errors.some((e) => e.field === 'country') && typeof rule?.country === 'string' && !isCountryCode(rule.country)) {
      errors.push(fieldError('country', 'country', 'validation.country.invalid'));
    }
    if (!errors.some((e) => e.field === 'startDate' || e.field === 'endDate') && typeof rule?.startDate === 'string' && typeof rule?.endDate === 'string') {
      if (Date.parse(rule.endDate) <= Date.parse(rule.startDate)) errors.push(fieldError('endDate', 'afterStart', 'validation.endDate.afterStart'));
    }
    return errors;
  }

  /** Validated values to column values: empty optional values stored as null (or the default), derived columns added. */
  toColumns(values: Row, planId: number): Row {
    const out: Row = { planId };
    for (const f of this.fields) out[f] = this.stored(f, values[f]);
    return { ...out, ...this.derive(values) };
  }

  /** The column value of one property: an empty optional value is null, or the schema's default. */
  stored(field: string, value: unknown): unknown {
    return value === undefined || value === '' ? (this.schema.properties[field].default ?? null) : value;
  }

  /** A stored rule on the wire: numbers as JSON numbers (at most 12 significant digits, so exact), dates in ISO. */
  toWire(row: Row): Row {
    const out: Row = {};
    for (const [k, v] of Object.entries(row)) {
      if (v === null || v === undefined) continue;
      if (this.numeric.has(k)) out[k] = Number(exactText(v));
      else if (v instanceof Date) out[k] = v.toISOString();
      else if (k === 'country' || k === 'currency') out[k] = String(v).trim();
      else out[k] = v;
    }
    return out;
  }

  /** The column type of a rule property, for unpacking JSON rows. */
  sqlType(name: string): string {
    if (name === 'planId') return 'integer';
    const prop = this.schema.properties[name];
    if (prop.format === 'date-time') return 'timestamptz';
    return ({ number: 'numeric', integer: 'integer', boolean: 'boolean' } as Record<string, string>)[propertyType(prop)] ?? 'text';
  }
}

/** Numeric text as written, without trailing zeros: "0.050000" is "0.05"; exact, never through floating point. */
export function exactText(value: unknown): string {
  const text = String(value);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

const load = (file: string): EntitySchema => JSON.parse(readFileSync(`${SCHEMA_DIR}children/${file}`, 'utf8'));

/** Roaming rules of local pricing plans; the PLMN is derived from MCC and MNC. */
export const ROAMING_RULES = new RuleKind(load('roaming-rule.json'), (values) => ({ plmn: `${values.mcc}${values.mnc}` }));
/** International rules of international plans. */
export const INTERNATIONAL_RULES = new RuleKind(load('international-rule.json'));

export const RULE_SCHEMA: EntitySchema = ROAMING_RULES.schema;
export const RULE_FIELDS = ROAMING_RULES.fields;

/**
 * Every rule of a roaming rule body, plus (given the catalogue's PLMNs) that the MCC and MNC name a known
 * mobile network.
 */
export function validateRule(body: unknown, networks?: ReadonlySet<string>, mode: 'create' | 'update' = 'create'): FieldError[] {
  const errors = ROAMING_RULES.validate(body, mode);
  const rule = body as Row;
  if (networks && !errors.some((e) => e.field === 'mcc' || e.field === 'mnc') && !networks.has(`${rule.mcc}${rule.mnc}`)) {
    errors.push(fieldError('mnc', 'network', 'validation.network.unknown'));
  }
  return errors;
}

/** The PLMNs of the network catalogue (withdrawn networks too: rules of past periods may name them). */
export async function knownNetworks(db: Kysely<Database>): Promise<Set<string>> {
  const rows = await db.selectFrom('network').select('plmn').execute();
  return new Set(rows.map((r) => String(r.plmn)));
}

export class RuleStore {
  constructor(
    private readonly db: SchemaDrivenDb,
    readonly kind: RuleKind = ROAMING_RULES,
  ) {}

  async page(planId: number, req: NormalisedListRequest): Promise<Page<Row>> {
    let q = this.db.selectFrom(this.kind.table).where('planId', '=', planId);
    if (req.searchBy && req.searchKey) {
      const key = req.searchKey;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the rule table is chosen by plan kind at run time
      q = q.where((eb: ExpressionBuilder<any, any>) => {
        const terms: Expression<SqlBool>[] = [];
        for (const field of filterFields(req.searchBy!)) {
          const match = searchMatch(eb, sql.ref(field), searchComparison(this.kind.schema.properties[field], key));
          if (match) terms.push(match);
        }
        return terms.length ? eb.or(terms) : sql<SqlBool>`false`;
      });
    }
    const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
    const dir = req.sortDir === 'desc' ? sql`desc nulls last` : sql`asc nulls last`;
    const rows = await q
      .select(this.kind.read)
      .orderBy(sql`${sql.ref(req.sortBy)} ${dir}`)
      .orderBy('id', req.sortDir)
      .limit(req.size)
      .offset(req.page * req.size)
      .execute();
    return pageAnswer(
      rows.map((r) => this.kind.toWire(r)),
      total,
      req.page,
      req.size,
    );
  }

  async get(planId: number, id: number, db: SchemaDrivenDb = this.db): Promise<Row | undefined> {
    const row = await db.selectFrom(this.kind.table).select(this.kind.read).where('planId', '=', planId).where('id', '=', id).executeTakeFirst();
    return row ? this.kind.toWire(row) : undefined;
  }

  /** Every rule of a plan in id order, in batches, for downloads. */
  async *all(planId: number, batch = 2000): AsyncGenerator<Row[]> {
    let after = 0;
    for (;;) {
      const rows = await this.db
        .selectFrom(this.kind.table)
        .select(this.kind.read)
        .where('planId', '=', planId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(batch)
        .execute();
      if (!rows.length) return;
      yield rows;
      after = Number(rows[rows.length - 1].id);
    }
  }

  async insert(planId: number, values: Row, db: SchemaDrivenDb = this.db): Promise<number> {
    const row = await db.insertInto(this.kind.table).values(this.kind.toColumns(values, planId)).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /**
   * Many rules in a few statements: each chunk goes as one JSON parameter, an array of rows that are arrays of
   * column values (no repeated keys, so about a third of the text of objects), which the database unpacks with
   * jsonb_array_elements and casts column by column. Numbers stay exact (JSON numbers become numeric, never
   * floating point); the plan id is one parameter, not a value per row. 10,000 rows a statement measured best
   * on both engines (larger chunks cost more memory in the embedded database than they save in round trips).
   */
  async insertMany(planId: number, rows: Row[], db: SchemaDrivenDb, onProgress?: (done: number) => void): Promise<void> {
    const { fields } = this.kind;
    const derived = Object.keys(this.kind.derive({}));
    const columns = [...fields, ...derived];
    const target = sql.raw(['plan_id', ...columns.map(snake)].join(', '));
    // Numbers and booleans cast straight from their JSON value (no detour through text); JSON null is SQL null.
    const values = sql.raw(
      columns
        .map((c, i) => {
          const type = this.kind.sqlType(c);
          return type === 'text' || type === 'timestamptz' ? `(r->>${i})::${type}` : `nullif(r->${i}, 'null')::${type}`;
        })
        .join(', '),
    );
    const perStatement = 10000;
    for (let start = 0; start < rows.length; start += perStatement) {
      const chunk = rows.slice(start, start + perStatement).map((row) => {
        const extra = this.kind.derive(row);
        return [...fields.map((f) => this.kind.stored(f, row[f])), ...derived.map((d) => extra[d])];
      });
      await sql`insert into ${sql.table(this.kind.table)} (${target}) select ${planId}::integer, ${values} from jsonb_array_elements(${JSON.stringify(chunk)}::jsonb) as r`.execute(
        db,
      );
      onProgress?.(Math.min(rows.length, start + perStatement));
    }
  }

  async update(planId: number, id: number, values: Row, db: SchemaDrivenDb = this.db): Promise<void> {
    await db.updateTable(this.kind.table).set(this.kind.toColumns(values, planId)).where('planId', '=', planId).where('id', '=', id).execute();
  }

  async remove(planId: number, id: number, db: SchemaDrivenDb = this.db): Promise<number> {
    const res = await db.deleteFrom(this.kind.table).where('planId', '=', planId).where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
