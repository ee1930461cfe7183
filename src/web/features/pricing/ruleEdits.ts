/**
 * The rules grid's unsaved work as plain data: the rows shown (each clean, changed or new), the ids deleted,
 * and the earlier states for undo. Pure functions, so the spreadsheet behaviour is tested without a grid.
 */
import countries from 'i18n-iso-countries';
import { COUNTRY_LANGUAGES, isCountryCode } from '@shared/countries';
import { dateTimeText } from '@shared/dateText';
import { parseDecimal } from '@shared/pricing';
import { propertyType, type EntitySchema } from '@shared/schema';
import type { FieldError } from '@shared/wire';
import type { EntityRow } from '@web/core/types';

export type RowStatus = 'clean' | 'changed' | 'new';

export interface EditRow {
  /** The rule's id, or `new-<n>` for a row not saved yet. */
  key: string;
  status: RowStatus;
  data: EntityRow;
}

interface Snapshot {
  rows: EditRow[];
  deleted: number[];
}

export interface EditState extends Snapshot {
  /** Earlier states, the latest last; undo returns to it. */
  history: Snapshot[];
  nextNew: number;
}

export const EMPTY_EDITS: EditState = { rows: [], deleted: [], history: [], nextNew: 1 };

/** Undo reaches this many changes back. */
const HISTORY_LIMIT = 100;

export const isDirty = (state: EditState) => state.history.length > 0;

/** The server's page as clean rows: what the grid shows while nothing is changed. */
export function loaded(items: EntityRow[]): EditState {
  return { ...EMPTY_EDITS, rows: items.map((data) => ({ key: String(data.id), status: 'clean', data })) };
}

function remember(state: EditState): Snapshot[] {
  return [...state.history, { rows: state.rows, deleted: state.deleted }].slice(-HISTORY_LIMIT);
}

/** A row with some values replaced; an empty value (undefined) removes the field. */
function withValues(row: EditRow, values: EntityRow): EditRow {
  const data = { ...row.data };
  for (const [field, value] of Object.entries(values)) {
    if (value === undefined) delete data[field];
    else data[field] = value;
  }
  return { ...row, data, status: row.status === 'new' ? 'new' : 'changed' };
}

/** Changes of several rows (and rows to append) as one step of undo, e.g. a pasted block. */
export function edit(state: EditState, changes: { key: string; values: EntityRow }[], appended: EntityRow[] = []): EditState {
  if (!changes.length && !appended.length) return state;
  const byKey = new Map(changes.map((c) => [c.key, c.values]));
  const rows = state.rows.map((row) => (byKey.has(row.key) ? withValues(row, byKey.get(row.key)!) : row));
  const added = appended.map((data, i): EditRow => ({ key: `new-${state.nextNew + i}`, status: 'new', data }));
  return { rows: [...rows, ...added], deleted: state.deleted, history: remember(state), nextNew: state.nextNew + appended.length };
}

export function addRow(state: EditState, data: EntityRow): EditState {
  return edit(state, [], [data]);
}

/** Removes rows: a saved rule's id joins the deletions, a new row simply goes. */
export function removeRows(state: EditState, keys: readonly string[]): EditState {
  const gone = new Set(keys);
  const removed = state.rows.filter((r) => gone.has(r.key));
  if (!removed.length) return state;
  const ids = removed.filter((r) => r.status !== 'new').map((r) => Number(r.data.id));
  return { ...state, rows: state.rows.filter((r) => !gone.has(r.key)), deleted: [...state.deleted, ...ids], history: remember(state) };
}

/** Everything saved: the rows stay as shown, with nothing left to undo, until the server's page replaces them. */
export function saved(state: EditState): EditState {
  return { ...state, rows: state.rows.map((r) => ({ ...r, status: 'clean' })), deleted: [], history: [] };
}

export function undo(state: EditState): EditState {
  const previous = state.history[state.history.length - 1];
  if (!previous) return state;
  return { ...state, ...previous, history: state.history.slice(0, -1) };
}

