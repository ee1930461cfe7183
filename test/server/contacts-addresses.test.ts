import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, unknown> & { id: number; resellerId: number };

const CONTACTS = '/portal/contacts/resellers';
const ADDRESSES = '/portal/addresses';

/** The demo resellers: Northwind Mobile (1) above Northwind IoT (2); Blue Sky Telecom (3) beside them. */
const NORTHWIND = 1;
const NORTHWIND_IOT = 2;
const BLUESKY = 3;

describe.each(engines)("a reseller's contacts and addresses on %s", (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let iot: Client;
  let bluesky: Client;
  let contactTypes: { id: number; name: string }[];
  let addressTypes: { id: number; name: string }[];
  const contacts: Record<number, Row> = {};
  const addresses: Record<number, Row> = {};

  const contact = (typeId: number, lastName: string, resellerId?: number) => ({
    typeId,
    firstName: 'Ana',
    lastName,
    email: `${lastName.toLowerCase()}@example.com`,
    phone: '+44 20 7946 0958',
    ...(resellerId ? { resellerId } : {}),
  });
  const address = (typeId: number, city: string, resellerId?: number) => ({
    typeId,
    companyName: `${city} office`,
    country: 'DE',
    city,
    street: 'Hauptstraße',
    streetNumber: '5',
    postalCode: '10115',
    ...(resellerId ? { resellerId } : {}),
  });
  const created = async (res: { statusCode: number; body: string; json: () => unknown }) => {
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Row;
  };

  beforeAll(async () => {
    ctx = await testApp(engine);
    admin = await ctx.as('admin');
    northwind = await ctx.as('northwind');
    iot = await ctx.as('northwind-iot');
    bluesky = await ctx.as('bluesky');
    contactTypes = (await northwind.get('/portal/contacts/types')).json();
    addressTypes = (await northwind.get('/portal/addresses/types')).json();
    const [commercial, billing] = contactTypes;
    const billingAddress = addressTypes.find((t) => t.name === 'Billing')!;
    const shipping = addressTypes.find((t) => t.name === 'Shipping')!;
    contacts[NORTHWIND] = await created(await northwind.post(CONTACTS, contact(commercial.id, 'Parent')));
    contacts[NORTHWIND_IOT] = await created(await iot.post(CONTACTS, contact(billing.id, 'Child')));
    contacts[BLUESKY] = await created(await bluesky.post(CONTACTS, contact(commercial.id, 'Sibling')));
    addresses[NORTHWIND] = await created(await northwind.post(ADDRESSES, address(billingAddress.id, 'Berlin')));
    addresses[NORTHWIND_IOT] = await created(await iot.post(ADDRESSES, address(shipping.id, 'Hamburg')));
    addresses[BLUESKY] = await created(await bluesky.post(ADDRESSES, address(billingAddress.id, 'Munich')));
  });
  afterAll(async () => ctx?.close());

  it('lists the seeded address types beside the address calls, and an address id that is no number answers 400', async () => {
    expect(addressTypes.map((t) => t.name)).toEqual(['Billing', 'Office', 'Shipping']);
    const res = await northwind.get(`${ADDRESSES}/types/${addressTypes[0].id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: addressTypes[0].name });
    const bad = await northwind.get(`${ADDRESSES}/typo`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual([expect.objectContaining({ field: 'id' })]);
  });

  it("gives each row the caller's reseller, the joined names and, for an address, a uuid of its own", async () => {
    expect(contacts[NORTHWIND]).toMatchObject({ resellerId: NORTHWIND, resellerName: 'Northwind Mobile', typeName: contactTypes[0].name });
    expect(contacts[NORTHWIND_IOT]).toMatchObject({ resellerId: NORTHWIND_IOT });
    expect(addresses[NORTHWIND]).toMatchObject({ resellerId: NORTHWIND, typeName: 'Billing', country: 'DE' });
    const uuids = Object.values(addresses).map((a) => a.uuid);
    for (const uuid of uuids) expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set(uuids).size).toBe(uuids.length);
    // The uuid is the server's: one sent is not taken.
    const sent = await created(await northwind.post(ADDRESSES, { ...address(addressTypes[0].id, 'Bonn'), uuid: '00000000-0000-4000-8000-000000000001' }));
    expect(sent.uuid).not.toBe('00000000-0000-4000-8000-000000000001');
    const changed = await northwind.put(ADDRESSES, { ...sent, uuid: '00000000-0000-4000-8000-000000000002', city: 'Köln' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ uuid: sent.uuid, city: 'Köln' });
    expect((await northwind.delete(`${ADDRESSES}/${sent.id}`)).statusCode).toBe(204);
  });

  it('shows a reseller its own subtree only: a sub-reseller never sees its parent or a sibling', async () => {
    const ids = async (c: Client, url: string) => ((await c.get(url)).json() as Row[]).map((r) => r.resellerId).sort();
    expect(await ids(northwind, CONTACTS)).toEqual([NORTHWIND, NORTHWIND_IOT]);
    expect(await ids(iot, CONTACTS)).toEqual([NORTHWIND_IOT]);
    expect(await ids(bluesky, CONTACTS)).toEqual([BLUESKY]);
    expect(await ids(northwind, ADDRESSES)).toEqual([NORTHWIND, NORTHWIND_IOT]);
    expect(await ids(iot, ADDRESSES)).toEqual([NORTHWIND_IOT]);
    const paged = (await iot.post(`${ADDRESSES}/paged`, {})).json();
    expect(paged.items.map((r: Row) => r.resellerId)).toEqual([NORTHWIND_IOT]);

    for (const [url, rows] of [
      [CONTACTS, contacts],
      [ADDRESSES, addresses],
    ] as const) {
      expect((await northwind.get(`${url}/${rows[NORTHWIND_IOT].id}`)).statusCode).toBe(200);
      for (const other of [NORTHWIND, BLUESKY]) {
        expect((await iot.get(`${url}/${rows[other].id}`)).statusCode, `${url} of ${other}`).toBe(404);
        expect((await iot.put(url, { ...rows[other], resellerId: undefined })).statusCode).toBe(404);
        expect((await iot.delete(`${url}/${rows[other].id}`)).statusCode).toBe(404);
      }
    }
    // The parent edits its sub-reseller's contact; the row stays the sub-reseller's.
    const edited = await northwind.put(CONTACTS, { ...contacts[NORTHWIND_IOT], description: 'Pays the invoices' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ resellerId: NORTHWIND_IOT, description: 'Pays the invoices' });
  });

  it('narrows the list call by reseller_id and by type, inside what the caller sees', async () => {
    const list = async (c: Client, url: string) => (await c.get(url)).json() as Row[];
    expect((await list(northwind, `${CONTACTS}?reseller_id=${NORTHWIND_IOT}`)).map((r) => r.id)).toEqual([contacts[NORTHWIND_IOT].id]);
    expect((await list(northwind, `${CONTACTS}?type=${contactTypes[0].id}`)).map((r) => r.id)).toEqual([contacts[NORTHWIND].id]);
    expect(await list(northwind, `${CONTACTS}?reseller_id=${NORTHWIND}&type=${contactTypes[1].id}`)).toEqual([]);
    const shipping = addressTypes.find((t) => t.name === 'Shipping')!;
    expect((await list(northwind, `${ADDRESSES}?type=${shipping.id}`)).map((r) => r.id)).toEqual([addresses[NORTHWIND_IOT].id]);
    expect((await list(admin, `${ADDRESSES}?reseller_id=${BLUESKY}`)).map((r) => r.id)).toEqual([addresses[BLUESKY].id]);
    // Another tenant's rows stay out of reach through the filter.
    expect(await list(northwind, `${ADDRESSES}?reseller_id=${BLUESKY}`)).toEqual([]);
    expect(await list(iot, `${CONTACTS}?reseller_id=${NORTHWIND}`)).toEqual([]);
    // An empty parameter filters nothing.
    expect(await list(iot, `${CONTACTS}?reseller_id=`)).toHaveLength(1);
    for (const [query, value] of [
      ['reseller_id', 'abc'],
      ['type', '1.5'],
      ['type', '99999999999'],
    ]) {
      const bad = await northwind.get(`${ADDRESSES}?${query}=${value}`);
      expect(bad.statusCode, `${query}=${value}`).toBe(400);
      expect(bad.json().fields).toEqual([expect.objectContaining({ field: query })]);
    }
  });

  it('refuses a bad e-mail, phone or country with 400 naming the field', async () => {
    const cases: [string, object, string, string][] = [
      [CONTACTS, { ...contact(contactTypes[0].id, 'Bad'), email: 'not-an-email' }, 'email', 'validation.email.invalid'],
      [CONTACTS, { ...contact(contactTypes[0].id, 'Bad'), phone: '12ab' }, 'phone', 'validation.phone.invalid'],
      [CONTACTS, { ...contact(contactTypes[0].id, 'Bad'), mobile: '0049 170' }, 'mobile', 'validation.phone.invalid'],
      [CONTACTS, { ...contact(contactTypes[0].id, 'B4d') }, 'lastName', 'validation.character.notAllowed'],
      [CONTACTS, { typeId: contactTypes[0].id, lastName: 'Nomail' }, 'email', 'validation.email.required'],
      [ADDRESSES, { ...address(addressTypes[0].id, 'Atlantis'), country: 'XX' }, 'country', 'validation.country.invalid'],
      [ADDRESSES, { ...address(addressTypes[0].id, 'Atlantis'), country: 'de' }, 'country', 'validation.country.invalid'],
      [ADDRESSES, { ...address(addressTypes[0].id, 'Atlantis'), phone: '+1' }, 'phone', 'validation.phone.invalid'],
    ];
    for (const [url, body, field, messageId] of cases) {
      const res = await northwind.post(url, body);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json().fields).toEqual([expect.objectContaining({ field, messageId })]);
    }
    const after = (await admin.get(ADDRESSES)).json() as Row[];
    expect(after.some((r) => r.city === 'Atlantis')).toBe(false);
  });

  it("refuses an unknown type and another tenant's reseller", async () => {
    const cases: [Client, string, object, string, string][] = [
      [northwind, CONTACTS, contact(999_999, 'Typeless'), 'typeId', 'validation.contactType.unknown'],
      [northwind, ADDRESSES, address(999_999, 'Typeless'), 'typeId', 'validation.addressType.unknown'],
      [northwind, CONTACTS, contact(contactTypes[0].id, 'Elsewhere', BLUESKY), 'resellerId', 'validation.reseller.notAllowed'],
      [iot, ADDRESSES, address(addressTypes[0].id, 'Elsewhere', NORTHWIND), 'resellerId', 'validation.reseller.notAllowed'],
    ];
    for (const [caller, url, body, field, messageId] of cases) {
      const res = await caller.post(url, body);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json().fields).toEqual([expect.objectContaining({ field, rule: 'reference', messageId })]);
    }
    // Moving a row to another tenant is refused the same way.
    const moved = await northwind.put(CONTACTS, { ...contacts[NORTHWIND], resellerId: BLUESKY });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().fields).toEqual([expect.objectContaining({ field: 'resellerId', rule: 'reference' })]);
    // The parent may place a row at its sub-reseller.
    const placed = await created(await northwind.post(ADDRESSES, address(addressTypes[0].id, 'Leipzig', NORTHWIND_IOT)));
    expect(placed.resellerId).toBe(NORTHWIND_IOT);
    expect((await iot.get(`${ADDRESSES}/${placed.id}`)).statusCode).toBe(200);
  });

  it('keeps the type catalogues to the administrator, and a type in use is not deleted', async () => {
    expect((await northwind.post('/portal/addresses/types', { name: 'Warehouse' })).statusCode).toBe(403);
    const type = await created(await admin.post('/portal/addresses/types', { name: 'Warehouse', description: 'Stock of SIM cards' }));
    const row = await created(await northwind.post(ADDRESSES, address(type.id, 'Dresden')));
    const inUse = await admin.delete(`/portal/addresses/types/${type.id}`);
    expect(inUse.statusCode).toBe(409);
    expect((await northwind.delete(`${ADDRESSES}/${row.id}`)).statusCode).toBe(204);
    expect((await admin.delete(`/portal/addresses/types/${type.id}`)).statusCode).toBe(204);
  });
});
