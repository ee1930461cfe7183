// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { useImperativeHandle, useRef, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { accessStateOf } from '../../../../mocks/accessHandlers';
import type { RobotCheckProps } from './RobotCheck';

/**
 * The ALTCHA widget solves a proof of work with workers and Web Crypto; here it is a button that reports a
 * solution (`solution-1`, `solution-2`...) or one the mock server refuses (`refused-1`...), and counts resets.
 */
vi.mock('./RobotCheck', () => ({
  RobotCheck: function FakeRobotCheck({ ref, onVerified, onStateChange }: RobotCheckProps) {
    const [resets, setResets] = useState(0);
    const solved = useRef(0);
    const last = useRef('');
    useImperativeHandle(ref, () => ({
      reset: () => {
        setResets((r) => r + 1);
        onStateChange?.('unverified');
      },
    }));
    const report = (payload: string) => {
      last.current = payload;
      onVerified(payload);
    };
    return (
      <div data-testid="robot-check" data-resets={resets}>
        <button type="button" onClick={() => report(`solution-${++solved.current}`)}>
          Solve
        </button>
        <button type="button" onClick={() => report(`refused-${++solved.current}`)}>
          Solve badly
        </button>
        <button type="button" onClick={() => onVerified(last.current)}>
          Report again
        </button>
      </div>
    );
  },
}));

const api = setupMockApi();

const submit = () => screen.getByTestId('join-submit') as HTMLButtonElement;
const resets = () => Number(screen.getByTestId('robot-check').dataset.resets);

async function openJoin(options: { reactStrictMode?: boolean } = {}) {
  localStorage.setItem('portal.cookieConsent', 'accepted');
  const rendered = renderWithProviders(<AppRoutes />, { route: '/login', ...options });
  await rendered.user.click(await screen.findByTestId('show-join'));
  await screen.findByTestId('join-form');
  return rendered;
}

type User = Awaited<ReturnType<typeof openJoin>>['user'];

async function fillValidForm(user: User) {
  await user.type(screen.getByLabelText(/^First name/), 'Ada');
  await user.type(screen.getByLabelText(/^Last name/), 'Lovelace');
  await user.type(screen.getByLabelText(/^E-mail/), 'ada@engines.example');
  await user.type(screen.getByLabelText(/^Company/), 'Analytical Engines');
  await user.type(screen.getByLabelText(/^Phone number/), '+44 20 7946 0958');
  await user.selectOptions(screen.getByLabelText(/^Type of provider/), 'IoT provider');
  await user.type(screen.getByLabelText(/^Comment/), 'Fleet of 500 trackers');
}

