import { readFileSync } from 'node:fs';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import {
  filterFields,
  isNumeric,
  propertyType,
  searchComparison,
  writableFields,
  type EntitySchema,
  type NormalisedListRequest,
} from '@shared/schema';
import type { FieldError, Page } from '@shared/wire';
import { SCHEMA_DIR } from '../../engine/schemas';
import { createValidator } from '../../engine/validator';
import { fieldError } from '../../http/errors';

type Row = Record<string, unknown>;

/** A roaming rule belongs to one local pricing plan; its schema lives beside the entities as a child schema. */
export const RULE_SCHEMA: EntitySchema = JSON.parse(readFileSync(`${SCHEMA_DIR}children/roaming-rule.json`, 'utf8'));

/** The properties a rule is written with, in the order of the CSV columns. */
export const RULE_FIELDS = writableFields(RULE_SCHEMA).filter((f) => f !== 'id');
const NUMERIC = new Set(RULE_FIELDS.filter((f) => isNumeric(RULE_SCHEMA.properties[f]) && propertyType(RULE_SCHEMA.properties[f]) === 'number'));
const READ = ['id', 'planId', 'plmn', ...RULE_FIELDS];

const validator = createValidator(RULE_SCHEMA);

/**
 * Every rule of a rule body (the schema's, through ajv with its messages), plus the one JSON Schema cannot say:
 * the end comes after the start, and (given the catalogue's PLMNs) the MCC and MNC name a known mobile network.
 */
export function validateRule(body: unknown, networks?: ReadonlySet<string>, mode: 'create' | 'update' = 'create'): FieldError[] {
  const errors = validator.validate(mode, body);
  const rule = body as Row;
  if (networks && !errors.some((e) => e.field === 'mcc' || e.field === 'mnc') && !networks.has(`${rule.mcc}${rule.mnc}`)) {
    errors.push(fieldError('mnc', 'network', 'validation.network.unknown'));
  }
  if (!errors.some((e) => e.field === 'startDate' || e.field === 'endDate') && typeof rule?.startDate === 'string' && typeof rule?.endDate === 'string') {
    if (Date.parse(rule.endDate) <= Date.parse(rule.startDate)) errors.push(fieldError('endDate', 'afterStart', 'validation.endDate.beforeStart'));
  }
  return errors;
}

/** The PLMNs of the network catalogue (withdrawn networks too: rules of past periods may name them). */
export async function knownNetworks(db: Kysely<any>): Promise<Set<string>> {
  const rows = await db.selectFrom('network').select('plmn').execute();
  return new Set(rows.map((r) => String(r.plmn)));
}

/** Validated values to column values: empty optional values stored as null, the PLMN derived from MCC and MNC. */
export function toColumns(values: Row, planId: number): Row {
  const out: Row = { planId };
  for (const f of RULE_FIELDS) {
    const v = values[f];
    const prop = RULE_SCHEMA.properties[f];
    out[f] = v === undefined || v === '' ? (prop.default ?? null) : v;
  }
  out.plmn = `${values.mcc}${values.mnc}`;
  return out;
}

