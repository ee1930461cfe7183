// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import type { EntitySchema } from '@shared/schema';
import accountJson from '@schemas/account.json';
import en from '../../../../../../i18n/en.json';
import he from '../../../../../../i18n/he.json';
import { EntityForm } from '../../EntityForm';

const account = accountJson as unknown as EntitySchema;

afterEach(cleanup);

function renderForm(formData?: Record<string, unknown>, locale = 'en', messages: Record<string, string> = en) {
  render(
    <IntlProvider locale={locale} messages={messages}>
      <EntityForm schema={account} formData={formData} onSubmit={vi.fn()} options={{ reseller: [{ value: 1, label: 'Acme Telecom' }] }} />
    </IntlProvider>,
  );
  return userEvent.setup();
}

const save = () => screen.getByRole('button', { name: /^(Save|שמירה)$/ });

describe('why Save is disabled', () => {
  it('names the fields that block it, in form order, each a link to its field', async () => {
    const user = renderForm({ accountId: 5, name: 'A', email: 'not an e-mail', resellerId: 1 });
    expect(save()).toHaveProperty('disabled', true);
    const reason = screen.getByTestId('save-blocked');
    expect(reason.textContent).toBe('Fix 2 fields: Name and E-mail');
    expect(save().getAttribute('aria-describedby')).toBe(reason.id);

    await user.click(within(reason).getByRole('link', { name: 'E-mail' }));
    expect(document.activeElement).toBe(document.getElementById('root_email'));

    await user.clear(document.getElementById('root_email') as HTMLInputElement);
    await waitFor(() => expect(screen.getByTestId('save-blocked').textContent).toBe('Fix 1 field: Name'));
    await user.type(document.getElementById('root_name') as HTMLInputElement, 'cme');
    await waitFor(() => expect(screen.queryByTestId('save-blocked')).toBeNull());
    expect(save()).toHaveProperty('disabled', false);
  });

  it("names a required field left empty on a new record, in the user's language", () => {
    renderForm(undefined, 'he', { ...en, ...he });
    expect(screen.getByTestId('save-blocked').textContent).toBe(`יש לתקן שדה אחד: ${he['entity.account.field.name']}`);
  });
});
