/**
 * `/allowed-list/{id}`: the engine's form, then the list's networks by country with their states, blocking and
 * unblocking (the administrator's), the sync with the core network and its progress, and the CSV download.
 */
import { useParams } from 'react-router-dom';
import EntityDetailPage from '@web/engine/EntityDetailPage';
import { findSchema, NEW_ID } from '@web/core/schemas';
import { AllowedListNetworks } from './AllowedListNetworks';

const schema = findSchema('allowedList')!;

export default function AllowedListPage() {
  const { id = NEW_ID } = useParams();
  return (
    <>
      <EntityDetailPage schema={schema} listAddress="/profiles?tab=0" />
      {/^\d{1,10}$/.test(id) && <AllowedListNetworks id={Number(id)} />}
    </>
  );
}
