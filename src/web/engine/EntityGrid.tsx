/**
 * One page of an entity's rows in AG Grid. Paging, sorting and searching happen on the server: the grid shows
 * the page it is given, reports header clicks as a new sort, and opens a row's detail on click or Enter.
 */
import type {
  CellKeyDownEvent,
  ColDef,
  Column,
  ColumnMovedEvent,
  ColumnResizedEvent,
  ColumnVisibleEvent,
  GetRowIdParams,
  GridApi,
  GridReadyEvent,
  RowClickedEvent,
  RowDataUpdatedEvent,
  RowSelectionOptions,
  SelectionChangedEvent,
  SortChangedEvent,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import type { CustomFieldDefinition } from '@shared/customFields';
import type { EntitySchema } from '@shared/schema';
import type { SortDir } from '@shared/wire';
import { columnsFromSchema } from './columns';
import type { SavedColumn } from './gridPreferences';
import { useGridLook } from './useGridLook';
import type { EntityRow } from '@web/core/types';

export interface GridSort {
  sortBy: string;
  sortDir: SortDir;
}

export interface EntityGridProps {
  schema: EntitySchema;
  rows: EntityRow[];
  sort: GridSort;
  /** Called when the user sorts by a header; clearing a sort reports the schema's default. */
  onSortChange: (sort: GridSort) => void;
  onOpenRow: (row: EntityRow) => void;
  /** The user's saved columns: order, widths and visibility. */
  columns?: SavedColumn[];
  /** Called when the user moves, resizes, shows or hides a column. */
  onColumnsChange?: (columns: SavedColumn[]) => void;
  /** The custom fields that apply to the user's rows: a column each after the schema's (hidden unless saved shown). */
  custom?: readonly CustomFieldDefinition[];
  /**
   * Row selection with a checkbox column: the keys of the selected rows of this page. Without it the grid has
   * no checkboxes.
   */
  selection?: {
    selected: ReadonlySet<string>;
    /** Called with the keys of this page's rows the user has selected, after a tick or the header's select all. */
    onChange: (pageKeys: string[]) => void;
  };
}

/** The schema's columns in the saved order, with the saved widths and visibility; new columns keep their place at the end. */
export function withSavedColumns(defs: ColDef<EntityRow>[], saved: SavedColumn[] | undefined): ColDef<EntityRow>[] {
  // Visibility is always stated, so a reset brings hidden columns back.
  if (!saved?.length) return defs.map((def) => ({ ...def, hide: Boolean(def.hide) }));
  const rank = new Map(saved.map((c, i) => [c.colId, i]));
  const ordered = [...defs].sort((a, b) => (rank.get(a.colId!) ?? saved.length) - (rank.get(b.colId!) ?? saved.length));
  return ordered.map((def) => {
    const s = saved.find((c) => c.colId === def.colId);
    if (!s) return def;
    const next = { ...def, hide: Boolean(s.hide) };
    if (s.width) return { ...next, width: s.width, flex: undefined };
    return next;
  });
}

/** What is saved of the grid's columns, in display order. */
export function savedColumnsOf(api: GridApi<EntityRow>): SavedColumn[] {
  return (api.getAllGridColumns() as Column[]).map((c) => ({ colId: c.getColId(), width: c.getActualWidth(), hide: !c.isVisible() }));
}

/**
 * Narrow screens scroll the grid sideways rather than squeeze columns to nothing. A header longer than its column
 * wraps onto more lines (the header row grows to fit) instead of being cut off; `headerMinWidth` keeps each column
 * wide enough for the longest word of its header, so a wrap never splits a word.
 */
const DEFAULT_COLUMN: ColDef<EntityRow> = { minWidth: 90, wrapHeaderText: true, autoHeaderHeight: true };

/** The header font of AG Grid's Quartz theme, and the room a header needs beside its text: 16 px of padding a side and the sort arrow's 24 px (and a few px to spare). */
const HEADER_FONT =
  '500 14px "IBM Plex Sans", -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Oxygen-Sans, Ubuntu, Cantarell, "Helvetica Neue", sans-serif';
const HEADER_CHROME = 16 + 16 + 24 + 4;
let measure: CanvasRenderingContext2D | null | undefined;

/** The narrowest a column may be for its header: its longest word on one line (estimated where there is no canvas). */
export function headerMinWidth(header: string): number {
  if (measure === undefined) {
    try {
      const context = document.createElement('canvas').getContext('2d');
      measure = typeof context?.measureText === 'function' ? context : null;
    } catch {
      measure = null;
    }
    if (measure) measure.font = HEADER_FONT;
  }
  const words = header.split(/\s+/);
  const widest = Math.max(...words.map((w) => (measure ? measure.measureText(w).width : w.length * 8)));
  return Math.max(DEFAULT_COLUMN.minWidth!, Math.ceil(widest) + HEADER_CHROME);
}

/** Checkboxes only: a click on a row still opens it. */
const ROW_SELECTION: RowSelectionOptions<EntityRow> = {
  mode: 'multiRow',
  checkboxes: true,
  headerCheckbox: true,
  enableClickSelection: false,
  selectAll: 'all',
};
/** Selection changes the user makes; the others are the grid following `selection.selected`. */
const USER_SELECTION = new Set(['checkboxSelected', 'uiSelectAll', 'uiSelectAllFiltered', 'uiSelectAllCurrentPage', 'spaceKey', 'keyboardSelectAll']);

/** Ticks exactly the rows whose keys are selected (a call of the grid's, not reported as the user's). */
function showSelection(api: GridApi<EntityRow>, selected: ReadonlySet<string>) {
  const nodes = { on: [] as never[], off: [] as never[] };
  api.forEachNode((node) => {
    const wanted = selected.has(node.id ?? '');
    if (Boolean(node.isSelected()) !== wanted) (wanted ? nodes.on : nodes.off).push(node as never);
  });
  if (nodes.on.length) api.setNodesSelected({ nodes: nodes.on, newValue: true, source: 'api' });
  if (nodes.off.length) api.setNodesSelected({ nodes: nodes.off, newValue: false, source: 'api' });
}

const NO_CUSTOM: readonly CustomFieldDefinition[] = [];

/** A row's height in the portal's theme, at least: the first window holds what the screen can show. */
const ROW_HEIGHT_PX = 40;
/** The longest the rest of the page waits for the grid to report its first rows drawn. */
const REST_AFTER_MS = 1000;

/**
 * The rows handed to the grid as it is first drawn: about as many as the window shows, then, once the grid has drawn
 * them and the browser has painted them (the grid's first-data event, a frame, then a task), all of them. The grid
 * draws every row of the page (no virtualisation, see below) and its first drawing also sets the grid up, which on a
 * page load takes hundreds of milliseconds before anything shows; the rows below the fold can follow. Only the
 * grid's first rows are held back: once the whole page has been handed over, every later page is handed over whole.
 */
function useFirstWindow(rows: EntityRow[]): { shown: EntityRow[]; onFirstDataRendered: () => void } {
  const fit = Math.max(1, Math.ceil(window.innerHeight / ROW_HEIGHT_PX));
  const [whole, setWhole] = useState(() => rows.length <= fit);
  const [drawn, setDrawn] = useState(false);
  const waiting = !whole && rows.length > 0;
  useEffect(() => {
    if (!waiting) return;
    let frame = 0;
    let next = 0;
    const done = () => setWhole(true);
    // A hidden tab draws no frames, and a grid that reports nothing must not keep its rows short.
    const fallback = window.setTimeout(done, REST_AFTER_MS);
    if (drawn) frame = requestAnimationFrame(() => (next = window.setTimeout(done)));
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(next);
      window.clearTimeout(fallback);
    };
  }, [waiting, drawn]);
  const first = useMemo(() => rows.slice(0, fit), [rows, fit]);
  const onFirstDataRendered = useCallback(() => setDrawn(true), []);
  return { shown: whole || rows.length <= fit ? rows : first, onFirstDataRendered };
}

