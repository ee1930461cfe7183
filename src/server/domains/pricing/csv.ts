/**
 * Roaming rules as CSV: the download writes one column per rule property, the upload reads the same columns
 * back (papaparse), so a round trip is lossless. An upload is checked row by row first (nothing written), and
 * applied, replacing the plan's rules, in one transaction.
 */
import Papa from 'papaparse';
import type { Kysely } from 'kysely';
import { propertyType } from '@shared/schema';
import type { FieldError } from '@shared/wire';
import { fieldError } from '../../http/errors';
import { exactText, RULE_FIELDS, RULE_SCHEMA, RuleStore, validateRule } from './rules';

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
 * A cell of an uploaded file to the value the rule's schema checks, given the type of its column; text that is
 * not a number stays text, so the schema's message names it.
 */
function cellValue(type: string, text: string): unknown {
  // The download guards text a spreadsheet would run as a formula with an apostrophe: take it off again.
  const raw = text.charCodeAt(0) === 39 && /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
  if (raw === '') return undefined;
  if ((type === 'number' || type === 'integer') && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (type === 'boolean' && /^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
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
  const types = header.map((f) => propertyType(RULE_SCHEMA.properties[f]));
  parsed.data.forEach((cells, i) => {
    const line = i + 2;
    if (shapeErrors.has(i)) {
      rejected.push({ line, values: cells, fields: [fieldError('', 'columns', 'validation.rulesFile.row')] });
      return;
    }
    const values: Row = {};
    header.forEach((f, c) => {
      const v = cellValue(types[c], cells[f] ?? '');
      if (v !== undefined) values[f] = v;
    });
    const errors = validateRule(values, networks);
    if (errors.length) rejected.push({ line, values: cells, fields: errors });
    else rows.push(values);
  });
  return { total: parsed.data.length, rows, rejected };
}

export const parseRules = (text: string, networks: ReadonlySet<string>) => checkRules(readRuleFile(text), networks);

/** Replaces every rule of the plan with these rows in one transaction: on any failure the old rules stay. */
export async function applyRules(db: Kysely<any>, planId: number, rows: Row[], onProgress?: (done: number) => void): Promise<number> {
  const store = new RuleStore(db);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('roaming_rule').where('planId', '=', planId).execute();
    await store.insertMany(planId, rows, trx, onProgress);
  });
  return rows.length;
}
