import { type PanelProps, Panel, useLabel, FieldsForm } from './Panel';

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
