/**
 * A roaming profile's rates per country in AG Grid, edited in the cells. Each rate cell is checked as it is
 * written (0 or more, at most 4 decimals) and marked while wrong; Save stays disabled until every cell is right,
 * and sends the whole table through the profile's update call.
 */
import { AddIcon, ErrorIcon, FloppyDiskIcon, TickIcon, TrashIcon, UndoIcon } from '@blueprintjs/icons';
import { Button, Callout, H3, HTMLSelect, Intent } from '@blueprintjs/core';
import { ModuleRegistry, TextEditorModule, TooltipModule, type CellValueChangedEvent, type ColDef, type GetRowIdParams } from 'ag-grid-community';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { AgGridReact } from 'ag-grid-react';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { COUNTRY_CODES, countryNames } from '@shared/countries';
import { useGridLook } from '@web/engine/useGridLook';
import { showToast } from '@web/ui/toaster';
import { fromDraft, invalidCells, isRateText, RATE_FIELDS, sameRates, toDraft, type DraftRate, type Rate } from './rates';

// The entity grid only reads; this one edits text in its cells.
ModuleRegistry.registerModules([TextEditorModule, TooltipModule]);

export interface PriceTableProps {
  rates: readonly Rate[];
  /** Saves the table; answers whether the server took it. */
  onSave: (rates: Rate[]) => Promise<boolean>;
  saving: boolean;
  /** Only to read (a user the server would refuse): no cell, country or button that changes the table. */
  readOnly?: boolean;
}

function RemoveButton({ data, context }: CustomCellRendererProps<DraftRate, unknown, { remove: (country: string) => void; label: string }>) {
  if (!data) return null;
  return <Button variant="minimal" size="small" icon={<TrashIcon />} aria-label={context.label} onClick={() => context.remove(data.country)} />;
}

export function PriceTable({ rates, onSave, saving, readOnly = false }: PriceTableProps) {
  const intl = useIntl();
  const look = useGridLook();
  const names = useMemo(() => countryNames(intl.locale), [intl.locale]);
  const saved = useMemo(() => toDraft(rates), [rates]);
  const [draft, setDraft] = useState<DraftRate[]>(saved);
  const [savedBefore, setSavedBefore] = useState(saved);
  // A new answer from the server (after a save, or another user's change) replaces the table.
  if (savedBefore !== saved) {
    setSavedBefore(saved);
    setDraft(saved);
  }
  const [adding, setAdding] = useState('');

  const invalid = invalidCells(draft);
  const dirty = !sameRates(draft, saved);
  const present = new Set(draft.map((r) => r.country));
  const addable = COUNTRY_CODES.filter((c) => !present.has(c)).sort((a, b) => (names[a] ?? a).localeCompare(names[b] ?? b, intl.locale));

  const columnDefs = useMemo<ColDef<DraftRate>[]>(
    () => [
      {
        colId: 'country',
        field: 'country',
        headerName: intl.formatMessage({ id: 'entity.roamingProfile.rate.country' }),
        valueFormatter: (p) => `${names[p.value as string] ?? p.value} (${p.value})`,
        flex: 2,
        minWidth: 180,
        sort: 'asc',
      },
      ...RATE_FIELDS.map((field): ColDef<DraftRate> => ({
        colId: field,
        field,
        headerName: intl.formatMessage({ id: `entity.roamingProfile.rate.${field}` }),
        editable: !readOnly,
        type: 'rightAligned',
        flex: 1,
        minWidth: 110,
        // The text stays as typed: a wrong value is shown marked rather than lost.
        valueParser: (p) => String(p.newValue ?? '').trim(),
        cellClassRules: { 'portal-cell-invalid': (p) => !isRateText(String(p.value ?? '')) },
        tooltip: (p) => (isRateText(String(p.value ?? '')) ? undefined : intl.formatMessage({ id: 'roamingProfile.rates.invalid' })),
      })),
      ...(readOnly ? [] : [{ colId: 'remove', headerName: '', width: 70, minWidth: 70, sortable: false, cellRenderer: RemoveButton }]),
    ],
    [intl, names, readOnly],
  );

  const context = useMemo(
    () => ({
      remove: (country: string) => setDraft((d) => d.filter((r) => r.country !== country)),
      label: intl.formatMessage({ id: 'roamingProfile.rates.remove' }),
    }),
    [intl],
  );

  const onCellValueChanged = (event: CellValueChangedEvent<DraftRate>) => {
    const changed = event.data;
    setDraft((d) => d.map((r) => (r.country === changed.country ? { ...changed } : r)));
  };

  const add = () => {
    if (!adding) return;
    setDraft((d) => [...d, { country: adding, moCall: '0', mtCall: '0', moSms: '0', mtSms: '0', data: '0' }]);
    setAdding('');
  };

  const save = async () => {
    if (await onSave(fromDraft(draft))) {
      showToast({ intent: Intent.SUCCESS, icon: <TickIcon />, message: intl.formatMessage({ id: 'roamingProfile.rates.saved' }) });
    } else {
      showToast({ intent: Intent.DANGER, icon: <ErrorIcon />, message: intl.formatMessage({ id: 'roamingProfile.rates.saveError' }) });
    }
  };

  return (
    <section className="portal-page portal-price-table" data-testid="price-table">
      <header className="portal-page-header">
        <H3>
          <FormattedMessage id="roamingProfile.rates.title" />
        </H3>
        {!readOnly && (
          <div className="portal-page-actions">
            <Button icon={<UndoIcon />} disabled={!dirty || saving} onClick={() => setDraft(saved)} data-testid="price-table-reset">
              <FormattedMessage id="roamingProfile.rates.reset" />
            </Button>
            <Button
              intent={Intent.PRIMARY}
              icon={<FloppyDiskIcon />}
              disabled={!dirty || invalid.length > 0}
              loading={saving}
              onClick={save}
              data-testid="price-table-save"
            >
              <FormattedMessage id="roamingProfile.rates.save" />
            </Button>
          </div>
        )}
      </header>
      {!readOnly && (
        <div className="portal-price-add">
          <HTMLSelect
            value={adding}
            onChange={(e) => setAdding(e.currentTarget.value)}
            aria-label={intl.formatMessage({ id: 'roamingProfile.rates.country' })}
            data-testid="price-table-country"
            options={[
              { value: '', label: intl.formatMessage({ id: 'roamingProfile.rates.country' }) },
              ...addable.map((c) => ({ value: c, label: `${names[c] ?? c} (${c})` })),
            ]}
          />
          <Button icon={<AddIcon />} disabled={!adding} onClick={add} data-testid="price-table-add">
            <FormattedMessage id="roamingProfile.rates.add" />
          </Button>
        </div>
      )}
      {invalid.length > 0 && (
        <Callout intent={Intent.DANGER} role="alert" data-testid="price-table-invalid">
          <FormattedMessage id="roamingProfile.rates.invalidCells" values={{ count: invalid.length }} />
        </Callout>
      )}
      <div className="portal-grid" data-testid="grid-rates">
        <AgGridReact<DraftRate>
          key={look.key}
          {...look.props}
          rowData={draft}
          columnDefs={columnDefs}
          context={context}
          getRowId={(p: GetRowIdParams<DraftRate>) => p.data.country}
          domLayout="autoHeight"
          singleClickEdit
          stopEditingWhenCellsLoseFocus
          onCellValueChanged={onCellValueChanged}
          animateRows={false}
          suppressNoRowsOverlay
        />
      </div>
      {draft.length === 0 && (
        <p className="portal-page-intro">
          <FormattedMessage id="roamingProfile.rates.empty" />
        </p>
      )}
    </section>
  );
}