export function EntityGrid({ schema, rows, sort, onSortChange, onOpenRow, columns, onColumnsChange, selection, custom = NO_CUSTOM }: EntityGridProps) {
  const intl = useIntl();
  const key = schema['x-entity'].key;
  const look = useGridLook();
  const gridApi = useRef<GridApi<EntityRow> | null>(null);
  const selected = selection?.selected;
  const onSelection = selection?.onChange;
  const { shown, onFirstDataRendered } = useFirstWindow(rows);

  useEffect(() => {
    if (gridApi.current && selected) showSelection(gridApi.current, selected);
  }, [selected, rows]);
  const handleGridReady = useCallback(
    (event: GridReadyEvent<EntityRow>) => {
      gridApi.current = event.api;
      if (selected) showSelection(event.api, selected);
    },
    [selected],
  );
  const handleRowDataUpdated = useCallback(
    (event: RowDataUpdatedEvent<EntityRow>) => {
      if (selected) showSelection(event.api, selected);
    },
    [selected],
  );
  const handleSelectionChanged = useCallback(
    (event: SelectionChangedEvent<EntityRow>) => {
      if (!onSelection || !USER_SELECTION.has(event.source)) return;
      onSelection(event.api.getSelectedNodes().map((node) => node.id ?? ''));
    },
    [onSelection],
  );

  const columnDefs = useMemo(
    () =>
      withSavedColumns(columnsFromSchema(schema, intl, custom), columns).map((col) => ({
        ...col,
        minWidth: headerMinWidth(col.headerName ?? ''),
        sort: col.colId === sort.sortBy ? sort.sortDir : null,
      })),
    [schema, intl, sort.sortBy, sort.sortDir, columns, custom],
  );

  // Only the user's own changes are saved, once finished (a drag or resize reports every step).
  const handleColumnsChanged = useCallback(
    (event: ColumnMovedEvent<EntityRow> | ColumnResizedEvent<EntityRow> | ColumnVisibleEvent<EntityRow>) => {
      if (!onColumnsChange || !('finished' in event ? event.finished : true)) return;
      if (!['uiColumnMoved', 'uiColumnResized', 'uiColumnDragged', 'toolPanelUi', 'columnMenu'].includes(event.source)) return;
      onColumnsChange(savedColumnsOf(event.api));
    },
    [onColumnsChange],
  );

  const getRowId = useCallback((params: GetRowIdParams<EntityRow>) => String(params.data[key]), [key]);

  const handleSortChanged = useCallback(
    (event: SortChangedEvent<EntityRow>) => {
      // Sorts applied from the column definitions come back as events too; only a user's click is a request.
      if (event.source !== 'uiColumnSorted') return;
      const sorted = event.api.getColumnState().find((c) => c.sort);
      onSortChange(sorted?.sort ? { sortBy: sorted.colId, sortDir: sorted.sort } : schema['x-list'].defaultSort);
    },
    [onSortChange, schema],
  );

  const handleRowClicked = useCallback(
    (event: RowClickedEvent<EntityRow>) => {
      // A click on the row's checkbox (or beside it, in its cell) selects; it does not open the row.
      const target = event.event?.target;
      if (target instanceof Element && target.closest('.ag-selection-checkbox, [col-id="ag-Grid-SelectionColumn"]')) return;
      if (event.data) onOpenRow(event.data);
    },
    [onOpenRow],
  );

  const handleCellKeyDown = useCallback(
    (event: CellKeyDownEvent<EntityRow>) => {
      const keyboard = event.event;
      if (keyboard instanceof KeyboardEvent && keyboard.key === 'Enter' && event.data) onOpenRow(event.data);
    },
    [onOpenRow],
  );

  return (
    <div className="portal-grid" data-testid={`grid-${schema['x-entity'].name}`}>
      <AgGridReact<EntityRow>
        key={look.key}
        {...look.props}
        rowData={shown}
        columnDefs={columnDefs}
        defaultColDef={DEFAULT_COLUMN}
        getRowId={getRowId}
        // One page of at most a few hundred rows: render them all, which also lets the page scroll as one.
        domLayout="autoHeight"
        suppressRowVirtualisation
        suppressColumnVirtualisation
        suppressNoRowsOverlay
        suppressCellFocus={false}
        rowClass="portal-grid-row"
        onSortChanged={handleSortChanged}
        onColumnMoved={handleColumnsChanged}
        onColumnResized={handleColumnsChanged}
        onColumnVisible={handleColumnsChanged}
        onRowClicked={handleRowClicked}
        onCellKeyDown={handleCellKeyDown}
        rowSelection={selection ? ROW_SELECTION : undefined}
        onGridReady={handleGridReady}
        onRowDataUpdated={handleRowDataUpdated}
        onFirstDataRendered={onFirstDataRendered}
        onSelectionChanged={handleSelectionChanged}
        enableCellTextSelection={false}
        animateRows={false}
      />
    </div>
  );
}
