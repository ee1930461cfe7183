/**
 * A subscriber group: the schema's form, and beside a saved group how many subscribers it holds for the caller
 * (a saved search's current answer) with a link to the subscribers list filtered by it.
 */
import { Card, H5, Spinner } from '@blueprintjs/core';
import { FormattedMessage, FormattedNumber } from 'react-intl';
import { Link, useParams } from 'react-router-dom';
import EntityDetailPage from '@web/engine/EntityDetailPage';
import { findSchema, NEW_ID } from '@web/core/schemas';
import { groupSubscribersPath, usePostSubscriberGroupsByIdMembersPagedQuery } from '@web/core/subscriberGroupsApi';
import './groups.css';

const schema = findSchema('subscriberGroup')!;

function MembersPanel({ id }: { id: number }) {
  const members = usePostSubscriberGroupsByIdMembersPagedQuery({ id, body: { page: { page: 0, size: 1 } } });
  return (
    <Card className="portal-group-members" data-testid="group-members">
      <H5>
        <FormattedMessage id="subscriberGroup.members" />
      </H5>
      {members.isLoading ? (
        <Spinner size={20} />
      ) : members.data ? (
        <p data-testid="group-member-count">
          <FormattedMessage
            id={members.data.totalIsEstimate ? 'subscriberGroup.members.about' : 'subscriberGroup.members.count'}
            values={{ count: members.data.totalItemsCount ?? 0, n: <FormattedNumber value={members.data.totalItemsCount ?? 0} /> }}
          />
        </p>
      ) : (
        <p>
          <FormattedMessage id="subscriberGroup.members.unavailable" />
        </p>
      )}
      <Link to={groupSubscribersPath(id)} data-testid="group-open-in-grid">
        <FormattedMessage id="subscriberGroup.openInGrid" />
      </Link>
    </Card>
  );
}

export default function GroupDetailPage() {
  const { id = NEW_ID } = useParams();
  const saved = id !== NEW_ID && /^\d+$/.test(id);
  return (
    <div className="portal-group-detail">
      <div className="portal-group-form">
        <EntityDetailPage schema={schema} />
      </div>
      {saved && <MembersPanel id={Number(id)} />}
    </div>
  );
}
