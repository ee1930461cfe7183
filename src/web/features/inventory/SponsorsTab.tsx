/** The sponsor networks whose IMSIs multi-IMSI SIM cards carry: name, PLMN, IMSI prefix and country. */
import { Callout, HTMLTable, Intent } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';
import { useInventorySponsorsQuery } from '@web/core/inventoryApi';
import { Loading } from '@web/ui/Loading';

export function SponsorsTab() {
  const { data, isError, isLoading } = useInventorySponsorsQuery();
  if (isLoading) return <Loading />;
  if (isError || !data)
    return (
      <Callout intent={Intent.DANGER} role="alert">
        <FormattedMessage id="list.loadError" />
      </Callout>
    );
  return (
    <HTMLTable compact striped className="portal-inventory-table" data-testid="inventory-sponsors">
      <thead>
        <tr>
          {['name', 'plmn', 'imsiPrefix', 'country'].map((c) => (
            <th key={c}>
              <FormattedMessage id={`inventory.sponsor.${c}`} />
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {data.map((s) => (
          <tr key={s.id}>
            <td>{s.name}</td>
            <td className="portal-mono" dir="ltr">
              {s.plmn}
            </td>
            <td className="portal-mono" dir="ltr">
              {s.imsiPrefix}
            </td>
            <td>{s.country ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
