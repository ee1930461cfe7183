import { H4 } from '@blueprintjs/core';
import { AdminTablePage, When, type AdminColumn } from '@web/ui/AdminTablePage';
import { useOutboxQuery, type OutboxMail } from '@web/core/adminApi';

const columns: AdminColumn<OutboxMail>[] = [
  { header: 'admin.outbox.createdAt', cell: (m) => <When at={m.createdAt} /> },
  { header: 'admin.outbox.to', cell: (m) => m.to },
  { header: 'admin.outbox.subject', cell: (m) => m.subject },
];

/** Mail the portal kept instead of sending (no SMTP server configured): password reset links, join requests. */
export default function OutboxPage() {
  return (
    <AdminTablePage
      testId="admin-outbox"
      title="admin.outbox.title"
      intro="admin.outbox.intro"
      useRows={useOutboxQuery}
      columns={columns}
      detail={(mail) => (
        <>
          <H4>{mail.subject}</H4>
          <pre className="portal-admin-mail">{mail.text}</pre>
        </>
      )}
    />
  );
}
