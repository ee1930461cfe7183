// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { Classes } from '@blueprintjs/core';
import type { CustomFieldDefinition } from '@shared/customFields';
import type { EntitySchema } from '@shared/schema';
import type { FieldError } from '@shared/wire';
import accountJson from '@schemas/account.json';
import prepaidTemplateJson from '@schemas/prepaid-template.json';
import resellerJson from '@schemas/reseller.json';
import userJson from '@schemas/user.json';
import de from '../../../../i18n/de.json';
import en from '../../../../i18n/en.json';
import { EntityForm, type EntityFormProps } from './EntityForm';

const account = accountJson as unknown as EntitySchema;
const resellers = [
  { value: 1, label: 'Acme Telecom' },
  { value: 2, label: 'Globex' },
];

afterEach(cleanup);

function renderForm(props: Partial<EntityFormProps> = {}, locale = 'en', messages: Record<string, string> = en) {
  const onSubmit = props.onSubmit ?? vi.fn();
  const view = render(
    <IntlProvider locale={locale} messages={messages}>
      <EntityForm schema={account} onSubmit={onSubmit} options={{ reseller: resellers }} {...props} />
    </IntlProvider>,
  );
  return { ...view, onSubmit, user: userEvent.setup() };
}

/** The Blueprint FormGroup around a control: where its label and messages live. */
function groupOf(control: HTMLElement): HTMLElement {
  const group = control.closest<HTMLElement>(`.${Classes.FORM_GROUP}`);
  if (!group) throw new Error('control outside a FormGroup');
  return group;
}

const nameInput = () => screen.getByRole('textbox', { name: /^Name/ });
const saveButton = () => screen.getByRole('button', { name: 'Save' });

