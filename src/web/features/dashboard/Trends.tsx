/** Usage and sales of the last 24 hours against the daily average of the six days before: the figure, an arrow and the change. */
import { Card, Classes, H4, Intent, Tag } from '@blueprintjs/core';
import { ArrowDownIcon, ArrowRightIcon, ArrowUpIcon, RefreshIcon } from '@blueprintjs/icons';
import { Button } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePostGraphsTrendsQuery, type PostGraphsTrendsApiResponse } from '@web/core/graphsApi.gen';
import { emptyReason, useFigures } from './format';

type Trend = PostGraphsTrendsApiResponse['usage'];
const ICONS = { up: ArrowUpIcon, down: ArrowDownIcon, flat: ArrowRightIcon } as const;

function TrendCard({ id, trend, format, loading }: { id: 'usage' | 'sales'; trend: Trend | undefined; format: (v: number) => string; loading: boolean }) {
  const intl = useIntl();
  const Icon = trend ? ICONS[trend.direction] : ArrowRightIcon;
  const skeleton = loading ? Classes.SKELETON : undefined;
  // Nothing in either period reads "none"; something after nothing reads "new".
  const percent =
    trend && trend.last24Hours === 0 && trend.previousDailyAverage === 0
      ? intl.formatMessage({ id: 'dashboard.trend.none' })
      : trend?.percent === null || trend?.percent === undefined
        ? intl.formatMessage({ id: 'dashboard.trend.noAverage' })
        : intl.formatNumber(trend.percent / 100, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' });
  return (
    <Card className="portal-trend" data-testid={`dashboard-trend-${id}`} data-direction={trend?.direction}>
      <H4 className="portal-trend-title">
        <FormattedMessage id={`dashboard.trend.${id}`} />
      </H4>
      <div className={['portal-trend-figure', skeleton].filter(Boolean).join(' ')}>{trend ? format(trend.last24Hours) : '—'}</div>
      <div className={['portal-trend-change', skeleton].filter(Boolean).join(' ')}>
        <Tag
          minimal
          intent={trend?.direction === 'up' ? Intent.SUCCESS : trend?.direction === 'down' ? Intent.DANGER : Intent.NONE}
          icon={<Icon aria-hidden />}
          aria-label={intl.formatMessage({ id: `dashboard.trend.${trend?.direction ?? 'flat'}` }, { percent })}
        >
          {percent}
        </Tag>
        <span className={Classes.TEXT_MUTED}>
          <FormattedMessage id="dashboard.trend.against" values={{ average: trend ? format(trend.previousDailyAverage) : '—' }} />
        </span>
      </div>
    </Card>
  );
}

export function Trends({ granted }: { granted: boolean }) {
  const intl = useIntl();
  const figures = useFigures();
  const q = usePostGraphsTrendsQuery({}, { skip: !granted });
  const empty = emptyReason(granted, q.error, false);
  if (empty)
    return (
      <Card className="portal-trend" data-testid="dashboard-trends-empty">
        <FormattedMessage id={`chart.empty.${empty}`} />
      </Card>
    );
  const loading = q.isFetching || !q.data;
  return (
    <section className="portal-trends" aria-label={intl.formatMessage({ id: 'dashboard.trend.title' })} data-testid="dashboard-trends">
      <TrendCard id="usage" trend={q.data?.usage} format={figures.mb} loading={loading} />
      <TrendCard id="sales" trend={q.data?.sales} format={figures.money} loading={loading} />
      <Button
        variant="minimal"
        icon={<RefreshIcon />}
        onClick={() => void q.refetch()}
        aria-label={intl.formatMessage({ id: 'chart.refresh' })}
        title={intl.formatMessage({ id: 'chart.refresh' })}
      />
    </section>
  );
}
