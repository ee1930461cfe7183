import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import type { ValueFormatterParams } from 'ag-grid-community';
import type { CustomFieldDefinition } from '@shared/customFields';
import type { EntitySchema } from '@shared/schema';
import account from '../../../schemas/account.json';
import en from '../../../i18n/en.json';
import de from '../../../i18n/de.json';
import he from '../../../i18n/he.json';
import { BooleanTag } from './cells';
import { columnsFromSchema, formatCell } from './columns';
import type { EntityRow } from '@web/core/types';

const schema = account as unknown as EntitySchema;
const intl = createIntl({ locale: 'en', messages: en });

function format(field: string, value: unknown, i = intl): string {
  const col = columnsFromSchema(schema, i).find((c) => c.colId === field);
  const formatter = col?.valueFormatter;
  if (typeof formatter !== 'function') throw new Error(`${field} has no formatter`);
  return formatter({ value } as ValueFormatterParams<EntityRow>);
}

describe('columnsFromSchema', () => {
  it('builds one column per x-columns entry, in order, headed by the translated title', () => {
    const cols = columnsFromSchema(schema, intl);
    expect(cols.map((c) => c.colId)).toEqual(schema['x-columns'].map((c) => c.field));
    expect(cols.map((c) => c.headerName)).toEqual(['Account ID', 'Name', 'City', 'Country', 'E-mail', 'Usage credit', 'Reseller', 'Inventory account']);
  });

  it('keeps widths and flex from the schema', () => {
    const cols = columnsFromSchema(schema, intl);
    expect(cols[0]).toMatchObject({ width: 120 });
    expect(cols[1]).toMatchObject({ flex: 2 });
  });

  it('right-aligns money and numbers and formats money as US dollars', () => {
    const cols = columnsFromSchema(schema, intl);
    expect(cols.find((c) => c.colId === 'usageCredit')?.type).toBe('rightAligned');
    expect(cols.find((c) => c.colId === 'accountId')?.type).toBe('rightAligned');
    expect(cols.find((c) => c.colId === 'name')?.type).toBeUndefined();
    expect(format('usageCredit', 1250.5)).toBe('$1,250.50');
    expect(format('usageCredit', 0)).toBe('$0.00');
    expect(format('accountId', 10234)).toBe('10234');
  });

  it('follows the locale', () => {
    const german = createIntl({ locale: 'de', messages: { ...en, ...de } });
    expect(format('usageCredit', 1250.5, german)).toBe('1.250,50\u00a0$');
    expect(columnsFromSchema(schema, german)[0].headerName).toBe(de['entity.account.field.accountId']);
  });

  it('shows booleans as a Yes/No tag', () => {
    const col = columnsFromSchema(schema, intl).find((c) => c.colId === 'inventoryAccount');
    expect(col?.cellRenderer).toBe(BooleanTag);
    expect(format('inventoryAccount', true)).toBe('Yes');
    expect(format('inventoryAccount', false)).toBe('No');
  });

  it('shows a dash for empty values', () => {
    expect(format('city', null)).toBe('—');
    expect(format('usageCredit', undefined)).toBe('—');
  });

  it('lets the server sort: sortable columns never reorder rows locally', () => {
    const cols = columnsFromSchema(schema, intl);
    expect(cols.every((c) => c.sortable)).toBe(true);
    const compare = cols[1].comparator;
    expect(typeof compare === 'function' && compare('b', 'a', undefined as never, undefined as never, false)).toBe(0);
  });
});

describe('formatCell', () => {
  it('formats dates, times and bytes', () => {
    expect(formatCell(intl, 'date', '2024-03-05T10:00:00Z')).toBe('Mar 5, 2024');
    expect(formatCell(intl, 'bytes', 1536)).toBe('1.5 kB');
    expect(formatCell(intl, 'bytes', 5 * 1024 ** 3)).toBe('5 GB');
  });

  it('keeps a number and its unit together under Hebrew, so "737.9 MB" does not read as "MB 737.9"', () => {
    const hebrew = createIntl({ locale: 'he', messages: { ...en, ...he } });
    // First-strong isolates: the Latin unit makes the value a left-to-right run inside the right-to-left cell.
    expect(formatCell(hebrew, 'bytes', 737.9 * 1024 ** 2)).toBe('\u2068737.9 MB\u2069');
    expect(formatCell(hebrew, 'usage', 1536)).toBe('\u20681.5 kB\u2069');
    expect(formatCell(hebrew, 'money', 12.5)).toMatch(/^\u2068.*12\.50.*\$.*\u2069$/);
    expect(formatCell(intl, 'bytes', 737.9 * 1024 ** 2)).toBe('737.9 MB');
  });
});

describe('custom field columns', () => {
  const defs: CustomFieldDefinition[] = [
    { id: 1, resellerId: -1, entity: 'account', key: 'sites', label: 'Standorte', type: 'number', position: 1 },
    { id: 2, resellerId: -1, entity: 'account', key: 'since', label: 'Kunde seit', type: 'date', position: 2 },
  ];
  const row = { accountId: 1, custom: { sites: 1250.5, since: '2024-01-05' } } as unknown as EntityRow;
  const cell = (colId: string, i = intl) => {
    const col = columnsFromSchema(schema, i, defs).find((c) => c.colId === colId)!;
    const value = (col.valueGetter as (p: unknown) => unknown)({ data: row });
    return (col.valueFormatter as (p: unknown) => string)({ value });
  };

  it('follows the schema columns, one per field, hidden, headed by the label as written, sortable', () => {
    const cols = columnsFromSchema(schema, createIntl({ locale: 'de', messages: de }), defs);
    expect(cols.slice(-2).map((c) => [c.colId, c.headerName, c.hide, c.sortable])).toEqual([
      ['custom.sites', 'Standorte', true, true],
      ['custom.since', 'Kunde seit', true, true],
    ]);
    expect(cols.find((c) => c.colId === 'custom.sites')?.type).toBe('rightAligned');
  });

  it("reads the value from the row's custom object, numbers and days in the user's locale", () => {
    expect(cell('custom.sites')).toBe('1,250.5');
    expect(cell('custom.since')).toBe('Jan 5, 2024');
    const german = createIntl({ locale: 'de', messages: de });
    expect(cell('custom.sites', german)).toBe('1.250,5');
    expect(cell('custom.since', german)).toBe('05.01.2024');
  });
});
