import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, unknown>;

const fieldsOf = (res: { json(): { fields?: { field: string; rule: string }[] } }) => res.json().fields?.map((f) => `${f.field}:${f.rule}`);

describe.each(engines)('custom fields on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let iot: Client;
  let bluesky: Client;
  /** Two subscribers of Northwind IoT, a sub-reseller of Northwind Mobile, and one of Blue Sky. */
  let iotSubscribers: number[];
  let blueskySubscriber: number;

  const define = (c: Client, body: Row) => c.post('/portal/custom-fields', body);
  const update = (c: Client, id: number, body: Row) => c.post(`/portal/subscriber-info/${id}`, { subscriberId: id, ...body });
  const read = async (id: number) => (await admin.get(`/portal/subscribers/${id}`)).json() as Row;
  const subscribersOf = async (reseller: string) =>
    (
      await ctx.db
        .selectFrom('subscriber as s')
        .innerJoin('reseller as r', 'r.id', 's.resellerId')
        .select('s.subscriberId')
        .where('r.name', '=', reseller)
        .orderBy('s.subscriberId')
        .limit(2)
        .execute()
    ).map((r) => r.subscriberId);

  beforeAll(async () => {
    ctx = await testApp(engine);
    [admin, northwind, iot, bluesky] = await Promise.all(['admin', 'northwind', 'northwind-iot', 'bluesky'].map((u) => ctx.as(u)));
    iotSubscribers = await subscribersOf('Northwind IoT');
    [blueskySubscriber] = await subscribersOf('Blue Sky Telecom');
    expect(iotSubscribers).toHaveLength(2);

    expect(
      (await define(admin, { entity: 'subscriber', key: 'contractRef', label: 'Contract', type: 'text', maximum: 12, pattern: '^[A-Z0-9-]+$' })).statusCode,
    ).toBe(201);
    expect(
      (await define(northwind, { entity: 'subscriber', key: 'colour', label: 'Colour', type: 'choice', choices: ['Red', 'Green'], position: 1 })).statusCode,
    ).toBe(201);
    expect((await define(northwind, { entity: 'subscriber', key: 'weight', label: 'Weight kg', type: 'number', minimum: 0, maximum: 500 })).statusCode).toBe(
      201,
    );
    expect((await define(northwind, { entity: 'subscriber', key: 'installed', label: 'Installed', type: 'date', earliest: '2020-01-01' })).statusCode).toBe(
      201,
    );
  });
  afterAll(async () => ctx?.close());

  describe('definitions', () => {
    it("apply to the defining tenant's subtree: its own and its ancestors' fields, never a sibling's", async () => {
      const keys = async (c: Client) => ((await c.get('/portal/custom-fields/applicable/subscriber')).json() as Row[]).map((d) => d.key);
      // In form order: by position, then by label.
      expect(await keys(iot)).toEqual(['contractRef', 'installed', 'weight', 'colour']);
      expect(await keys(bluesky)).toEqual(['contractRef']);
      expect(await keys(admin)).toEqual(['contractRef']);
      expect((await iot.get('/portal/custom-fields/applicable/account')).json()).toEqual([]);
      expect(fieldsOf(await iot.get('/portal/custom-fields/applicable/planet'))).toEqual(['entity:enum']);
    });

    it('keep a key unique along a line of tenants; siblings may reuse it', async () => {
      const below = await define(iot, { entity: 'subscriber', key: 'colour', label: 'Colour', type: 'text' });
      expect(below.statusCode).toBe(409);
      expect(fieldsOf(below)).toEqual(['key:unique']);
      const above = await define(admin, { entity: 'subscriber', key: 'weight', label: 'Weight', type: 'number' });
      expect(above.statusCode).toBe(409);
      const sibling = await define(bluesky, { entity: 'subscriber', key: 'colour', label: 'Farbe', type: 'text' });
      expect(sibling.statusCode).toBe(201);
      const otherEntity = await define(iot, { entity: 'account', key: 'colour', label: 'Colour', type: 'text' });
      expect(otherEntity.statusCode).toBe(201);
    });

    it('refuse options that contradict each other, naming the field, and write nothing', async () => {
      const count = async () =>
        Number(
          (
            await ctx.db
              .selectFrom('customField')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      expect(fieldsOf(await define(northwind, { entity: 'subscriber', key: 'size', label: 'Size', type: 'choice' }))).toEqual(['choices:minItems']);
      expect(fieldsOf(await define(northwind, { entity: 'subscriber', key: 'code', label: 'Code', type: 'text', pattern: '([a-z' }))).toEqual([
        'pattern:format',
      ]);
      expect(fieldsOf(await define(northwind, { entity: 'subscriber', key: 'load', label: 'Load', type: 'number', minimum: 5, maximum: 1 }))).toEqual([
        'maximum:minimum',
      ]);
      expect(fieldsOf(await define(northwind, { entity: 'subscriber', key: 'Bad key', label: 'x', type: 'text' }))).toEqual(['key:pattern']);
      expect(fieldsOf(await define(northwind, { entity: 'planet', key: 'x', label: 'x', type: 'text' }))).toEqual(['entity:enum']);
      expect(await count()).toBe(before);
    });

    it('keep entity, key and type once made, and store only the options of the type', async () => {
      const made = (await define(northwind, { entity: 'subscriber', key: 'tier', label: 'Tier', type: 'text', choices: ['a'], earliest: '2021-01-01' })).json();
      expect(made.choices).toBeUndefined();
      expect(made.earliest).toBeUndefined();
      const retype = await northwind.put(`/portal/custom-fields/${made.id}`, { ...made, type: 'number' });
      expect(retype.statusCode).toBe(400);
      expect(fieldsOf(retype)).toEqual(['type:fixed']);
      const relabel = await northwind.put(`/portal/custom-fields/${made.id}`, { ...made, label: 'Service tier' });
      expect(relabel.statusCode).toBe(200);
      expect(relabel.json().label).toBe('Service tier');
      // The field's sort index lives as long as the field.
      const indexes = async () =>
        (
          await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'subscriber' and indexname like '%custom_tier%'`.execute(
            ctx.db,
          )
        ).rows;
      expect(await indexes()).toEqual([{ name: 'subscriber_custom_tier_idx' }]);
      expect((await northwind.delete(`/portal/custom-fields/${made.id}`)).statusCode).toBe(204);
      expect(await indexes()).toEqual([]);
    });

    it('are out of reach of another tenant and of users without the privilege', async () => {
      const mine = (await northwind.post('/portal/custom-fields/paged', {})).json().items as Row[];
      const colour = mine.find((d) => d.key === 'colour' && d.entity === 'subscriber')!;
      expect((await bluesky.get(`/portal/custom-fields/${colour.id}`)).statusCode).toBe(404);
      expect([403, 404]).toContain((await bluesky.put(`/portal/custom-fields/${colour.id}`, { ...colour, label: 'Taken' })).statusCode);
      expect((await iot.get(`/portal/custom-fields/${colour.id}`)).statusCode).toBe(404);
      const harbor = await ctx.as('harbor');
      expect((await define(harbor, { entity: 'subscriber', key: 'mine', label: 'Mine', type: 'text' })).statusCode).toBe(403);
      const planted = await define(bluesky, { entity: 'subscriber', key: 'planted', label: 'Planted', type: 'text', resellerId: 1 });
      expect(fieldsOf(planted)).toEqual(['resellerId:reference']);
    });
  });

  describe('values', () => {
    it('are stored with the row, checked against the fields of its tenant, merged over the stored ones', async () => {
      const [id] = iotSubscribers;
      const res = await update(iot, id, { custom: { contractRef: 'NW-0001', colour: 'Red', weight: 12.5, installed: '2024-02-29' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().custom).toEqual({ contractRef: 'NW-0001', colour: 'Red', weight: 12.5, installed: '2024-02-29' });
      const merged = await update(iot, id, { name: 'Tracker renamed', custom: { weight: 13, installed: null } });
      expect(merged.json().custom).toEqual({ contractRef: 'NW-0001', colour: 'Red', weight: 13 });
      expect((await read(id)).custom).toEqual({ contractRef: 'NW-0001', colour: 'Red', weight: 13 });
      // The subscriber's audit log holds the values before and after each change.
      const [latest] = (await admin.get(`/portal/subscriber-info/audit-logs/${id}`)).json() as Row[];
      expect(latest).toMatchObject({
        before: { custom: { contractRef: 'NW-0001', colour: 'Red', weight: 12.5, installed: '2024-02-29' } },
        after: { custom: { contractRef: 'NW-0001', colour: 'Red', weight: 13 } },
      });
    });

    it('answer 400 naming each custom field and its rule, and write nothing', async () => {
      const [, id] = iotSubscribers;
      const before = await read(id);
      const res = await update(iot, id, {
        name: 'Not saved',
        custom: { contractRef: 'lower-case', colour: 'Blue', weight: 900, installed: '2019-12-31', nope: 1 },
      });
      expect(res.statusCode).toBe(400);
      expect(fieldsOf(res)?.sort()).toEqual(
        [
          'custom.contractRef:pattern',
          'custom.colour:enum',
          'custom.weight:maximum',
          'custom.installed:formatMinimum',
          'custom.nope:additionalProperties',
        ].sort(),
      );
      expect(fieldsOf(await update(iot, id, { custom: { installed: '2024-02-30' } }))).toEqual(['custom.installed:format']);
      expect(fieldsOf(await update(iot, id, { custom: { weight: 'heavy' } }))).toEqual(['custom.weight:type']);
      expect(fieldsOf(await update(iot, id, { custom: ['Red'] }))).toEqual(['custom:type']);
      expect(fieldsOf(await update(iot, id, { custom: { contractRef: 'A'.repeat(13) } }))).toEqual(['custom.contractRef:maxLength']);
      // A Blue Sky subscriber does not take Northwind's fields.
      expect(fieldsOf(await update(bluesky, blueskySubscriber, { custom: { weight: 1 } }))).toEqual(['custom.weight:additionalProperties']);
      expect(await read(id)).toEqual(before);
    });

    it('let an update not clear a required field it sends, and not hold it to one it leaves alone', async () => {
      const required = (await define(iot, { entity: 'subscriber', key: 'site', label: 'Site', type: 'text', required: true })).json();
      const [, id] = iotSubscribers;
      expect((await update(iot, id, { name: 'Renamed only' })).statusCode).toBe(200);
      expect((await update(iot, id, { custom: { weight: 3 } })).statusCode).toBe(200);
      expect(fieldsOf(await update(iot, id, { custom: { site: null } }))).toEqual(['custom.site:required']);
      expect((await update(iot, id, { custom: { weight: 3, site: 'Dock 4' } })).statusCode).toBe(200);
      expect(fieldsOf(await update(iot, id, { custom: { site: '' } }))).toEqual(['custom.site:required']);
      // Deleting the field takes its values off the rows.
      expect((await iot.delete(`/portal/custom-fields/${required.id}`)).statusCode).toBe(204);
      expect((await read(id)).custom).toEqual({ weight: 3 });
    });
  });

  describe('on accounts', () => {
    it("hold a new account to its tenant's required fields, and keep the values on later edits", async () => {
      expect((await define(admin, { entity: 'account', key: 'vatNumber', label: 'VAT number', type: 'text', required: true })).statusCode).toBe(201);
      const missing = await northwind.post('/portal/accounts/', { name: 'Custom Fields Ltd' });
      expect(missing.statusCode).toBe(400);
      expect(fieldsOf(missing)).toEqual(['custom.vatNumber:required']);
      const made = await northwind.post('/portal/accounts/', { name: 'Custom Fields Ltd', custom: { vatNumber: 'PT123456789' } });
      expect(made.statusCode, made.body).toBe(201);
      const account = made.json();
      const edited = await northwind.put('/portal/accounts/', { ...account, city: 'Porto' });
      expect(edited.json().custom).toEqual({ vatNumber: 'PT123456789' });
    });
  });

  describe('CSV bulk update', () => {
    const BOUNDARY = 'custom-fields-boundary';
    const upload = async (c: string, csv: string, confirm = false) =>
      ctx.app.inject({
        method: 'POST',
        url: `/portal/subscribers/bulk/csv${confirm ? '?confirm=true' : ''}`,
        payload: Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="s.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${BOUNDARY}--\r\n`,
        ),
        headers: { authorization: `Bearer ${await ctx.login(c)}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      });
    const iccids = async (ids: number[]) =>
      (await ctx.db.selectFrom('subscriber').select(['subscriberId', 'iccid']).where('subscriberId', 'in', ids).orderBy('subscriberId').execute()).map(
        (r) => r.iccid,
      );

    it('reads custom.<key> columns by the fields of the caller, checks each line, and applies the valid ones as a job', async () => {
      const more = (
        await ctx.db.selectFrom('subscriber').select('subscriberId').where('resellerId', '=', 2).orderBy('subscriberId').offset(2).limit(3).execute()
      ).map((r) => r.subscriberId);
      const [a, b, c] = await iccids(more);
      const csv = ['iccid,custom.colour,custom.weight,custom.installed', `${a},green,7.5,2024-05-01`, `${b},Blue,,`, `${c},,-1,2024-13-01`].join('\n');
      const preview = await upload('northwind-iot', csv);
      expect(preview.statusCode, preview.body).toBe(200);
      const body = preview.json();
      expect(body).toMatchObject({ total: 3, valid: 1 });
      expect(body.rejected.map((r: Row) => [r.line, (r.fields as Row[]).map((f) => `${f.field}:${f.rule}`).sort()])).toEqual([
        [3, ['custom.colour:enum']],
        [4, ['custom.installed:format', 'custom.weight:minimum']],
      ]);
      expect((await read(more[0])).custom ?? {}).toEqual({});

      const confirmed = await upload('northwind-iot', csv, true);
      expect(confirmed.statusCode, confirmed.body).toBe(202);
      for (let i = 0; i < 200; i++) {
        const job = (await iot.get(`/portal/jobs/${confirmed.json().jobId}`)).json();
        if (job.status === 'done') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      // A choice is stored as the field spells it.
      expect((await read(more[0])).custom).toEqual({ colour: 'Green', weight: 7.5, installed: '2024-05-01' });
      const again = (await upload('northwind-iot', `iccid,custom.colour\n${a},Green\n`)).json();
      expect(again).toMatchObject({ total: 1, valid: 0, unchanged: 1 });
      // Another tenant's field is no column of Blue Sky's files.
      const foreign = await upload('bluesky', `iccid,custom.weight\n${a},1\n`);
      expect(foreign.json().fields.map((f: Row) => f.field)).toEqual(['file.custom.weight']);
    });
  });

  describe('lists', () => {
    const paged = (c: Client, body: Row) => c.post('/portal/subscribers/paged', body);

    it('search a field: a choice in any case, a number, a whole day or part of one, text contained', async () => {
      const [first, second] = iotSubscribers;
      await update(iot, second, { custom: { contractRef: 'NW-0002', colour: 'Green', weight: 40, installed: '2025-06-01' } });
      const ids = async (searchBy: string, searchKey: string, c: Client = iot) =>
        ((await paged(c, { searchBy, searchKey })).json().items as Row[]).map((r) => r.subscriberId);
      expect(await ids('custom.colour', 'red')).toEqual([first]);
      expect(await ids('custom.weight', '40')).toEqual([second]);
      expect(await ids('custom.weight', 'forty')).toEqual([]);
      expect(await ids('custom.installed', '2025-06-01')).toEqual([second]);
      expect(await ids('custom.installed', '2025-06')).toEqual([second]);
      expect(await ids('custom.contractRef', 'nw-000')).toEqual([first, second]);
      expect(await ids('custom.contractRef', '0002', northwind)).toEqual([second]);
      // Blue Sky has no such field: the filter is not one of its lists'.
      const refused = await paged(bluesky, { searchBy: 'custom.weight', searchKey: '40' });
      expect(fieldsOf(refused)).toEqual(['searchBy:enum']);
    });

    it('sort by a field, numbers as numbers and empty values last, and page through with keys', async () => {
      const [first, second] = iotSubscribers;
      const byWeight = (await paged(iot, { sortBy: 'custom.weight', sortDir: 'desc', page: { page: 0, size: 4 } })).json().items as Row[];
      expect(byWeight.slice(0, 2).map((r) => r.subscriberId)).toEqual([second, first]);
      expect(byWeight.map((r) => (r.custom as Row | undefined)?.weight)).toEqual([40, 13, 7.5, undefined]);
      const after = (await paged(iot, { sortBy: 'custom.weight', sortDir: 'desc', page: { page: 0, size: 1, after: second } })).json().items as Row[];
      expect(after.map((r) => r.subscriberId)).toEqual([first]);
      expect(fieldsOf(await paged(bluesky, { sortBy: 'custom.weight' }))).toEqual(['sortBy:enum']);
    });

    it("export a column per field of the caller's, headed custom.<key>", async () => {
      const [first] = iotSubscribers;
      const res = await iot.post('/portal/subscribers/list/download', { searchBy: 'subscriberId', searchKey: String(first) });
      expect(res.statusCode).toBe(200);
      const [header, row] = res.body.trim().split(/\r?\n/);
      const columns = header.split(',');
      expect(columns).not.toContain('custom');
      expect(columns.slice(-4)).toEqual(['custom.contractRef', 'custom.installed', 'custom.weight', 'custom.colour']);
      const cells = row.split(',');
      expect(cells.slice(-4)).toEqual(['NW-0001', '', '13', 'Red']);
    });
  });
});
