import { CUSTOM_PROPERTY } from '@shared/customFields';
import { useCustomFields } from '@web/engine/customFields';
import { type PanelProps, Panel, useLabel, FieldsForm, field } from './Panel';

export function DetailsPanel(props: PanelProps) {
  const label = useLabel();
  return (
    <Panel id="details" title={label('subscriber.panel.details')}>
      <FieldsForm {...props} fields={['name']} />
    </Panel>
  );
}

export function GroupPanel(props: PanelProps) {
  return (
    <Panel id="group" title={useLabel()('subscriber.panel.group')}>
      <FieldsForm {...props} fields={['groupName']} />
    </Panel>
  );
}

export function ApnPanel(props: PanelProps) {
  return (
    <Panel id="apn" title={useLabel()('subscriber.panel.apn')}>
      <FieldsForm {...props} fields={['apn']} />
    </Panel>
  );
}

/** The values of the custom fields that apply to the user's subscribers; no panel when none applies. */
export function CustomFieldsPanel(props: PanelProps) {
  const label = useLabel();
  const { fields } = useCustomFields(props.schema);
  if (fields.length === 0) return null;
  return (
    <Panel id="custom" title={label(field(CUSTOM_PROPERTY))}>
      <FieldsForm {...props} fields={[CUSTOM_PROPERTY]} customFields={fields} />
    </Panel>
  );
}
