/** How the dashboard's figures and bucket labels read in the user's language. */
import { useCallback, useMemo } from 'react';
import { useIntl } from 'react-intl';
import { httpStatus, type QueryError } from '@web/core/apiErrors';
import type { EmptyReason } from '@web/ui/charts/ChartFrame';

export type Bucket = 'hour' | 'day' | 'month';

/** A bucket's wall-clock start (`YYYY-MM-DDTHH:MM`, the zone's) as its axis label: an hour, a day or a month. */
export function useBucketLabel(bucket: Bucket | undefined, manyDays: boolean) {
  const intl = useIntl();
  return useCallback(
    (local: string) => {
      // The wall clock is formatted as UTC so no second zone shift applies.
      const instant = `${local.length === 16 ? local : `${local.slice(0, 10)}T00:00`}:00Z`;
      if (bucket === 'hour')
        return intl.formatDate(
          instant,
          manyDays ? { day: 'numeric', month: 'short', hour: 'numeric', timeZone: 'UTC' } : { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' },
        );
      if (bucket === 'month') return intl.formatDate(instant, { month: 'short', year: 'numeric', timeZone: 'UTC' });
      return intl.formatDate(instant, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    },
    [intl, bucket, manyDays],
  );
}

export function useFigures(currency = 'USD') {
  const intl = useIntl();
  return useMemo(
    () => ({
      money: (v: number) => intl.formatNumber(v, { style: 'currency', currency }),
      shortMoney: (v: number) => intl.formatNumber(v, { style: 'currency', currency, notation: 'compact' }),
      mb: (v: number) => intl.formatMessage({ id: 'dashboard.unit.mb' }, { value: intl.formatNumber(v, { maximumFractionDigits: 1 }) }),
      count: (v: number) => intl.formatNumber(v),
      date: (iso: string) => intl.formatDate(iso, { dateStyle: 'medium' }),
    }),
    [intl, currency],
  );
}

/** Why a widget has nothing to show: no privilege (not granted, or refused by the server), a failure, or no data. */
export function emptyReason(granted: boolean, error: QueryError, noData: boolean): EmptyReason | undefined {
  if (!granted || httpStatus(error) === 403) return 'noPrivilege';
  if (error) return 'error';
  return noData ? 'noData' : undefined;
}