/** How many rows saving would write or delete. */
export function changeCount(state: EditState): number {
  return state.rows.filter((r) => r.status !== 'clean').length + state.deleted.length;
}

/** The one batch that saves everything: changed and new rows (by key, to read errors back), and deletions. */
export function toBatch(state: EditState, writable: readonly string[]): { save: EntityRow[]; delete: number[]; keys: string[] } {
  const pending = state.rows.filter((r) => r.status !== 'clean');
  const save = pending.map((r) => {
    const row: EntityRow = r.status === 'new' ? {} : { id: r.data.id };
    for (const field of writable) if (r.data[field] !== undefined && r.data[field] !== null) row[field] = r.data[field];
    return row;
  });
  return { save, delete: state.deleted, keys: pending.map((r) => r.key) };
}

/** Messages per row key and field. */
export type CellErrors = Record<string, Record<string, string>>;

/** The server's refusal of a batch (`save[3].dataRate`) placed on the cells it names. */
export function batchErrors(fields: readonly FieldError[], keys: readonly string[], message: (e: FieldError) => string): CellErrors {
  const errors: CellErrors = {};
  for (const e of fields) {
    const match = /^save\[(\d+)\]\.(\w+)$/.exec(e.field);
    const key = match ? keys[Number(match[1])] : undefined;
    if (!match || key === undefined) continue;
    errors[key] = { ...errors[key], [match[2]]: message(e) };
  }
  return errors;
}

/** Text typed or pasted into a cell as the value its property holds; text that is not one stays text for validation to name. */
export function cellValue(schema: EntitySchema, field: string, text: unknown): unknown {
  if (typeof text !== 'string') return text ?? undefined;
  const raw = text.trim();
  if (raw === '') return undefined;
  const prop = schema.properties[field];
  switch (propertyType(prop)) {
    case 'number':
      return parseDecimal(raw);
    case 'integer':
      return /^-?\d+$/.test(raw) ? Number(raw) : raw;
    case 'boolean':
      if (/^(true|yes|1|y)$/i.test(raw)) return true;
      if (/^(false|no|0|n)$/i.test(raw)) return false;
      return raw;
    default:
      if (field === 'country') return countryCodeOf(raw);
      if (prop?.format === 'date-time') return dateTimeText(raw);
      return field === 'currency' ? raw.toUpperCase() : raw;
  }
}

/** A country typed or pasted as its code or its name in one of the portal's languages, as its code; other text stays for validation to name. */
export function countryCodeOf(text: string): string {
  if (isCountryCode(text.toUpperCase())) return text.toUpperCase();
  for (const language of COUNTRY_LANGUAGES) {
    const code = countries.getAlpha2Code(text, language);
    if (code) return code;
  }
  return text;
}

/** A block of cells as spreadsheets copy it: lines of tab-separated cells (a final line break ends the block). */
export function parseBlock(text: string): string[][] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => line.split('\t'));
}

/**
 * A pasted block written into the rows from the focused cell: each line into the next row (new rows appended
 * past the last), each cell into the next editable column. One step of undo.
 */
export function paste(
  state: EditState,
  block: string[][],
  start: { rowIndex: number; columns: readonly string[] },
  toValues: (cells: Record<string, string>) => EntityRow,
  newRow: () => EntityRow,
): EditState {
  const changes: { key: string; values: EntityRow }[] = [];
  const appended: EntityRow[] = [];
  block.forEach((cells, i) => {
    const entries: Record<string, string> = {};
    cells.slice(0, start.columns.length).forEach((cell, j) => (entries[start.columns[j]] = cell));
    const values = toValues(entries);
    const row = state.rows[start.rowIndex + i];
    if (row) changes.push({ key: row.key, values });
    else appended.push({ ...newRow(), ...Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) });
  });
  return edit(state, changes, appended);
}
