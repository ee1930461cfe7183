import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceOrder } from '@shared/orders';
import { KEY_CHUNK_BYTES, loadKeysKey, storeKeyFile } from '@server/domains/orders/keys';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, any>;

const O = '/portal/sim-orders';

describe('the price table', () => {
  it('prices unit, slots, artwork, the fee below MOQ, volume discounts and currencies', () => {
    const base = { simSize: 'triple' as const, slots: 1, artwork: false, currency: 'USD' as const };
    const below = priceOrder({ ...base, amount: 100 });
    expect(below).toMatchObject({ unitPrice: 1.8, totalUnitPrice: 180, feeBelowMoq: 150, moq: 500, additionalSlotCharge: 0, total: 330 });
    const atMoq = priceOrder({ ...base, amount: 500 });
    expect(atMoq.feeBelowMoq).toBe(0);
    expect(atMoq.total).toBe(900);
    const slots = priceOrder({ ...base, amount: 1000, slots: 3 });
    expect(slots.additionalSlotCharge).toBe(800); // 2 extra slots × 0.40 × 1000
    expect(slots.total).toBe(2600);
    const artwork = priceOrder({ ...base, amount: 1000, artwork: true });
    expect(artwork.artworkCharge).toBe(250);
    expect(priceOrder({ ...base, simSize: 'esim', amount: 1000, artwork: true }).artworkCharge).toBe(0);
    const volume = priceOrder({ ...base, amount: 5000 });
    expect(volume.discount).toEqual({ description: 'volume 5000+', rate: 5, value: 450 });
    expect(volume.total).toBe(8550);
    expect(priceOrder({ ...base, amount: 20000 }).discount.rate).toBe(10);
    const eur = priceOrder({ ...base, amount: 100, currency: 'EUR' });
    expect(eur).toMatchObject({ currency: 'EUR', unitPrice: 1.65, feeBelowMoq: 140, total: 305 });
    const given = priceOrder({ ...base, amount: 1000, discount: { description: 'launch', value: 30 } });
    expect(given.discount).toEqual({ description: 'launch', rate: 1.6667, value: 30 });
    expect(given.total).toBe(1770);
    expect(priceOrder({ ...base, amount: 1000, discount: { rate: 100 } }).total).toBe(0);
  });
});

