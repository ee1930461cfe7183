import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, any>;

describe.each(engines)('subscriber groups on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let iot: Client;
  let bluesky: Client;
  const ids: Record<string, number> = {};
  /** Subscriber ids by owner: Northwind's own, its sub-reseller IoT's, Blue Sky's. */
  const subs: Record<string, number[]> = {};

  beforeAll(async () => {
    ctx = await testApp(engine);
    await ctx.app.ready();
    [admin, northwind, iot, bluesky] = await Promise.all(['admin', 'northwind', 'northwind-iot', 'bluesky'].map((u) => ctx.as(u)));
    for (const r of await ctx.db.selectFrom('reseller').select(['id', 'name']).execute()) ids[r.name] = r.id;
    for (const name of ['Northwind Mobile', 'Northwind IoT', 'Blue Sky Telecom'])
      subs[name] = (
        await ctx.db.selectFrom('subscriber').select('subscriberId').where('resellerId', '=', ids[name]).orderBy('subscriberId').limit(6).execute()
      ).map((r) => r.subscriberId);
  });
  afterAll(async () => ctx?.close());

  const create = (c: Client, body: Row) => c.post('/portal/subscriber-groups', body);
  const grid = async (c: Client, body: Row) => c.post('/portal/subscribers/paged', { page: { page: 0, size: 200 }, ...body });
  const idsOf = (res: { json: () => any }) => (res.json().items as Row[]).map((r) => r.subscriberId).sort((a, b) => a - b);
  const add = (c: Client, id: number, subscriberIds: unknown) => c.post(`/portal/subscriber-groups/${id}/members`, { subscriberIds });

  it('has subscribers of each owner to work with', () => {
    for (const name of ['Northwind Mobile', 'Northwind IoT', 'Blue Sky Telecom']) expect(subs[name].length).toBeGreaterThanOrEqual(3);
  });

  it('creates, reads, renames and deletes a group; names are unique per owner, ignoring case', async () => {
    const made = await create(northwind, { name: 'Forklifts', kind: 'static', description: 'Warehouse' });
    expect(made.statusCode, made.body).toBe(201);
    const row = made.json();
    expect(row).toMatchObject({ name: 'Forklifts', kind: 'static', resellerId: ids['Northwind Mobile'], resellerName: 'Northwind Mobile' });
    expect(row.searchBy).toBeUndefined();
    const dup = await create(northwind, { name: 'FORKLIFTS', kind: 'static' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().fields[0]).toMatchObject({ field: 'name', rule: 'unique', messageId: 'subscriberGroup.name.unique' });
    expect((await create(bluesky, { name: 'Forklifts', kind: 'static' })).statusCode).toBe(201);
    const renamed = await northwind.put('/portal/subscriber-groups', { id: row.id, name: 'Forklifts 2' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().name).toBe('Forklifts 2');
    const names = ((await northwind.get('/portal/subscriber-groups')).json() as Row[]).map((r) => r.name);
    expect(names).toContain('Forklifts 2');
    expect(names).not.toContain('Forklifts'); // Blue Sky's group is not Northwind's to see
    expect((await northwind.delete(`/portal/subscriber-groups/${row.id}`)).statusCode).toBe(204);
    expect((await northwind.get(`/portal/subscriber-groups/${row.id}`)).statusCode).toBe(404);
  });

  it("lets an account user read its reseller's groups but neither shape them nor change their members", async () => {
    const harbor = await ctx.as('harbor');
    const made = await create(northwind, { name: 'Harbor cranes', kind: 'static' });
    expect(made.statusCode, made.body).toBe(201);
    const harborReseller = (await ctx.db.selectFrom('appUser').select('resellerId').where('username', '=', 'harbor').executeTakeFirstOrThrow()).resellerId;
    if (harborReseller === ids['Northwind Mobile']) expect((await harbor.get(`/portal/subscriber-groups/${made.json().id}`)).statusCode).toBe(200);
    expect((await create(harbor, { name: 'Mine', kind: 'static' })).statusCode).toBe(403);
    const add = await harbor.post(`/portal/subscriber-groups/${made.json().id}/members`, { subscriberIds: [subs['Northwind Mobile'][0]] });
    expect([403, 404]).toContain(add.statusCode);
    expect(await ctx.db.selectFrom('subscriberGroupMember').select('subscriberId').where('groupId', '=', made.json().id).execute()).toEqual([]);
  });

  it("refuses an account user deleting its reseller's group, which stays", async () => {
    const harbor = await ctx.as('harbor');
    const made = await create(northwind, { name: 'Harbor keeps', kind: 'static' });
    expect(made.statusCode, made.body).toBe(201);
    const { id } = made.json();
    const res = await harbor.delete(`/portal/subscriber-groups/${id}`);
    expect(res.statusCode, res.body).toBe(403);
    expect(await ctx.db.selectFrom('subscriberGroup').select(['id', 'name']).where('id', '=', id).executeTakeFirst()).toEqual({ id, name: 'Harbor keeps' });
    // Its reseller's own users still may.
    expect((await northwind.delete(`/portal/subscriber-groups/${id}`)).statusCode).toBe(204);
  });

  it('adds members with an outcome per id; only subscribers the writer and the owner see join; removes them', async () => {
    const group = (await create(northwind, { name: 'Static members', kind: 'static' })).json();
    const [a, b] = subs['Northwind Mobile'];
    const [c] = subs['Northwind IoT'];
    const [foreign] = subs['Blue Sky Telecom'];
    const res = await add(northwind, group.id, [a, b, c, foreign, 2_000_000_000, a]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results).toEqual([
      { subscriberId: a, outcome: 'added' },
      { subscriberId: b, outcome: 'added' },
      { subscriberId: c, outcome: 'added' },
      { subscriberId: foreign, outcome: 'notVisible' },
      { subscriberId: 2_000_000_000, outcome: 'notVisible' },
    ]);
    expect((await add(northwind, group.id, [a])).json().results).toEqual([{ subscriberId: a, outcome: 'already' }]);
    const rows = await ctx.db.selectFrom('subscriberGroupMember').select('subscriberId').where('groupId', '=', group.id).execute();
    expect(rows.map((r) => r.subscriberId).sort((x, y) => x - y)).toEqual([a, b, c].sort((x, y) => x - y));

    // The admin sees Blue Sky's subscriber, but a Northwind group never holds what Northwind cannot see.
    expect((await add(admin, group.id, [foreign])).json().results).toEqual([{ subscriberId: foreign, outcome: 'notVisible' }]);

    // The members page and the grid filter answer the same members.
    const members = await northwind.post(`/portal/subscriber-groups/${group.id}/members/paged`, { page: { page: 0, size: 50 } });
    expect(members.statusCode, members.body).toBe(200);
    expect(members.json().totalItemsCount).toBe(3);
    expect(idsOf(await grid(northwind, { searchBy: 'groupId', searchKey: String(group.id) }))).toEqual([a, b, c].sort((x, y) => x - y));
    // A sub-reseller filtering by its parent's group: refused, the group is not one it sees.
    const fromIot = await grid(iot, { searchBy: 'groupId', searchKey: String(group.id) });
    expect(fromIot.statusCode).toBe(400);
    expect(fromIot.json().fields[0]).toMatchObject({ field: 'searchKey', rule: 'reference', messageId: 'subscriberGroup.unknown' });

    const removed = await northwind.post(`/portal/subscriber-groups/${group.id}/members/remove`, { subscriberIds: [b, foreign, b] });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().results).toEqual([
      { subscriberId: b, outcome: 'removed' },
      { subscriberId: foreign, outcome: 'notVisible' },
    ]);
    expect((await northwind.post(`/portal/subscriber-groups/${group.id}/members/remove`, { subscriberIds: [b] })).json().results[0].outcome).toBe('absent');
    expect(idsOf(await grid(northwind, { searchBy: 'groupId', searchKey: String(group.id) }))).toEqual([a, c].sort((x, y) => x - y));
    // Deleting the group deletes its membership rows, never the subscribers.
    expect((await northwind.delete(`/portal/subscriber-groups/${group.id}`)).statusCode).toBe(204);
    expect(await ctx.db.selectFrom('subscriberGroupMember').select('subscriberId').where('groupId', '=', group.id).execute()).toEqual([]);
    expect(await ctx.db.selectFrom('subscriber').select('subscriberId').where('subscriberId', '=', a).executeTakeFirst()).toBeTruthy();
  });

  it('keeps a sub-reseller out of its parent’s group: it neither sees nor fills it', async () => {
    const group = (await create(northwind, { name: 'Parent only', kind: 'static' })).json();
    expect((await iot.get(`/portal/subscriber-groups/${group.id}`)).statusCode).toBe(404);
    expect(((await iot.get('/portal/subscriber-groups')).json() as Row[]).map((r) => r.id)).not.toContain(group.id);
    expect((await add(iot, group.id, [subs['Northwind IoT'][0]])).statusCode).toBe(404);
    expect((await iot.post(`/portal/subscriber-groups/${group.id}/members/paged`, {})).statusCode).toBe(404);
    expect((await iot.put('/portal/subscriber-groups', { id: group.id, name: 'Taken over' })).statusCode).toBe(404);
    // Nor may it create a group for its parent.
    const forParent = await create(iot, { name: 'For the parent', kind: 'static', resellerId: ids['Northwind Mobile'] });
    expect(forParent.statusCode).toBe(400);
    expect(forParent.json().fields[0]).toMatchObject({ field: 'resellerId', rule: 'reference' });
    // The parent sees and fills its sub-reseller's groups.
    const child = (await create(iot, { name: 'IoT meters', kind: 'static' })).json();
    expect((await northwind.get(`/portal/subscriber-groups/${child.id}`)).statusCode).toBe(200);
    expect((await add(northwind, child.id, [subs['Northwind IoT'][1], subs['Northwind Mobile'][0]])).json().results).toEqual([
      { subscriberId: subs['Northwind IoT'][1], outcome: 'added' },
      // Northwind's own subscriber is outside the IoT group owner's subtree.
      { subscriberId: subs['Northwind Mobile'][0], outcome: 'notVisible' },
    ]);
  });

  it('answers, for a saved search, what the same search answers, in the grid and as its members', async () => {
    const [someone] = subs['Northwind IoT'];
    const { imsi } = await ctx.db.selectFrom('subscriber').select('imsi').where('subscriberId', '=', someone).executeTakeFirstOrThrow();
    const prefix = String(imsi).slice(0, 8);
    const made = await create(northwind, { name: 'By IMSI prefix', kind: 'search', searchBy: 'imsi', searchKey: prefix });
    expect(made.statusCode, made.body).toBe(201);
    const group = made.json();
    expect(group).toMatchObject({ kind: 'search', searchBy: 'imsi', searchKey: prefix });
    const direct = await grid(northwind, { searchBy: 'imsi', searchKey: prefix });
    expect(direct.json().totalItemsCount).toBeGreaterThan(0);
    const viaGroup = await grid(northwind, { searchBy: 'groupId', searchKey: String(group.id) });
    expect(viaGroup.statusCode, viaGroup.body).toBe(200);
    expect(idsOf(viaGroup)).toEqual(idsOf(direct));
    expect(viaGroup.json().totalItemsCount).toBe(direct.json().totalItemsCount);
    const members = await northwind.post(`/portal/subscriber-groups/${group.id}/members/paged`, { page: { page: 0, size: 200 } });
    expect(idsOf(members)).toEqual(idsOf(direct));
    // The stored search runs with the reader's tenancy: IoT reading its parent's group is refused; a group of its
    // own with the same search answers only its own subscribers.
    const own = (await create(iot, { name: 'Same search', kind: 'search', searchBy: 'imsi', searchKey: prefix })).json();
    const iotDirect = await grid(iot, { searchBy: 'imsi', searchKey: prefix });
    expect(idsOf(await grid(iot, { searchBy: 'groupId', searchKey: String(own.id) }))).toEqual(idsOf(iotDirect));
    // A saved search has no member list to change.
    const refused = await add(northwind, group.id, [someone]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().fields[0]).toMatchObject({ field: 'kind', messageId: 'subscriberGroup.members.searchKind' });
    // Turned into a saved search, a static group drops its list.
    const fixed = (await create(northwind, { name: 'Becomes a search', kind: 'static' })).json();
    await add(northwind, fixed.id, [subs['Northwind Mobile'][0]]);
    const changed = await northwind.put('/portal/subscriber-groups', { id: fixed.id, kind: 'search', searchBy: 'name', searchKey: 'x' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await ctx.db.selectFrom('subscriberGroupMember').select('subscriberId').where('groupId', '=', fixed.id).execute()).toEqual([]);
  });

  it('refuses bad input with the field, the rule and a message, writing nothing', async () => {
    const count = async () =>
      Number(
        (
          await ctx.db
            .selectFrom('subscriberGroup')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    for (const [body, field, rule] of [
      [{ name: 'x', kind: 'static' }, 'name', 'minLength'],
      [{ name: 'No kind' }, 'kind', 'required'],
      [{ name: 'Odd kind', kind: 'dynamic' }, 'kind', 'enum'],
      [{ name: 'No key', kind: 'search', searchBy: 'imsi' }, 'searchKey', 'required'],
      [{ name: 'Blank key', kind: 'search', searchBy: 'imsi', searchKey: '   ' }, 'searchKey', 'required'],
      [{ name: 'Bad filter', kind: 'search', searchBy: 'password', searchKey: '1' }, 'searchBy', 'enum'],
      [{ name: 'Self', kind: 'search', searchBy: 'groupId', searchKey: '1' }, 'searchBy', 'enum'],
      [{ name: 'Admin filter', kind: 'search', searchBy: 'resellerId', searchKey: '1' }, 'searchBy', 'enum'],
      [{ name: 'Too long', kind: 'search', searchBy: 'imsi', searchKey: 'x'.repeat(201) }, 'searchKey', 'maxLength'],
    ] as const) {
      const res = await create(northwind, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields[0], JSON.stringify(body)).toMatchObject({ field, rule });
      expect(res.json().fields[0].messageId).toMatch(/^[a-z]/);
    }
    expect(await count()).toBe(before);

    const group = (await create(northwind, { name: 'Bad members', kind: 'static' })).json();
    for (const subscriberIds of [[], 'x', ['1'], [0], [2_147_483_648], Array.from({ length: 1001 }, (_, i) => i + 1)]) {
      const res = await add(northwind, group.id, subscriberIds);
      expect(res.statusCode, JSON.stringify(subscriberIds).slice(0, 40)).toBe(400);
      expect(res.json().fields[0].field).toMatch(/^subscriberIds/);
    }
    expect((await northwind.post(`/portal/subscriber-groups/${group.id}/members`, { subscriberIds: [1], extra: 1 })).statusCode).toBe(400);
    expect((await northwind.post('/portal/subscriber-groups/abc/members', { subscriberIds: [1] })).statusCode).toBe(400);
    expect((await add(northwind, 2_000_000_000, [1])).statusCode).toBe(404);
    // Text that is no id matches nothing; an id of no group the caller sees is refused.
    const text = await grid(northwind, { searchBy: 'groupId', searchKey: 'abc' });
    expect(text.statusCode).toBe(200);
    expect(text.json().totalItemsCount).toBe(0);
    for (const searchKey of ['99999999999', String(2_000_000_000)]) {
      const res = await grid(northwind, { searchBy: 'groupId', searchKey });
      expect(res.statusCode, searchKey).toBe(400);
      expect(res.json().fields[0]).toMatchObject({ field: 'searchKey', messageId: 'subscriberGroup.unknown' });
    }
    expect(await ctx.db.selectFrom('subscriberGroupMember').select('subscriberId').where('groupId', '=', group.id).execute()).toEqual([]);
  });
});
