import { useIntl } from 'react-intl';
import { countryNames } from '@shared/countries';
import { formatCell } from '@web/engine/columns';
import { Facts } from '../dialogs';
import { type PanelProps, Panel, useLabel, field } from './Panel';

function useCountry() {
  const intl = useIntl();
  return (code: unknown) => (typeof code === 'string' && code ? (countryNames(intl.locale)[code.toUpperCase()] ?? code) : null);
}

export function LocationPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const country = useCountry();
  return (
    <Panel id="location" title={label('subscriber.panel.location')}>
      <Facts
        items={[
          [label(field('country')), country(subscriber.country)],
          [label(field('network')), subscriber.network as string],
          [label(field('lastLocationAt')), subscriber.lastLocationAt ? formatCell(intl, 'datetime', subscriber.lastLocationAt) : null],
        ]}
      />
    </Panel>
  );
}

export function NetworkPanel({ subscriber }: PanelProps) {
  const label = useLabel();
  const country = useCountry();
  return (
    <Panel id="network" title={label('subscriber.panel.network')}>
      <Facts
        items={[
          [label(field('network')), subscriber.network as string],
          [label(field('country')), country(subscriber.country)],
        ]}
      />
    </Panel>
  );
}
