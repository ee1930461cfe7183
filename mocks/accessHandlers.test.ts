import { describe, expect, it } from 'vitest';
import { accessStateOf } from './accessHandlers';
import { MOCK_PASSWORD } from './data';
import { MOCK_BASE as BASE, useMockServer } from './testServer';
import { mockToken } from './token';

const mock = useMockServer();

async function call(method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const JOIN = { lastName: 'Lovelace', email: 'ada@engines.example', company: 'Engines', phoneNumber: '+44 20 7946 0958', type: 'IoT provider' };

describe('mock access calls', () => {
  it('checks a robot-check payload once and lets one join request spend it', async () => {
    expect((await call('POST', '/join/recaptcha', { token: 'solution-1' })).body).toBe(true);
    expect((await call('POST', '/join/recaptcha', { token: 'solution-1' })).body).toBe(false);
    expect((await call('POST', '/join/recaptcha', { token: 'refused-1' })).body).toBe(false);

    const invalid = await call('POST', '/join/request', { ...JOIN, firstName: 'Ada1', phoneNumber: '+44 12', altcha: 'solution-1' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields.map((f: { field: string; messageId: string }) => [f.field, f.messageId])).toEqual([
      ['firstName', 'validation.character.notAllowed'],
      ['phoneNumber', 'validation.phone.invalid'],
    ]);

    expect(await call('POST', '/join/request', { ...JOIN, altcha: 'solution-1' })).toEqual({ status: 201, body: { id: 1 } });
    const again = await call('POST', '/join/request', { ...JOIN, altcha: 'solution-1' });
    expect(again.body.fields).toEqual([expect.objectContaining({ field: 'altcha', messageId: 'validation.altcha.invalid' })]);
  });

  it('answers a reset request the same for known and unknown addresses, and sets a password with the token', async () => {
    const known = await call('PUT', '/user/password/reset', { email: 'nora@northwind.test' });
    const unknown = await call('PUT', '/user/password/reset', { email: 'nobody@nowhere.test' });
    expect(known).toEqual(unknown);
    const [token] = [...accessStateOf(mock.db).resetTokens.keys()];

    const weak = await call('PUT', '/user/password/reset', { newPassword: 'weak', token });
    expect(weak.body.fields[0]).toMatchObject({ field: 'newPassword', messageId: 'validation.password.invalid' });
    expect((await call('PUT', '/user/password/reset', { newPassword: 'Harbour#2026', token })).status).toBe(200);
    expect(mock.db.users[1].password).toBe('Harbour#2026');
    const reused = await call('PUT', '/user/password/reset', { newPassword: 'Harbour#2027', token });
    expect(reused.body).toMatchObject({ statusCode: 400, code: 'RESET_TOKEN_INVALID' });
  });

  it('changes the signed-in user’s password only with the current one', async () => {
    const token = mockToken('nora');
    expect((await call('PUT', '/user/password', { currentPassword: MOCK_PASSWORD, newPassword: 'Harbour#2026' })).status).toBe(401);
    const wrong = await call('PUT', '/user/password', { currentPassword: 'nope', newPassword: 'Harbour#2026' }, token);
    expect(wrong.body.fields).toEqual([expect.objectContaining({ field: 'currentPassword', rule: 'current' })]);
    expect((await call('PUT', '/user/password', { currentPassword: MOCK_PASSWORD, newPassword: 'Harbour#2026' }, token)).status).toBe(200);
    expect(mock.db.users[1].password).toBe('Harbour#2026');
  });
});
