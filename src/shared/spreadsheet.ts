/**
 * Spreadsheet cells of the portal's downloads, shared by the server and the mocks: what kind of cell each column
 * is (from the entity schema and the custom fields) and a value turned into that kind, so an Excel download has
 * numbers as numbers and dates as dates where the CSV has text.
 */
import { customKeyOf, type CustomFieldDefinition } from './customFields';
import { propertyType, type EntitySchema } from './schema';

/** The download formats of a list: CSV (the default) or an Excel workbook. */
export const DOWNLOAD_FORMATS = ['csv', 'xlsx'] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export type CellKind = 'text' | 'number' | 'boolean' | 'date' | 'dateTime';

/** Excel's display of each kind of date cell. */
export const DATE_FORMATS = { date: 'yyyy-mm-dd', dateTime: 'yyyy-mm-dd hh:mm:ss' } as const;

/** The kind of cell of each column of a list download: `custom.<key>` columns by their definition. */
export function cellKinds(schema: EntitySchema, fields: readonly string[], custom: readonly CustomFieldDefinition[] = []): CellKind[] {
  return fields.map((field) => {
    const key = customKeyOf(field);
    if (key !== undefined) {
      const type = custom.find((d) => d.key === key)?.type;
      return type === 'number' ? 'number' : type === 'date' ? 'date' : 'text';
    }
    const prop = schema.properties[field];
    if (!prop) return 'text';
    const type = propertyType(prop);
    if (type === 'integer' || type === 'number') return 'number';
    if (type === 'boolean') return 'boolean';
    if (prop.format === 'date') return 'date';
    if (prop.format === 'date-time') return 'dateTime';
    return 'text';
  });
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A value as a spreadsheet cell of `kind`: exact decimals from the database as numbers, days and instants as
 * dates (a day at midnight UTC, which Excel shows as that day), structured values as JSON text. A value that is not
 * what its kind expects stays text rather than being lost. Text is never a formula in a workbook cell.
 */
export function spreadsheetCell(value: unknown, kind: CellKind): string | number | boolean | Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (kind === 'number') {
    const n = typeof value === 'number' ? value : Number(value);
    if ((typeof value === 'number' || typeof value === 'string' || typeof value === 'bigint') && Number.isFinite(n)) return n;
  }
  if (kind === 'boolean' && typeof value === 'boolean') return value;
  if (kind === 'date' || kind === 'dateTime') {
    if (value instanceof Date && !Number.isNaN(value.getTime()))
      return kind === 'date' ? new Date(Date.UTC(value.getFullYear(), value.getMonth(), value.getDate())) : value;
    if (typeof value === 'string') {
      const day = DAY.exec(value);
      if (day) return new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
      const at = Date.parse(value);
      if (!Number.isNaN(at)) return new Date(at);
    }
  }
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return typeof value === 'boolean' || typeof value === 'number' ? value : String(value);
}