describe('join request', () => {
  it('keeps Send disabled until the form is valid and the robot check passed, which is checked once', async () => {
    // Strict mode runs effects twice: the robot check must still reach the server only once per solution.
    const { user } = await openJoin({ reactStrictMode: true });
    expect(submit().disabled).toBe(true);

    await fillValidForm(user);
    expect(submit().disabled).toBe(true);
    expect(api.requests('/join/recaptcha')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Solve' }));
    await waitFor(() => expect(submit().disabled).toBe(false));
    await user.click(screen.getByRole('button', { name: 'Report again' }));
    expect(api.requests('/join/recaptcha', 'POST').map((r) => r.body)).toEqual([{ token: 'solution-1' }]);

    // A field that stops holding disables Send again.
    await user.clear(screen.getByLabelText(/^Company/));
    expect(submit().disabled).toBe(true);
    await user.type(screen.getByLabelText(/^Company/), 'Analytical Engines');
    expect(submit().disabled).toBe(false);
  });

  it('sends the request with the solution and shows the thank-you message with the product link', async () => {
    const { user } = await openJoin();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Solve' }));
    await waitFor(() => expect(submit().disabled).toBe(false));
    await user.click(submit());

    const thanks = await screen.findByTestId('join-thanks');
    expect(thanks.textContent).toContain('Thank you!');
    expect(screen.queryByTestId('join-form')).toBeNull();
    expect(within(thanks).getByTestId('join-product-link').getAttribute('href')).toBe('/');
    expect(api.requests('/join/request', 'POST').map((r) => r.body)).toEqual([
      {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@engines.example',
        company: 'Analytical Engines',
        phoneNumber: '+44 20 7946 0958',
        comment: 'Fleet of 500 trackers',
        type: 'IoT provider',
        altcha: 'solution-1',
      },
    ]);
    expect(accessStateOf(api.db).joinRequests).toHaveLength(1);
  });

  it('resets the widget when the server refuses the solution', async () => {
    const { user } = await openJoin();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Solve badly' }));

    expect((await screen.findByTestId('robot-check-error')).textContent).toBe('The robot check failed. Please try again.');
    expect(resets()).toBe(1);
    expect(submit().disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Solve' }));
    await waitFor(() => expect(submit().disabled).toBe(false));
    expect(screen.queryByTestId('robot-check-error')).toBeNull();
  });

  it('shows the server’s field errors under the fields, and a refused solution resets the widget', async () => {
    api.server.use(
      http.post('/portal/join/request', () =>
        HttpResponse.json(
          {
            statusCode: 400,
            code: 'VALIDATION_FAILED',
            message: 'Some fields are not valid',
            fields: [
              { field: 'company', rule: 'maxLength', messageId: 'validation.max100', message: 'Max 100 characters allowed.' },
              { field: 'altcha', rule: 'valid', messageId: 'validation.altcha.invalid', message: 'The robot check failed. Please try again.' },
            ],
          },
          { status: 400 },
        ),
      ),
    );
    const { user } = await openJoin();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Solve' }));
    await waitFor(() => expect(submit().disabled).toBe(false));
    await user.click(submit());

    expect((await screen.findByTestId('join-error')).textContent).toBe('Your request could not be sent. Please correct the marked fields.');
    expect(document.getElementById('join-company-error')?.textContent).toBe('Max 100 characters allowed.');
    expect(screen.getByLabelText(/^Company/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('robot-check-error').textContent).toBe('The robot check failed. Please try again.');
    expect(resets()).toBe(1);
    expect(submit().disabled).toBe(true);
    expect(screen.queryByTestId('join-thanks')).toBeNull();

    // Editing the field clears what the server said about it.
    await user.type(screen.getByLabelText(/^Company/), ' Ltd');
    expect(document.getElementById('join-company-error')).toBeNull();
  });

  it('shows a general error when the server fails', async () => {
    api.server.use(http.post('/portal/join/request', () => HttpResponse.json({ statusCode: 500, code: 'INTERNAL', message: 'x' }, { status: 500 })));
    const { user } = await openJoin();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Solve' }));
    await waitFor(() => expect(submit().disabled).toBe(false));
    await user.click(submit());
    expect((await screen.findByTestId('join-error')).textContent).toBe('Your request could not be sent. Please try again later.');
    expect(screen.getByTestId('join-form')).toBeTruthy();
  });

  it('judges the phone number when the field is left, and names with the shared pattern', async () => {
    const { user } = await openJoin();
    const phone = screen.getByLabelText(/^Phone number/);
    await user.type(phone, '+44 12');
    expect(screen.queryByText('Phone must be valid')).toBeNull();
    await user.tab();
    expect(screen.getByText('Phone must be valid')).toBeTruthy();
    expect(phone.getAttribute('aria-invalid')).toBe('true');
    // Back in the field, the message waits for the next blur.
    await user.click(phone);
    expect(screen.queryByText('Phone must be valid')).toBeNull();
    await user.type(phone, '34 567890');
    await user.tab();
    expect(screen.queryByText('Phone must be valid')).toBeNull();

    await user.type(screen.getByLabelText(/^First name/), 'Ada1');
    await user.tab();
    expect(screen.getByText('Character not allowed.')).toBeTruthy();
    await user.click(screen.getByLabelText(/^Last name/));
    await user.tab();
    expect(screen.getByText('Last name is required')).toBeTruthy();
    await user.type(screen.getByLabelText(/^E-mail/), 'ada@');
    await user.tab();
    expect(screen.getByText('E-mail must be valid')).toBeTruthy();
  });

  it('counts the comment against 250 and takes a custom type of up to 30 characters', async () => {
    const { user } = await openJoin();
    expect(screen.getByTestId('join-comment-counter').textContent).toBe('0 / 250');
    await user.type(screen.getByLabelText(/^Comment/), 'Hello');
    expect(screen.getByTestId('join-comment-counter').textContent).toBe('5 / 250');
    await user.click(screen.getByLabelText(/^Comment/));
    await user.paste('x'.repeat(246));
    await user.tab();
    expect(screen.getByTestId('join-comment-counter').textContent).toBe('251 / 250');
    expect(screen.getByText('Max 250 characters allowed.')).toBeTruthy();

    await user.selectOptions(screen.getByLabelText(/^Type of provider/), 'other');
    const custom = screen.getByLabelText('Your type of provider');
    await user.type(custom, 'Satellite connectivity reseller');
    await user.tab();
    expect(screen.getByText('Max 30 characters allowed.')).toBeTruthy();
  });
});
