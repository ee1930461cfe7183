import { generate } from 'otplib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { engines, testApp } from './helpers';

/** The code an authenticator shows now, or `steps` periods of 30 s later (accepted within one period). */
const codeOf = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
/** The server's clock moves on by one 30 s period, so the next code is a new one (only Date is faked). */
const nextPeriod = () => vi.setSystemTime(Date.now() + 30_000);

describe.each(engines)('two-factor sign-in on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => {
    ctx = await testApp(engine);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 0, 1, 12, 0, 0));
  });
  afterAll(async () => {
    vi.useRealTimers();
    await ctx?.close();
  });

  const signIn = (userName: string, code?: string) =>
    ctx.app.inject({ method: 'POST', url: '/portal/auth', payload: { userName, password: ctx.demoPassword, ...(code === undefined ? {} : { code }) } });
  const storedSecrets = async (username: string) =>
    (
      await sql<{
        totpSecret: string | null;
        totpPendingSecret: string | null;
      }>`select totp_secret, totp_pending_secret from app_user where username = ${username}`.execute(ctx.db)
    ).rows[0];

  let secret = '';

  it('enrols from the signed-in user: a secret and QR address, confirmed by a code, kept encrypted', async () => {
    const bluesky = await ctx.as('bluesky');
    expect((await bluesky.get('/portal/user/two-factor')).json()).toEqual({ enabled: false, required: false });
    const started = await bluesky.post('/portal/user/two-factor/enrol');
    expect(started.statusCode).toBe(200);
    secret = started.json().secret;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(started.json().otpauthUri).toMatch(/^otpauth:\/\/totp\/.*bluesky.*secret=/);
    // Until confirmed, sign-in stays one step.
    expect((await signIn('bluesky')).json()).toHaveProperty('jwt');

    const wrong = await bluesky.post('/portal/user/two-factor/confirm', { code: '000000' === (await codeOf(secret)) ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual([expect.objectContaining({ field: 'code', messageId: 'twoFactor.codeInvalid' })]);
    expect((await bluesky.get('/portal/user/two-factor')).json().enabled).toBe(false);

    const confirmed = await bluesky.post('/portal/user/two-factor/confirm', { code: await codeOf(secret) });
    expect(confirmed.statusCode).toBe(200);
    expect((await bluesky.get('/portal/user/two-factor')).json()).toEqual({ enabled: true, required: false });

    const stored = await storedSecrets('bluesky');
    expect(stored.totpPendingSecret).toBeNull();
    expect(stored.totpSecret).toBeTruthy();
    expect(stored.totpSecret).not.toContain(secret);
    // Never handed out again: enrolling anew is refused, and the user record does not carry it.
    expect((await bluesky.post('/portal/user/two-factor/enrol')).statusCode).toBe(409);
    const admin = await ctx.as('admin');
    const id = (await bluesky.get('/portal/user')).json().id;
    expect(JSON.stringify((await admin.get(`/portal/user/${id}`)).json())).not.toContain(secret);
  });

  it('asks an enrolled user for the code, refuses a wrong or reused code, and issues a token for a right one', async () => {
    const first = await signIn('bluesky');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ twoFactor: 'code' });
    // The second step still needs the password: a code alone opens nothing.
    nextPeriod();
    const noPassword = await ctx.app.inject({
      method: 'POST',
      url: '/portal/auth',
      payload: { userName: 'bluesky', password: 'wrong', code: await codeOf(secret) },
    });
    expect(noPassword.statusCode).toBe(401);
    expect(noPassword.json().code).toBe('BAD_CREDENTIALS');

    const wrong = await signIn('bluesky', '12345');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'TWO_FACTOR_INVALID', message: expect.stringMatching(/code/i) });

    const code = await codeOf(secret);
    const ok = await signIn('bluesky', code);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().jwt).toBeTruthy();
    const replay = await signIn('bluesky', code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('TWO_FACTOR_INVALID');
  });

  it('disables only with a valid code', async () => {
    // A code older than the last one used is refused too.
    expect((await signIn('bluesky', await codeOf(secret, -1))).statusCode).toBe(401);
    nextPeriod();
    const session = ctx.client((await signIn('bluesky', await codeOf(secret))).json().jwt);
    nextPeriod();
    const wrong = await session.post('/portal/user/two-factor/disable', { code: 'abcdef' });
    expect(wrong.statusCode).toBe(400);
    expect((await session.get('/portal/user/two-factor')).json().enabled).toBe(true);
    const off = await session.post('/portal/user/two-factor/disable', { code: await codeOf(secret) });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ enabled: false, required: false });
    expect((await storedSecrets('bluesky')).totpSecret).toBeNull();
    expect((await signIn('bluesky')).json()).toHaveProperty('jwt');
  });

  it('lets only the admin require it per reseller, for the reseller and its sub-resellers, enrolling at sign-in', async () => {
    const northwind = await ctx.as('northwind');
    const admin = await ctx.as('admin');
    const list = (await admin.get('/portal/admin/two-factor/resellers?search=northwind')).json();
    expect(list.totalItemsCount).toBe(2);
    const mobile = list.items.find((r: { name: string }) => r.name === 'Northwind Mobile');
    expect(mobile).toMatchObject({ requireTwoFactor: false, users: 2, enrolledUsers: 0 });

    expect((await northwind.put(`/portal/admin/two-factor/resellers/${mobile.id}`, { requireTwoFactor: true })).statusCode).toBe(403);
    expect((await northwind.get('/portal/admin/two-factor/resellers')).statusCode).toBe(403);
    expect((await admin.put('/portal/admin/two-factor/resellers/99999', { requireTwoFactor: true })).statusCode).toBe(404);
    expect((await admin.put(`/portal/admin/two-factor/resellers/${mobile.id}`, { requireTwoFactor: 'yes' })).statusCode).toBe(400);
    const set = await admin.put(`/portal/admin/two-factor/resellers/${mobile.id}`, { requireTwoFactor: true });
    expect(set.json()).toMatchObject({ id: mobile.id, requireTwoFactor: true });

    // A user of the sub-reseller has not enrolled: no session until enrolled.
    const first = await signIn('northwind-iot');
    expect(first.json()).toMatchObject({ twoFactor: 'enrol', secret: expect.any(String), otpauthUri: expect.stringContaining('otpauth://totp/') });
    expect(first.json()).not.toHaveProperty('jwt');
    const again = await signIn('northwind-iot');
    expect(again.json().secret).toBe(first.json().secret);
    expect((await signIn('northwind-iot', '000001')).statusCode).toBe(401);
    const enrolled = await signIn('northwind-iot', await codeOf(first.json().secret));
    expect(enrolled.json().jwt).toBeTruthy();
    const iot = ctx.client(enrolled.json().jwt);
    expect((await iot.get('/portal/user/two-factor')).json()).toEqual({ enabled: true, required: true });
    expect((await signIn('northwind-iot')).json()).toEqual({ twoFactor: 'code' });
    nextPeriod();
    const refused = await iot.post('/portal/user/two-factor/disable', { code: await codeOf(first.json().secret) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('TWO_FACTOR_REQUIRED');

    // Other resellers and the provider itself are not affected.
    expect((await signIn('bluesky')).json()).toHaveProperty('jwt');
    expect(await ctx.login('admin')).toBeTruthy();
    const after = (await admin.get('/portal/admin/two-factor/resellers?search=IoT')).json().items[0];
    expect(after).toMatchObject({ name: 'Northwind IoT', requireTwoFactor: false, enrolledUsers: 1 });

    await admin.put(`/portal/admin/two-factor/resellers/${mobile.id}`, { requireTwoFactor: false });
    expect((await signIn('northwind')).json()).toHaveProperty('jwt');
  });

  it('counts wrong codes toward the sign-in limits', async () => {
    const harbor = ctx.client((await signIn('harbor')).json().jwt);
    const enrol = (await harbor.post('/portal/user/two-factor/enrol')).json();
    await harbor.post('/portal/user/two-factor/confirm', { code: await codeOf(enrol.secret) });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await signIn('harbor', '000000' === (await codeOf(enrol.secret)) ? '111111' : '000000')).statusCode);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    nextPeriod();
    expect((await signIn('harbor', await codeOf(enrol.secret))).statusCode).toBe(429);
  });
});