describe.each(engines)('SIM orders on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let iot: Client;
  let bluesky: Client;
  let harbor: Client;
  let ids: Record<string, number>;

  const fields = (res: { json: () => Row }) => (res.json().fields ?? []).map((f: Row) => `${f.field}:${f.messageId}`);
  const count = async (table: string) => Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(ctx.db)).rows[0].n);
  const holdState = async (uuid: string) =>
    (
      await sql<{
        state: string;
        amount: string;
      }>`select h.state, h.amount::text from sim_order o join credit_hold h on h.id = o.hold_id where o.uuid = ${uuid}`.execute(ctx.db)
    ).rows[0];
  const held = async (resellerId: number) =>
    Number(
      (
        await sql<{ n: string }>`select coalesce(sum(amount), 0)::text as n from credit_hold where reseller_id = ${resellerId} and state = 'held'`.execute(
          ctx.db,
        )
      ).rows[0].n,
    );
  const order = (more: Row = {}) => ({
    simType: 'physical',
    simSize: 'triple',
    amount: 1000,
    sponsorIds: [ids.nl],
    providerId: ids.orbit,
    providerProfileId: ids.nlSingle,
    deliveryEmail: 'ops@northwind.example',
    ...more,
  });
  const submit = async (client: Client, more: Row = {}) => {
    const res = await client.post(`${O}/submit`, order(more));
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Row;
  };
  const ok = async (p: Promise<{ statusCode: number; body: string; json: () => Row }>) => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** An order carried to `placed` (resources allocated, vendor batch made). */
  const placed = async (more: Row = {}) => {
    const o = await submit(northwind, more);
    await ok(admin.post(`${O}/${o.uuid}/financial-approval/true`, {}));
    await ok(admin.post(`${O}/${o.uuid}/admin/technical-approval/true`, {}));
    await ok(admin.post(`${O}/${o.uuid}/admin/resources`, { slots: [{ slot: 1, sponsorId: ids.nl }] }));
    return ok(admin.get(`${O}/${o.uuid}/admin/order`));
  };

  beforeAll(async () => {
    ctx = await testApp(engine, process.env.ORDER_LOG ? { logger: { level: 'error' } } : {});
    admin = await ctx.as('admin');
    northwind = await ctx.as('northwind');
    iot = await ctx.as('northwind-iot');
    bluesky = await ctx.as('bluesky');
    harbor = await ctx.as('harbor');
    const reseller = async (name: string) => (await ctx.db.selectFrom('reseller').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    const sponsor = async (name: string) => (await ctx.db.selectFrom('sponsor').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    const profile = async (name: string) => (await ctx.db.selectFrom('providerProfile').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    ids = {
      northwind: await reseller('Northwind Mobile'),
      iot: await reseller('Northwind IoT'),
      bluesky: await reseller('Blue Sky Telecom'),
      nl: await sponsor('Orbit Home NL'),
      uk: await sponsor('Orbit Home UK'),
      us: await sponsor('Orbit Home US'),
      orbit: (await ctx.db.selectFrom('simProvider').select('id').where('name', '=', 'Orbit Cards').executeTakeFirstOrThrow()).id,
      nlSingle: await profile('NL single IMSI'),
      pendingProfile: await profile('Northwind UK fleet'),
    };
    for (const id of [ids.northwind, ids.iot, ids.bluesky]) await ok(admin.post(`/portal/reseller-info/credit-limits/${id}`, { creditLimit: 50_000 }));
  });
  afterAll(async () => ctx?.close());

  it('lists providers, filters profiles and shows a pending request only to its reseller and the administrator', async () => {
    const providers = await ok(northwind.get('/portal/sim-providers'));
    expect(providers.map((p: Row) => p.name)).toEqual(['Helix eSIM', 'Orbit Cards']);
    const esim = await ok(northwind.get('/portal/sim-providers/profiles?sim_type=esim'));
    expect(esim.map((p: Row) => p.name)).toEqual(['US eSIM']);
    expect((await ok(northwind.get(`/portal/sim-providers/profiles?slot_count=2&sponsor_id=${ids.nl}`))).map((p: Row) => p.name)).toEqual([
      'NL + UK dual IMSI',
    ]);
    expect((await ok(northwind.get('/portal/sim-providers/profiles?imsi_prefix=31026'))).map((p: Row) => p.name)).toEqual(['US eSIM']);
    expect((await northwind.get(`/portal/sim-providers/profiles/${ids.pendingProfile}`)).statusCode).toBe(200);
    expect((await bluesky.get(`/portal/sim-providers/profiles/${ids.pendingProfile}`)).statusCode).toBe(404);
    expect((await ok(bluesky.get('/portal/sim-providers/profiles'))).some((p: Row) => p.id === ids.pendingProfile)).toBe(false);
    expect(fields(await northwind.get('/portal/sim-providers/profiles?slot_count=9'))).toEqual(['slot_count:order.slots.invalid']);
  });

  it('pages, sorts and filters the provider profiles and the profile requests on the server', async () => {
    const P = '/portal/sim-providers/profiles/paged';
    const names = (page: Row) => page.items.map((p: Row) => p.name);
    const first = await ok(northwind.get(`${P}?size=2&sortBy=name`));
    expect(first).toMatchObject({ currentPage: 0, totalItemsCount: 3, totalPageCount: 2 });
    expect(names(first)).toEqual(['NL + UK dual IMSI', 'NL single IMSI']);
    expect(names(await ok(northwind.get(`${P}?size=2&page=1&sortBy=name`)))).toEqual(['US eSIM']);
    expect(names(await ok(northwind.get(`${P}?sortBy=slotCount&sortDir=desc`)))[0]).toBe('NL + UK dual IMSI');
    // The filters of the specification, each narrowing the page and its count.
    expect(names(await ok(northwind.get(`${P}?sim_type=esim`)))).toEqual(['US eSIM']);
    expect(names(await ok(northwind.get(`${P}?slot_count=2&sponsor_id=${ids.nl}`)))).toEqual(['NL + UK dual IMSI']);
    expect(await ok(northwind.get(`${P}?imsi_prefix=31026`))).toMatchObject({ totalItemsCount: 1 });
    expect(names(await ok(northwind.get(`${P}?searchKey=helix`)))).toEqual(['US eSIM']);
    // Requests: pending or denied, of the resellers the caller sees; reseller_id gives one reseller's.
    const requests = await ok(northwind.get(`${P}?list=requests`));
    expect(names(requests)).toContain('Northwind UK fleet');
    expect(requests.items.every((p: Row) => p.status !== 'approved')).toBe(true);
    expect(names(await ok(bluesky.get(`${P}?list=requests`)))).not.toContain('Northwind UK fleet');
    expect((await ok(admin.get(`${P}?list=requests&reseller_id=${ids.northwind}`))).items.every((p: Row) => p.resellerId === ids.northwind)).toBe(true);
    expect((await bluesky.get(`${P}?list=requests&reseller_id=${ids.northwind}`)).statusCode).toBe(404);
    expect(fields(await northwind.get(`${P}?sortBy=secret`))).toEqual(['sortBy:validation.sortBy.invalid']);
    expect(fields(await northwind.get(`${P}?size=0`))).toEqual(['size:validation.pageSize.invalid']);
    expect(fields(await northwind.get(`${P}?list=all`))).toEqual(['list:validation.invalid']);
  });

  it("keeps the administrator's resource ranges: paged, added, changed and retired by the rules of a range", async () => {
    const R = `${O}/admin/resource-ranges`;
    const seeded = (await ok(admin.get(R))).find((r: Row) => r.kind === 'imsi' && r.sponsorId === ids.us);
    // IMSIs of the sponsor past its seeded range.
    const imsi = (n: number) => String(BigInt(seeded.last) + 1_000_000n + BigInt(n - 5_000_000));
    for (const res of [await northwind.post(`${R}/paged`, {}), await northwind.put(`${R}/1`, { first: '1', last: '2' }), await northwind.post(`${R}/1/retire`)])
      expect(res.statusCode).toBe(403);
    // The rules, each naming its field.
    expect(fields(await admin.post(R, { kind: 'imsi', sponsorId: ids.us, first: '12345', last: '12346' }))).toEqual([
      'first:validation.imsi.invalid',
      'last:validation.imsi.invalid',
    ]);
    expect(fields(await admin.post(R, { kind: 'imsi', sponsorId: ids.us, first: '999990000000001', last: '999990000000009' }))).toEqual([
      'first:order.range.prefix',
    ]);
    expect(fields(await admin.post(R, { kind: 'imsi', first: imsi(9_000_000), last: imsi(9_000_009) }))).toEqual(['sponsorId:order.sponsor.unknown']);
    expect(fields(await admin.post(R, { kind: 'msisdn', sponsorId: ids.us, first: '15550100000', last: '1555010999' }))).toEqual(['last:order.range.msisdn']);
    expect(fields(await admin.post(R, { kind: 'iccid', first: '893112345800000010', last: '893112345800000000' }))).toEqual(['last:order.range.invalid']);
    expect(fields(await admin.post(R, { kind: 'iccid', first: '89311234580000000a', last: '893112345800000000' }))).toEqual(['first:order.range.digits']);
    // Overlapping the seeded range of the sponsor: 409.
    const overlap = await admin.post(R, { kind: 'imsi', sponsorId: ids.us, first: seeded.last, last: String(BigInt(seeded.last) + 10n) });
    expect(overlap.statusCode).toBe(409);
    expect(fields(overlap)).toEqual(['first:order.range.overlap']);

    const added = await admin.post(R, { kind: 'imsi', sponsorId: ids.us, first: imsi(5_000_000), last: imsi(5_000_999) });
    expect(added.statusCode, added.body).toBe(201);
    const range = added.json();
    expect(range).toMatchObject({ kind: 'imsi', sponsorName: 'Orbit Home US', free: 1000, total: 1000, retired: false, next: imsi(5_000_000) });
    // The page: filtered by kind and sponsor, searched by a number the range holds, sorted.
    const page = await ok(admin.post(`${R}/paged`, { kind: 'imsi', sponsorId: ids.us, sortBy: 'first', sortDir: 'desc', page: { page: 0, size: 1 } }));
    expect(page).toMatchObject({ totalItemsCount: 2, totalPageCount: 2 });
    expect(page.items[0].id).toBe(range.id);
    expect((await ok(admin.post(`${R}/paged`, { searchBy: 'number', searchKey: imsi(5_000_500) }))).items.map((r: Row) => r.id)).toEqual([range.id]);
    expect(fields(await admin.post(`${R}/paged`, { searchBy: 'number', searchKey: 'abc' }))).toEqual(['searchKey:order.range.digits']);
    expect(fields(await admin.post(`${R}/paged`, { sortBy: 'secret' }))).toEqual(['sortBy:validation.sortBy.invalid']);

    // Changed while nothing is taken: both ends move. Once numbers are taken, the first stays and the last keeps them.
    const moved = await ok(admin.put(`${R}/${range.id}`, { first: imsi(5_000_100), last: imsi(5_001_099) }));
    expect(moved).toMatchObject({ first: imsi(5_000_100), next: imsi(5_000_100), free: 1000 });
    await sql`update sim_resource_range set next_value = next_value + 10 where id = ${range.id}`.execute(ctx.db);
    const firstTaken = await admin.put(`${R}/${range.id}`, { first: imsi(5_000_000), last: imsi(5_001_099) });
    expect([firstTaken.statusCode, ...fields(firstTaken)]).toEqual([409, 'first:order.range.firstTaken']);
    const belowTaken = await admin.put(`${R}/${range.id}`, { first: imsi(5_000_100), last: imsi(5_000_105) });
    expect([belowTaken.statusCode, ...fields(belowTaken)]).toEqual([409, 'last:order.range.belowTaken']);
    expect(await ok(admin.put(`${R}/${range.id}`, { first: imsi(5_000_100), last: imsi(5_000_109) }))).toMatchObject({ free: 0, total: 10 });
    expect((await admin.put(`${R}/999999`, { first: imsi(5_000_000), last: imsi(5_000_001) })).statusCode).toBe(404);

    // Retired: listed among the retired only, never changed again nor allocated from.
    const retired = await ok(admin.post(`${R}/${range.id}/retire`));
    expect(retired).toMatchObject({ retired: true });
    expect(retired.retiredAt).toBeTruthy();
    expect(fields(await admin.post(`${R}/${range.id}/retire`))).toEqual(['retired:order.range.retired']);
    expect(fields(await admin.put(`${R}/${range.id}`, { first: imsi(5_000_100), last: imsi(5_000_200) }))).toEqual(['retired:order.range.retired']);
    expect((await ok(admin.post(`${R}/paged`, { kind: 'imsi', sponsorId: ids.us }))).items.map((r: Row) => r.id)).not.toContain(range.id);
    expect((await ok(admin.post(`${R}/paged`, { status: 'retired' }))).items.map((r: Row) => r.id)).toEqual([range.id]);
    await ok(admin.post(`${R}/${seeded.id}/retire`));
    const o = await submit(northwind, { sponsorIds: [ids.us], providerProfileId: undefined, serviceProviderName: 'US', amount: 100 });
    await ok(admin.post(`${O}/${o.uuid}/financial-approval/true`, {}));
    await ok(admin.post(`${O}/${o.uuid}/admin/technical-approval/true`, {}));
    expect((await ok(admin.get(`${O}/${o.uuid}/admin/available-resources`))).imsi).toEqual([]);
    expect(fields(await admin.post(`${O}/${o.uuid}/admin/resources`, { slots: [{ slot: 1, sponsorId: ids.us }] }))).toEqual([
      'slots[0].sponsorId:order.resources.none',
    ]);
    await sql`update sim_resource_range set retired_at = null where id = ${seeded.id}`.execute(ctx.db);
  });

  it('takes a profile request, which the administrator approves or denies with a reason', async () => {
    const body = { providerId: ids.orbit, name: 'Blue Sky US fleet', sponsorId: ids.us, simType: 'physical', imsiPrefix: '31026099' };
    const res = await bluesky.post('/portal/sim-providers/profiles/request', body);
    expect(res.statusCode, res.body).toBe(201);
    const requested = res.json();
    expect(requested).toMatchObject({ status: 'pending', resellerId: ids.bluesky });
    expect((await bluesky.post(`/portal/sim-providers/profiles/${requested.id}/review`, { approved: true })).statusCode).toBe(403);
    expect(fields(await admin.post(`/portal/sim-providers/profiles/${requested.id}/review`, { approved: false }))).toEqual(['reason:order.reason.required']);
    const denied = await ok(admin.post(`/portal/sim-providers/profiles/${requested.id}/review`, { approved: false, reason: 'Use the catalogue profile' }));
    expect(denied).toMatchObject({ status: 'denied', reviewReason: 'Use the catalogue profile' });
    expect((await admin.post(`/portal/sim-providers/profiles/${requested.id}/review`, { approved: true })).statusCode).toBe(409);
    expect(fields(await bluesky.post('/portal/sim-providers/profiles/request', { ...body, sponsorId: 999999 }))).toEqual(['sponsorId:order.sponsor.unknown']);
    expect(fields(await bluesky.post('/portal/sim-providers/profiles/request', { ...body, resellerId: ids.northwind }))).toEqual([]);
    expect((await bluesky.post('/portal/sim-providers/profiles/request', { ...body, resellerId: ids.northwind })).statusCode).toBe(404);
  });

  it("refuses an account user's profile request, even with SimOrders, and writes nothing", async () => {
    const body = { providerId: ids.orbit, name: 'Harbor cranes fleet', sponsorId: ids.nl, simType: 'physical', imsiPrefix: '20408099' };
    const profiles = await count('provider_profile');
    await ctx.withPrivileges('harbor', ['SimOrders'], async (withOrders) => {
      const res = await withOrders.post('/portal/sim-providers/profiles/request', body);
      expect(res.statusCode, res.body).toBe(403);
    });
    expect(await count('provider_profile')).toBe(profiles);
    expect(await ctx.db.selectFrom('providerProfile').select('id').where('name', '=', body.name).execute()).toEqual([]);
    // Its reseller's own users may ask for it.
    expect((await northwind.post('/portal/sim-providers/profiles/request', body)).statusCode).toBe(201);
  });

  it('answers the catalogue calls and prices through /price', async () => {
    expect(await ok(northwind.get(`${O}/types`))).toEqual([
      { simType: 'physical', sizes: ['triple', 'mff2'] },
      { simType: 'esim', sizes: ['esim'] },
    ]);
    expect(await ok(northwind.get(`${O}/info/triple`))).toMatchObject({ moq: 500, unitPrices: { USD: 1.8, EUR: 1.65 }, artwork: { minDpi: 600 } });
    expect((await northwind.get(`${O}/info/huge`)).statusCode).toBe(400);
    expect((await ok(northwind.get(`${O}/ef-config`))).length).toBeGreaterThan(1);
    const price = await ok(northwind.post(`${O}/price`, { simType: 'physical', simSize: 'triple', amount: 200, slots: 2, artwork: true, currency: 'EUR' }));
    expect(price).toMatchObject({ currency: 'EUR', totalUnitPrice: 330, additionalSlotCharge: 74, artworkCharge: 230, feeBelowMoq: 140, total: 774 });
    expect(fields(await northwind.post(`${O}/price`, { simSize: 'triple', amount: 1 }))).toEqual(['simType:order.simType.required']);
    expect(fields(await northwind.post(`${O}/price`, { simType: 'esim', simSize: 'triple', amount: 1 }))).toEqual(['simSize:order.simSize.invalid']);
    expect(fields(await northwind.post(`${O}/price`, { simType: 'esim', simSize: 'esim', amount: 0 }))).toEqual(['amount:order.amount.invalid']);
  });

  it('submits an order, holding its total against the available credit, with its timeline', async () => {
    const before = await held(ids.northwind);
    const balanceBefore = (await northwind.get('/portal/ledger/balance')).json();
    const o = await submit(northwind, { batchName: 'Fleet 1' });
    expect(o).toMatchObject({
      orderStatus: 'submitted',
      batchName: 'Fleet 1',
      totalCost: 1800,
      amount: 1000,
      simProvider: 'Orbit Cards',
      profile: 'NL single IMSI',
    });
    expect(o.reservation).toEqual({ amount: 1800, currency: 'USD', state: 'held' });
    expect(o.timeline.map((e: Row) => `${e.action}:${e.fromStatus}>${e.toStatus}:${e.username}`)).toEqual([
      'create:null>draft:northwind',
      'submit:draft>submitted:northwind',
    ]);
    expect(await held(ids.northwind)).toBe(before + 1800);
    // The balance shows what is held, and the credit still available net of it.
    const balanceAfter = (await northwind.get('/portal/ledger/balance')).json();
    expect(balanceAfter.held).toBe(balanceBefore.held + 1800);
    expect(balanceAfter.availableCredit).toBeCloseTo(balanceBefore.availableCredit - 1800, 2);
    // EUR totals are held in dollars at the stored rate.
    const eur = await submit(northwind, { currency: 'EUR', amount: 100 });
    expect(eur.totalCost).toBe(305);
    expect(eur.reservation.amount).toBeCloseTo(305 / 0.9334, 2);
  });

  it('refuses an order the available credit cannot cover, naming the total, and writes nothing', async () => {
    const orders = await count('sim_order');
    const res = await bluesky.post(`${O}/submit`, order({ amount: 100_000, providerProfileId: undefined, serviceProviderName: 'Blue Sky' }));
    expect(res.statusCode).toBe(409);
    expect(fields(res)).toEqual(['total:ledger.insufficientCredit']);
    expect(await count('sim_order')).toBe(orders);
    // A hold counts against later purchases too: the ledger refuses what the held credit no longer covers.
    expect(await held(ids.bluesky)).toBe(0);
  });

  it('names the field of each refused submission', async () => {
    const cases: [Row, string][] = [
      [{ simType: undefined }, 'simType:order.simType.required'],
      [{ simSize: 'esim' }, 'simSize:order.simSize.invalid'],
      [{ amount: 100_001 }, 'amount:order.amount.invalid'],
      [{ sponsorIds: [] }, 'sponsorIds:order.sponsors.invalid'],
      [{ sponsorIds: [999999] }, 'sponsorIds[0]:order.sponsor.unknown'],
      [{ providerId: 999999 }, 'providerId:order.provider.unknown'],
      [{ providerProfileId: undefined }, 'providerProfileId:order.profileOrName.required'],
      [{ providerProfileId: ids.pendingProfile, sponsorIds: [ids.uk] }, 'providerProfileId:order.profile.notApproved'],
      [{ sponsorIds: [ids.nl, ids.uk] }, 'providerProfileId:order.profile.slots'],
      [{ deliveryEmail: undefined }, 'deliveryEmail:order.delivery.required'],
      [{ deliveryEmail: 'not-an-email' }, 'deliveryEmail:validation.email.invalid'],
      [{ customImsiFrom: '204041200000000' }, 'customImsiTo:order.imsiRange.both'],
      [{ customImsiFrom: '204041200000000', customImsiTo: '204041200000010' }, 'customImsiTo:order.imsiRange.tooSmall'],
      [{ efConfig: 'nope' }, 'efConfig:order.efConfig.invalid'],
      [{ resellerId: ids.bluesky }, 'resellerId:order.reseller.unknown'],
      [{ unknown: 1 }, 'unknown:validation.unknownField'],
    ];
    const orders = await count('sim_order');
    for (const [more, expected] of cases) {
      const res = await northwind.post(`${O}/submit`, order(more));
      expect(res.statusCode, JSON.stringify(more)).toBe(400);
      expect(fields(res), JSON.stringify(more)).toEqual([expected]);
    }
    // Only approved roaming profiles: Global dual IMSI is pending.
    const pending = (await ctx.db.selectFrom('roamingProfile').select('id').where('name', '=', 'Global dual IMSI').executeTakeFirstOrThrow()).id;
    expect(fields(await northwind.post(`${O}/submit`, order({ roamingProfileId: pending })))).toEqual(['roamingProfileId:order.roamingProfile.notApproved']);
    const americas = (await ctx.db.selectFrom('roamingProfile').select('id').where('name', '=', 'Americas').executeTakeFirstOrThrow()).id;
    expect(fields(await northwind.post(`${O}/submit`, order({ roamingProfileId: americas })))).toEqual(['roamingProfileId:order.roamingProfile.unknown']);
    // Another reseller's address is no delivery address.
    const type = await ctx.db.selectFrom('addressType').select('id').executeTakeFirstOrThrow();
    const address = await ctx.db
      .insertInto('resellerAddress')
      .values({ resellerId: ids.bluesky, typeId: type.id, country: 'US', city: 'Austin', street: 'Main' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(fields(await northwind.post(`${O}/submit`, order({ deliveryEmail: undefined, deliveryAddressId: address.id })))).toEqual([
      'deliveryAddressId:order.address.unknown',
    ]);
    expect((await harbor.post(`${O}/submit`, order())).statusCode).toBe(403);
    expect(await count('sim_order')).toBe(orders);
  });

  it('answers 409 naming the current state for every illegal transition', async () => {
    const o = await submit(northwind);
    const illegal = async (res: { statusCode: number; json: () => Row }, status: string) => {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'ILLEGAL_TRANSITION', currentStatus: status });
      expect(res.json().message).toContain(status);
    };
    await illegal(await admin.post(`${O}/${o.uuid}/admin/technical-approval/true`, {}), 'submitted');
    await illegal(await admin.post(`${O}/${o.uuid}/admin/resources`, { slots: [{ slot: 1, sponsorId: ids.nl }] }), 'submitted');
    await illegal(await admin.get(`${O}/${o.uuid}/admin/order`), 'submitted');
    await illegal(await admin.post(`${O}/${o.uuid}/deliver`), 'submitted');
    await ok(admin.post(`${O}/${o.uuid}/financial-approval/true`, {}));
    await illegal(await admin.post(`${O}/${o.uuid}/financial-approval/true`, {}), 'financially_approved');
    await illegal(await admin.post(`${O}/${o.uuid}/financial-approval/false`, { reason: 'late' }), 'financially_approved');
    await illegal(await admin.post(`${O}/${o.uuid}/admin/resources`, { slots: [{ slot: 1, sponsorId: ids.nl }] }), 'financially_approved');
    await ok(admin.post(`${O}/${o.uuid}/admin/technical-approval/true`, {}));
    await illegal(await admin.post(`${O}/${o.uuid}/admin/technical-approval/false`, { reason: 'x' }), 'technically_approved');
    await illegal(await admin.get(`${O}/${o.uuid}/admin/order`), 'technically_approved');
    await ok(admin.post(`${O}/${o.uuid}/admin/resources`, { slots: [{ slot: 1, sponsorId: ids.nl }] }));
    await illegal(await admin.post(`${O}/${o.uuid}/admin/resources`, { slots: [{ slot: 1, sponsorId: ids.nl }] }), 'resources_allocated');
    await illegal(await admin.post(`${O}/${o.uuid}/deliver`), 'resources_allocated');
    await ok(admin.get(`${O}/${o.uuid}/admin/order`));
    await illegal(await northwind.post(`${O}/${o.uuid}/cancel`, { reason: 'too late' }), 'placed');
    await illegal(await admin.post(`${O}/${o.uuid}/admin/discounts`, { rate: 5 }), 'placed');
    await ok(admin.post(`${O}/${o.uuid}/deliver`));
    await illegal(await admin.post(`${O}/${o.uuid}/deliver`), 'delivered');
    await illegal(await admin.get(`${O}/${o.uuid}/admin/order`), 'delivered');
    // Denied and cancelled orders are final.
    const denied = await submit(northwind);
    await ok(admin.post(`${O}/${denied.uuid}/financial-approval/false`, { reason: 'Budget' }));
    await illegal(await admin.post(`${O}/${denied.uuid}/financial-approval/true`, {}), 'financially_denied');
    await illegal(await northwind.post(`${O}/${denied.uuid}/cancel`, { reason: 'x' }), 'financially_denied');
    const cancelled = await submit(northwind);
    await ok(northwind.post(`${O}/${cancelled.uuid}/cancel`, { reason: 'Changed plans' }));
    await illegal(await admin.post(`${O}/${cancelled.uuid}/financial-approval/true`, {}), 'cancelled');
    const techDenied = await submit(northwind);
    await ok(admin.post(`${O}/${techDenied.uuid}/financial-approval/true`, {}));
    await ok(admin.post(`${O}/${techDenied.uuid}/admin/technical-approval/false`, { reason: 'Sponsor capacity' }));
    await illegal(await admin.post(`${O}/${techDenied.uuid}/admin/resources`, { slots: [{ slot: 1, sponsorId: ids.nl }] }), 'technically_denied');
  });

  it('needs a reason to deny or cancel', async () => {
    const o = await submit(northwind);
    expect(fields(await admin.post(`${O}/${o.uuid}/financial-approval/false`, {}))).toEqual(['reason:order.reason.required']);
    expect(fields(await northwind.post(`${O}/${o.uuid}/cancel`, {}))).toEqual(['reason:order.reason.required']);
    await ok(admin.post(`${O}/${o.uuid}/financial-approval/true`, {}));
    expect(fields(await admin.post(`${O}/${o.uuid}/admin/technical-approval/false`, { reason: '  ' }))).toEqual(['reason:order.reason.required']);
    expect((await admin.post(`${O}/nope/financial-approval/true`, {})).statusCode).toBe(400);
    expect((await admin.post(`${O}/00000000-0000-0000-0000-000000000000/financial-approval/true`, {})).statusCode).toBe(404);
  });

  it('releases the hold of a denied or cancelled order and charges it on delivery, adding the SIMs to inventory', async () => {
    const denied = await submit(northwind);
    await ok(admin.post(`${O}/${denied.uuid}/financial-approval/false`, { reason: 'Budget' }));
    expect((await holdState(denied.uuid)).state).toBe('released');
    const cancelled = await submit(northwind);
    const detail = await ok(northwind.post(`${O}/${cancelled.uuid}/cancel`, { reason: 'Changed plans' }));
    expect(detail.reservation.state).toBe('released');
    expect(detail.timeline.at(-1)).toMatchObject({
      action: 'cancel',
      fromStatus: 'submitted',
      toStatus: 'cancelled',
      reason: 'Changed plans',
      username: 'northwind',
    });

    const balanceBefore = Number(
      (
        await sql<{
          b: string;
        }>`select coalesce((select balance_after from ledger_entry where reseller_id = ${ids.northwind} order by id desc limit 1), 0)::text as b`.execute(
          ctx.db,
        )
      ).rows[0].b,
    );
    const sims = await count('sim_card');
    const p = await placed({ amount: 600, batchName: 'Delivered batch' });
    expect(p.orderStatus).toBe('placed');
    const delivered = await ok(admin.post(`${O}/${p.uuid}/deliver`));
    expect(delivered.orderStatus).toBe('delivered');
    expect(delivered.reservation).toEqual({ amount: 1080, currency: 'USD', state: 'charged' });
    const entry = await ctx.db
      .selectFrom('ledgerEntry')
      .select(['amount', 'kind', 'reference', 'balanceAfter'])
      .where('resellerId', '=', ids.northwind)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ kind: 'purchase', reference: `sim-order:${p.uuid}` });
    expect(Number(entry.amount)).toBe(-1080);
    expect(Number(entry.balanceAfter)).toBe(balanceBefore - 1080);
    expect(await count('sim_card')).toBe(sims + 600);
    const cards = await ctx.db
      .selectFrom('simCard')
      .select(['iccid', 'status', 'batch', 'cost', 'resellerId'])
      .where('batch', '=', 'Delivered batch')
      .execute();
    expect(cards).toHaveLength(600);
    expect(cards[0]).toMatchObject({ status: 'inventory', resellerId: ids.northwind });
    expect(Number(cards[0].cost)).toBe(1.8);
    expect(cards.map((c) => c.iccid)).toContain(p.iccidRange.split('-')[0]);

    // Each card keeps the IMSI and MSISDN the allocation gave it, as the keys file lists them, and assigning the
    // cards to an account makes them the subscribers'.
    const keys = (await admin.get(`${O}/${p.uuid}/admin/keys`)).body.trim().split('\n').slice(1);
    const listed = keys.map((l) => l.split(',')).map(([iccid, imsi, msisdn]) => ({ iccid, imsi, msisdn }));
    expect(listed).toHaveLength(600);
    expect(listed[0].imsi).toBe(p.imsiRange.split('-')[0]);
    expect(listed[0].msisdn).toBe(p.msisdnRange.split('-')[0]);
    const kept = await ctx.db.selectFrom('simCard').select(['iccid', 'imsi', 'msisdn']).where('batch', '=', 'Delivered batch').orderBy('iccid').execute();
    expect(kept).toEqual(listed);
    const account = await ctx.db
      .selectFrom('account')
      .select('accountId')
      .where('resellerId', '=', ids.northwind)
      .where('inventoryAccount', '=', false)
      .orderBy('accountId')
      .executeTakeFirstOrThrow();
    const assigned = await northwind.post('/portal/inventory/assign', {
      accountId: account.accountId,
      iccidStart: listed[0].iccid,
      iccidEnd: listed[49].iccid,
      quantity: 50,
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const subscribers = await ctx.db
      .selectFrom('subscriber')
      .select(['iccid', 'imsi', 'msisdn'])
      .where(
        'iccid',
        'in',
        listed.slice(0, 50).map((c) => c.iccid),
      )
      .orderBy('iccid')
      .execute();
    expect(subscribers).toEqual(listed.slice(0, 50));
  });

  it('keeps four eyes on financial approval when the reseller asks for it', async () => {
    expect((await northwind.put(`/portal/sim-order-settings/${ids.bluesky}`, { fourEyes: true })).statusCode).toBe(404);
    await ok(admin.put(`/portal/sim-order-settings/${ids.northwind}`, { fourEyes: true }));
    const o = await submit(northwind);
    expect(o.fourEyes).toBe(true);
    // The submitter's page does not offer the approval it would be refused; the administrator's does.
    expect((await ok(northwind.get(`${O}/${o.uuid}`))).actions).not.toContain('financialApproval');
    expect((await ok(admin.get(`${O}/${o.uuid}`))).actions).toContain('financialApproval');
    const res = await northwind.post(`${O}/${o.uuid}/financial-approval/true`, {});
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FOUR_EYES' });
    expect(fields(res)).toEqual(['approvedBy:order.fourEyes']);
    // Another user (here the administrator) approves.
    expect((await ok(admin.post(`${O}/${o.uuid}/financial-approval/true`, {}))).orderStatus).toBe('financially_approved');
    await ok(northwind.put(`/portal/sim-order-settings/${ids.northwind}`, { fourEyes: false }));
    const own = await submit(northwind);
    expect((await ok(northwind.get(`${O}/${own.uuid}`))).actions).toContain('financialApproval');
    expect((await ok(northwind.post(`${O}/${own.uuid}/financial-approval/true`, {}))).financialReview).toBe('approved');
  });

  it('allocates resources: slot 1 required, no resource for the sponsor, no ICCID range', async () => {
    const o = await submit(northwind, { sponsorIds: [ids.nl, ids.uk], providerProfileId: undefined, serviceProviderName: 'Northwind', amount: 700 });
    await ok(admin.post(`${O}/${o.uuid}/financial-approval/true`, {}));
    await ok(admin.post(`${O}/${o.uuid}/admin/technical-approval/true`, {}));
    const available = await ok(admin.get(`${O}/${o.uuid}/admin/available-resources`));
    expect(available.imsi.map((r: Row) => r.sponsorId).sort()).toEqual([ids.nl, ids.uk].sort());
    expect(available.iccid.length).toBe(1);
    expect((await northwind.get(`${O}/${o.uuid}/admin/available-resources`)).statusCode).toBe(403);
    expect(fields(await admin.post(`${O}/${o.uuid}/admin/resources`, { slots: [{ slot: 2, sponsorId: ids.uk }] }))).toEqual([
      'slots:order.resources.slot1Required',
    ]);
    expect(fields(await admin.post(`${O}/${o.uuid}/admin/resources`, {}))).toEqual(['slots:order.resources.slot1Required']);
    // A sponsor without ranges.
    const lonely = await ctx.db
      .insertInto('sponsor')
      .values({ name: 'Lonely Sponsor', plmn: '99999', imsiPrefix: '9999901' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const none = await admin.post(`${O}/${o.uuid}/admin/resources`, {
      slots: [
        { slot: 1, sponsorId: ids.nl },
        { slot: 2, sponsorId: lonely.id },
      ],
    });
    expect(none.statusCode).toBe(409);
    expect(fields(none)).toEqual(['slots[1].sponsorId:order.resources.none']);
    expect(none.json().message).toBe('No resource available for the amount and sponsor. Add new resources first.');
    // No ICCID range with room: nothing is taken from the IMSI ranges either.
    const imsiNext = await sql<{ n: string }>`select next_value::text as n from sim_resource_range where kind = 'imsi' and sponsor_id = ${ids.nl}`.execute(
      ctx.db,
    );
    await sql`update sim_resource_range set next_value = last_value - 10 where kind = 'iccid'`.execute(ctx.db);
    const noIccid = await admin.post(`${O}/${o.uuid}/admin/resources`, {
      slots: [
        { slot: 1, sponsorId: ids.nl },
        { slot: 2, sponsorId: ids.uk },
      ],
    });
    expect(noIccid.statusCode).toBe(409);
    expect(fields(noIccid)).toEqual(['iccid:order.resources.noIccid']);
    expect(noIccid.json().message).toBe('No ICCID range available');
    expect(
      (await sql<{ n: string }>`select next_value::text as n from sim_resource_range where kind = 'imsi' and sponsor_id = ${ids.nl}`.execute(ctx.db)).rows,
    ).toEqual(imsiNext.rows);
    // The administrator adds a range, and allocation succeeds.
    const range = await admin.post(`${O}/admin/resource-ranges`, { kind: 'iccid', first: '893112345700000000', last: '893112345700009999' });
    expect(range.statusCode, range.body).toBe(201);
    const allocated = await ok(
      admin.post(`${O}/${o.uuid}/admin/resources`, {
        slots: [
          { slot: 1, sponsorId: ids.nl },
          { slot: 2, sponsorId: ids.uk },
        ],
      }),
    );
    expect(allocated).toMatchObject({ orderStatus: 'resources_allocated', resourceAllocation: true });
    expect(allocated.iccidRange.startsWith('893112345700000000')).toBe(true);
    expect(allocated.slots.map((s: Row) => s.slot)).toEqual([1, 2]);
    expect(allocated.msisdnRange).toMatch(/^3197010\d+-3197010\d+$/);
    const slots = await ok(northwind.get(`${O}/${o.uuid}/slots`));
    expect(slots[1]).toMatchObject({ slot: 2, sponsorId: ids.uk });
    expect(BigInt(slots[1].imsiTo) - BigInt(slots[1].imsiFrom)).toBe(699n);
  });

  it('gives discounts (rate or value) before placing, and the hold follows the total', async () => {
    const o = await submit(northwind);
    const preview = await ok(admin.post(`${O}/${o.uuid}/admin/discounts/calculate`, { description: 'Loyalty', rate: 10 }));
    expect(preview).toMatchObject({ total: 1620, discount: { description: 'Loyalty', rate: 10, value: 180 } });
    expect((await ok(admin.get(`${O}/${o.uuid}`))).totalCost).toBe(1800);
    expect(fields(await admin.post(`${O}/${o.uuid}/admin/discounts`, { rate: 5, value: 10 }))).toEqual(['rate:order.discount.oneOf']);
    expect(fields(await admin.post(`${O}/${o.uuid}/admin/discounts`, { rate: 150 }))).toEqual(['rate:order.discount.rate']);
    expect((await northwind.post(`${O}/${o.uuid}/admin/discounts`, { rate: 5 })).statusCode).toBe(403);
    const after = await ok(admin.post(`${O}/${o.uuid}/admin/discounts`, { description: 'Launch', value: 300 }));
    expect(after.totalCost).toBe(1500);
    expect(after.reservation.amount).toBe(1500);
    expect(after.timeline.at(-1)).toMatchObject({ action: 'discount', reason: 'Launch: 300 USD', username: 'admin' });
  });

  it('lets only the administrator download keys, encrypted at rest, logging every download', async () => {
    const p = await placed({ amount: 500, batchName: 'Keys batch' });
    expect(p.keysAvailable).toBe(true);
    expect((await northwind.get(`${O}/${p.uuid}/admin/keys`)).statusCode).toBe(403);
    expect((await bluesky.get(`${O}/${p.uuid}/admin/keys`)).statusCode).toBe(403);
    expect((await ok(northwind.get(`${O}/${p.uuid}`))).keysAvailable).toBe(false);
    const res = await admin.get(`${O}/${p.uuid}/admin/keys`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('keys-Keys_batch.csv');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('ICCID,IMSI1,MSISDN,KI,OPC');
    expect(lines).toHaveLength(501);
    const [iccid, imsi, , ki] = lines[1].split(',');
    expect(iccid).toBe(p.iccidRange.split('-')[0]);
    expect(imsi).toBe(p.imsiRange.split('-')[0]);
    const stored = await ctx.db.selectFrom('simOrderKeyChunk').select('ciphertext').where('orderId', '=', p.id).execute();
    expect(stored.length).toBeGreaterThan(0);
    for (const chunk of stored) {
      expect(Buffer.from(chunk.ciphertext).includes(Buffer.from(ki))).toBe(false);
      expect(Buffer.from(chunk.ciphertext).includes(Buffer.from('ICCID'))).toBe(false);
    }
    await admin.get(`${O}/${p.uuid}/admin/keys`);
    const detail = await ok(admin.get(`${O}/${p.uuid}/admin`));
    expect(detail.keyDownloads).toHaveLength(2);
    expect(detail.keyDownloads[0].username).toBe('admin');
    expect(detail.timeline.filter((e: Row) => e.action === 'keysDownloaded')).toHaveLength(2);
    expect((await ok(northwind.get(`${O}/${p.uuid}`))).keyDownloads).toBeUndefined();
    expect((await northwind.get(`${O}/${p.uuid}/admin`)).statusCode).toBe(403);
    const early = await submit(northwind);
    expect(fields(await admin.get(`${O}/${early.uuid}/admin/keys`))).toEqual(['status:order.keys.none']);
  });

  it("streams a big order's key file chunk by chunk and refuses a damaged one without sending any of it", async () => {
    const p = await placed({ amount: 500, batchName: 'Big keys' });
    // The keys of 20,000 SIMs sealed as placing seals them: about 2 MB in 64 KiB chunks (docs/performance.md has the
    // memory of the largest order's download).
    const key = await loadKeysKey(ctx.db);
    const lines = function* () {
      yield 'ICCID,IMSI1,MSISDN,KI,OPC\n';
      for (let i = 0; i < 20_000; i++) {
        const n = String(i).padStart(6, '0');
        yield `8988228000000${n}0,901280000${n},4670174${n},${n.repeat(5)}AB,CD${n.repeat(5)}\n`;
      }
    };
    const whole = createHash('sha256');
    let bytes = 0;
    for (const line of lines()) {
      whole.update(line);
      bytes += Buffer.byteLength(line);
    }
    const chunks = await ctx.db.transaction().execute((trx) => storeKeyFile(trx, key, p.id, p.uuid, lines()));
    expect(chunks).toBe(Math.ceil(bytes / KEY_CHUNK_BYTES));
    const res = await admin.get(`${O}/${p.uuid}/admin/keys`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBe(bytes);
    expect(createHash('sha256').update(res.rawPayload).digest('hex')).toBe(whole.digest('hex'));
    const downloads = async () => (await ok(admin.get(`${O}/${p.uuid}/admin`))).keyDownloads.length;
    expect(await downloads()).toBe(1);

    // One flipped bit in a middle chunk: refused before a byte is sent, not counted as a download, and in the timeline.
    const middle = Math.floor(chunks / 2);
    const original = await ctx.db
      .selectFrom('simOrderKeyChunk')
      .select('ciphertext')
      .where('orderId', '=', p.id)
      .where('seq', '=', middle)
      .executeTakeFirstOrThrow();
    const flipped = Buffer.from(original.ciphertext);
    flipped[100] ^= 1;
    const setChunk = (seq: number, ciphertext: Buffer) =>
      ctx.db.updateTable('simOrderKeyChunk').set({ ciphertext }).where('orderId', '=', p.id).where('seq', '=', seq).execute();
    await setChunk(middle, flipped);
    const damaged = await admin.get(`${O}/${p.uuid}/admin/keys`);
    expect(damaged.statusCode).toBe(409);
    expect(damaged.json()).toMatchObject({ code: 'KEYS_DAMAGED', fields: [{ field: 'keys', rule: 'integrity', messageId: 'order.keys.damaged' }] });
    expect(damaged.headers['content-disposition']).toBeUndefined();
    expect(damaged.body).not.toContain('ICCID');
    expect(await downloads()).toBe(1);
    expect((await ok(admin.get(`${O}/${p.uuid}/admin`))).timeline.at(-1)).toMatchObject({ action: 'keysRefused', username: 'admin' });
    await setChunk(middle, Buffer.from(original.ciphertext));
    expect((await admin.get(`${O}/${p.uuid}/admin/keys`)).statusCode).toBe(200);

    // Chunks moved, cut off at the end, or taken from another order are refused too.
    const [a, b] = await ctx.db
      .selectFrom('simOrderKeyChunk')
      .select(['seq', 'ciphertext', 'iv', 'tag'])
      .where('orderId', '=', p.id)
      .where('seq', 'in', [0, 1])
      .orderBy('seq')
      .execute();
    const put = (seq: number, c: { ciphertext: Buffer; iv: Buffer; tag: Buffer }) =>
      ctx.db
        .updateTable('simOrderKeyChunk')
        .set({ ciphertext: c.ciphertext, iv: c.iv, tag: c.tag })
        .where('orderId', '=', p.id)
        .where('seq', '=', seq)
        .execute();
    await put(0, b);
    await put(1, a);
    expect((await admin.get(`${O}/${p.uuid}/admin/keys`)).statusCode).toBe(409);
    await put(0, a);
    await put(1, b);
    await ctx.db
      .updateTable('simOrderKeys')
      .set({ chunks: chunks - 1 })
      .where('orderId', '=', p.id)
      .execute();
    await ctx.db
      .deleteFrom('simOrderKeyChunk')
      .where('orderId', '=', p.id)
      .where('seq', '=', chunks - 1)
      .execute();
    expect((await admin.get(`${O}/${p.uuid}/admin/keys`)).statusCode).toBe(409);
    const other = await placed({ amount: 500, batchName: 'Other keys' });
    await ctx.db.deleteFrom('simOrderKeyChunk').where('orderId', '=', other.id).execute();
    await sql`insert into sim_order_key_chunk (order_id, seq, iv, tag, ciphertext)
      select ${other.id}, seq, iv, tag, ciphertext from sim_order_key_chunk where order_id = ${p.id}`.execute(ctx.db);
    await ctx.db
      .updateTable('simOrderKeys')
      .set({ chunks: chunks - 1 })
      .where('orderId', '=', other.id)
      .execute();
    expect((await admin.get(`${O}/${other.uuid}/admin/keys`)).statusCode).toBe(409);
    expect(await downloads()).toBe(2);
  });

  it('keeps each reseller to its subtree: lists, details, keys and orders for a child', async () => {
    const child = await submit(northwind, { resellerId: ids.iot, batchName: 'For IoT', providerProfileId: undefined, serviceProviderName: 'IoT' });
    expect(child.resellerId).toBe(ids.iot);
    const theirs = await submit(bluesky, { batchName: 'Blue batch', providerProfileId: undefined, serviceProviderName: 'Blue' });
    expect((await iot.get(`${O}/${child.uuid}`)).statusCode).toBe(200);
    expect((await iot.get(`${O}/${theirs.uuid}`)).statusCode).toBe(404);
    expect((await bluesky.get(`${O}/${child.uuid}`)).statusCode).toBe(404);
    expect((await bluesky.post(`${O}/${child.uuid}/financial-approval/true`, {})).statusCode).toBe(404);
    expect((await bluesky.post(`${O}/${child.uuid}/cancel`, { reason: 'x' })).statusCode).toBe(404);
    expect((await bluesky.get(`${O}/${child.uuid}/slots`)).statusCode).toBe(404);
    expect((await iot.post(`${O}/submit`, order({ resellerId: ids.northwind }))).statusCode).toBe(400);
    const iotList = await ok(iot.post(O, { page: { page: 0, size: 500 } }));
    expect(iotList.items.every((r: Row) => r.resellerId === ids.iot)).toBe(true);
    const blueList = await ok(bluesky.post(O, { page: { page: 0, size: 500 } }));
    expect(blueList.items.map((r: Row) => r.resellerId)).toEqual([ids.bluesky]);
    const nwList = await ok(northwind.post(O, { page: { page: 0, size: 500 } }));
    expect(new Set(nwList.items.map((r: Row) => r.resellerId))).toEqual(new Set([ids.northwind, ids.iot]));
    expect((await bluesky.post(O, { resellerId: ids.northwind })).statusCode).toBe(404);
    expect((await bluesky.post(`${O}/admin`, {})).statusCode).toBe(403);
    expect((await bluesky.get(`/portal/admin/order/${child.id}`)).statusCode).toBe(403);
    expect((await ok(admin.get(`/portal/admin/order/${child.id}`))).uuid).toBe(child.uuid);
    const all = await ok(admin.post(`${O}/admin`, { page: { page: 0, size: 500 } }));
    expect(all.items.some((r: Row) => r.uuid === theirs.uuid) && all.items.some((r: Row) => r.uuid === child.uuid)).toBe(true);
    const csv = await bluesky.post(`${O}/export`, {});
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Blue batch');
    expect(csv.body).not.toContain('For IoT');
  });

  it('takes artwork under 3.5 MB as PNG, JPEG or PDF, and charges it on the order', async () => {
    const token = await ctx.login('northwind');
    const send = (bytes: Buffer, name?: string, type?: string) => {
      const boundary = '----artwork';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name ?? 'card.png'}"\r\nContent-Type: ${type ?? 'image/png'}\r\n\r\n`,
        ),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return ctx.app.inject({
        method: 'POST',
        url: `${O}/artwork`,
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
    };
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.from('IHDR'), Buffer.alloc(17)]);
    const big = await send(Buffer.concat([png, Buffer.alloc(3.5 * 1024 * 1024)]));
    expect(big.statusCode).toBe(400);
    expect(fields(big)).toEqual(['file:order.artwork.tooLarge']);
    expect(big.json().fields[0].message).toBe('File size should be less than 3.5 MB!');
    expect(fields(await send(Buffer.from('just text'), 'card.txt', 'text/plain'))).toEqual(['file:order.artwork.type']);
    const saved = await send(png);
    expect(saved.statusCode, saved.body).toBe(201);
    const o = await submit(northwind, { artworkId: saved.json().id, amount: 1000 });
    expect(o.artwork).toBe(true);
    expect(o.price.artworkCharge).toBe(250);
    expect(o.totalCost).toBe(2050);
    expect(fields(await bluesky.post(`${O}/submit`, order({ artworkId: saved.json().id, providerProfileId: undefined, serviceProviderName: 'B' })))).toEqual([
      'artworkId:order.artwork.unknown',
    ]);
    expect(
      fields(
        await northwind.post(
          `${O}/submit`,
          order({ artworkId: saved.json().id, simType: 'esim', simSize: 'esim', providerProfileId: undefined, serviceProviderName: 'E' }),
        ),
      ),
    ).toEqual(['artworkId:order.artwork.esim']);
  });

  it('pages, sorts, filters and exports the order table', async () => {
    const page = await ok(northwind.post(O, { sortBy: 'totalCost', sortDir: 'asc', page: { page: 0, size: 2 } }));
    expect(page.items).toHaveLength(2);
    expect(page.currentPage).toBe(0);
    expect(page.totalPageCount).toBe(Math.ceil(page.totalItemsCount / 2));
    expect(page.items[0].totalCost).toBeLessThanOrEqual(page.items[1].totalCost);
    const delivered = await ok(northwind.post(O, { status: 'delivered' }));
    expect(delivered.items.length).toBeGreaterThan(0);
    expect(delivered.items.every((r: Row) => r.orderStatus === 'delivered')).toBe(true);
    const found = await ok(northwind.post(O, { searchKey: 'Fleet 1' }));
    expect(found.items.map((r: Row) => r.batchName)).toEqual(['Fleet 1']);
    expect(fields(await northwind.post(O, { sortBy: 'password' }))).toEqual(['sortBy:validation.sortBy.invalid']);
    expect(fields(await northwind.post(O, { status: 'lost' }))).toEqual(['status:order.status.invalid']);
    const csv = await northwind.post(`${O}/export`, { status: 'delivered' });
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toContain('batchName');
    expect(lines).toHaveLength(delivered.totalItemsCount + 1);
  });

  it('pages the order table by the key of the last row (page.after) as by number, within what the caller sees', async () => {
    for (const sort of [{}, { sortBy: 'totalCost', sortDir: 'desc' }, { sortBy: 'financialReview', sortDir: 'asc' }]) {
      const whole = await ok(northwind.post(O, { ...sort, page: { page: 0, size: 100 } }));
      expect(whole.items.length).toBeGreaterThan(3);
      const first = await ok(northwind.post(O, { ...sort, page: { page: 0, size: 2 } }));
      const next = await ok(northwind.post(O, { ...sort, page: { page: 1, size: 2, after: first.items[1].id } }));
      const byNumber = await ok(northwind.post(O, { ...sort, page: { page: 1, size: 2 } }));
      expect(next.items.map((r: Row) => r.id)).toEqual(byNumber.items.map((r: Row) => r.id));
      expect(next.items.map((r: Row) => r.id)).toEqual(whole.items.slice(2, 4).map((r: Row) => r.id));
    }
    // Another reseller's order is no place to start from.
    const theirs = await ok(bluesky.post(O, {}));
    expect(fields(await northwind.post(O, { page: { page: 1, size: 2, after: theirs.items[0].id } }))).toEqual(['page.after:validation.page.after']);
    expect(fields(await northwind.post(O, { page: { page: 1, size: 2, after: theirs.items[0].uuid } }))).toEqual(['page.after:validation.page.after']);
    // The uuid, the table's key on the wire, starts a page as the id does.
    const mine = await ok(northwind.post(O, { page: { page: 0, size: 2 } }));
    const byUuid = await ok(northwind.post(O, { page: { page: 1, size: 2, after: mine.items[1].uuid } }));
    const byId = await ok(northwind.post(O, { page: { page: 1, size: 2, after: mine.items[1].id } }));
    expect(byUuid.items).toEqual(byId.items);
  });
});
