/**
 * Totals of big lists: counted exactly up to EXACT_COUNT_LIMIT, beyond it the planner's estimate, kept a short while
 * so that turning the pages of a big list, or many users opening it, does not count that far again on every page.
 * The engine's repository and the hand-written lists (the order table) share this.
 */
import { LRUCache } from 'lru-cache';

/**
 * Lists count matching rows exactly up to this many; beyond it the planner's estimate stands in and the page says
 * so (`totalIsEstimate`). An exact count of a million rows costs more than the page it describes.
 */
export const EXACT_COUNT_LIMIT = 10_000;

/** How long an estimated total is kept (see `EstimatedTotals`). */
const ESTIMATE_TTL_MS = 15_000;

/** A query whose plan can be asked for: a Kysely query, or a function running `EXPLAIN (FORMAT JSON)` on raw SQL. */
export interface Explainable {
  explain: (format: 'json') => Promise<unknown[]>;
}

/** The rows the planner expects a query to answer (its EXPLAIN), or undefined when it does not say. */
export async function plannedRows(query: Explainable): Promise<number | undefined> {
  // EXPLAIN answers one row with one column (its name differs by driver), JSON parsed or as text.
  const [row] = (await query.explain('json')) as Record<string, unknown>[];
  const plan = Object.values(row ?? {})[0] as string | { Plan?: Record<string, unknown> }[] | undefined;
  const planned = Number((typeof plan === 'string' ? JSON.parse(plan) : plan)?.[0]?.Plan?.['Plan Rows']);
  return Number.isFinite(planned) ? Math.round(planned) : undefined;
}

/**
 * Estimated totals by a key naming everything that decides which rows a list matches (the caller's tenancy and
 * the search, never the order or the page), for ESTIMATE_TTL_MS. Totals up to the limit are exact and never kept.
 */
export class EstimatedTotals {
  private readonly kept = new LRUCache<string, number>({ max: 1000, ttl: ESTIMATE_TTL_MS });

  /** The kept estimate of the list, if any. */
  get(key: string): number | undefined {
    return this.kept.get(key);
  }

  has(key: string): boolean {
    return this.kept.has(key);
  }

  /** The planner's estimate of a list known to match more than `atLeast` rows (never below that), then kept. */
  async estimate(key: string, atLeast: number, query: Explainable): Promise<number> {
    const total = Math.max(atLeast, (await plannedRows(query)) ?? 0);
    this.kept.set(key, total);
    return total;
  }
}
