/** How a range's use and a reseller's stock read on the inventory screen. */
import type { InventoryRange, InventoryStock } from '@shared/inventory';

/** The share of a range already allocated, from 0 to 1. */
export function usedShare(range: Pick<InventoryRange, 'allocated' | 'total'>): number {
  return range.total > 0 ? Math.min(1, range.allocated / range.total) : 0;
}

/** The stocks to warn about, the soonest to run out first. */
export function lowStocks(stock: readonly InventoryStock[]): InventoryStock[] {
  return stock.filter((s) => s.low).sort((a, b) => (a.daysLeft ?? Infinity) - (b.daysLeft ?? Infinity));
}
