import { FormattedMessage } from 'react-intl';
import { JOIN_PROVIDER_TYPES } from '@shared/join';
import { AdminTablePage, When, type AdminColumn } from '@web/ui/AdminTablePage';
import { useGetAdminJoinRequestsQuery, type JoinRequestRow } from '@web/core/adminApi';

/** The message id of a provider type the form offers; a custom type is shown as typed. */
const TYPE_MESSAGES: Record<string, string> = {
  'Mobile Operator': 'join.type.mobileOperator',
  'IoT provider': 'join.type.iotProvider',
  'A2P provider': 'join.type.a2pProvider',
  'eSIM reseller': 'join.type.esimReseller',
  'Service provider': 'join.type.serviceProvider',
} satisfies Record<(typeof JOIN_PROVIDER_TYPES)[number], string>;

const columns: AdminColumn<JoinRequestRow>[] = [
  { header: 'admin.joinRequests.createdAt', cell: (r) => <When at={r.createdAt} /> },
  { header: 'admin.joinRequests.name', cell: (r) => [r.firstName, r.lastName].filter(Boolean).join(' ') },
  { header: 'join.company', cell: (r) => r.company },
  { header: 'join.email', cell: (r) => <a href={`mailto:${r.email}`}>{r.email}</a> },
  { header: 'join.phoneNumber', cell: (r) => <bdi>{r.phoneNumber}</bdi> },
  { header: 'join.type', cell: (r) => (TYPE_MESSAGES[r.type] ? <FormattedMessage id={TYPE_MESSAGES[r.type]} /> : r.type) },
  { header: 'join.comment', cell: (r) => r.comment ?? '' },
];

/** Requests for access sent from the sign-in page, newest first. */
export default function JoinRequestsPage() {
  return (
    <AdminTablePage
      testId="admin-join-requests"
      title="admin.joinRequests.title"
      intro="admin.joinRequests.intro"
      useRows={useGetAdminJoinRequestsQuery}
      columns={columns}
    />
  );
}
