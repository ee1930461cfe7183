/**
 * Devices seen in the network: each IMEI with its make and model (from the TAC), the SIM and subscriber it is in,
 * and when it was last seen; a device whose SIM moved between devices opens its IMEI changes.
 */
import { Button, Callout, ControlGroup, Dialog, DialogBody, HTMLTable, InputGroup, Intent } from '@blueprintjs/core';
import { MobilePhoneIcon, SearchIcon } from '@blueprintjs/icons';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { useGetInventoryDevicesByIdChangesQuery, usePostInventoryDevicesQuery } from '@web/core/inventoryApi';
import { Loading } from '@web/ui/Loading';
import { PagedTable } from './PagedTable';

const SIZE = 50;

function ChangesDialog({ subscriberId, onClose }: { subscriberId: number; onClose: () => void }) {
  const intl = useIntl();
  const { data, isError } = useGetInventoryDevicesByIdChangesQuery(subscriberId);
  return (
    <Dialog isOpen onClose={onClose} title={intl.formatMessage({ id: 'inventory.device.changesTitle' }, { id: subscriberId })}>
      <DialogBody data-testid="imei-changes">
        {isError ? (
          <Callout intent={Intent.DANGER}>
            <FormattedMessage id="list.loadError" />
          </Callout>
        ) : !data ? (
          <Loading />
        ) : (
          <HTMLTable compact striped className="portal-inventory-table">
            <thead>
              <tr>
                {['at', 'previousImei', 'imei', 'device'].map((c) => (
                  <th key={c}>
                    <FormattedMessage id={`inventory.device.${c}`} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.map((c) => (
                <tr key={c.id}>
                  <td>{intl.formatDate(c.at, { dateStyle: 'medium', timeStyle: 'short' })}</td>
                  <td className="portal-mono" dir="ltr">
                    {c.previousImei ?? '—'}
                  </td>
                  <td className="portal-mono" dir="ltr">
                    {c.imei ?? '—'}
                  </td>
                  <td>{c.make ? `${c.make} ${c.model ?? ''}` : '—'}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </DialogBody>
    </Dialog>
  );
}

export function DevicesTab() {
  const intl = useIntl();
  const [draft, setDraft] = useState('');
  const [searchKey, setSearchKey] = useState('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const list = usePostInventoryDevicesQuery({ page: { page: page - 1, size: SIZE }, searchKey: searchKey || null });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearchKey(draft.trim());
    setPage(1);
  };
  return (
    <div data-testid="inventory-devices">
      <form className="portal-inventory-toolbar" onSubmit={submit} role="search">
        <ControlGroup>
          <InputGroup
            leftIcon={<SearchIcon />}
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            placeholder={intl.formatMessage({ id: 'inventory.device.search' })}
            aria-label={intl.formatMessage({ id: 'inventory.device.search' })}
            data-testid="device-search"
          />
          <Button type="submit" text={intl.formatMessage({ id: 'inventory.device.find' })} />
        </ControlGroup>
      </form>
      <PagedTable result={list} icon={<MobilePhoneIcon size={48} />} onPage={setPage}>
        <HTMLTable compact striped className="portal-inventory-table">
          <thead>
            <tr>
              {['imei', 'device', 'iccid', 'subscriber', 'account', 'lastSeen', 'changes'].map((c) => (
                <th key={c}>
                  <FormattedMessage id={`inventory.device.${c}`} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(list.data?.items ?? []).map((d) => (
              <tr key={d.subscriberId} data-testid={`device-${d.imei}`}>
                <td className="portal-mono" dir="ltr">
                  {d.imei}
                </td>
                <td>{d.make ? `${d.make} ${d.model ?? ''}` : intl.formatMessage({ id: 'inventory.device.unknown' }, { tac: d.tac })}</td>
                <td className="portal-mono" dir="ltr">
                  {d.iccid}
                </td>
                <td>
                  <Link to={`/subscriber/${d.subscriberId}`}>{d.subscriberName ?? `#${d.subscriberId}`}</Link>
                </td>
                <td>{d.accountName}</td>
                <td>{d.lastSeenAt ? intl.formatDate(d.lastSeenAt, { dateStyle: 'medium', timeStyle: 'short' }) : '—'}</td>
                <td>
                  {d.changes > 0 ? (
                    <Button variant="minimal" size="small" onClick={() => setOpen(d.subscriberId)} data-testid="device-changes">
                      {intl.formatNumber(d.changes)}
                    </Button>
                  ) : (
                    '0'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </PagedTable>
      {open !== null && <ChangesDialog subscriberId={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
