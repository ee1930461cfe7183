/**
 * The subscriber's prepaid packages (the packages screen's panel), for users who may sell packages: its
 * calls need the PrePaidPackages privilege.
 */
import { Card } from '@blueprintjs/core';
import { hasPrivilege } from '@shared/privileges';
import { selectPrivileges } from '@web/app/authSlice';
import { useAppSelector } from '@web/app/hooks';
import { useIsAdmin } from '@web/engine/useIsAdmin';
import { SubscriberPackagesPanel } from '@web/features/packages/SubscriberPackagesPanel';

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
