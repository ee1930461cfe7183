/** The MSISDN pool: the caller's numbers by country, supplier and whether a subscriber holds them. */
import { FormGroup, HTMLSelect, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { PhoneIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { useGetInventoryMsisdnCountriesQuery, useGetInventoryMsisdnSuppliersQuery, usePostInventoryMsisdnListQuery } from '@web/core/inventoryApi';
import { PagedTable } from './PagedTable';
import { formatMsisdn } from './phone';

const SIZE = 50;
type Assigned = '' | 'free' | 'assigned';

export function MsisdnTab() {
  const intl = useIntl();
  const [country, setCountry] = useState('');
  const [supplierId, setSupplierId] = useState('');
  const [assigned, setAssigned] = useState<Assigned>('');
  const [page, setPage] = useState(1);
  const countries = useGetInventoryMsisdnCountriesQuery();
  const suppliers = useGetInventoryMsisdnSuppliersQuery();
  const list = usePostInventoryMsisdnListQuery({
    page: { page: page - 1, size: SIZE },
    country: country || null,
    supplierId: supplierId ? Number(supplierId) : null,
    assigned: assigned === '' ? null : assigned === 'assigned',
  });
  const regionName = new Intl.DisplayNames([intl.locale], { type: 'region' });
  const filter = (set: (v: string) => void) => (e: React.ChangeEvent<HTMLSelectElement>) => {
    set(e.currentTarget.value);
    setPage(1);
  };
  return (
    <div data-testid="inventory-msisdn">
      <div className="portal-inventory-toolbar">
        <FormGroup label={intl.formatMessage({ id: 'inventory.msisdn.country' })} labelFor="msisdn-country" inline>
          <HTMLSelect id="msisdn-country" value={country} onChange={filter(setCountry)} data-testid="msisdn-country">
            <option value="">{intl.formatMessage({ id: 'inventory.msisdn.any' })}</option>
            {(countries.data ?? []).map((c) => (
              <option key={c.country} value={c.country}>
                {intl.formatMessage({ id: 'inventory.msisdn.countryOption' }, { name: regionName.of(c.country) ?? c.country, free: c.free, total: c.total })}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={intl.formatMessage({ id: 'inventory.msisdn.supplier' })} labelFor="msisdn-supplier" inline>
          <HTMLSelect id="msisdn-supplier" value={supplierId} onChange={filter(setSupplierId)} data-testid="msisdn-supplier">
            <option value="">{intl.formatMessage({ id: 'inventory.msisdn.any' })}</option>
            {(suppliers.data ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={intl.formatMessage({ id: 'inventory.msisdn.state' })} labelFor="msisdn-assigned" inline>
          <HTMLSelect id="msisdn-assigned" value={assigned} onChange={filter((v) => setAssigned(v as Assigned))} data-testid="msisdn-assigned">
            <option value="">{intl.formatMessage({ id: 'inventory.msisdn.any' })}</option>
            <option value="free">{intl.formatMessage({ id: 'inventory.msisdn.free' })}</option>
            <option value="assigned">{intl.formatMessage({ id: 'inventory.msisdn.assigned' })}</option>
          </HTMLSelect>
        </FormGroup>
      </div>
      <PagedTable result={list} icon={<PhoneIcon size={48} />} onPage={setPage}>
        <HTMLTable compact striped className="portal-inventory-table">
          <thead>
            <tr>
              {['number', 'country', 'supplier', 'reseller', 'state'].map((c) => (
                <th key={c}>
                  <FormattedMessage id={`inventory.msisdn.column.${c}`} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(list.data?.items ?? []).map((n) => (
              <tr key={n.msisdn} data-testid={`msisdn-${n.msisdn}`}>
                <td className="portal-mono" dir="ltr">
                  {formatMsisdn(n.msisdn)}
                </td>
                <td>{regionName.of(n.country) ?? n.country}</td>
                <td>{n.supplierName}</td>
                <td>{n.resellerName}</td>
                <td>
                  {n.assigned && n.subscriberId ? (
                    <Link to={`/subscriber/${n.subscriberId}`}>
                      <Tag intent={Intent.PRIMARY} minimal>
                        <FormattedMessage id="inventory.msisdn.assignedTo" values={{ id: n.subscriberId }} />
                      </Tag>
                    </Link>
                  ) : (
                    <Tag intent={Intent.SUCCESS} minimal>
                      <FormattedMessage id="inventory.msisdn.free" />
                    </Tag>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </PagedTable>
    </div>
  );
}
