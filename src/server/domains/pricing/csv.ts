/**
 * Roaming rules as CSV: the download writes one column per rule property, the upload reads the same columns
 * back (papaparse), so a round trip is lossless. An upload is checked row by row first (nothing written), and
 * applied, replacing the plan's rules, in one transaction.
 */
import Papa from 'papaparse';
import type { Kysely } from 'kysely';
import { dateTimeText } from '@shared/dateText';
import { propertyType, type PropertySchema } from '@shared/schema';
import { CHANGE_SAMPLES, NO_CHANGES, type RuleChanges } from '@shared/ruleChanges';
import type { FieldError } from '@shared/wire';
import { fieldError } from '../../http/errors';
import { exactText, ROAMING_RULES, RULE_FIELDS, RULE_SCHEMA, RuleStore, validateRule } from './rules';
import type { Database } from '../../db/types';

type Row = Record<string, unknown>;

/** Rule files are "less than 4 MB": this size is refused. */
export const RULE_FILE_MAX_BYTES = 4 * 1024 * 1024;

export interface RejectedRow {
  /** Line of the file (the header is line 1). */
  line: number;
  /** The row as the file gave it. */
  values: Record<string, string>;
  fields: FieldError[];
}

export interface ParsedRules {
  total: number;
  rows: Row[];
  rejected: RejectedRow[];
}

/** A cell as the download writes it: exact decimal text, ISO dates, true/false. */
export function cellText(field: string, value: unknown): unknown {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (propertyType(RULE_SCHEMA.properties[field]) === 'number') return exactText(value);
  return value;
}

/**
 * A cell of an uploaded file to the value the rule's schema checks, given its column's property; text that is
 * not a number stays text, so the schema's message names it. A date alone (YYYY-MM-DD) in a date-time column is
 * the start of that day in UTC.
 */
function cellValue(prop: PropertySchema, text: string): unknown {
  // The download guards text a spreadsheet would run as a formula with an apostrophe: take it off again.
  const raw = text.charCodeAt(0) === 39 && /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
  if (raw === '') return undefined;
  const type = propertyType(prop);
  if ((type === 'number' || type === 'integer') && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (type === 'boolean' && /^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
  if (prop.format === 'date-time') return dateTimeText(raw);
  return raw;
}

/** A rule file's cells, read by papaparse (the header line names the columns). */
export type RuleFile = Papa.ParseResult<Record<string, string>>;

export function readRuleFile(text: string): RuleFile {
  return Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy' });
}

/** Checks every row of a read file; writes nothing. A file whose header is not the rules' columns is refused whole. */
export function checkRules(parsed: RuleFile, networks: ReadonlySet<string>): { error?: FieldError } & ParsedRules {
  const header = parsed.meta.fields ?? [];
  const unknown = header.filter((h) => !RULE_FIELDS.includes(h));
  const missing = (RULE_SCHEMA.required ?? []).filter((f) => !header.includes(f));
  if (!parsed.data.length || unknown.length || missing.length) {
    return { error: fieldError('pricingPlanFile', 'columns', 'validation.rulesFile.columns'), total: 0, rows: [], rejected: [] };
  }
  const shapeErrors = new Map<number, string>();
  for (const e of parsed.errors) if (e.row !== undefined && e.type === 'FieldMismatch') shapeErrors.set(e.row, e.code);
  const rows: Row[] = [];
  const rejected: RejectedRow[] = [];
  const props = header.map((f) => RULE_SCHEMA.properties[f]);
  parsed.data.forEach((cells, i) => {
    const line = i + 2;
    if (shapeErrors.has(i)) {
      rejected.push({ line, values: cells, fields: [fieldError('', 'columns', 'validation.rulesFile.row')] });
      return;
    }
    const values: Row = {};
    header.forEach((f, c) => {
      const v = cellValue(props[c], cells[f] ?? '');
      if (v !== undefined) values[f] = v;
    });
    const errors = validateRule(values, networks);
    if (errors.length) rejected.push({ line, values: cells, fields: errors });
    else rows.push(values);
  });
  return { total: parsed.data.length, rows, rejected };
}

export const parseRules = (text: string, networks: ReadonlySet<string>) => checkRules(readRuleFile(text), networks);

/** A rule's identity between the plan and a file: its network (PLMN) and the start of its period. */
const ruleKey = (rule: Row) => `${rule.mcc}${rule.mnc}@${Date.parse(String(rule.startDate))}`;

/** A value as compared: an empty one as the default the rule would store, numbers and dates by value. */
function comparable(field: string, value: unknown): unknown {
  const stored = ROAMING_RULES.stored(field, value);
  if (stored === null) return null;
  const prop = RULE_SCHEMA.properties[field];
  if (prop.format === 'date-time') return Date.parse(String(stored));
  const type = propertyType(prop);
  if (type === 'number' || type === 'integer') return Number(stored);
  return typeof stored === 'string' ? stored.trim() : stored;
}

/**
 * What replacing the plan's rules with a file's valid rows would change, for the user to confirm first. A file
 * row and a rule of the plan are the same rule when they name the same network and start date (several such
 * rules pair up in order); a paired rule whose values differ is changed, the file's unpaired rows are added and
 * the plan's unpaired rules removed.
 */
export async function ruleChanges(store: RuleStore, planId: number, rows: readonly Row[]): Promise<RuleChanges> {
  const existing = new Map<string, Row[]>();
  for await (const batch of store.all(planId, 10000)) {
    for (const raw of batch) {
      const rule = store.kind.toWire(raw);
      const key = ruleKey(rule);
      const same = existing.get(key);
      if (same) same.push(rule);
      else existing.set(key, [rule]);
    }
  }
  const changes = NO_CHANGES();
  const { samples } = changes;
  for (const row of rows) {
    const after = { ...row, ...store.kind.derive(row) };
    const before = existing.get(ruleKey(row))?.shift();
    if (!before) {
      changes.added++;
      if (samples.added.length < CHANGE_SAMPLES) samples.added.push(after);
      continue;
    }
    const fields = RULE_FIELDS.filter((f) => comparable(f, before[f]) !== comparable(f, row[f]));
    if (!fields.length) {
      changes.unchanged++;
      continue;
    }
    changes.changed++;
    if (samples.changed.length < CHANGE_SAMPLES) samples.changed.push({ before, after, fields });
  }
  for (const left of existing.values()) {
    changes.removed += left.length;
    samples.removed.push(...left.slice(0, CHANGE_SAMPLES - samples.removed.length));
  }
  return changes;
}

/** Replaces every rule of the plan with these rows in one transaction: on any failure the old rules stay. */
export async function applyRules(db: Kysely<Database>, planId: number, rows: Row[], onProgress?: (done: number) => void): Promise<number> {
  const store = new RuleStore(db);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('roamingRule').where('planId', '=', planId).execute();
    await store.insertMany(planId, rows, trx, onProgress);
  });
  return rows.length;
}
