import { Button } from '@blueprintjs/core';
import { Link } from 'react-router-dom';
import { Facts } from '../dialogs';
import { type PanelProps, Panel, useLabel, field } from './Panel';

export function SimPanel({ subscriber, openSimInfo, openPairing }: PanelProps & { openSimInfo: () => void; openPairing: () => void }) {
  const label = useLabel();
  return (
    <Panel id="sim" title={label('subscriber.panel.sim')}>
      <Facts
        items={[
          [
            label(field('iccid')),
            <Link className="portal-mono" to={`/sim/${subscriber.iccid}`} data-testid="sim-link">
              {subscriber.iccid}
            </Link>,
          ],
          [label(field('imsi')), <span className="portal-mono">{subscriber.imsi}</span>],
        ]}
      />
      <div className="portal-panel-buttons">
        <Button size="small" onClick={openSimInfo} data-testid="action-sim-info">
          {label('subscriber.action.simInfo')}
        </Button>
        <Button size="small" onClick={openPairing} data-testid="action-pair-device">
          {label('subscriber.action.pairDevice')}
        </Button>
      </div>
    </Panel>
  );
}
