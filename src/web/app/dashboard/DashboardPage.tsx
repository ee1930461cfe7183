import { Button, Card, Classes, H2, H4 } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router-dom';
import { hasPrivilege } from '@shared/privileges';
import { useGetUserUiPrivilegesQuery, useGetUserQuery } from '@web/core/authApi';
import { isRoutedPath } from '@web/app/routePaths';
import { displayName } from '@web/core/userTypes';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { BalanceWidget } from '@web/features/payments/BalanceWidget';
import { SHORTCUTS, type Shortcut } from './shortcuts';

function ShortcutButton({ shortcut, enabled }: { shortcut: Shortcut; enabled: boolean }) {
  const text = <FormattedMessage id={shortcut.messageId} />;
  if (enabled && shortcut.path) {
    // A link styled as a button: it navigates, so it must be an anchor, not a button inside one.
    return (
      <Link to={shortcut.path} className={Classes.BUTTON} data-testid={`shortcut-${shortcut.id}`}>
        <shortcut.icon />
        <span className={Classes.BUTTON_TEXT}>{text}</span>
      </Link>
    );
  }
  return <Button icon={<shortcut.icon />} text={text} disabled data-testid={`shortcut-${shortcut.id}`} />;
}

export default function DashboardPage() {
  const { data: profile } = useGetUserQuery();
  const { data: granted = [] } = useGetUserUiPrivilegesQuery();
  const isAdmin = useIsAdmin();
  // A reseller's money: its balance for those who pay or sell packages, with the top up for those who pay.
  const pays = hasPrivilege(granted, 'PaymentMethods');
  const showsBalance = !isAdmin && (pays || hasPrivilege(granted, 'PrePaidPackages'));
  return (
    <div className="portal-page portal-dashboard">
      <H2>
        <FormattedMessage id="dashboard.title" />
      </H2>
      {profile && (
        <Card className="portal-welcome" data-testid="dashboard-welcome">
          <H4>
            <FormattedMessage id="dashboard.welcome" values={{ name: displayName(profile) }} />
          </H4>
          <p>
            <FormattedMessage id="dashboard.reseller" values={{ name: profile.resellerInfo.name }} />
          </p>
        </Card>
      )}
      {showsBalance && <BalanceWidget canTopUp={pays} />}
      <section className="portal-shortcuts" aria-labelledby="dashboard-shortcuts">
        <H4 id="dashboard-shortcuts">
          <FormattedMessage id="dashboard.shortcuts" />
        </H4>
        <div className="portal-shortcut-list">
          {SHORTCUTS.map((s) => (
            <ShortcutButton key={s.id} shortcut={s} enabled={Boolean(s.path && isRoutedPath(s.path) && (!s.privilege || hasPrivilege(granted, s.privilege)))} />
          ))}
        </div>
      </section>
    </div>
  );
}
