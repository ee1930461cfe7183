/**
 * The dashboard (`/`): a welcome, the trends of the last 24 hours, the world map, usage and sales over one range,
 * sales totals by a key, the balance with its summary and history, the top subscribers, and the user's quick
 * shortcuts. Each widget follows its own privilege and says so when the user lacks it; the range is kept in the
 * address and the user's preferences (docs/dashboard.md).
 */
import { Card, H2, H3 } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { hasPrivilege } from '@shared/privileges';
import { useGetUserQuery, useGetUserUiPrivilegesQuery } from '@web/core/authApi';
import { displayName } from '@web/core/userTypes';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { Loading } from '@web/ui/Loading';
import { BalanceSummary } from './BalanceSummary';
import { BalanceHistoryChart, SalesByChart, SeriesWidget } from './ChartWidgets';
import { MapWidget } from './MapWidget';
import { seesMoney } from './prefetch';
import { rangeBody, useDashboardRange } from './range';
import { RangePicker } from './RangePicker';
import { Shortcuts } from './Shortcuts';
import type { Shortcut } from './shortcuts';
import { TopSubscribers } from './TopSubscribers';
import { Trends } from './Trends';
import './dashboard.css';

export interface DashboardProps {
  /** The balance with its top up (the payments screen's widget), for those who see the reseller's money. */
  balance?: ReactNode;
  /** Whether a path leads to a screen of the portal. */
  isRouted: (path: string) => boolean;
}

export default function DashboardPage({ balance, isRouted }: DashboardProps) {
  const { data: profile } = useGetUserQuery();
  const { data: granted = [], isLoading } = useGetUserUiPrivilegesQuery();
  const isAdmin = useIsAdmin();
  const [range, setRange] = useDashboardRange();
  const body = rangeBody(range);
  const graphs = hasPrivilege(granted, 'Dashboard');
  const top = graphs || hasPrivilege(granted, 'Subscribers');
  const money = seesMoney(granted, isAdmin);
  const allowed = (s: Shortcut) => Boolean(s.path && isRouted(s.path) && (!s.privilege || hasPrivilege(granted, s.privilege)));
  return (
    <div className="portal-page portal-dashboard">
      <div className="portal-dashboard-head">
        <H2>
          <FormattedMessage id="dashboard.title" />
        </H2>
        <RangePicker value={range} onChange={setRange} />
      </div>
      <div className="portal-dashboard-intro">
        {profile && (
          <Card className="portal-welcome" data-testid="dashboard-welcome">
            <H3>
              <FormattedMessage id="dashboard.welcome" values={{ name: displayName(profile) }} />
            </H3>
            <p>
              <FormattedMessage id="dashboard.reseller" values={{ name: profile.resellerInfo.name }} />
            </p>
          </Card>
        )}
        <Shortcuts allowed={allowed} />
      </div>
      {/* Until the privileges are known the widgets wait, rather than ask, or say "no privilege" for a moment. */}
      {isLoading ? (
        <Loading />
      ) : (
        <>
          <Trends granted={graphs} />
          <div className="portal-dashboard-grid">
            <MapWidget body={body} granted={graphs} />
            <SeriesWidget id="usage" body={body} granted={graphs} />
            <SeriesWidget id="sales" body={body} granted={graphs} />
            <SalesByChart body={body} granted={graphs} />
            <TopSubscribers granted={top} />
            {money && (
              <div className="portal-dashboard-money">
                {balance}
                <BalanceSummary />
              </div>
            )}
            {money && <BalanceHistoryChart body={body} granted={graphs} />}
          </div>
        </>
      )}
    </div>
  );
}
