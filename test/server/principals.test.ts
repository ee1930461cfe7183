import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notifications } from '@server/db';
import { Principals } from '@server/http/principal';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;

describe.each(engines)('who is calling, kept between requests, on %s', (engine) => {
  let ctx: Ctx;
  let roleId: number;
  let everything: unknown;
  beforeAll(async () => {
    ctx = await testApp(engine);
    const role = (await (await ctx.as('bluesky')).get('/portal/roles')).json().find((r: { name: string }) => r.name === 'Reseller manager');
    roleId = role.id;
    everything = (await (await ctx.as('admin')).get(`/portal/roles/${roleId}`)).json().privileges;
  });
  afterAll(async () => ctx?.close());

  const accounts = async (caller: ReturnType<Ctx['client']>) => (await caller.post('/portal/accounts/paged', {})).statusCode;
  const restore = () =>
    ctx.db
      .updateTable('role')
      .set({ privileges: JSON.stringify(everything) })
      .where('id', '=', roleId)
      .execute();

  it('applies a role changed through the portal to the very next call', async () => {
    const bluesky = await ctx.as('bluesky');
    expect(await accounts(bluesky)).toBe(200);
    expect(await accounts(bluesky)).toBe(200);
    const admin = await ctx.as('admin');
    const changed = await admin.put(`/portal/roles/${roleId}`, { name: 'Reseller manager', privileges: [{ privilege: 'Dashboard', subPrivileges: [] }] });
    expect(changed.statusCode).toBe(200);
    expect(await accounts(bluesky)).toBe(403);
    await restore();
    expect(await accounts(bluesky)).toBe(200);
  });

  it('applies a change made outside the portal once the database notifies it', async () => {
    const bluesky = await ctx.as('bluesky');
    expect(await accounts(bluesky)).toBe(200);
    // A statement the portal does not write itself: only the database's notification can tell the server.
    const revoke = `update role set privileges = '[]'::jsonb where id = ${Number(roleId)}`;
    if (engine === 'postgres') {
      const other = new pg.Client({ connectionString: ctx.database.url });
      await other.connect();
      await other.query(revoke);
      await other.end();
    } else {
      await sql.raw(revoke).execute(ctx.db);
    }
    await expect.poll(() => accounts(bluesky), { timeout: 3000, interval: 50 }).toBe(403);
    await restore();
  });

  it('signs out a deleted user at once', async () => {
    const bluesky = await ctx.as('bluesky');
    const created = await bluesky.post('/portal/user', {
      username: 'leaving',
      email: 'leaving@example.com',
      password: 'Leaving@2026pass',
      firstName: 'Lee',
      roleId,
    });
    expect(created.statusCode, created.body).toBe(201);
    const leaving = ctx.client(await ctx.login('leaving', 'Leaving@2026pass'));
    expect(await accounts(leaving)).toBe(200);
    expect(await accounts(leaving)).toBe(200);
    expect((await bluesky.delete(`/portal/user/${created.json().userId}`)).statusCode).toBe(204);
    expect(await accounts(leaving)).toBe(401);
  });

  describe('the keeping itself', () => {
    let statements = 0;
    let on: Notifications;
    let principals: Principals;
    beforeAll(async () => {
      const counting = ctx.db.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async (args) => {
          statements++;
          return args.result;
        },
      });
      principals = new Principals(counting);
      await principals.start({
        listen: async (_channel, handlers) => {
          on = handlers;
          handlers.live(true);
          return async () => {};
        },
        watchWrites: ctx.database.watchWrites,
      });
    });
    const reads = async (userId = 1) => {
      statements = 0;
      await principals.load(userId);
      return statements;
    };

    it('reads a user once, and again after a notification', async () => {
      expect(await reads()).toBe(1);
      expect(await reads()).toBe(0);
      on.notify();
      expect(await reads()).toBe(1);
      expect(await reads()).toBe(0);
    });

    it('forgets when this process writes a user, a role or a reseller', async () => {
      expect(await reads()).toBe(0);
      await ctx.db
        .updateTable('reseller')
        .set({ path: sql`path` })
        .where('id', '=', -1)
        .execute();
      expect(await reads()).toBe(1);
      await ctx.db
        .updateTable('account')
        .set({ name: sql`name` })
        .where('accountId', '=', 1)
        .execute();
      expect(await reads()).toBe(0);
    });

    it('does not keep a user read while a change came in', async () => {
      on.notify();
      const loading = principals.load(1);
      on.notify();
      await loading;
      expect(await reads()).toBe(1);
    });

    it('keeps nothing while notifications may be missed', async () => {
      on.live(false);
      expect(await reads()).toBe(1);
      expect(await reads()).toBe(1);
      on.live(true);
      expect(await reads()).toBe(1);
      expect(await reads()).toBe(0);
    });
  });
});
