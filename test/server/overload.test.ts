import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_DEFAULTS } from '@server/db/queue';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;

const LIST = { method: 'POST' as const, url: '/portal/subscribers/paged', payload: { page: { page: 0, size: 50 } } };

describe.each(engines)('requests waiting for the database (%s)', (engine) => {
  let ctx: Ctx;
  let headers: Record<string, string>;

  beforeAll(async () => {
    ctx = await testApp(engine);
    headers = { authorization: `Bearer ${await ctx.login('admin')}` };
  });
  afterAll(() => ctx.close());

  it('answers 503 with Retry-After at once when the line is full, and every other request in full', async () => {
    ctx.database.queue.configure({ limit: 2, waitMs: 5000 });
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 40 }, () => ctx.app.inject({ ...LIST, headers })));
    const elapsed = performance.now() - started;
    const refused = answers.filter((a) => a.statusCode === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.statusCode === 200).length).toBeGreaterThanOrEqual(ctx.database.queue.capacity);
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 503)).toBe(true);
    for (const a of refused) {
      expect(a.headers['retry-after']).toBe('5');
      expect(a.json()).toEqual({ statusCode: 503, code: 'BUSY', message: 'The server is busy. Please try again in a moment.' });
    }
    expect(elapsed).toBeLessThan(20000);
    expect(ctx.database.queue.waiting).toBe(0);
  });

  it('answers 503 to a request that waited its time while the database was held', async () => {
    ctx.database.queue.configure({ limit: 10, waitMs: 150 });
    // Background work (no request) holds every connection for a while: it waits without limit, requests do not.
    let letGo!: () => void;
    const held = new Promise<void>((r) => (letGo = r));
    const holders = Array.from({ length: ctx.database.queue.capacity }, () => ctx.db.connection().execute(() => held));
    await new Promise((r) => setTimeout(r, 20));
    const started = performance.now();
    const answer = await ctx.app.inject({ ...LIST, headers });
    const waited = performance.now() - started;
    letGo();
    await Promise.all(holders);
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(waited).toBeGreaterThanOrEqual(140);
    expect(waited).toBeLessThan(5000);
    // Once the database is free again the same request is served.
    ctx.database.queue.configure(QUEUE_DEFAULTS[ctx.database.engine]);
    expect((await ctx.app.inject({ ...LIST, headers })).statusCode).toBe(200);
  });
});
