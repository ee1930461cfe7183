// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../mocks/token';

const api = setupMockApi();

/** Contact types: an entity of one schema and one migration, whose screens, menu entry and texts all come from it. */
describe('an entity from its schema alone', () => {
  it('has a menu entry, a titled list and a form that creates a row', async () => {
    const { user } = renderWithProviders(<AppRoutes />, { route: '/contact-types', preloadedState: signedIn(mockToken('admin')) });
    const entry = await screen.findByTestId('menu-contactType', undefined, { timeout: 5000 });
    expect(entry.textContent).toContain('Contact types');
    await waitFor(() => expect(document.title).toBe('Contact types · Connectivity Portal'));
    await user.click(await screen.findByTestId('list-create'));
    expect(await screen.findByRole('heading', { name: 'New Contact type' })).toBeTruthy();
    expect(document.title).toBe('New Contact type · Connectivity Portal');
    await user.type(await screen.findByLabelText(/^Name/), 'Escalation');
    await user.type(screen.getByLabelText(/^Description/), 'Out of hours incidents');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.requests('/portal/contacts/types', 'POST')).toHaveLength(1));
    expect(api.requests('/portal/contacts/types', 'POST')[0].body).toMatchObject({ name: 'Escalation', description: 'Out of hours incidents' });
    expect(await screen.findByRole('heading', { name: 'Escalation' })).toBeTruthy();
  });
});
