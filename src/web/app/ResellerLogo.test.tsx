// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken, tokenSubject } from '../../../mocks/token';

const api = setupMockApi();

const logoCalls = (method: string) => api.requests('/portal/user/logo', method);

/** A 1×1 transparent PNG. */
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

const renderAs = (username: string) => renderWithProviders(<AppRoutes />, { route: '/', preloadedState: signedIn(mockToken(username)) });

async function openDialog() {
  const rendered = renderAs('admin');
  await rendered.user.click(await screen.findByTestId('user-menu'));
  await rendered.user.click(await screen.findByTestId('menu-reseller-logo'));
  await screen.findByTestId('logo-form');
  return rendered;
}

const fileInput = () => document.getElementById('logo-file') as HTMLInputElement;

describe('reseller logo', () => {
  it('shows the default image while the reseller has no logo', async () => {
    renderAs('nora');
    await waitFor(() => expect(logoCalls('GET').length).toBeGreaterThan(0));
    // The signed-in user's token (its expiry depends on the second the test runs, so compare the subject).
    for (const call of logoCalls('GET')) expect(tokenSubject(call.headers.get('authorization')?.replace(/^Bearer /, '') ?? '')).toBe('nora');
    expect(await screen.findByTestId('default-logo')).toBeTruthy();
    expect(screen.queryByTestId('reseller-logo')).toBeNull();
  });

  it('shows the logo from an object URL, inside the link home, and falls back when the image fails to load', async () => {
    api.server.use(http.get('/portal/user/logo', () => new HttpResponse(PNG.slice().buffer, { headers: { 'Content-Type': 'image/png' } })));
    renderAs('nora');
    const img = (await screen.findByTestId('reseller-logo')) as HTMLImageElement;
    expect(img.getAttribute('src')).toMatch(/^blob:/);
    expect(img.closest('a')?.getAttribute('href')).toBe('/');
    expect(screen.queryByTestId('default-logo')).toBeNull();
    fireEvent.error(img);
    expect(await screen.findByTestId('default-logo')).toBeTruthy();
    expect(screen.queryByTestId('reseller-logo')).toBeNull();
  });

  it('falls back to the default image when the logo call fails', async () => {
    api.server.use(http.get('/portal/user/logo', () => HttpResponse.json({ statusCode: 500, code: 'INTERNAL', message: 'boom' }, { status: 500 })));
    renderAs('nora');
    await waitFor(() => expect(logoCalls('GET').length).toBeGreaterThan(0));
    expect(await screen.findByTestId('default-logo')).toBeTruthy();
  });

  it('offers the logo dialog only to users with the Resellers privilege', async () => {
    const { user } = renderAs('nora');
    await user.click(await screen.findByTestId('user-menu'));
    await screen.findByTestId('menu-change-password');
    expect(screen.queryByTestId('menu-reseller-logo')).toBeNull();
  });

  it('refuses a file of 4 MB or more, and no file, before sending anything', async () => {
    const { user } = await openDialog();
    await user.click(screen.getByTestId('logo-upload'));
    expect(screen.getByTestId('logo-error').textContent).toBe('Please select a file.');

    const big = new File([new Uint8Array(4 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    await user.upload(fileInput(), big);
    expect(screen.getByTestId('logo-error').textContent).toBe('File size should be less than 4 MB!');
    await user.click(screen.getByTestId('logo-upload'));
    expect(screen.getByTestId('logo-error').textContent).toBe('File size should be less than 4 MB!');
    expect(logoCalls('PUT')).toHaveLength(0);
  });

  it('uploads a logo, shows it in the top bar, and removes it again', async () => {
    const { user } = await openDialog();
    await user.upload(fileInput(), new File([PNG], 'logo.png', { type: 'image/png' }));
    expect(screen.queryByTestId('logo-error')).toBeNull();
    await user.click(screen.getByTestId('logo-upload'));
    expect(await screen.findByText('Logo uploaded')).toBeTruthy();
    const put = logoCalls('PUT');
    expect(put).toHaveLength(1);
    expect(put[0].headers.get('content-type')).toBe('image/png');
    expect(await screen.findByTestId('reseller-logo')).toBeTruthy();

    await user.click(screen.getByTestId('user-menu'));
    await user.click(await screen.findByTestId('menu-reseller-logo'));
    await user.click(await screen.findByTestId('logo-remove'));
    expect(await screen.findByText('Logo removed')).toBeTruthy();
    expect(await screen.findByTestId('default-logo')).toBeTruthy();
  });

  it('shows what the server refuses', async () => {
    const { user } = await openDialog();
    await user.upload(fileInput(), new File(['not an image'], 'notes.png', { type: 'image/png' }));
    await user.click(screen.getByTestId('logo-upload'));
    await waitFor(() => expect(screen.getByTestId('logo-error').textContent).toBe('The logo must be a PNG, JPEG or SVG image'));
  });
});
