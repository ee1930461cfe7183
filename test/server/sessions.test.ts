import { createHash, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '@server/domains/auth/password';
import { engines, testApp } from './helpers';
import { changeOwnPassword, ENDED, sessionAnswers, STANDS } from './sessionHelpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;

const PASSWORD = 'Start@2026pass';

describe.each(engines)('sessions end when the password, role or disabled flag changes, on %s', (engine) => {
  let ctx: Ctx;
  let admin: ReturnType<Ctx['client']>;
  let resellerId: number;
  let managerRole: number;
  let viewerRole: number;
  let made = 0;

  beforeAll(async () => {
    ctx = await testApp(engine);
    admin = await ctx.as('admin');
    const reseller = await ctx.db.selectFrom('reseller').select('id').where('name', '=', 'Blue Sky Telecom').executeTakeFirstOrThrow();
    resellerId = reseller.id;
    managerRole = (
      await ctx.db.selectFrom('role').select('id').where('resellerId', '=', resellerId).where('name', '=', 'Reseller manager').executeTakeFirstOrThrow()
    ).id;
    viewerRole = (
      await ctx.db
        .insertInto('role')
        .values({ name: 'Viewer', resellerId, privileges: JSON.stringify([{ privilege: 'Dashboard', subPrivileges: [] }]) })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => ctx?.close());

  /** A user of the test's own, signed in twice (two devices); each session is used before the change comes. */
  async function signedInTwice() {
    const username = `session-${++made}`;
    const { id } = await ctx.db
      .insertInto('appUser')
      .values({
        username,
        email: `${username}@example.com`,
        passwordHash: await hashPassword(PASSWORD),
        firstName: 'Sam',
        lastName: null,
        resellerId,
        accountId: null,
        roleId: managerRole,
        preferences: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const first = ctx.client(await ctx.login(username, PASSWORD));
    const second = ctx.client(await ctx.login(username, PASSWORD));
    // Twice each: the token's verification and the principal are now kept in memory, and must not outlive the change.
    for (const session of [first, second, first, second]) expect(await sessionAnswers(session)).toEqual(STANDS);
    // A token renewed before the change ends with the others.
    const renewed = ctx.client((await first.get('/portal/auth/renew')).json().jwt);
    return { id, username, sessions: [first, second, renewed] };
  }

  const userRow = async (id: number) => (await admin.get(`/portal/user/${id}`)).json();

  it('ends every other session when users change their own password; theirs goes on with the new token', async () => {
    const { username, sessions } = await signedInTwice();
    const current = ctx.client(await changeOwnPassword(sessions[0], PASSWORD, 'Next@2026pass'));
    expect(await sessionAnswers(current)).toEqual(STANDS);
    for (const session of sessions) expect(await sessionAnswers(session)).toEqual(ENDED);
    expect(await sessionAnswers(current)).toEqual(STANDS);
    expect(await ctx.login(username, 'Next@2026pass')).toBeTruthy();
  });

  it('ends every session when the password is reset with a mailed link', async () => {
    const { id, username, sessions } = await signedInTwice();
    const token = randomBytes(24).toString('base64url');
    await (ctx.db as any)
      .insertInto('passwordReset')
      .values({ userId: id, tokenHash: createHash('sha256').update(token).digest('hex'), expiresAt: sql`now() + interval '1 hour'` })
      .execute();
    const reset = await ctx.app.inject({ method: 'POST', url: '/portal/user/password/reset', payload: { token, newPassword: 'Reset@2026pass' } });
    expect(reset.statusCode, reset.body).toBe(200);
    for (const session of sessions) expect(await sessionAnswers(session)).toEqual(ENDED);
    expect(await sessionAnswers(ctx.client(await ctx.login(username, 'Reset@2026pass')))).toEqual(STANDS);
  });

  it('ends every session when an administrator changes the role, and not when other fields change', async () => {
    const { id, username, sessions } = await signedInTwice();
    const renamed = await admin.put('/portal/user', { ...(await userRow(id)), lastName: 'Renamed' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    for (const session of sessions) expect(await sessionAnswers(session)).toEqual(STANDS);

    const moved = await admin.put('/portal/user', { ...(await userRow(id)), roleId: viewerRole });
    expect(moved.statusCode, moved.body).toBe(200);
    for (const session of sessions) expect(await sessionAnswers(session)).toEqual(ENDED);
    expect(await sessionAnswers(ctx.client(await ctx.login(username, PASSWORD)))).toEqual(STANDS);
  });

  it('ends every session of a disabled user and refuses its sign-in until it is enabled again', async () => {
    const { id, username, sessions } = await signedInTwice();
    expect((await userRow(id)).disabled).toBe(false);
    const disabled = await admin.put('/portal/user', { ...(await userRow(id)), disabled: true });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json().disabled).toBe(true);
    for (const session of sessions) expect(await sessionAnswers(session)).toEqual(ENDED);

    const refused = await ctx.app.inject({ method: 'POST', url: '/portal/auth', payload: { userName: username, password: PASSWORD } });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'USER_DISABLED', message: 'This account is disabled. Ask your administrator to enable it.' });
    // Only whoever knows the password learns that the account is disabled.
    const guessed = await ctx.app.inject({ method: 'POST', url: '/portal/auth', payload: { userName: username, password: 'Guess@2026pass' } });
    expect(guessed.json()).toMatchObject({ code: 'BAD_CREDENTIALS' });

    expect((await admin.put('/portal/user', { ...(await userRow(id)), disabled: false })).statusCode).toBe(200);
    for (const session of sessions) expect(await sessionAnswers(session)).toEqual(ENDED);
    expect(await sessionAnswers(ctx.client(await ctx.login(username, PASSWORD)))).toEqual(STANDS);
  });

  it('ends every session when the password changes outside the portal', async () => {
    const { id, sessions } = await signedInTwice();
    const change = `update app_user set password_hash = '${await hashPassword('Psql@2026pass')}' where id = ${Number(id)}`;
    if (engine === 'postgres') {
      // Another connection: only the database's notification tells the server.
      const other = new pg.Client({ connectionString: ctx.database.url });
      await other.connect();
      await other.query(change);
      await other.end();
    } else {
      await sql.raw(change).execute(ctx.db);
    }
    for (const session of sessions) await expect.poll(() => sessionAnswers(session), { timeout: 3000, interval: 50 }).toEqual(ENDED);
  });

  it('refuses a token that carries no session version', async () => {
    const legacy = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('test-secret'));
    expect(await sessionAnswers(ctx.client(legacy))).toEqual(ENDED);
  });
});