describe('EntityForm with the account schema', () => {
  // The plan a reseller's parent assigned the reseller itself is refused anywhere else: an account already on it keeps
  // it, named, but it is never offered for another choice.
  it('names the plan set above as what it is without offering it', async () => {
    const plans = [
      { value: 2, label: 'Northwind Europe' },
      { value: 5, label: 'Wholesale World', assignable: false },
    ];
    const { user: typist } = renderForm({ formData: { accountId: 3, name: 'Fleet', pricingPlanId: 5 }, options: { reseller: resellers, pricingPlan: plans } });
    const plan = screen.getByLabelText(/^Roaming plan/) as HTMLSelectElement;
    expect(plan.selectedOptions[0]?.textContent).toBe('Wholesale World');
    await typist.selectOptions(plan, '2');
    expect([...plan.options].map((o) => o.text)).not.toContain('Wholesale World');
  });

  it('labels every editable field with its English title and hides read-only ones', () => {
    renderForm();
    for (const title of [
      'Name',
      'E-mail',
      'Address',
      'City',
      'Country',
      'Reseller',
      'Roaming plan',
      'International pricing plan',
      'Usage credit',
      'Inventory account',
    ]) {
      expect(screen.getByLabelText(new RegExp(`^${title}`))).toBeTruthy();
    }
    expect(screen.queryByText(/entity\.account\./)).toBeNull();
    expect(screen.queryByLabelText(/^Account ID/)).toBeNull();
    // The required field says so in its label.
    expect(groupOf(nameInput()).textContent).toContain('(required)');
  });

  it('shows each name rule in the words of its errorMessage', async () => {
    const { user } = renderForm();
    const name = nameInput();

    await user.type(name, 'A');
    expect(within(groupOf(name)).getByText('Name must be valid')).toBeTruthy();
    expect(groupOf(name).className).toContain(Classes.INTENT_DANGER);

    await user.clear(name);
    await user.type(name, 'x'.repeat(51));
    expect(within(groupOf(name)).getByText('Name must be less than 50 characters')).toBeTruthy();
    expect(within(groupOf(name)).queryByText('Name must be valid')).toBeNull();

    await user.clear(name);
    expect(within(groupOf(name)).getByText('Name is required')).toBeTruthy();
  });

  it('shows no error before a field is touched, and one after leaving it', async () => {
    const { user } = renderForm();
    expect(screen.queryByText('Name is required')).toBeNull();
    await user.click(nameInput());
    await user.tab();
    expect(within(groupOf(nameInput())).getByText('Name is required')).toBeTruthy();
    // Only the field the user left: the e-mail field is not complaining.
    expect(groupOf(screen.getByLabelText(/^E-mail/)).className).not.toContain(Classes.INTENT_DANGER);
  });

  it('keeps Save disabled while the data is invalid', async () => {
    const { user } = renderForm();
    expect(saveButton()).toHaveProperty('disabled', true);

    await user.type(nameInput(), 'Acme');
    expect(saveButton()).toHaveProperty('disabled', false);

    await user.type(screen.getByLabelText(/^E-mail/), 'not-an-email');
    expect(screen.getByText('E-mail must be valid')).toBeTruthy();
    expect(saveButton()).toHaveProperty('disabled', true);

    await user.clear(screen.getByLabelText(/^E-mail/));
    expect(saveButton()).toHaveProperty('disabled', false);
  });

  it('refuses a submit that bypasses the disabled button, showing every error', async () => {
    const { user, onSubmit, container } = renderForm();
    await user.type(screen.getByLabelText(/^E-mail/), 'ops@acme.example');
    fireEvent.submit(container.querySelector('form')!);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(within(groupOf(nameInput())).getByText('Name is required')).toBeTruthy();
    expect(document.activeElement).toBe(nameInput());
  });

  it('keeps Save disabled while submitting', async () => {
    renderForm({ formData: { name: 'Acme' }, submitting: true });
    expect(saveButton()).toHaveProperty('disabled', true);
  });

  it('keeps Save disabled until the promise of onSubmit settles', async () => {
    let finish = () => {};
    const onSubmit = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { user } = renderForm({ formData: { name: 'Acme' }, onSubmit });
    await user.click(saveButton());
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(saveButton()).toHaveProperty('disabled', true);
    await act(async () => finish());
    expect(saveButton()).toHaveProperty('disabled', false);
  });

  it('reads the record again when another one arrives', () => {
    const { rerender } = renderForm({ formData: { name: 'First' } });
    expect(nameInput()).toHaveProperty('value', 'First');
    rerender(
      <IntlProvider locale="en" messages={en}>
        <EntityForm schema={account} onSubmit={vi.fn()} formData={{ name: 'Second' }} />
      </IntlProvider>,
    );
    expect(nameInput()).toHaveProperty('value', 'Second');
  });

  it('submits exactly the writable fields that have a value', async () => {
    const { user, onSubmit } = renderForm();
    await user.type(nameInput(), 'Acme');
    await user.type(screen.getByLabelText(/^E-mail/), 'ops@acme.example');
    await user.selectOptions(screen.getByLabelText(/^Country/), 'Germany');
    await user.selectOptions(screen.getByLabelText(/^Reseller/), 'Globex');
    await user.type(screen.getByLabelText(/^Usage credit/), '12.50');
    await user.click(saveButton());
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'Acme',
      email: 'ops@acme.example',
      country: 'DE',
      resellerId: 2,
      usageCredit: 12.5,
      inventoryAccount: false,
    });
  });

  it('leaves read-only and joined fields out of an update, and nulls from the server', async () => {
    const record = { accountId: 7, name: 'Old name', city: null, resellerId: 1, resellerName: 'Acme Telecom', inventoryAccount: true };
    const { user, onSubmit } = renderForm({ formData: record });
    expect(nameInput()).toHaveProperty('value', 'Old name');
    await user.clear(nameInput());
    await user.type(nameInput(), 'New name');
    await user.click(saveButton());
    expect(onSubmit).toHaveBeenCalledWith({ name: 'New name', resellerId: 1, inventoryAccount: true });
  });

  it('lets a number be cleared and checks the amount rule', async () => {
    const { user, onSubmit } = renderForm({ formData: { name: 'Acme', usageCredit: 5 } });
    const credit = screen.getByLabelText(/^Usage credit/);
    await user.clear(credit);
    await user.type(credit, '1.234');
    expect(within(groupOf(credit)).getByText('Please enter a valid $ amount.')).toBeTruthy();
    await user.clear(credit);
    expect(within(groupOf(credit)).queryByText('Please enter a valid $ amount.')).toBeNull();
    await user.click(saveButton());
    // Cleared on a record that had it: sent as null so the update clears it.
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Acme', usageCredit: null, inventoryAccount: false });
  });

  it('shows server errors under their field until it is edited, and others above the form', async () => {
    const serverErrors: FieldError[] = [
      { field: 'name', rule: 'unique', messageId: 'entity.account.unique', message: 'account name already exists' },
      { field: '', rule: 'body', messageId: 'error.validation', message: 'Some fields are not valid' },
    ];
    const { user } = renderForm({ formData: { name: 'Acme' }, serverErrors });
    expect(within(groupOf(nameInput())).getByText('account name already exists')).toBeTruthy();
    expect(screen.getByText('Some fields are not valid')).toBeTruthy();
    // A server error does not block another try.
    expect(saveButton()).toHaveProperty('disabled', false);

    await user.type(nameInput(), ' Ltd');
    expect(screen.queryByText('account name already exists')).toBeNull();
  });

  it('falls back to the English text of a server error the catalogue lacks', () => {
    const serverErrors: FieldError[] = [{ field: 'city', rule: 'x', messageId: 'validation.notInCatalogue', message: 'City is on fire' }];
    renderForm({ serverErrors });
    expect(within(groupOf(screen.getByLabelText(/^City/))).getByText('City is on fire')).toBeTruthy();
  });

  it('offers country names and reseller options', () => {
    renderForm();
    const country = screen.getByLabelText(/^Country/) as HTMLSelectElement;
    const germany = within(country).getByRole('option', { name: 'Germany' }) as HTMLOptionElement;
    expect(germany.value).toBe('DE');
    expect(within(country).getByRole('option', { name: 'Japan' })).toBeTruthy();
    expect(within(country).getByRole('option', { name: 'Choose…' })).toBeTruthy();
    expect(country.options.length).toBeGreaterThan(240);

    const reseller = screen.getByLabelText(/^Reseller/);
    expect(
      within(reseller)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose…', 'Acme Telecom', 'Globex']);
  });

  it('calls onCancel from the Cancel button', async () => {
    const onCancel = vi.fn();
    const { user } = renderForm({ onCancel });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('shows a read-only record without Save', () => {
    renderForm({ formData: { name: 'Acme' }, readOnly: true, onCancel: () => {} });
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(nameInput()).toHaveProperty('readOnly', true);
  });

  it('speaks German in the de locale', async () => {
    const { user } = renderForm({}, 'de', { ...en, ...de });
    for (const title of ['Adresse', 'Stadt', 'Land', 'Nutzungsguthaben', 'Bestandskonto']) {
      expect(screen.getByLabelText(new RegExp(`^${title}`))).toBeTruthy();
    }
    expect(screen.getByRole('button', { name: 'Speichern' })).toBeTruthy();
    const country = screen.getByLabelText(/^Land/);
    expect((within(country).getByRole('option', { name: 'Deutschland' }) as HTMLOptionElement).value).toBe('DE');

    const name = screen.getByRole('textbox', { name: /^Name/ });
    await user.type(name, 'A');
    expect(within(groupOf(name)).getByText('Name muss gültig sein')).toBeTruthy();
  });
});

describe('EntityForm with the user schema', () => {
  const user = userJson as unknown as EntitySchema;
  const roles = [{ value: 1, label: 'Reseller manager' }];
  const passwordInput = () => screen.getByLabelText(/^Password/);

  function renderUserForm(formData?: Record<string, unknown>) {
    return renderForm({ schema: user, formData, options: { role: roles, reseller: resellers } });
  }

  it('requires the password when creating a user', async () => {
    const { user: typist } = renderUserForm();
    expect(groupOf(passwordInput()).textContent).toContain('(required)');
    await typist.type(screen.getByLabelText(/^Username/), 'casey.new');
    await typist.type(screen.getByLabelText(/^E-mail/), 'casey.new@example.com');
    await typist.selectOptions(screen.getByLabelText(/^Role/), '1');
    expect(saveButton()).toHaveProperty('disabled', true);
    await typist.type(passwordInput(), 'Casey@2026x');
    expect(saveButton()).toHaveProperty('disabled', false);
  });

  // The server takes a role of the user's own reseller only: moving the user to another reseller drops the role of
  // the last one, and offers only the new reseller's.
  it("offers only the roles of the user's reseller and drops the last reseller's role when the user moves", async () => {
    const perReseller = [
      { value: 1, label: 'Acme manager', resellerId: 1 },
      { value: 2, label: 'Globex manager', resellerId: 2 },
    ];
    const { user: typist, onSubmit } = renderForm({
      schema: user,
      formData: { userId: 7, username: 'casey', email: 'casey@example.com', resellerId: 1, roleId: 1 },
      options: { role: perReseller, reseller: resellers },
    });
    const role = () => screen.getByLabelText(/^Role/) as HTMLSelectElement;
    expect(role().value).toBe('1');
    expect([...role().options].map((o) => o.text)).not.toContain('Globex manager');
    await typist.selectOptions(screen.getByLabelText(/^Reseller/), '2');
    await act(async () => {});
    expect(role().value).toBe('');
    expect([...role().options].map((o) => o.text)).toContain('Globex manager');
    expect([...role().options].map((o) => o.text)).not.toContain('Acme manager');
    await typist.selectOptions(role(), '2');
    await typist.click(saveButton());
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ resellerId: 2, roleId: 2 }));
  });

  it('leaves the password optional when editing one', () => {
    renderUserForm({ userId: 7, username: 'casey', email: 'casey@example.com', roleId: 1 });
    expect(groupOf(passwordInput()).textContent).not.toContain('(required)');
    expect(saveButton()).toHaveProperty('disabled', false);
  });
});

