/** The subscribers with the most data in the last 24 hours: total and today's MB, their charges, a link to each. */
import { HTMLTable } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { usePostSubscriberInfoTop24HoursQuery } from '@web/core/graphsApi.gen';
import { ChartFrame } from '@web/ui/charts/ChartFrame';
import { emptyReason, useFigures } from './format';

export function TopSubscribers({ granted }: { granted: boolean }) {
  const intl = useIntl();
  const figures = useFigures();
  const q = usePostSubscriberInfoTop24HoursQuery({ body: { size: 10 } }, { skip: !granted });
  const rows = q.data ?? [];
  const title = intl.formatMessage({ id: 'dashboard.top.title' });
  const columns = ['subscriber', 'totalMb', 'todayMb', 'charge'].map((c) => intl.formatMessage({ id: `dashboard.top.${c}` }));
  return (
    <ChartFrame
      title={title}
      name={title}
      loading={granted && (q.isFetching || (!q.data && !q.error))}
      empty={emptyReason(granted, q.error, rows.length === 0)}
      onRefresh={() => void q.refetch()}
      testId="dashboard-top"
    >
      <div className="portal-chart-table">
        <HTMLTable compact striped className="portal-top-table">
          <caption className="portal-visually-hidden">{title}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={s.subscriberId}>
                <td>
                  <Link to={s.link} data-testid={`dashboard-top-${s.subscriberId}`}>
                    {s.name || s.imsi}
                  </Link>
                </td>
                <td>{figures.mb(s.totalMb)}</td>
                <td>{figures.mb(s.todayMb)}</td>
                <td>{figures.money(s.chargeUsd)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
    </ChartFrame>
  );
}
