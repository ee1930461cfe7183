/**
 * A read-only AG Grid of prices, themed for dark mode and laid out right to left in Hebrew like the entity grid.
 * With `sort`, header clicks report a new sort for the server to apply (the grid keeps the order it is given);
 * without it, the grid sorts nothing.
 */
import type { ColDef, SortChangedEvent } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useCallback, useMemo } from 'react';
import type { SortDir } from '@shared/wire';
import { useGridLook } from '@web/engine/useGridLook';

export interface PricesGridProps<T> {
  rows: T[];
  columns: ColDef<T>[];
  rowId: (row: T) => string;
  testId: string;
  sort?: { sortBy: string; sortDir: SortDir; defaultSort: { sortBy: string; sortDir: SortDir }; onSortChange: (sortBy: string, sortDir: SortDir) => void };
  /** A fixed height with scrolling rows (long lists); the grid grows with its rows otherwise. */
  height?: number;
}

const DEFAULT_COLUMN = { minWidth: 90, comparator: () => 0, wrapHeaderText: true, autoHeaderHeight: true };

export function PricesGrid<T>({ rows, columns, rowId, testId, sort, height }: PricesGridProps<T>) {
  const look = useGridLook();
  const columnDefs = useMemo(
    () => columns.map((c) => ({ ...c, sortable: Boolean(sort) && c.sortable !== false, sort: sort && c.colId === sort.sortBy ? sort.sortDir : null })),
    [columns, sort],
  );
  const onSortChanged = useCallback(
    (event: SortChangedEvent<T>) => {
      if (!sort || event.source !== 'uiColumnSorted') return;
      const sorted = event.api.getColumnState().find((c) => c.sort);
      if (sorted?.sort) sort.onSortChange(sorted.colId, sorted.sort);
      else sort.onSortChange(sort.defaultSort.sortBy, sort.defaultSort.sortDir);
    },
    [sort],
  );

  return (
    <div className="portal-grid" data-testid={testId} style={height ? { height } : undefined}>
      <AgGridReact<T>
        key={look.key}
        {...look.props}
        rowData={rows}
        columnDefs={columnDefs}
        defaultColDef={DEFAULT_COLUMN}
        getRowId={(p) => rowId(p.data)}
        domLayout={height ? 'normal' : 'autoHeight'}
        suppressNoRowsOverlay
        onSortChanged={onSortChanged}
        animateRows={false}
      />
    </div>
  );
}
