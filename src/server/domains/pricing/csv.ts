/**
 * Roaming rules as CSV: the download writes one column per rule property, the upload reads the same columns
 * back (papaparse), so a round trip is lossless. An upload is checked row by row first (nothing written), and
 * applied, replacing the plan's rules, in one transaction. The file is read as a stream, a batch of rows at a
 * time, from the check to the database: neither the file nor its rows are ever held whole.
 */
import Papa from 'papaparse';
import type { Kysely } from 'kysely';
import { dateTimeText } from '@shared/dateText';
import { propertyType, type PropertySchema } from '@shared/schema';
import { CHANGE_SAMPLES, NO_CHANGES, type RuleChanges } from '@shared/ruleChanges';
import type { FieldError } from '@shared/wire';
import { fieldError, invalid } from '../../http/errors';
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

/** Rows handed on at a time: one insert statement each. */
export const RULE_BATCH = 2000;

/** What reading a file found: its rows, the valid ones, and each rejected one with its line and reasons. */
export interface ReadRules {
  total: number;
  valid: number;
  rejected: RejectedRow[];
}

/**
 * The records of a CSV file as its chunks come, each chunk's complete lines parsed at once by papaparse (a line
 * break inside quotes belongs to its record, so a chunk ends after the last break outside quotes). Bytes that are
 * not UTF-8 (a character split between chunks is decoded whole) or a NUL throw the refusal of `field`.
 */
async function* csvRecords(source: AsyncIterable<string | Buffer> | Iterable<string | Buffer>, field: string): AsyncGenerator<string[][]> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const refuse = (rule: string, messageId: string) => invalid([fieldError(field, rule, messageId)]);
  const decode = (chunk?: string | Buffer) => {
    let text: string;
    try {
      text = typeof chunk === 'string' ? chunk : chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw refuse('encoding', 'validation.file.encoding');
    }
    if (text.includes('\0')) throw refuse('characters', 'validation.character.notAllowed');
    return text;
  };
  const parse = (text: string) => Papa.parse<string[]>(text, { header: false, skipEmptyLines: 'greedy' }).data;
  let rest = '';
  /** Whether `rest` (scanned up to `scanned`) is inside quotes there, and its last break outside quotes. */
  let scanned = 0;
  let quoted = false;
  for await (const chunk of source) {
    rest += decode(chunk);
    let end = -1;
    for (let i = scanned; i < rest.length; i++) {
      const c = rest.charCodeAt(i);
      if (c === 34) quoted = !quoted;
      else if (c === 10 && !quoted) end = i;
    }
    scanned = rest.length;
    if (end < 0) continue;
    const records = parse(rest.slice(0, end + 1));
    rest = rest.slice(end + 1);
    // What is left begins outside quotes; scan it anew with the next chunk.
    quoted = false;
    scanned = 0;
    if (records.length) yield records;
  }
  rest += decode();
  if (rest.trim()) yield parse(rest);
}

/**
 * Reads a rule file from `source` (its bytes, or text) and checks each row as it comes: valid rows go to `take`
 * in batches of `batch` (reading waits while a batch is taken), rejected ones are listed with their line (the
 * header is line 1, empty lines are skipped). A file whose header is not the rules' columns, or without a row,
 * answers `error` (rows may have been taken by then: a caller writing them rolls back). Bytes that are not UTF-8
 * or a NUL throw the refusal of `field`.
 */
export async function readRules(
  source: AsyncIterable<string | Buffer> | Iterable<string | Buffer>,
  networks: ReadonlySet<string>,
  take: (rows: Row[]) => Promise<void> | void,
  opts: { field?: string; batch?: number } = {},
): Promise<{ error?: FieldError } & ReadRules> {
  const columnsError = () => ({ error: fieldError('pricingPlanFile', 'columns', 'validation.rulesFile.columns'), total: 0, valid: 0, rejected: [] });
  let header: string[] | undefined;
  let props: PropertySchema[] = [];
  let total = 0;
  let valid = 0;
  const rejected: RejectedRow[] = [];
  let rows: Row[] = [];
  for await (const records of csvRecords(source, opts.field ?? 'pricingPlanFile')) {
    for (const cells of records) {
      if (!header) {
        header = cells.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/, '') : h));
        const unknown = header.filter((h) => !RULE_FIELDS.includes(h));
        const missing = (RULE_SCHEMA.required ?? []).filter((f) => !header!.includes(f));
        if (unknown.length || missing.length) return columnsError();
        props = header.map((f) => RULE_SCHEMA.properties[f]);
        continue;
      }
      total++;
      const line = total + 1;
      const named: Record<string, string> = {};
      header.forEach((f, c) => {
        if (c < cells.length) named[f] = cells[c];
      });
      if (cells.length !== header.length) {
        rejected.push({ line, values: named, fields: [fieldError('', 'columns', 'validation.rulesFile.row')] });
        continue;
      }
      const values: Row = {};
      header.forEach((f, c) => {
        const v = cellValue(props[c], cells[c]);
        if (v !== undefined) values[f] = v;
      });
      const errors = validateRule(values, networks);
      if (errors.length) {
        rejected.push({ line, values: named, fields: errors });
        continue;
      }
      valid++;
      rows.push(values);
      if (rows.length >= (opts.batch ?? RULE_BATCH)) {
        const full = rows;
        rows = [];
        await take(full);
      }
    }
  }
  if (rows.length) await take(rows);
  if (!total) return columnsError();
  return { total, valid, rejected };
}

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
 * the plan's unpaired rules removed. The plan's rules are read first; the file's rows are compared as they come.
 */
export class RuleDiff {
  private readonly changes = NO_CHANGES();

  private constructor(
    private readonly store: RuleStore,
    private readonly existing: Map<string, Row[]>,
  ) {}

  static async of(store: RuleStore, planId: number): Promise<RuleDiff> {
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
    return new RuleDiff(store, existing);
  }

  add(rows: readonly Row[]) {
    const { changes } = this;
    const { samples } = changes;
    for (const row of rows) {
      const after = { ...row, ...this.store.kind.derive(row) };
      const before = this.existing.get(ruleKey(row))?.shift();
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
  }

  /** The changes, once every row has been added. */
  result(): RuleChanges {
    const { changes } = this;
    for (const left of this.existing.values()) {
      changes.removed += left.length;
      changes.samples.removed.push(...left.slice(0, CHANGE_SAMPLES - changes.samples.removed.length));
    }
    this.existing.clear();
    return changes;
  }
}

/**
 * Replaces every rule of the plan with the valid rows of the file `source`, read as it is written, in one
 * transaction: on any failure, a refused file, or a file without one valid row (which would only empty the plan),
 * the old rules stay. `onProgress` hears the rows written so far.
 */
export async function replaceRules(
  db: Kysely<Database>,
  planId: number,
  source: AsyncIterable<string | Buffer> | Iterable<string | Buffer>,
  networks: ReadonlySet<string>,
  onProgress?: (written: number) => void,
): Promise<ReadRules & { applied: number }> {
  return db.transaction().execute(async (trx) => {
    const store = new RuleStore(trx);
    await trx.deleteFrom('roamingRule').where('planId', '=', planId).execute();
    let written = 0;
    const read = await readRules(source, networks, async (rows) => {
      await store.insertMany(planId, rows, trx);
      written += rows.length;
      onProgress?.(written);
    });
    if (read.error) throw invalid([read.error]);
    if (!read.valid) throw invalid([fieldError('pricingPlanFile', 'rows', 'validation.rulesFile.noValidRows')]);
    return { total: read.total, valid: read.valid, rejected: read.rejected, applied: written };
  });
}
