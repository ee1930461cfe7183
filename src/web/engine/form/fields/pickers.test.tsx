// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import en from '../../../../../i18n/en.json';
import type { BlueprintFormContext } from '../context';
import { Form } from '../index';
import { runtimeValidator } from '../runtimeValidator';

// The map beside the country picker draws with ECharts, which has no canvas here.
vi.mock('@web/ui/CountryMap', () => ({ default: () => null }));

afterEach(cleanup);

const SCHEMA: RJSFSchema = {
  type: 'object',
  properties: {
    countries: { type: 'array', title: 'entity.locationZone.field.countries', items: { type: 'string' } },
    sponsors: { type: 'array', title: 'entity.roamingProfile.field.sponsorIds', items: { type: 'integer' } },
  },
};
const UI: UiSchema = { countries: { 'ui:field': 'countries' }, sponsors: { 'ui:field': 'references', 'ui:options': { reference: 'sponsor' } } };
const CONTEXT: BlueprintFormContext = {
  options: {
    sponsor: [
      { value: 7, label: 'Globe Sponsor' },
      { value: 8, label: 'Polar Sponsor' },
    ],
  },
};

function renderPickers() {
  const onSubmit = vi.fn();
  const onChange = vi.fn();
  render(
    <IntlProvider locale="en" messages={en}>
      <Form schema={SCHEMA} uiSchema={UI} formContext={CONTEXT} validator={runtimeValidator} onSubmit={onSubmit} onChange={onChange} noHtml5Validate />
    </IntlProvider>,
  );
  return { onSubmit, onChange, user: userEvent.setup() };
}

describe('tag pickers in a form', () => {
  it('adds the highlighted country on Enter and does not submit the form', async () => {
    const { onSubmit, onChange, user } = renderPickers();
    await user.type(screen.getByLabelText('Included countries'), 'German');
    await screen.findByRole('option', { name: /Germany/ });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onChange.mock.calls.at(-1)?.[0].formData.countries).toEqual(['DE']));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('adds the highlighted sponsor on Enter and does not submit the form', async () => {
    const { onSubmit, onChange, user } = renderPickers();
    await user.type(screen.getByLabelText('Sponsors'), 'Polar');
    await screen.findByRole('option', { name: 'Polar Sponsor' });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onChange.mock.calls.at(-1)?.[0].formData.sponsors).toEqual([8]));
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
