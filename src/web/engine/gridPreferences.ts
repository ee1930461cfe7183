/**
 * A user's grid layout per list (column order, widths, visibility and sort), kept as one `grid.<entity>` item of
 * the profile's preferences, so it follows the user to any browser.
 */
import type { SortDir } from '@shared/wire';
import { parsePreferences } from '@web/core/preferences';

export interface SavedColumn {
  colId: string;
  width?: number;
  hide?: boolean;
}

export interface GridLayout {
  /** In display order. */
  columns: SavedColumn[];
  sort?: { sortBy: string; sortDir: SortDir };
}

const itemType = (entity: string) => `grid.${entity}`;

function isLayout(value: unknown): value is GridLayout {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as GridLayout).columns) &&
    (value as GridLayout).columns.every((c) => typeof c?.colId === 'string')
  );
}

/** The saved layout of one list, or undefined when none (or unreadable) is saved. */
export function readGridLayout(preferences: string | null | undefined, entity: string): GridLayout | undefined {
  const item = parsePreferences(preferences)?.items.find((i) => i.type === itemType(entity));
  if (!item) return undefined;
  try {
    const value: unknown = JSON.parse(item.value);
    return isLayout(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The preferences text with this list's layout replaced (or removed with `undefined`), other items kept. */
export function writeGridLayout(preferences: string | null | undefined, entity: string, layout: GridLayout | undefined): string {
  const items = (parsePreferences(preferences)?.items ?? []).filter((i) => i.type !== itemType(entity));
  if (layout) items.push({ type: itemType(entity), value: JSON.stringify(layout) });
  return JSON.stringify(items);
}
