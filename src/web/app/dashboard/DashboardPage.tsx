/** The dashboard, with the payments screen's balance widget (its top up) where the user sees the reseller's money. */
import { hasPrivilege } from '@shared/privileges';
import { useGetUserUiPrivilegesQuery } from '@web/core/authApi';
import { isRoutedPath } from '@web/app/routePaths';
import Dashboard from '@web/features/dashboard/DashboardPage';
import { BalanceWidget } from '@web/features/payments/BalanceWidget';

export default function DashboardPage() {
  const { data: granted = [] } = useGetUserUiPrivilegesQuery();
  return <Dashboard balance={<BalanceWidget canTopUp={hasPrivilege(granted, 'PaymentMethods')} />} isRouted={isRoutedPath} />;
}
