import { Classes, Intent, ProgressBar } from '@blueprintjs/core';
import type { CustomCellRendererProps } from 'ag-grid-react';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { EntityRow } from '@web/core/types';

/**
 * A minimal tag as Blueprint's `Tag` draws it, without its measuring: `Tag` reads each text's width from the page
 * after drawing it (to title a text cut short), a forced layout per cell of a grid's first paint.
 */
function CellTag({ intent, round, status, children }: { intent: Intent; round?: boolean; status?: string; children: ReactNode }) {
  const classes = [Classes.TAG, Classes.MINIMAL, Classes.intentClass(intent), round ? Classes.ROUND : ''].filter(Boolean).join(' ');
  return (
    <span className={classes} data-status={status}>
      <span className={`${Classes.FILL} ${Classes.TEXT_OVERFLOW_ELLIPSIS}`}>{children}</span>
    </span>
  );
}

/** Booleans as a Yes/No tag; the text comes already translated from the column's value formatter. */
export function BooleanTag({ value, valueFormatted }: CustomCellRendererProps<EntityRow>) {
  if (value === null || value === undefined) return valueFormatted ?? null;
  return (
    <CellTag round intent={value ? Intent.SUCCESS : Intent.NONE}>
      {valueFormatted}
    </CellTag>
  );
}

/** The colour a status reads in: in service green, held back amber, failed red, anything else neutral. */
const STATUS_INTENTS: Record<string, Intent> = {
  active: Intent.SUCCESS,
  success: Intent.SUCCESS,
  approved: Intent.SUCCESS,
  suspended: Intent.WARNING,
  pending: Intent.PRIMARY,
  error: Intent.DANGER,
};

/** Enumerated values (statuses) as a tag coloured by what they mean. */
export function StatusTag({ value, valueFormatted }: CustomCellRendererProps<EntityRow>) {
  if (value === null || value === undefined || value === '') return valueFormatted ?? null;
  return (
    <CellTag intent={STATUS_INTENTS[String(value)] ?? Intent.NONE} status={String(value)}>
      {valueFormatted}
    </CellTag>
  );
}

/** Share of the limit from which usage shows as close to it. */
export const USAGE_WARNING_SHARE = 0.8;

export function usageIntent(used: number, limit: number | undefined): Intent {
  if (!limit) return Intent.NONE;
  if (used >= limit) return Intent.DANGER;
  return used >= limit * USAGE_WARNING_SHARE ? Intent.WARNING : Intent.SUCCESS;
}

/** Usage as text over a bar filled to its share of the limit; without a limit, the text alone. */
export function UsageCell(props: CustomCellRendererProps<EntityRow> & { limitField: string; formatLimit: (v: number) => string }) {
  const intl = useIntl();
  const { value, valueFormatted, data, limitField, formatLimit } = props;
  if (value === null || value === undefined) return valueFormatted ?? null;
  const limitValue = data?.[limitField];
  const limit = typeof limitValue === 'number' && limitValue > 0 ? limitValue : undefined;
  const used = Number(value);
  const intent = usageIntent(used, limit);
  const text = limit ? intl.formatMessage({ id: 'format.usageOfLimit' }, { used: valueFormatted, limit: formatLimit(limit) }) : valueFormatted;
  return (
    <div className="portal-usage" data-usage={intent === Intent.NONE ? 'none' : intent}>
      <span className="portal-usage-text">{text}</span>
      {/* A progress bar is announced by its name: the same words as the text beside it. */}
      {limit !== undefined && <ProgressBar animate={false} stripes={false} intent={intent} value={Math.min(1, used / limit)} aria-label={text ?? undefined} />}
    </div>
  );
}
