/** The subscribers with the most data in the last 24 hours: total and today's MB, their charges, a link to each. */
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
  const table = {
    columns: ['subscriber', 'totalMb', 'todayMb', 'charge'].map((c) => intl.formatMessage({ id: `dashboard.top.${c}` })),
    rows: rows.map((s) => ({
      key: s.subscriberId,
      values: [s.name || s.imsi, s.totalMb, s.todayMb, s.chargeUsd],
      shown: [
        <Link key="link" to={s.link} data-testid={`dashboard-top-${s.subscriberId}`}>
          {s.name || s.imsi}
        </Link>,
        figures.mb(s.totalMb),
        figures.mb(s.todayMb),
        figures.money(s.chargeUsd),
      ],
    })),
  };
  return (
    <ChartFrame
      title={title}
      name={title}
      loading={granted && (q.isFetching || (!q.data && !q.error))}
      empty={emptyReason(granted, q.error, rows.length === 0)}
      table={table}
      tableOnly
      onRefresh={() => void q.refetch()}
      testId="dashboard-top"
    />
  );
}
