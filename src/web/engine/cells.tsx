import { Intent, Tag } from '@blueprintjs/core';
import type { CustomCellRendererProps } from 'ag-grid-react';
import type { EntityRow } from './types';

/** Booleans as a Yes/No tag; the text comes already translated from the column's value formatter. */
export function BooleanTag({ value, valueFormatted }: CustomCellRendererProps<EntityRow>) {
  if (value === null || value === undefined) return valueFormatted ?? null;
  return (
    <Tag minimal round intent={value ? Intent.SUCCESS : Intent.NONE}>
      {valueFormatted}
    </Tag>
  );
}

/** Enumerated values (statuses) as a neutral tag. */
export function StatusTag({ value, valueFormatted }: CustomCellRendererProps<EntityRow>) {
  if (value === null || value === undefined || value === '') return valueFormatted ?? null;
  return <Tag minimal>{valueFormatted}</Tag>;
}
