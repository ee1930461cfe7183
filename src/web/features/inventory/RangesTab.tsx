/**
 * The caller's inventory ranges (a batch each) with a bar of their use, and a warning for each reseller whose
 * stock runs out within LOW_STOCK_DAYS at its rate of the last RATE_WINDOW_DAYS days. The administrator adds
 * batches here.
 */
import { Button, Callout, HTMLTable, Intent, NonIdealState, ProgressBar } from '@blueprintjs/core';
import { AddIcon, BoxIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { InventoryRange, InventoryStock } from '@shared/inventory';
import { useGetInventoryRangesQuery } from '@web/core/inventoryApi';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { Loading } from '@web/ui/Loading';
import { AddBatchDialog } from './AddBatchDialog';
import { lowStocks, usedShare } from './stock';

function StockWarnings({ stock }: { stock: readonly InventoryStock[] }) {
  const low = lowStocks(stock);
  if (!low.length) return null;
  return (
    <div className="portal-inventory-warnings">
      {low.map((s) => (
        <Callout key={s.resellerId} intent={Intent.WARNING} data-testid={`low-stock-${s.resellerId}`}>
          <FormattedMessage
            id="inventory.stock.low"
            values={{ reseller: s.resellerName, range: s.nextRange ?? '—', days: s.nextRangeDaysLeft ?? 0, total: s.daysLeft ?? 0, perDay: s.perDay }}
          />
        </Callout>
      ))}
    </div>
  );
}

function RangeRow({ range, onOpen }: { range: InventoryRange; onOpen: (batchId: number) => void }) {
  const intl = useIntl();
  const share = usedShare(range);
  return (
    <tr data-testid={`range-${range.name}`}>
      <td>
        <Button variant="minimal" className="portal-inventory-link" onClick={() => onOpen(range.batchId)} text={range.name} />
      </td>
      <td>{range.resellerName}</td>
      <td className="portal-mono" dir="ltr">
        {range.rangeStart}
      </td>
      <td className="portal-mono" dir="ltr">
        {range.rangeEnd}
      </td>
      <td className="portal-inventory-usage">
        <ProgressBar
          value={share}
          stripes={false}
          animate={false}
          intent={share > 0.9 ? Intent.DANGER : share > 0.7 ? Intent.WARNING : Intent.PRIMARY}
          aria-label={intl.formatMessage({ id: 'inventory.range.usage' }, { percent: intl.formatNumber(share, { style: 'percent' }) })}
        />
      </td>
      <td className="portal-num" data-testid="range-allocated">
        {intl.formatNumber(range.allocated)}
      </td>
      <td className="portal-num" data-testid="range-available">
        {intl.formatNumber(range.available)}
      </td>
      <td className="portal-num" data-testid="range-total">
        {intl.formatNumber(range.total)}
      </td>
    </tr>
  );
}

export function RangesTab({ onOpenBatch }: { onOpenBatch: (batchId: number) => void }) {
  const isAdmin = useIsAdmin();
  const { data, isError, isLoading } = useGetInventoryRangesQuery(undefined);
  const [adding, setAdding] = useState(false);
  if (isLoading) return <Loading />;
  if (isError || !data)
    return (
      <Callout intent={Intent.DANGER} role="alert">
        <FormattedMessage id="list.loadError" />
      </Callout>
    );
  return (
    <div data-testid="inventory-ranges">
      <StockWarnings stock={data.stock} />
      {isAdmin && (
        <div className="portal-inventory-toolbar">
          <Button icon={<AddIcon />} intent={Intent.PRIMARY} onClick={() => setAdding(true)} data-testid="add-batch">
            <FormattedMessage id="inventory.batch.add" />
          </Button>
        </div>
      )}
      {data.ranges.length === 0 ? (
        <NonIdealState icon={<BoxIcon size={48} />} description={<FormattedMessage id="inventory.range.none" />} />
      ) : (
        <HTMLTable compact striped className="portal-inventory-table">
          <thead>
            <tr>
              {['batch', 'reseller', 'rangeStart', 'rangeEnd', 'use', 'allocated', 'available', 'total'].map((c) => (
                <th key={c}>
                  <FormattedMessage id={`inventory.range.${c}`} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.ranges.map((r) => (
              <RangeRow key={r.batchId} range={r} onOpen={onOpenBatch} />
            ))}
          </tbody>
        </HTMLTable>
      )}
      {adding && <AddBatchDialog onClose={() => setAdding(false)} />}
    </div>
  );
}
