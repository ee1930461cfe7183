/** The dashboard's range: a named range, or custom with its first and last day. */
import { ControlGroup, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { RANGES, type DashboardRange, type RangeName } from './range';

export function RangePicker({ value, onChange }: { value: DashboardRange; onChange: (next: DashboardRange) => void }) {
  const intl = useIntl();
  // Today in the device's calendar (the zone the server computes the range in), not UTC's.
  const now = new Date();
  const today = [now.getFullYear(), now.getMonth() + 1, now.getDate()].map((n) => String(n).padStart(2, '0')).join('-');
  return (
    <ControlGroup className="portal-range-picker" data-testid="dashboard-range">
      <HTMLSelect
        value={value.range}
        onChange={(e) => onChange({ range: e.currentTarget.value as RangeName, from: value.from, to: value.to })}
        aria-label={intl.formatMessage({ id: 'dashboard.range' })}
        data-testid="dashboard-range-select"
      >
        {RANGES.map((r) => (
          <option key={r} value={r}>
            {intl.formatMessage({ id: `dashboard.range.${r}` })}
          </option>
        ))}
      </HTMLSelect>
      {value.range === 'custom' && (
        <>
          <FormGroup inline label={intl.formatMessage({ id: 'dashboard.range.from' })} labelFor="dashboard-range-from">
            <InputGroup
              id="dashboard-range-from"
              type="date"
              max={value.to ?? today}
              value={value.from ?? ''}
              onValueChange={(from) => onChange({ ...value, from: from || undefined })}
              data-testid="dashboard-range-from"
            />
          </FormGroup>
          <FormGroup inline label={intl.formatMessage({ id: 'dashboard.range.to' })} labelFor="dashboard-range-to">
            <InputGroup
              id="dashboard-range-to"
              type="date"
              min={value.from}
              value={value.to ?? ''}
              onValueChange={(to) => onChange({ ...value, to: to || undefined })}
              data-testid="dashboard-range-to"
            />
          </FormGroup>
        </>
      )}
    </ControlGroup>
  );
}