describe('EntityForm with custom fields', () => {
  const customFields: CustomFieldDefinition[] = [
    { id: 1, resellerId: -1, entity: 'account', key: 'costCentre', label: 'Kostenstelle', type: 'text', required: true, minimum: 3, position: 1 },
    { id: 2, resellerId: -1, entity: 'account', key: 'tier', label: 'Tier', type: 'choice', choices: ['Gold', 'Silver'], position: 2 },
  ];

  it('never shows the values as an object field, and nothing of them when no field applies', () => {
    renderForm();
    expect(screen.queryByTestId('custom-values')).toBeNull();
    expect(screen.queryByText('Custom fields')).toBeNull();
  });

  it('marks a required field, holds Save back naming it by its label, and sends the values on create', async () => {
    const { user, onSubmit } = renderForm({ customFields });
    const section = screen.getByTestId('custom-values');
    expect(within(section).getByText('Custom fields')).toBeTruthy();
    const centre = within(section).getByLabelText(/^Kostenstelle/);
    expect(groupOf(centre).textContent).toContain('(required)');
    expect(groupOf(centre).textContent).toContain('At least 3 characters');
    await user.type(nameInput(), 'Gamma Ports');
    await user.type(screen.getByRole('textbox', { name: /^E-mail/ }), 'ops@gamma.test');
    expect(saveButton()).toHaveProperty('disabled', true);
    expect(screen.getByTestId('save-blocked').textContent).toContain('Kostenstelle');
    // Not shown before the field is touched.
    expect(within(section).queryByTestId('custom-error-costCentre')).toBeNull();
    await user.type(centre, 'ab');
    expect(within(section).getByTestId('custom-error-costCentre').textContent).toBe('Shorter than this field allows');
    await user.type(centre, 'c ');
    await user.selectOptions(within(section).getByLabelText(/^Tier/), 'Silver');
    expect(saveButton()).toHaveProperty('disabled', false);
    await user.click(saveButton());
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ name: 'Gamma Ports', custom: { costCentre: 'abc', tier: 'Silver' } }));
  });

  it("shows the server's error under the custom field it names, until that field is edited", async () => {
    const serverErrors: FieldError[] = [{ field: 'custom.tier', rule: 'enum', messageId: 'validation.custom.choice', message: 'x' }];
    const { user } = renderForm({ customFields, serverErrors, formData: { accountId: 1, name: 'Alpha', custom: { costCentre: 'A-100', tier: 'Gold' } } });
    const section = screen.getByTestId('custom-values');
    expect(within(section).getByTestId('custom-error-tier').textContent).toBe("Choose one of the field's options");
    await user.type(within(section).getByLabelText(/^Kostenstelle/), '1');
    expect(within(section).getByTestId('custom-error-tier')).toBeTruthy();
    await user.selectOptions(within(section).getByLabelText(/^Tier/), 'Silver');
    expect(within(section).queryByTestId('custom-error-tier')).toBeNull();
  });
});

