// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { seedSubscribers } from '../../../../mocks/subscriberHandlers';
import { mockToken } from '../../../../mocks/token';

const api = setupMockApi();

function render(user = 'admin') {
  seedSubscribers(api.db);
  return renderWithProviders(<AppRoutes />, { route: '/subscriber/7', preloadedState: signedIn(mockToken(user)) });
}

async function openDialog() {
  const rendered = render();
  await rendered.user.click(within(await screen.findByTestId('subscriber-header')).getByTestId('action-send-sms'));
  await screen.findByTestId('sms-dialog');
  return rendered;
}

const count = () => screen.getByTestId('sms-count').textContent;
const text = () => screen.getByTestId('sms-text') as HTMLTextAreaElement;

describe('send SMS to the SIM', () => {
  it('counts characters and messages as the network does, GSM-7 or UCS-2', async () => {
    const { user } = await openDialog();
    expect(count()).toBe('0 of 160 characters · GSM-7 · no message');
    await user.type(text(), 'Reboot{{}');
    expect(text().value).toBe('Reboot{}');
    expect(count()).toBe('10 of 160 characters · GSM-7 · 1 message'); // "{" and "}" take two each
    await user.type(text(), ' ж');
    expect(count()).toBe('10 of 70 characters · UCS-2 · 1 message'); // a Cyrillic letter: every character counts once
    await user.clear(text());
    await user.click(text());
    await user.paste('a'.repeat(161));
    expect(count()).toBe('161 of 160 characters · GSM-7 · 2 messages');
  });

  it('refuses an empty or too long text before sending anything', async () => {
    const { user } = await openDialog();
    await user.click(screen.getByTestId('sms-dialog-submit'));
    expect(screen.getByText('Please enter the message text')).toBeTruthy();
    await user.click(text());
    await user.paste('ж'.repeat(71));
    await user.click(screen.getByTestId('sms-dialog-submit'));
    expect(screen.getByText('The message must fit in one SMS: at most 160 characters of the GSM alphabet, or 70 with other characters')).toBeTruthy();
    expect(api.requests('/portal/subscriber-info/7/sms', 'POST')).toHaveLength(0);
  });

  it('sends the text, follows the operation until the network answers, and the event appears', async () => {
    const { user } = await openDialog();
    await user.type(text(), 'APN=iot.example');
    await user.click(screen.getByTestId('sms-dialog-submit'));
    await waitFor(() => expect(screen.queryByTestId('sms-dialog')).toBeNull());
    expect(api.requests('/portal/subscriber-info/7/sms', 'POST').map((r) => r.body)).toEqual([{ text: 'APN=iot.example' }]);
    expect((await screen.findByTestId('operation-outcome')).textContent).toContain('Send SMS');
    await waitFor(() => expect(screen.getByTestId('operation-outcome').dataset.status).toBe('success'));
    expect(screen.getByTestId('operation-outcome').textContent).toBe('Send SMS done.');
    const events = await screen.findByTestId('network-events-table');
    await waitFor(() => expect(within(events).getByText('send-sms')).toBeTruthy());
  });

  it("shows the server's answer under the field it names", async () => {
    api.server.use(
      http.post('/portal/subscriber-info/7/sms', () =>
        HttpResponse.json(
          {
            statusCode: 400,
            code: 'VALIDATION_FAILED',
            message: 'Validation failed',
            fields: [{ field: 'text', rule: 'maxLength', messageId: 'validation.sms.tooLong', message: 'The message must fit in one SMS' }],
          },
          { status: 400 },
        ),
      ),
    );
    const { user } = await openDialog();
    await user.type(text(), 'hello');
    await user.click(screen.getByTestId('sms-dialog-submit'));
    expect(await screen.findByText('The message must fit in one SMS: at most 160 characters of the GSM alphabet, or 70 with other characters')).toBeTruthy();
    expect(screen.getByTestId('sms-dialog')).toBeTruthy();
  });

  it('is offered only with the network events panel', async () => {
    api.db.users.find((u) => u.username === 'nora')!.privileges = [
      { privilege: 'Subscribers', subPrivileges: [] },
      { privilege: 'SubscriberDetails', subPrivileges: ['Status'] },
    ];
    seedSubscribers(api.db);
    renderWithProviders(<AppRoutes />, { route: '/subscriber/7', preloadedState: signedIn(mockToken('nora')) });
    await screen.findByTestId('subscriber-name');
    expect(screen.queryByTestId('action-send-sms')).toBeNull();
  });
});
