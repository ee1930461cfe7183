import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { createChallenge, solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '@server/app';
import { hashPassword } from '@server/domains/auth/password';
import { createMailer, createOutbox, type Mail, type Mailer } from '@server/adapters/mail';
import type { AccessOptions } from '@server/domains/access';
import { ensureAdmin, seedDemo } from '@server/db/seed';
import { ADMIN_PASSWORD, engines, freshDatabase } from './helpers';

const ALTCHA_KEY = 'test-altcha-key';
const RATE_LIMITED = { statusCode: 429, code: 'RATE_LIMITED', message: 'Too many attempts. Please wait a few minutes and try again.' };
const RULE = 'Password must have at least 8 characters with a lowercase and an uppercase letter, a digit and one of @#$!%^&+=, and no spaces';

/** A portal with demo data and the given access settings; a cheap robot check keeps the suite fast. */
async function portal(engine: string, access: AccessOptions = {}) {
  const database = await freshDatabase(engine);
  await ensureAdmin(database.db, ADMIN_PASSWORD);
  const [{ password: demoPassword }] = await seedDemo(database.db);
  // Mail as the addressee receives it, while the outbox keeps what the administrator may read.
  const received: Mail[] = [];
  const outbox = createOutbox(database.db, { info() {} } as never);
  const recording: Mailer = {
    async send(mail) {
      received.push(mail);
      await outbox.send(mail);
    },
  };
  const app = await buildApp({
    database,
    jwtSecret: 'test-secret',
    access: {
      publicUrl: 'https://portal.example.com/',
      altcha: { hmacKey: ALTCHA_KEY, cost: 1, maxCounter: 40 },
      limits: { perAddress: 1000, perName: 1000 },
      mailer: recording,
      ...access,
    },
  });
  const db = database.db as any; // the access tables are not part of the shared Database type
  const signIn = (userName: string, password: string, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'POST', url: '/portal/auth', payload: { userName, password }, remoteAddress });
  async function as(userName: string, password = userName === 'admin' ? ADMIN_PASSWORD : demoPassword) {
    const res = await signIn(userName, password);
    expect(res.statusCode, res.body).toBe(200);
    const headers = { authorization: `Bearer ${res.json().jwt}` };
    return {
      get: (url: string) => app.inject({ method: 'GET', url, headers }),
      put: (url: string, payload: object) => app.inject({ method: 'PUT', url, headers, payload }),
    };
  }
  /** Mail is sent after the answer: wait until `count` mails to `to` have been received (or, unsent, kept in the outbox). */
  async function mailsTo(to: string, count = 1): Promise<{ to: string; subject: string; text: string }[]> {
    const sent = () => received.filter((m) => m.to === to);
    for (let i = 0; i < 100; i++) {
      if (sent().length >= count) return sent();
      const rows = await db.selectFrom('outbox').selectAll().where('to', '=', to).orderBy('id').execute();
      // A mail is received before it is kept: one kept while the outbox was read has been received meanwhile.
      if (sent().length >= count) return sent();
      if (rows.length >= count) return rows;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no mail to ${to}`);
  }
  async function addUser(username: string, email: string, password: string) {
    await db
      .insertInto('appUser')
      .values({
        username,
        email,
        passwordHash: await hashPassword(password),
        firstName: 'T',
        lastName: null,
        resellerId: 1,
        accountId: null,
        roleId: null,
        preferences: null,
      })
      .execute();
  }
  return {
    app,
    db,
    demoPassword,
    signIn,
    as,
    mailsTo,
    addUser,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

type Portal = Awaited<ReturnType<typeof portal>>;

const tokenIn = (text: string) => /#\/login\?password_reset=([\w-]+)/.exec(text)?.[1];

async function solvedPayload(p: Portal) {
  const res = await p.app.inject({ method: 'GET', url: '/portal/join/challenge' });
  expect(res.headers['cache-control']).toBe('no-store');
  const challenge = res.json() as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return { challenge, solution: solution!, payload: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64') };
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

describe.each(engines)('password reset, join requests and their limits on %s', (engine) => {
  let p: Portal;
  beforeAll(async () => {
    p = await portal(engine);
  });
  afterAll(async () => p?.close());

  const reset = (payload: object, method: 'PUT' | 'POST' = 'PUT') => p.app.inject({ method, url: '/portal/user/password/reset', payload });

  describe('password reset', () => {
    it('answers a known and an unknown address alike, and mails a link to the known one only', async () => {
      await p.addUser('reset-one', 'Reset.One@Example.com', 'Old@pass1');
      const unknown = await reset({ email: 'nobody@example.com' });
      const known = await reset({ email: 'reset.one@example.com' }, 'POST');
      expect(known.statusCode).toBe(200);
      expect(known.json()).toEqual({ message: 'If this e-mail address belongs to a user of the portal, a link to reset the password is on its way.' });
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.body).toBe(known.body);
      expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
      const [mail] = await p.mailsTo('Reset.One@Example.com');
      expect(mail.text).toContain('https://portal.example.com/#/login?password_reset=');
      await new Promise((r) => setTimeout(r, 100));
      expect(await p.db.selectFrom('outbox').select('id').where('to', '=', 'nobody@example.com').execute()).toEqual([]);
      const stored = await p.db.selectFrom('passwordReset').selectAll().execute();
      expect(stored).toHaveLength(1);
      expect(stored[0].tokenHash).not.toContain(tokenIn(mail.text));
    });

    it('keeps the reset link masked in the outbox, for the table and for the administrator who reads it', async () => {
      await p.addUser('reset-masked', 'reset.masked@example.com', 'Old@pass9');
      await reset({ email: 'reset.masked@example.com' });
      const token = tokenIn((await p.mailsTo('reset.masked@example.com'))[0].text)!;
      expect(token.length).toBeGreaterThan(20);
      // The mail is received before the outbox keeps it: wait for the row.
      const kept = await vi.waitFor(() => p.db.selectFrom('outbox').select('text').where('to', '=', 'reset.masked@example.com').executeTakeFirstOrThrow(), {
        timeout: 5_000,
        interval: 20,
      });
      expect(kept.text).not.toContain(token);
      expect(kept.text).toContain('password_reset=[hidden: sent to the addressee only]');
      const admin = await p.as('admin');
      const listed = JSON.stringify((await admin.get('/portal/admin/outbox?size=200')).json());
      expect(listed).toContain('reset.masked@example.com');
      expect(listed).not.toContain(token);
    });

    it('refuses an address that is not an e-mail, with a field error', async () => {
      const res = await reset({ email: 'not an address' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: [{ field: 'email', rule: 'format', message: 'E-mail must be valid' }] });
      expect((await reset({})).json().fields).toEqual([expect.objectContaining({ field: 'email', rule: 'required', message: 'E-mail is required' })]);
    });

    it('sets a new password once per token; the new one signs in and the old one no longer does', async () => {
      await p.addUser('reset-two', 'reset.two@example.com', 'Old@pass2');
      await reset({ email: 'reset.two@example.com' });
      const token = tokenIn((await p.mailsTo('reset.two@example.com'))[0].text)!;

      const weak = await reset({ token, newPassword: 'alllowercase1@' });
      expect(weak.statusCode).toBe(400);
      expect(weak.json().fields).toEqual([{ field: 'newPassword', rule: 'pattern', messageId: 'validation.password.invalid', message: RULE }]);
      expect((await reset({ token, newPassword: 'Has Space1@' })).json().fields[0].message).toBe(RULE);
      expect((await reset({ token, newPassword: '' })).json().fields[0]).toMatchObject({ field: 'newPassword', message: 'Password is required' });

      const done = await reset({ token, newPassword: 'N3w@Passw0rd' }, 'POST');
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toEqual({ message: 'Your password has been changed. You can now sign in with it.' });
      expect((await p.signIn('reset-two', 'N3w@Passw0rd')).statusCode).toBe(200);
      expect((await p.signIn('reset-two', 'Old@pass2')).statusCode).toBe(401);

      const again = await reset({ token, newPassword: 'Other@Passw0rd' });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({
        code: 'RESET_TOKEN_INVALID',
        message: 'This password reset link is not valid or has expired. Please ask for a new one.',
        fields: [{ field: 'token' }],
      });
      expect((await p.signIn('reset-two', 'N3w@Passw0rd')).statusCode).toBe(200);
    });

    it('refuses an expired or unknown token, and a token made moot by a later reset', async () => {
      await p.addUser('reset-three', 'reset.three@example.com', 'Old@pass3');
      await reset({ email: 'reset.three@example.com' });
      const first = tokenIn((await p.mailsTo('reset.three@example.com'))[0].text)!;
      await p.db
        .updateTable('passwordReset')
        .set({ expiresAt: new Date(Date.now() - 60_000) })
        .where('usedAt', 'is', null)
        .execute();
      expect((await reset({ token: first, newPassword: 'N3w@Passw0rd' })).json().code).toBe('RESET_TOKEN_INVALID');
      expect((await reset({ token: 'made-up', newPassword: 'N3w@Passw0rd' })).json().code).toBe('RESET_TOKEN_INVALID');

      await reset({ email: 'reset.three@example.com' });
      await reset({ email: 'reset.three@example.com' });
      const mails = await p.mailsTo('reset.three@example.com', 3);
      const [second, third] = mails.slice(1).map((m) => tokenIn(m.text)!);
      expect((await reset({ token: third, newPassword: 'N3w@Passw0rd' })).statusCode).toBe(200);
      expect((await reset({ token: second, newPassword: 'Else@Passw0rd' })).json().code).toBe('RESET_TOKEN_INVALID');
      expect((await p.signIn('reset-three', 'N3w@Passw0rd')).statusCode).toBe(200);
    });
  });

  it("changes the signed-in user's own password after checking the current one", async () => {
    await p.addUser('changer', 'changer@example.com', 'Start@pass1');
    const me = await p.as('changer', 'Start@pass1');
    const wrong = await me.put('/portal/user/password', { currentPassword: 'Wrong@pass1', newPassword: 'Next@pass22' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual([
      { field: 'currentPassword', rule: 'current', messageId: 'validation.password.current', message: 'The current password is not correct' },
    ]);
    const weak = await me.put('/portal/user/password', { currentPassword: 'Start@pass1', newPassword: 'weak' });
    expect(weak.json().fields).toEqual([expect.objectContaining({ field: 'newPassword', message: RULE })]);
    const ok = await me.put('/portal/user/password', { currentPassword: 'Start@pass1', newPassword: 'Next@pass22' });
    expect(ok.json()).toEqual({ message: 'Your password has been changed. Your other sessions have been signed out.', jwt: expect.any(String) });
    expect((await p.signIn('changer', 'Next@pass22')).statusCode).toBe(200);
    expect((await p.signIn('changer', 'Start@pass1')).statusCode).toBe(401);
    expect(
      (await p.app.inject({ method: 'PUT', url: '/portal/user/password', payload: { currentPassword: 'x', newPassword: 'Next@pass22' } })).statusCode,
    ).toBe(401);
  });

  describe('robot check', () => {
    const recaptcha = (token: unknown) => p.app.inject({ method: 'POST', url: '/portal/join/recaptcha/', payload: { token } });

    it('accepts a solved challenge once, and refuses tampered, foreign, expired or malformed ones', async () => {
      const { challenge, solution, payload } = await solvedPayload(p);
      expect(challenge.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', cost: 1 });
      expect(challenge.parameters.expiresAt! - Date.now() / 1000).toBeGreaterThan(590);

      const flipped = solution.derivedKey.slice(0, -1) + (solution.derivedKey.endsWith('0') ? '1' : '0');
      const tampered = encode({ challenge, solution: { ...solution, derivedKey: flipped } });
      expect((await recaptcha(tampered)).json()).toBe(false);
      const moved = encode({
        challenge: { ...challenge, parameters: { ...challenge.parameters, expiresAt: challenge.parameters.expiresAt! + 3600 } },
        solution,
      });
      expect((await recaptcha(moved)).json()).toBe(false);

      const ok = await recaptcha(payload);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['content-type']).toMatch(/application\/json/);
      expect(ok.json()).toBe(true);
      expect((await recaptcha(payload)).json()).toBe(false);

      const forge = async (secret: string, expiresAt: Date) => {
        const c = await createChallenge({ algorithm: 'PBKDF2/SHA-256', cost: 1, deriveKey, keyPrefix: '0', expiresAt, hmacSignatureSecret: secret });
        return encode({ challenge: c, solution: await solveChallenge({ challenge: c, deriveKey }) });
      };
      expect((await recaptcha(await forge('another-key', new Date(Date.now() + 60_000)))).json()).toBe(false);
      expect((await recaptcha(await forge(ALTCHA_KEY, new Date(Date.now() - 1000)))).json()).toBe(false);
      expect((await recaptcha(await forge(ALTCHA_KEY, new Date(Date.now() + 60_000)))).json()).toBe(true);
      for (const junk of ['', 'not base64 at all', encode({ challenge: 1 }), 42, null]) expect((await recaptcha(junk)).json()).toBe(false);
    });
  });

  describe('join request', () => {
    const join = (payload: unknown) => p.app.inject({ method: 'POST', url: '/portal/join/request/', payload: payload as object });
    const valid = {
      firstName: 'Zoë',
      lastName: "O'Neil-Åström",
      email: 'zoe@fleet.example',
      company: 'Fleet & Sons',
      phoneNumber: '+44 20 7946 0958',
      type: 'IoT provider',
      comment: 'About 500 trackers.',
    };
    const messages = (res: { json(): { fields: { field: string; message: string }[] } }) =>
      Object.fromEntries(res.json().fields.map((f) => [f.field, f.message]));

    it('names each invalid field with its message', async () => {
      const res = await join({
        firstName: 'J0hn',
        lastName: '',
        email: 'not-mail',
        company: '',
        phoneNumber: '+1 555 0100',
        type: 'x'.repeat(31),
        comment: 'x'.repeat(251),
        altcha: 'x',
      });
      expect(res.statusCode).toBe(400);
      expect(messages(res)).toEqual({
        firstName: 'Character not allowed.',
        lastName: 'Last name is required',
        email: 'E-mail must be valid',
        company: 'Company is required',
        phoneNumber: 'Phone must be valid',
        type: 'Max 30 characters allowed.',
        comment: 'Max 250 characters allowed.',
      });
      expect(messages(await join({}))).toEqual({
        lastName: 'Last name is required',
        email: 'E-mail is required',
        company: 'Company is required',
        phoneNumber: 'Phone number is required',
        type: 'Please choose',
        altcha: 'Please complete the robot check',
      });
      expect(messages(await join({ ...valid, altcha: 'x', extra: 1 }))).toEqual({ extra: 'This field is not accepted' });
      expect(messages(await join({ ...valid, phoneNumber: '2133734253', altcha: 'x' }))).toEqual({ phoneNumber: 'Phone must be valid' });
      for (const c of '0_!¡?÷¿/\\+=@#$%&*(){}|~<>;:[]') {
        expect(messages(await join({ ...valid, lastName: `Ann${c}`, altcha: 'x' })), c).toEqual({ lastName: 'Character not allowed.' });
      }
    });

    it('refuses a request whose robot check does not verify, on the altcha field', async () => {
      const res = await join({ ...valid, altcha: encode({ challenge: {}, solution: {} }) });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual([
        { field: 'altcha', rule: 'valid', messageId: 'validation.altcha.invalid', message: 'The robot check failed. Please try again.' },
      ]);
    });

    it('stores a valid request once, mails the administrator and lists it for the administrator only', async () => {
      const { payload } = await solvedPayload(p);
      expect((await p.app.inject({ method: 'POST', url: '/portal/join/recaptcha', payload: { token: payload } })).json()).toBe(true);
      const created = await join({ ...valid, type: 'Satellite backhaul', altcha: payload });
      expect(created.statusCode, created.body).toBe(201);
      const { id } = created.json();
      expect(id).toEqual(expect.any(Number));
      const replay = await join({ ...valid, altcha: payload });
      expect(messages(replay)).toEqual({ altcha: 'The robot check failed. Please try again.' });

      const [mail] = await p.mailsTo('admin');
      expect(mail.subject).toBe('Join request from Fleet & Sons');
      expect(mail.text).toContain("Zoë O'Neil-Åström");
      expect(mail.text).toContain('+44 20 7946 0958');

      const admin = await p.as('admin');
      const list = await admin.get('/portal/admin/join-requests');
      expect(list.json()).toMatchObject({ totalItemsCount: 1, currentPage: 0, totalPageCount: 1, items: [{ id, ...valid, type: 'Satellite backhaul' }] });

      // Once the administrator has an address, announcements go there.
      await p.db.updateTable('appUser').set({ email: 'ops@provider.example' }).where('username', '=', 'admin').execute();
      const second = await join({ ...valid, comment: null, firstName: null, altcha: (await solvedPayload(p)).payload });
      expect(second.statusCode, second.body).toBe(201);
      expect((await p.mailsTo('ops@provider.example'))[0].text).toContain(`#${second.json().id}`);
      expect((await admin.get('/portal/admin/join-requests?size=1')).json()).toMatchObject({
        totalItemsCount: 2,
        totalPageCount: 2,
        items: [{ id: second.json().id, comment: null, firstName: null }],
      });
    });
  });

  it('lets only the administrator read the outbox and the join requests', async () => {
    const northwind = await p.as('northwind');
    for (const url of ['/portal/admin/outbox', '/portal/admin/join-requests']) {
      const res = await northwind.get(url);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
      expect((await p.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
    const admin = await p.as('admin');
    const outbox = (await admin.get('/portal/admin/outbox?size=200')).json();
    expect(outbox.items.length).toBeGreaterThan(0);
    expect(outbox.items.map((m: { id: number }) => m.id)).toEqual([...outbox.items.map((m: { id: number }) => m.id)].sort((a, b) => b - a));
    expect(outbox.items[0]).toMatchObject({ to: expect.any(String), subject: expect.any(String), text: expect.any(String) });
    expect((await admin.get('/portal/admin/outbox?size=201')).statusCode).toBe(400);
  });
});

/** Sign-in attempts per user name and per address; `addr` gives each attempt its own client address. */
async function checkSignInLimits(p: Portal, perName: number, perAddress: number) {
  const net = randomBytes(1)[0];
  const addr = (i: number) => `10.${net}.0.${i}`;
  for (let i = 1; i <= perName; i++) expect((await p.signIn('northwind', 'Wrong@pass1', addr(i))).statusCode).toBe(401);
  const limited = await p.signIn('NorthWind', p.demoPassword, addr(100));
  expect(limited.statusCode).toBe(429);
  expect(limited.json()).toEqual(RATE_LIMITED);
  expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  expect((await p.signIn('bluesky', p.demoPassword, addr(100))).statusCode).toBe(200);

  for (let i = 1; i <= perAddress; i++) expect((await p.signIn(`nobody-${i}`, 'Wrong@pass1', addr(200))).statusCode).toBe(401);
  // Past the per-address limit sign-in is slowed down, not refused: the right password still gets in.
  expect((await p.signIn('bluesky', p.demoPassword, addr(200))).statusCode).toBe(200);
  expect((await p.signIn('bluesky', p.demoPassword, addr(201))).statusCode).toBe(200);
}

describe.each(engines)('attempt limits on %s', (engine) => {
  let p: Portal;
  beforeAll(async () => {
    p = await portal(engine, { limits: { perAddress: 4, perName: 3 } });
  });
  afterAll(async () => p?.close());

  it('limits failed sign-ins per account with 429 and Retry-After, and slows them down per address', async () => {
    await checkSignInLimits(p, 3, 4);
  });

  it('does not count successful sign-ins', async () => {
    for (let i = 0; i < 8; i++) expect((await p.signIn('harbor', p.demoPassword, '10.9.9.9')).statusCode).toBe(200);
  });

  it('limits reset requests per e-mail and per address, and join calls per address', async () => {
    const reset = (email: string, remoteAddress: string) =>
      p.app.inject({ method: 'POST', url: '/portal/user/password/reset', payload: { email }, remoteAddress });
    for (let i = 1; i <= 3; i++) expect((await reset('target@example.com', `10.8.0.${i}`)).statusCode).toBe(200);
    expect((await reset('TARGET@example.com', '10.8.0.99')).json()).toEqual(RATE_LIMITED);
    for (let i = 1; i <= 4; i++) expect((await reset(`other-${i}@example.com`, '10.8.1.1')).statusCode).toBe(200);
    expect((await reset('fresh@example.com', '10.8.1.1')).statusCode).toBe(429);

    const challenge = () => p.app.inject({ method: 'GET', url: '/portal/join/challenge', remoteAddress: '10.7.0.1' });
    for (let i = 1; i <= 4; i++) expect((await challenge()).statusCode).toBe(200);
    expect((await challenge()).json()).toEqual(RATE_LIMITED);
    expect((await p.app.inject({ method: 'POST', url: '/portal/join/recaptcha', payload: { token: 'x' }, remoteAddress: '10.7.0.1' })).statusCode).toBe(429);
    // Join attempts are counted apart from sign-in attempts.
    expect((await p.signIn('harbor', p.demoPassword, '10.7.0.1')).statusCode).toBe(200);
  });

  // Runs where Redis is available (REDIS_URL), as continuous integration provides.
  it.runIf(!!process.env.REDIS_URL)(
    'shares the counters of several servers through Redis',
    async () => {
      const limits = {
        perAddress: 4,
        perName: 3,
        redisUrl: process.env.REDIS_URL,
        nameSpace: `portal-test-${randomBytes(4).toString('hex')}-`,
        windowMinutes: 1,
      };
      const first = await portal(engine, { limits });
      const second = await portal(engine, { limits });
      try {
        await checkSignInLimits(first, 3, 4);
        // The second server sees the first one's failures.
        expect((await second.signIn('northwind', second.demoPassword, '10.50.0.1')).json()).toEqual(RATE_LIMITED);
      } finally {
        await first.close();
        await second.close();
      }
    },
    120_000,
  ); // two portals of their own, each seeded
});

/** A minimal SMTP server that accepts every message and keeps what it received. */
async function smtpSink() {
  const received: string[] = [];
  const server = createServer((socket) => {
    let data = false;
    let message = '';
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk) => {
      for (const line of chunk
        .toString()
        .split('\r\n')
        .filter((l, i, all) => l || i < all.length - 1)) {
        if (data) {
          if (line === '.') {
            data = false;
            received.push(message);
            socket.write('250 queued\r\n');
          } else message += `${line}\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 sink\r\n');
        else if (/^DATA/i.test(line)) {
          data = true;
          message = '';
          socket.write('354 go on\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`, received, close: () => new Promise((r) => server.close(r)) };
}

describe('mail through SMTP', () => {
  it('sends through the configured server, from MAIL_FROM', async () => {
    const sink = await smtpSink();
    try {
      const mailer = createMailer({} as never, {} as never, { smtpUrl: sink.url, from: 'portal@provider.example' });
      await mailer.send({ to: 'someone@example.com', subject: 'Reset your portal password', text: 'the link' });
      expect(sink.received).toHaveLength(1);
      expect(sink.received[0]).toMatch(/^From: portal@provider\.example$/m);
      expect(sink.received[0]).toMatch(/^To: someone@example\.com$/m);
      expect(sink.received[0]).toMatch(/^Subject: Reset your portal password$/m);
      expect(sink.received[0]).toContain('the link');
    } finally {
      await sink.close();
    }
  });
});
