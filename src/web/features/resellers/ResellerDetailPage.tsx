/** `/reseller/{id}`: the reseller's form (schemas/reseller.json) and, below it, its standing and terms, then its webhooks and invoices. */
import { useParams } from 'react-router-dom';
import EntityDetailPage from '@web/engine/EntityDetailPage';
import { findSchema, NEW_ID } from '@web/core/schemas';
import { InvoicesPanel } from './InvoicesPanel';
import { ResellerStandingPanel } from './ResellerStandingPanel';
import { WebhooksPanel } from './WebhooksPanel';
import './resellers.css';

const resellerSchema = findSchema('reseller')!;

export default function ResellerDetailPage() {
  const { id = NEW_ID } = useParams();
  const known = id !== NEW_ID && /^-?\d+$/.test(id);
  return (
    <>
      <EntityDetailPage schema={resellerSchema} />
      {known && <ResellerStandingPanel id={Number(id)} />}
      {known && <WebhooksPanel id={Number(id)} />}
      {known && <InvoicesPanel id={Number(id)} />}
    </>
  );
}
