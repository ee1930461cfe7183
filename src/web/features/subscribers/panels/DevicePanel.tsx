import { Button, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorText } from '../operations';
import { usePostMiscEquipmentMutation, type Equipment } from '../subscriberApi';
import { type PanelProps, Panel, useLabel, FieldsForm } from './Panel';

/** The device's make and model from the first eight digits of its IMEI (the TAC). */
function EquipmentLookup({ imei }: { imei: string | undefined }) {
  const intl = useIntl();
  const label = useLabel();
  const [lookup, state] = usePostMiscEquipmentMutation();
  const [found, setFound] = useState<Equipment | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const run = async () => {
    if (!imei) return;
    setFound(null);
    setProblem(null);
    const result = await lookup({ imei });
    if (result.error) setProblem(errorText(intl, result.error));
    else setFound(result.data);
  };
  return (
    <div className="portal-equipment">
      <Button size="small" disabled={!imei} loading={state.isLoading} onClick={run} data-testid="equipment-lookup">
        {label('subscriber.equipment.lookup')}
      </Button>
      {found && (
        <span data-testid="equipment">
          <FormattedMessage id="subscriber.equipment.found" values={{ make: found.make, model: found.model }} />
          {found.deviceType && (
            <Tag minimal className="portal-tag-gap">
              {found.deviceType}
            </Tag>
          )}
        </span>
      )}
      {problem && (
        <span className="portal-text-danger" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}

export function DevicePanel(props: PanelProps) {
  return (
    <Panel id="device" title={useLabel()('subscriber.panel.device')}>
      <FieldsForm {...props} fields={['deviceType', 'device', 'imei']} />
      <EquipmentLookup imei={(props.subscriber.imei as string | undefined) ?? undefined} />
    </Panel>
  );
}
