import { HTMLTable } from '@blueprintjs/core';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { Loading } from '@web/ui/Loading';
import { NO_PLAN, useGetPricingPlansQuery } from '@web/core/pricingPlansApi';
import { formatCell } from '@web/engine/columns';
import { Pager } from '@web/ui/Pager';
import { Facts } from '../dialogs';
import { useChargesQuery } from '../subscriberApi';
import { messageOr } from '@web/core/messages';
import { type PanelProps, Panel, useLabel, field, LoadError, Empty } from './Panel';

const CHARGES_PAGE = 10;

export function ServicesPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const plans = useGetPricingPlansQuery();
  const [page, setPage] = useState(1);
  const { data, error } = useChargesQuery({ id: subscriber.subscriberId, page: page - 1, size: CHARGES_PAGE });
  const planId = subscriber.pricingPlanId ?? null;
  const planName =
    planId === null || planId === NO_PLAN
      ? label('pricingPlan.none')
      : (plans.data?.pricingPlans.find((p) => p.pricingPlanId === planId)?.pricingPlanName ?? label('pricingPlan.setByAdmin'));
  return (
    <Panel id="services" title={label('subscriber.panel.services')} wide>
      <Facts
        items={[
          [label(field('balance')), formatCell(intl, 'money', subscriber.balance)],
          [label(field('pricingPlanId')), <span data-testid="pricing-plan-name">{planName}</span>],
        ]}
      />
      <h4 className="portal-panel-subtitle">{label('subscriber.charges')}</h4>
      {error ? (
        <LoadError error={error} />
      ) : !data ? (
        <Loading />
      ) : data.items.length === 0 ? (
        <Empty />
      ) : (
        <>
          {/* A panel of the subscriber's page, paged on the server: the grid and the admin table are whole pages, not panels. */}
          <HTMLTable compact striped className="portal-panel-table" data-testid="charges-table">
            <thead>
              <tr>
                <th>{label('subscriber.log.when')}</th>
                <th>{label('subscriber.charge.kind')}</th>
                <th className="portal-cell-number">{label('subscriber.charge.amount')}</th>
                <th>{label('subscriber.credit.description')}</th>
                <th>{label('subscriber.log.who')}</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((c) => (
                <tr key={c.id}>
                  <td>{formatCell(intl, 'datetime', c.createdAt)}</td>
                  <td>{messageOr(intl, `subscriber.charge.${c.kind}`, c.kind)}</td>
                  <td className="portal-cell-number">{formatCell(intl, 'money', c.amount)}</td>
                  <td>{c.description}</td>
                  <td>{c.username}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          {data.totalPageCount > 1 && <Pager page={page} pages={data.totalPageCount} total={data.totalItemsCount} onPage={setPage} />}
        </>
      )}
    </Panel>
  );
}
