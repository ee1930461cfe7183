import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokens } from '@server/domains/auth/tokens';
import { ADMIN_PASSWORD, engines, testApp } from './helpers';

describe.each(engines)('sign-in and session on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => {
    ctx = await testApp(engine);
  });
  afterAll(async () => ctx?.close());

  const signIn = (userName: string, password: string) => ctx.app.inject({ method: 'POST', url: '/portal/auth', payload: { userName, password } });

  it('signs in by username or e-mail, ignoring case, and issues a one-hour token', async () => {
    const byName = await signIn('ADMIN', ADMIN_PASSWORD);
    expect(byName.statusCode).toBe(200);
    const { exp, iat, sub } = decodeJwt(byName.json().jwt);
    expect(exp! - iat!).toBe(3600);
    expect(sub).toBe('1');
    expect((await signIn('Northwind@demo.example', ctx.demoPassword)).statusCode).toBe(200);
  });

  it('refuses a wrong password or an unknown user alike, with 401', async () => {
    const wrong = await signIn('admin', 'nope');
    const unknown = await signIn('nobody', 'nope');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json()).toMatchObject({ code: 'BAD_CREDENTIALS' });
    expect((await ctx.app.inject({ method: 'POST', url: '/portal/auth', payload: { userName: 'admin' } })).statusCode).toBe(400);
  });

  it('answers version without a token, and the profile and privileges with one', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/portal/version' })).json()).toMatchObject({ version: '1.2.1' });
    expect((await ctx.app.inject({ method: 'GET', url: '/portal/user' })).statusCode).toBe(401);
    const iot = await ctx.as('northwind-iot');
    const profile = (await iot.get('/portal/user')).json();
    expect(profile).toMatchObject({
      username: 'northwind-iot',
      firstName: 'Ivan',
      email: 'northwind-iot@demo.example',
      resellerInfo: { name: 'Northwind IoT' },
      preferences: '[]',
    });
    const privileges = (await iot.get('/portal/user/ui-privileges')).json().userPrivileges.map((p: { privilege: string }) => p.privilege);
    expect(privileges).toContain('Accounts');
    expect(privileges).not.toContain('Roles');
  });

  it('renews a token, and refuses an expired or tampered one', async () => {
    const token = await ctx.login('admin');
    const renewed = await ctx.client(token).get('/portal/auth/renew');
    expect(renewed.statusCode).toBe(200);
    expect(decodeJwt(renewed.json().jwt).sub).toBe('1');
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...decodeJwt(token), sub: '2' })).toString('base64url');
    expect((await ctx.client(`${h}.${forged}.${s}`).get('/portal/user')).statusCode).toBe(401);
    expect(p).toBeTruthy();
  });

  it('accepts a token it has verified before only until it expires', async () => {
    const tokens = await createTokens(ctx.db, { secret: 'a-secret-of-this-test', expirySeconds: 60 });
    const token = await tokens.issue({ userId: 7, sessionVersion: 2 });
    expect(await tokens.verify(token)).toEqual({ userId: 7, sessionVersion: 2 });
    expect(await tokens.verify(token)).toEqual({ userId: 7, sessionVersion: 2 }); // the kept answer
    expect(await tokens.verify(`${token}x`)).toBeUndefined();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      expect(await tokens.verify(token)).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('saves preferences as JSON text and refuses anything else', async () => {
    const admin = await ctx.as('admin');
    const prefs = JSON.stringify([
      { type: 'darkMode', value: 'true' },
      { type: 'lang', value: 'he' },
    ]);
    expect((await admin.post('/portal/user/preferences', { preferences: prefs })).statusCode).toBe(204);
    expect((await admin.get('/portal/user')).json().preferences).toBe(prefs);
    const bad = await admin.post('/portal/user/preferences', { preferences: '{not json' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe('preferences');
  });
});
