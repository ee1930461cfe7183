/**
 * A plan's rules as a spreadsheet: one server page at a time (paged and sorted on the server), edited in place.
 * Cells are checked with the rule schema's own rules as they change and invalid ones are marked with their
 * message; a block of cells pasted from a spreadsheet fills the cells from the focused one (AG Grid community has
 * no clipboard, so the paste event is read here); rows are added and deleted; Undo steps back one change; Save
 * sends every changed, new and deleted row in one batch, which the server applies whole or refuses naming cells.
 */
import { AddIcon, ErrorIcon, FloppyDiskIcon, TickIcon, TrashIcon, UndoIcon } from '@blueprintjs/icons';
import { Button, Callout, Classes, Intent, NonIdealState } from '@blueprintjs/core';
import {
  CustomEditorModule,
  ModuleRegistry,
  RenderApiModule,
  RowApiModule,
  RowSelectionModule,
  ScrollApiModule,
  TextEditorModule,
  TooltipModule,
  type CellClassParams,
  type CellEditRequestEvent,
  type ColDef,
  type GetRowIdParams,
  type GridApi,
  type GridReadyEvent,
  type SortChangedEvent,
  type ValueFormatterParams,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { formatRate } from '@shared/pricing';
import { searchFilters, writableFields } from '@shared/schema';
import type { FieldError, SortDir } from '@shared/wire';
import { apiErrorOf, httpStatus } from '@web/core/apiErrors';
import { columnsFromSchema } from '@web/engine/columns';
import { isReadOnly } from '@web/engine/form/formSchema';
import { countryOptions } from '@web/engine/form/widgets/CountryWidget/countryNames';
import { useGridLook } from '@web/engine/useGridLook';
import { Pager } from '@web/ui/Pager';
import { SearchBar } from '@web/engine/SearchBar';
import { showToast } from '@web/ui/toaster';
import type { EntityRow } from '@web/core/types';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { ChoiceEditor, type Choice, type ChoiceEditorParams } from './ChoiceEditor';
import * as edits from './ruleEdits';
import type { RuleKind } from './ruleKinds';
import { useGetNetworksQuery, usePlanRulesPageQuery, useSavePlanRulesMutation, type Network } from './rulesApi';
import { useRuleValidation } from './useRuleValidation';
import './pricing.css';
import { messageOr } from '@web/core/messages';

// Editing on top of the modules the entity grid registers: text and custom editors, row selection, tooltips,
// and the calls that refresh cells, find rows and scroll to them.
ModuleRegistry.registerModules([TextEditorModule, CustomEditorModule, RowSelectionModule, TooltipModule, RenderApiModule, RowApiModule, ScrollApiModule]);

type GridRow = EntityRow & { __key: string; __status: edits.RowStatus };

type Action =
  | { type: 'load'; items: EntityRow[] }
  | { type: 'edit'; changes: { key: string; values: EntityRow }[]; appended?: EntityRow[] }
  | { type: 'paste'; block: string[][]; rowIndex: number; columns: string[]; toValues: (cells: Record<string, string>) => EntityRow; newRow: () => EntityRow }
  | { type: 'remove'; keys: string[] }
  | { type: 'undo' }
  | { type: 'saved' };

function reducer(state: edits.EditState, action: Action): edits.EditState {
  switch (action.type) {
    case 'load':
      return edits.loaded(action.items);
    case 'edit':
      return edits.edit(state, action.changes, action.appended);
    case 'paste':
      return edits.paste(state, action.block, { rowIndex: action.rowIndex, columns: action.columns }, action.toValues, action.newRow);
    case 'remove':
      return edits.removeRows(state, action.keys);
    case 'undo':
      return edits.undo(state);
    case 'saved':
      return edits.saved(state);
  }
}

export interface RulesGridProps {
  kind: RuleKind;
  planId: string;
  /** The plan's currency: rates of rules without their own read in it. */
  currency?: string;
  /** Values a new row starts with. */
  newRow: () => EntityRow;
  /** The address of one rule's form, when the kind has one. */
  rulePath?: (ruleId: string) => string;
  /** Only to read: no cell is edited, pasted into, added or deleted (a user the server would refuse). */
  readOnly?: boolean;
}

const NETWORK_FIELDS = new Set(['network']);

/** Columns keep their headers readable; the grid scrolls sideways instead. */
const DEFAULT_COLUMN: ColDef<GridRow> = { minWidth: 110 };

/**
 * As tall as its rows (header, rows, the sideways scroll bar) up to most of the window, then it scrolls with
 * its header kept in view, as a spreadsheet does.
 */
function gridHeight(rows: number): string {
  return `min(70vh, ${50 + Math.max(rows, 3) * 42 + 20}px)`;
}

export function RulesGrid({ kind, planId, currency, newRow, rulePath, readOnly = false }: RulesGridProps) {
  const intl = useIntl();
  const isAdmin = useIsAdmin();
  const look = useGridLook();
  const { schema } = kind;
  const defaultSort = schema['x-list'].defaultSort;
  const [query, setQuery] = useState({
    page: 0,
    sortBy: defaultSort.sortBy,
    sortDir: defaultSort.sortDir as SortDir,
    searchBy: searchFilters(schema, isAdmin)[0]?.by ?? '',
    searchKey: '',
  });
  const size = schema['x-list'].pageSize ?? 100;
  const request = {
    sortBy: query.sortBy,
    sortDir: query.sortDir,
    page: { page: query.page, size },
    ...(query.searchKey ? { searchBy: query.searchBy, searchKey: query.searchKey } : {}),
  };
  const result = usePlanRulesPageQuery({ kind: kind.name, planId, request });
  const networks = useGetNetworksQuery({ size: 5000 }, { skip: !schema.properties.mnc }).data;
  const [saveRules, saving] = useSavePlanRulesMutation();
  const [state, dispatch] = useReducer(reducer, edits.EMPTY_EDITS);
  const [serverErrors, setServerErrors] = useState<edits.CellErrors>({});
  const dirty = edits.isDirty(state);
  const validate = useRuleValidation(kind, networks);
  const writable = useMemo(() => writableFields(schema).filter((f) => f !== 'id'), [schema]);
  const apiRef = useRef<GridApi<GridRow> | null>(null);

  // The server's page shows as long as nothing is changed; a save or a new page loads it afresh.
  const items = result.data?.items;
  useEffect(() => {
    if (items && !dirty) dispatch({ type: 'load', items });
    // Only a new page loads: `dirty` is left out, so an undo back to no change keeps the rows as they are.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `dirty` is left out on purpose (above)
  }, [items]);

  const cellErrors = useMemo(() => {
    const errors: edits.CellErrors = {};
    for (const row of state.rows) {
      const own = row.status === 'clean' ? {} : validate(row.data);
      const merged = { ...serverErrors[row.key], ...own };
      if (Object.keys(merged).length) errors[row.key] = merged;
    }
    return errors;
  }, [state.rows, validate, serverErrors]);
  const errorsRef = useRef(cellErrors);
  useLayoutEffect(() => {
    errorsRef.current = cellErrors;
  });
  useEffect(() => apiRef.current?.refreshCells({ force: true }), [cellErrors]);

  const byCountry = useMemo(() => {
    const map = new Map<string, Network[]>();
    for (const n of networks ?? []) map.set(n.country, [...(map.get(n.country) ?? []), n]);
    return map;
  }, [networks]);
  const networkName = (n: Network) => n.brand || n.operator;

  const rowData = useMemo<GridRow[]>(() => state.rows.map((r) => ({ ...r.data, __key: r.key, __status: r.status })), [state.rows]);

  const columnDefs = useMemo<ColDef<GridRow>[]>(() => {
    const errorOf = (p: { data?: GridRow }, field: string) => (p.data ? errorsRef.current[p.data.__key]?.[field] : undefined);
    // The grid reads errorOf as it draws a cell, not while React renders; refreshCells redraws the cells on new errors.
    // eslint-disable-next-line react-hooks/refs
    const defs = columnsFromSchema(schema, intl).map((col): ColDef<GridRow> => {
      const field = String(col.field);
      const prop = schema.properties[field];
      const editable = !readOnly && Boolean(prop) && !isReadOnly(prop);
      const def: ColDef<GridRow> = {
        ...(col as ColDef<GridRow>),
        ...(col.flex ? { minWidth: 180 } : {}),
        sortable: col.sortable && !dirty,
        editable,
        // Editors hand over the text as typed; cellValue reads it (a decimal comma too) the way a paste is read.
        cellDataType: false,
        cellClassRules: { 'portal-cell-invalid': (p: CellClassParams<GridRow>) => Boolean(errorOf(p, field)) },
        tooltip: (p) => errorOf(p, field),
      };
      if (prop?.['x-format'] === 'rate') {
        def.valueFormatter = (p: ValueFormatterParams<GridRow>) =>
          typeof p.value === 'number'
            ? formatRate(intl.locale, p.value, String(p.data?.currency ?? currency ?? ''))
            : (p.value ?? intl.formatMessage({ id: 'format.none' }));
      }
      const choices = (list: Choice[]): Partial<ColDef<GridRow>> => ({
        cellEditor: ChoiceEditor,
        cellEditorParams: { choicesOf: () => list, placeholder: intl.formatMessage({ id: 'form.select.placeholder' }) } satisfies ChoiceEditorParams,
      });
      if (field === 'country') {
        // A country reads by its code (the server sorts by it) and its name in the user's language, and is picked
        // by name from the real ones; the rule keeps the code.
        const names = new Map(countryOptions(intl.locale).map((c) => [String(c.value), c.label]));
        def.minWidth = 200;
        def.valueFormatter = (p: ValueFormatterParams<GridRow>) =>
          typeof p.value !== 'string' ? intl.formatMessage({ id: 'format.none' }) : names.has(p.value) ? `${p.value} · ${names.get(p.value)}` : p.value;
        if (editable) Object.assign(def, choices(countryOptions(intl.locale).map((c) => ({ value: String(c.value), label: c.label }))));
      } else if (editable && prop?.type === 'boolean')
        Object.assign(def, choices([true, false].map((v) => ({ value: String(v), label: intl.formatMessage({ id: v ? 'form.yes' : 'form.no' }) }))));
      else if (editable && Array.isArray(prop?.enum))
        Object.assign(def, choices(prop.enum.map((v) => ({ value: String(v), label: messageOr(intl, `enum.${v}`, String(v)) }))));
      else if (editable && NETWORK_FIELDS.has(field) && schema.properties.mnc) {
        def.cellEditor = ChoiceEditor;
        def.cellEditorParams = {
          choicesOf: (row) =>
            (row.country ? (byCountry.get(String(row.country)) ?? []) : (networks ?? [])).map((n) => ({
              value: n.plmn,
              label: `${networkName(n)} (${n.plmn})`,
            })),
          currentOf: (row) => `${row.mcc ?? ''}${row.mnc ?? ''}`,
          placeholder: intl.formatMessage({ id: 'pricingRules.pickNetwork' }),
        } satisfies ChoiceEditorParams;
      } else if (editable) def.cellEditor = 'agTextCellEditor';
      return def;
    });
    if (schema.properties.plmn) {
      const at = defs.findIndex((d) => d.field === 'network');
      defs.splice(at + 1, 0, {
        colId: 'plmn',
        field: 'plmn',
        headerName: intl.formatMessage({ id: schema.properties.plmn.title! }),
        width: 100,
        editable: false,
        sortable: !dirty,
      });
    }
    if (rulePath) {
      defs.unshift({
        colId: '__open',
        headerName: '',
        width: 56,
        minWidth: 56,
        sortable: false,
        resizable: false,
        cellRenderer: (p: { data?: GridRow }) =>
          p.data && p.data.__status !== 'new' ? (
            <Link
              to={rulePath(String(p.data.id))}
              className={Classes.TEXT_SMALL}
              aria-label={intl.formatMessage({ id: 'pricingRules.open' })}
              data-testid="rule-open"
            >
              #{String(p.data.id)}
            </Link>
          ) : null,
      });
    }
    return defs.map((d) => ({ ...d, sort: d.colId === query.sortBy ? query.sortDir : null }));
  }, [schema, intl, dirty, currency, byCountry, networks, rulePath, readOnly, query.sortBy, query.sortDir]);

  /** Values typed or pasted into cells, as the rule holds them; a chosen network brings its MCC, MNC and country. */
  const toValues = useCallback(
    (cells: Record<string, unknown>, row?: EntityRow): EntityRow => {
      const values: EntityRow = {};
      for (const [field, text] of Object.entries(cells)) {
        if (!writable.includes(field)) continue;
        const network = NETWORK_FIELDS.has(field) && schema.properties.mnc ? networks?.find((n) => n.plmn === text) : undefined;
        if (network) Object.assign(values, { network: networkName(network), mcc: network.mcc, mnc: network.mnc, country: network.country });
        else values[field] = edits.cellValue(schema, field, text);
      }
      if (schema.properties.plmn && ('mcc' in values || 'mnc' in values)) values.plmn = `${values.mcc ?? row?.mcc ?? ''}${values.mnc ?? row?.mnc ?? ''}`;
      return values;
    },
    [schema, writable, networks],
  );

  const clearServerError = (key: string, fields: string[]) =>
    setServerErrors((all) => {
      if (!all[key]) return all;
      const rest = Object.fromEntries(Object.entries(all[key]).filter(([f]) => !fields.includes(f)));
      return { ...all, [key]: rest };
    });

  const onCellEditRequest = (event: CellEditRequestEvent<GridRow>) => {
    const field = event.colDef.field;
    if (!field || !event.data) return;
    const values = toValues({ [field]: event.newValue }, event.data);
    clearServerError(event.data.__key, Object.keys(values));
    dispatch({ type: 'edit', changes: [{ key: event.data.__key, values }] });
  };

  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    const api = apiRef.current;
    const focused = api?.getFocusedCell();
    if (readOnly || !api || !focused || api.getEditingCells().length > 0) return;
    const text = event.clipboardData.getData('text/plain');
    if (!text) return;
    event.preventDefault();
    const displayed = api.getAllDisplayedColumns();
    const from = displayed.findIndex((c) => c.getColId() === focused.column.getColId());
    const columns = displayed
      .slice(from)
      .map((c) => String(c.getColDef().field ?? ''))
      .filter((f) => writable.includes(f));
    const block = edits.parseBlock(text);
    setServerErrors({});
    dispatch({ type: 'paste', block, rowIndex: focused.rowIndex, columns, toValues: (cells) => toValues(cells), newRow });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const api = apiRef.current;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z' && !api?.getEditingCells().length) {
      event.preventDefault();
      dispatch({ type: 'undo' });
    }
  };

  const [focusKey, setFocusKey] = useState<string | null>(null);
  const addRow = () => {
    dispatch({ type: 'edit', changes: [], appended: [newRow()] });
    setFocusKey(`new-${state.nextNew}`);
  };
  useEffect(() => {
    const api = apiRef.current;
    const node = focusKey ? api?.getRowNode(focusKey) : undefined;
    if (!api || !node || node.rowIndex === null) return;
    api.ensureIndexVisible(node.rowIndex);
    api.setFocusedCell(node.rowIndex, writable[0]);
    setFocusKey(null);
  }, [focusKey, rowData, writable]);

  const deleteSelected = () => {
    const keys = (apiRef.current?.getSelectedRows() ?? []).map((r) => r.__key);
    dispatch({ type: 'remove', keys });
  };

  const errorCount = Object.values(cellErrors).reduce((n, e) => n + Object.keys(e).length, 0);
  const save = async () => {
    if (errorCount > 0) {
      showToast({ intent: Intent.WARNING, icon: <ErrorIcon />, message: intl.formatMessage({ id: 'pricingRules.invalid' }) });
      return;
    }
    const batch = edits.toBatch(state, writable);
    const answer = await saveRules({ kind: kind.name, planId, batch: { save: batch.save, delete: batch.delete } });
    if (answer.error) {
      const apiError = apiErrorOf(answer.error);
      const message = (e: FieldError) => messageOr(intl, e.messageId, e.message);
      setServerErrors(edits.batchErrors(apiError?.fields ?? [], batch.keys, message));
      const reason =
        httpStatus(answer.error) === 400
          ? intl.formatMessage({ id: 'pricingRules.invalid' })
          : (apiError?.message ?? intl.formatMessage({ id: 'app.error.generic' }));
      showToast({ intent: Intent.DANGER, icon: <ErrorIcon />, message: intl.formatMessage({ id: 'pricingRules.saveError' }, { message: reason }) });
      return;
    }
    setServerErrors({});
    showToast({ intent: Intent.SUCCESS, icon: <TickIcon />, message: intl.formatMessage({ id: 'pricingRules.saved' }) });
    // The saved rules come back with the page the save invalidated; until then the grid shows them as they are.
    dispatch({ type: 'saved' });
  };

  const onSortChanged = (event: SortChangedEvent<GridRow>) => {
    if (event.source !== 'uiColumnSorted') return;
    const sorted = event.api.getColumnState().find((c) => c.sort);
    setQuery((q) => ({ ...q, page: 0, ...(sorted?.sort ? { sortBy: sorted.colId, sortDir: sorted.sort } : defaultSort) }));
  };

  const headerOf = (field: string) => {
    const title = field === 'plmn' ? schema.properties.plmn?.title : schema.properties[field]?.title;
    return title ? intl.formatMessage({ id: title }) : field;
  };
  const rowNumber = (key: string) => state.rows.findIndex((r) => r.key === key) + 1;
  const page = result.data;

  if (httpStatus(result.error) === 404) {
    return <NonIdealState icon={<ErrorIcon size={48} />} description={<FormattedMessage id="form.notFound" />} />;
  }

  return (
    <div className="portal-rules" data-testid={`rules-${schema['x-entity'].name}`}>
      <div className="portal-rules-toolbar">
        <SearchBar
          schema={schema}
          filters={searchFilters(schema, isAdmin)}
          searchKey={query.searchKey}
          searchBy={query.searchBy}
          onSearch={(searchKey, searchBy) => setQuery((q) => ({ ...q, searchKey, searchBy, page: 0 }))}
        />
        {!readOnly && (
          <div className="portal-page-actions">
            <Button icon={<AddIcon />} onClick={addRow} data-testid="rules-add">
              <FormattedMessage id="pricingRules.add" />
            </Button>
            <Button icon={<TrashIcon />} onClick={deleteSelected} data-testid="rules-delete">
              <FormattedMessage id="pricingRules.delete" />
            </Button>
            <Button icon={<UndoIcon />} onClick={() => dispatch({ type: 'undo' })} disabled={!dirty} data-testid="rules-undo">
              <FormattedMessage id="pricingRules.undo" />
            </Button>
            <Button
              intent={Intent.PRIMARY}
              icon={<FloppyDiskIcon />}
              onClick={save}
              disabled={!dirty || edits.changeCount(state) === 0}
              loading={saving.isLoading}
              data-testid="rules-save"
            >
              <FormattedMessage id="pricingRules.save" />
            </Button>
          </div>
        )}
      </div>
      {!readOnly && (
        <p className={Classes.TEXT_MUTED}>
          <FormattedMessage id="pricingRules.hint" />{' '}
          {dirty && (
            <strong data-testid="rules-pending">
              <FormattedMessage id="pricingRules.pending" values={{ count: edits.changeCount(state) }} />
            </strong>
          )}
        </p>
      )}
      {result.isError && !page ? (
        <Callout intent={Intent.DANGER} role="alert">
          <FormattedMessage id="list.loadError" />
        </Callout>
      ) : (
        // The grid takes pastes and Ctrl+Z for the focused cell (the events bubble up from it).
        // eslint-disable-next-line jsx-a11y/no-static-element-interactions -- the grid's cells are the interactive parts
        <div
          className="portal-grid portal-rules-grid"
          style={{ height: gridHeight(rowData.length) }}
          onPaste={onPaste}
          onKeyDown={onKeyDown}
          data-testid="rules-grid"
        >
          <AgGridReact<GridRow>
            key={look.key}
            {...look.props}
            rowData={rowData}
            columnDefs={columnDefs}
            defaultColDef={DEFAULT_COLUMN}
            getRowId={(p: GetRowIdParams<GridRow>) => p.data.__key}
            onGridReady={(e: GridReadyEvent<GridRow>) => (apiRef.current = e.api)}
            readOnlyEdit
            onCellEditRequest={onCellEditRequest}
            onSortChanged={onSortChanged}
            rowSelection={readOnly ? undefined : { mode: 'multiRow', checkboxes: true, headerCheckbox: true, enableClickSelection: false }}
            rowClassRules={{ 'portal-row-changed': (p) => p.data?.__status === 'changed', 'portal-row-new': (p) => p.data?.__status === 'new' }}
            suppressRowVirtualisation
            suppressColumnVirtualisation
            stopEditingWhenCellsLoseFocus
            tooltipShowDelay={200}
            animateRows={false}
          />
        </div>
      )}
      {errorCount > 0 && (
        <Callout intent={Intent.DANGER} icon={<ErrorIcon />} className="portal-rules-errors" data-testid="rules-errors">
          <ul>
            {Object.entries(cellErrors).flatMap(([key, fields]) =>
              Object.entries(fields).map(([field, message]) => (
                <li key={`${key}.${field}`} data-field={field}>
                  <FormattedMessage id="pricingRules.errorAt" values={{ row: rowNumber(key), column: headerOf(field), message }} />
                </li>
              )),
            )}
          </ul>
        </Callout>
      )}
      {page && (
        <Pager
          page={page.currentPage + 1}
          pages={Math.max(1, page.totalPageCount)}
          total={page.totalItemsCount}
          onPage={(next) => !dirty && setQuery((q) => ({ ...q, page: next - 1 }))}
        />
      )}
    </div>
  );
}
