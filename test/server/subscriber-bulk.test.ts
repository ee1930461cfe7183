import Papa from 'papaparse';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriberSeedContext, subscriberSeedRows } from '@server/db/seedSubscribers';
import { bulkJobKind, csvJobKind } from '@server/domains/subscribers/bulkRoutes';
import type { Body } from '@server/domains/subscribers/context';
import { englishText } from '@server/http/errors';
import { JobRunner } from '@server/jobs/runner';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;
type Row = Record<string, any>;

/** Subscribers the suite works with: enough for a range of 1001 of one reseller. */
const SUBSCRIBERS = 3000;
const BOUNDARY = 'bulk-boundary-7f3a';

function multipart(text: string | Buffer, field = 'file') {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="subscribers.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.isBuffer(text) ? text : Buffer.from(text),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

describe.each(engines)('subscriber ranges and bulk actions on %s', (engine) => {
  let ctx: Ctx;
  let admin: Client;
  let northwind: Client;
  let bluesky: Client;
  let harbor: Client;
  let northwindToken: string;
  /** Northwind's subscribers (Northwind Mobile and Northwind IoT), by id. */
  let nw: number[];
  let profiles: Row[];

  const db = () => ctx.db;
  const q = async (text: ReturnType<typeof sql>) => (await text.execute(ctx.db)).rows as Row[];
  const auditCount = async (ids: number[], action?: string) =>
    Number(
      (await q(sql`select count(*) as n from subscriber_audit where subscriber_id in (${sql.join(ids)}) ${action ? sql`and action = ${action}` : sql``}`))[0].n,
    );
  const fields = (res: { json: () => any }) => res.json().fields.map((f: Row) => ({ field: f.field, rule: f.rule, messageId: f.messageId }));
  const waitFor = async (id: number, client: Client = northwind) => {
    for (let i = 0; i < 400; i++) {
      const job = (await client.get(`/portal/jobs/${id}`)).json();
      if (['done', 'failed', 'cancelled'].includes(job.status)) return job;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`job ${id} did not finish`);
  };
  const upload = (body: Buffer, confirm = false, token = northwindToken) =>
    ctx.app.inject({
      method: 'POST',
      url: `/portal/subscribers/bulk/csv${confirm ? '?confirm=true' : ''}`,
      payload: body,
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });

  beforeAll(async () => {
    // A quick core network: a range change sends one HSS write per subscriber.
    ctx = await testApp(engine, { coreNetwork: { simulator: { failureRate: 0, minDelayMs: 0, maxDelayMs: 5 }, concurrency: 32 } });
    // More demo subscribers, numbered on from the seeded ones.
    const rows = [...subscriberSeedRows(await subscriberSeedContext(db()), SUBSCRIBERS)].slice(
      await db()
        .selectFrom('subscriber')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n)),
    );
    for (let i = 0; i < rows.length; i += 500) {
      const batch = rows.slice(i, i + 500);
      await db()
        .insertInto('simCard')
        .values(batch.map((r) => r.sim))
        .execute();
      const ids = await db()
        .insertInto('subscriber')
        .values(batch.map((r) => r.subscriber))
        .returning(['subscriberId', 'iccid'])
        .execute();
      const idOf = new Map(ids.map((r) => [r.iccid as string, Number(r.subscriberId)]));
      const imsis = batch.flatMap((r) => r.sponsorImsis.map((s) => ({ ...s, subscriberId: idOf.get(String(r.sim.iccid))! })));
      if (imsis.length) await db().insertInto('sponsorImsi').values(imsis).execute();
    }
    [admin, bluesky, harbor] = await Promise.all(['admin', 'bluesky', 'harbor'].map((u) => ctx.as(u)));
    northwindToken = await ctx.login('northwind');
    northwind = ctx.client(northwindToken);
    nw = (await q(sql`select subscriber_id as id from subscriber s join reseller r on r.id = s.reseller_id where r.path like '/-1/1/%' order by 1`)).map(
      (r) => r.id,
    );
    profiles = await q(sql`select id, name, slots, reseller_id, review_state from roaming_profile order by id`);
  }, 120000);
  afterAll(async () => ctx?.close());

  describe('roaming profile of a range', () => {
    it('changes exactly 1000 subscribers in one go, each with an audit entry, and refuses 1001 naming the rule', async () => {
      const dual = profiles.find((p) => p.name === 'Global dual IMSI')!;
      await sql`update roaming_profile set review_state = 'approved' where id = ${dual.id}`.execute(ctx.db);
      expect(nw.length).toBeGreaterThan(1001);
      const body = (end: number) => ({ roamingProfileId: dual.id, range: { rangeStart: nw[0], rangeEnd: end } });

      const tooMany = await northwind.post('/portal/subscribers/roaming-profile', body(nw[1000]));
      expect(tooMany.statusCode).toBe(400);
      expect(fields(tooMany)).toEqual([{ field: 'range', rule: 'maximum', messageId: 'validation.range.max' }]);
      expect(tooMany.json().fields[0].message).toBe('A range change covers at most 1000 subscribers');
      expect(Number((await q(sql`select count(*) as n from subscriber where roaming_profile_id = ${dual.id}`))[0].n)).toBe(0);

      const ok = await northwind.post('/portal/subscribers/roaming-profile', body(nw[999]));
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ roamingProfileId: dual.id, total: 1000, changed: 1000, unchanged: 0 });
      const onIt = (await q(sql`select subscriber_id as id from subscriber where roaming_profile_id = ${dual.id} order by 1`)).map((r) => r.id);
      expect(onIt).toEqual(nw.slice(0, 1000));
      expect(await auditCount(nw.slice(0, 1000), 'roaming-profile')).toBe(1000);
      const [entry] = await q(sql`select username, before, after from subscriber_audit where subscriber_id = ${nw[0]} and action = 'roaming-profile'`);
      expect(entry.username).toBe('northwind');
      expect(typeof entry.after === 'string' ? JSON.parse(entry.after) : entry.after).toEqual({ roamingProfileId: dual.id });
      // Only subscribers on the source profile count: none past the 1000 are on it.
      const europe = profiles.find((p) => p.name === 'Europe IoT')!;
      const back = await northwind.post('/portal/subscribers/roaming-profile', {
        roamingProfileId: europe.id,
        range: { rangeStart: nw[1000], rangeEnd: nw[1010] },
        sourceRoamingProfileId: dual.id,
      });
      expect(back.statusCode).toBe(400);
      expect(fields(back)).toEqual([{ field: 'range', rule: 'empty', messageId: 'validation.range.empty' }]);
    });

    it('refuses a single-IMSI profile for multi-IMSI subscribers, naming them, and changes none of the range', async () => {
      const europe = profiles.find((p) => p.name === 'Europe IoT')!;
      const range = nw.slice(1100, 1120);
      const multi = (await q(sql`select distinct subscriber_id as id from sponsor_imsi where subscriber_id in (${sql.join(range)}) order by 1`)).map(
        (r) => r.id,
      );
      expect(multi.length).toBeGreaterThan(0);
      const before = await q(sql`select subscriber_id, roaming_profile_id from subscriber where subscriber_id in (${sql.join(range)}) order by 1`);
      const res = await northwind.post('/portal/subscribers/roaming-profile', {
        roamingProfileId: europe.id,
        range: { rangeStart: range[0], rangeEnd: range.at(-1) },
      });
      expect(res.statusCode).toBe(400);
      const [field] = res.json().fields;
      expect(field).toMatchObject({
        field: 'roamingProfileId',
        rule: 'singleImsi',
        messageId: 'validation.roamingProfile.singleImsi',
        count: multi.length,
        subscriberIds: multi,
      });
      expect(field.message).toBe('A multi-IMSI subscriber cannot be changed to a single-IMSI profile');
      expect(await q(sql`select subscriber_id, roaming_profile_id from subscriber where subscriber_id in (${sql.join(range)}) order by 1`)).toEqual(before);
      expect(await auditCount(range)).toBe(0);
    });

    it("changes all or nothing when the database fails midway; only approved profiles, only the caller's subscribers, ICCID and IMSI ranges", async () => {
      const europe = profiles.find((p) => p.name === 'Europe IoT')!;
      // Five subscribers in a row, all Northwind's, made single-IMSI.
      const from = nw.findIndex((id, i) => i >= 1200 && nw[i + 4] === id + 4);
      const contiguous = nw.slice(from, from + 5);
      await sql`delete from sponsor_imsi where subscriber_id in (${sql.join(contiguous)})`.execute(ctx.db);
      const run = await q(sql`select subscriber_id as id, iccid, imsi from subscriber where subscriber_id in (${sql.join(contiguous)}) order by 1`);
      // ICCIDs and IMSIs follow subscriber ids in the demo numbering.
      expect(run.map((r) => r.iccid)).toEqual([...run.map((r) => r.iccid)].sort());
      await sql`update subscriber set roaming_profile_id = null where subscriber_id in (${sql.join(contiguous)})`.execute(ctx.db);
      await sql
        .raw(
          `create function fail_bulk_test() returns trigger language plpgsql as $$ begin
        if new.subscriber_id = ${run[3].id} then raise exception 'disk full'; end if; return new; end $$`,
        )
        .execute(ctx.db);
      await sql`create trigger fail_bulk_test before update on subscriber for each row execute function fail_bulk_test()`.execute(ctx.db);
      const body = { roamingProfileId: europe.id, range: { rangeStart: run[0].id, rangeEnd: run[4].id } };
      try {
        const failed = await northwind.post('/portal/subscribers/roaming-profile', body);
        expect(failed.statusCode).toBe(500);
      } finally {
        await sql`drop trigger fail_bulk_test on subscriber`.execute(ctx.db);
        await sql`drop function fail_bulk_test()`.execute(ctx.db);
      }
      expect(
        (await q(sql`select roaming_profile_id from subscriber where subscriber_id in (${sql.join(contiguous)})`)).every((r) => r.roamingProfileId === null),
      ).toBe(true);
      expect(await auditCount(contiguous)).toBe(0);

      const pending = profiles.find((p) => p.reviewState !== 'approved' && p.name !== 'Global dual IMSI');
      if (pending)
        expect(fields(await northwind.post('/portal/subscribers/roaming-profile', { ...body, roamingProfileId: pending.id }))[0].rule).toBe('approved');
      await sql`update roaming_profile set review_state = 'pending' where id = ${europe.id}`.execute(ctx.db);
      expect(fields(await northwind.post('/portal/subscribers/roaming-profile', body))).toEqual([
        { field: 'roamingProfileId', rule: 'approved', messageId: 'validation.roamingProfile.notApproved' },
      ]);
      await sql`update roaming_profile set review_state = 'approved' where id = ${europe.id}`.execute(ctx.db);
      const americas = profiles.find((p) => p.name === 'Americas')!;
      expect(fields(await northwind.post('/portal/subscribers/roaming-profile', { ...body, roamingProfileId: americas.id }))[0]).toMatchObject({
        field: 'roamingProfileId',
        rule: 'exists',
      });
      // Another reseller's range: none of its subscribers, nothing confirmed.
      expect(fields(await bluesky.post('/portal/subscribers/roaming-profile', { roamingProfileId: americas.id, range: body.range }))).toEqual([
        { field: 'range', rule: 'empty', messageId: 'validation.range.empty' },
      ]);
      expect(
        fields(await northwind.post('/portal/subscribers/roaming-profile', { roamingProfileId: europe.id, range: { rangeStart: 5, rangeEnd: 2 } })),
      ).toEqual([{ field: 'range.rangeEnd', rule: 'order', messageId: 'validation.range.order' }]);
      expect(
        fields(await northwind.post('/portal/subscribers/roaming-profile', { roamingProfileId: europe.id, range: { rangeStart: '1' }, rangeType: 'ICCID' })),
      ).toEqual([
        { field: 'range.rangeStart', rule: 'pattern', messageId: 'validation.iccid.invalid' },
        { field: 'range.rangeEnd', rule: 'required', messageId: 'validation.range.required' },
      ]);
      expect(
        fields(await northwind.post('/portal/subscribers/roaming-profile', { roamingProfileId: europe.id, range: body.range, rangeType: 'MSISDN' }))[0],
      ).toMatchObject({ field: 'rangeType', rule: 'enum' });

      const byIccid = await northwind.post('/portal/subscribers/roaming-profile', {
        roamingProfileId: europe.id,
        range: { rangeStart: run[0].iccid, rangeEnd: run[2].iccid },
        rangeType: 'ICCID',
      });
      expect(byIccid.statusCode, byIccid.body).toBe(200);
      const iccidIds = contiguous.slice(0, contiguous.indexOf(run[2].id) + 1);
      expect(byIccid.json()).toMatchObject({ total: iccidIds.length, changed: iccidIds.length });
      const byImsi = await northwind.post('/portal/subscribers/roaming-profile', {
        roamingProfileId: europe.id,
        range: { rangeStart: run[3].imsi, rangeEnd: run[4].imsi },
        rangeType: 'IMSI',
      });
      expect(byImsi.json()).toMatchObject({ changed: 2 });
      expect(
        (await q(sql`select roaming_profile_id from subscriber where subscriber_id in (${sql.join(contiguous)})`)).every(
          (r) => r.roamingProfileId === europe.id,
        ),
      ).toBe(true);
      await ctx.app.coreNetwork.idle();
      expect(
        Number(
          (await q(sql`select count(*) as n from network_event where operation = 'updateHssProfile' and subscriber_id in (${sql.join(contiguous)})`))[0].n,
        ),
      ).toBe(contiguous.length);
    });
  });

  describe('move', () => {
    it('moves subscribers to another visible account with its reseller, all or none, audited; needs MoveSubscribers', async () => {
      const accounts = await q(sql`select a.account_id as id, a.reseller_id, a.name from account a where not a.inventory_account order by 1`);
      const meridian = accounts.find((a) => a.name === 'Meridian Fleet')!; // Northwind Mobile
      const alpine = accounts.find((a) => a.name === 'Alpine Sensors')!; // Northwind IoT
      const cedar = accounts.find((a) => a.name === 'Cedar Health')!; // Blue Sky
      // Down the tree: Northwind Mobile's plan and profile stay usable under Northwind IoT.
      const ids = (await q(sql`select subscriber_id as id from subscriber where account_id = ${meridian.id} order by 1 limit 2`)).map((r) => r.id);
      const res = await northwind.post('/portal/subscribers/move', { accountId: alpine.id, subscriberIds: ids });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ accountId: alpine.id, changed: 2 });
      const moved = await q(
        sql`select s.account_id, s.reseller_id, c.reseller_id as sim_reseller from subscriber s join sim_card c using (iccid) where subscriber_id in (${sql.join(ids)})`,
      );
      expect(moved.every((m) => m.accountId === alpine.id && m.resellerId === alpine.resellerId && m.simReseller === alpine.resellerId)).toBe(true);
      const [entry] = await q(sql`select after from subscriber_audit where subscriber_id = ${ids[0]} and action = 'move'`);
      expect(typeof entry.after === 'string' ? JSON.parse(entry.after) : entry.after).toEqual({ accountId: alpine.id, resellerId: alpine.resellerId });

      // Up the tree: Northwind IoT's own plan or profile cannot follow; one such subscriber stops the whole move.
      const other = (
        await q(sql`select subscriber_id as id from subscriber where account_id = ${alpine.id} and subscriber_id not in (${sql.join(ids)}) order by 1 limit 2`)
      ).map((r) => r.id);
      await sql`update subscriber set pricing_plan_id = null, roaming_profile_id = null where subscriber_id = ${other[0]}`.execute(ctx.db);
      const kept = (await q(sql`select pricing_plan_id, roaming_profile_id from subscriber where subscriber_id = ${other[1]}`))[0];
      expect(kept.pricingPlanId ?? kept.roamingProfileId).not.toBeNull();
      const audited = await auditCount(other);
      const mixed = await northwind.post('/portal/subscribers/move', { accountId: meridian.id, subscriberIds: other });
      expect(mixed.statusCode).toBe(400);
      expect(mixed.json().fields).toEqual([expect.objectContaining({ field: 'subscriberIds', rule: 'outsideReseller', subscriberIds: [other[1]], count: 1 })]);
      expect((await q(sql`select account_id from subscriber where subscriber_id in (${sql.join(other)})`)).every((r) => r.accountId === alpine.id)).toBe(true);
      expect(await auditCount(other)).toBe(audited);
      expect(fields(await northwind.post('/portal/subscribers/move', { accountId: cedar.id, subscriberIds: other }))).toEqual([
        { field: 'accountId', rule: 'exists', messageId: 'validation.move.account' },
      ]);
      expect((await harbor.post('/portal/subscribers/move', { accountId: meridian.id, subscriberIds: other })).statusCode).toBe(403);
      const foreign = (await q(sql`select subscriber_id as id from subscriber where account_id = ${cedar.id} limit 1`))[0].id;
      const stolen = await northwind.post('/portal/subscribers/move', { accountId: meridian.id, subscriberIds: [foreign] });
      expect(stolen.json().fields[0]).toMatchObject({ rule: 'notFound', subscriberIds: [foreign] });
      expect((await q(sql`select account_id from subscriber where subscriber_id = ${foreign}`))[0].accountId).toBe(cedar.id);
      expect(fields(await northwind.post('/portal/subscribers/move', { accountId: meridian.id }))).toEqual([
        { field: 'subscriberIds', rule: 'oneOf', messageId: 'validation.move.selection' },
      ]);
    });
  });

  describe('migration', () => {
    it('a range goes pending at once, then success or error one by one through the migration adapter', async () => {
      // Three subscribers in a row, all Northwind's.
      const from = nw.findIndex((id, i) => i >= 1400 && nw[i + 2] === id + 2);
      const ids = nw.slice(from, from + 3);
      await ctx.app.jobs.stop();
      let jobId: number;
      try {
        const res = await northwind.post('/portal/summa/subscriber-migration/range', { rangeStart: ids[0], rangeEnd: ids[2] });
        expect(res.statusCode, res.body).toBe(202);
        expect(res.json()).toMatchObject({ total: 3, migrationStatus: 'pending', subscriberIds: ids });
        jobId = res.json().jobId;
        for (const id of ids) expect((await northwind.get(`/portal/summa/subscriber-migration/${id}`)).json().migrationStatus).toBe('pending');
      } finally {
        ctx.app.migration.simulator!.failNext(1, 'target platform: IMSI range unknown');
        ctx.app.jobs.start();
      }
      // The platform's refusal is the job's failure, with its words; the subscriber keeps its error status.
      expect(await waitFor(jobId)).toMatchObject({ status: 'done', total: 3, succeeded: 2, failed: 1, skipped: 0, kind: 'subscribers.migrate' });
      expect((await northwind.get(`/portal/jobs/${jobId}/items`)).json().items).toEqual([
        expect.objectContaining({ key: String(ids[0]), messageId: 'job.reason.migrationRefused', detail: 'target platform: IMSI range unknown' }),
      ]);
      const statuses = await Promise.all(ids.map(async (id) => (await northwind.get(`/portal/summa/subscriber-migration/${id}`)).json().migrationStatus));
      expect(statuses).toEqual(['error', 'success', 'success']);
      const [entry] = await q(sql`select after from subscriber_audit where subscriber_id = ${ids[0]} and action = 'migration' order by id desc limit 1`);
      expect(typeof entry.after === 'string' ? JSON.parse(entry.after) : entry.after).toEqual({
        migrationStatus: 'error',
        migrationError: 'target platform: IMSI range unknown',
      });
      expect(ctx.app.migration.simulator!.received.map((r) => r.subscriberId)).toEqual(ids);
      // The retry migrates the refused one again: pending at once, then its answer.
      const retry = await northwind.post(`/portal/jobs/${jobId}/retry`);
      expect(retry.statusCode, retry.body).toBe(202);
      expect(retry.json()).toMatchObject({ total: 1, leftOut: 0 });
      expect(await waitFor(retry.json().jobId)).toMatchObject({ status: 'done', total: 1, succeeded: 1, failed: 0, retryOf: jobId });
      expect((await northwind.get(`/portal/summa/subscriber-migration/${ids[0]}`)).json().migrationStatus).toBe('success');
      expect(ctx.app.migration.simulator!.received.map((r) => r.subscriberId)).toEqual([...ids, ids[0]]);
      expect(fields(await bluesky.post('/portal/summa/subscriber-migration/range', { rangeStart: ids[0], rangeEnd: ids[2] }))).toEqual([
        { field: 'range', rule: 'empty', messageId: 'validation.range.empty' },
      ]);
      expect((await harbor.post('/portal/summa/subscriber-migration/range', { rangeStart: 1, rangeEnd: 2 })).statusCode).toBe(403);
      expect(fields(await northwind.post('/portal/summa/subscriber-migration/range', { rangeStart: 1 }))).toEqual([
        { field: 'rangeEnd', rule: 'required', messageId: 'validation.range.required' },
      ]);
    });
  });

  describe('bulk actions', () => {
    it("previews counts per reason and the first rows, writing nothing; covers the grid's search", async () => {
      const harborAccount = (await q(sql`select account_id as id from account where name = 'Harbor Logistics'`))[0].id;
      const subs = await q(sql`select subscriber_id as id, daily_limit_bytes, qos_throttling from subscriber where account_id = ${harborAccount} order by 1`);
      const noLimit = subs.filter((s) => s.dailyLimitBytes === null).length;
      const already = subs.filter((s) => s.dailyLimitBytes !== null && s.qosThrottling === '64kbps').length;
      const ids = subs.map((s) => s.id);
      const audits = await auditCount(ids);
      const res = await northwind.post('/portal/subscribers/bulk/preview', {
        action: 'qos',
        params: { qosThrottling: '64kbps' },
        selection: { search: { searchBy: 'accountId', searchKey: String(harborAccount) } },
      });
      expect(res.statusCode, res.body).toBe(200);
      const preview = res.json();
      expect(preview).toMatchObject({ action: 'qos', total: subs.length, willChange: subs.length - noLimit - already });
      expect(preview.reasons).toEqual(
        expect.arrayContaining([
          ...(noLimit ? [{ messageId: 'bulk.reason.noDailyLimit', message: 'The subscriber has no daily limit to throttle at', count: noLimit }] : []),
          ...(already ? [{ messageId: 'bulk.reason.unchanged', message: 'Already so: nothing to change', count: already }] : []),
        ]),
      );
      expect(preview.rows.length).toBe(Math.min(50, noLimit + already));
      expect(await auditCount(ids)).toBe(audits);

      const foreign = (await q(sql`select subscriber_id as id from subscriber where reseller_id = 3 limit 2`)).map((r) => r.id);
      const mixed = (
        await northwind.post('/portal/subscribers/bulk/preview', {
          action: 'group-name',
          params: { groupName: 'Night shift' },
          selection: { ids: [...foreign, ids[0]] },
        })
      ).json();
      expect(mixed).toMatchObject({ total: 3, willChange: 1, reasons: [{ messageId: 'error.notFound', count: 2 }] });
      // A one-slot profile: the multi-IMSI subscribers are counted apart, with their reason.
      const europe = profiles.find((p) => p.name === 'Europe IoT')!;
      const multi = Number((await q(sql`select count(distinct subscriber_id) as n from sponsor_imsi where subscriber_id in (${sql.join(ids)})`))[0].n);
      const single = (
        await northwind.post('/portal/subscribers/bulk/preview', { action: 'roaming-profile', params: { roamingProfileId: europe.id }, selection: { ids } })
      ).json();
      expect(multi).toBeGreaterThan(0);
      expect(single.reasons).toContainEqual({
        messageId: 'validation.roamingProfile.singleImsi',
        message: 'A multi-IMSI subscriber cannot be changed to a single-IMSI profile',
        count: multi,
      });
      expect(await auditCount(ids)).toBe(audits);
      expect(fields(await northwind.post('/portal/subscribers/bulk/preview', { action: 'teleport', selection: { ids } }))).toEqual([
        { field: 'action', rule: 'enum', messageId: 'validation.bulk.action' },
      ]);
      expect(
        fields(await northwind.post('/portal/subscribers/bulk/preview', { action: 'daily-limit', params: { dailyLimitBytes: 0 }, selection: { ids } })),
      ).toEqual([{ field: 'params.dailyLimitBytes', rule: 'exclusiveMinimum', messageId: 'validation.dailyLimit.positive' }]);
      // A limit of several gigabytes is a usual one: beyond an id's range, within the bigint column's.
      expect(
        (await northwind.post('/portal/subscribers/bulk/preview', { action: 'daily-limit', params: { dailyLimitBytes: 5 * 1024 ** 3 }, selection: { ids } }))
          .statusCode,
      ).toBe(200);
      expect(fields(await northwind.post('/portal/subscribers/bulk/preview', { action: 'suspend', selection: {} }))).toEqual([
        { field: 'selection', rule: 'oneOf', messageId: 'validation.bulk.selection' },
      ]);
      expect(
        fields(
          await northwind.post('/portal/subscribers/bulk/preview', { action: 'suspend', selection: { search: { searchBy: 'colour', searchKey: 'x' } } }),
        )[0].field,
      ).toMatch(/^selection\.search\./);
      // A role without the Status panel cannot suspend in bulk; daily limits need only Subscribers.
      expect((await harbor.post('/portal/subscribers/bulk/preview', { action: 'suspend', selection: { ids } })).statusCode).toBe(403);
      expect(
        (await harbor.post('/portal/subscribers/bulk/preview', { action: 'move', params: { accountId: harborAccount }, selection: { ids } })).statusCode,
      ).toBe(403);
      expect(
        (await harbor.post('/portal/subscribers/bulk/preview', { action: 'daily-limit', params: { dailyLimitBytes: 5 }, selection: { ids } })).statusCode,
      ).toBe(200);
    });

    it("refuses a plan or profile of a reseller above the caller, as a single subscriber's change does, and writes nothing", async () => {
      const [plan] = await q(sql`insert into pricing_plan (name, reseller_id) values ('Provider wholesale for bulk', -1) returning id`);
      const [profile] = await q(
        sql`insert into roaming_profile (name, reference, slots, reseller_id, review_state) values ('Provider only for bulk', 'PROV-BULK-1', 1, -1, 'approved') returning id`,
      );
      const ids = nw.slice(0, 3);
      const before = await q(
        sql`select subscriber_id, pricing_plan_id, roaming_profile_id from subscriber where subscriber_id in (${sql.join(ids)}) order by 1`,
      );
      for (const [action, params, field, messageId] of [
        ['pricing-plan', { pricingPlanId: plan.id }, 'params.pricingPlanId', 'validation.pricingPlan.unknown'],
        ['roaming-profile', { roamingProfileId: profile.id }, 'params.roamingProfileId', 'validation.roamingProfile.unknown'],
      ] as const) {
        for (const path of ['/portal/subscribers/bulk/preview', '/portal/subscribers/bulk']) {
          const res = await northwind.post(path, { action, params, selection: { ids } });
          expect(res.statusCode, res.body).toBe(400);
          expect(fields(res)).toEqual([{ field, rule: 'exists', messageId }]);
        }
      }
      expect(
        await q(sql`select subscriber_id, pricing_plan_id, roaming_profile_id from subscriber where subscriber_id in (${sql.join(ids)}) order by 1`),
      ).toEqual(before);
      // The administrator may.
      expect(
        (await admin.post('/portal/subscribers/bulk/preview', { action: 'pricing-plan', params: { pricingPlanId: plan.id }, selection: { ids } })).statusCode,
      ).toBe(200);
      await q(sql`delete from roaming_profile where id = ${profile.id}`);
      await q(sql`delete from pricing_plan where id = ${plan.id}`);
    });

    it('runs a job whose failures keep their reason; suspends through the core network', async () => {
      const ids = (
        await q(
          sql`select subscriber_id as id from subscriber where subscriber_id in (${sql.join(nw.slice(1500, 1540))}) and status = 'active' order by 1 limit 3`,
        )
      ).map((r) => r.id);
      const foreign = (await q(sql`select subscriber_id as id from subscriber where reseller_id = 3 limit 1`))[0].id;
      const res = await northwind.post('/portal/subscribers/bulk', { action: 'suspend', selection: { ids: [...ids, foreign] } });
      expect(res.statusCode, res.body).toBe(202);
      const job = await waitFor(res.json().jobId);
      expect(job).toMatchObject({
        kind: 'subscribers.bulk',
        status: 'done',
        total: 4,
        succeeded: 3,
        failed: 1,
        skipped: 0,
        waiting: 0,
        params: { action: 'suspend' },
      });
      const failures = await northwind.get(`/portal/jobs/${job.id}/failures`);
      expect(failures.body).toContain(`${foreign},Not found,`);
      await ctx.app.coreNetwork.idle();
      expect((await q(sql`select status from subscriber where subscriber_id in (${sql.join(ids)})`)).every((r) => r.status === 'suspended')).toBe(true);
      expect(await auditCount(ids, 'suspend')).toBe(3);
      expect((await q(sql`select status from subscriber where subscriber_id = ${foreign}`))[0].status).toBe('active');
      expect((await bluesky.get(`/portal/jobs/${job.id}`)).statusCode).toBe(404);
    });

    it('resumes after a restart without applying any subscriber twice', async () => {
      const ids = nw.slice(1600, 1612);
      const limit = 123456789;
      await ctx.app.jobs.stop();
      const res = await northwind.post('/portal/subscribers/bulk', {
        action: 'daily-limit',
        params: { dailyLimitBytes: limit, qosThrottling: '128kbps' },
        selection: { ids },
      });
      expect(res.statusCode, res.body).toBe(202);
      const id = res.json().jobId;
      const kind = bulkJobKind(ctx.db, ctx.app);
      const job = (await q(sql`select id, kind, user_id, reseller_id, params from job where id = ${id}`))[0];
      const record = {
        id,
        kind: job.kind,
        userId: job.userId,
        resellerId: job.resellerId,
        params: typeof job.params === 'string' ? JSON.parse(job.params) : job.params,
      };
      // The state a crash leaves: the first chunk committed, the next one applied in a transaction that never committed.
      await ctx.db.transaction().execute(async (trx) => {
        for (const key of ids.slice(0, 5)) await kind.apply(trx, String(key), record, () => {});
        await trx.updateTable('jobItem').set({ status: 'done' }).where('jobId', '=', id).where('seq', '<', 5).execute();
        await trx
          .updateTable('job')
          .set({ status: 'running', succeeded: 5, leaseOwner: 'gone', leaseUntil: sql`now() - interval '1 second'` })
          .where('id', '=', id)
          .execute();
      });
      await expect(
        ctx.db.transaction().execute(async (trx) => {
          for (const key of ids.slice(5, 8)) await kind.apply(trx, String(key), record, () => {});
          throw new Error('server stopped');
        }),
      ).rejects.toThrow('server stopped');
      // Applying an item a second time changes nothing and writes no second entry.
      await ctx.db.transaction().execute(async (trx) => kind.apply(trx, String(ids[0]), record, () => {}));
      expect(await auditCount(ids, 'daily-limit')).toBe(5);

      ctx.app.jobs.start();
      expect(await waitFor(id)).toMatchObject({ status: 'done', total: 12, succeeded: 12, failed: 0 });
      const rows = await q(sql`select daily_limit_bytes, qos_throttling from subscriber where subscriber_id in (${sql.join(ids)})`);
      expect(rows.every((r) => Number(r.dailyLimitBytes) === limit && r.qosThrottling === '128kbps')).toBe(true);
      for (const sub of ids) expect(await auditCount([sub], 'daily-limit'), `subscriber ${sub}`).toBe(1);
    });
  });

  describe('the caller of a job', () => {
    it('applies nothing for a user disabled after the job was queued', async () => {
      const ids = nw.slice(1700, 1706);
      const role = await ctx.db
        .insertInto('role')
        .values({
          name: 'Bulk clerk',
          resellerId: 1,
          privileges: JSON.stringify([
            { privilege: 'Subscribers', subPrivileges: [] },
            { privilege: 'SubscriberDetails', subPrivileges: ['Status', 'GroupName'] },
          ]),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { hashPassword } = await import('@server/domains/auth/password');
      await ctx.db
        .insertInto('appUser')
        .values({
          username: 'bulk-clerk',
          email: 'bulk-clerk@demo.example',
          passwordHash: await hashPassword('Clerk@2026x'),
          firstName: null,
          lastName: null,
          resellerId: 1,
          accountId: null,
          roleId: role.id,
          preferences: null,
        })
        .execute();
      const clerk = ctx.client(await ctx.login('bulk-clerk', 'Clerk@2026x'));
      await ctx.app.jobs.stop();
      const res = await clerk.post('/portal/subscribers/bulk', { action: 'group-name', params: { groupName: 'Clerk group' }, selection: { ids } });
      expect(res.statusCode, res.body).toBe(202);
      await ctx.db.updateTable('appUser').set({ disabled: true }).where('username', '=', 'bulk-clerk').execute();
      ctx.app.jobs.start();
      const job = await waitFor(res.json().jobId, admin);
      expect(job).toMatchObject({ status: 'failed', succeeded: 0 });
      const groups = await q(sql`select group_name from subscriber where subscriber_id in (${sql.join(ids)})`);
      expect(groups.every((r) => r.groupName !== 'Clerk group')).toBe(true);
    });
  });

  describe('a chunk applied at once', () => {
    it('gives the same changes, audit entries, operation records and failures as one subscriber at a time', async () => {
      const kind = bulkJobKind(ctx.db, ctx.app);
      // One kind that can only apply whole chunks (applying one by one would fail every item), one that never does.
      ctx.app.jobs.register('test.bulk-chunk', {
        apply: async () => {
          throw new Error('applied one by one');
        },
        applyChunk: kind.applyChunk,
      });
      ctx.app.jobs.register('test.bulk-each', { apply: kind.apply });
      const user = (await q(sql`select id, reseller_id from app_user where username = 'northwind'`))[0];
      const accounts = await q(sql`select account_id as id, reseller_id, name from account where name in ('Meridian Fleet', 'Alpine Sensors')`);
      const meridian = accounts.find((a) => a.name === 'Meridian Fleet')!;
      const alpine = accounts.find((a) => a.name === 'Alpine Sensors')!;
      const foreign = (await q(sql`select subscriber_id as id from subscriber where reseller_id = 3 order by 1 limit 2`)).map((r) => r.id);
      const pool = nw.slice(1750, 1850);
      let taken = 0;
      const at = (id: number, set: ReturnType<typeof sql>) => sql`update subscriber set ${set} where subscriber_id = ${id}`.execute(ctx.db);
      type Setup = (id: number) => Promise<unknown>;
      const active: Setup = (id) => at(id, sql`status = 'active'`);
      const inAccount = async (id: number, account: Row) => {
        await at(id, sql`account_id = ${account.id}, reseller_id = ${account.resellerId}, pricing_plan_id = null, roaming_profile_id = null`);
        await sql`update sim_card set reseller_id = ${account.resellerId} where iccid = (select iccid from subscriber where subscriber_id = ${id})`.execute(
          ctx.db,
        );
      };
      // Each action with the subscriber fields it changes and the subscribers it meets, by how they are set up.
      const cases: { action: string; params: Body; fields: string[]; roles: Record<string, Setup> }[] = [
        {
          action: 'qos',
          params: { qosThrottling: '64kbps' },
          fields: ['dailyLimitBytes', 'qosThrottling'],
          roles: {
            change: (id) => at(id, sql`daily_limit_bytes = 1000, qos_throttling = '128kbps'`),
            unchanged: (id) => at(id, sql`daily_limit_bytes = 1000, qos_throttling = '64kbps'`),
            noLimit: (id) => at(id, sql`daily_limit_bytes = null, qos_throttling = null`),
          },
        },
        {
          action: 'daily-limit',
          params: { dailyLimitBytes: 5000 },
          fields: ['dailyLimitBytes', 'qosThrottling'],
          roles: {
            blocked: (id) => at(id, sql`daily_limit_bytes = 10, qos_throttling = null`),
            throttled: (id) => at(id, sql`daily_limit_bytes = 10, qos_throttling = '128kbps'`),
            unchanged: (id) => at(id, sql`daily_limit_bytes = 5000, qos_throttling = '128kbps'`),
          },
        },
        {
          action: 'group-name',
          params: { groupName: ' Night shift ' },
          fields: ['groupName'],
          roles: {
            named: (id) => at(id, sql`group_name = 'Day shift'`),
            unnamed: (id) => at(id, sql`group_name = null`),
            unchanged: (id) => at(id, sql`group_name = 'Night shift'`),
          },
        },
        {
          action: 'move',
          params: { accountId: meridian.id },
          fields: ['accountId', 'resellerId', 'simReseller'],
          roles: {
            change: (id) => inAccount(id, alpine),
            unchanged: (id) => inAccount(id, meridian),
          },
        },
        {
          action: 'suspend',
          params: {},
          fields: ['status', 'simStatus'],
          roles: {
            change: active,
            unchanged: (id) => at(id, sql`status = 'suspended'`),
            another: active,
            pending: async (id) => {
              await active(id);
              await sql`insert into subscriber_operation (subscriber_id, operation, status, username) values (${id}, 'refresh-sim', 'pending', 'northwind')`.execute(
                ctx.db,
              );
            },
          },
        },
      ];
      const state = async (id: number, fields?: string[]) => {
        const [sub] =
          await q(sql`select s.status, s.daily_limit_bytes, s.qos_throttling, s.group_name, s.account_id, s.reseller_id, c.status as sim_status, c.reseller_id as sim_reseller
          from subscriber s join sim_card c using (iccid) where s.subscriber_id = ${id}`);
        const audit = await q(sql`select action, username, before, after from subscriber_audit where subscriber_id = ${id} order by id`);
        const ops = await q(sql`select operation, status, request, username, message_id from subscriber_operation where subscriber_id = ${id} order by id`);
        const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
        // The job's own id is the one difference the records may show.
        const request = (r: unknown) => JSON.parse(JSON.stringify(json(r) ?? {}).replace(/job:\d+/, 'job'));
        return {
          sub: fields ? Object.fromEntries(fields.map((f) => [f, sub[f]])) : sub,
          audit: audit.map((a) => ({ ...a, before: json(a.before), after: json(a.after) })),
          ops: ops.map((o) => ({ ...o, request: request(o.request) })),
        };
      };

      const chunkIds: Record<string, number[]> = {};
      for (const { action, params, fields: changes, roles } of cases) {
        const names = Object.keys(roles);
        const runs = [];
        for (const kindName of ['test.bulk-chunk', 'test.bulk-each']) {
          const ids = names.map(() => pool[taken++]);
          expect(ids.every(Boolean)).toBe(true);
          await sql`delete from subscriber_operation where subscriber_id in (${sql.join(ids)}) and status = 'pending'`.execute(ctx.db);
          for (const [i, name] of names.entries()) await roles[name](ids[i]);
          const keys = [...ids, foreign[runs.length]].map(String);
          const auditBefore = await auditCount(ids);
          const id = await ctx.app.jobs.enqueue({ kind: kindName, userId: user.id, resellerId: user.resellerId, keys, params: { action, params } });
          const job = await waitFor(id);
          await ctx.app.coreNetwork.idle();
          const items = await q(sql`select key, status, error from job_item where job_id = ${id} order by seq`);
          const states = [];
          for (const sub of ids) states.push(await state(sub, changes));
          runs.push({ job, ids, auditBefore, items: items.map((i) => ({ status: i.status, error: i.error })), states });
        }
        const [chunk, each] = runs;
        chunkIds[action] = chunk.ids;
        expect(chunk.job, action).toMatchObject({
          status: 'done',
          total: each.job.total,
          succeeded: each.job.succeeded,
          failed: each.job.failed,
          skipped: each.job.skipped,
        });
        expect(chunk.items, action).toEqual(each.items);
        expect(chunk.states, action).toEqual(each.states);
        // What each run did: one entry per subscriber that changed, none for the others, the refused with their reason.
        expect(chunk.items.at(-1), action).toEqual({ status: 'failed', error: englishText('error.notFound') });
        const changed = names.filter((n) => n !== 'unchanged' && n !== 'noLimit' && n !== 'pending');
        expect((await auditCount(chunk.ids)) - chunk.auditBefore, action).toBe(changed.length);
        for (const [i, name] of names.entries()) {
          const audit = chunk.states[i].audit;
          if (changed.includes(name)) expect(audit.at(-1), `${action} ${name}`).toMatchObject({ action, username: 'northwind' });
        }
      }
      // The reasons, as the job's failures list them.
      const failures = await q(
        sql`select j.params->>'action' as action, i.error from job_item i join job j on j.id = i.job_id where j.kind = 'test.bulk-chunk' and i.status = 'failed' and i.key <> all(${foreign.map(String)}) order by j.id, i.seq`,
      );
      expect(failures).toEqual([
        { action: 'qos', error: englishText('bulk.reason.noDailyLimit') },
        { action: 'suspend', error: englishText('error.operation.pending') },
      ]);
      // The audit content itself, for a limit with the default throttling, a cleared group and a suspend confirmed by the network.
      const auditOf = async (action: string, role: string) =>
        (await state(chunkIds[action][Object.keys(cases.find((c) => c.action === action)!.roles).indexOf(role)])).audit.at(-1);
      expect(await auditOf('daily-limit', 'blocked')).toMatchObject({
        before: { dailyLimitBytes: 10, qosThrottling: null },
        after: { dailyLimitBytes: 5000, qosThrottling: 'BLOCK' },
      });
      expect(await auditOf('daily-limit', 'throttled')).toEqual({
        action: 'daily-limit',
        username: 'northwind',
        before: { dailyLimitBytes: 10 },
        after: { dailyLimitBytes: 5000 },
      });
      expect(await auditOf('group-name', 'unnamed')).toMatchObject({ before: { groupName: null }, after: { groupName: 'Night shift' } });
      expect(await auditOf('move', 'change')).toMatchObject({ after: { accountId: meridian.id, resellerId: meridian.resellerId } });
      expect((await state(chunkIds.suspend[0])).sub).toMatchObject({ status: 'suspended', simStatus: 'suspended' });
      expect(await auditOf('suspend', 'change')).toMatchObject({ action: 'suspend', before: { status: 'active' }, after: { status: 'suspended' } });
    });
  });

  describe('network answers to a bulk suspend', () => {
    it('are applied together; a failed answer leaves its subscriber, SIM card and audit log as they were', async () => {
      const ids = nw.slice(1850, 1858);
      await sql`delete from subscriber_operation where subscriber_id in (${sql.join(ids)}) and status = 'pending'`.execute(ctx.db);
      await sql`update subscriber set status = 'active' where subscriber_id in (${sql.join(ids)})`.execute(ctx.db);
      await sql`update sim_card set status = 'active' where iccid in (select iccid from subscriber where subscriber_id in (${sql.join(ids)}))`.execute(ctx.db);
      const audits = await auditCount(ids, 'suspend');
      ctx.app.coreNetwork.simulator!.failNext(3, 'Diameter 3002 DIAMETER_UNABLE_TO_DELIVER');
      const res = await northwind.post('/portal/subscribers/bulk', { action: 'suspend', selection: { ids } });
      expect(res.statusCode, res.body).toBe(202);
      // The job counts the network's answers, not the requests it sent.
      expect(await waitFor(res.json().jobId)).toMatchObject({ status: 'done', succeeded: ids.length - 3, failed: 3, skipped: 0, waiting: 0 });
      await ctx.app.coreNetwork.idle();
      const rows = await q(sql`select o.subscriber_id, o.status as op, o.message_id, o.detail, s.status, c.status as sim_status
        from subscriber_operation o join subscriber s using (subscriber_id) join sim_card c using (iccid)
        where o.subscriber_id in (${sql.join(ids)}) and o.operation = 'suspend' and o.request->>'bulk' = ${`job:${res.json().jobId}`} order by 1`);
      expect(rows).toHaveLength(ids.length);
      const failed = rows.filter((r) => r.op === 'failed');
      expect(failed).toHaveLength(3);
      for (const r of failed)
        expect(r).toMatchObject({
          messageId: 'subscriberOperation.failed.network',
          detail: 'Diameter 3002 DIAMETER_UNABLE_TO_DELIVER',
          status: 'active',
          simStatus: 'active',
        });
      for (const r of rows.filter((row) => row.op !== 'failed'))
        expect(r).toMatchObject({ op: 'success', messageId: null, status: 'suspended', simStatus: 'suspended' });
      expect((await auditCount(ids, 'suspend')) - audits).toBe(ids.length - 3);
    });
  });

  describe('honest outcomes', () => {
    /** Active subscribers of Northwind's with nothing pending, ready to suspend. */
    const readyToSuspend = async (ids: number[]) => {
      await sql`delete from subscriber_operation where subscriber_id in (${sql.join(ids)}) and status = 'pending'`.execute(ctx.db);
      await sql`update subscriber set status = 'active' where subscriber_id in (${sql.join(ids)})`.execute(ctx.db);
      await sql`update sim_card set status = 'active' where iccid in (select iccid from subscriber where subscriber_id in (${sql.join(ids)}))`.execute(ctx.db);
    };
    const items = async (jobId: number, status = 'failed', client: Client = northwind) =>
      (await client.get(`/portal/jobs/${jobId}/items?status=${status}&size=200`)).json().items as Row[];
    const statuses = async (ids: number[]) =>
      (await q(sql`select status from subscriber where subscriber_id in (${sql.join(ids)}) order by subscriber_id`)).map((r) => r.status);

    it('a bulk suspend the core network refuses for every SIM ends failed, each subscriber with its reason', async () => {
      const ids = nw.slice(1320, 1326);
      await readyToSuspend(ids);
      const audits = await auditCount(ids);
      ctx.app.coreNetwork.simulator!.failNext(ids.length, 'Diameter 5012 DIAMETER_UNABLE_TO_COMPLY');
      const res = await northwind.post('/portal/subscribers/bulk', { action: 'suspend', selection: { ids } });
      expect(res.statusCode, res.body).toBe(202);
      const job = await waitFor(res.json().jobId);
      expect(job).toMatchObject({ status: 'failed', total: ids.length, succeeded: 0, failed: ids.length, skipped: 0, waiting: 0 });
      expect((await items(job.id)).map((i) => [Number(i.key), i.messageId, i.message, i.detail])).toEqual(
        ids.map((id) => [id, 'subscriberOperation.failed.network', 'The core network refused the operation', 'Diameter 5012 DIAMETER_UNABLE_TO_COMPLY']),
      );
      expect(await statuses(ids)).toEqual(ids.map(() => 'active'));
      expect(await auditCount(ids)).toBe(audits);
    });

    it('counts a mixed run exactly; the failures CSV holds exactly the failed rows; a retry runs only those, under the same checks; audit per subscriber', async () => {
      const ids = nw.slice(1300, 1312);
      await readyToSuspend(ids);
      // 0-1 already suspended (skipped), 2 with another operation pending (failed), 3-5 refused by the network, 6-11 suspended.
      await sql`update subscriber set status = 'suspended' where subscriber_id in (${ids[0]}, ${ids[1]})`.execute(ctx.db);
      await sql`insert into subscriber_operation (subscriber_id, operation, status, username) values (${ids[2]}, 'refresh-sim', 'pending', 'northwind')`.execute(
        ctx.db,
      );
      const foreign = (await q(sql`select subscriber_id as id from subscriber where reseller_id = 3 order by 1 limit 1`))[0].id;
      const audits = await Promise.all(ids.map((id) => auditCount([id], 'suspend')));
      // Requests leave in the order of the selection: the first three sent are refused.
      ctx.app.coreNetwork.simulator!.failNext(3, 'Diameter 5012 DIAMETER_UNABLE_TO_COMPLY');
      const res = await northwind.post('/portal/subscribers/bulk', { action: 'suspend', selection: { ids: [...ids, foreign] } });
      const job = await waitFor(res.json().jobId);
      expect(job).toMatchObject({ status: 'done', total: 13, succeeded: 6, failed: 5, skipped: 2, waiting: 0 });
      await ctx.app.coreNetwork.idle();

      const failed = await items(job.id);
      expect(failed.map((i) => [i.key, i.messageId, i.detail])).toEqual([
        [String(ids[2]), 'error.operation.pending', null],
        ...ids.slice(3, 6).map((id) => [String(id), 'subscriberOperation.failed.network', 'Diameter 5012 DIAMETER_UNABLE_TO_COMPLY']),
        [String(foreign), 'error.notFound', null],
      ]);
      expect((await items(job.id, 'skipped')).map((i) => [i.key, i.messageId])).toEqual([
        [String(ids[0]), 'bulk.reason.unchanged'],
        [String(ids[1]), 'bulk.reason.unchanged'],
      ]);
      const csv = Papa.parse<string[]>((await northwind.get(`/portal/jobs/${job.id}/failures`)).body.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
      expect(csv).toEqual([['key', 'error', 'detail'], ...failed.map((i) => [i.key, i.message, i.detail ?? ''])]);
      expect(await statuses(ids)).toEqual([
        ...ids.slice(0, 2).map(() => 'suspended'),
        ...ids.slice(2, 6).map(() => 'active'),
        ...ids.slice(6).map(() => 'suspended'),
      ]);
      // One audit entry for each subscriber suspended, none for the others.
      const added = await Promise.all(ids.map(async (id, i) => (await auditCount([id], 'suspend')) - audits[i]));
      expect(added).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);

      // A role without the Status panel cannot retry a suspend (its own job, here one it could not have started).
      const harborUser = (await q(sql`select id, reseller_id from app_user where username = 'harbor'`))[0];
      const harborJob = await ctx.app.jobs.enqueue({
        kind: 'subscribers.bulk',
        userId: harborUser.id,
        resellerId: harborUser.resellerId,
        keys: [String(ids[3])],
        params: { action: 'suspend', params: {} },
      });
      const harborClient = ctx.client(await ctx.login('harbor'));
      expect(await waitFor(harborJob, harborClient)).toMatchObject({ status: 'failed', failed: 1 });
      expect((await harborClient.post(`/portal/jobs/${harborJob}/retry`)).statusCode).toBe(403);
      expect((await bluesky.post(`/portal/jobs/${job.id}/retry`)).statusCode).toBe(404);

      // The retry: the failed rows the caller still sees (not the other reseller's), nothing else.
      await sql`delete from subscriber_operation where subscriber_id = ${ids[2]} and status = 'pending'`.execute(ctx.db);
      const sent = ctx.app.coreNetwork.simulator!.received.length;
      const retry = await northwind.post(`/portal/jobs/${job.id}/retry`);
      expect(retry.statusCode, retry.body).toBe(202);
      expect(retry.json()).toMatchObject({ total: 4, leftOut: 1 });
      const again = await waitFor(retry.json().jobId);
      expect(again).toMatchObject({
        kind: 'subscribers.bulk',
        retryOf: job.id,
        status: 'done',
        total: 4,
        succeeded: 4,
        failed: 0,
        skipped: 0,
        params: { action: 'suspend' },
      });
      await ctx.app.coreNetwork.idle();
      expect(ctx.app.coreNetwork.simulator!.received.slice(sent).map((r) => r.subscriberId)).toEqual(ids.slice(2, 6));
      expect(await statuses(ids)).toEqual(ids.map(() => 'suspended'));
      const after = await Promise.all(ids.map(async (id, i) => (await auditCount([id], 'suspend')) - audits[i]));
      expect(after).toEqual([0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    });

    it('fails the subscribers the network never answered once the deadline passes; a late answer then changes nothing', async () => {
      const ids = nw.slice(1330, 1332);
      await readyToSuspend(ids);
      const runner = new JobRunner(ctx.db, ctx.app.log, { pollMs: 20, answerTimeoutSeconds: 0.5 });
      runner.register('test.bulk-deadline', bulkJobKind(ctx.db, { coreNetwork: ctx.app.coreNetwork, jobs: runner }));
      const user = (await q(sql`select id, reseller_id from app_user where username = 'northwind'`))[0];
      ctx.app.coreNetwork.simulator!.pause();
      try {
        const id = await runner.enqueue({
          kind: 'test.bulk-deadline',
          userId: user.id,
          resellerId: user.resellerId,
          keys: ids.map(String),
          params: { action: 'suspend', params: {} },
        });
        runner.start();
        const job = await waitFor(id);
        expect(job).toMatchObject({ status: 'failed', succeeded: 0, failed: 2, waiting: 0 });
        expect((await items(id)).map((i) => i.messageId)).toEqual(['subscriberOperation.failed.noAnswer', 'subscriberOperation.failed.noAnswer']);
        // The operations no longer block the subscribers.
        const ops = await q(sql`select status, message_id from subscriber_operation where request->>'bulk' = ${`job:${id}`} order by subscriber_id`);
        expect(ops).toEqual(ids.map(() => ({ status: 'failed', messageId: 'subscriberOperation.failed.noAnswer' })));
      } finally {
        ctx.app.coreNetwork.simulator!.resume();
        await runner.stop();
      }
      await ctx.app.coreNetwork.idle();
      expect(await statuses(ids)).toEqual(['active', 'active']);
    });

    it('a range roaming-profile change reports the same way: a job of the HSS answers, whose retry writes the failed again', async () => {
      const dual = profiles.find((p) => p.name === 'Global dual IMSI')!;
      const europe = profiles.find((p) => p.name === 'Europe IoT')!;
      await sql`update roaming_profile set review_state = 'approved' where id in (${dual.id}, ${europe.id})`.execute(ctx.db);
      // The caller's subscribers between two ids: the range's own.
      const range = nw.slice(1340, 1346);
      await sql`update subscriber set roaming_profile_id = null where subscriber_id in (${sql.join(range)})`.execute(ctx.db);
      await sql`update subscriber set roaming_profile_id = ${dual.id} where subscriber_id = ${range[5]}`.execute(ctx.db);
      await ctx.app.coreNetwork.idle();
      ctx.app.coreNetwork.simulator!.failNext(2, 'Diameter 5012 DIAMETER_UNABLE_TO_COMPLY');
      const res = await northwind.post('/portal/subscribers/roaming-profile', {
        roamingProfileId: dual.id,
        range: { rangeStart: range[0], rangeEnd: range[5] },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ total: 6, changed: 5, unchanged: 1, jobId: expect.any(Number) });
      const job = await waitFor(res.json().jobId);
      expect(job).toMatchObject({
        kind: 'subscribers.bulk',
        status: 'done',
        total: 6,
        succeeded: 3,
        failed: 2,
        skipped: 1,
        params: { action: 'roaming-profile', params: { roamingProfileId: dual.id } },
      });
      expect((await items(job.id)).map((i) => [Number(i.key), i.messageId, i.detail])).toEqual(
        range.slice(0, 2).map((id) => [id, 'subscriberOperation.failed.network', 'Diameter 5012 DIAMETER_UNABLE_TO_COMPLY']),
      );
      expect((await items(job.id, 'skipped')).map((i) => Number(i.key))).toEqual([range[5]]);
      expect(await auditCount(range.slice(0, 5), 'roaming-profile')).toBe(5);

      // The portal holds the profile already: the retry writes it to the HSS again, without a second audit entry.
      const sent = ctx.app.coreNetwork.simulator!.received.length;
      const retry = await northwind.post(`/portal/jobs/${job.id}/retry`);
      expect(retry.statusCode, retry.body).toBe(202);
      expect(await waitFor(retry.json().jobId)).toMatchObject({ status: 'done', total: 2, succeeded: 2, failed: 0, skipped: 0 });
      await ctx.app.coreNetwork.idle();
      expect(ctx.app.coreNetwork.simulator!.received.slice(sent).map((r) => [r.operation, r.subscriberId])).toEqual(
        range.slice(0, 2).map((id) => ['updateHssProfile', id]),
      );
      expect(await auditCount(range.slice(0, 5), 'roaming-profile')).toBe(5);
    });
  });

  describe('a CSV line through the network', () => {
    it('waits for every answer its changes asked for, and fails at a refusal of any of them', async () => {
      const dual = profiles.find((p) => p.name === 'Global dual IMSI')!;
      await sql`update roaming_profile set review_state = 'approved' where id = ${dual.id}`.execute(ctx.db);
      const ids = nw.slice(1350, 1353);
      await sql`delete from subscriber_operation where subscriber_id in (${sql.join(ids)}) and status = 'pending'`.execute(ctx.db);
      await sql`update subscriber set status = 'active', roaming_profile_id = null where subscriber_id in (${sql.join(ids)})`.execute(ctx.db);
      const subs = await q(sql`select subscriber_id as id, iccid from subscriber where subscriber_id in (${sql.join(ids)}) order by 1`);
      const csv = [
        'iccid,status,roamingProfileId',
        `${subs[0].iccid},suspended,${dual.id}`,
        `${subs[1].iccid},suspended,${dual.id}`,
        `${subs[2].iccid},suspended,`,
      ].join('\n');
      await ctx.app.coreNetwork.idle();
      // The first request sent is the first line's HSS write (a line's status change goes last).
      ctx.app.coreNetwork.simulator!.failNext(1, 'Diameter 5012 DIAMETER_UNABLE_TO_COMPLY');
      // Answers held back: every line applied, each waiting for the answers its changes asked for.
      ctx.app.coreNetwork.simulator!.pause();
      let jobId: number;
      try {
        const confirmed = await upload(multipart(csv), true);
        expect(confirmed.statusCode, confirmed.body).toBe(202);
        jobId = confirmed.json().jobId;
        for (let i = 0; i < 200 && (await northwind.get(`/portal/jobs/${jobId}`)).json().status !== 'waiting'; i++) await new Promise((r) => setTimeout(r, 25));
        expect((await northwind.get(`/portal/jobs/${jobId}`)).json()).toMatchObject({ status: 'waiting', succeeded: 0, waiting: 3 });
        expect((await q(sql`select answers from job_item where job_id = ${jobId} order by seq`)).map((i) => Number(i.answers))).toEqual([2, 2, 1]);
      } finally {
        ctx.app.coreNetwork.simulator!.resume();
      }
      const job = await waitFor(jobId);
      expect(job).toMatchObject({ status: 'done', total: 3, succeeded: 2, failed: 1, skipped: 0, waiting: 0 });
      const [failed] = (await northwind.get(`/portal/jobs/${job.id}/items`)).json().items;
      expect(failed).toMatchObject({ key: String(ids[0]), messageId: 'subscriberOperation.failed.network', detail: 'Diameter 5012 DIAMETER_UNABLE_TO_COMPLY' });
      const waited = await q(sql`select key, status, answers from job_item where job_id = ${job.id} order by seq`);
      expect(waited.map((i) => [Number(i.key), i.status, Number(i.answers)])).toEqual([
        [ids[0], 'failed', 0],
        [ids[1], 'done', 0],
        [ids[2], 'done', 0],
      ]);
      // A retry takes the failed line's changes along, stored beside the new job as they were.
      const retry = await northwind.post(`/portal/jobs/${job.id}/retry`);
      expect(retry.statusCode, retry.body).toBe(202);
      const linesOf = async (id: number) =>
        (await q(sql`select subscriber_id, changes from subscriber_upload_line where job_id = ${id} order by 1`)).map((l) => [
          Number(l.subscriberId),
          typeof l.changes === 'string' ? JSON.parse(l.changes) : l.changes,
        ]);
      const [first] = await linesOf(job.id);
      expect(first[0]).toBe(ids[0]);
      expect(await linesOf(retry.json().jobId)).toEqual([first]);
      await waitFor(retry.json().jobId);
    });

    it('retries no line of an upload while the CSV update lab is off for the tenant, and starts no job', async () => {
      const [id] = nw.slice(1360, 1361);
      await sql`delete from subscriber_operation where subscriber_id = ${id} and status = 'pending'`.execute(ctx.db);
      await sql`update subscriber set status = 'active' where subscriber_id = ${id}`.execute(ctx.db);
      const [sub] = await q(sql`select iccid from subscriber where subscriber_id = ${id}`);
      await ctx.app.coreNetwork.idle();
      ctx.app.coreNetwork.simulator!.failNext(1, 'Diameter 5012 DIAMETER_UNABLE_TO_COMPLY');
      const confirmed = await upload(multipart(`iccid,status\n${sub.iccid},suspended`), true);
      expect(confirmed.statusCode, confirmed.body).toBe(202);
      const job = await waitFor(confirmed.json().jobId);
      expect(job).toMatchObject({ kind: 'subscribers.csv', total: 1, succeeded: 0, failed: 1 });
      const jobs = async () => Number((await q(sql`select count(*) as n from job`))[0].n);
      const before = await jobs();
      const off = await northwind.put('/portal/labs/subscriberCsvUpdate', { enabled: false });
      expect(off.statusCode, off.body).toBe(200);
      try {
        const retry = await northwind.post(`/portal/jobs/${job.id}/retry`);
        expect(retry.statusCode, retry.body).toBe(403);
        expect(retry.json()).toMatchObject({ code: 'LAB_OFF' });
        expect(retry.json().message).toContain('subscriberCsvUpdate');
        expect(await jobs()).toBe(before);
        expect(await q(sql`select id from job where retry_of = ${job.id}`)).toEqual([]);
      } finally {
        expect((await northwind.put('/portal/labs/subscriberCsvUpdate', { enabled: true })).statusCode).toBe(200);
      }
      // Back on, the retry runs.
      const retry = await northwind.post(`/portal/jobs/${job.id}/retry`);
      expect(retry.statusCode, retry.body).toBe(202);
      expect(await waitFor(retry.json().jobId)).toMatchObject({ status: 'done', total: 1, succeeded: 1, retryOf: job.id });
    });
  });

  describe('CSV upload', () => {
    it('previews every rejected line with its reasons, writes nothing, then applies the valid lines as a job', async () => {
      const subs = await q(
        sql`select subscriber_id as id, iccid, imsi, group_name, daily_limit_bytes from subscriber where subscriber_id in (${sql.join(nw.slice(1700, 1705))}) order by 1`,
      );
      const foreign = (await q(sql`select iccid from subscriber where reseller_id = 3 limit 1`))[0].iccid;
      const csv = [
        'iccid,status,dailyLimitBytes,groupName',
        `${subs[0].iccid},,5000000,Bulk A`,
        `${subs[1].iccid},paused,,`,
        `${subs[2].iccid},,0,`,
        `${foreign},,,Stolen`,
        `${subs[3].iccid},,,Bulk B`,
        `${subs[3].iccid},,,Bulk C`,
        `${subs[4].iccid},,,${subs[4].groupName ?? ''}`,
      ].join('\n');
      const audits = await auditCount(subs.map((s) => s.id));
      const preview = await upload(multipart(csv));
      expect(preview.statusCode, preview.body).toBe(200);
      const body = preview.json();
      expect(body).toMatchObject({ total: 7, valid: 2, unchanged: 1 });
      expect(body.rejected.map((r: Row) => [r.line, r.fields.map((f: Row) => `${f.field}:${f.rule}`)])).toEqual([
        [3, ['status:enum']],
        [4, ['dailyLimitBytes:exclusiveMinimum']],
        [5, ['iccid:exists']],
        [7, ['iccid:unique']],
      ]);
      expect(body.rejected[0].values.status).toBe('paused');
      expect(await auditCount(subs.map((s) => s.id))).toBe(audits);

      const confirmed = await upload(multipart(csv), true);
      expect(confirmed.statusCode, confirmed.body).toBe(202);
      expect(await waitFor(confirmed.json().jobId)).toMatchObject({ kind: 'subscribers.csv', total: 2, succeeded: 2, failed: 0 });
      expect((await q(sql`select daily_limit_bytes, group_name from subscriber where subscriber_id = ${subs[0].id}`))[0]).toMatchObject({
        groupName: 'Bulk A',
      });
      expect(Number((await q(sql`select daily_limit_bytes from subscriber where subscriber_id = ${subs[0].id}`))[0].dailyLimitBytes)).toBe(5000000);
      expect((await q(sql`select group_name from subscriber where subscriber_id = ${subs[3].id}`))[0].groupName).toBe('Bulk B');
      expect(await auditCount([subs[1].id, subs[2].id, subs[4].id])).toBe(0);
    });

    it('checks many lines of distinct values each exactly as alone, and stores the valid ones as a job', async () => {
      const ids = nw.slice(1560, 1590);
      await sql`update subscriber set daily_limit_bytes = 1000, qos_throttling = null, name = null, imei = null where subscriber_id in (${sql.join(ids)})`.execute(
        ctx.db,
      );
      const subs = await q(sql`select subscriber_id as id, iccid, pricing_plan_id from subscriber where subscriber_id in (${sql.join(ids)}) order by 1`);
      const plan = (
        await q(
          sql`select pp.id from pricing_plan pp join reseller r on r.id = pp.reseller_id where r.path = '/-1/' or r.path like '/-1/1/%' order by 1 limit 1`,
        )
      )[0]?.id;
      // Every line its own values: a limit, a name; a known and an unknown QoS code, plan and IMEI pattern in turn.
      const lineOf = (s: Row, i: number) =>
        [
          s.iccid,
          1000 + (i % 5 === 4 ? 0 : i + 1),
          ['64kbps', 'no-such-qos', '', '128kbps'][i % 4],
          [plan ?? '', 987654 + i, ''][i % 3],
          `Line ${i}`,
          i % 7 === 3 ? `12AB${i}` : '',
        ].join(',');
      const header = 'iccid,dailyLimitBytes,qosThrottling,pricingPlanId,name,imei';
      const file = [header, ...subs.map(lineOf)].join('\n');
      const summary = (res: { json: () => any }) => {
        const body = res.json();
        return { ...body, rejected: body.rejected.map((r: Row) => r.fields.map((f: Row) => `${f.field}:${f.rule}:${f.messageId}`)) };
      };
      const whole = await upload(multipart(file));
      expect(whole.statusCode, whole.body).toBe(200);
      const alone = await Promise.all(subs.map(async (s, i) => summary(await upload(multipart(`${header}\n${lineOf(s, i)}`)))));
      const body = summary(whole);
      expect(body).toMatchObject({
        total: subs.length,
        valid: alone.reduce((n, a) => n + a.valid, 0),
        unchanged: alone.reduce((n, a) => n + a.unchanged, 0),
      });
      expect(body.rejected).toEqual(alone.flatMap((a) => a.rejected));
      expect(whole.json().rejected.map((r: Row) => r.line)).toEqual(alone.flatMap((a, i) => (a.rejected.length ? [i + 2] : [])));
      expect(body.valid).toBeGreaterThan(0);
      expect(body.rejected.length).toBeGreaterThan(0);

      const confirmed = await upload(multipart(file), true);
      expect(confirmed.statusCode, confirmed.body).toBe(202);
      const { jobId } = confirmed.json();
      const stored = await q(sql`select subscriber_id, changes from subscriber_upload_line where job_id = ${jobId} order by 1`);
      const items = await q(sql`select seq, key from job_item where job_id = ${jobId} order by seq`);
      expect(items.map((i) => Number(i.key))).toEqual(stored.map((l) => Number(l.subscriberId)));
      expect(items.map((i) => Number(i.seq))).toEqual(items.map((_, i) => i));
      const named = new Map(subs.map((s, i) => [Number(s.id), `Line ${i}`]));
      for (const line of stored) {
        const changes = typeof line.changes === 'string' ? JSON.parse(line.changes) : line.changes;
        expect(changes).toContainEqual({ action: 'details', params: { name: named.get(Number(line.subscriberId)) } });
      }
      await waitFor(jobId);
    });

    it('confirms a file just checked by the same caller on that check; the job checks each line again as it applies it', async () => {
      const [a, b] = nw.slice(1545, 1547);
      await sql`update subscriber set group_name = 'Before' where subscriber_id in (${a}, ${b})`.execute(ctx.db);
      const subs = await q(sql`select subscriber_id as id, iccid from subscriber where subscriber_id in (${a}, ${b}) order by 1`);
      const file = multipart(['iccid,groupName', `${subs[0].iccid},Checked A`, `${subs[1].iccid},Checked B`].join('\n'));
      expect((await upload(file)).json()).toEqual({ total: 2, valid: 2, unchanged: 0, rejected: [] });
      // Changed between the check and the confirmation: the confirmation answers as the check did, the job finds it so.
      await sql`update subscriber set group_name = 'Checked A' where subscriber_id = ${a}`.execute(ctx.db);
      const confirmed = await upload(file, true);
      expect(confirmed.statusCode, confirmed.body).toBe(202);
      expect(confirmed.json()).toMatchObject({ total: 2, valid: 2, unchanged: 0 });
      expect(await waitFor(confirmed.json().jobId)).toMatchObject({ total: 2, succeeded: 1, skipped: 1, failed: 0 });
      expect(await auditCount([a], 'group-name')).toBe(0);
      // Once: the same file confirmed again is checked in full.
      await sql`update subscriber set group_name = 'Checked B' where subscriber_id = ${b}`.execute(ctx.db);
      expect(fields(await upload(file, true))).toEqual([{ field: 'file', rule: 'rows', messageId: 'validation.csv.noValidLines' }]);
    });

    it('takes back an unedited export without a change, and refuses bad files', async () => {
      const harborAccount = (await q(sql`select account_id as id from account where name = 'Harbor Logistics'`))[0].id;
      const exported = await northwind.post('/portal/subscribers/list/download', { searchBy: 'accountId', searchKey: String(harborAccount) });
      expect(exported.statusCode).toBe(200);
      const lines = exported.body.trim().split('\r\n').length - 1;
      const back = await upload(multipart(exported.rawPayload));
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json()).toEqual({ total: lines, valid: 0, unchanged: lines, rejected: [] });
      expect(fields(await upload(multipart(exported.rawPayload), true))).toEqual([{ field: 'file', rule: 'rows', messageId: 'validation.csv.noValidLines' }]);

      expect(fields(await upload(multipart('name,status\nx,active\n')))).toEqual([{ field: 'file', rule: 'columns', messageId: 'validation.csv.key' }]);
      expect(fields(await upload(multipart('iccid,colour\n1,red\n')))).toEqual([
        { field: 'file.colour', rule: 'columns', messageId: 'validation.csv.columns' },
      ]);
      const big = await upload(multipart(Buffer.alloc(4 * 1024 * 1024, 'a')));
      expect(big.statusCode).toBe(400);
      expect(big.json().fields[0]).toMatchObject({ field: 'file', rule: 'size', message: 'File size should be less than 4 MB!' });
      expect(fields(await upload(multipart('iccid\n1\n', 'other')))).toEqual([{ field: 'file', rule: 'required', messageId: 'validation.file.required' }]);
      // A move column needs MoveSubscribers; an account user changes only its own account's subscribers.
      const sub = (await q(sql`select iccid from subscriber where account_id = ${harborAccount} limit 1`))[0].iccid;
      const other = (await q(sql`select iccid from subscriber where account_id <> ${harborAccount} and reseller_id = 1 limit 1`))[0].iccid;
      const harborToken = await ctx.login('harbor');
      const meridian = (await q(sql`select account_id as id from account where name = 'Meridian Fleet'`))[0].id;
      const moved = (await upload(multipart(`iccid,accountId,dailyLimitBytes\n${sub},${meridian},\n${other},,5\n`), false, harborToken)).json();
      expect(moved.rejected.map((r: Row) => r.fields.map((f: Row) => `${f.field}:${f.messageId}`))).toEqual([
        ['accountId:error.forbidden'],
        ['iccid:validation.csv.noSubscriber'],
      ]);
    });
  });

  describe('CSV job chunks', () => {
    it('applies a chunk of lines set-based exactly as line by line: values, audit entries, operation records', async () => {
      const [chunked, single] = [nw.slice(1800, 1806), nw.slice(1810, 1816)];
      const all = [...chunked, ...single];
      await sql`update subscriber set name = 'Before', apn = null, group_name = 'Old', daily_limit_bytes = null where subscriber_id in (${sql.join(all)})`.execute(
        ctx.db,
      );
      const changesOf = (i: number) => [
        ...(i < 5 ? [{ action: 'daily-limit', params: { dailyLimitBytes: 1000000 * (1 + (i % 2)) } }] : []),
        ...(i % 3 ? [{ action: 'group-name', params: { groupName: `Group ${i}` } }] : []),
        ...(i < 4 ? [{ action: 'details', params: { name: `Line ${i}`, ...(i % 2 ? { apn: `apn${i}.example` } : {}) } }] : []),
      ];
      const userId = Number((await q(sql`select id from app_user where username = 'northwind'`))[0].id);
      const auditsBefore = Number((await q(sql`select coalesce(max(id), 0) as n from subscriber_audit`))[0].n);
      const [{ id: jobId }] = await q(
        sql`insert into job (kind, user_id, reseller_id, status, total, params) values ('subscribers.csv', ${userId}, 1, 'done', 0, '{}') returning id`,
      );
      await ctx.db
        .insertInto('subscriberUploadLine')
        .values(all.map((id, n) => ({ jobId: Number(jobId), subscriberId: id, changes: JSON.stringify(changesOf(n % 6)) })))
        .execute();
      const kind = csvJobKind(ctx.db, ctx.app);
      const job = { id: Number(jobId), kind: 'subscribers.csv', userId, resellerId: 1, params: {} };
      const outcomes = await ctx.db.transaction().execute(async (trx) => {
        const chunk = await kind.applyChunk!(trx, chunked.map(String), job, () => undefined);
        const each = new Map();
        for (const id of single) each.set(String(id), await kind.apply(trx, String(id), job, () => undefined));
        return { chunk, each };
      });
      expect(chunked.map((id) => outcomes.chunk.get(String(id)))).toEqual(single.map((id) => outcomes.each.get(String(id))));
      const state = async (ids: number[]) =>
        Promise.all(
          ids.map(async (id) => ({
            subscriber: (await q(sql`select name, apn, group_name, daily_limit_bytes from subscriber where subscriber_id = ${id}`))[0],
            audit: (await q(sql`select action, before, after from subscriber_audit where subscriber_id = ${id} and id > ${auditsBefore} order by action`)).map(
              (a) => [a.action, typeof a.before === 'string' ? JSON.parse(a.before) : a.before, typeof a.after === 'string' ? JSON.parse(a.after) : a.after],
            ),
            operations: (
              await q(
                sql`select operation, status, request from subscriber_operation where subscriber_id = ${id} and request->>'bulk' = ${`job:${jobId}`} order by operation`,
              )
            ).map((o) => [o.operation, o.status, typeof o.request === 'string' ? JSON.parse(o.request) : o.request]),
          })),
        );
      const [after, expected] = [await state(chunked), await state(single)];
      expect(after).toEqual(expected);
      expect(after[1].subscriber).toMatchObject({ name: 'Line 1', apn: 'apn1.example', groupName: 'Group 1' });
      expect(after[1].audit.map((a) => a[0])).toEqual(['daily-limit', 'details', 'group-name']);
    });

    it('fails alone a line the database refuses among good lines of one chunk; the others change with their entries', async () => {
      const ids = nw.slice(1820, 1825);
      await sql`update subscriber set name = 'Before', group_name = 'Old' where subscriber_id in (${sql.join(ids)})`.execute(ctx.db);
      const subs = await q(sql`select subscriber_id as id, iccid from subscriber where subscriber_id in (${sql.join(ids)}) order by 1`);
      // The database itself refuses one name (as a constraint would): the checks of the upload let it through.
      await sql`create function refuse_test_name() returns trigger language plpgsql as $$
        begin
          if new.name = 'Refused line' then raise exception 'refused by the database'; end if;
          return new;
        end $$`.execute(ctx.db);
      await sql`create trigger refuse_test_name before update on subscriber for each row execute function refuse_test_name()`.execute(ctx.db);
      const refused = ids[2];
      let job: Row;
      try {
        const csv = ['iccid,name,groupName', ...subs.map((s) => `${s.iccid},${s.id === refused ? 'Refused line' : `Line ${s.id}`},Group ${s.id}`)].join('\n');
        const confirmed = await upload(multipart(csv), true);
        expect(confirmed.statusCode, confirmed.body).toBe(202);
        expect(confirmed.json()).toMatchObject({ valid: 5, rejected: [] });
        job = await waitFor(confirmed.json().jobId);
      } finally {
        await sql`drop trigger refuse_test_name on subscriber`.execute(ctx.db);
        await sql`drop function refuse_test_name()`.execute(ctx.db);
      }
      expect(job).toMatchObject({ status: 'done', total: 5, succeeded: 4, failed: 1, skipped: 0 });
      const items = await q(sql`select key, status, message_id from job_item where job_id = ${job.id} order by seq`);
      expect(items.map((i) => [Number(i.key), i.status, i.messageId])).toEqual(
        ids.map((id) => (id === refused ? [id, 'failed', 'job.reason.unexpected'] : [id, 'done', null])),
      );
      const rows = await q(sql`select subscriber_id as id, name, group_name from subscriber where subscriber_id in (${sql.join(ids)}) order by 1`);
      // A line changes all its columns or none: the refused one keeps its group too.
      expect(rows.map((r) => [r.id, r.name, r.groupName])).toEqual(
        ids.map((id) => (id === refused ? [id, 'Before', 'Old'] : [id, `Line ${id}`, `Group ${id}`])),
      );
      const entries = await q(
        sql`select subscriber_id as id, action, after from subscriber_audit where subscriber_id in (${sql.join(ids)}) and username = 'northwind'
          and action in ('details', 'group-name') and at >= (select created_at from job where id = ${job.id}) order by 1, 2`,
      );
      const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
      expect(entries.map((e) => [e.id, e.action, json(e.after)])).toEqual(
        ids
          .filter((id) => id !== refused)
          .flatMap((id) => [
            [id, 'details', { name: `Line ${id}` }],
            [id, 'group-name', { groupName: `Group ${id}` }],
          ]),
      );
      const operations = await q(
        sql`select subscriber_id as id, operation, status from subscriber_operation where request->>'bulk' = ${`job:${job.id}`} order by 1, 2`,
      );
      expect(operations.map((o) => [o.id, o.operation, o.status])).toEqual(
        ids
          .filter((id) => id !== refused)
          .flatMap((id) => [
            [id, 'details', 'success'],
            [id, 'group-name', 'success'],
          ]),
      );
    });
  });

  describe('CSV round trip of details', () => {
    it("changes the details edited in a downloaded export, by the subscriber page's rules", async () => {
      const harborAccount = (await q(sql`select account_id as id from account where name = 'Harbor Logistics'`))[0].id;
      const exported = await northwind.post('/portal/subscribers/list/download', { searchBy: 'accountId', searchKey: String(harborAccount) });
      const [header, first, second, ...rest] = exported.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      const columns = header.split(',');
      const parse = (line: string) => Papa.parse<string[]>(line).data[0];
      const edit = (line: string, values: Record<string, string>) => {
        const cells = parse(line);
        for (const [name, value] of Object.entries(values)) cells[columns.indexOf(name)] = value;
        return cells.map((c) => (/[",]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',');
      };
      const renamed = edit(first, { name: 'Tractor 9', apn: 'fleet.example', deviceType: 'Tracker' });
      const badImei = edit(second, { imei: '12AB' });
      const file = [header, renamed, badImei, ...rest].join('\r\n');
      const id = Number(parse(first)[columns.indexOf('subscriberId')]);
      const preview = (await upload(multipart(file))).json();
      expect(preview).toMatchObject({ total: rest.length + 2, valid: 1, unchanged: rest.length });
      expect(preview.rejected.map((r: Row) => [r.line, r.fields.map((f: Row) => `${f.field}:${f.messageId}`)])).toEqual([
        [3, ['imei:validation.imei.invalid']],
      ]);

      const confirmed = await upload(multipart(file), true);
      expect(confirmed.statusCode, confirmed.body).toBe(202);
      expect(await waitFor(confirmed.json().jobId)).toMatchObject({ status: 'done', succeeded: 1, failed: 0 });
      const after = (await northwind.get(`/portal/subscribers/${id}`)).json();
      expect(after).toMatchObject({ name: 'Tractor 9', apn: 'fleet.example', deviceType: 'Tracker' });
      const audit = await q(sql`select action, after from subscriber_audit where subscriber_id = ${id} order by id desc limit 1`);
      const changed = typeof audit[0].after === 'string' ? JSON.parse(audit[0].after) : audit[0].after;
      expect(audit[0].action).toBe('details');
      expect(changed).toEqual({ name: 'Tractor 9', apn: 'fleet.example', deviceType: 'Tracker' });
    });
  });

  describe('impact previews', () => {
    it("finds the subscribers seen on the networks an allowed list would block, and on a profile's dropped countries", async () => {
      const list = (await q(sql`select allowed_list_id as id, sponsor_id from allowed_list where name = 'Europe standard'`))[0];
      const [hit, old] = (
        await q(sql`select distinct s.subscriber_id as id from subscriber s join sponsor_imsi i using (subscriber_id)
        where i.sponsor_id = ${list.sponsorId} and s.reseller_id = 1 order by 1 limit 2`)
      ).map((r) => r.id);
      await sql`update subscriber set last_location_at = now() - interval '60 days' where subscriber_id in (${hit}, ${old})`.execute(ctx.db);
      await sql`insert into usage_record (subscriber_id, imsi, at, request_type, plmn) values
        (${hit}, '901280000000001', now() - interval '2 days', 'INITIAL', '23420'),
        (${old}, '901280000000002', now() - interval '40 days', 'INITIAL', '23420')`.execute(ctx.db);
      const res = await northwind.post(`/portal/allowed-lists/${list.id}/impact`, { plmns: ['23420'] });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ allowedListId: list.id, total: 1, countries: [{ country: 'GB', count: 1 }] });
      expect(body.subscribers.items.map((s: Row) => s.subscriberId)).toEqual([hit]);
      expect(body.subscribers.items[0].lastSeenAt).toEqual(expect.any(String));
      expect((await northwind.post(`/portal/allowed-lists/${list.id}/impact`, { countries: ['GB'] })).json().total).toBeGreaterThanOrEqual(1);
      expect(fields(await northwind.post(`/portal/allowed-lists/${list.id}/impact`, {}))).toEqual([
        { field: 'plmns', rule: 'required', messageId: 'validation.impact.networks' },
      ]);
      expect(fields(await northwind.post(`/portal/allowed-lists/${list.id}/impact`, { plmns: ['abc'] }))).toEqual([
        { field: 'plmns', rule: 'pattern', messageId: 'validation.plmn.invalid' },
      ]);
      expect((await bluesky.post(`/portal/allowed-lists/${list.id}/impact`, { plmns: ['23420'] })).statusCode).toBe(404);

      const europe = profiles.find((p) => p.name === 'Europe IoT')!;
      await sql`update subscriber set roaming_profile_id = ${europe.id} where subscriber_id = ${hit}`.execute(ctx.db);
      const profile = (await northwind.post(`/portal/roaming-profiles/${europe.id}/impact`, { countries: ['GB'] })).json();
      expect(profile.subscribers.items.map((s: Row) => s.subscriberId)).toContain(hit);
      expect(profile.countries.find((c: Row) => c.country === 'GB').count).toBeGreaterThanOrEqual(1);
      await sql`insert into roaming_profile_allowed_list (roaming_profile_id, allowed_list_id) values (${europe.id}, ${list.id})`.execute(ctx.db);
      await sql`update allowed_list_network set applied = 'preferred', target = null where allowed_list_id = ${list.id} and network_id = (select id from network where plmn = '23420')`.execute(
        ctx.db,
      );
      const dropped = (await northwind.post(`/portal/roaming-profiles/${europe.id}/impact`, { allowedListIds: [list.id] })).json();
      expect(dropped.subscribers.items.map((s: Row) => s.subscriberId)).toContain(hit);
      expect((await bluesky.post(`/portal/roaming-profiles/${europe.id}/impact`, { countries: ['GB'] })).statusCode).toBe(404);
      expect((await harbor.post(`/portal/roaming-profiles/${europe.id}/impact`, { countries: ['GB'] })).statusCode).toBe(403);
      expect((await admin.post(`/portal/roaming-profiles/${europe.id}/impact`, { countries: ['GB'] })).json().total).toBe(profile.total);
    });
  });
});
