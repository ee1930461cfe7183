import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@server/app';
import type { LimitSettings } from '@server/domains/access/limits';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;

/** Where the counters live: the database always; Redis too where REDIS_URL is set, as continuous integration provides. */
const stores = ['database', ...(process.env.REDIS_URL ? ['redis'] : [])] as const;

const cases = engines.flatMap((engine) => stores.map((store) => [engine, store] as const));

describe.each(cases)('sign-in limits on %s, counted in the %s', (engine, store) => {
  let ctx: Ctx;
  const settings = (more: LimitSettings): LimitSettings => ({
    windowMinutes: 1,
    ...(store === 'redis' ? { redisUrl: process.env.REDIS_URL, nameSpace: `portal-test-${randomBytes(4).toString('hex')}-` } : {}),
    ...more,
  });
  const limits = settings({ perName: 5, perAddress: 6, slowdownMs: 400, maxSlowdownMs: 800 });
  beforeAll(async () => {
    ctx = await testApp(engine, { access: { limits } });
  });
  afterAll(async () => ctx?.close());

  let net = 0;
  /** A fresh block of client addresses for each test. */
  const addresses = () => {
    net += 1;
    return (i: number) => `10.${net}.${Math.floor(i / 250)}.${(i % 250) + 1}`;
  };
  const signIn = (userName: string, password: string, remoteAddress: string, app = ctx.app) =>
    app.inject({ method: 'POST', url: '/portal/auth', payload: { userName, password }, remoteAddress });
  const statuses = (answers: { statusCode: number }[]) => answers.map((a) => a.statusCode).sort();

  it('lets at most the per-account limit of 30 parallel wrong passwords reach the password check, whichever spelling names the account', async () => {
    const addr = addresses();
    const spellings = ['northwind', 'NorthWind@Demo.Example', ' NORTHWIND ', 'northwind@demo.example'];
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(spellings[i % spellings.length], `Wrong@pass${i}`, addr(i))));
    expect(statuses(answers)).toEqual([...Array(5).fill(401), ...Array(25).fill(429)]);
    const locked = await signIn('northwind@demo.example', ctx.demoPassword, addr(100));
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('RATE_LIMITED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // Another account is not affected.
    expect((await signIn('bluesky', ctx.demoPassword, addr(101))).statusCode).toBe(200);
    // The counters are where they should be: in the database only without Redis.
    const rows = await (ctx.db as any)
      .selectFrom('attemptCounter')
      .select((eb: any) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(rows.n) > 0).toBe(store === 'database');
  });

  it('signs in with the correct password from an address past its limit, slowed down, while the account lock still refuses', async () => {
    const addr = addresses();
    const busy = addr(0);
    for (let i = 1; i <= 6; i++) expect((await signIn(`nobody-${net}-${i}`, 'Wrong@pass1', busy)).statusCode).toBe(401);
    const started = Date.now();
    const right = await signIn('harbor', ctx.demoPassword, busy);
    expect(right.statusCode).toBe(200);
    expect(right.json().jwt).toBeTruthy();
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
    // The success gave its attempt back: the next failure waits as long, the one after twice as long.
    for (const wait of [400, 800]) {
      const from = Date.now();
      expect((await signIn(`nobody-${net}-${wait}`, 'Wrong@pass1', busy)).statusCode).toBe(401);
      expect(Date.now() - from).toBeGreaterThanOrEqual(wait - 20);
    }

    for (let i = 1; i <= 5; i++) expect((await signIn('northwind-iot', 'Wrong@pass1', addr(i))).statusCode).toBe(401);
    const locked = await signIn('northwind-iot', ctx.demoPassword, busy);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('gives a successful sign-in its attempt back', async () => {
    const addr = addresses();
    for (let i = 1; i <= 4; i++) expect((await signIn('bluesky', 'Wrong@pass1', addr(i))).statusCode).toBe(401);
    expect((await signIn('bluesky', ctx.demoPassword, addr(10))).statusCode).toBe(200);
    // Four failures and the success given back: one attempt is left, and then the account is locked.
    expect((await signIn('bluesky@demo.example', 'Wrong@pass1', addr(11))).statusCode).toBe(401);
    expect((await signIn('bluesky', ctx.demoPassword, addr(12))).statusCode).toBe(429);
  });

  it('shares the counters with another server on the same database or Redis', async () => {
    const addr = addresses();
    const second = await buildApp({ database: ctx.database, jwtSecret: 'test-secret', access: { limits } });
    try {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => signIn('harbor@demo.example', `Wrong@pass${i}`, addr(i), i % 2 ? second : ctx.app)),
      );
      expect(statuses(answers)).toEqual([...Array(5).fill(401), ...Array(5).fill(429)]);
      expect((await signIn('harbor', ctx.demoPassword, addr(50), second)).statusCode).toBe(429);
    } finally {
      await second.close();
    }
  });
});

describe.each(engines)('sign-in limits while Redis is unreachable, on %s', (engine) => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await testApp(engine, { access: { limits: { perName: 3, perAddress: 100, redisUrl: 'redis://127.0.0.1:1' } } });
  });
  afterAll(async () => ctx?.close());

  it('counts in the database instead of letting every attempt through', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        ctx.app.inject({
          method: 'POST',
          url: '/portal/auth',
          payload: { userName: 'harbor', password: `Wrong@pass${i}` },
          remoteAddress: `10.200.0.${i + 1}`,
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
  });
});
