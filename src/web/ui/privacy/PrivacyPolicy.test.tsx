// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { languageChosen } from '@web/core/preferencesSlice';
import { makeStore } from '@web/app/store';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../../mocks/token';
import { POLICY_PARAGRAPHS } from './policy';

setupMockApi();

const SECTIONS = ['intro', 'roles', 'data', 'purposes', 'sharing', 'transfers', 'retention', 'cookies', 'security', 'rights', 'minors', 'contact', 'changes'];

describe('privacy policy', () => {
  it('is readable at /privacy-policy without signing in, with every section and the revision date', async () => {
    renderWithProviders(<AppRoutes />, { route: '/privacy-policy' });
    const policy = await screen.findByTestId('privacy-policy');
    expect(screen.queryByTestId('sign-in-form')).toBeNull();
    expect(within(policy).getByRole('heading', { level: 2 }).textContent).toBe('Privacy policy');
    expect(screen.getByTestId('privacy-revised').textContent).toBe('Last revised July 14, 2024');
    expect(POLICY_PARAGRAPHS.map((p) => p.key)).toEqual(SECTIONS);
    for (const key of SECTIONS) expect(within(policy).getByTestId(`privacy-${key}`).textContent).not.toBe('');
    // Rich text turns into elements, not visible tags.
    expect(policy.textContent).not.toMatch(/<\/?(p|ul|li|b)>/);
    expect(within(screen.getByTestId('privacy-minors')).getByRole('heading').textContent).toBe('Minors under 16');
    expect(screen.getByTestId('privacy-cookies').textContent).toContain('Continue');
    expect(screen.getByTestId('privacy-sign-in').getAttribute('href')).toBe('/login');
    expect(screen.getByTestId('cookie-banner')).toBeTruthy();
  });

  it('writes the date in the reader’s language', async () => {
    const store = makeStore();
    store.dispatch(languageChosen('de'));
    renderWithProviders(<AppRoutes />, { route: '/privacy-policy', store });
    expect((await screen.findByTestId('privacy-revised')).textContent).toBe('Zuletzt überarbeitet am 14. Juli 2024');
    expect(screen.getByTestId('privacy-policy').textContent).toContain('Minderjährige unter 16 Jahren');
  });

  it('shows inside the portal for a signed-in user, reached from the user menu', async () => {
    const { user } = renderWithProviders(<AppRoutes />, { route: '/', preloadedState: signedIn(mockToken('nora')) });
    await user.click(await screen.findByTestId('user-menu'));
    await user.click(await screen.findByTestId('menu-privacy-policy'));
    expect(await screen.findByTestId('privacy-policy')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/privacy-policy');
    expect(screen.getByTestId('side-menu')).toBeTruthy();
  });
});
