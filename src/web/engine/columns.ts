/**
 * AG Grid column definitions from a schema's `x-columns` and its property types. A pure function of the
 * schema and the intl object, so it is tested without a grid.
 */
import type { ColDef, ValueFormatterParams } from 'ag-grid-community';
import type { IntlShape } from 'react-intl';
import { customName, listValue, type CustomFieldDefinition } from '@shared/customFields';
import { sortableFields, type ColumnSpec, type EntitySchema, type PropertySchema } from '@shared/schema';
import { DEFAULT_CURRENCY } from '@shared/currencies';
import { isLocale, isRightToLeft } from '@web/core/locales';
import { cellKind, type CellKind } from './cellKinds';
import { BooleanTag, StatusTag, UsageCell } from './cells';
import type { EntityRow } from '@web/core/types';
import { messageOr } from '@web/core/messages';
import { formatCustomValue } from './customFields';

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/**
 * A number with its unit or currency, kept together in the direction of its own first letter (U+2068 … U+2069,
 * a first-strong isolate) under a right-to-left language: laid out among Hebrew, "737.9 MB" would otherwise show
 * as "MB 737.9". Hebrew's own money format carries right-to-left marks, so it still reads as Intl writes it.
 */
function isolated(intl: IntlShape, text: string): string {
  return isLocale(intl.locale) && isRightToLeft(intl.locale) ? `\u2068${text}\u2069` : text;
}

export function formatBytes(intl: IntlShape, bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return isolated(intl, intl.formatNumber(value, { style: 'unit', unit: BYTE_UNITS[unit], unitDisplay: 'short', maximumFractionDigits: 1 }));
}

/** Formats one cell value the way its kind reads; empty values show a dash. */
export function formatCell(intl: IntlShape, kind: CellKind, value: unknown): string {
  if (value === null || value === undefined || value === '') return intl.formatMessage({ id: 'format.none' });
  switch (kind) {
    case 'money':
      return typeof value === 'number' || typeof value === 'string'
        ? isolated(intl, intl.formatNumber(Number(value), { style: 'currency', currency: DEFAULT_CURRENCY }))
        : String(value);
    case 'bytes':
    case 'usage':
      return formatBytes(intl, Number(value));
    case 'status': {
      // An enumerated value reads in the user's language when the catalogue names it (`enum.active`).
      const id = `enum.${String(value)}`;
      return messageOr(intl, id, String(value));
    }
    case 'date':
      return intl.formatDate(String(value), { dateStyle: 'medium' });
    case 'datetime':
      return intl.formatDate(String(value), { dateStyle: 'medium', timeStyle: 'short' });
    case 'boolean':
      return intl.formatMessage({ id: value ? 'form.yes' : 'form.no' });
    case 'number':
      return typeof value === 'number' ? intl.formatNumber(value, { useGrouping: false }) : String(value);
    default:
      return String(value);
  }
}

function headerFor(intl: IntlShape, field: string, prop: PropertySchema | undefined): string {
  return prop?.title ? intl.formatMessage({ id: prop.title }) : field;
}

/** Usage against a limit held by another property (`x-limit`): a bar that turns amber near it and red past it. */
function usageColumn(spec: ColumnSpec, prop: PropertySchema | undefined, intl: IntlShape, sortable: Set<string>): ColDef<EntityRow> {
  const limitField = String(prop?.['x-limit']);
  return {
    colId: spec.field,
    field: spec.field,
    sortable: spec.sortable ?? sortable.has(spec.field),
    comparator: keepServerOrder,
    width: spec.width,
    flex: spec.flex,
    hide: spec.hide,
    valueFormatter: (params: ValueFormatterParams<EntityRow>) => formatCell(intl, 'usage', params.value),
    cellRenderer: UsageCell,
    cellRendererParams: { limitField, formatLimit: (v: number) => formatBytes(intl, v) },
  };
}

/** The server sorts; the grid must keep the order it was given, so every local comparison is a tie. */
const keepServerOrder = () => 0;

function columnFor(schema: EntitySchema, spec: ColumnSpec, intl: IntlShape, sortable: Set<string>): ColDef<EntityRow> {
  const prop = schema.properties[spec.field];
  const kind = cellKind(prop);
  const right = kind === 'money' || kind === 'bytes' || kind === 'number';
  if (kind === 'usage') return { ...usageColumn(spec, prop, intl, sortable), headerName: headerFor(intl, spec.field, prop) };
  const col: ColDef<EntityRow> = {
    colId: spec.field,
    field: spec.field,
    headerName: headerFor(intl, spec.field, prop),
    sortable: spec.sortable ?? sortable.has(spec.field),
    comparator: keepServerOrder,
    valueFormatter: (params: ValueFormatterParams<EntityRow>) => formatCell(intl, kind, params.value),
  };
  if (spec.width !== undefined) col.width = spec.width;
  if (spec.flex !== undefined) col.flex = spec.flex;
  if (spec.hide) col.hide = true;
  if (right) col.type = 'rightAligned';
  if (kind === 'boolean') col.cellRenderer = BooleanTag;
  if (kind === 'status') col.cellRenderer = StatusTag;
  return col;
}

/** Width of a custom field's column: the tenant's label and value lengths are unknown, so one size for all. */
const CUSTOM_COLUMN_WIDTH = 170;

/**
 * A custom field's column (`custom.<key>`): headed by the tenant's own label as it is, sorted by the server,
 * hidden until the user shows it in the column chooser.
 */
export function customColumn(def: CustomFieldDefinition, intl: IntlShape): ColDef<EntityRow> {
  const colId = customName(def);
  const col: ColDef<EntityRow> = {
    colId,
    headerName: def.label,
    // Not `field`: the value sits in the row's `custom` object, and the column's id is the name lists sort by.
    valueGetter: (params) => (params.data ? listValue(params.data, colId) : undefined),
    valueFormatter: (params: ValueFormatterParams<EntityRow>) => formatCustomValue(intl, def, params.value),
    sortable: true,
    comparator: keepServerOrder,
    width: CUSTOM_COLUMN_WIDTH,
    hide: true,
  };
  if (def.type === 'number') col.type = 'rightAligned';
  return col;
}

/** The schema's columns, then one per custom field that applies to the user's rows. */
export function columnsFromSchema(schema: EntitySchema, intl: IntlShape, custom: readonly CustomFieldDefinition[] = []): ColDef<EntityRow>[] {
  const sortable = new Set(sortableFields(schema));
  return [...schema['x-columns'].map((spec) => columnFor(schema, spec, intl, sortable)), ...custom.map((def) => customColumn(def, intl))];
}