/** Numeric text as written, without trailing zeros: "0.050000" is "0.05"; exact, never through floating point. */
export function exactText(value: unknown): string {
  const text = String(value);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** A stored rule on the wire: rates as JSON numbers (at most 12 significant digits, so exact), dates in ISO. */
export function toWire(row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) {
    if (v === null || v === undefined) continue;
    if (NUMERIC.has(k)) out[k] = Number(exactText(v));
    else if (v instanceof Date) out[k] = v.toISOString();
    else if (k === 'country' || k === 'currency') out[k] = String(v).trim();
    else out[k] = v;
  }
  return out;
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The column type of a rule property, for unpacking JSON rows. */
function sqlType(name: string): string {
  if (name === 'planId') return 'integer';
  const prop = RULE_SCHEMA.properties[name];
  if (prop.format === 'date-time') return 'timestamptz';
  return ({ number: 'numeric', integer: 'integer', boolean: 'boolean' } as Record<string, string>)[propertyType(prop)] ?? 'text';
}

function escapeLike(value: string) {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export class RuleStore {
  constructor(private readonly db: Kysely<any>) {}

  async page(planId: number, req: NormalisedListRequest): Promise<Page<Row>> {
    let q = this.db.selectFrom('roaming_rule').where('planId', '=', planId);
    if (req.searchBy && req.searchKey) {
      const key = req.searchKey;
      q = q.where((eb: ExpressionBuilder<any, any>) => {
        const terms: Expression<SqlBool>[] = [];
        for (const field of filterFields(req.searchBy!)) {
          const cmp = searchComparison(RULE_SCHEMA.properties[field], key);
          if (cmp.kind === 'equals') terms.push(eb(sql.ref(field), '=', cmp.value));
          if (cmp.kind === 'contains') terms.push(eb(sql.ref(field), 'ilike', `%${escapeLike(cmp.value)}%`));
        }
        return terms.length ? eb.or(terms) : sql<SqlBool>`false`;
      });
    }
    const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
    const dir = req.sortDir === 'desc' ? sql`desc nulls last` : sql`asc nulls last`;
    const rows = await q.select(READ).orderBy(sql`${sql.ref(req.sortBy)} ${dir}`).orderBy('id', req.sortDir)
      .limit(req.size).offset(req.page * req.size).execute();
    return { items: rows.map(toWire), totalItemsCount: total, totalPageCount: Math.max(1, Math.ceil(total / req.size)), currentPage: req.page };
  }

  async get(planId: number, id: number, db: Kysely<any> = this.db): Promise<Row | undefined> {
    const row = await db.selectFrom('roaming_rule').select(READ).where('planId', '=', planId).where('id', '=', id).executeTakeFirst();
    return row ? toWire(row) : undefined;
  }

  /** Every rule of a plan in id order, in batches, for downloads. */
  async *all(planId: number, batch = 2000): AsyncGenerator<Row[]> {
    let after = 0;
    for (;;) {
      const rows = await this.db.selectFrom('roaming_rule').select(READ).where('planId', '=', planId).where('id', '>', after)
        .orderBy('id').limit(batch).execute();
      if (!rows.length) return;
      yield rows;
      after = Number(rows[rows.length - 1].id);
    }
  }

  async insert(planId: number, values: Row, db: Kysely<any> = this.db): Promise<number> {
    const row = await db.insertInto('roaming_rule').values(toColumns(values, planId)).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /**
   * Many rules, 10,000 a statement, each batch sent as one JSON parameter that the database unpacks
   * (jsonb_to_recordset): far fewer round trips and parameters than multi-row VALUES, and numbers stay exact
   * (JSON numbers become numeric, never floating point).
   */
  async insertMany(planId: number, rows: Row[], db: Kysely<any>, onProgress?: (done: number) => void): Promise<void> {
    const columns = ['planId', 'plmn', ...RULE_FIELDS];
    const names = columns.map(snake);
    const definitions = sql.raw(columns.map((c) => `${snake(c)} ${sqlType(c)}`).join(', '));
    const target = sql.raw(names.join(', '));
    const perStatement = 10000;
    for (let i = 0; i < rows.length; i += perStatement) {
      const batch = rows.slice(i, i + perStatement).map((r) => {
        const values = toColumns(r, planId);
        return Object.fromEntries(columns.map((c) => [snake(c), values[c] ?? null]));
      });
      await sql`insert into roaming_rule (${target}) select ${target} from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as x(${definitions})`.execute(db);
      onProgress?.(Math.min(rows.length, i + perStatement));
    }
  }

  async update(planId: number, id: number, values: Row, db: Kysely<any> = this.db): Promise<void> {
    await db.updateTable('roaming_rule').set(toColumns(values, planId)).where('planId', '=', planId).where('id', '=', id).execute();
  }

  async remove(planId: number, id: number, db: Kysely<any> = this.db): Promise<number> {
    const res = await db.deleteFrom('roaming_rule').where('planId', '=', planId).where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