describe('EntityForm with the reseller schema', () => {
  // A reseller moved under itself or one of its own sub-resellers would make a cycle, which the server refuses.
  it("offers as a reseller's parent neither itself nor a reseller below it", () => {
    const tree = [
      { value: 1, label: 'Acme Telecom', parentId: -1 },
      { value: 2, label: 'Acme IoT', parentId: 1 },
      { value: 3, label: 'Acme IoT Labs', parentId: 2 },
      { value: 4, label: 'Globex', parentId: -1 },
    ];
    renderForm({
      schema: resellerJson as unknown as EntitySchema,
      formData: { id: 2, name: 'Acme IoT', parentId: 1 },
      options: { reseller: tree },
    });
    const parent = screen.getByLabelText(/^Parent reseller/) as HTMLSelectElement;
    const offered = [...parent.options].map((o) => o.text);
    expect(offered).toEqual(expect.arrayContaining(['Acme Telecom', 'Globex']));
    expect(offered).not.toContain('Acme IoT');
    expect(offered).not.toContain('Acme IoT Labs');
    expect(parent.value).toBe('1');
  });
});

describe('EntityForm with the prepaid template schema', () => {
  // A template names zones of its own reseller or of one above it, never of another branch or of a reseller below.
  it("offers the zones of the template's reseller and those above it, and drops a zone the new reseller may not name", async () => {
    const tree = [
      { value: 1, label: 'Acme Telecom', parentId: -1 },
      { value: 2, label: 'Acme IoT', parentId: 1 },
      { value: 3, label: 'Acme IoT Labs', parentId: 2 },
      { value: 4, label: 'Globex', parentId: -1 },
    ];
    const zones = [
      { value: 11, label: 'Acme Europe', resellerId: 1 },
      { value: 12, label: 'IoT Nordics', resellerId: 2 },
      { value: 13, label: 'Labs Baltics', resellerId: 3 },
      { value: 14, label: 'Globex World', resellerId: 4 },
    ];
    const { user: typist } = renderForm({
      schema: prepaidTemplateJson as unknown as EntitySchema,
      formData: { id: 5, name: 'IoT month', resellerId: 2, locationZoneId: 12, periodDays: 30, price: 5 },
      options: { reseller: tree, locationZone: zones, destinationZone: zones },
    });
    const zone = () => screen.getByLabelText(/^Location zone/) as HTMLSelectElement;
    expect(zone().value).toBe('12');
    expect([...zone().options].map((o) => o.text).filter((t) => zones.some((z) => z.label === t))).toEqual(['Acme Europe', 'IoT Nordics']);
    await typist.selectOptions(screen.getByLabelText(/^Reseller/), '4');
    await act(async () => {});
    expect(zone().value).toBe('');
    expect([...zone().options].map((o) => o.text).filter((t) => zones.some((z) => z.label === t))).toEqual(['Globex World']);
  });
});
