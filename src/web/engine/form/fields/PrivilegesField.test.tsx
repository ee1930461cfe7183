// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import type { PrivilegeItem } from '@shared/privileges';
import type { EntitySchema } from '@shared/schema';
import roleJson from '@schemas/role.json';
import en from '../../../../../i18n/en.json';
import { EntityForm } from '../EntityForm';
import { lackedPrivileges } from './PrivilegesField';

const role = roleJson as unknown as EntitySchema;
const editor: PrivilegeItem[] = [
  { privilege: 'Accounts', subPrivileges: [] },
  { privilege: 'Search', subPrivileges: ['Accounts', 'Users'] },
];

afterEach(cleanup);

function renderRole(formData?: Record<string, unknown>) {
  const onSubmit = vi.fn();
  render(
    <IntlProvider locale="en" messages={en}>
      <EntityForm schema={role} formData={formData} onSubmit={onSubmit} options={{ reseller: [{ value: 1, label: 'Acme' }] }} grantable={editor} />
    </IntlProvider>,
  );
  return { onSubmit, user: userEvent.setup() };
}

describe("the role editor's privileges", () => {
  it('offers only what the editor holds, sub-privileges under their privilege', async () => {
    const { user, onSubmit } = renderRole({ id: 5, name: 'Support', resellerId: 1, privileges: [] });
    expect(screen.getByLabelText('Accounts')).toBeTruthy();
    expect(screen.getByLabelText('Search')).toBeTruthy();
    expect(screen.queryByLabelText('Roles')).toBeNull();
    expect(screen.queryByLabelText('Users')).toBeNull();
    await user.click(screen.getByLabelText('Search'));
    // Search's sub-privileges the editor holds, and no others.
    expect(screen.getAllByRole('checkbox').length).toBe(4);
    await user.click(screen.getAllByLabelText('Users')[0]);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ privileges: [{ privilege: 'Search', subPrivileges: ['Users'] }] }));
  });

  it('warns that saving drops what the editor lacks', () => {
    renderRole({
      id: 6,
      name: 'Powerful',
      resellerId: 1,
      privileges: [
        { privilege: 'Accounts', subPrivileges: [] },
        { privilege: 'Roles', subPrivileges: [] },
        { privilege: 'Search', subPrivileges: ['Resellers'] },
      ],
    });
    expect(screen.getByTestId('privileges-warning').textContent).toBe('Saving removes privileges you do not hold: Roles, Search / Resellers');
  });

  it('lists lacked privileges and sub-privileges', () => {
    expect(lackedPrivileges([{ privilege: 'Accounts', subPrivileges: [] }], editor)).toEqual([]);
    expect(lackedPrivileges([{ privilege: 'Search', subPrivileges: ['Users', 'Network'] }], editor)).toEqual(['Search / Network']);
  });
});
