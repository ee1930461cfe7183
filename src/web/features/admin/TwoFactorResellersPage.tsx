import { Intent, Switch } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { showToast } from '@web/ui/toaster';
import { usePutAdminTwoFactorResellersByIdMutation, useGetAdminTwoFactorResellersQuery, type ResellerTwoFactor } from '@web/core/twoFactorApi';
import { AdminTablePage, type AdminColumn } from '@web/ui/AdminTablePage';

/** The reseller setting itself: switching it on makes its users and its sub-resellers' users enrol at sign-in. */
function RequireSwitch({ reseller }: { reseller: ResellerTwoFactor }) {
  const intl = useIntl();
  const [save, { isLoading }] = usePutAdminTwoFactorResellersByIdMutation();
  return (
    <Switch
      checked={reseller.requireTwoFactor}
      disabled={isLoading}
      aria-label={intl.formatMessage({ id: 'admin.twoFactor.requireFor' }, { name: reseller.name })}
      data-testid={`require-two-factor-${reseller.id}`}
      onChange={async (e) => {
        const result = await save({ id: reseller.id, body: { requireTwoFactor: e.currentTarget.checked } });
        if (result.error) showToast({ message: intl.formatMessage({ id: 'app.error.generic' }), intent: Intent.DANGER });
      }}
    />
  );
}

/** Nesting shown by indenting the name: the path /-1/3/7/ is two levels below the provider. */
const depthOf = (path: string) => Math.max(0, path.split('/').filter(Boolean).length - 2);

const columns: AdminColumn<ResellerTwoFactor>[] = [
  { header: 'admin.twoFactor.reseller', cell: (r) => <span style={{ paddingInlineStart: `${depthOf(r.path) * 1.25}em` }}>{r.name}</span> },
  { header: 'admin.twoFactor.enrolled', cell: (r) => `${r.enrolledUsers} / ${r.users}` },
  { header: 'admin.twoFactor.require', cell: (r) => <RequireSwitch reseller={r} /> },
];

/** Which resellers require two-factor sign-in from their users (administrator only). */
export default function TwoFactorResellersPage() {
  return (
    <AdminTablePage
      testId="admin-two-factor"
      title="admin.twoFactor.title"
      intro="admin.twoFactor.intro"
      useRows={useGetAdminTwoFactorResellersQuery}
      columns={columns}
    />
  );
}
