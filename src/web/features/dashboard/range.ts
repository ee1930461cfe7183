/**
 * The dashboard's one time range: in the address (`?range=…&from=…&to=…`), so a refresh or a shared link keeps it,
 * and in the user's preferences, so the dashboard opens on the range last chosen. The server computes its instants
 * in the user's time zone (the X-Time-Zone header every call carries).
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { parsePreferences } from '@web/core/preferences';
import { usePreference } from '@web/engine/usePreference';

export const RANGES = ['last24Hours', 'last3Days', 'day', 'week', 'last7Days', 'last30Days', 'last12Months', 'month', 'quarter', 'year', 'custom'] as const;
export type RangeName = (typeof RANGES)[number];
export const DEFAULT_RANGE: RangeName = 'last7Days';
const PREFERENCE = 'dashboardRange';

export interface DashboardRange {
  range: RangeName;
  from?: string;
  to?: string;
}

const isRange = (v: unknown): v is RangeName => RANGES.includes(v as RangeName);
const isDate = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);

function parse(range: unknown, from: unknown, to: unknown): DashboardRange | undefined {
  if (!isRange(range)) return undefined;
  if (range !== 'custom') return { range };
  return { range, from: isDate(from) ? from : undefined, to: isDate(to) ? to : undefined };
}

function fromPreference(text: string | undefined): DashboardRange | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    return parse(v.range, v.from, v.to);
  } catch {
    return undefined;
  }
}

/** The body of a ranged call, or undefined while a custom range lacks a date (the calls wait). */
export function rangeBody(r: DashboardRange): { range: RangeName; from?: string; to?: string } | undefined {
  if (r.range !== 'custom') return { range: r.range };
  return r.from && r.to ? { range: 'custom', from: r.from, to: r.to } : undefined;
}

/** The range the address names, else the one last chosen (the preference's value), else the default. */
export function dashboardRange(params: URLSearchParams, saved: string | undefined): DashboardRange {
  return parse(params.get('range'), params.get('from'), params.get('to')) ?? fromPreference(saved) ?? { range: DEFAULT_RANGE };
}

/** The preference's value among the user's preferences (the profile's). */
export function savedRange(preferences: string | undefined | null): string | undefined {
  return parsePreferences(preferences)?.items.find((i) => i.type === PREFERENCE)?.value;
}

export function useDashboardRange(): [DashboardRange, (next: DashboardRange) => void] {
  const [params, setParams] = useSearchParams();
  const [saved, save] = usePreference(PREFERENCE);
  const current = useMemo(() => dashboardRange(params, saved), [params, saved]);
  const choose = useCallback(
    (next: DashboardRange) => {
      const p = new URLSearchParams(params);
      p.set('range', next.range);
      for (const k of ['from', 'to'] as const) {
        const v = next.range === 'custom' ? next[k] : undefined;
        if (v) p.set(k, v);
        else p.delete(k);
      }
      setParams(p, { replace: true });
      if (rangeBody(next)) save(JSON.stringify(next));
    },
    [params, setParams, save],
  );
  return [current, choose];
}
