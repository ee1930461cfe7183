/**
 * The subscriber's prepaid packages (the packages screen's panel), for users who may sell packages: its
 * calls need the PrePaidPackages privilege.
 */
import { Card } from '@blueprintjs/core';
import { hasPrivilege } from '@shared/privileges';
import { selectPrivileges } from '@web/core/authSlice';
import { useAppSelector } from '@web/core/hooks';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { SubscriberPackagesPanel } from '@web/ui/packages/SubscriberPackagesPanel';

export function SubscriberPackagesSlot({ subscriberId }: { subscriberId: number }) {
  const privileges = useAppSelector(selectPrivileges) ?? [];
  const admin = useIsAdmin();
  if (!admin && !hasPrivilege(privileges, 'PrePaidPackages')) return null;
  return (
    <Card compact className="portal-panel portal-panel-wide" data-testid="panel-packages">
      <SubscriberPackagesPanel subscriberId={subscriberId} />
    </Card>
  );
}
