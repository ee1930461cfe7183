/**
 * Devices seen in the network: the IMEI each subscriber's SIM was last seen in, its make and model from the TAC
 * (the IMEI's first 8 digits, table `equipment_tac`), and the IMEI changes the `imei_change` trigger records.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { notFound } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idParams, objectBody, pageNumberSchema, pageSizeSchema, pathId, searchTextSchema } from '../../http/input';
import type { Principal } from '../../http/principal';
import { escapeLike, subtreePattern } from '../../http/tenancy';
import { envelope } from '../subscribers/context';
import { devicePageSchema, imeiChangesSchema } from './schemas';

const tags = ['inventory'];
const config = { privilege: ['Inventory', 'Subscribers'] };
const SORTS: Record<string, string> = {
  imei: 's.imei',
  make: 't.make',
  model: 't.model',
  lastSeenAt: 's.last_location_at',
  iccid: 's.iccid',
  subscriberId: 's.subscriber_id',
};

/** The subscribers the caller sees, as a condition on `subscriber s` joined to `reseller r`. */
function visibleSubscribers(principal: Principal) {
  if (principal.isAdmin) return sql<boolean>`true`;
  if (principal.accountId !== null) return sql<boolean>`s.account_id = ${principal.accountId}`;
  return sql<boolean>`r.path like ${subtreePattern(principal)}`;
}

export function registerDeviceRoutes(app: FastifyInstance, db: Kysely<Database>) {
  app.post(
    '/portal/inventory/devices',
    {
      config,
      schema: {
        tags,
        summary: 'A page of the devices seen in the network, the SIM each is in and how often its SIM changed device',
        body: objectBody({
          page: {
            type: 'object',
            properties: { page: pageNumberSchema(), size: pageSizeSchema(500) },
            additionalProperties: false,
            errorMessage: { type: 'validation.page.invalid', additionalProperties: 'validation.unknownField' },
          },
          sortBy: { type: ['string', 'null'], enum: [...Object.keys(SORTS), null], maxLength: 40, errorMessage: 'validation.sortBy.invalid' },
          sortDir: { type: ['string', 'null'], enum: ['asc', 'desc', null], maxLength: 4, errorMessage: 'validation.sortDir.invalid' },
          searchKey: searchTextSchema(50),
        }),
        response: { 200: devicePageSchema },
      },
    },
    async (request) => {
      const body = (request.body ?? {}) as {
        page?: { page?: number; size?: number };
        sortBy?: string | null;
        sortDir?: string | null;
        searchKey?: string | null;
      };
      const page = body.page?.page ?? 0;
      const size = body.page?.size ?? 50;
      const conditions = [sql<boolean>`s.imei is not null`, visibleSubscribers(principalOf(request))];
      const key = body.searchKey?.trim();
      if (key) {
        const like = `%${escapeLike(key)}%`;
        conditions.push(sql<boolean>`(s.imei like ${like} or s.iccid like ${like} or t.make ilike ${like} or t.model ilike ${like})`);
      }
      const where = sql.join(conditions, sql` and `);
      const from = sql`subscriber s join reseller r on r.id = s.reseller_id join account a on a.account_id = s.account_id
        join sim_card c on c.iccid = s.iccid left join equipment_tac t on t.tac = left(s.imei, 8)`;
      const [{ n }] = (await sql<{ n: number }>`select count(*)::int as n from ${from} where ${where}`.execute(db)).rows;
      const order = sql.raw(`${SORTS[body.sortBy ?? 'imei']} ${body.sortDir === 'desc' ? 'desc' : 'asc'} nulls last, s.subscriber_id`);
      const rows = await sql<Record<string, unknown>>`select s.imei, left(s.imei, 8) as tac, t.make, t.model, t.device_type, s.subscriber_id,
        s.name as subscriber_name, s.iccid, s.imsi, c.sim_type, c.activation_code, a.name as account_name, r.name as reseller_name,
        s.last_location_at as last_seen_at, (select count(*)::int from imei_change ic where ic.subscriber_id = s.subscriber_id) as changes
        from ${from} where ${where} order by ${order} limit ${size} offset ${page * size}`.execute(db);
      return envelope(rows.rows, n, page, size);
    },
  );

  app.get(
    '/portal/inventory/devices/:id/changes',
    {
      config,
      schema: {
        tags,
        summary: "The IMEI changes of a subscriber's SIM (the id is the subscriber's), newest first",
        params: idParams(),
        response: { 200: imeiChangesSchema },
      },
    },
    async (request) => {
      const id = pathId(request);
      const principal = principalOf(request);
      const seen =
        await sql`select 1 from subscriber s join reseller r on r.id = s.reseller_id where s.subscriber_id = ${id} and ${visibleSubscribers(principal)}`.execute(
          db,
        );
      if (!seen.rows.length) throw notFound();
      const rows = await sql<Record<string, unknown>>`select ic.id::int as id, ic.at, ic.iccid, ic.imei, ic.previous_imei, t.make, t.model
        from imei_change ic left join equipment_tac t on t.tac = left(ic.imei, 8) where ic.subscriber_id = ${id} order by ic.at desc, ic.id desc limit 200`.execute(
        db,
      );
      return rows.rows;
    },
  );
}
